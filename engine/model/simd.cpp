#include "model/simd.h"

#include "core/error.h"
#include "model/kernels.h"

#include <atomic>
#include <cstdio>
#include <cstdlib>
#include <string>

namespace lockstep::simd {

namespace {

const kernels::VectorKernels* kernels_of(Path path) {
    switch (path) {
#ifdef LOCKSTEP_X86_SIMD
    case Path::Avx2:
        return &kernels::avx2_kernels;
    case Path::Avx512:
        return &kernels::avx512_kernels;
#endif
    default:
        return &kernels::sse2_kernels;
    }
}

const kernels::VectorKernelsOf<float>* float_kernels_of(Path path) {
    switch (path) {
#ifdef LOCKSTEP_X86_SIMD
    case Path::Avx2:
        return &kernels::avx2_kernels32;
    case Path::Avx512:
        return &kernels::avx512_kernels32;
#endif
    default:
        return &kernels::sse2_kernels32;
    }
}

bool runs(Path path) {
#ifdef LOCKSTEP_X86_SIMD
    switch (path) {
    case Path::Sse2:
        return true;
    case Path::Avx2:
        return __builtin_cpu_supports("avx2");
    case Path::Avx512:
        return __builtin_cpu_supports("avx512f");
    }
    return false;
#else
    return path == Path::Sse2;
#endif
}

Path chosen() {
    const std::vector<Path> paths = available();
    const Path widest = paths.back();
    const char* forced = std::getenv("LOCKSTEP_SIMD");
    if (!forced || !*forced)
        return widest;
    const std::optional<Path> wanted = parse(forced);
    if (!wanted) {
        std::fprintf(stderr,
                     "lockstep: LOCKSTEP_SIMD=%s is not one of sse2, avx2, avx512; using %s\n",
                     forced, name(widest));
        return widest;
    }
    if (!runs(*wanted)) {
        std::fprintf(stderr, "lockstep: LOCKSTEP_SIMD=%s: this processor has no %s; using %s\n",
                     forced, name(*wanted), name(widest));
        return widest;
    }
    return *wanted;
}

struct State {
    std::atomic<Path> path;
    std::atomic<const kernels::VectorKernels*> kernels;
    std::atomic<const kernels::VectorKernelsOf<float>*> float_kernels;
    State()
        : path(chosen())
        , kernels(kernels_of(path.load()))
        , float_kernels(float_kernels_of(path.load())) {}
};

State& state() {
    static State s;
    return s;
}

} // namespace

const char* name(Path path) {
    switch (path) {
    case Path::Sse2:
        return "sse2";
    case Path::Avx2:
        return "avx2";
    case Path::Avx512:
        return "avx512";
    }
    return "?";
}

std::optional<Path> parse(std::string_view text) {
    for (Path p : {Path::Sse2, Path::Avx2, Path::Avx512})
        if (text == name(p))
            return p;
    return std::nullopt;
}

std::vector<Path> available() {
    std::vector<Path> out;
    for (Path p : {Path::Sse2, Path::Avx2, Path::Avx512})
        if (runs(p))
            out.push_back(p);
    return out;
}

Path active() {
    return state().path.load();
}

void use(Path path) {
    if (!runs(path))
        throw Error(std::string("SIMD path ") + name(path) +
                    " is not available on this processor or in this build");
    state().kernels.store(kernels_of(path));
    state().float_kernels.store(float_kernels_of(path));
    state().path.store(path);
}

std::string describe() {
    std::string text = std::string("vectors: ") + name(active()) + " (this processor: ";
    const std::vector<Path> paths = available();
    for (std::size_t i = 0; i < paths.size(); ++i)
        text += (i ? ", " : "") + std::string(name(paths[i]));
    return text + "; LOCKSTEP_SIMD=sse2|avx2|avx512 chooses; every one gives the same bits)\n";
}

} // namespace lockstep::simd

namespace lockstep::kernels {

const VectorKernels& vector_kernels() {
    return *simd::state().kernels.load(std::memory_order_relaxed);
}

const VectorKernelsOf<float>& vector_kernels32() {
    return *simd::state().float_kernels.load(std::memory_order_relaxed);
}

template <class T>
void multiply_add(std::size_t rows, std::size_t cols, std::size_t depth, const T* a,
                  std::size_t a_row, std::size_t a_k, const T* b, std::size_t ldb, T* c,
                  std::size_t ldc) {
    vector_kernels_of<T>().multiply_add(rows, cols, depth, a, a_row, a_k, b, ldb, c, ldc);
}
template void multiply_add(std::size_t, std::size_t, std::size_t, const double*, std::size_t,
                           std::size_t, const double*, std::size_t, double*, std::size_t);
template void multiply_add(std::size_t, std::size_t, std::size_t, const float*, std::size_t,
                           std::size_t, const float*, std::size_t, float*, std::size_t);

} // namespace lockstep::kernels
