#include "runs/train_bench.h"

#include "core/error.h"
#include "scenario/scenario.h"
#include "trainers/run.h"

#include <oneapi/tbb/global_control.h>

#include <algorithm>
#include <chrono>
#include <optional>

namespace lockstep {

namespace {

double seconds_since(std::chrono::steady_clock::time_point start) {
    return std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
}

} // namespace

TrainBenchResult bench_train(const std::vector<int>& layers, std::size_t batch, std::int64_t steps,
                             int workers, int threads) {
    Scenario s;
    s.model.layers = layers;
    s.model.activation = Activation::Tanh;
    s.batch = batch;
    s.steps = steps;
    s.workers = workers;
    s.algorithm = Algorithm::Ring;
    s.clock = ClockKind::Measured; // wall-clock time of the real threads
    s.dataset = {"spiral", "", std::max<std::size_t>(4096, static_cast<std::size_t>(workers)), 0.1,
                 std::min(layers.back(), 8)};
    s.optimizer = {OptimizerKind::Sgd, 0.05, 0.9, 0.9, 0.999, 1e-8};
    if (layers.size() < 2 || layers.front() != 2)
        throw Error("--layers: the benchmark trains on a 2-D dataset; the first size must be 2");
    if (layers.back() < 2)
        throw Error("--layers: the benchmark classifies; the last size must be at least 2");
    validate(s);

    std::optional<tbb::global_control> limit;
    if (threads > 0)
        limit.emplace(tbb::global_control::max_allowed_parallelism,
                      static_cast<std::size_t>(threads));
    auto data = load_dataset(s);
    auto trainer = make_run(s, data);
    trainer->step(); // warm-up
    const auto start = std::chrono::steady_clock::now();
    while (!trainer->finished())
        trainer->step();
    TrainBenchResult r;
    r.layers = layers;
    r.batch = batch;
    r.steps = steps - 1;
    r.workers = workers;
    r.threads = threads;
    r.seconds = seconds_since(start);
    r.samples_per_s = r.seconds > 0 ? static_cast<double>(r.steps) *
                                          static_cast<double>(s.global_batch()) / r.seconds
                                    : 0;
    return r;
}
} // namespace lockstep
