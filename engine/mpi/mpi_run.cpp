// A data-parallel run over MPI: a worker per rank, its checkpoints (mpi_checkpoint.cpp), each
// rank's clock on rank 0's.
#include "mpi/mpi_run.h"

#include "core/error.h"
#include "mpi/heartbeat.h"
#include "mpi/mpi_checkpoint.h"
#include "mpi/mpi_world.h"
#include "reports/speedup.h"
#include "runs/runs.h"
#include "trainers/setup.h"

#include <algorithm>
#include <chrono>
#include <climits>
#include <cmath>
#include <cstdint>
#include <optional>
#include <string>
#include <tuple>
#include <vector>

namespace lockstep::mpi {

using detail::check;
using detail::gather;
using detail::world_rank;
using detail::world_size;

namespace {

// steady_clock in nanoseconds: on Linux CLOCK_MONOTONIC, one clock for every process of a host.
std::int64_t raw_now() {
    return std::chrono::duration_cast<std::chrono::nanoseconds>(
               std::chrono::steady_clock::now().time_since_epoch())
        .count();
}

// Where rank k's clock stands against rank 0's at one moment: rank 0's time minus rank k's, and
// rank k's time then (both raw steady_clock nanoseconds).
struct Offset {
    std::int64_t at = 0;
    std::int64_t offset = 0;
};

// Sends `out` (unless null) to rank `peer`, then receives into `in` (unless null) from it, each
// within the heartbeat's bound.
void exchange(const std::int64_t* out, std::int64_t* in, int peer) {
    MPI_Request request = MPI_REQUEST_NULL;
    if (out) {
        check(MPI_Isend(out, 1, MPI_INT64_T, peer, 7, MPI_COMM_WORLD, &request), "MPI_Isend");
        detail::await(request, peer, "the clocks' comparison");
    }
    if (in) {
        check(MPI_Irecv(in, 1, MPI_INT64_T, peer, 7, MPI_COMM_WORLD, &request), "MPI_Irecv");
        detail::await(request, peer, "the clocks' comparison");
    }
}

// Every rank's `value` combined by `op`, within the heartbeat's bound.
template <typename T> T all_reduce_value(T value, MPI_Datatype type, MPI_Op op) {
    T result{};
    MPI_Request request = MPI_REQUEST_NULL;
    check(MPI_Iallreduce(&value, &result, 1, type, op, MPI_COMM_WORLD, &request), "MPI_Iallreduce");
    detail::await(request, -1, "a vote of every rank");
    return result;
}

// Rank 0 exchanges a few messages with each other rank and keeps the exchange with the smallest
// round trip: rank k's reading is taken to be at the middle of it. On rank 0, one per rank.
std::vector<Offset> estimate_offsets() {
    constexpr int kExchanges = 16;
    const int rank = world_rank(), size = world_size();
    std::vector<Offset> out(static_cast<std::size_t>(size));
    for (int k = 1; k < size; ++k) {
        std::int64_t best = INT64_MAX;
        for (int i = 0; i < kExchanges; ++i) {
            std::int64_t theirs = 0;
            if (rank == 0) {
                const std::int64_t sent = raw_now();
                exchange(&sent, &theirs, k);
                const std::int64_t back = raw_now();
                if (back - sent < best) {
                    best = back - sent;
                    out[static_cast<std::size_t>(k)] = {theirs, sent + (back - sent) / 2 - theirs};
                }
            } else if (rank == k) {
                std::int64_t ping = 0;
                exchange(nullptr, &ping, 0);
                theirs = raw_now();
                exchange(&theirs, nullptr, 0);
            }
        }
    }
    return out;
}

// Puts rank k's clock on rank 0's: the offset at time t, drawn straight between the estimates
// at the start and at the end.
struct ClockMap {
    std::vector<std::int64_t> origin; // per rank: its time 0, raw
    std::vector<Offset> start, end;   // per rank: the estimates
    std::vector<char> shared;         // per rank: on rank 0's host, so on its very clock
    std::int64_t zero = 0;            // the earliest rank's time 0, on rank 0's raw clock

