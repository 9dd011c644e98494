#pragma once

// The blocks of kernels::multiply_add() for one vector width: L doubles side by side, with GCC's
// portable vector extension. model/kernels.cpp instantiates them for two lanes (SSE2, the
// reference, and plain scalar code where there are no vectors), kernels_avx2.cpp for four and
// kernels_avx512.cpp for eight, each file compiled for its instruction set. Everything here has
// internal linkage, so the copies made for different instruction sets never mix.
//
// Every lane does exactly the scalar operation: each entry of C starts from what C holds and
// adds a(r, k) * b(k, j), one multiply and one add (no FMA: -ffp-contract=off), in ascending k.
// The vectors only widen across independent columns of C, so every width gives the same bits.

#include <cstddef>
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

// C (rows x cols) += A (rows x depth) * B (depth x cols), in bands of two rows.
template <std::size_t L>
void multiply_add_lanes(std::size_t rows, std::size_t cols, std::size_t depth, const double* a,
                        std::size_t a_row, std::size_t a_k, const double* b, std::size_t ldb,
                        double* c, std::size_t ldc) {
    std::size_t r = 0;
    for (; r + 2 <= rows; r += 2)
        band_multiply_add<L, 2>(a + r * a_row, a_row, a_k, b, ldb, depth, c + r * ldc, ldc, cols);
    for (; r < rows; ++r)
        band_multiply_add<L, 1>(a + r * a_row, a_row, a_k, b, ldb, depth, c + r * ldc, ldc, cols);
}

} // namespace
} // namespace lockstep::kernels
