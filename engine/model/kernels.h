#pragma once

#include "model/model.h"

#include <cstddef>
#include <functional>
#include <span>
#include <string>
#include <type_traits>
#include <vector>

// The model's numeric kernels and shape checks (engine internal: the model and the collectives):
// every product, activation and gradient sum of the forward and backward passes, in a fixed order
// of additions so results never depend on blocking, chunking or threads.
namespace lockstep::kernels {

// Layer `index`'s width (index 0: the inputs).
inline std::size_t width(const ModelShape& shape, std::size_t index) {
    return static_cast<std::size_t>(shape.layers[index]);
}
// Rejects shapes no network can have, before any offset arithmetic trusts them.
void check_shape(const ModelShape& shape);
// Throws lockstep::Error unless `parameters` has the shape's parameter count.
void check_parameters(const ModelShape& shape, std::span<const double> parameters);
// Grows a buffer only when it is too small, so steady-state training never allocates.
template <class T> T* ensure(AlignedVector<T>& buffer, std::size_t size) {
    if (buffer.size() < size)
        buffer.resize(size);
    return buffer.data();
}

// C (rows x cols) += A (rows x depth) * B (depth x cols); A(r, k) at a[r * a_row + k * a_k], B
// row-major with leading dimension ldb, C with ldc. Each entry adds its depth terms in ascending k.
template <class T>
void multiply_add(std::size_t rows, std::size_t cols, std::size_t depth, const T* a,
                  std::size_t a_row, std::size_t a_k, const T* b, std::size_t ldb, T* c,
                  std::size_t ldc);

// One Adam update's constants: the rates, and this step's bias corrections 1 - beta^t.
struct AdamStep {
    double learning_rate, beta1, beta2, epsilon, correction1, correction2;
};

// The kernels that run on vectors, one set per number type and instruction set
// (model/kernel_blocks.h): 16-byte vectors (SSE2, the reference), 32 (AVX2) and 64 (AVX-512), all
// giving the same bits for a given T. T is double, or float for float32 runs. The functions of
// this header and the collectives' additions call the set model/simd.h chose; the wider sets
// exist only on x86-64.
template <class T> struct VectorKernelsOf {
    void (*multiply_add)(std::size_t rows, std::size_t cols, std::size_t depth, const T* a,
                         std::size_t a_row, std::size_t a_k, const T* b, std::size_t ldb, T* c,
                         std::size_t ldc);
    void (*activate)(Activation activation, T* a, std::size_t n);
    void (*activation_backward)(Activation activation, const T* a, T* d, std::size_t n);
    // sums[o] += rows[b][o], rows in ascending order.
    void (*add_rows)(const T* rows, std::size_t count, std::size_t width, T* sums);
    void (*add)(T* into, const T* from, std::size_t n);
    void (*scale)(T* x, T weight, std::size_t n);
    // SGD with momentum (v = mu v + g; p -= lr v) and Adam over n parameters, held in doubles
    // and worked out in T.
    void (*sgd)(double* p, const double* g, double* v, std::size_t n, double lr, double mu);
    void (*adam)(double* p, const double* g, double* m, double* v, std::size_t n,
                 const AdamStep& step);
    // output_loss() below, once its labels are checked (outputs: m per row).
    void (*output_loss)(LossKind loss, const T* logits, const double* targets, std::size_t rows,
                        std::size_t m, double scale, T* delta, double& total, std::size_t& correct);
};
using VectorKernels = VectorKernelsOf<double>;
extern const VectorKernels sse2_kernels;
extern const VectorKernels avx2_kernels;
extern const VectorKernels avx512_kernels;
extern const VectorKernelsOf<float> sse2_kernels32;
extern const VectorKernelsOf<float> avx2_kernels32;
extern const VectorKernelsOf<float> avx512_kernels32;
// The set in use (model/simd.h), for doubles and for floats.
const VectorKernels& vector_kernels();
const VectorKernelsOf<float>& vector_kernels32();
template <class T> const VectorKernelsOf<T>& vector_kernels_of() {
    if constexpr (std::is_same_v<T, float>)
        return vector_kernels32();
    else
        return vector_kernels();
}

// The layer arithmetic below is written once for T = double and T = float (kernels.cpp
// instantiates both).
//
// z[b][o] = bias[o] + x[b][0]*w[o][0] + ..., in that order; `wt` is w transposed ([in][out]).
template <class T>
void affine_forward(const T* x, std::size_t rows, std::size_t in, std::size_t out, const T* wt,
                    const T* bias, T* z);
// A hidden layer's activation in place, and its derivative (from the outputs `a`) into `d`.
template <class T> void activate(Activation activation, T* a, std::size_t n);
template <class T> void activation_backward(Activation activation, const T* a, T* d, std::size_t n);
// One layer's weight and bias gradients over `rows` rows, added into gw / gb (or gwt, [i][o],
// when the layer is wider than its input).
template <class T>
void accumulate_layer_gradient(const T* x, const T* d, std::size_t rows, std::size_t in,
                               std::size_t out, T* gw, T* gb, T* gwt);
// dx = d * W: the deltas a layer hands to the one below.
template <class T>
void affine_backward_input(const T* d, std::size_t rows, std::size_t in, std::size_t out,
                           const T* w, T* dx);

// dst (cols x rows) = src (rows x cols) transposed, tile by tile.
template <class T> void transpose(const T* src, std::size_t rows, std::size_t cols, T* dst);

// A double as the shortest text that reads back as the same value, for error messages.
std::string number_text(double value);

// The passes, over layers [first, end) of the model; parameters, transposed weights and
// gradients are the range's slice of the flat vector (offsets from its first weight).
//
// A layer's forward product runs one of two ways, whichever transposes fewer numbers: z = x W'
// against the weights transposed (in the layer's place in `wt`), or z' = W x' with the rows'
// inputs and outputs transposed (rows x (in + out) numbers, fewer than the weights, in that same
// place). Both add the same terms in the same order, so the bits are the same; `batch_rows`, the
// rows of the whole pass, decides, so that transpose_weights() leaves out exactly the layers
// forward() runs the other way.
bool transposes_rows(std::size_t batch_rows, std::size_t in, std::size_t out);
template <class T>
void transpose_weights(const ModelShape& shape, LayerRange range, std::size_t batch_rows,
                       const T* params, T* wt);
// Layer l's outputs land one block after another in `outputs`, rows x its width each. Returns the
// range's result: the logits when the range ends the model.
template <class T>
const T* forward(const ModelShape& shape, LayerRange range, std::size_t batch_rows, const T* params,
                 T* wt, const T* input, std::size_t rows, T* outputs);
// The loss of `rows` logits against their targets, summed in row order into `total`; `delta`
// (rows x outputs) gets d(mean loss)/d(logits) with `scale`; `first_row` names rows in errors.
template <class T>
void output_loss(const ModelShape& shape, const T* logits, const double* targets, std::size_t rows,
                 std::size_t first_row, double scale, T* delta, double& total,
                 std::size_t& correct);
// Backward from d(loss)/d(the last layer's pre-activation) in `d`, ping-pong with `d_next`.
// `after_layer` (when given) is called with each layer's index as soon as this pass has added
// into its parameter gradient, last layer first.
template <class T>
void backward_layers(const ModelShape& shape, LayerRange range, const T* params, const T* input,
                     const T* outputs, std::size_t rows, T* d, T* d_next, T* gradient,
                     T* transposed, T* input_delta,
                     const std::function<void(std::size_t)>* after_layer = nullptr);
// Weight gradients gathered transposed, put back in [out][in] order.
template <class T>
void untranspose_gradient(const ModelShape& shape, LayerRange range, const T* transposed,
                          T* gradient);

} // namespace lockstep::kernels
