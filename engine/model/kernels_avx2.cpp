// The vector kernels with 4 doubles (8 floats) a vector, compiled with -mavx2
// (engine/CMakeLists.txt) and used only when the processor has it (model/simd.h).
#include "model/kernels.h"

#ifdef LOCKSTEP_X86_SIMD
#include "model/kernel_blocks.h"

namespace lockstep::kernels {

// Sixteen registers: bands of two rows (eight accumulators, four vectors of B).
const VectorKernels avx2_kernels = vector_kernels<double, 4, 2>();
const VectorKernelsOf<float> avx2_kernels32 = vector_kernels<float, 8, 2>();

} // namespace lockstep::kernels
#endif
