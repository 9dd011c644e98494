// How long a speedup sweep over 1..32 workers takes on the modelled clock (the default demo
// scenario), and the measured-clock speedup of a compute-heavy run with 1 and 2 threads.

#include "collectives/bench.h"
#include "runs/runs.h"
#include "runs/train_bench.h"

#include <oneapi/tbb/global_control.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <vector>

namespace {

double seconds_since(std::chrono::steady_clock::time_point start) {
    return std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
}

} // namespace

int main() {
    const lockstep::Scenario scenario;
    std::vector<int> counts(32);
    for (int i = 0; i < 32; ++i)
        counts[static_cast<std::size_t>(i)] = i + 1;

    // Times only (what the speedup view redraws while a slider moves) and with real training.
    for (auto work : {lockstep::Work::TimesOnly, lockstep::Work::Train}) {
        const bool quick = work == lockstep::Work::TimesOnly;
        for (const auto& list : {counts, std::vector<int>{1, 2, 4, 8, 16, 32}}) {
            std::vector<double> times;
            std::vector<lockstep::SweepPoint> points;
            for (int repeat = 0; repeat < (quick ? 5 : 3); ++repeat) {
                const auto start = std::chrono::steady_clock::now();
                points = lockstep::sweep(scenario, list, work);
                times.push_back(seconds_since(start));
            }
            std::sort(times.begin(), times.end());
            std::printf("{\"bench\":\"sweep\",\"work\":\"%s\",\"workers\":\"%s\",\"points\":%zu,"
                        "\"steps\":%lld,\"median_ms\":%.1f,\"speedup_at_32\":%.3f}\n",
                        quick ? "times-only" : "train",
                        list.size() == 32 ? "1..32" : "1,2,4,8,16,32", list.size(),
                        static_cast<long long>(scenario.steps), times[times.size() / 2] * 1e3,
                        points.back().metrics.speedup);
            std::fflush(stdout);
        }
    }

    // Compute-heavy training on the measured clock: two workers, one thread against two.
    const std::vector<int> layers{2, 256, 256, 2};
    double one = 0.0, two = 0.0;
    for (int threads : {1, 2}) {
        const auto r = lockstep::bench_train(layers, 256, 60, 2, threads);
        (threads == 1 ? one : two) = r.samples_per_s;
        std::printf("{\"bench\":\"measured-threads\",\"layers\":\"2,256,256,2\",\"workers\":2,"
                    "\"threads\":%d,"
                    "\"samples_per_s\":%.0f}\n",
                    threads, r.samples_per_s);
    }
    std::printf("{\"bench\":\"measured-threads\",\"speedup_2_over_1\":%.3f}\n", two / one);
    return 0;
}