    // Raw time `raw` of rank k on rank 0's raw clock.
    std::int64_t raw_on_rank0(std::size_t i, std::int64_t raw) const {
        if (shared[i])
            return raw;
        const double span = static_cast<double>(end[i].at - start[i].at);
        const double f =
            span > 0 ? std::clamp(static_cast<double>(raw - start[i].at) / span, 0.0, 1.0) : 0.0;
        const double offset = static_cast<double>(start[i].offset) +
                              f * static_cast<double>(end[i].offset - start[i].offset);
        return raw + static_cast<std::int64_t>(std::llround(offset));
    }
    // Sets the run's time 0: when the first rank began.
    void begin_at_the_first_rank() {
        zero = INT64_MAX;
        for (std::size_t i = 0; i < origin.size(); ++i)
            zero = std::min(zero, raw_on_rank0(i, origin[i]));
    }
    // Rank k's run time t on the run's common clock.
    Ticks on_rank0(int k, Ticks t) const {
        const auto i = static_cast<std::size_t>(k);
        return raw_on_rank0(i, origin[i] + t) - zero;
    }
};

} // namespace

MpiRun run_over_mpi(const Scenario& scenario, const MpiRunOptions& options) {
    const Combine combine = options.combine;
    const bool keep_events = options.keep_events;
    const int rank = world_rank(), size = world_size();
    // Between processes, time is what the ranks really took. A rank measures whatever the
    // scenario's clock says, so it keeps the scenario as given: a directory of checkpoints that
    // a run on threads wrote on the modelled clock (same scenario, same numbers) is its own.
    Scenario s = scenario;
    s.clock = ClockKind::Measured;
    std::optional<RankWorker> worker;
    std::shared_ptr<const Dataset> data;
    CommSchedule schedule;
    on_every_rank([&] {
        if (size != s.workers)
            throw Error("--transport mpi: the scenario has " + std::to_string(s.workers) +
                        " workers but mpirun started " + std::to_string(size) +
                        " processes; start one process per worker (mpirun -np " +
                        std::to_string(s.workers) + ")");
        if (combine == Combine::MpiAllreduce && s.algorithm == Algorithm::None)
            throw Error("--algorithm: mpi-allreduce cannot be combined with none");
        if (combine == Combine::MpiAllreduce && s.sharding != Sharding::None)
            throw Error("sharding: Open MPI's own all-reduce has no halves to split; sharding "
                        "needs one of Lockstep's algorithms (parameter-server, ring, tree)");
        // A float32 model's gradients are added in float32 too, unless comm_precision says more.
        if (combine == Combine::MpiAllreduce && s.wire_precision() != WirePrecision::Float64)
            throw Error(std::string(s.comm_precision == WirePrecision::Float64
                                        ? "precision float32: its gradients are added in float32"
                                        : "comm_precision") +
                        ": Open MPI's own all-reduce adds in float64; " +
                        std::string(to_string(s.wire_precision())) +
                        " needs one of Lockstep's algorithms (parameter-server, ring, tree)");
        if (combine == Combine::MpiAllreduce && s.gradients && s.gradients->bucket_kb > 0)
            throw Error("gradients.bucket_kb: Open MPI's own all-reduce takes the whole "
                        "gradient at once; buckets need one of Lockstep's algorithms "
                        "(parameter-server, ring, tree)");
        data = load_dataset(s);
        worker.emplace(scenario, data, rank);
        worker->keep_events(keep_events);
        schedule =
            make_schedule(s.algorithm == Algorithm::None ? Algorithm::Ring : s.algorithm, s.workers,
                          worker->parameters().size(), lockstep::detail::workers_per_node(s));
        schedule.send_as(s.wire_precision());
    });
    const std::vector<std::string> hosts = gather_hosts();
    // A scripted pause keeps a rank from answering for its length: not a silence.
    double longest_pause = 0.0;
    for (const PauseDelay& p : s.delays.pauses)
        longest_pause = std::max(longest_pause, p.seconds);
    for (const FailureSpec& f : s.failures.events)
        if (f.kind == FailureKind::Pause)
            longest_pause = std::max(longest_pause, f.seconds);
    detail::start_heartbeat(options.rank_timeout_s, longest_pause);

    // A resume: every rank loads the newest complete checkpoint and takes its own part of it.
    MpiRun run;
    std::vector<std::int64_t> own; // rank 0: this run's checkpoints in the directory
    const bool checkpoints = !options.checkpoint_dir.empty() && s.checkpoint;
    if (options.resume) {
        on_every_rank([&] {
            if (rank == 0)
                (void)clean_leftovers(options.checkpoint_dir);
        });
        std::int64_t from = 0;
        bool found = false;
        on_every_rank([&] {
            RecoveryFilter filter;
            filter.scenario_hash = worker->scenario_hash();
            filter.workers = s.workers;
            filter.fits = [&](const TrainingState& state) { return worker->misfit(state); };
            const CheckpointRecovery recovery =
                load_newest_complete(options.checkpoint_dir, filter);
            if (recovery.state)
                worker->restore(*recovery.state);
            found = recovery.state.has_value();
            from = worker->steps_done();
            if (rank == 0)
                run.rejected = recovery.rejected;
        });
        const std::int64_t low = all_reduce_value(from, MPI_INT64_T, MPI_MIN);
        const std::int64_t high = all_reduce_value(from, MPI_INT64_T, MPI_MAX);
        on_every_rank([&] {
            if (low != high)
                throw Error(options.checkpoint_dir.string() +
                            ": the ranks found different newest checkpoints (steps " +
                            std::to_string(low) + " and " + std::to_string(high) +
                            "); is the directory the same on every computer?");
        });
        // None fits: a fresh start, once every rank is done reading the directory.
        on_every_rank([&] {
            if (rank == 0 && !found)
                run.set_aside =
                    start_again(options.checkpoint_dir, run.rejected, options.from_scratch);
        });
        run.resumed_from = from;
        if (rank == 0)
            own = checkpoint_owners(options.checkpoint_dir, worker->scenario_hash()).this_scenario;
    }
    const std::int64_t first_step = worker->steps_done();
    std::int64_t checkpoint_count = 0, checkpoint_bytes = 0;

    MpiGroup group(schedule, rank, combine);
    const std::vector<Offset> at_start = estimate_offsets();
    group.barrier();
    worker->start_clock();
    const std::vector<std::int64_t> origin = gather(std::vector<std::int64_t>{raw_now()});
    bool diverged = false;
    while (!worker->finished()) {
        detail::heartbeat_step(worker->steps_done());
        worker->step(group);
        // Every rank stops after the step whose loss is no longer a finite number on any rank.
        const int mine = std::isfinite(worker->history().back().loss) ? 0 : 1;
        diverged = all_reduce_value(mine, MPI_INT, MPI_MAX) != 0;
        if (diverged)
            break;
        if (checkpoints && worker->steps_done() % s.checkpoint->every == 0) {
            checkpoint_bytes +=
                write_checkpoint(*worker, group, options.checkpoint_dir, *s.checkpoint, own);
            ++checkpoint_count;
        }
    }
    group.barrier();
    if (diverged) // said once, by rank 0; every rank ends non-zero
        on_every_rank([&] {
            if (rank == 0)
                throw Error(divergence_message(
                    worker->scenario(), {worker->steps_done() - 1, worker->history().back().loss}));
        });
    const std::vector<Offset> at_end = estimate_offsets();

    const std::vector<RankStep> steps = gather(worker->history());
    const std::vector<WorkerMetrics> lanes = gather(std::vector<WorkerMetrics>{worker->spent()});
    const std::vector<WorkerMemory> memory = gather(std::vector<WorkerMemory>{worker->memory()});
    const std::vector<std::int64_t> samples = gather(std::vector<std::int64_t>{worker->samples()});
    const std::vector<TraceEvent> events = gather(worker->events());
    const std::vector<RankMemory> samples_of_memory = gather(worker->memory_samples());
    if (rank != 0)
        return run;

    ClockMap map{origin, at_start, at_end, {}, 0};
    for (const std::string& host : hosts)
        map.shared.push_back(host == hosts.front());
    map.begin_at_the_first_rank();
    run.ranks = size;
    for (const std::string& host : hosts)
        if (std::find(run.hosts.begin(), run.hosts.end(), host) == run.hosts.end())
            run.hosts.push_back(host);

    // Each step as the threaded trainer's snapshot states it.
    const auto n = static_cast<std::size_t>(size);
    const auto count = static_cast<std::size_t>(s.steps - first_step); // steps this run did
    RunMetrics& m = run.result.metrics;
    for (std::size_t i = 0; i < count; ++i) {
        StepSnapshot snap;
        snap.step = first_step + static_cast<std::int64_t>(i);
        snap.ordinal = static_cast<std::int64_t>(i);
        std::uint64_t correct = 0, counted = 0;
        for (std::size_t k = 0; k < n; ++k) {
            const RankStep& r = steps[k * count + i];
            snap.time = std::max(snap.time, map.on_rank0(static_cast<int>(k), r.end));
            snap.worker_loss.push_back(r.loss);
            // Sharded parameters: one model in pieces, hashed by rank 0 once put together.
            const std::uint64_t hash = worker->parameters_sharded() ? steps[i].hash : r.hash;
            snap.parameter_hash.push_back(hash);
            snap.loss += r.loss / static_cast<double>(n);
            correct += r.correct;
            counted += r.count;
            snap.replicas_aligned = snap.replicas_aligned && hash == steps[i].hash;
        }
        snap.accuracy = counted ? static_cast<double>(correct) / static_cast<double>(counted) : 0.0;
        snap.overflow = steps[i].overflow != 0; // the same sum, so the same verdict, everywhere
        m.overflow_steps += snap.overflow ? 1 : 0;
        snap.loss_scale = steps[i].loss_scale;
        if (!snap.replicas_aligned)
            ++m.misaligned_steps;
        run.snapshots.push_back(std::move(snap));
    }
    // Each rank's memory samples in the snapshot of their step, on rank 0's clock.
    for (const RankMemory& r : samples_of_memory) {
        const std::int64_t i = r.step - first_step;
        if (i < 0 || i >= static_cast<std::int64_t>(run.snapshots.size()))
            continue;
        MemorySample sample = r.sample;
        sample.at = map.on_rank0(sample.worker, sample.at);
        run.snapshots[static_cast<std::size_t>(i)].memory.push_back(sample);
    }
    run.events = events;
    for (TraceEvent& e : run.events) {
        e.start = map.on_rank0(e.worker, e.start);
        e.end = std::max(e.start, map.on_rank0(e.worker, e.end));
    }
    std::stable_sort(
        run.events.begin(), run.events.end(), [](const TraceEvent& a, const TraceEvent& b) {
            return std::tie(a.step, a.start, a.worker) < std::tie(b.step, b.start, b.worker);
        });

    m.workers = m.workers_at_end = size;
    m.steps = s.steps;
    m.steps_run = s.steps - first_step;
    m.checkpoints = checkpoint_count;
    m.loss_scale = worker->loss_scale(); // every rank's is the same
    m.memory = memory;
    m.checkpoint_bytes = checkpoint_bytes;
    for (const std::int64_t k : samples)
        m.samples += k;
    m.useful_samples = m.samples;
    summarise_lanes(m, lanes, run.snapshots.empty() ? 0.0 : to_seconds(run.snapshots.back().time),
                    s.energy);
    const std::vector<int> nodes = lockstep::detail::nodes_of(s);
    const lockstep::detail::BucketPlan buckets = lockstep::detail::plan_buckets(s, nodes);
    if (combine == Combine::Schedule && s.algorithm != Algorithm::None && size > 1) {
        const bool whole = buckets.buckets.empty();
        m.bytes_moved = (whole ? schedule.total_bytes() : buckets.bytes) * m.steps_run;
        m.bytes_inter_node =
            (whole ? schedule.bytes_between_nodes(nodes) : buckets.inter_bytes) * m.steps_run;
    }
    if (worker->reduce_scatter_bytes() + worker->all_gather_bytes() > 0) {
        m.reduce_scatter_bytes = worker->reduce_scatter_bytes() * m.steps_run;
        m.all_gather_bytes = worker->all_gather_bytes() * m.steps_run;
        m.bytes_moved = m.reduce_scatter_bytes + m.all_gather_bytes;
        m.bytes_inter_node = lockstep::detail::plan_sharding(s, nodes).inter_bytes * m.steps_run;
    }
    // How the gradient left each rank: as the threaded trainer reports it.
    m.accumulation = s.accumulation();
    m.buckets = buckets.buckets.empty() ? 1 : static_cast<int>(buckets.buckets.size());
    m.bucket_bytes = largest_bucket_bytes(buckets.buckets, schedule.count);
    m.trained = true;
    if (!run.snapshots.empty()) {
        m.final_loss = run.snapshots.back().loss;
        m.final_accuracy = run.snapshots.back().accuracy;
        m.replicas_aligned = run.snapshots.back().replicas_aligned;
    }
    run.result.parameters.assign(worker->model_parameters().begin(),
                                 worker->model_parameters().end());

    // The reference: the one-worker run of the steps this run did, as threads measure it.
    set_speedup(m, s, baseline_time_s(s, data, first_step));
    return run;
}

} // namespace lockstep::mpi
