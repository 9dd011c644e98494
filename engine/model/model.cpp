#include "model/model.h"

#include "core/error.h"
#include "core/rng.h"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <bit>
#include <charconv>
#include <cmath>
#include <cstring>
#include <string>

namespace lockstep {

namespace {

// Rows handled per forward/backward sweep. Large batches are cut into chunks of this size so the
// workspace stays small; every sum still runs over rows in ascending order, so chunking never
// changes a bit of the result.
constexpr std::size_t chunk_rows = 128;

// A double as the shortest text that reads back as the same value, for error messages.
std::string number_text(double value) {
    char text[32];
    const auto end = std::to_chars(text, text + sizeof text, value).ptr;
    return std::string(text, end);
}

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

// Two doubles side by side: GCC's portable vector extension (one SSE2 register on x86-64, plain
// scalar code where the target has no vectors). Each lane does exactly the scalar operation.
using Vec2 = double __attribute__((vector_size(16)));

inline Vec2 load2(const double* p) {
    Vec2 v;
    std::memcpy(&v, p, sizeof v);
    return v;
}

inline void store2(double* p, Vec2 v) {
    std::memcpy(p, &v, sizeof v);
}

// One block of C += A * B held in registers: R rows by 2V columns of C, adding k = 0, 1, ... in
// order into each entry. A(r, k) sits at a[r * a_row + k * a_k], B is row-major with leading
// dimension ldb, C with ldc. Left to itself GCC vectorised the k loop instead (with shuffles and
// spills), hence the explicit two-lane vectors.
template <std::size_t R, std::size_t V>
inline void block_multiply_add(const double* __restrict a, std::size_t a_row, std::size_t a_k,
                               const double* __restrict b, std::size_t ldb, std::size_t depth,
                               double* __restrict c, std::size_t ldc) {
    Vec2 acc[R][V];
    for (std::size_t r = 0; r < R; ++r)
        for (std::size_t v = 0; v < V; ++v)
            acc[r][v] = load2(c + r * ldc + 2 * v);
    for (std::size_t k = 0; k < depth; ++k) {
        Vec2 bk[V];
        for (std::size_t v = 0; v < V; ++v)
            bk[v] = load2(b + k * ldb + 2 * v);
        for (std::size_t r = 0; r < R; ++r) {
            const double ark = a[r * a_row + k * a_k];
            const Vec2 s = {ark, ark};
            for (std::size_t v = 0; v < V; ++v)
                acc[r][v] += s * bk[v];
        }
    }
    for (std::size_t r = 0; r < R; ++r)
        for (std::size_t v = 0; v < V; ++v)
            store2(c + r * ldc + 2 * v, acc[r][v]);
}

// The same for a single column of C, for odd widths.
template <std::size_t R>
inline void column_multiply_add(const double* __restrict a, std::size_t a_row, std::size_t a_k,
                                const double* __restrict b, std::size_t ldb, std::size_t depth,
                                double* __restrict c, std::size_t ldc) {
    double acc[R];
    for (std::size_t r = 0; r < R; ++r)
        acc[r] = c[r * ldc];
    for (std::size_t k = 0; k < depth; ++k) {
        const double bk = b[k * ldb];
        for (std::size_t r = 0; r < R; ++r)
            acc[r] += a[r * a_row + k * a_k] * bk;
    }
    for (std::size_t r = 0; r < R; ++r)
        c[r * ldc] = acc[r];
}

// One band of R rows of C += A * B, cut into column blocks of 8, then 2, then 1.
template <std::size_t R>
void band_multiply_add(const double* a, std::size_t a_row, std::size_t a_k, const double* b,
                       std::size_t ldb, std::size_t depth, double* c, std::size_t ldc,
                       std::size_t cols) {
    std::size_t j = 0;
    for (; j + 8 <= cols; j += 8)
        block_multiply_add<R, 4>(a, a_row, a_k, b + j, ldb, depth, c + j, ldc);
    for (; j + 2 <= cols; j += 2)
        block_multiply_add<R, 1>(a, a_row, a_k, b + j, ldb, depth, c + j, ldc);
    for (; j < cols; ++j)
        column_multiply_add<R>(a, a_row, a_k, b + j, ldb, depth, c + j, ldc);
}

// C (rows x cols) += A (rows x depth) * B (depth x cols): every product in the model, forward
// and backward, is this one routine. Each entry of C starts from what C holds (bias, zero or the
// gradient so far) and adds its depth terms in ascending k, whatever the blocking, so results
// never depend on block sizes.
void multiply_add(std::size_t rows, std::size_t cols, std::size_t depth, const double* a,
                  std::size_t a_row, std::size_t a_k, const double* b, std::size_t ldb, double* c,
                  std::size_t ldc) {
    std::size_t r = 0;
    for (; r + 2 <= rows; r += 2)
        band_multiply_add<2>(a + r * a_row, a_row, a_k, b, ldb, depth, c + r * ldc, ldc, cols);
    for (; r < rows; ++r)
        band_multiply_add<1>(a + r * a_row, a_row, a_k, b, ldb, depth, c + r * ldc, ldc, cols);
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
        throw Error("batch row " + std::to_string(row) + ": label " + number_text(label) +
                    " is not a class index in [0, " + std::to_string(classes) + ")");
    return static_cast<std::size_t>(label);
}

// Per-row loss of the output layer, summed in row order into `total`; when `delta` is given it
// receives d(mean loss)/d(logits), with `scale` = 1/batch (and 1/outputs for MSE folded in).
// Cross-entropy counts rows whose arg-max (first on ties) is the label. MSE has one target per
// row: with several outputs, every output is compared with that same target.
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

// Forward and loss for a batch, chunk by chunk; with `want_gradient` also the backward pass.
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
    const std::size_t base = shape.weight_offset(range.first);
    const double* params = parameters.data();
    double* wt = ensure(work.scratch, count);
    const std::size_t last = shape.layer_count() - 1;
    const double* x = input;
    double* z = outputs.data();
    for (std::size_t l = range.first; l < range.end; ++l) {
        const std::size_t in = width(shape, l);
        const std::size_t out = width(shape, l + 1);
        const double* w = params + shape.weight_offset(l) - base;
        double* t = wt + shape.weight_offset(l) - base;
        for (std::size_t o = 0; o < out; ++o)
            for (std::size_t i = 0; i < in; ++i)
                t[i * out + o] = w[o * in + i];
        affine_forward(x, rows, in, out, t, params + shape.bias_offset(l) - base, z);
        if (l != last)
            activate(shape.activation, z, rows * out);
        x = z;
        z += rows * out;
    }
}

void start_range_gradient(const ModelShape& shape, LayerRange range, RangeGradient& gradient) {
    check_range(shape, range);
    const std::size_t count = range_parameters(shape, range);
    gradient.gradient.assign(count, 0.0);
    gradient.transposed.assign(count, 0.0);
}

void finish_range_gradient(const ModelShape& shape, LayerRange range, RangeGradient& gradient) {
    check_range(shape, range);
    const std::size_t base = shape.weight_offset(range.first);
    for (std::size_t l = range.first; l < range.end; ++l) {
        const std::size_t in = width(shape, l);
        const std::size_t out = width(shape, l + 1);
        if (in >= out)
            continue;
        const double* t = gradient.transposed.data() + shape.weight_offset(l) - base;
        double* g = gradient.gradient.data() + shape.weight_offset(l) - base;
        for (std::size_t o = 0; o < out; ++o)
            for (std::size_t i = 0; i < in; ++i)
                g[o * in + i] = t[i * out + o];
    }
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
    const std::size_t base = shape.weight_offset(range.first);
    const std::size_t last = shape.layer_count() - 1;
    // Where layer l's outputs start inside `outputs`.
    auto block = [&](std::size_t l) {
        std::size_t offset = 0;
        for (std::size_t k = range.first; k < l; ++k)
            offset += rows * width(shape, k + 1);
        return outputs.data() + offset;
    };
    const std::size_t widest = shape.widest();
    double* d = ensure(work.deltas, 2 * rows * widest);
    double* d_next = d + rows * widest;
    const std::size_t top = range.end - 1;
    std::copy(output_delta, output_delta + rows * width(shape, top + 1), d);
    if (top != last)
        activation_backward(shape.activation, block(top), d, rows * width(shape, top + 1));
    for (std::size_t l = range.end; l-- > range.first;) {
        const std::size_t in = width(shape, l);
        const std::size_t out = width(shape, l + 1);
        const double* x = l == range.first ? input : block(l - 1);
        const double* w = parameters.data() + shape.weight_offset(l) - base;
        accumulate_layer_gradient(x, d, rows, in, out,
                                  gradient.gradient.data() + shape.weight_offset(l) - base,
                                  gradient.gradient.data() + shape.bias_offset(l) - base,
                                  gradient.transposed.data() + shape.weight_offset(l) - base);
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
    for (std::size_t o = 0; o < out; ++o)
        for (std::size_t i = 0; i < in; ++i)
            wt[i * out + o] = weight[o * in + i];
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
