#pragma once

#include "model/model.h"

#include <cstddef>
#include <functional>
#include <span>
#include <string>
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
double* ensure(AlignedBuffer& buffer, std::size_t size);

// C (rows x cols) += A (rows x depth) * B (depth x cols); A(r, k) at a[r * a_row + k * a_k], B
// row-major with leading dimension ldb, C with ldc. Each entry adds its depth terms in ascending k.
void multiply_add(std::size_t rows, std::size_t cols, std::size_t depth, const double* a,
                  std::size_t a_row, std::size_t a_k, const double* b, std::size_t ldb, double* c,
                  std::size_t ldc);

// One Adam update's constants: the rates, and this step's bias corrections 1 - beta^t.
struct AdamStep {
    double learning_rate, beta1, beta2, epsilon, correction1, correction2;
};

// The kernels that run on vectors, one set per instruction set (model/kernel_blocks.h): two
// doubles a vector (SSE2, the reference), four (AVX2) and eight (AVX-512), all giving the same
// bits. The functions of this header and the collectives' additions call the set model/simd.h
// chose; the wider sets exist only on x86-64.
struct VectorKernels {
    void (*multiply_add)(std::size_t rows, std::size_t cols, std::size_t depth, const double* a,
                         std::size_t a_row, std::size_t a_k, const double* b, std::size_t ldb,
                         double* c, std::size_t ldc);
    void (*activate)(Activation activation, double* a, std::size_t n);
    void (*activation_backward)(Activation activation, const double* a, double* d, std::size_t n);
    // sums[o] += rows[b][o], rows in ascending order.
    void (*add_rows)(const double* rows, std::size_t count, std::size_t width, double* sums);
    void (*add)(double* into, const double* from, std::size_t n);
    void (*scale)(double* x, double weight, std::size_t n);
    // SGD with momentum (v = mu v + g; p -= lr v) and Adam over n parameters.
    void (*sgd)(double* p, const double* g, double* v, std::size_t n, double lr, double mu);
    void (*adam)(double* p, const double* g, double* m, double* v, std::size_t n,
                 const AdamStep& step);
    // output_loss() below, once its labels are checked (outputs: m per row).
    void (*output_loss)(LossKind loss, const double* logits, const double* targets,
                        std::size_t rows, std::size_t m, double scale, double* delta, double& total,
                        std::size_t& correct);
};
extern const VectorKernels sse2_kernels;
extern const VectorKernels avx2_kernels;
extern const VectorKernels avx512_kernels;
// The set in use (model/simd.h).
const VectorKernels& vector_kernels();

// z[b][o] = bias[o] + x[b][0]*w[o][0] + ..., in that order; `wt` is w transposed ([in][out]).
void affine_forward(const double* x, std::size_t rows, std::size_t in, std::size_t out,
                    const double* wt, const double* bias, double* z);
// A hidden layer's activation in place, and its derivative (from the outputs `a`) into `d`.
void activate(Activation activation, double* a, std::size_t n);
void activation_backward(Activation activation, const double* a, double* d, std::size_t n);
// One layer's weight and bias gradients over `rows` rows, added into gw / gb (or gwt, [i][o],
// when the layer is wider than its input).
void accumulate_layer_gradient(const double* x, const double* d, std::size_t rows, std::size_t in,
                               std::size_t out, double* gw, double* gb, double* gwt);
// dx = d * W: the deltas a layer hands to the one below.
void affine_backward_input(const double* d, std::size_t rows, std::size_t in, std::size_t out,
                           const double* w, double* dx);

// dst (cols x rows) = src (rows x cols) transposed, tile by tile.
void transpose(const double* src, std::size_t rows, std::size_t cols, double* dst);

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
void transpose_weights(const ModelShape& shape, LayerRange range, std::size_t batch_rows,
                       const double* params, double* wt);
// Layer l's outputs land one block after another in `outputs`, rows x its width each. Returns the
// range's result: the logits when the range ends the model.
const double* forward(const ModelShape& shape, LayerRange range, std::size_t batch_rows,
                      const double* params, double* wt, const double* input, std::size_t rows,
                      double* outputs);
// The loss of `rows` logits against their targets, summed in row order into `total`; `delta`
// (rows x outputs) gets d(mean loss)/d(logits) with `scale`; `first_row` names rows in errors.
void output_loss(const ModelShape& shape, const double* logits, const double* targets,
                 std::size_t rows, std::size_t first_row, double scale, double* delta,
                 double& total, std::size_t& correct);
// Backward from d(loss)/d(the last layer's pre-activation) in `d`, ping-pong with `d_next`.
// `after_layer` (when given) is called with each layer's index as soon as this pass has added
// into its parameter gradient, last layer first.
void backward_layers(const ModelShape& shape, LayerRange range, const double* params,
                     const double* input, const double* outputs, std::size_t rows, double* d,
                     double* d_next, double* gradient, double* transposed, double* input_delta,
                     const std::function<void(std::size_t)>* after_layer = nullptr);
// Weight gradients gathered transposed, put back in [out][in] order.
void untranspose_gradient(const ModelShape& shape, LayerRange range, const double* transposed,
                          double* gradient);

} // namespace lockstep::kernels
