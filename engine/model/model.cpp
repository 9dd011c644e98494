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

// Forward and loss for a batch, chunk by chunk; with `want_gradient` also the backward pass.
LossResult run_batch(const ModelShape& shape, std::span<const double> parameters,
                     const BatchView& batch, std::span<double> gradient, bool want_gradient,
                     Workspace& work, const LayerDone* done = nullptr) {
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
    // The backward pass's deltas, ping-pong; evaluating needs only the loss's at the outputs.
    double* deltas = ensure(work.deltas, want_gradient ? 2 * chunk * shape.widest() : chunk * m);
    const double* params = parameters.data();
    const LayerRange all{0, shape.layer_count()};
    transpose_weights(shape, all, batch.count, params, wt);
    if (want_gradient) {
        std::fill(gradient.begin(), gradient.end(), 0.0);
        for (std::size_t l = 0; l < shape.layer_count(); ++l)
            if (width(shape, l) < width(shape, l + 1))
                std::fill_n(gwt + shape.weight_offset(l), width(shape, l) * width(shape, l + 1),
                            0.0);
    }

    const double per_row = shape.loss == LossKind::MeanSquaredError
                               ? static_cast<double>(batch.count) * static_cast<double>(m)
                               : static_cast<double>(batch.count);
    const double scale = 1.0 / per_row;
    double total = 0.0;
    for (std::size_t first = 0; first < batch.count; first += chunk) {
        const std::size_t rows = std::min(chunk, batch.count - first);
        const double* x0 = batch.features + first * in0;
        const double* logits = forward(shape, all, batch.count, params, wt, x0, rows, acts);
        double* d = deltas;
        output_loss(shape, logits, batch.targets + first, rows, first, scale, d, total,
                    result.correct);
        if (!want_gradient)
            continue;

        // In the last rows' pass each layer's gradient is final once it is added in: put back in
        // order (when gathered transposed), it is handed over while backward goes on.
        const bool last = first + rows == batch.count;
        const std::function<void(std::size_t)> finish = [&](std::size_t l) {
            untranspose_gradient(shape, {l, l + 1}, gwt + shape.weight_offset(l),
                                 gradient.data() + shape.weight_offset(l));
            (*done)(l);
        };
        if (done && last)
            (*done)(shape.layer_count());
        backward_layers(shape, all, params, x0, acts, rows, d, deltas + chunk * shape.widest(),
                        gradient.data(), gwt, nullptr, done && last ? &finish : nullptr);
    }
    if (want_gradient && !done)
        untranspose_gradient(shape, all, gwt, gradient.data());

    result.loss = total * scale;
    return result;
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
