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

// Two doubles (four floats) a vector: the reference sets, and plain scalar code where there are no
// vectors.
// Every product in the model, forward and backward, is its multiply_add() or a wider set's: each
// entry of C starts from what C holds (bias, zero or the gradient so far) and adds its depth terms
// in ascending k, whatever the blocking and the vector width, so results never depend on them.
const VectorKernels sse2_kernels = vector_kernels<double, 2, 2>();
const VectorKernelsOf<float> sse2_kernels32 = vector_kernels<float, 4, 2>();

// z[b][o] = bias[o] + x[b][0]*w[o][0] + x[b][1]*w[o][1] + ..., in that order; `wt` is w
// transposed so that output columns are contiguous.
template <class T>
void affine_forward(const T* x, std::size_t rows, std::size_t in, std::size_t out, const T* wt,
                    const T* bias, T* z) {
    for (std::size_t b = 0; b < rows; ++b)
        std::copy(bias, bias + out, z + b * out);
    multiply_add(rows, out, in, x, in, 1, wt, out, z, out);
}

template <class T> void activate(Activation activation, T* a, std::size_t n) {
    vector_kernels_of<T>().activate(activation, a, n);
}

template <class T>
void activation_backward(Activation activation, const T* a, T* d, std::size_t n) {
    vector_kernels_of<T>().activation_backward(activation, a, d, n);
}

// Accumulates one layer's weight and bias gradients over `rows` rows: gw[o][i] += d[b][o]*x[b][i]
// and gb[o] += d[b][o], rows in ascending order. When the layer is wider than its input the weight
// gradient is gathered transposed in `gwt` ([i][o]) so the contiguous dimension is the long one;
// the order of additions into each entry is the same either way.
template <class T>
void accumulate_layer_gradient(const T* x, const T* d, std::size_t rows, std::size_t in,
                               std::size_t out, T* gw, T* gb, T* gwt) {
    if (in >= out)
        multiply_add(out, in, rows, d, 1, out, x, in, gw, in);
    else
        multiply_add(in, out, rows, x, 1, in, d, out, gwt, out);
    vector_kernels_of<T>().add_rows(d, rows, out, gb);
}

// dx[b][i] = d[b][0]*w[0][i] + d[b][1]*w[1][i] + ...: deltas sent back through one layer.
template <class T>
void affine_backward_input(const T* d, std::size_t rows, std::size_t in, std::size_t out,
                           const T* w, T* dx) {
    std::fill(dx, dx + rows * in, T(0));
    multiply_add(rows, in, out, d, out, 1, w, in, dx, in);
}

// dst (cols x rows) = src (rows x cols) transposed, in tiles small enough that the tile's rows of
// both matrices stay in the cache: done naively, every write of a wide matrix missed it.
template <class T>
void transpose(const T* __restrict src, std::size_t rows, std::size_t cols, T* __restrict dst) {
    constexpr std::size_t tile = 16;
    for (std::size_t r0 = 0; r0 < rows; r0 += tile) {
        const std::size_t r_end = std::min(rows, r0 + tile);
        for (std::size_t c0 = 0; c0 < cols; c0 += tile) {
            const std::size_t c_end = std::min(cols, c0 + tile);
            for (std::size_t r = r0; r < r_end; ++r)
                for (std::size_t c = c0; c < c_end; ++c)
                    dst[c * rows + r] = src[r * cols + c];
        }
    }
}

bool transposes_rows(std::size_t batch_rows, std::size_t in, std::size_t out) {
    // Whole vectors of rows (eight doubles, the widest), and fewer numbers to move.
    return batch_rows % 8 == 0 && batch_rows * (in + out) < in * out;
}

// Copies the weight matrices of layers [first, end) that forward() multiplies transposed
// (wt[i][o] = w[o][i]) to the same offset in `wt`, so the forward pass can run as unit-stride
// updates of a whole output row. `params` and `wt` hold the range's slice of the flat vector
// (offsets from its first weight).
template <class T>
void transpose_weights(const ModelShape& shape, LayerRange range, std::size_t batch_rows,
                       const T* params, T* wt) {
    const std::size_t base = shape.weight_offset(range.first);
    for (std::size_t l = range.first; l < range.end; ++l) {
        const std::size_t in = width(shape, l);
        const std::size_t out = width(shape, l + 1);
        if (!transposes_rows(batch_rows, in, out))
            transpose(params + shape.weight_offset(l) - base, out, in,
                      wt + shape.weight_offset(l) - base);
    }
}

