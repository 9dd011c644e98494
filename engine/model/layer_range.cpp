#include "model/model.h"

#include "core/error.h"
#include "model/kernels.h"

#include <algorithm>
#include <string>

// The model run a few layers at a time, for the trainers that cut it (pipeline stages, tensor
// pieces): the same kernels in the same order as the whole-model passes, so the bits agree.

namespace lockstep {

using namespace kernels;

namespace {

void check_range(const ModelShape& shape, LayerRange range) {
    check_shape(shape);
    if (range.first >= range.end || range.end > shape.layer_count())
        throw Error("layer range [" + std::to_string(range.first) + ", " +
                    std::to_string(range.end) + ") is not a non-empty run of the model's " +
                    std::to_string(shape.layer_count()) + " layers");
}

std::size_t range_parameters(const ModelShape& shape, LayerRange range) {
    return shape.weight_offset(range.end) - shape.weight_offset(range.first);
}

} // namespace

std::size_t range_outputs_per_row(const ModelShape& shape, LayerRange range) {
    check_range(shape, range);
    std::size_t total = 0;
    for (std::size_t l = range.first; l < range.end; ++l)
        total += width(shape, l + 1);
    return total;
}

void forward_range(const ModelShape& shape, LayerRange range, std::span<const double> parameters,
                   const double* input, std::size_t rows, std::span<double> outputs,
                   Workspace& work) {
    check_range(shape, range);
    const std::size_t count = range_parameters(shape, range);
    if (parameters.size() != count)
        throw Error("layers [" + std::to_string(range.first) + ", " + std::to_string(range.end) +
                    ") have " + std::to_string(count) + " parameters, got " +
                    std::to_string(parameters.size()));
    if (outputs.size() < rows * range_outputs_per_row(shape, range))
        throw Error("forward_range: the output buffer is too small");
    double* wt = ensure(work.scratch, count);
    transpose_weights(shape, range, rows, parameters.data(), wt);
    forward(shape, range, rows, parameters.data(), wt, input, rows, outputs.data());
}

void start_range_gradient(const ModelShape& shape, LayerRange range, RangeGradient& gradient) {
    check_range(shape, range);
    const std::size_t count = range_parameters(shape, range);
    gradient.gradient.assign(count, 0.0);
    // Only the layers wider than their input gather their gradient transposed (as in the whole
    // pass): the others' part of `transposed` is never read, and is not cleared.
    gradient.transposed.resize(count);
    const std::size_t base = shape.weight_offset(range.first);
    for (std::size_t l = range.first; l < range.end; ++l)
        if (width(shape, l) < width(shape, l + 1))
            std::fill_n(gradient.transposed.begin() +
                            static_cast<std::ptrdiff_t>(shape.weight_offset(l) - base),
                        width(shape, l) * width(shape, l + 1), 0.0);
}

void finish_range_gradient(const ModelShape& shape, LayerRange range, RangeGradient& gradient) {
    check_range(shape, range);
    untranspose_gradient(shape, range, gradient.transposed.data(), gradient.gradient.data());
}

void backward_range(const ModelShape& shape, LayerRange range, std::span<const double> parameters,
                    const double* input, std::span<const double> outputs, std::size_t rows,
                    const double* output_delta, RangeGradient& gradient, double* input_delta,
                    Workspace& work) {
    check_range(shape, range);
    const std::size_t count = range_parameters(shape, range);
    if (parameters.size() != count || gradient.gradient.size() != count ||
        gradient.transposed.size() != count)
        throw Error("backward_range: parameters or gradient do not fit layers [" +
                    std::to_string(range.first) + ", " + std::to_string(range.end) + ")");
    if (outputs.size() < rows * range_outputs_per_row(shape, range))
        throw Error("backward_range: the stored outputs are too small");
    const std::size_t widest = shape.widest();
    double* d = ensure(work.deltas, 2 * rows * widest);
    const std::size_t top = range.end - 1;
    std::copy(output_delta, output_delta + rows * width(shape, top + 1), d);
    if (top != shape.layer_count() - 1) { // the top layer's own activation, on its outputs
        const double* top_outputs =
            outputs.data() + rows * (range_outputs_per_row(shape, range) - width(shape, top + 1));
        activation_backward(shape.activation, top_outputs, d, rows * width(shape, top + 1));
    }
    backward_layers(shape, range, parameters.data(), input, outputs.data(), rows, d,
                    d + rows * widest, gradient.gradient.data(), gradient.transposed.data(),
                    input_delta);
}

void output_loss_delta(const ModelShape& shape, const double* logits, const double* targets,
                       std::size_t rows, std::size_t first_row, double scale, double* delta,
                       double& total, std::size_t& correct) {
    output_loss(shape, logits, targets, rows, first_row, scale, delta, total, correct);
}

double loss_scale(const ModelShape& shape, std::size_t batch_rows) {
    const double per_row =
        shape.loss == LossKind::MeanSquaredError
            ? static_cast<double>(batch_rows) * static_cast<double>(shape.outputs())
            : static_cast<double>(batch_rows);
    return 1.0 / per_row;
}

void linear_forward(const double* x, std::size_t rows, std::size_t in, std::size_t out,
                    const double* weight, const double* bias, double* z) {
    std::vector<double> wt(in * out);
    transpose(weight, out, in, wt.data());
    for (std::size_t b = 0; b < rows; ++b) {
        if (bias)
            std::copy(bias, bias + out, z + b * out);
        else
            std::fill_n(z + b * out, out, 0.0);
    }
    multiply_add(rows, out, in, x, in, 1, wt.data(), out, z, out);
}

void activate_in_place(Activation activation, std::span<double> values) {
    activate(activation, values.data(), values.size());
}

void activation_backward_in_place(Activation activation, std::span<const double> outputs,
                                  std::span<double> deltas) {
    if (outputs.size() != deltas.size())
        throw Error("activation_backward_in_place: outputs and deltas differ in size");
    activation_backward(activation, outputs.data(), deltas.data(), deltas.size());
}

} // namespace lockstep
