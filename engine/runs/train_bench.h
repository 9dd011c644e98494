#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

namespace lockstep {

// Real training throughput (wall clock) of the data-parallel trainer on a synthetic set.
struct TrainBenchResult {
    std::vector<int> layers;
    std::size_t batch = 0;
    std::int64_t steps = 0;
    int workers = 1;
    int threads = 0; // 0: TBB's default
    double seconds = 0.0;
    double samples_per_s = 0.0;
};

TrainBenchResult bench_train(const std::vector<int>& layers, std::size_t batch, std::int64_t steps,
                             int workers, int threads = 0);

} // namespace lockstep
