#include "lockstep/model.h"

#include "lockstep/error.h"
#include "lockstep/rng.h"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <cmath>
#include <cstring>
#include <string>

namespace lockstep {

namespace {

// Rows handled per forward/backward sweep. Large batches are cut into chunks of this size so the
// workspace stays small; every sum still runs over rows in ascending order, so chunking never
// changes a bit of the result.
constexpr std::size_t chunk_rows = 128;

std::size_t width(const ModelShape& shape, std::size_t index) {
    return static_cast<std::size_t>(shape.layers[index]);
}

// Rejects shapes no network can have, before any offset arithmetic trusts them.
void check_shape(const ModelShape& shape) {
    if (shape.layers.size() < 2)
        throw Error("model needs at least an input and an output layer, got " +
                    std::to_string(shape.layers.size()) + " layer width(s)");
    for (std::size_t i = 0; i < shape.layers.size(); ++i)
        if (shape.layers[i] < 1)
            throw Error("model layer width layers[" + std::to_string(i) + "] is " +
                        std::to_string(shape.layers[i]) + ", must be at least 1");
    if (shape.loss == LossKind::SoftmaxCrossEntropy && shape.outputs() < 2)
        throw Error("softmax cross-entropy needs at least 2 outputs, the model has " +
                    std::to_string(shape.outputs()));
}

void check_parameters(const ModelShape& shape, std::span<const double> parameters) {
    check_shape(shape);
    if (parameters.size() != shape.parameter_count())
        throw Error("model has " + std::to_string(shape.parameter_count()) + " parameters, got " +
                    std::to_string(parameters.size()));
}

// Grows a buffer only when it is too small, so steady-state training never allocates.
double* ensure(std::vector<double>& buffer, std::size_t size) {
    if (buffer.size() < size)
        buffer.resize(size);
    return buffer.data();
}

// Sum of the widths of layers 1..L: one row of stored activations.
std::size_t activation_row(const ModelShape& shape) {
    std::size_t total = 0;
    for (std::size_t l = 1; l < shape.layers.size(); ++l)
        total += width(shape, l);
    return total;
}

// Copies every weight matrix transposed (wt[i][o] = w[o][i]) to the same offset in `wt`, so the
// forward pass can run as unit-stride updates of a whole output row.
void transpose_weights(const ModelShape& shape, const double* params, double* wt) {
    for (std::size_t l = 0; l < shape.layer_count(); ++l) {
        const std::size_t in = width(shape, l);
        const std::size_t out = width(shape, l + 1);
        const double* w = params + shape.weight_offset(l);
        double* t = wt + shape.weight_offset(l);
        for (std::size_t o = 0; o < out; ++o)
            for (std::size_t i = 0; i < in; ++i)
                t[i * out + o] = w[o * in + i];
    }
}

// z[b][o] = bias[o] + x[b][0]*w[o][0] + x[b][1]*w[o][1] + ..., summed in that order; `wt` is w
// transposed, so the inner loop runs over a whole output row and vectorises without reordering.
void affine_forward(const double* __restrict x, std::size_t rows, std::size_t in, std::size_t out,
                    const double* __restrict wt, const double* __restrict bias,
                    double* __restrict z) {
    for (std::size_t b = 0; b < rows; ++b) {
        const double* xr = x + b * in;
        double* zr = z + b * out;
        for (std::size_t o = 0; o < out; ++o)
            zr[o] = bias[o];
        for (std::size_t i = 0; i < in; ++i) {
            const double xi = xr[i];
            const double* wr = wt + i * out;
            for (std::size_t o = 0; o < out; ++o)
                zr[o] += xi * wr[o];
        }
    }
}

// Applies a hidden layer's activation in place; one loop per kind keeps the loops branch-free.
void activate(Activation activation, double* __restrict a, std::size_t n) {
    switch (activation) {
    case Activation::Tanh:
        for (std::size_t k = 0; k < n; ++k)
            a[k] = std::tanh(a[k]);
        break;
    case Activation::Relu:
        for (std::size_t k = 0; k < n; ++k)
            a[k] = a[k] > 0.0 ? a[k] : 0.0;
        break;
    case Activation::Sigmoid:
        for (std::size_t k = 0; k < n; ++k)
            a[k] = 1.0 / (1.0 + std::exp(-a[k]));
        break;
    case Activation::Linear:
        break;
    }
}

// Multiplies back-propagated deltas by the activation's derivative, written in terms of the
// activation's output `a` (which is what the forward pass kept).
void activation_backward(Activation activation, const double* __restrict a, double* __restrict d,
                         std::size_t n) {
    switch (activation) {
    case Activation::Tanh:
        for (std::size_t k = 0; k < n; ++k)
            d[k] *= 1.0 - a[k] * a[k];
        break;
    case Activation::Relu:
        for (std::size_t k = 0; k < n; ++k)
            d[k] = a[k] > 0.0 ? d[k] : 0.0;
        break;
    case Activation::Sigmoid:
        for (std::size_t k = 0; k < n; ++k)
            d[k] *= a[k] * (1.0 - a[k]);
        break;
    case Activation::Linear:
        break;
    }
}

// Runs `rows` rows through the network; layer l's outputs land at acts + rows*(offset of l).
// Returns the logits.
const double* forward(const ModelShape& shape, const double* params, const double* wt,
                      const double* features, std::size_t rows, double* acts) {
    const double* x = features;
    double* z = acts;
    const std::size_t last = shape.layer_count() - 1;
    for (std::size_t l = 0; l <= last; ++l) {
        const std::size_t in = width(shape, l);
        const std::size_t out = width(shape, l + 1);
        affine_forward(x, rows, in, out, wt + shape.weight_offset(l), params + shape.bias_offset(l),
                       z);
        if (l != last)
            activate(shape.activation, z, rows * out);
        x = z;
        z += rows * out;
    }
    return x;
}

// The class index a target encodes, or an Error naming the row.
std::size_t class_index(double label, std::size_t classes, std::size_t row) {
    if (!(label >= 0.0 && label < static_cast<double>(classes)) || label != std::floor(label))
        throw Error("batch row " + std::to_string(row) + ": label " + std::to_string(label) +
                    " is not a class index in [0, " + std::to_string(classes) + ")");
    return static_cast<std::size_t>(label);
}

// Per-row loss of the output layer, summed in row order into `total`; when `delta` is given it
// receives d(mean loss)/d(logits), with `scale` = 1/batch (and 1/outputs for MSE folded in).
void output_loss(const ModelShape& shape, const double* logits, const double* targets,
                 std::size_t rows, std::size_t first_row, double scale, double* delta,
                 double& total, std::size_t& correct) {
    const std::size_t m = static_cast<std::size_t>(shape.outputs());
    if (shape.loss == LossKind::SoftmaxCrossEntropy) {
        for (std::size_t b = 0; b < rows; ++b) {
            const double* z = logits + b * m;
            const std::size_t label = class_index(targets[b], m, first_row + b);
            std::size_t arg = 0;
            double top = z[0];
            for (std::size_t o = 1; o < m; ++o)
                if (z[o] > top) {
                    top = z[o];
                    arg = o;
                }
            double sum = 0.0;
            for (std::size_t o = 0; o < m; ++o) {
                const double e = std::exp(z[o] - top);
                if (delta)
                    delta[b * m + o] = e;
                sum += e;
            }
            total += std::log(sum) - (z[label] - top);
            correct += arg == label ? 1 : 0;
            if (delta) {
                double* d = delta + b * m;
                const double inv_sum = 1.0 / sum;
                for (std::size_t o = 0; o < m; ++o)
                    d[o] = d[o] * inv_sum * scale;
                d[label] -= scale;
            }
        }
    } else {
        for (std::size_t b = 0; b < rows; ++b) {
            const double* z = logits + b * m;
            double row_sum = 0.0;
            for (std::size_t o = 0; o < m; ++o) {
                const double diff = z[o] - targets[b];
                row_sum += diff * diff;
                if (delta)
                    delta[b * m + o] = 2.0 * diff * scale;
            }
            total += row_sum;
        }
    }
}

// Accumulates one layer's weight and bias gradients over `rows` rows: gw[o][i] += d[b][o]*x[b][i]
// and gb[o] += d[b][o], rows in ascending order. The loop nest is chosen so the inner loop runs
// over the wider of the two dimensions; the order of additions into each entry is the same either
// way, so the result is identical.
void accumulate_layer_gradient(const double* __restrict x, const double* __restrict d,
                               std::size_t rows, std::size_t in, std::size_t out,
                               double* __restrict gw, double* __restrict gb,
                               double* __restrict gwt) {
    if (in >= out) {
        for (std::size_t o = 0; o < out; ++o) {
            double* g = gw + o * in;
            for (std::size_t b = 0; b < rows; ++b) {
                const double db = d[b * out + o];
                const double* xr = x + b * in;
                for (std::size_t i = 0; i < in; ++i)
                    g[i] += db * xr[i];
            }
        }
    } else {
        // gwt holds this layer's weight gradient transposed, [i][o], carried across chunks.
        for (std::size_t b = 0; b < rows; ++b) {
            const double* dr = d + b * out;
            for (std::size_t i = 0; i < in; ++i) {
                const double xi = x[b * in + i];
                double* g = gwt + i * out;
                for (std::size_t o = 0; o < out; ++o)
                    g[o] += xi * dr[o];
            }
        }
    }
    for (std::size_t b = 0; b < rows; ++b) {
        const double* dr = d + b * out;
        for (std::size_t o = 0; o < out; ++o)
            gb[o] += dr[o];
    }
}

// dx[b][i] = d[b][0]*w[0][i] + d[b][1]*w[1][i] + ...: deltas sent back through one layer.
void affine_backward_input(const double* __restrict d, std::size_t rows, std::size_t in,
                           std::size_t out, const double* __restrict w, double* __restrict dx) {
    for (std::size_t b = 0; b < rows; ++b) {
        double* dxr = dx + b * in;
        const double* dr = d + b * out;
        for (std::size_t i = 0; i < in; ++i)
            dxr[i] = 0.0;
        for (std::size_t o = 0; o < out; ++o) {
            const double db = dr[o];
            const double* wr = w + o * in;
            for (std::size_t i = 0; i < in; ++i)
                dxr[i] += db * wr[i];
        }
    }
}

// Forward and loss for a batch, chunk by chunk; with `gradient` non-empty also the backward pass.
LossResult run_batch(const ModelShape& shape, std::span<const double> parameters,
                     const BatchView& batch, std::span<double> gradient, bool want_gradient,
                     Workspace& work) {
    check_parameters(shape, parameters);
    if (want_gradient && gradient.size() != parameters.size())
        throw Error("gradient has " + std::to_string(gradient.size()) + " entries, model has " +
                    std::to_string(parameters.size()) + " parameters");
    LossResult result;
    result.count = batch.count;
    if (batch.count == 0)
        throw Error("cannot compute a loss over an empty batch");
    if (!batch.features || !batch.targets)
        throw Error("batch has no feature or target data");

    const std::size_t in0 = width(shape, 0);
    const std::size_t m = static_cast<std::size_t>(shape.outputs());
    const std::size_t chunk = std::min(batch.count, chunk_rows);
    const std::size_t weights_total = shape.parameter_count();
    double* acts = ensure(work.activations, chunk * activation_row(shape));
    double* wt = ensure(work.scratch, want_gradient ? 2 * weights_total : weights_total);
    double* gwt = wt + weights_total;
    double* deltas = want_gradient ? ensure(work.deltas, 2 * chunk * shape.widest()) : nullptr;
    const double* params = parameters.data();
    transpose_weights(shape, params, wt);
    if (want_gradient) {
        std::fill(gradient.begin(), gradient.end(), 0.0);
        std::fill(gwt, gwt + weights_total, 0.0);
    }

    const double per_row = shape.loss == LossKind::MeanSquaredError
                               ? static_cast<double>(batch.count) * static_cast<double>(m)
                               : static_cast<double>(batch.count);
    const double scale = 1.0 / per_row;
    double total = 0.0;
    const std::size_t last = shape.layer_count() - 1;
    for (std::size_t first = 0; first < batch.count; first += chunk) {
        const std::size_t rows = std::min(chunk, batch.count - first);
        const double* x0 = batch.features + first * in0;
        const double* logits = forward(shape, params, wt, x0, rows, acts);
        double* d = deltas;
        output_loss(shape, logits, batch.targets + first, rows, first, scale, d, total,
                    result.correct);
        if (!want_gradient)
            continue;

        // Backward: from the output layer down, each layer adds its gradient and hands its
        // input deltas to the layer below (ping-pong between the two halves of `deltas`).
        double* d_next = deltas + chunk * shape.widest();
        const double* layer_out = logits;
        for (std::size_t l = last + 1; l-- > 0;) {
            const std::size_t in = width(shape, l);
            const std::size_t out = width(shape, l + 1);
            const double* x = l == 0 ? x0 : layer_out - rows * in;
            accumulate_layer_gradient(x, d, rows, in, out, gradient.data() + shape.weight_offset(l),
                                      gradient.data() + shape.bias_offset(l),
                                      gwt + shape.weight_offset(l));
            if (l == 0)
                break;
            affine_backward_input(d, rows, in, out, params + shape.weight_offset(l), d_next);
            activation_backward(shape.activation, x, d_next, rows * in);
            std::swap(d, d_next);
            layer_out = x;
        }
    }

    // Layers whose weight gradient was gathered transposed: put it back in [out][in] order.
    if (want_gradient)
        for (std::size_t l = 0; l <= last; ++l) {
            const std::size_t in = width(shape, l);
            const std::size_t out = width(shape, l + 1);
            if (in >= out)
                continue;
            const double* t = gwt + shape.weight_offset(l);
            double* g = gradient.data() + shape.weight_offset(l);
            for (std::size_t o = 0; o < out; ++o)
                for (std::size_t i = 0; i < in; ++i)
                    g[o * in + i] = t[i * out + o];
        }

    result.loss = total * scale;
    if (shape.loss == LossKind::MeanSquaredError)
        result.correct = 0;
    return result;
}

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

std::string_view to_string(Activation activation) {
    switch (activation) {
    case Activation::Tanh:
        return "tanh";
    case Activation::Relu:
        return "relu";
    case Activation::Sigmoid:
        return "sigmoid";
    case Activation::Linear:
        return "linear";
    }
    return "unknown";
}

bool parse_activation(std::string_view text, Activation& out) {
    for (Activation a :
         {Activation::Tanh, Activation::Relu, Activation::Sigmoid, Activation::Linear})
        if (text == to_string(a)) {
            out = a;
            return true;
        }
    return false;
}

std::size_t ModelShape::weight_offset(std::size_t layer) const {
    std::size_t offset = 0;
    for (std::size_t l = 0; l < layer; ++l)
        offset += width(*this, l) * width(*this, l + 1) + width(*this, l + 1);
    return offset;
}

std::size_t ModelShape::bias_offset(std::size_t layer) const {
    return weight_offset(layer) + width(*this, layer) * width(*this, layer + 1);
}

std::size_t ModelShape::parameter_count() const {
    return weight_offset(layer_count());
}

std::size_t ModelShape::widest() const {
    int widest = 0;
    for (int w : layers)
        widest = std::max(widest, w);
    return static_cast<std::size_t>(widest);
}

std::vector<double> init_parameters(const ModelShape& shape, Rng& rng) {
    check_shape(shape);
    std::vector<double> parameters(shape.parameter_count());
    for (std::size_t l = 0; l < shape.layer_count(); ++l) {
        const double bound = 1.0 / std::sqrt(static_cast<double>(shape.layers[l]));
        const std::size_t end =
            l + 1 < shape.layer_count() ? shape.weight_offset(l + 1) : parameters.size();
        for (std::size_t k = shape.weight_offset(l); k < end; ++k)
            parameters[k] = rng.uniform(-bound, bound);
    }
    return parameters;
}

LossResult loss_and_gradient(const ModelShape& shape, std::span<const double> parameters,
                             const BatchView& batch, std::span<double> gradient, Workspace& work) {
    return run_batch(shape, parameters, batch, gradient, true, work);
}

LossResult evaluate(const ModelShape& shape, std::span<const double> parameters,
                    const BatchView& batch, Workspace& work) {
    return run_batch(shape, parameters, batch, {}, false, work);
}

void predict(const ModelShape& shape, std::span<const double> parameters, const double* features,
             std::size_t count, std::span<double> out, Workspace& work) {
    check_parameters(shape, parameters);
    const std::size_t m = static_cast<std::size_t>(shape.outputs());
    if (out.size() < count * m)
        throw Error("prediction buffer has " + std::to_string(out.size()) + " entries, needs " +
                    std::to_string(count * m));
    if (count == 0)
        return;
    const std::size_t in0 = width(shape, 0);
    const std::size_t chunk = std::min(count, chunk_rows);
    double* acts = ensure(work.activations, chunk * activation_row(shape));
    double* wt = ensure(work.scratch, shape.parameter_count());
    transpose_weights(shape, parameters.data(), wt);
    for (std::size_t first = 0; first < count; first += chunk) {
        const std::size_t rows = std::min(chunk, count - first);
        const double* logits =
            forward(shape, parameters.data(), wt, features + first * in0, rows, acts);
        std::copy(logits, logits + rows * m, out.begin() + static_cast<std::ptrdiff_t>(first * m));
    }
}

std::uint64_t hash_parameters(std::span<const double> parameters) {
    std::uint64_t hash = 0xcbf29ce484222325ULL;
    const auto* bytes = reinterpret_cast<const unsigned char*>(parameters.data());
    const std::size_t size = parameters.size_bytes();
    for (std::size_t k = 0; k < size; ++k) {
        hash ^= bytes[k];
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
        doc = nlohmann::json::parse(json_text);
    } catch (const nlohmann::json::parse_error& e) {
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
    return parameters;
}

} // namespace lockstep
