#pragma once

#include "mpi/mpi_transport.h"
#include "reports/results.h"
#include "scenario/scenario.h"
#include "trace/trace.h"
#include "trainers/run.h"

#include <cstdint>
#include <filesystem>
#include <functional>
#include <optional>
#include <string>
#include <vector>

namespace lockstep::mpi {

// Open MPI for the life of a command: MPI_Init on construction, MPI_Finalize on destruction.
// `program` names the messages of errors that on_every_rank() reports ("lockstep-cli: ...").
class Session {
public:
    Session(int* argc, char*** argv, std::string program);
    ~Session();
    Session(const Session&) = delete;
    Session& operator=(const Session&) = delete;
    int rank() const { return rank_; }
    int size() const { return size_; }

private:
    int rank_ = 0, size_ = 1;
};

// An error already reported on stderr, by this rank or another: this rank only exits non-zero.
struct ReportedElsewhere : Error {
    ReportedElsewhere()
        : Error("reported by another rank") {}
};

// Runs `setup` on every rank and agrees on the outcome: when it threw lockstep::Error on any
// rank, the lowest such rank prints it on stderr, every rank waits until it has, and then every
// rank throws ReportedElsewhere: all of them exit and none waits for the others in a collective,
// and the message is out before Open MPI ends the job at the first non-zero exit.
void on_every_rank(const std::function<void()>& setup);

// Every host the ranks run on, in rank order of first appearance.
std::vector<std::string> gather_hosts();

// A data-parallel run with one worker per rank of MPI_COMM_WORLD, on the measured clock: the
// wall time of each rank's real work, put on rank 0's clock (ranks on rank 0's host share its
// clock; a rank on another host has its offset estimated by ping-pong at the start and the end,
// the smallest round trip of several, the drift between the two interpolated).
struct MpiRun {
    // Rank 0 only; empty elsewhere.
    RunResult result;                    // speedup against a one-worker run on rank 0
    std::vector<StepSnapshot> snapshots; // every step: each rank's loss and hash
    std::vector<TraceEvent> events;      // when asked for: every rank's events, by step
    std::vector<std::string> hosts;
    int ranks = 0;
    std::int64_t resumed_from = -1;                 // the step a resume began at
    std::vector<CheckpointInfo> rejected;           // checkpoints a resume skipped, newest first
    std::optional<std::filesystem::path> set_aside; // where --from-scratch put them
};

struct MpiRunOptions {
    Combine combine = Combine::Schedule;
    bool keep_events = false; // for a trace
    // Checkpoints, by the scenario's policy, into this directory (empty: none). Each rank writes
    // and fsyncs its own worker file; after a barrier rank 0 gathers their sizes and checksums
    // and writes the MANIFEST last: the protocol and format of a threaded run.
    std::filesystem::path checkpoint_dir;
    // Continue from the newest complete checkpoint in checkpoint_dir that fits the run (every
    // rank loads it). When none does and the directory holds some, the resume is refused, or
    // with `from_scratch` they are set aside and the run starts again (see start_again()).
    bool resume = false;
    bool from_scratch = false;
    // The heartbeat: a rank that has waited this long (measured seconds) for another asks every
    // rank whether it is alive, and the job ends naming the ones that did not answer.
    double rank_timeout_s = 30.0;
};

// Throws lockstep::Error (on every rank, see on_every_rank) when the number of ranks is not the
// scenario's workers or a rank cannot run it.
MpiRun run_over_mpi(const Scenario& scenario, const MpiRunOptions& options);

// One all-reduce benchmark over the world's ranks: Lockstep's schedule over MpiTransport and
// Open MPI's MPI_Allreduce on the same buffers. Times are the slowest rank's, per iteration.
struct MpiBench {
    Algorithm algorithm = Algorithm::Ring;
    int ranks = 0;
    std::int64_t bytes = 0;
    int iterations = 0;
    double seconds = 0.0, algbw_gbps = 0.0, busbw_gbps = 0.0;
    double mpi_seconds = 0.0, mpi_algbw_gbps = 0.0, mpi_busbw_gbps = 0.0;
    double max_difference = 0.0; // largest |ours - Open MPI's| over the buffer
};
MpiBench bench_over_mpi(Algorithm algorithm, std::int64_t bytes, int iterations);

// The link between rank 0 and the last rank, measured by ping-pong: a message of 8 bytes and
// one of `bytes` go there and back `iterations` times each (the median round trip of each kept).
// The latency is half the small message's round trip; the bandwidth is the large message's
// extra bytes over its extra time: alpha and beta of the cost model's link, for a scenario's
// topology.inter. Ranks between the two wait.
struct LinkBench {
    int ranks = 0;
    std::string from_host, to_host; // rank 0's and the last rank's
    std::int64_t bytes = 0;
    int iterations = 0;
    double small_round_trip_s = 0.0, large_round_trip_s = 0.0;
    double latency_us = 0.0, bandwidth_mbit_s = 0.0;
};
LinkBench bench_link(std::int64_t bytes, int iterations);

} // namespace lockstep::mpi
