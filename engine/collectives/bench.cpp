#include "collectives/bench.h"

#include "collectives/transport.h"

#include "core/error.h"

#include <algorithm>
#include <chrono>
#include <cstring>
#include <memory>

namespace lockstep {

namespace {

double seconds_since(std::chrono::steady_clock::time_point start) {
    return std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
}

double median(std::vector<double> values) {
    std::sort(values.begin(), values.end());
    return values[values.size() / 2];
}

} // namespace

AllReduceBenchResult bench_all_reduce(Algorithm algorithm, int workers, std::int64_t bytes,
                                      int iterations) {
    if (algorithm == Algorithm::None)
        throw Error("--algorithm: none moves nothing; choose parameter-server, ring or tree");
    if (workers < 1 || workers > 256)
        throw Error("--workers: must be between 1 and 256, got " + std::to_string(workers));
    if (bytes < 8 || bytes > (std::int64_t{1} << 30))
        throw Error("--bytes: must be between 8 and 1073741824, got " + std::to_string(bytes));
    const auto count = static_cast<std::size_t>(bytes) / sizeof(double);
    if (static_cast<double>(count) * 8.0 * workers > 8.0 * (1u << 30))
        throw Error("--bytes: " + std::to_string(workers) +
                    " buffers of this size need more than 8 GiB");
    if (iterations <= 0)
        iterations =
            std::clamp(static_cast<int>((512ll << 20) / std::max<std::int64_t>(bytes, 1)), 5, 200);

    std::vector<std::vector<double>> storage(static_cast<std::size_t>(workers),
                                             std::vector<double>(count, 0.0));
    std::vector<std::span<double>> buffers(storage.begin(), storage.end());
    const CommSchedule schedule = make_schedule(algorithm, workers, count);
    InProcessTransport transport;

    run_all_reduce(schedule, transport, buffers); // warm-up: pages touched, threads started
    std::vector<double> times;
    for (int i = 0; i < iterations; ++i) {
        const auto start = std::chrono::steady_clock::now();
        run_all_reduce(schedule, transport, buffers);
        times.push_back(seconds_since(start));
    }

    std::vector<double> from(count, 1.0), into(count, 0.0);
    std::memcpy(into.data(), from.data(), count * sizeof(double));
    std::vector<double> copies;
    for (int i = 0; i < iterations; ++i) {
        const auto start = std::chrono::steady_clock::now();
        std::memcpy(into.data(), from.data(), count * sizeof(double));
        copies.push_back(seconds_since(start));
    }

    AllReduceBenchResult r;
    r.algorithm = algorithm;
    r.workers = workers;
    r.bytes = static_cast<std::int64_t>(count * sizeof(double));
    r.iterations = iterations;
    r.seconds = median(times);
    const double n = static_cast<double>(r.bytes);
    r.algbw_gbps = r.seconds > 0 ? n / r.seconds / 1e9 : 0.0;
    r.busbw_gbps = r.algbw_gbps * 2.0 * (workers - 1) / workers;
    const double copy = median(copies);
    r.memcpy_gbps = copy > 0 ? n / copy / 1e9 : 0.0;
    return r;
}

} // namespace lockstep
