#pragma once

// The kernels that run on vectors, for one number type T (double, or float for float32 runs) and
// one vector width: L numbers side by side, with GCC's portable vector extension for the products
// and plain loops the compiler vectorises for the rest. model/kernels.cpp instantiates them for
// 16-byte vectors (SSE2, the reference, and plain scalar code where there are no vectors),
// kernels_avx2.cpp for 32 bytes and kernels_avx512.cpp for 64, each file compiled for its
// instruction set and handing its sets over as VectorKernelsOf tables (model/kernels.h).
// Everything here has internal linkage, so the copies made for different instruction sets never
// mix.
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

template <class T, std::size_t L> struct Lanes;
template <> struct Lanes<double, 2> { using Vec = double __attribute__((vector_size(16))); };
template <> struct Lanes<double, 4> { using Vec = double __attribute__((vector_size(32))); };
template <> struct Lanes<double, 8> { using Vec = double __attribute__((vector_size(64))); };
template <> struct Lanes<float, 4> { using Vec = float __attribute__((vector_size(16))); };
template <> struct Lanes<float, 8> { using Vec = float __attribute__((vector_size(32))); };
template <> struct Lanes<float, 16> { using Vec = float __attribute__((vector_size(64))); };

template <class T, std::size_t L> inline typename Lanes<T, L>::Vec load(const T* p) {
    typename Lanes<T, L>::Vec v;
    std::memcpy(&v, p, sizeof v);
    return v;
}

template <class T, std::size_t L> inline void store(T* p, typename Lanes<T, L>::Vec v) {
    std::memcpy(p, &v, sizeof v);
}

// One block of C += A * B held in registers: R rows by V vectors of L columns of C. A(r, k) sits
// at a[r * a_row + k * a_k], B is row-major with leading dimension ldb, C with ldc. Left to
// itself GCC vectorised the k loop instead (with shuffles and spills), hence the explicit vectors.
template <class T, std::size_t L, std::size_t R, std::size_t V>
inline void block_multiply_add(const T* __restrict a, std::size_t a_row, std::size_t a_k,
                               const T* __restrict b, std::size_t ldb, std::size_t depth,
                               T* __restrict c, std::size_t ldc) {
    using Vec = typename Lanes<T, L>::Vec;
    Vec acc[R][V];
    for (std::size_t r = 0; r < R; ++r)
        for (std::size_t v = 0; v < V; ++v)
            acc[r][v] = load<T, L>(c + r * ldc + L * v);
    for (std::size_t k = 0; k < depth; ++k) {
        Vec bk[V];
        for (std::size_t v = 0; v < V; ++v)
            bk[v] = load<T, L>(b + k * ldb + L * v);
        for (std::size_t r = 0; r < R; ++r) {
            const T ark = a[r * a_row + k * a_k];
            for (std::size_t v = 0; v < V; ++v)
                acc[r][v] += ark * bk[v];
        }
    }
    for (std::size_t r = 0; r < R; ++r)
        for (std::size_t v = 0; v < V; ++v)
            store<T, L>(c + r * ldc + L * v, acc[r][v]);
}

// The same for a single column of C, for the columns left over.
template <class T, std::size_t R>
inline void column_multiply_add(const T* __restrict a, std::size_t a_row, std::size_t a_k,
                                const T* __restrict b, std::size_t ldb, std::size_t depth,
                                T* __restrict c, std::size_t ldc) {
    T acc[R];
    for (std::size_t r = 0; r < R; ++r)
        acc[r] = c[r * ldc];
    for (std::size_t k = 0; k < depth; ++k) {
        const T bk = b[k * ldb];
        for (std::size_t r = 0; r < R; ++r)
            acc[r] += a[r * a_row + k * a_k] * bk;
    }
    for (std::size_t r = 0; r < R; ++r)
        c[r * ldc] = acc[r];
}

