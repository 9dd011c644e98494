#include "model/kernels.h"
#include "model/kernel_blocks.h"

#include "core/error.h"

#include <algorithm>
#include <bit>
#include <cmath>
#include <cstring>
#include <string>

namespace lockstep::kernels {

// Rejects shapes no network can have, before any offset arithmetic trusts them.
void check_parameters(const ModelShape& shape, std::span<const double> parameters) {
    check_shape(shape);
    if (parameters.size() != shape.parameter_count())
        throw Error("model has " + std::to_string(shape.parameter_count()) + " parameters, got " +
                    std::to_string(parameters.size()));
}

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

// Grows a buffer only when it is too small, so steady-state training never allocates.
double* ensure(std::vector<double>& buffer, std::size_t size) {
    if (buffer.size() < size)
        buffer.resize(size);
    return buffer.data();
}

// C (rows x cols) += A (rows x depth) * B (depth x cols): every product in the model, forward
// and backward, is this one routine (multiply_add(), model/simd.cpp, picks the path). Each entry
// of C starts from what C holds (bias, zero or the gradient so far) and adds its depth terms in
// ascending k, whatever the blocking and the vector width, so results never depend on them. This
// two-lane path is the reference.
void multiply_add_sse2(std::size_t rows, std::size_t cols, std::size_t depth, const double* a,
                       std::size_t a_row, std::size_t a_k, const double* b, std::size_t ldb,
                       double* c, std::size_t ldc) {
    multiply_add_lanes<2>(rows, cols, depth, a, a_row, a_k, b, ldb, c, ldc);
}

// z[b][o] = bias[o] + x[b][0]*w[o][0] + x[b][1]*w[o][1] + ..., in that order; `wt` is w
// transposed so that output columns are contiguous.
void affine_forward(const double* x, std::size_t rows, std::size_t in, std::size_t out,
                    const double* wt, const double* bias, double* z) {
    for (std::size_t b = 0; b < rows; ++b)
        std::copy(bias, bias + out, z + b * out);
    multiply_add(rows, out, in, x, in, 1, wt, out, z, out);
}

// tanh over an array, written as plain arithmetic so GCC vectorises it: the call to libm's tanh
// was a third of a training step. tanh(x) = -expm1(-2|x|) / (expm1(-2|x|) + 2), with the sign of
// x restored; expm1 is reduced to |r| <= ln2/2 and a degree-14 Taylor polynomial. Agrees with
// std::tanh to within a few ulp, keeps tanh(-0) = -0 and NaN, and gives exactly +-1 beyond |x| = 20
// (where tanh rounds to 1 anyway).
void tanh_in_place(double* __restrict a, std::size_t n) {
    // Clamp first, in its own loop: a select inside the main loop blocks vectorisation.
    for (std::size_t k = 0; k < n; ++k)
        a[k] = a[k] > 20.0 ? 20.0 : (a[k] < -20.0 ? -20.0 : a[k]);
    constexpr double inv_ln2 = 0x1.71547652b82fep0;
    constexpr double ln2_hi = 0x1.62e42fefa39efp-1; // ln2 split so k * ln2_hi is exact
    constexpr double ln2_lo = 0x1.abc9e3b39803fp-56;
    constexpr double round_shift = 0x1.8p52; // adding it rounds to an integer in the low bits
    for (std::size_t k = 0; k < n; ++k) {
        const double x = a[k];
        const double z = -2.0 * std::fabs(x);
        const double shifted = z * inv_ln2 + round_shift;
        const double j = shifted - round_shift; // round(z / ln2), in [-58, 0]
        const double r = (z - j * ln2_hi) - j * ln2_lo;
        double p = 1.0 / 87178291200.0; // 1/14!
        p = p * r + 1.0 / 6227020800.0;
        p = p * r + 1.0 / 479001600.0;
        p = p * r + 1.0 / 39916800.0;
        p = p * r + 1.0 / 3628800.0;
        p = p * r + 1.0 / 362880.0;
        p = p * r + 1.0 / 40320.0;
        p = p * r + 1.0 / 5040.0;
        p = p * r + 1.0 / 720.0;
        p = p * r + 1.0 / 120.0;
        p = p * r + 1.0 / 24.0;
        p = p * r + 1.0 / 6.0;
        p = p * r + 0.5;
        const double expm1_r = r + (r * r) * p;
        // 2^j from the integer sitting in the low bits of `shifted`.
        const double scale =
            std::bit_cast<double>((std::bit_cast<std::uint64_t>(shifted) + 1023) << 52);
        const double expm1_z = scale * expm1_r + (scale - 1.0);
        a[k] = std::copysign(-expm1_z / (expm1_z + 2.0), x);
    }
}

// Applies a hidden layer's activation in place; one loop per kind keeps the loops branch-free.
void activate(Activation activation, double* __restrict a, std::size_t n) {
    switch (activation) {
    case Activation::Tanh:
        tanh_in_place(a, n);
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

// Accumulates one layer's weight and bias gradients over `rows` rows: gw[o][i] += d[b][o]*x[b][i]
// and gb[o] += d[b][o], rows in ascending order. When the layer is wider than its input the weight
// gradient is gathered transposed in `gwt` ([i][o]) so the contiguous dimension is the long one;
// the order of additions into each entry is the same either way.
void accumulate_layer_gradient(const double* x, const double* d, std::size_t rows, std::size_t in,
                               std::size_t out, double* gw, double* __restrict gb, double* gwt) {
    if (in >= out)
        multiply_add(out, in, rows, d, 1, out, x, in, gw, in);
    else
        multiply_add(in, out, rows, x, 1, in, d, out, gwt, out);
    for (std::size_t b = 0; b < rows; ++b) {
        const double* __restrict dr = d + b * out;
        for (std::size_t o = 0; o < out; ++o)
            gb[o] += dr[o];
    }
}

// dx[b][i] = d[b][0]*w[0][i] + d[b][1]*w[1][i] + ...: deltas sent back through one layer.
void affine_backward_input(const double* d, std::size_t rows, std::size_t in, std::size_t out,
                           const double* w, double* dx) {
    std::fill(dx, dx + rows * in, 0.0);
    multiply_add(rows, in, out, d, out, 1, w, in, dx, in);
}

// Copies every weight matrix of layers [first, end) transposed (wt[i][o] = w[o][i]) to the same
// offset in `wt`, so the forward pass can run as unit-stride updates of a whole output row.
// `params` and `wt` hold the range's slice of the flat vector (offsets from its first weight).
void transpose_weights(const ModelShape& shape, LayerRange range, const double* params,
                       double* wt) {
    const std::size_t base = shape.weight_offset(range.first);
    for (std::size_t l = range.first; l < range.end; ++l) {
        const std::size_t in = width(shape, l);
        const std::size_t out = width(shape, l + 1);
        const double* w = params + shape.weight_offset(l) - base;
        double* t = wt + shape.weight_offset(l) - base;
        for (std::size_t o = 0; o < out; ++o)
            for (std::size_t i = 0; i < in; ++i)
                t[i * out + o] = w[o * in + i];
    }
}

// Runs `rows` rows through layers [first, end) (parameters and transposed weights as the range's
// slice); layer l's outputs land one block after another in `outputs`, rows x its width each.
// Returns the range's result: the logits when the range ends the model.
const double* forward(const ModelShape& shape, LayerRange range, const double* params,
                      const double* wt, const double* input, std::size_t rows, double* outputs) {
    const std::size_t base = shape.weight_offset(range.first);
    const double* x = input;
    double* z = outputs;
    const std::size_t last = shape.layer_count() - 1;
    for (std::size_t l = range.first; l < range.end; ++l) {
        const std::size_t in = width(shape, l);
        const std::size_t out = width(shape, l + 1);
        affine_forward(x, rows, in, out, wt + shape.weight_offset(l) - base,
                       params + shape.bias_offset(l) - base, z);
        if (l != last)
            activate(shape.activation, z, rows * out);
        x = z;
        z += rows * out;
    }
    return x;
}

// Backward through layers [first, end) for `rows` rows: `d` holds d(loss)/d(the last layer's
// pre-activation), and each layer from the top down adds its gradient (into the range's slices
// `gradient` and, for layers gathered transposed, `transposed`) and hands its input deltas to the
// layer below, ping-pong between `d` and `d_next`. `outputs` are the forward pass's blocks;
// `input_delta`, when given, gets d(loss)/d(input) before any activation derivative.
void backward_layers(const ModelShape& shape, LayerRange range, const double* params,
                     const double* input, const double* outputs, std::size_t rows, double* d,
                     double* d_next, double* gradient, double* transposed, double* input_delta,
                     const std::function<void(std::size_t)>* after_layer) {
    const std::size_t base = shape.weight_offset(range.first);
    auto block = [&](std::size_t l) { // where layer l's outputs start
        std::size_t offset = 0;
        for (std::size_t k = range.first; k < l; ++k)
            offset += rows * width(shape, k + 1);
        return outputs + offset;
    };
    for (std::size_t l = range.end; l-- > range.first;) {
        const std::size_t in = width(shape, l);
        const std::size_t out = width(shape, l + 1);
        const double* x = l == range.first ? input : block(l - 1);
        const double* w = params + shape.weight_offset(l) - base;
        accumulate_layer_gradient(x, d, rows, in, out, gradient + shape.weight_offset(l) - base,
                                  gradient + shape.bias_offset(l) - base,
                                  transposed + shape.weight_offset(l) - base);
        if (after_layer)
            (*after_layer)(l);
        if (l == range.first) {
            if (input_delta)
                affine_backward_input(d, rows, in, out, w, input_delta);
            break;
        }
        affine_backward_input(d, rows, in, out, w, d_next);
        activation_backward(shape.activation, x, d_next, rows * in);
        std::swap(d, d_next);
    }
}

// Layers whose weight gradient was gathered transposed (fewer inputs than outputs): put it back
// in [out][in] order.
void untranspose_gradient(const ModelShape& shape, LayerRange range, const double* transposed,
                          double* gradient) {
    const std::size_t base = shape.weight_offset(range.first);
    for (std::size_t l = range.first; l < range.end; ++l) {
        const std::size_t in = width(shape, l);
        const std::size_t out = width(shape, l + 1);
        if (in >= out)
            continue;
        const double* t = transposed + shape.weight_offset(l) - base;
        double* g = gradient + shape.weight_offset(l) - base;
        for (std::size_t o = 0; o < out; ++o)
            for (std::size_t i = 0; i < in; ++i)
                g[o * in + i] = t[i * out + o];
    }
}

} // namespace lockstep::kernels
