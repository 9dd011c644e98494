#include "model/model.h"

#include "core/error.h"
#include "core/json_text.h"
#include "model/kernels.h"

#include <nlohmann/json.hpp>

#include <charconv>
#include <cstring>
#include <string>

// A model's parameters as a file a student can open ({"layers":[{"weight":..., "bias":...}]}),
// and as one hash that tells replicas apart.

namespace lockstep {

using kernels::check_parameters;
using kernels::check_shape;
using kernels::width;

namespace {

// Reads one JSON array of numbers into `out`, naming `where` in any error.
void read_numbers(const nlohmann::json& array, std::size_t expected, const std::string& where,
                  double* out) {
    if (!array.is_array())
        throw Error("parameter file: " + where + " must be an array of " +
                    std::to_string(expected) + " numbers");
    if (array.size() != expected)
        throw Error("parameter file: " + where + " has " + std::to_string(array.size()) +
                    " entries, expected " + std::to_string(expected));
    for (std::size_t k = 0; k < expected; ++k) {
        if (!array[k].is_number())
            throw Error("parameter file: " + where + "[" + std::to_string(k) + "] is not a number");
        out[k] = array[k].get<double>();
    }
}

} // namespace

std::uint64_t hash_parameters(std::span<const double> parameters) {
    // FNV-1a over whole 64-bit words: each step is a bijection of the running hash, so changing
    // any one parameter's bits always changes the result; eight times fewer steps than bytes.
    std::uint64_t hash = 0xcbf29ce484222325ULL;
    for (double p : parameters) {
        hash ^= std::bit_cast<std::uint64_t>(p);
        hash *= 0x100000001b3ULL;
    }
    return hash;
}

std::string parameters_to_json(const ModelShape& shape, std::span<const double> parameters) {
    check_parameters(shape, parameters);
    nlohmann::json layers = nlohmann::json::array();
    for (std::size_t l = 0; l < shape.layer_count(); ++l) {
        const std::size_t in = width(shape, l);
        const std::size_t out = width(shape, l + 1);
        const double* w = parameters.data() + shape.weight_offset(l);
        const double* b = parameters.data() + shape.bias_offset(l);
        // JSON has no NaN or infinity: refuse rather than write a file that cannot be read back.
        for (const double* p = w; p != b + out; ++p)
            if (!std::isfinite(*p))
                throw Error("cannot save parameters: layers[" + std::to_string(l) +
                            "] holds a non-finite value (training diverged?)");
        nlohmann::json weight = nlohmann::json::array();
        for (std::size_t o = 0; o < out; ++o)
            weight.push_back(std::vector<double>(w + o * in, w + (o + 1) * in));
        layers.push_back(
            {{"weight", std::move(weight)}, {"bias", std::vector<double>(b, b + out)}});
    }
    return nlohmann::json{{"layers", std::move(layers)}}.dump();
}

std::vector<double> parameters_from_json(const ModelShape& shape, std::string_view json_text) {
    check_shape(shape);
    nlohmann::json doc;
    try {
        doc = parse_json_strictly(json_text);
    } catch (const JsonTextError& e) {
        throw Error(std::string("parameter file is not valid JSON: ") + e.what());
    }
    if (!doc.is_object() || !doc.contains("layers"))
        throw Error("parameter file: expected an object with a \"layers\" array");
    for (const auto& item : doc.items())
        if (item.key() != "layers")
            throw Error("parameter file: unknown key \"" + item.key() + "\"");
    const nlohmann::json& layers = doc["layers"];
    if (!layers.is_array() || layers.size() != shape.layer_count())
        throw Error("parameter file: \"layers\" has " +
                    std::to_string(layers.is_array() ? layers.size() : 0) +
                    " layers, the model has " + std::to_string(shape.layer_count()));

    std::vector<double> parameters(shape.parameter_count());
    for (std::size_t l = 0; l < shape.layer_count(); ++l) {
        const std::size_t in = width(shape, l);
        const std::size_t out = width(shape, l + 1);
        const std::string name = "layers[" + std::to_string(l) + "]";
        const nlohmann::json& layer = layers[l];
        if (!layer.is_object())
            throw Error("parameter file: " + name + " must be an object with weight and bias");
        for (const auto& item : layer.items())
            if (item.key() != "weight" && item.key() != "bias")
                throw Error("parameter file: " + name + " has unknown key \"" + item.key() + "\"");
        if (!layer.contains("weight") || !layer.contains("bias"))
            throw Error("parameter file: " + name + " needs both \"weight\" and \"bias\"");
        const nlohmann::json& weight = layer["weight"];
        if (!weight.is_array() || weight.size() != out)
            throw Error("parameter file: " + name + ".weight has " +
                        std::to_string(weight.is_array() ? weight.size() : 0) + " rows, expected " +
                        std::to_string(out));
        double* w = parameters.data() + shape.weight_offset(l);
        for (std::size_t o = 0; o < out; ++o)
            read_numbers(weight[o], in, name + ".weight[" + std::to_string(o) + "]", w + o * in);
        read_numbers(layer["bias"], out, name + ".bias", parameters.data() + shape.bias_offset(l));
    }
    round_to_precision(shape.precision, parameters);
    return parameters;
}

} // namespace lockstep