// One band of R rows of C += A * B, cut into column blocks of 4L, then L, then 1.
template <class T, std::size_t L, std::size_t R>
void band_multiply_add(const T* a, std::size_t a_row, std::size_t a_k, const T* b, std::size_t ldb,
                       std::size_t depth, T* c, std::size_t ldc, std::size_t cols) {
    std::size_t j = 0;
    for (; j + 4 * L <= cols; j += 4 * L)
        block_multiply_add<T, L, R, 4>(a, a_row, a_k, b + j, ldb, depth, c + j, ldc);
    for (; j + L <= cols; j += L)
        block_multiply_add<T, L, R, 1>(a, a_row, a_k, b + j, ldb, depth, c + j, ldc);
    for (; j < cols; ++j)
        column_multiply_add<T, R>(a, a_row, a_k, b + j, ldb, depth, c + j, ldc);
}

// C (rows x cols) += A (rows x depth) * B (depth x cols), in bands of R rows: the more rows a
// band holds, the fewer times B is read, as far as the registers go (R x 4 accumulators and four
// vectors of B).
template <class T, std::size_t L, std::size_t R>
void multiply_add_lanes(std::size_t rows, std::size_t cols, std::size_t depth, const T* a,
                        std::size_t a_row, std::size_t a_k, const T* b, std::size_t ldb, T* c,
                        std::size_t ldc) {
    std::size_t r = 0;
    for (; r + R <= rows; r += R)
        band_multiply_add<T, L, R>(a + r * a_row, a_row, a_k, b, ldb, depth, c + r * ldc, ldc,
                                   cols);
    for (; r < rows; ++r)
        band_multiply_add<T, L, 1>(a + r * a_row, a_row, a_k, b, ldb, depth, c + r * ldc, ldc,
                                   cols);
}

// e^z as 2^j (1 + expm1(r)), z = j ln2 + r with |r| <= ln2/2, in plain arithmetic so the loops
// that call it vectorise: expm1(r) comes from a Taylor polynomial (degree 14 for doubles, 8 for
// floats), 2^j from the bits. Valid for z in [exp_floor, 0], where 2^j is a normal number or
// (j = -1023, or -127 for floats) zero.
template <class T> struct ReducedExp {
    T scale;   // 2^j
    T expm1_r; // e^r - 1
};
template <class T> constexpr T exp_floor = -709.0;
template <> constexpr float exp_floor<float> = -88.0F;

