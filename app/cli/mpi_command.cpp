#include "mpi_command.h"
#include "options.h"

#include "core/error.h"

#ifdef LOCKSTEP_HAVE_MPI
#include "mpi/mpi_run.h"

#include <nlohmann/json.hpp>

#include <cmath>
#include <cstdio>
#include <iostream>
#endif

namespace lockstep::cli {

#ifdef LOCKSTEP_HAVE_MPI

bool built_with_mpi() {
    return true;
}

struct MpiCommand::Impl {
    mpi::Session session{nullptr, nullptr, "lockstep-cli"};
};

MpiCommand::MpiCommand()
    : impl_(std::make_unique<Impl>()) {}
MpiCommand::~MpiCommand() = default;
int MpiCommand::rank() const {
    return impl_->session.rank();
}
int MpiCommand::size() const {
    return impl_->session.size();
}

ProcessRun run_processes(const Scenario& scenario, const ProcessOptions& given) {
    const bool mpi_allreduce = given.mpi_allreduce;
    mpi::MpiRunOptions options;
    options.combine = mpi_allreduce ? mpi::Combine::MpiAllreduce : mpi::Combine::Schedule;
    options.keep_events = given.keep_events;
    options.checkpoint_dir = given.checkpoint_dir;
    options.resume = given.resume;
    options.from_scratch = given.from_scratch;
    options.rank_timeout_s = given.rank_timeout_s;
    mpi::MpiRun run = mpi::run_over_mpi(scenario, options);
    ProcessRun out{std::move(run.result),
                   std::move(run.snapshots),
                   std::move(run.events),
                   std::move(run.hosts),
                   run.ranks,
                   mpi_allreduce,
                   run.resumed_from,
                   {},
                   run.set_aside ? run.set_aside->string() : std::string()};
    for (const CheckpointInfo& c : run.rejected)
        out.skipped.push_back(c.directory.filename().string() + " (" +
                              std::string(to_string(c.status)) + ": " + c.reason + ")");
    return out;
}

int bench_processes(Algorithm algorithm, std::int64_t bytes, int iterations, bool json) {
    const mpi::MpiBench b = mpi::bench_over_mpi(algorithm, bytes, iterations);
    int rank = 0;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    if (rank != 0)
        return 0;
    if (json) {
        std::cout << nlohmann::json{{"transport", "mpi"},
                                    {"algorithm", std::string(to_string(b.algorithm))},
                                    {"ranks", b.ranks},
                                    {"workers", b.ranks},
                                    {"bytes", b.bytes},
                                    {"iterations", b.iterations},
                                    {"time_s", b.seconds},
                                    {"algbw_gbps", b.algbw_gbps},
                                    {"busbw_gbps", b.busbw_gbps},
                                    {"mpi_allreduce_time_s", b.mpi_seconds},
                                    {"mpi_allreduce_algbw_gbps", b.mpi_algbw_gbps},
                                    {"mpi_allreduce_busbw_gbps", b.mpi_busbw_gbps},
                                    {"max_difference", b.max_difference}}
                         .dump(2)
                  << '\n';
        return 0;
    }
    print(Cli::tr("%1 all-reduce over Open MPI, %2 ranks, %3 bytes: %4 ms, algbw %5 GB/s, "
                  "busbw %6 GB/s\n")
              .arg(qs(std::string(to_string(b.algorithm))), QString::number(b.ranks),
                   QString::number(b.bytes), decimal("%.3f", b.seconds * 1e3),
                   decimal("%.2f", b.algbw_gbps), decimal("%.2f", b.busbw_gbps)));
    print(Cli::tr("Open MPI's own MPI_Allreduce, same buffers:  %1 ms, algbw %2 GB/s, busbw "
                  "%3 GB/s\n")
              .arg(decimal("%.3f", b.mpi_seconds * 1e3), decimal("%.2f", b.mpi_algbw_gbps),
                   decimal("%.2f", b.mpi_busbw_gbps)));
    print(Cli::tr("largest difference between the two sums: %1\n")
              .arg(decimal("%.3g", b.max_difference)));
    return 0;
}

int bench_link_processes(std::int64_t bytes, int iterations, bool json) {
    const mpi::LinkBench b = mpi::bench_link(bytes, iterations);
    int rank = 0;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    if (rank != 0)
        return 0;
    // What a scenario's topology.inter takes, rounded as a teacher would write it.
    const nlohmann::json inter{{"latency_us", std::round(b.latency_us * 10.0) / 10.0},
                               {"bandwidth_mbit_s", std::round(b.bandwidth_mbit_s * 10.0) / 10.0}};
    if (json) {
        std::cout << nlohmann::json{{"transport", "mpi"},
                                    {"ranks", b.ranks},
                                    {"from_host", b.from_host},
                                    {"to_host", b.to_host},
                                    {"bytes", b.bytes},
                                    {"iterations", b.iterations},
                                    {"small_round_trip_s", b.small_round_trip_s},
                                    {"large_round_trip_s", b.large_round_trip_s},
                                    {"latency_us", b.latency_us},
                                    {"bandwidth_mbit_s", b.bandwidth_mbit_s},
                                    {"inter", inter}}
                         .dump(2)
                  << '\n';
        return 0;
    }
    print(Cli::tr("link from rank 0 (%1) to rank %2 (%3), ping-pong of 8 and %4 bytes, %5 times "
                  "each:\n")
              .arg(qs(b.from_host))
              .arg(b.ranks - 1)
              .arg(qs(b.to_host), QString::number(b.bytes), QString::number(b.iterations)));
    print(Cli::tr("  latency %1 µs (half the round trip of 8 bytes), bandwidth %2 Mbit/s\n")
              .arg(decimal("%.1f", b.latency_us), decimal("%.1f", b.bandwidth_mbit_s)));
    print(Cli::tr("  for a scenario: \"topology\": {..., \"inter\": %1}\n").arg(qs(inter.dump())));
    return 0;
}

void on_every_rank(const std::function<void()>& setup) {
    mpi::on_every_rank(setup);
}

bool reported_by_another_rank(const std::exception& e) {
    return dynamic_cast<const mpi::ReportedElsewhere*>(&e) != nullptr;
}

#else

namespace {
[[noreturn]] void no_mpi() {
    throw Error(utf8(Cli::tr("--transport mpi: this lockstep-cli was built without Open MPI "
                             "(install libopenmpi-dev and openmpi-bin, then configure and build "
                             "again)")));
}
} // namespace

bool built_with_mpi() {
    return false;
}
struct MpiCommand::Impl {};
MpiCommand::MpiCommand() {
    no_mpi();
}
MpiCommand::~MpiCommand() = default;
int MpiCommand::rank() const {
    return 0;
}
int MpiCommand::size() const {
    return 1;
}
ProcessRun run_processes(const Scenario&, const ProcessOptions&) {
    no_mpi();
}
int bench_processes(Algorithm, std::int64_t, int, bool) {
    no_mpi();
}
int bench_link_processes(std::int64_t, int, bool) {
    no_mpi();
}
void on_every_rank(const std::function<void()>& setup) {
    setup();
}
bool reported_by_another_rank(const std::exception&) {
    return false;
}

#endif

} // namespace lockstep::cli
