#include "mpi/mpi_run.h"

#include "core/error.h"
#include "core/rng.h"
#include "reports/speedup.h"
#include "runs/runs.h"

#include <algorithm>
#include <chrono>
#include <climits>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <exception>
#include <functional>
#include <optional>
#include <tuple>
#include <type_traits>

namespace lockstep::mpi {

namespace {

void check(int code, const char* what) {
    if (code != MPI_SUCCESS)
        throw Error(std::string(what) + " failed (Open MPI error " + std::to_string(code) + ")");
}

int world_rank() {
    int rank = 0;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    return rank;
}

int world_size() {
    int size = 1;
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    return size;
}

// steady_clock in nanoseconds: on Linux CLOCK_MONOTONIC, one clock for every process of a host.
std::int64_t raw_now() {
    return std::chrono::duration_cast<std::chrono::nanoseconds>(
               std::chrono::steady_clock::now().time_since_epoch())
        .count();
}

// Gathers every rank's `mine` (plain values) to rank 0, in rank order.
template <typename T> std::vector<T> gather(const std::vector<T>& mine) {
    static_assert(std::is_trivially_copyable_v<T>);
    const int size = world_size();
    const double total = static_cast<double>(mine.size()) * sizeof(T) * size;
    if (static_cast<double>(mine.size()) * sizeof(T) > INT_MAX || total > INT_MAX)
        throw Error("--transport mpi: the run's records are too large to gather (" +
                    std::to_string(static_cast<long long>(total)) + " bytes); run fewer steps");
    const int bytes = static_cast<int>(mine.size() * sizeof(T));
    std::vector<int> counts(static_cast<std::size_t>(size)), offsets(counts.size());
    check(MPI_Gather(&bytes, 1, MPI_INT, counts.data(), 1, MPI_INT, 0, MPI_COMM_WORLD),
          "MPI_Gather");
    std::vector<T> all;
    if (world_rank() == 0) {
        int at = 0;
        for (std::size_t k = 0; k < counts.size(); ++k) {
            offsets[k] = at;
            at += counts[k];
        }
        all.resize(static_cast<std::size_t>(at) / sizeof(T));
    }
    check(MPI_Gatherv(mine.data(), bytes, MPI_BYTE, all.data(), counts.data(), offsets.data(),
                      MPI_BYTE, 0, MPI_COMM_WORLD),
          "MPI_Gatherv");
    return all;
}

// Where rank k's clock stands against rank 0's at one moment: rank 0's time minus rank k's, and
// rank k's time then (both raw steady_clock nanoseconds).
struct Offset {
    std::int64_t at = 0;
    std::int64_t offset = 0;
};

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
                check(MPI_Send(&sent, 1, MPI_INT64_T, k, 7, MPI_COMM_WORLD), "MPI_Send");
                check(MPI_Recv(&theirs, 1, MPI_INT64_T, k, 7, MPI_COMM_WORLD, MPI_STATUS_IGNORE),
                      "MPI_Recv");
                const std::int64_t back = raw_now();
                if (back - sent < best) {
                    best = back - sent;
                    out[static_cast<std::size_t>(k)] = {theirs, sent + (back - sent) / 2 - theirs};
                }
            } else if (rank == k) {
                std::int64_t ping = 0;
                check(MPI_Recv(&ping, 1, MPI_INT64_T, 0, 7, MPI_COMM_WORLD, MPI_STATUS_IGNORE),
                      "MPI_Recv");
                theirs = raw_now();
                check(MPI_Send(&theirs, 1, MPI_INT64_T, 0, 7, MPI_COMM_WORLD), "MPI_Send");
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

// The checkpoint after this rank's step: its own file written and made durable, then, once every
// rank's is, the manifest by rank 0. Returns the bytes written (rank 0: every file's and the
// manifest's).
std::int64_t write_checkpoint(RankWorker& worker, const std::filesystem::path& dir,
                              const CheckpointConfig& policy, std::vector<std::int64_t>& own) {
    const int rank = worker.rank();
    const TrainingState state = worker.state_for_files();
    const std::filesystem::path step_dir = dir / checkpoint_directory_name(state.step);
    ManifestEntry mine;
    on_every_rank([&] {
        const Ticks start = worker.now();
        std::error_code ec;
        std::filesystem::create_directories(step_dir, ec);
        if (ec)
            throw Error(step_dir.string() + ": cannot create the checkpoint directory (" +
                        ec.message() + ")");
        const std::vector<std::byte> bytes =
            encode_worker_file(state, rank, policy.sharded_optimizer);
        write_file_atomically(step_dir / worker_file_name(rank), bytes);
        std::uint64_t checksum = 0;
        for (int i = 7; i >= 0; --i)
            checksum = checksum << 8 | std::to_integer<std::uint64_t>(
                                           bytes[bytes.size() - 8 + static_cast<std::size_t>(i)]);
        mine = {worker_file_name(rank), bytes.size(), checksum};
        worker.add_event(checkpoint_event(rank, FileStage::Renamed, state.step, start, worker.now(),
                                          static_cast<std::int64_t>(bytes.size())));
    });
    // Every worker file is durable once each rank has got here.
    const std::vector<std::uint64_t> sizes = gather(std::vector<std::uint64_t>{mine.size});
    const std::vector<std::uint64_t> sums = gather(std::vector<std::uint64_t>{mine.checksum});
    std::int64_t written = 0;
    on_every_rank([&] {
        if (rank != 0)
            return;
        const Ticks start = worker.now();
        CheckpointManifest manifest{state.step,
                                    state.scenario_hash,
                                    worker.scenario().workers,
                                    policy.sharded_optimizer,
                                    {}};
        for (std::size_t k = 0; k < sizes.size(); ++k) {
            manifest.files.push_back({worker_file_name(static_cast<int>(k)), sizes[k], sums[k]});
            written += static_cast<std::int64_t>(sizes[k]);
        }
        const std::vector<std::byte> text = encode_manifest(manifest);
        write_file_atomically(step_dir / manifest_file_name, text);
        written += static_cast<std::int64_t>(text.size());
        worker.add_event(checkpoint_event(0, FileStage::Committed, state.step, start, worker.now(),
                                          static_cast<std::int64_t>(text.size())));
        own.push_back(state.step);
        (void)keep_last_checkpoints(dir, policy.keep, own);
    });
    return written;
}

// What the errors on_every_rank() reports are prefixed with: the session's program.
std::string& program_name() {
    static std::string name = "lockstep";
    return name;
}

} // namespace

Session::Session(int* argc, char*** argv, std::string program) {
    program_name() = std::move(program);
    int ready = 0;
    MPI_Initialized(&ready);
    if (!ready)
        check(MPI_Init(argc, argv), "MPI_Init");
    rank_ = world_rank();
    size_ = world_size();
}

Session::~Session() {
    int done = 0;
    MPI_Finalized(&done);
    if (!done)
        MPI_Finalize();
}

void on_every_rank(const std::function<void()>& setup) {
    std::exception_ptr failure;
    try {
        setup();
    } catch (const Error&) {
        failure = std::current_exception();
    }
    const int rank = world_rank();
    const int mine = failure ? rank : INT_MAX;
    int first = INT_MAX;
    check(MPI_Allreduce(&mine, &first, 1, MPI_INT, MPI_MIN, MPI_COMM_WORLD), "MPI_Allreduce");
    if (first == INT_MAX)
        return;
    if (rank == first) {
        try {
            std::rethrow_exception(failure);
        } catch (const Error& e) {
            std::fprintf(stderr, "%s: %s\n", program_name().c_str(), e.what());
            std::fflush(stderr);
        }
    }
    check(MPI_Barrier(MPI_COMM_WORLD), "MPI_Barrier");
    throw ReportedElsewhere();
}

std::vector<std::string> gather_hosts() {
    std::vector<char> name(MPI_MAX_PROCESSOR_NAME, '\0');
    int length = 0;
    MPI_Get_processor_name(name.data(), &length);
    const std::vector<char> all = gather(name);
    std::vector<std::string> hosts;
    for (std::size_t at = 0; at < all.size(); at += MPI_MAX_PROCESSOR_NAME)
        hosts.emplace_back(all.data() + at, strnlen(all.data() + at, MPI_MAX_PROCESSOR_NAME));
    return hosts; // rank 0: one per rank
}

MpiRun run_over_mpi(const Scenario& scenario, const MpiRunOptions& options) {
    const Combine combine = options.combine;
    const bool keep_events = options.keep_events;
    const int rank = world_rank(), size = world_size();
    Scenario s = scenario;
    s.clock = ClockKind::Measured; // between processes, time is what the ranks really took
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
        data = load_dataset(s);
        worker.emplace(s, data, rank);
        worker->keep_events(keep_events);
        schedule = make_schedule(s.algorithm == Algorithm::None ? Algorithm::Ring : s.algorithm,
                                 s.workers, worker->parameters().size());
    });
    const std::vector<std::string> hosts = gather_hosts();

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
        on_every_rank([&] {
            const CheckpointRecovery recovery =
                load_newest_complete(options.checkpoint_dir, worker->scenario_hash(), s.workers);
            if (recovery.state)
                worker->restore(*recovery.state);
            from = worker->steps_done();
            if (rank == 0)
                run.rejected = recovery.rejected;
        });
        std::int64_t low = 0, high = 0;
        check(MPI_Allreduce(&from, &low, 1, MPI_INT64_T, MPI_MIN, MPI_COMM_WORLD), "MPI_Allreduce");
        check(MPI_Allreduce(&from, &high, 1, MPI_INT64_T, MPI_MAX, MPI_COMM_WORLD),
              "MPI_Allreduce");
        on_every_rank([&] {
            if (low != high)
                throw Error(options.checkpoint_dir.string() +
                            ": the ranks found different newest checkpoints (steps " +
                            std::to_string(low) + " and " + std::to_string(high) +
                            "); is the directory the same on every computer?");
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
    while (!worker->finished()) {
        worker->step(group);
        if (checkpoints && worker->steps_done() % s.checkpoint->every == 0) {
            checkpoint_bytes +=
                write_checkpoint(*worker, options.checkpoint_dir, *s.checkpoint, own);
            ++checkpoint_count;
        }
    }
    group.barrier();
    const std::vector<Offset> at_end = estimate_offsets();

    const std::vector<RankStep> steps = gather(worker->history());
    const std::vector<WorkerMetrics> lanes = gather(std::vector<WorkerMetrics>{worker->spent()});
    const std::vector<std::int64_t> samples = gather(std::vector<std::int64_t>{worker->samples()});
    const std::vector<TraceEvent> events = gather(worker->events());
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
            snap.parameter_hash.push_back(r.hash);
            snap.loss += r.loss / static_cast<double>(n);
            correct += r.correct;
            counted += r.count;
            snap.replicas_aligned = snap.replicas_aligned && r.hash == steps[i].hash;
        }
        snap.accuracy = counted ? static_cast<double>(correct) / static_cast<double>(counted) : 0.0;
        if (!snap.replicas_aligned)
            ++m.misaligned_steps;
        run.snapshots.push_back(std::move(snap));
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
    m.checkpoint_bytes = checkpoint_bytes;
    for (const std::int64_t k : samples)
        m.samples += k;
    m.useful_samples = m.samples;
    summarise_lanes(m, lanes, run.snapshots.empty() ? 0.0 : to_seconds(run.snapshots.back().time),
                    s.energy);
    if (combine == Combine::Schedule && s.algorithm != Algorithm::None && size > 1)
        m.bytes_moved = schedule.total_bytes() * m.steps_run;
    m.trained = true;
    if (!run.snapshots.empty()) {
        m.final_loss = run.snapshots.back().loss;
        m.final_accuracy = run.snapshots.back().accuracy;
        m.replicas_aligned = run.snapshots.back().replicas_aligned;
    }
    run.result.parameters = worker->parameters();

    // The reference: the one-worker run of the steps this run did, as threads measure it.
    set_speedup(m, s, baseline_time_s(s, data, first_step));
    return run;
}

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

} // namespace lockstep::mpi
