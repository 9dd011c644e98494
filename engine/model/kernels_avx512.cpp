// The vector kernels with 8 doubles a vector, compiled with -mavx512f (engine/CMakeLists.txt) and
// used only when the processor has it (model/simd.h).
#include "model/kernels.h"

#ifdef LOCKSTEP_X86_SIMD
#include "model/kernel_blocks.h"

namespace lockstep::kernels {

// Thirty-two registers: bands of four rows (sixteen accumulators, four vectors of B).
const VectorKernels avx512_kernels = vector_kernels<8, 4>();

} // namespace lockstep::kernels
#endif
