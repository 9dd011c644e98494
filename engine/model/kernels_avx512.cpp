// The vector kernels with 8 doubles (16 floats) a vector, compiled with -mavx512f
// (engine/CMakeLists.txt) and used only when the processor has it (model/simd.h).
#include "model/kernels.h"

#ifdef LOCKSTEP_X86_SIMD
#include "model/kernel_blocks.h"

namespace lockstep::kernels {

// Thirty-two registers: bands of four rows (sixteen accumulators, four vectors of B).
const VectorKernels avx512_kernels = vector_kernels<double, 8, 4>();
const VectorKernelsOf<float> avx512_kernels32 = vector_kernels<float, 16, 4>();

} // namespace lockstep::kernels
#endif
