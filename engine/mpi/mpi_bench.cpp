// The all-reduce benchmark over MPI: Lockstep's schedule against Open MPI's MPI_Allreduce.
#include "mpi/mpi_run.h"

#include "core/error.h"
#include "core/rng.h"
#include "mpi/mpi_world.h"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdint>
#include <functional>
#include <string>
#include <vector>

namespace lockstep::mpi {

using detail::check;
using detail::world_rank;
using detail::world_size;

MpiBench bench_over_mpi(Algorithm algorithm, std::int64_t bytes, int iterations) {
    const int rank = world_rank(), size = world_size();
    on_every_rank([&] {
        if (algorithm == Algorithm::None)
            throw Error("--algorithm: none moves nothing; choose parameter-server, ring or tree");
        if (bytes < 8 || bytes > (std::int64_t{1} << 30))
            throw Error("--bytes: must be between 8 and 1073741824, got " + std::to_string(bytes));
    });
    const auto count = static_cast<std::size_t>(bytes) / sizeof(double);
    if (iterations <= 0)
        iterations =
            std::clamp(static_cast<int>((512ll << 20) / std::max<std::int64_t>(bytes, 1)), 5, 200);
    const CommSchedule schedule = make_schedule(algorithm, size, count);
    MpiTransport transport(MPI_COMM_WORLD);

    std::vector<double> input(count);
    Rng rng = Rng::stream(2024, static_cast<std::uint64_t>(rank));
    for (double& v : input)
        v = rng.uniform(-1.0, 1.0);
    std::vector<double> ours = input, theirs(count);
    // Both sums once on the same input: how far Open MPI's order of additions lands from ours.
    run_rank(schedule, transport, rank, ours);
    check(MPI_Allreduce(input.data(), theirs.data(), static_cast<int>(count), MPI_DOUBLE, MPI_SUM,
                        MPI_COMM_WORLD),
          "MPI_Allreduce");
    double difference = 0.0;
    for (std::size_t i = 0; i < count; ++i)
        difference = std::max(difference, std::abs(ours[i] - theirs[i]));

    // The slowest rank's time of each iteration, the median over iterations.
    auto time = [&](const std::function<void()>& once) {
        std::vector<double> times;
        for (int i = 0; i < iterations; ++i) {
            check(MPI_Barrier(MPI_COMM_WORLD), "MPI_Barrier");
            const auto start = std::chrono::steady_clock::now();
            once();
            const double mine =
                std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
            double slowest = 0.0;
            check(MPI_Allreduce(&mine, &slowest, 1, MPI_DOUBLE, MPI_MAX, MPI_COMM_WORLD),
                  "MPI_Allreduce");
            times.push_back(slowest);
        }
        std::sort(times.begin(), times.end());
        return times[times.size() / 2];
    };
    MpiBench b;
    b.algorithm = algorithm;
    b.ranks = size;
    b.bytes = static_cast<std::int64_t>(count * sizeof(double));
    b.iterations = iterations;
    b.seconds = time([&] { run_rank(schedule, transport, rank, ours); });
    b.mpi_seconds = time([&] {
        check(MPI_Allreduce(input.data(), theirs.data(), static_cast<int>(count), MPI_DOUBLE,
                            MPI_SUM, MPI_COMM_WORLD),
              "MPI_Allreduce");
    });
    const double n = static_cast<double>(b.bytes), bus = 2.0 * (size - 1) / size;
    b.algbw_gbps = b.seconds > 0 ? n / b.seconds / 1e9 : 0.0;
    b.busbw_gbps = b.algbw_gbps * bus;
    b.mpi_algbw_gbps = b.mpi_seconds > 0 ? n / b.mpi_seconds / 1e9 : 0.0;
    b.mpi_busbw_gbps = b.mpi_algbw_gbps * bus;
    check(MPI_Allreduce(&difference, &b.max_difference, 1, MPI_DOUBLE, MPI_MAX, MPI_COMM_WORLD),
          "MPI_Allreduce");
    return b;
}

namespace {

// The median round trip of `bytes` from rank 0 to rank `far` and back, `iterations` times.
double median_round_trip(int far, std::int64_t bytes, int iterations) {
    const int rank = world_rank();
    std::vector<char> buffer(static_cast<std::size_t>(bytes), 1);
    const int count = static_cast<int>(bytes);
    std::vector<double> times;
    for (int i = 0; i < iterations + 1; ++i) { // the first one warms the connection up
        check(MPI_Barrier(MPI_COMM_WORLD), "MPI_Barrier");
        const auto start = std::chrono::steady_clock::now();
        if (rank == 0) {
            check(MPI_Send(buffer.data(), count, MPI_CHAR, far, 7, MPI_COMM_WORLD), "MPI_Send");
            check(
                MPI_Recv(buffer.data(), count, MPI_CHAR, far, 7, MPI_COMM_WORLD, MPI_STATUS_IGNORE),
                "MPI_Recv");
        } else if (rank == far) {
            check(MPI_Recv(buffer.data(), count, MPI_CHAR, 0, 7, MPI_COMM_WORLD, MPI_STATUS_IGNORE),
                  "MPI_Recv");
            check(MPI_Send(buffer.data(), count, MPI_CHAR, 0, 7, MPI_COMM_WORLD), "MPI_Send");
        }
        if (i > 0)
            times.push_back(
                std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count());
    }
    std::sort(times.begin(), times.end());
    double median = times[times.size() / 2];
    check(MPI_Bcast(&median, 1, MPI_DOUBLE, 0, MPI_COMM_WORLD), "MPI_Bcast");
    return median;
}

} // namespace

LinkBench bench_link(std::int64_t bytes, int iterations) {
    const int size = world_size();
    on_every_rank([&] {
        if (size < 2)
            throw Error("bench link: measures the link between two processes; start at least two "
                        "(mpirun -np 2)");
        if (bytes < 1024 || bytes > (std::int64_t{1} << 30))
            throw Error("--bytes: must be between 1024 and 1073741824, got " +
                        std::to_string(bytes));
        if (iterations < 1 || iterations > 100000)
            throw Error("--iterations: must be between 1 and 100000, got " +
                        std::to_string(iterations));
    });
    const std::vector<std::string> hosts = gather_hosts(); // rank 0's; empty elsewhere
    LinkBench b;
    b.ranks = size;
    if (!hosts.empty()) {
        b.from_host = hosts.front();
        b.to_host = hosts.back();
    }
    b.bytes = bytes;
    b.iterations = iterations;
    b.small_round_trip_s = median_round_trip(size - 1, 8, iterations);
    b.large_round_trip_s = median_round_trip(size - 1, bytes, iterations);
    b.latency_us = b.small_round_trip_s / 2.0 * 1e6;
    const double extra = (b.large_round_trip_s - b.small_round_trip_s) / 2.0;
    b.bandwidth_mbit_s = extra > 0 ? static_cast<double>(bytes - 8) * 8.0 / extra / 1e6 : 0.0;
    return b;
}

} // namespace lockstep::mpi
