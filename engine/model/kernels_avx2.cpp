// multiply_add() with 4 doubles a vector, compiled with -mavx2 (engine/CMakeLists.txt) and used
// only when the processor has it (model/simd.h).
#include "model/kernels.h"

#ifdef LOCKSTEP_X86_SIMD
#include "model/kernel_blocks.h"

namespace lockstep::kernels {

void multiply_add_avx2(std::size_t rows, std::size_t cols, std::size_t depth, const double* a,
                       std::size_t a_row, std::size_t a_k, const double* b, std::size_t ldb,
                       double* c, std::size_t ldc) {
    multiply_add_lanes<4>(rows, cols, depth, a, a_row, a_k, b, ldb, c, ldc);
}

} // namespace lockstep::kernels
#endif
