#include "model/model.h"

#include "core/error.h"
#include "core/rng.h"
#include "model/kernels.h"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <bit>
#include <charconv>
#include <cmath>
#include <cstring>
#include <string>

namespace lockstep {

using namespace kernels;

namespace {

constexpr std::size_t chunk_rows = pass_rows;

// Sum of the widths of layers 1..L: one row of stored activations.
std::size_t activation_row(const ModelShape& shape) {
    std::size_t total = 0;
    for (std::size_t l = 1; l < shape.layers.size(); ++l)
        total += width(shape, l);
    return total;
}

// The buffers one pass of T uses.
template <class T> struct PassBuffers {
    AlignedVector<T>& activations;
    AlignedVector<T>& deltas;
    AlignedVector<T>& scratch;
};

// Forward and loss for a batch of `count` rows, chunk by chunk, in T; with a `gradient` (the
// parameters' count of T) also the backward pass.
template <class T>
LossResult run_pass(const ModelShape& shape, const T* params, const T* features,
                    const double* targets, std::size_t count, T* gradient, PassBuffers<T> work,
                    const LayerDone* done) {
    const bool want_gradient = gradient != nullptr;
    LossResult result;
    result.count = count;
    const std::size_t in0 = width(shape, 0);
    const std::size_t m = static_cast<std::size_t>(shape.outputs());
    const std::size_t chunk = std::min(count, chunk_rows);
    const std::size_t weights_total = shape.parameter_count();
    T* acts = ensure(work.activations, chunk * activation_row(shape));
    T* wt = ensure(work.scratch, want_gradient ? 2 * weights_total : weights_total);
    T* gwt = wt + weights_total;
    // The backward pass's deltas, ping-pong; evaluating needs only the loss's at the outputs.
    T* deltas = ensure(work.deltas, want_gradient ? 2 * chunk * shape.widest() : chunk * m);
    const LayerRange all{0, shape.layer_count()};
    transpose_weights(shape, all, count, params, wt);
    if (want_gradient) {
        std::fill_n(gradient, weights_total, T(0));
        for (std::size_t l = 0; l < shape.layer_count(); ++l)
            if (width(shape, l) < width(shape, l + 1))
                std::fill_n(gwt + shape.weight_offset(l), width(shape, l) * width(shape, l + 1),
                            T(0));
    }

    const double per_row = shape.loss == LossKind::MeanSquaredError
                               ? static_cast<double>(count) * static_cast<double>(m)
                               : static_cast<double>(count);
    const double scale = 1.0 / per_row;
    double total = 0.0;
    for (std::size_t first = 0; first < count; first += chunk) {
        const std::size_t rows = std::min(chunk, count - first);
        const T* x0 = features + first * in0;
        const T* logits = forward(shape, all, count, params, wt, x0, rows, acts);
        T* d = deltas;
        output_loss(shape, logits, targets + first, rows, first, scale, d, total, result.correct);
        if (!want_gradient)
            continue;

        // In the last rows' pass each layer's gradient is final once it is added in: put back in
        // order (when gathered transposed), it is handed over while backward goes on.
        const bool last = first + rows == count;
        const std::function<void(std::size_t)> finish = [&](std::size_t l) {
            untranspose_gradient(shape, {l, l + 1}, gwt + shape.weight_offset(l),
                                 gradient + shape.weight_offset(l));
            (*done)(l);
        };
        if (done && last)
            (*done)(shape.layer_count());
        backward_layers(shape, all, params, x0, acts, rows, d, deltas + chunk * shape.widest(),
                        gradient, gwt, static_cast<T*>(nullptr), done && last ? &finish : nullptr);
    }
    if (want_gradient && !done)
        untranspose_gradient(shape, all, gwt, gradient);

    result.loss = total * scale;
    return result;
}

// A float32 model's pass: its parameters and the batch's features as floats, the pass in floats,
// the gradient back in the caller's doubles (exactly: every float is a double), each layer's as
// soon as it is final when `done` wants it.
LossResult run_float_pass(const ModelShape& shape, std::span<const double> parameters,
                          const BatchView& batch, std::span<double> gradient, bool want_gradient,
                          Workspace::Floats& work, const LayerDone* done) {
    const auto to_floats = [](const double* from, std::size_t n, AlignedVector<float>& into) {
        float* out = ensure(into, n);
        for (std::size_t i = 0; i < n; ++i)
            out[i] = static_cast<float>(from[i]);
        return out;
    };
    const std::size_t n = parameters.size();
    const float* params = to_floats(parameters.data(), n, work.parameters);
    const float* features = to_floats(batch.features, batch.count * width(shape, 0), work.features);
    float* floats = want_gradient ? ensure(work.gradient, n) : nullptr;
    const auto to_doubles = [&](std::size_t from, std::size_t to) {
        std::copy(floats + from, floats + to, gradient.begin() + static_cast<std::ptrdiff_t>(from));
    };
    const LayerDone handed = [&](std::size_t l) {
        if (l < shape.layer_count())
            to_doubles(shape.weight_offset(l), shape.weight_offset(l + 1));
        (*done)(l);
    };
    const LossResult result =
        run_pass<float>(shape, params, features, batch.targets, batch.count, floats,
                        {work.activations, work.deltas, work.scratch}, done ? &handed : nullptr);
    if (want_gradient && !done)
        to_doubles(0, n);
    return result;
}

// Forward and loss for a batch, in the model's precision; with `want_gradient` also the backward
// pass.
LossResult run_batch(const ModelShape& shape, std::span<const double> parameters,
                     const BatchView& batch, std::span<double> gradient, bool want_gradient,
                     Workspace& work, const LayerDone* done = nullptr) {
    check_parameters(shape, parameters);
    if (want_gradient && gradient.size() != parameters.size())
        throw Error("gradient has " + std::to_string(gradient.size()) + " entries, model has " +
                    std::to_string(parameters.size()) + " parameters");
    if (batch.count == 0)
        throw Error("cannot compute a loss over an empty batch");
    if (!batch.features || !batch.targets)
        throw Error("batch has no feature or target data");
    if (shape.precision == Precision::Float32)
        return run_float_pass(shape, parameters, batch, gradient, want_gradient, work.floats, done);
    return run_pass<double>(shape, parameters.data(), batch.features, batch.targets, batch.count,
                            want_gradient ? gradient.data() : nullptr,
                            {work.activations, work.deltas, work.scratch}, done);
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

std::string_view to_string(Precision precision) {
    return precision == Precision::Float32 ? "float32" : "float64";
}

bool parse_precision(std::string_view text, Precision& out) {
    for (Precision p : {Precision::Float64, Precision::Float32})
        if (text == to_string(p)) {
            out = p;
            return true;
        }
    return false;
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
    round_to_precision(shape.precision, parameters);
    return parameters;
}

void round_to_precision(Precision precision, std::span<double> values) {
    if (precision == Precision::Float32)
        for (double& v : values)
            v = static_cast<float>(v);
}

LossResult loss_and_gradient(const ModelShape& shape, std::span<const double> parameters,
                             const BatchView& batch, std::span<double> gradient, Workspace& work) {
    return run_batch(shape, parameters, batch, gradient, true, work);
}

LossResult loss_and_gradient(const ModelShape& shape, std::span<const double> parameters,
                             const BatchView& batch, std::span<double> gradient, Workspace& work,
                             const LayerDone& done) {
    return run_batch(shape, parameters, batch, gradient, true, work, done ? &done : nullptr);
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
    const LayerRange all{0, shape.layer_count()};
    transpose_weights(shape, all, count, parameters.data(), wt);
    for (std::size_t first = 0; first < count; first += chunk) {
        const std::size_t rows = std::min(chunk, count - first);
        const double* logits =
            forward(shape, all, count, parameters.data(), wt, features + first * in0, rows, acts);
        std::copy(logits, logits + rows * m, out.begin() + static_cast<std::ptrdiff_t>(first * m));
    }
}

} // namespace lockstep
