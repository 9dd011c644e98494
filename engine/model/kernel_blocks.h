#pragma once

// The kernels that run on vectors, for one vector width: L doubles side by side, with GCC's
// portable vector extension for the products and plain loops the compiler vectorises for the
// rest. model/kernels.cpp instantiates them for two lanes (SSE2, the reference, and plain scalar
// code where there are no vectors), kernels_avx2.cpp for four and kernels_avx512.cpp for eight,
// each file compiled for its instruction set and handing its set over as a VectorKernels table
// (model/kernels.h). Everything here has internal linkage, so the copies made for different
// instruction sets never mix.
//
// Every lane does exactly the scalar operation, in the same order (no FMA: -ffp-contract=off):
// each entry of a product starts from what C holds and adds a(r, k) * b(k, j), one multiply and
// one add, in ascending k; the element-wise kernels treat every element on its own. The vectors
// only widen across independent outputs and no sum is reordered, so every width gives the same
// bits.

#include "model/kernels.h"

#include <bit>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <cstring>

namespace lockstep::kernels {
namespace {

template <std::size_t L> struct Lanes;
template <> struct Lanes<2> { using Vec = double __attribute__((vector_size(16))); };
template <> struct Lanes<4> { using Vec = double __attribute__((vector_size(32))); };
template <> struct Lanes<8> { using Vec = double __attribute__((vector_size(64))); };

template <std::size_t L> inline typename Lanes<L>::Vec load(const double* p) {
    typename Lanes<L>::Vec v;
    std::memcpy(&v, p, sizeof v);
    return v;
}

template <std::size_t L> inline void store(double* p, typename Lanes<L>::Vec v) {
    std::memcpy(p, &v, sizeof v);
}

// One block of C += A * B held in registers: R rows by V vectors of L columns of C. A(r, k) sits
// at a[r * a_row + k * a_k], B is row-major with leading dimension ldb, C with ldc. Left to
// itself GCC vectorised the k loop instead (with shuffles and spills), hence the explicit vectors.
template <std::size_t L, std::size_t R, std::size_t V>
inline void block_multiply_add(const double* __restrict a, std::size_t a_row, std::size_t a_k,
                               const double* __restrict b, std::size_t ldb, std::size_t depth,
                               double* __restrict c, std::size_t ldc) {
    using Vec = typename Lanes<L>::Vec;
    Vec acc[R][V];
    for (std::size_t r = 0; r < R; ++r)
        for (std::size_t v = 0; v < V; ++v)
            acc[r][v] = load<L>(c + r * ldc + L * v);
    for (std::size_t k = 0; k < depth; ++k) {
        Vec bk[V];
        for (std::size_t v = 0; v < V; ++v)
            bk[v] = load<L>(b + k * ldb + L * v);
        for (std::size_t r = 0; r < R; ++r) {
            const double ark = a[r * a_row + k * a_k];
            for (std::size_t v = 0; v < V; ++v)
                acc[r][v] += ark * bk[v];
        }
    }
    for (std::size_t r = 0; r < R; ++r)
        for (std::size_t v = 0; v < V; ++v)
            store<L>(c + r * ldc + L * v, acc[r][v]);
}

// The same for a single column of C, for the columns left over.
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

// One band of R rows of C += A * B, cut into column blocks of 4L, then L, then 1.
template <std::size_t L, std::size_t R>
void band_multiply_add(const double* a, std::size_t a_row, std::size_t a_k, const double* b,
                       std::size_t ldb, std::size_t depth, double* c, std::size_t ldc,
                       std::size_t cols) {
    std::size_t j = 0;
    for (; j + 4 * L <= cols; j += 4 * L)
        block_multiply_add<L, R, 4>(a, a_row, a_k, b + j, ldb, depth, c + j, ldc);
    for (; j + L <= cols; j += L)
        block_multiply_add<L, R, 1>(a, a_row, a_k, b + j, ldb, depth, c + j, ldc);
    for (; j < cols; ++j)
        column_multiply_add<R>(a, a_row, a_k, b + j, ldb, depth, c + j, ldc);
}

// C (rows x cols) += A (rows x depth) * B (depth x cols), in bands of R rows: the more rows a
// band holds, the fewer times B is read, as far as the registers go (R x 4 accumulators and four
// vectors of B).
template <std::size_t L, std::size_t R>
void multiply_add_lanes(std::size_t rows, std::size_t cols, std::size_t depth, const double* a,
                        std::size_t a_row, std::size_t a_k, const double* b, std::size_t ldb,
                        double* c, std::size_t ldc) {
    std::size_t r = 0;
    for (; r + R <= rows; r += R)
        band_multiply_add<L, R>(a + r * a_row, a_row, a_k, b, ldb, depth, c + r * ldc, ldc, cols);
    for (; r < rows; ++r)
        band_multiply_add<L, 1>(a + r * a_row, a_row, a_k, b, ldb, depth, c + r * ldc, ldc, cols);
}

// e^z as 2^j (1 + expm1(r)), z = j ln2 + r with |r| <= ln2/2, in plain arithmetic so the loops
// that call it vectorise: expm1(r) comes from a degree-14 Taylor polynomial, 2^j from the bits.
// Valid for z in [-709, 0], where 2^j is a normal double or (j = -1023) zero.
struct ReducedExp {
    double scale;   // 2^j
    double expm1_r; // e^r - 1
};
inline ReducedExp reduce_exp(double z) {
    constexpr double inv_ln2 = 0x1.71547652b82fep0;
    constexpr double ln2_hi = 0x1.62e42fefa39efp-1; // ln2 split so k * ln2_hi is exact
    constexpr double ln2_lo = 0x1.abc9e3b39803fp-56;
    constexpr double round_shift = 0x1.8p52; // adding it rounds to an integer in the low bits
    const double shifted = z * inv_ln2 + round_shift;
    const double j = shifted - round_shift; // round(z / ln2)
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
    // 2^j from the integer sitting in the low bits of `shifted`.
    return {std::bit_cast<double>((std::bit_cast<std::uint64_t>(shifted) + 1023) << 52),
            r + (r * r) * p};
}

// tanh over an array, written as plain arithmetic so it vectorises: the call to libm's tanh was a
// third of a training step. tanh(x) = -expm1(-2|x|) / (expm1(-2|x|) + 2), with the sign of x
// restored. Agrees with std::tanh to within a few ulp, keeps tanh(-0) = -0 and NaN, and gives
// exactly +-1 beyond |x| = 20 (where tanh rounds to 1 anyway).
inline void tanh_lanes(double* __restrict a, std::size_t n) {
    // Clamp first, in its own loop: a select inside the main loop blocks vectorisation.
    for (std::size_t k = 0; k < n; ++k)
        a[k] = a[k] > 20.0 ? 20.0 : (a[k] < -20.0 ? -20.0 : a[k]);
    for (std::size_t k = 0; k < n; ++k) {
        const double x = a[k];
        const ReducedExp e = reduce_exp(-2.0 * std::fabs(x));
        const double expm1_z = e.scale * e.expm1_r + (e.scale - 1.0);
        a[k] = std::copysign(-expm1_z / (expm1_z + 2.0), x);
    }
}

// e^z over an array of z <= 0, in place: within a few ulp of std::exp, and 0 from about -708.7
// on (where std::exp's results fall below the smallest normal double).
inline void exp_lanes(double* __restrict a, std::size_t n) {
    for (std::size_t k = 0; k < n; ++k)
        a[k] = a[k] < -709.0 ? -709.0 : a[k];
    for (std::size_t k = 0; k < n; ++k) {
        const ReducedExp e = reduce_exp(a[k]);
        a[k] = e.scale * e.expm1_r + e.scale;
    }
}

// A hidden layer's activation in place; one loop per kind keeps the loops branch-free.
inline void activate_lanes(Activation activation, double* __restrict a, std::size_t n) {
    switch (activation) {
    case Activation::Tanh:
        tanh_lanes(a, n);
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

// Back-propagated deltas times the activation's derivative, written in terms of the activation's
// output `a` (which is what the forward pass kept).
inline void activation_backward_lanes(Activation activation, const double* __restrict a,
                                      double* __restrict d, std::size_t n) {
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

// sums[o] += rows[b][o] for b = 0, 1, ...: a bias gradient, rows in ascending order.
inline void add_rows_lanes(const double* __restrict rows, std::size_t count, std::size_t width,
                           double* __restrict sums) {
    for (std::size_t b = 0; b < count; ++b) {
        const double* __restrict row = rows + b * width;
        for (std::size_t o = 0; o < width; ++o)
            sums[o] += row[o];
    }
}

inline void add_lanes(double* __restrict into, const double* __restrict from, std::size_t n) {
    for (std::size_t i = 0; i < n; ++i)
        into[i] += from[i];
}

inline void scale_lanes(double* __restrict x, double weight, std::size_t n) {
    for (std::size_t i = 0; i < n; ++i)
        x[i] *= weight;
}

// SGD with momentum: v = mu v + g, then p -= lr v.
inline void sgd_lanes(double* __restrict p, const double* __restrict g, double* __restrict v,
                      std::size_t n, double lr, double mu) {
    for (std::size_t k = 0; k < n; ++k) {
        v[k] = mu * v[k] + g[k];
        p[k] -= lr * v[k];
    }
}

// Adam, with the bias corrections of this step worked out by the caller.
inline void adam_lanes(double* __restrict p, const double* __restrict g, double* __restrict m,
                       double* __restrict v, std::size_t n, const AdamStep& step) {
    for (std::size_t k = 0; k < n; ++k) {
        m[k] = step.beta1 * m[k] + (1.0 - step.beta1) * g[k];
        v[k] = step.beta2 * v[k] + (1.0 - step.beta2) * g[k] * g[k];
        const double m_hat = m[k] / step.correction1;
        const double v_hat = v[k] / step.correction2;
        p[k] -= step.learning_rate * m_hat / (std::sqrt(v_hat) + step.epsilon);
    }
}

// The loss of `rows` rows of m outputs, added row by row into `total`; `delta` gets d(mean
// loss)/d(outputs) with `scale`. Cross-entropy takes class indices the caller has checked and
// counts in `correct` the rows whose arg-max (the first, on ties) is the label; its row's
// exponentials are worked out all at once, in `delta`. MSE compares every output of a row with
// the row's one target.
inline void output_loss_lanes(LossKind loss, const double* __restrict z,
                              const double* __restrict targets, std::size_t rows, std::size_t m,
                              double scale, double* __restrict delta, double& total,
                              std::size_t& correct) {
    if (loss == LossKind::MeanSquaredError) {
        for (std::size_t b = 0; b < rows; ++b) {
            const double* __restrict row = z + b * m;
            double* __restrict d = delta + b * m;
            double row_sum = 0.0;
            for (std::size_t o = 0; o < m; ++o) {
                const double diff = row[o] - targets[b];
                row_sum += diff * diff;
                d[o] = 2.0 * diff * scale;
            }
            total += row_sum;
        }
        return;
    }
    const auto row_top = [&](std::size_t b) {
        const double* __restrict row = z + b * m;
        std::size_t arg = 0;
        for (std::size_t o = 1; o < m; ++o)
            if (row[o] > row[arg])
                arg = o;
        return arg;
    };
    for (std::size_t b = 0; b < rows; ++b) {
        const double top = z[b * m + row_top(b)];
        for (std::size_t o = 0; o < m; ++o)
            delta[b * m + o] = z[b * m + o] - top;
    }
    exp_lanes(delta, rows * m);
    for (std::size_t b = 0; b < rows; ++b) {
        const std::size_t arg = row_top(b);
        const auto label = static_cast<std::size_t>(targets[b]);
        double* __restrict d = delta + b * m;
        double sum = 0.0;
        for (std::size_t o = 0; o < m; ++o)
            sum += d[o];
        total += std::log(sum) - (z[b * m + label] - z[b * m + arg]);
        correct += arg == label ? 1 : 0;
        const double inv_sum = 1.0 / sum;
        for (std::size_t o = 0; o < m; ++o)
            d[o] = d[o] * inv_sum * scale;
        d[label] -= scale;
    }
}

// The set for L lanes, products in bands of R rows.
template <std::size_t L, std::size_t R> constexpr VectorKernels vector_kernels() {
    return {.multiply_add = &multiply_add_lanes<L, R>,
            .activate = &activate_lanes,
            .activation_backward = &activation_backward_lanes,
            .add_rows = &add_rows_lanes,
            .add = &add_lanes,
            .scale = &scale_lanes,
            .sgd = &sgd_lanes,
            .adam = &adam_lanes,
            .output_loss = &output_loss_lanes};
}

} // namespace
} // namespace lockstep::kernels
