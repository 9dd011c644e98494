#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <vector>

// Which vector instructions the engine's kernels use (kernels::VectorKernels, model/kernels.h:
// products, activations, updates, the collectives' additions): two doubles at a time (SSE2, the
// reference), four (AVX2) or eight (AVX-512), chosen once from what the processor has, or forced
// with LOCKSTEP_SIMD=sse2|avx2|avx512. Every path gives the same bits: the vectors
// only widen across independent outputs, and no sum is reordered.
namespace lockstep::simd {

enum class Path { Sse2, Avx2, Avx512 };

const char* name(Path path); // "sse2", "avx2", "avx512"
std::optional<Path> parse(std::string_view text);
// The paths this processor (and this build) can run, narrowest first.
std::vector<Path> available();
// The path in use: LOCKSTEP_SIMD when it names one this processor has (otherwise a warning on
// stderr says why not), else the widest available.
Path active();
// Uses `path` from now on (tests, benchmarks); throws lockstep::Error when this processor or
// build lacks it.
void use(Path path);
// One line for --version: "vectors: avx512 (this processor: sse2, avx2, avx512; ...)".
std::string describe();

} // namespace lockstep::simd
