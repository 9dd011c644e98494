// The model's speed on each vector path (model/simd.h), on one thread: a whole training step of
// MLP 2,256,256,3 (tanh, softmax cross-entropy, SGD), batch 32, and the step's largest product
// alone (32x256 times 256x256, kernels::multiply_add). Prints one JSON line per path with
// samples/s and GFLOP/s (best of five), and the parameters' hash after the timed steps, which is
// the same on every path. Built with OpenBLAS (libopenblas-dev installed), a line gives its dgemm
// on the same product, on one thread, the kernel OpenBLAS chose for this processor, and each
// path's step as a fraction of it (OPENBLAS_CORETYPE=SkylakeX makes OpenBLAS use its AVX-512
// kernel where it would not choose it itself). Last, tests/bench/torch_step.py gives PyTorch's
// eager step on the same model, in float64 and float32, when python3-torch is installed.
#include "core/rng.h"
#include "model/kernels.h"
#include "model/model.h"
#include "model/optimizer.h"
#include "model/simd.h"
#include "timed_steps.h"

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <optional>
#include <string>
#include <vector>

#ifdef LOCKSTEP_BENCH_OPENBLAS
extern "C" {
// The Fortran BLAS interface, column-major, and OpenBLAS's own thread count.
void dgemm_(const char* transa, const char* transb, const int* m, const int* n, const int* k,
            const double* alpha, const double* a, const int* lda, const double* b, const int* ldb,
            const double* beta, double* c, const int* ldc);
void openblas_set_num_threads(int threads);
char* openblas_get_corename();
}
#endif

namespace {

using Clock = std::chrono::steady_clock;

double seconds_since(Clock::time_point start) {
    return std::chrono::duration<double>(Clock::now() - start).count();
}

} // namespace

int main(int argc, char** argv) {
    using namespace lockstep;
    const long steps = argc > 1 ? std::atol(argv[1]) : 300;
    constexpr std::size_t batch = 32;
    constexpr int repetitions = 5;

    ModelShape shape;
    shape.layers = {2, 256, 256, 3};
    shape.activation = Activation::Tanh;
    shape.loss = LossKind::SoftmaxCrossEntropy;
    // Multiply-adds of one step: forward, then the backward's weight gradient and input deltas
    // (none below the first layer), two FLOPs each.
    double forward_terms = 0;
    for (std::size_t l = 1; l < shape.layers.size(); ++l)
        forward_terms += double(shape.layers[l - 1]) * double(shape.layers[l]);
    const double flops_per_step =
        2.0 * double(batch) * (forward_terms * 2.0 + (forward_terms - 2.0 * 256.0));

    Rng data_rng(5);
    std::vector<double> features(batch * 2);
    std::vector<double> targets(batch);
    for (double& x : features)
        x = data_rng.normal();
    for (std::size_t k = 0; k < batch; ++k)
        targets[k] = double(k % 3);
    const BatchView view{features.data(), targets.data(), batch};

    // The largest product: C (32x256) += A (32x256) * B (256x256).
    std::vector<double> a(batch * 256), b(256 * 256), c(batch * 256);
    for (double& x : a)
        x = data_rng.normal();
    for (double& x : b)
        x = data_rng.normal();

    std::vector<std::pair<const char*, double>> step_rates;
    std::vector<simd::Path> paths = simd::available();
    if (argc > 2) { // one path alone, for a profiler
        const std::optional<simd::Path> only = simd::parse(argv[2]);
        if (!only || std::find(paths.begin(), paths.end(), *only) == paths.end()) {
            std::fprintf(stderr, "bench_simd: %s is not a path this processor has\n", argv[2]);
            return 2;
        }
        paths = {*only};
    }
    for (simd::Path path : paths) {
        simd::use(path);
        double best_step = 0;
        double best_product = 0;
        std::uint64_t hash = 0;
        for (int rep = 0; rep < repetitions; ++rep) {
            best_step = std::max(best_step, bench::timed_steps(shape, view, steps, &hash));

            std::fill(c.begin(), c.end(), 0.0);
            const Clock::time_point product_start = Clock::now();
            for (long s = 0; s < steps; ++s)
                kernels::multiply_add(batch, 256, 256, a.data(), 256, 1, b.data(), 256, c.data(),
                                      256);
            best_product = std::max(best_product, double(steps) / seconds_since(product_start));
        }
        std::printf("{\"bench\": \"simd\", \"path\": \"%s\", \"model\": \"2,256,256,3\", "
                    "\"batch\": %zu, \"steps\": %ld, \"samples_per_s\": %.0f, "
                    "\"step_gflops\": %.2f, \"product_gflops\": %.2f, \"hash\": \"%016llx\"}\n",
                    simd::name(path), batch, steps, best_step * double(batch),
                    best_step * flops_per_step / 1e9,
                    best_product * 2.0 * double(batch) * 256.0 * 256.0 / 1e9,
                    static_cast<unsigned long long>(hash));
        step_rates.emplace_back(simd::name(path), best_step * flops_per_step / 1e9);
    }
#ifdef LOCKSTEP_BENCH_OPENBLAS
    // Row-major C (32x256) += A (32x256) * B (256x256) is column-major C' += B' * A'.
    openblas_set_num_threads(1);
    const int m = 256, n = int(batch), k = 256;
    const double one = 1.0;
    double best_dgemm = 0;
    for (int rep = 0; rep < repetitions; ++rep) {
        std::fill(c.begin(), c.end(), 0.0);
        const Clock::time_point start = Clock::now();
        for (long s = 0; s < steps; ++s)
            dgemm_("N", "N", &m, &n, &k, &one, b.data(), &m, a.data(), &k, &one, c.data(), &m);
        best_dgemm = std::max(best_dgemm, double(steps) / seconds_since(start));
    }
    const double dgemm_gflops = best_dgemm * 2.0 * double(batch) * 256.0 * 256.0 / 1e9;
    std::printf(
        "{\"bench\": \"simd\", \"openblas_kernel\": \"%s\", \"openblas_dgemm_gflops\": %.2f",
        openblas_get_corename(), dgemm_gflops);
    for (const auto& [name, rate] : step_rates)
        std::printf(", \"%s_step_of_dgemm\": %.2f", name, rate / dgemm_gflops);
    std::printf("}\n");
#endif
    std::fflush(stdout);
    const std::string torch =
        std::string(LOCKSTEP_BENCH_TORCH_STEP) + " " + std::to_string(steps) + " 2>/dev/null";
    if (std::system(torch.c_str()) != 0)
        std::printf("{\"bench\": \"simd\", \"pytorch\": \"could not run %s\"}\n",
                    LOCKSTEP_BENCH_TORCH_STEP);
    return 0;
}