// Runs `rows` rows through layers [first, end) (parameters and transposed weights as the range's
// slice); layer l's outputs land one block after another in `outputs`, rows x its width each.
// Returns the range's result: the logits when the range ends the model.
template <class T>
const T* forward(const ModelShape& shape, LayerRange range, std::size_t batch_rows, const T* params,
                 T* wt, const T* input, std::size_t rows, T* outputs) {
    const std::size_t base = shape.weight_offset(range.first);
    const T* x = input;
    T* z = outputs;
    const std::size_t last = shape.layer_count() - 1;
    for (std::size_t l = range.first; l < range.end; ++l) {
        const std::size_t in = width(shape, l);
        const std::size_t out = width(shape, l + 1);
        const T* bias = params + shape.bias_offset(l) - base;
        if (transposes_rows(batch_rows, in, out)) {
            // z'[o][b] = bias[o] + w[o][0]*x[b][0] + ...: the same terms, the same order, with
            // x' and z' where the transposed weights would have been.
            T* xt = wt + shape.weight_offset(l) - base;
            T* zt = xt + rows * in;
            transpose(x, rows, in, xt);
            for (std::size_t o = 0; o < out; ++o)
                std::fill_n(zt + o * rows, rows, bias[o]);
            multiply_add(out, rows, in, params + shape.weight_offset(l) - base, in, 1, xt, rows, zt,
                         rows);
            transpose(zt, out, rows, z);
        } else {
            affine_forward(x, rows, in, out, wt + shape.weight_offset(l) - base, bias, z);
        }
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
template <class T>
void backward_layers(const ModelShape& shape, LayerRange range, const T* params, const T* input,
                     const T* outputs, std::size_t rows, T* d, T* d_next, T* gradient,
                     T* transposed, T* input_delta,
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
        const T* x = l == range.first ? input : block(l - 1);
        const T* w = params + shape.weight_offset(l) - base;
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
template <class T>
void untranspose_gradient(const ModelShape& shape, LayerRange range, const T* transposed,
                          T* gradient) {
    const std::size_t base = shape.weight_offset(range.first);
    for (std::size_t l = range.first; l < range.end; ++l) {
        const std::size_t in = width(shape, l);
        const std::size_t out = width(shape, l + 1);
        if (in >= out)
            continue;
        transpose(transposed + shape.weight_offset(l) - base, in, out,
                  gradient + shape.weight_offset(l) - base);
    }
}

// Both number types.
#define LOCKSTEP_LAYER_ARITHMETIC(T)                                                               \
    template void affine_forward(const T*, std::size_t, std::size_t, std::size_t, const T*,        \
                                 const T*, T*);                                                    \
    template void activate(Activation, T*, std::size_t);                                           \
    template void activation_backward(Activation, const T*, T*, std::size_t);                      \
    template void accumulate_layer_gradient(const T*, const T*, std::size_t, std::size_t,          \
                                            std::size_t, T*, T*, T*);                              \
    template void affine_backward_input(const T*, std::size_t, std::size_t, std::size_t, const T*, \
                                        T*);                                                       \
    template void transpose(const T*, std::size_t, std::size_t, T*);                               \
    template void transpose_weights(const ModelShape&, LayerRange, std::size_t, const T*, T*);     \
    template const T* forward(const ModelShape&, LayerRange, std::size_t, const T*, T*, const T*,  \
                              std::size_t, T*);                                                    \
    template void backward_layers(const ModelShape&, LayerRange, const T*, const T*, const T*,     \
                                  std::size_t, T*, T*, T*, T*, T*,                                 \
                                  const std::function<void(std::size_t)>*);                        \
    template void untranspose_gradient(const ModelShape&, LayerRange, const T*, T*);
LOCKSTEP_LAYER_ARITHMETIC(double)
LOCKSTEP_LAYER_ARITHMETIC(float)
#undef LOCKSTEP_LAYER_ARITHMETIC

} // namespace lockstep::kernels
