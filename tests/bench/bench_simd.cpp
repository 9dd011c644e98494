// The model's speed on each vector path (model/simd.h), on one thread: a whole training step of
// MLP 2,256,256,3 (tanh, softmax cross-entropy, SGD), batch 32, and the step's largest product
// alone (32x256 times 256x256, kernels::multiply_add). Prints one JSON line per path with
// samples/s and GFLOP/s (best of five), and the parameters' hash after the timed steps, which is
// the same on every path.
#include "core/rng.h"
#include "model/kernels.h"
#include "model/model.h"
#include "model/optimizer.h"
#include "model/simd.h"

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <vector>

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

    for (simd::Path path : simd::available()) {
        simd::use(path);
        double best_step = 0;
        double best_product = 0;
        std::uint64_t hash = 0;
        for (int rep = 0; rep < repetitions; ++rep) {
            Rng rng(11);
            std::vector<double> params = init_parameters(shape, rng);
            OptimizerConfig config;
            config.learning_rate = 0.05;
            config.momentum = 0.9;
            Optimizer opt(config, params.size());
            Workspace work;
            std::vector<double> gradient(params.size());
            const Clock::time_point start = Clock::now();
            for (long s = 0; s < steps; ++s) {
                loss_and_gradient(shape, params, view, gradient, work);
                opt.apply(params, gradient);
            }
            best_step = std::max(best_step, double(steps) / seconds_since(start));
            hash = hash_parameters(params);

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
    }
    return 0;
}