inline ReducedExp<double> reduce_exp(double z) {
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

inline ReducedExp<float> reduce_exp(float z) {
    constexpr float inv_ln2 = 0x1.715476p0F;
    constexpr float ln2_hi = 0x1.62e4p-1F; // 15 bits, so k * ln2_hi is exact for |k| <= 255
    constexpr float ln2_lo = 0x1.7f7d1cp-20F;
    constexpr float round_shift = 0x1.8p23F;
    const float shifted = z * inv_ln2 + round_shift;
    const float j = shifted - round_shift;
    const float r = (z - j * ln2_hi) - j * ln2_lo;
    float p = 1.0F / 40320.0F; // 1/8!
    p = p * r + 1.0F / 5040.0F;
    p = p * r + 1.0F / 720.0F;
    p = p * r + 1.0F / 120.0F;
    p = p * r + 1.0F / 24.0F;
    p = p * r + 1.0F / 6.0F;
    p = p * r + 0.5F;
    return {std::bit_cast<float>((std::bit_cast<std::uint32_t>(shifted) + 127) << 23),
            r + (r * r) * p};
}

// tanh over an array, written as plain arithmetic so it vectorises: the call to libm's tanh was a
// third of a training step. tanh(x) = -expm1(-2|x|) / (expm1(-2|x|) + 2), with the sign of x
// restored. Agrees with std::tanh to within a few ulp, keeps tanh(-0) = -0 and NaN, and gives
// exactly +-1 beyond |x| = 20 (where tanh rounds to 1 anyway).
template <class T> inline void tanh_lanes(T* __restrict a, std::size_t n) {
    constexpr T limit = 20;
    // Clamp first, in its own loop: a select inside the main loop blocks vectorisation.
    for (std::size_t k = 0; k < n; ++k)
        a[k] = a[k] > limit ? limit : (a[k] < -limit ? -limit : a[k]);
    for (std::size_t k = 0; k < n; ++k) {
        const T x = a[k];
        const ReducedExp<T> e = reduce_exp(T(-2) * std::fabs(x));
        const T expm1_z = e.scale * e.expm1_r + (e.scale - T(1));
        a[k] = std::copysign(-expm1_z / (expm1_z + T(2)), x);
    }
}

// e^z over an array of z <= 0, in place: within a few ulp of std::exp, and 0 from exp_floor on
// (about where std::exp's results fall below the smallest normal number).
template <class T> inline void exp_lanes(T* __restrict a, std::size_t n) {
    for (std::size_t k = 0; k < n; ++k)
        a[k] = a[k] < exp_floor<T> ? exp_floor<T> : a[k];
    for (std::size_t k = 0; k < n; ++k) {
        const ReducedExp<T> e = reduce_exp(a[k]);
        a[k] = e.scale * e.expm1_r + e.scale;
    }
}

// A hidden layer's activation in place; one loop per kind keeps the loops branch-free.
template <class T>
inline void activate_lanes(Activation activation, T* __restrict a, std::size_t n) {
    switch (activation) {
    case Activation::Tanh:
        tanh_lanes(a, n);
        break;
    case Activation::Relu:
        for (std::size_t k = 0; k < n; ++k)
            a[k] = a[k] > T(0) ? a[k] : T(0);
        break;
    case Activation::Sigmoid:
        for (std::size_t k = 0; k < n; ++k)
            a[k] = T(1) / (T(1) + std::exp(-a[k]));
        break;
    case Activation::Linear:
        break;
    }
}

// Back-propagated deltas times the activation's derivative, written in terms of the activation's
// output `a` (which is what the forward pass kept).
template <class T>
inline void activation_backward_lanes(Activation activation, const T* __restrict a, T* __restrict d,
                                      std::size_t n) {
    switch (activation) {
    case Activation::Tanh:
        for (std::size_t k = 0; k < n; ++k)
            d[k] *= T(1) - a[k] * a[k];
        break;
    case Activation::Relu:
        for (std::size_t k = 0; k < n; ++k)
            d[k] = a[k] > T(0) ? d[k] : T(0);
        break;
    case Activation::Sigmoid:
        for (std::size_t k = 0; k < n; ++k)
            d[k] *= a[k] * (T(1) - a[k]);
        break;
    case Activation::Linear:
        break;
    }
}

// sums[o] += rows[b][o] for b = 0, 1, ...: a bias gradient, rows in ascending order.
template <class T>
inline void add_rows_lanes(const T* __restrict rows, std::size_t count, std::size_t width,
                           T* __restrict sums) {
    for (std::size_t b = 0; b < count; ++b) {
        const T* __restrict row = rows + b * width;
        for (std::size_t o = 0; o < width; ++o)
            sums[o] += row[o];
    }
}

template <class T>
inline void add_lanes(T* __restrict into, const T* __restrict from, std::size_t n) {
    for (std::size_t i = 0; i < n; ++i)
        into[i] += from[i];
}

template <class T> inline void scale_lanes(T* __restrict x, T weight, std::size_t n) {
    for (std::size_t i = 0; i < n; ++i)
        x[i] *= weight;
}

// The optimizers keep their values in doubles (a float32 run's are all float values) and do their
// arithmetic in C: each value read as a C, every operation rounded to C, the result stored back
// exactly. For C = double that is plain double arithmetic.
//
// SGD with momentum: v = mu v + g, then p -= lr v.
template <class C>
inline void sgd_lanes(double* __restrict p, const double* __restrict g, double* __restrict v,
                      std::size_t n, double lr, double mu) {
    const C lr_c = static_cast<C>(lr), mu_c = static_cast<C>(mu);
    for (std::size_t k = 0; k < n; ++k) {
        const C velocity = mu_c * static_cast<C>(v[k]) + static_cast<C>(g[k]);
        v[k] = velocity;
        p[k] = static_cast<C>(p[k]) - lr_c * velocity;
    }
}

// Adam, with the bias corrections of this step worked out by the caller.
template <class C>
inline void adam_lanes(double* __restrict p, const double* __restrict g, double* __restrict m,
                       double* __restrict v, std::size_t n, const AdamStep& step) {
    const C lr = static_cast<C>(step.learning_rate), b1 = static_cast<C>(step.beta1),
            b2 = static_cast<C>(step.beta2), eps = static_cast<C>(step.epsilon),
            c1 = static_cast<C>(step.correction1), c2 = static_cast<C>(step.correction2);
    for (std::size_t k = 0; k < n; ++k) {
        const C gk = static_cast<C>(g[k]);
        const C mk = b1 * static_cast<C>(m[k]) + (C(1) - b1) * gk;
        const C vk = b2 * static_cast<C>(v[k]) + (C(1) - b2) * gk * gk;
        m[k] = mk;
        v[k] = vk;
        const C m_hat = mk / c1;
        const C v_hat = vk / c2;
        p[k] = static_cast<C>(p[k]) - lr * m_hat / (std::sqrt(v_hat) + eps);
    }
}

// The loss of `rows` rows of m outputs, added row by row into `total`; `delta` gets d(mean
// loss)/d(outputs) with `scale`. Cross-entropy takes class indices the caller has checked and
// counts in `correct` the rows whose arg-max (the first, on ties) is the label; its row's
// exponentials are worked out all at once, in `delta`. MSE compares every output of a row with
// the row's one target. Each row's loss is worked out in T and added to `total` in double.
template <class T>
inline void output_loss_lanes(LossKind loss, const T* __restrict z,
                              const double* __restrict targets, std::size_t rows, std::size_t m,
                              double scale, T* __restrict delta, double& total,
                              std::size_t& correct) {
    const T s = static_cast<T>(scale);
    if (loss == LossKind::MeanSquaredError) {
        for (std::size_t b = 0; b < rows; ++b) {
            const T* __restrict row = z + b * m;
            T* __restrict d = delta + b * m;
            const T target = static_cast<T>(targets[b]);
            T row_sum = 0;
            for (std::size_t o = 0; o < m; ++o) {
                const T diff = row[o] - target;
                row_sum += diff * diff;
                d[o] = T(2) * diff * s;
            }
            total += row_sum;
        }
        return;
    }
    const auto row_top = [&](std::size_t b) {
        const T* __restrict row = z + b * m;
        std::size_t arg = 0;
        for (std::size_t o = 1; o < m; ++o)
            if (row[o] > row[arg])
                arg = o;
        return arg;
    };
    for (std::size_t b = 0; b < rows; ++b) {
        const T top = z[b * m + row_top(b)];
        for (std::size_t o = 0; o < m; ++o)
            delta[b * m + o] = z[b * m + o] - top;
    }
    exp_lanes(delta, rows * m);
    for (std::size_t b = 0; b < rows; ++b) {
        const std::size_t arg = row_top(b);
        const auto label = static_cast<std::size_t>(targets[b]);
        T* __restrict d = delta + b * m;
        T sum = 0;
        for (std::size_t o = 0; o < m; ++o)
            sum += d[o];
        total += std::log(sum) - (z[b * m + label] - z[b * m + arg]);
        correct += arg == label ? 1 : 0;
        const T inv_sum = T(1) / sum;
        for (std::size_t o = 0; o < m; ++o)
            d[o] = d[o] * inv_sum * s;
        d[label] -= s;
    }
}

// The set for T in vectors of L, products in bands of R rows.
template <class T, std::size_t L, std::size_t R> constexpr VectorKernelsOf<T> vector_kernels() {
    return {.multiply_add = &multiply_add_lanes<T, L, R>,
            .activate = &activate_lanes<T>,
            .activation_backward = &activation_backward_lanes<T>,
            .add_rows = &add_rows_lanes<T>,
            .add = &add_lanes<T>,
            .scale = &scale_lanes<T>,
            .sgd = &sgd_lanes<T>,
            .adam = &adam_lanes<T>,
            .output_loss = &output_loss_lanes<T>};
}

} // namespace
} // namespace lockstep::kernels
