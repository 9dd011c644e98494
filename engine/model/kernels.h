#pragma once

#include "model/model.h"

#include <cstddef>
#include <functional>
#include <span>
#include <string>
#include <vector>

// The model's numeric kernels and shape checks (engine internal, model/*.cpp): every product,
// activation and gradient sum of the forward and backward passes, in a fixed order of additions
// so results never depend on blocking, chunking or threads.
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
double* ensure(std::vector<double>& buffer, std::size_t size);

// C (rows x cols) += A (rows x depth) * B (depth x cols); A(r, k) at a[r * a_row + k * a_k], B
// row-major with leading dimension ldb, C with ldc. Each entry adds its depth terms in ascending k.
void multiply_add(std::size_t rows, std::size_t cols, std::size_t depth, const double* a,
                  std::size_t a_row, std::size_t a_k, const double* b, std::size_t ldb, double* c,
                  std::size_t ldc);
// The same with two, four and eight doubles a vector (model/kernel_blocks.h), all giving the same
// bits; multiply_add() calls the one model/simd.h chose. The wider ones exist only on x86-64.
void multiply_add_sse2(std::size_t rows, std::size_t cols, std::size_t depth, const double* a,
                       std::size_t a_row, std::size_t a_k, const double* b, std::size_t ldb,
                       double* c, std::size_t ldc);
void multiply_add_avx2(std::size_t rows, std::size_t cols, std::size_t depth, const double* a,
                       std::size_t a_row, std::size_t a_k, const double* b, std::size_t ldb,
                       double* c, std::size_t ldc);
void multiply_add_avx512(std::size_t rows, std::size_t cols, std::size_t depth, const double* a,
                         std::size_t a_row, std::size_t a_k, const double* b, std::size_t ldb,
                         double* c, std::size_t ldc);
// z[b][o] = bias[o] + x[b][0]*w[o][0] + ..., in that order; `wt` is w transposed ([in][out]).
void affine_forward(const double* x, std::size_t rows, std::size_t in, std::size_t out,
                    const double* wt, const double* bias, double* z);
void tanh_in_place(double* a, std::size_t n);
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

// A double as the shortest text that reads back as the same value, for error messages.
std::string number_text(double value);

// The passes, over layers [first, end) of the model; parameters, transposed weights and
// gradients are the range's slice of the flat vector (offsets from its first weight).
void transpose_weights(const ModelShape& shape, LayerRange range, const double* params, double* wt);
// Layer l's outputs land one block after another in `outputs`, rows x its width each. Returns the
// range's result: the logits when the range ends the model.
const double* forward(const ModelShape& shape, LayerRange range, const double* params,
                      const double* wt, const double* input, std::size_t rows, double* outputs);
// The loss of `rows` logits against their targets, summed in row order into `total`; `delta`
// (when given) gets d(mean loss)/d(logits) with `scale`; `first_row` names rows in errors.
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
