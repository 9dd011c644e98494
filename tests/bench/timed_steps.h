#pragma once

// One timed run of the benchmarks' training step (bench_simd, bench_precision): `steps` steps of
// SGD with momentum (rate 0.05, momentum 0.9) from the model's first parameters for seed 11, on
// one batch, held in aligned buffers as the trainers hold them. Returns steps per second and, in
// `hash`, the parameters' hash after the last step.
#include "core/rng.h"
#include "model/model.h"
#include "model/optimizer.h"

#include <chrono>
#include <cstdint>
#include <vector>

namespace lockstep::bench {

inline double timed_steps(const ModelShape& shape, const BatchView& view, long steps,
                          std::uint64_t* hash = nullptr) {
    Rng rng(11);
    const std::vector<double> initial = init_parameters(shape, rng);
    AlignedBuffer params(initial.begin(), initial.end());
    OptimizerConfig config;
    config.learning_rate = 0.05;
    config.momentum = 0.9;
    Optimizer opt(config, params.size(), shape.precision);
    Workspace work;
    AlignedBuffer gradient(params.size());
    const auto start = std::chrono::steady_clock::now();
    for (long s = 0; s < steps; ++s) {
        loss_and_gradient(shape, params, view, gradient, work);
        opt.apply(params, gradient);
    }
    const double seconds =
        std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    if (hash)
        *hash = hash_parameters(params);
    return double(steps) / seconds;
}

} // namespace lockstep::bench
