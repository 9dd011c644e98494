#include "trainers/data_parallel.h"

#include "clocks/cost_model.h"

#include "collectives/reduction.h"
#include "core/error.h"
#include "trainers/setup.h"

#include <oneapi/tbb/parallel_for.h>

#include <algorithm>
#include <cstdint>
#include <limits>
#include <numeric>
#include <thread>

namespace lockstep {

namespace detail {

std::vector<Shard> make_shards(const Scenario& s, std::size_t rows) {
    if (s.shard_sizes.empty())
        return equal_shards(rows, s.workers);
    try {
        return sized_shards(rows, s.shard_sizes);
    } catch (const Error& e) {
        throw Error(std::string("shard_sizes: ") + e.what());
    }
}

// Worker k's place in its shard at the start of a run: its own generator stream of the seed.
DataCursor fresh_cursor(const Scenario& s, int worker, Shard shard) {
    return DataCursor(shard, s.shuffle,
                      Rng::stream(s.seed, 1000 + static_cast<std::uint64_t>(worker)));
}

std::vector<double> initial_parameters(const Scenario& s) {
    if (!s.init_params.empty())
        return parameters_from_json(s.model, read_text_file(s.init_params));
    Rng rng = Rng::stream(s.seed, 0);
    return init_parameters(s.model, rng);
}

} // namespace detail

using detail::fresh_cursor;
using detail::initial_parameters;
using detail::make_shards;

namespace {

void check_data_fits(const Scenario& s, const Dataset& data) {
    detail::check_model_fits(s, data);
    if (data.size() < static_cast<std::size_t>(s.workers))
        throw Error("dataset: " + std::to_string(data.size()) + " rows cannot be shared by " +
                    std::to_string(s.workers) + " workers");
}

} // namespace

void detail::check_model_fits(const Scenario& s, const Dataset& data) {
    if (data.dim != static_cast<std::size_t>(s.model.inputs()))
        throw Error("model.layers[0]: the dataset has " + std::to_string(data.dim) +
                    " features per row, but the model takes " + std::to_string(s.model.inputs()));
    if (data.task == Task::Regression && s.model.loss != LossKind::MeanSquaredError)
        throw Error("model.loss: the dataset's labels are values (regression); use \"mse\"");
    if (data.task == Task::Classification && s.model.loss == LossKind::SoftmaxCrossEntropy &&
        data.classes > s.model.outputs())
        throw Error("model.layers: the dataset has " + std::to_string(data.classes) +
                    " classes, but the model has " + std::to_string(s.model.outputs()) +
                    " outputs");
}

std::vector<WorkerMetrics> worker_metrics(std::span<const TraceEvent> events, int workers) {
    std::vector<LaneTotals> lanes(static_cast<std::size_t>(workers));
    std::vector<std::vector<std::pair<Ticks, Ticks>>> comm(lanes.size());
    for (const auto& e : events) {
        if (e.worker < 0 || e.worker >= workers)
            continue;
        const auto w = static_cast<std::size_t>(e.worker);
        lanes[w].add(e);
        if (bucket_of(e.kind) == TimeBucket::Overlapping)
            comm[w].emplace_back(e.start, e.end);
    }
    // Communication time is the union of a worker's send, receive and reduce intervals.
    std::vector<WorkerMetrics> out;
    for (const auto& lane : lanes)
        out.push_back(lane.seconds());
    for (std::size_t w = 0; w < out.size(); ++w) {
        auto& list = comm[w];
        std::sort(list.begin(), list.end());
        Ticks covered = 0;
        Ticks until = std::numeric_limits<Ticks>::min();
        for (const auto& [start, end] : list) {
            const Ticks from = std::max(start, until);
            if (end > from)
                covered += end - from;
            until = std::max(until, end);
        }
        out[w].communication_s += to_seconds(covered);
    }
    return out;
}

std::shared_ptr<const Dataset> load_dataset(const Scenario& s) {
    if (!s.dataset.csv.empty())
        return std::make_shared<const Dataset>(load_csv(s.dataset.csv));
    SyntheticSpec spec;
    spec.name = s.dataset.name;
    spec.samples = s.dataset.samples;
    spec.noise = s.dataset.noise;
    spec.classes =
        (s.dataset.name == "xor" || s.dataset.name == "circles" || s.dataset.name == "regression")
            ? (s.dataset.name == "regression" ? 1 : 2)
            : s.dataset.classes;
    spec.seed = s.seed;
    return std::make_shared<const Dataset>(make_synthetic(spec));
}

DataParallelTrainer::DataParallelTrainer(const Scenario& scenario,
                                         std::shared_ptr<const Dataset> data, TraceSink* sink,
                                         Work work)
    : scenario_(scenario)
    , work_(work)
    , data_(std::move(data))
    , sink_(sink)
    , run_rng_(Rng::stream(scenario.seed, 1)) {
    validate(scenario_);
    if (scenario_.parallelism && scenario_.parallelism->mode != Parallelism::Data)
        throw Error("parallelism.mode: \"" + std::string(to_string(scenario_.parallelism->mode)) +
                    "\" is trained by lockstep-cli run (pipeline and tensor trainers); this "
                    "data-parallel trainer takes \"data\" only");
    if (work_ == Work::TimesOnly && scenario_.clock == ClockKind::Measured)
        throw Error(
            "clock: a measured run must really train (times-only needs the modelled clock)");
    if (!data_)
        throw Error("dataset: no data");
    check_data_fits(scenario_, *data_);

    const int n = scenario_.workers;
    const auto shards = make_shards(scenario_, data_->size());
    const auto params = initial_parameters(scenario_);
    const std::size_t count = params.size();

    workers_.reserve(static_cast<std::size_t>(n));
    for (int k = 0; k < n; ++k) {
        Worker w{k,
                 params,
                 Optimizer(scenario_.optimizer, count),
                 fresh_cursor(scenario_, k, shards[static_cast<std::size_t>(k)]),
                 std::vector<double>(count, 0.0),
                 {},
                 {},
                 {},
                 {},
                 {},
                 0};
        workers_.push_back(std::move(w));
    }

    hash_ = scenario_hash(scenario_);
    lanes_ = n;
    ids_.resize(static_cast<std::size_t>(n));
    std::iota(ids_.begin(), ids_.end(), 0);
    link_factor_.assign(static_cast<std::size_t>(n), 1.0);
    for (const FailureSpec& f : scenario_.failures.events) {
        if (f.kind == FailureKind::Pause)
            scenario_.delays.pauses.push_back({f.worker, f.step, f.seconds});
        else if (work_ == Work::Train || f.kind == FailureKind::SlowLink)
            pending_.push_back(f); // times-only runs keep no state to lose or damage
    }
    build_collective();
    price_compute();
    spent_.assign(static_cast<std::size_t>(n), {});
    start_ = std::chrono::steady_clock::now();
}

void DataParallelTrainer::build_collective() {
    // The collective, its prices and the rule's weights, for the workers there are now.
    const Scenario& s = scenario_;
    schedule_ = make_schedule(s.algorithm, s.workers, workers_.front().parameters.size());
    schedule_bytes_ = schedule_.total_bytes();
    busy_.assign(workers_.size(), {});
    std::vector<double> samples;
    for (int i = 0; i < s.workers; ++i)
        samples.push_back(static_cast<double>(s.batch_of(i)));
    weights_ = reduction_weights(s.rule, s.workers, samples);
}

void DataParallelTrainer::price_compute() {
    // Textbook mode spreads the one-worker job's compute evenly over its samples.
    compute_s_per_sample_ = compute_s_per_sample(scenario_, scenario_.scaling == Scaling::Strong
                                                                ? scenario_.global_batch()
                                                                : scenario_.batch_of(0));
}

void DataParallelTrainer::resume_measured_clock() {
    if (scenario_.clock != ClockKind::Measured)
        return;
    Ticks latest = 0;
    for (const auto& w : workers_)
        latest = std::max(latest, w.clock);
    start_ = std::chrono::steady_clock::now() - std::chrono::nanoseconds(latest);
}

void DataParallelTrainer::retune(const Scenario& to) {
    if (to.algorithm == Algorithm::None && !checkpoint_dir_.empty() && scenario_.workers > 1)
        throw Error("algorithm: a run that saves checkpoints needs one model, so its replicas "
                    "must stay synchronised");
    for (auto& w : workers_)
        w.optimizer.retune(to.optimizer);
    take_mid_run_settings(scenario_, to);
    // Slowdowns are given per lane; after an elastic recovery worker indices differ from lanes.
    scenario_.delays.slowdown.assign(workers_.size(), 1.0);
    for (std::size_t i = 0; i < workers_.size(); ++i)
        scenario_.delays.slowdown[i] = to.slowdown_of(ids_[i]);
    build_collective();
    price_compute();
}

void DataParallelTrainer::set_slowdown(int worker, double factor) {
    if (worker < 0 || worker >= scenario_.workers)
        throw Error("slowdown: no worker " + std::to_string(worker));
    if (!(factor >= 1.0 && factor <= 100.0))
        throw Error("slowdown: the factor must be between 1 and 100");
    auto& slowdown = scenario_.delays.slowdown;
    if (slowdown.size() <= static_cast<std::size_t>(worker))
        slowdown.resize(static_cast<std::size_t>(worker) + 1, 1.0);
    slowdown[static_cast<std::size_t>(worker)] = factor;
}

void DataParallelTrainer::add_pause(int worker, std::int64_t step, double seconds) {
    if (worker < 0 || worker >= scenario_.workers)
        throw Error("pause: no worker " + std::to_string(worker));
    if (!(seconds >= 0.0 && seconds <= 86400.0))
        throw Error("pause: the length must be between 0 and 86400 seconds");
    scenario_.delays.pauses.push_back({worker, step, seconds});
}

TrainingState DataParallelTrainer::capture_state() const {
    if (!aligned_)
        throw Error("checkpoint: the replicas differ (no synchronisation), so there is no single "
                    "model to save");
    TrainingState state;
    state.step = step_;
    state.scenario_hash = hash_;
    state.parameters = workers_.front().parameters;
    state.optimizer = workers_.front().optimizer.state();
    state.run_rng = run_rng_.state();
    for (const auto& w : workers_)
        state.cursors.push_back(w.cursor.state());
    return state;
}

std::optional<std::string> DataParallelTrainer::misfit(const TrainingState& state,
                                                       RestoreMode mode) const {
    if (state.scenario_hash != hash_)
        return "the checkpoint belongs to another scenario";
    if (state.workers() != scenario_.workers)
        return "the checkpoint has " + std::to_string(state.workers()) + " workers, this run " +
               std::to_string(scenario_.workers);
    const std::size_t n = workers_.front().parameters.size();
    if (state.parameters.size() != n)
        return "the checkpoint's model has " + std::to_string(state.parameters.size()) +
               " parameters, this run's " + std::to_string(n);
    if (state.step < 0 || state.step > scenario_.steps)
        return "the checkpoint's step " + std::to_string(state.step) +
               " is outside this run (0 to " + std::to_string(scenario_.steps) + ")";
    if (mode != RestoreMode::Full)
        return std::nullopt; // the optimizer and the data positions start afresh
    // The optimizer state must be the one this run's optimizer keeps, one entry per parameter.
    const OptimizerState& o = state.optimizer;
    const bool sgd = scenario_.optimizer.kind == OptimizerKind::Sgd;
    const std::size_t velocity = sgd ? n : 0, moments = sgd ? 0 : n;
    if (o.velocity.size() != velocity || o.first_moment.size() != moments ||
        o.second_moment.size() != moments)
        return std::string("the checkpoint's optimizer state is not that of this run's ") +
               std::string(to_string(scenario_.optimizer.kind)) + " for " + std::to_string(n) +
               " parameters";
    for (std::size_t k = 0; k < workers_.size(); ++k) {
        DataCursor probe = workers_[k].cursor;
        try {
            probe.set_state(state.cursors[k]);
        } catch (const Error& e) {
            return "worker " + std::to_string(k) + ": " + e.what();
        }
    }
    return std::nullopt;
}

void DataParallelTrainer::restore_state(const TrainingState& state, RestoreMode mode) {
    if (const auto why = misfit(state, mode))
        throw Error("restore: " + *why);
    const bool full = mode == RestoreMode::Full;
    if (full)
        run_rng_.set_state(state.run_rng);
    else
        run_rng_ = Rng::stream(scenario_.seed, 1);
    for (std::size_t k = 0; k < workers_.size(); ++k) {
        Worker& w = workers_[k];
        w.parameters = state.parameters;
        w.optimizer = Optimizer(scenario_.optimizer, state.parameters.size());
        if (full) {
            w.optimizer.state() = state.optimizer;
            w.cursor.set_state(state.cursors[k]);
        } else {
            w.cursor = fresh_cursor(scenario_, static_cast<int>(k), w.cursor.shard());
        }
    }
    step_ = state.step;
    aligned_ = true;
}

void DataParallelTrainer::set_checkpoint_directory(const std::filesystem::path& dir) {
    if (!scenario_.checkpoint)
        throw Error("checkpoint: the scenario has no checkpoint policy (checkpoint.every)");
    if (work_ != Work::Train)
        throw Error("checkpoint: a times-only run has no state to save");
    if (scenario_.algorithm == Algorithm::None && scenario_.workers > 1)
        throw Error("checkpoint: with algorithm none the replicas differ, so there is no single "
                    "model to save");
    const CheckpointOwners owners = checkpoint_owners(dir, hash_);
    if (!owners.other_scenario.empty())
        throw Error(dir.string() + ": holds another run's checkpoints (" +
                    describe_steps(owners.other_scenario) +
                    " of another scenario); give this run a directory of its own");
    own_checkpoints_ = owners.this_scenario;
    checkpoint_dir_ = dir;
}

void DataParallelTrainer::checkpoint_phase() {
    // The state after this step's update, as the next step will find it.
    TrainingState state = capture_state();
    state.step = step_ + 1;

    const bool modelled = scenario_.clock == ClockKind::Modelled;
    std::vector<std::pair<CheckpointPhase, Ticks>> phases;
    std::vector<int> owners;
    barrier(); // the state is only whole once every worker has updated
    const Ticks started = modelled ? 0 : std::max(workers_.front().clock, now_measured());
    CheckpointOptions options;
    options.sharded_optimizer = scenario_.checkpoint->sharded_optimizer;
    // A crash due during this checkpoint stops the save in the crashed worker's own file, as
    // the real crash would leave it on disk.
    const std::optional<FailureSpec> crash = take_crash(true);
    if (crash) {
        CrashPoint point;
        point.worker = index_of_lane(crash->worker);
        point.moment = crash->phase == CrashPhase::CheckpointBeforeFsync
                           ? CrashPoint::Moment::BeforeFsync
                       : crash->phase == CrashPhase::CheckpointAfterFsync
                           ? CrashPoint::Moment::AfterFsyncBeforeRename
                           : CrashPoint::Moment::AfterRenameBeforeManifest;
        options.crash = point;
    }
    if (!modelled)
        options.observer = [&](CheckpointPhase phase, int worker, const std::string&) {
            phases.emplace_back(phase, now_measured());
            owners.push_back(worker);
        };
    const CheckpointWrite written = save_checkpoint(checkpoint_dir_, state, options);
    checkpoint_bytes_ += static_cast<std::int64_t>(written.bytes);
    const auto at = std::lower_bound(own_checkpoints_.begin(), own_checkpoints_.end(), state.step);
    if (at == own_checkpoints_.end() || *at != state.step)
        own_checkpoints_.insert(at, state.step);
    if (written.crash) {
        emit_crashed_checkpoint(written, modelled ? 0 : started);
        const int index = written.crash->worker;
        rolled_back_ = true;
        fail(*crash, index, workers_[static_cast<std::size_t>(index)].clock);
        return;
    }
    ++checkpoints_;
    // `keep` counts this run's own committed checkpoints only; nothing else is removed.
    for (const auto& pruned :
         keep_last_checkpoints(checkpoint_dir_, scenario_.checkpoint->keep, own_checkpoints_))
        std::erase(own_checkpoints_,
                   parse_checkpoint_directory_name(pruned.filename().string()).value_or(-1));
    if (modelled)
        emit_modelled_checkpoint(written);
    else
        emit_measured_checkpoint(phases, owners, started);
    for (const auto& w : workers_)
        last_snapshot_.time = std::max(last_snapshot_.time, w.clock);
    corrupt_after_commit(written);
}

void DataParallelTrainer::emit_crashed_checkpoint(const CheckpointWrite& written, Ticks started) {
    // Files are written one after another in worker order: those before the crashed worker are
    // durable, the crashed worker's own file is cut where it died, and the workers after it are
    // still waiting their turn.
    const double per_byte = scenario_.cost.checkpoint_s_per_byte;
    const Ticks fsync = to_ticks(scenario_.cost.fsync_s);
    const bool modelled = scenario_.clock == ClockKind::Modelled;
    const int crashed = written.crash->worker;
    Ticks at = modelled ? workers_.front().clock : std::max(started, now_measured());
    if (!modelled) {
        for (auto& w : workers_)
            w.clock = std::max(w.clock, at);
        return; // the real phases were not observed; the crash itself is what matters here
    }
    for (int k = 0; k <= crashed; ++k) {
        Worker& w = workers_[static_cast<std::size_t>(k)];
        if (w.clock < at)
            emit({k, EventKind::Wait, step_, w.clock, at});
        w.clock = std::max(w.clock, at);
        std::uint64_t bytes = k < static_cast<int>(written.files.size())
                                  ? written.files[static_cast<std::size_t>(k)].size
                              : written.files.empty() ? 0
                                                      : written.files.front().size;
        const auto moment = written.crash->moment;
        if (k == crashed && moment == CrashPoint::Moment::BeforeFsync)
            bytes /= 2;
        const Ticks write = to_ticks(static_cast<double>(bytes) * per_byte);
        emit(checkpoint_event(k, FileStage::Written, step_, w.clock, w.clock + write,
                              static_cast<std::int64_t>(bytes)));
        w.clock += write;
        const int syncs = k < crashed                                            ? 2
                          : moment == CrashPoint::Moment::BeforeFsync            ? 0
                          : moment == CrashPoint::Moment::AfterFsyncBeforeRename ? 1
                                                                                 : 2;
        for (int s = 0; s < syncs; ++s) {
            emit(checkpoint_event(k, s == 0 ? FileStage::Synced : FileStage::Renamed, step_,
                                  w.clock, w.clock + fsync));
            w.clock += fsync;
        }
        at = w.clock;
    }
}

void DataParallelTrainer::emit_modelled_checkpoint(const CheckpointWrite& written) {
    // Every worker writes its own file at once (its own storage), then syncs it, renames it and
    // syncs the directory; once all are durable, the manifest commits the checkpoint on every lane.
    const double per_byte = scenario_.cost.checkpoint_s_per_byte;
    const Ticks fsync = to_ticks(scenario_.cost.fsync_s);
    std::uint64_t file_bytes = 0;
    for (std::size_t k = 0; k < workers_.size() && k < written.files.size(); ++k) {
        Worker& w = workers_[k];
        const auto bytes = written.files[k].size;
        file_bytes += bytes;
        const Ticks write = to_ticks(static_cast<double>(bytes) * per_byte);
        emit(checkpoint_event(w.id, FileStage::Written, step_, w.clock, w.clock + write,
                              static_cast<std::int64_t>(bytes)));
        w.clock += write;
        emit(checkpoint_event(w.id, FileStage::Synced, step_, w.clock, w.clock + fsync));
        w.clock += fsync;
        emit(checkpoint_event(w.id, FileStage::Renamed, step_, w.clock, w.clock + fsync));
        w.clock += fsync;
    }
    barrier();
    const auto manifest = static_cast<std::int64_t>(written.bytes - file_bytes);
    const Ticks commit =
        to_ticks(static_cast<double>(manifest) * per_byte) + 2 * fsync; // file and directory
    for (auto& w : workers_) {
        emit(checkpoint_event(w.id, FileStage::Committed, step_, w.clock, w.clock + commit,
                              manifest));
        w.clock += commit;
    }
}

void DataParallelTrainer::emit_measured_checkpoint(
    std::span<const std::pair<CheckpointPhase, Ticks>> phases, std::span<const int> owners,
    Ticks started) {
    // The real phases as the observer saw them end: each lasted since the one before.
    Ticks from = started;
    Ticks commit_start = -1;
    for (std::size_t i = 0; i < phases.size(); ++i) {
        const auto [phase, at] = phases[i];
        const int worker = owners[i];
        if (worker < 0) {
            if (commit_start < 0)
                commit_start = from;
            from = at;
            continue;
        }
        Worker& w = workers_[static_cast<std::size_t>(worker)];
        if (from > w.clock)
            emit({w.id, EventKind::Wait, step_, w.clock, from});
        const FileStage stage = phase == CheckpointPhase::WriteTemp   ? FileStage::Written
                                : phase == CheckpointPhase::FsyncFile ? FileStage::Synced
                                                                      : FileStage::Renamed;
        emit(checkpoint_event(w.id, stage, step_, from, std::max(from, at)));
        w.clock = std::max(from, at);
        from = at;
    }
    if (commit_start < 0)
        commit_start = from;
    barrier();
    for (auto& w : workers_) {
        const Ticks begin = std::max(w.clock, commit_start);
        emit(checkpoint_event(w.id, FileStage::Committed, step_, begin, std::max(begin, from)));
        w.clock = std::max(begin, from);
    }
}

void DataParallelTrainer::run() {
    while (!finished())
        step();
}

void DataParallelTrainer::step() {
    if (finished())
        return;
    execute_step();
    ++ordinal_;
}

void DataParallelTrainer::execute_step() {
    events_.clear();
    start_step_faults();
    // A crash due in this step strikes in its phase. With backup workers it is simply a gradient
    // that never arrives, whatever the phase: the step goes on with the others.
    const std::optional<FailureSpec> crash = take_crash(false);
    const bool backup = scenario_.failures.policy == RecoveryPolicy::Backup;
    const int victim = crash ? index_of_lane(crash->worker) : -1;
    auto abandon = [&](int index) {
        fail(*crash, index, workers_[static_cast<std::size_t>(index)].clock);
        if (sink_)
            sink_->on_events(events_);
    };
    if (crash && (backup || crash->phase == CrashPhase::Compute))
        crashing_ = victim;
    compute_phase(); // 1-2: own gradient, scaled by the rule's weight
    if (crashing_ >= 0) {
        const int index = std::exchange(crashing_, -1);
        if (!backup)
            return abandon(index); // rolled back: the rest of this step never happens
        fail(*crash, index, workers_[static_cast<std::size_t>(index)].clock);
    } else if (crash && crash->phase == CrashPhase::Communicate) {
        return abandon(victim);
    }
    communicate_phase(); // 3: the collective combines them
    if (crash && !backup && crash->phase == CrashPhase::Update)
        return abandon(victim);
    update_phase(); // 4-5: same update everywhere, then hash
    if (!checkpoint_dir_.empty() && (step_ + 1) % scenario_.checkpoint->every == 0) {
        checkpoint_phase(); // 6: every K steps, save the whole state and commit it
        if (rolled_back_) {
            rolled_back_ = false;
            if (sink_)
                sink_->on_events(events_);
            return;
        }
    }
    mark_dead_lanes(last_snapshot_.time);
    if (sink_)
        sink_->on_events(events_);
    finish_step();
}

void DataParallelTrainer::emit(TraceEvent e) {
    // Events name workers by index; the trace names them by lane, which stays the same when a
    // worker leaves the run.
    e.worker = ids_[static_cast<std::size_t>(e.worker)];
    if (e.peer >= 0 && e.kind != EventKind::Verify) // a Verify's peer is its verdict
        e.peer = ids_[static_cast<std::size_t>(e.peer)];
    // Checkpoint phases name the checkpoint they belong to: the state after this step's update.
    if (e.round < 0 &&
        (e.kind == EventKind::CheckpointWrite || e.kind == EventKind::CheckpointSync ||
         e.kind == EventKind::CheckpointCommit))
        e.round = static_cast<int>(std::min<std::int64_t>(step_ + 1, INT32_MAX));
    emit_lane(e);
}

void DataParallelTrainer::emit_lane(const TraceEvent& e) {
    spent_[static_cast<std::size_t>(e.worker)].add(e);
    if (sink_) {
        events_.push_back(e);
        events_.back().ordinal = static_cast<int>(std::min<std::int64_t>(ordinal_, INT32_MAX));
    }
}

void DataParallelTrainer::close_round(std::span<const Ticks> from) {
    // Per worker, in time order: every gap since `from` is waiting; busy time is the union.
    for (const int w : touched_) {
        auto& list = busy_[static_cast<std::size_t>(w)];
        std::sort(list.begin(), list.end()); // a handful of intervals per worker and round
        Ticks at = from[static_cast<std::size_t>(w)];
        Ticks covered = 0;
        for (const auto& [start, end] : list) {
            if (start > at)
                emit({w, EventKind::Wait, step_, at, start});
            covered += std::max<Ticks>(0, end - std::max(start, at));
            at = std::max(at, end);
        }
        spent_[static_cast<std::size_t>(ids_[static_cast<std::size_t>(w)])].add(
            TimeBucket::Communication, covered);
        list.clear();
    }
    touched_.clear();
}

void DataParallelTrainer::mark_busy(int worker, Ticks start, Ticks end) {
    auto& list = busy_[static_cast<std::size_t>(worker)];
    if (list.empty())
        touched_.push_back(worker);
    list.emplace_back(start, end);
}

void DataParallelTrainer::sleep_measured(Ticks duration) const {
    // In slices, so a stop request (the GUI closing, a new run) is never kept waiting long.
    const auto until = std::chrono::steady_clock::now() + std::chrono::nanoseconds(duration);
    while (!(stop_ && stop_->load()) && std::chrono::steady_clock::now() < until)
        std::this_thread::sleep_for(std::min<std::chrono::nanoseconds>(
            until - std::chrono::steady_clock::now(), std::chrono::milliseconds(10)));
}

Ticks DataParallelTrainer::now_measured() const {
    return std::chrono::duration_cast<std::chrono::nanoseconds>(std::chrono::steady_clock::now() -
                                                                start_)
        .count();
}

Ticks DataParallelTrainer::compute_cost(int worker, std::size_t samples) {
    double seconds =
        compute_s_per_sample_ * static_cast<double>(samples) * scenario_.slowdown_of(worker);
    if (scenario_.cost.jitter > 0.0)
        seconds *= 1.0 + scenario_.cost.jitter * run_rng_.uniform(-1.0, 1.0);
    if (scenario_.delays.straggler_probability > 0.0 &&
        run_rng_.uniform() < scenario_.delays.straggler_probability)
        seconds *= scenario_.delays.straggler_factor;
    return to_ticks(seconds);
}

void DataParallelTrainer::compute_phase() {
    const auto n = workers_.size();
    const bool modelled = scenario_.clock == ClockKind::Modelled;
    const bool synchronised = scenario_.algorithm != Algorithm::None;

    // Modelled costs are drawn serially, in worker order, so they never depend on threads.
    std::vector<Ticks> cost(n, 0), pause(n, 0);
    for (std::size_t k = 0; k < n; ++k) {
        if (modelled)
            cost[k] = compute_cost(static_cast<int>(k), scenario_.batch_of(static_cast<int>(k)));
        for (const auto& p : scenario_.delays.pauses)
            if (p.worker == static_cast<int>(k) && p.step == step_)
                pause[k] += to_ticks(p.seconds);
    }

    std::vector<Ticks> started(n), ended(n);
    const bool train = work_ == Work::Train;
    tbb::parallel_for(std::size_t{0}, train ? n : 0, [&](std::size_t k) {
        Worker& w = workers_[k];
        started[k] = modelled ? 0 : now_measured();
        w.cursor.next_batch(scenario_.batch_of(static_cast<int>(k)), w.rows);
        gather_rows(*data_, w.rows, w.batch_features, w.batch_targets);
        const BatchView batch{w.batch_features.data(), w.batch_targets.data(), w.rows.size()};
        w.last = loss_and_gradient(scenario_.model, w.parameters, batch, w.gradient, w.work);
        ended[k] = modelled ? 0 : now_measured();
    });

    // With backup workers (or a worker crashing), only the first gradients to arrive count: the
    // others stop at the moment the step moves on, and their gradients are dropped.
    const bool selective =
        synchronised && n > 1 &&
        (scenario_.failures.backup_workers > 0 ||
         (crashing_ >= 0 && scenario_.failures.policy == RecoveryPolicy::Backup));
    Ticks cut = std::numeric_limits<Ticks>::max();
    if (selective) {
        std::vector<Ticks> finish(n);
        for (std::size_t k = 0; k < n; ++k) {
            if (modelled)
                finish[k] = workers_[k].clock + pause[k] + cost[k];
            else
                finish[k] = ended[k] +
                            static_cast<Ticks>(static_cast<double>(ended[k] - started[k]) *
                                               (scenario_.slowdown_of(static_cast<int>(k)) - 1.0)) +
                            pause[k];
        }
        choose_backups(finish, crashing_);
        for (std::size_t k = 0; k < n; ++k)
            if (chosen_[k])
                cut =
                    cut == std::numeric_limits<Ticks>::max() ? finish[k] : std::max(cut, finish[k]);
    }

    Ticks latest = 0;
    for (std::size_t k = 0; k < n; ++k) {
        Worker& w = workers_[k];
        const int id = static_cast<int>(k);
        const double gradient0 = w.gradient.empty() ? 0.0 : w.gradient[0];
        if (id == crashing_) {
            // It dies half way through its computation: its gradient never leaves it.
            const Ticks half = (modelled ? cost[k] : ended[k] - started[k]) / 2;
            const Ticks from = modelled ? w.clock : started[k];
            emit({id, EventKind::Compute, step_, from, from + half, 0, -1, -1, gradient0});
            w.clock = from + half;
            continue;
        }
        if (selective && !chosen_[k]) {
            // Late: abandoned when the step moves on without it.
            const Ticks from = modelled ? w.clock : started[k];
            const Ticks stop = std::max(from, cut);
            const Ticks paused = std::min(pause[k], stop - from);
            if (paused > 0)
                emit({id, EventKind::Pause, step_, from, from + paused});
            if (stop > from + paused)
                emit({id, EventKind::Compute, step_, from + paused, stop, 0, -1, -1, gradient0});
            w.clock = stop;
            if (train)
                scale_contribution(w.gradient, 0.0);
            samples_ += static_cast<std::int64_t>(scenario_.batch_of(id));
            dropped_samples_ += static_cast<std::int64_t>(scenario_.batch_of(id));
            continue;
        }
        if (modelled) {
            if (pause[k] > 0) {
                emit({id, EventKind::Pause, step_, w.clock, w.clock + pause[k]});
                w.clock += pause[k];
            }
            emit({id, EventKind::Compute, step_, w.clock, w.clock + cost[k], 0, -1, -1, gradient0});
            w.clock += cost[k];
        } else {
            // A slowed or paused worker is realised as a real sleep of the training loop's thread,
            // after the tasks have finished, never inside a task that others depend on.
            const Ticks real = ended[k] - started[k];
            const auto extra =
                static_cast<Ticks>(static_cast<double>(real) * (scenario_.slowdown_of(id) - 1.0));
            emit({id, EventKind::Compute, step_, started[k], ended[k] + extra, 0, -1, -1,
                  gradient0});
            w.clock = ended[k] + extra;
            if (pause[k] > 0) {
                emit({id, EventKind::Pause, step_, w.clock, w.clock + pause[k]});
                w.clock += pause[k];
            }
            latest = std::max(latest, w.clock);
        }
        if (synchronised && train)
            scale_contribution(w.gradient, selective ? step_weights_[k] : weights_[k]);
        samples_ += static_cast<std::int64_t>(scenario_.batch_of(id));
    }
    if (!modelled && latest > now_measured())
        sleep_measured(latest - now_measured());
}

void DataParallelTrainer::barrier() {
    Ticks latest = 0;
    for (const auto& w : workers_)
        latest = std::max(latest, w.clock);
    for (auto& w : workers_) {
        if (w.clock < latest)
            emit({w.id, EventKind::Wait, step_, w.clock, latest});
        w.clock = latest;
    }
}

void DataParallelTrainer::communicate_phase() {
    if (scenario_.algorithm == Algorithm::None || workers_.size() == 1)
        return;

    // The real data movement: every round's bytes go from buffer to buffer.
    std::vector<std::span<double>> buffers;
    buffers.reserve(workers_.size());
    for (auto& w : workers_)
        buffers.emplace_back(w.gradient);
    if (work_ == Work::Train)
        bytes_moved_ += schedule_bytes_; // a times-only run moves nothing

    const bool modelled = scenario_.clock == ClockKind::Modelled;
    if (scenario_.cost.communication_s_per_step) {
        // Textbook mode: a barrier, then a fixed communication time for everyone.
        if (!modelled) {
            for (auto& w : workers_)
                w.clock = std::max(w.clock, now_measured());
        }
        if (work_ == Work::Train)
            run_all_reduce(schedule_, transport_, buffers);
        barrier();
        const Ticks cost = to_ticks(*scenario_.cost.communication_s_per_step);
        if (!modelled)
            sleep_measured(cost);
        for (auto& w : workers_) {
            emit({w.id, EventKind::Communicate, step_, w.clock, w.clock + cost,
                  schedule_.total_bytes() / static_cast<std::int64_t>(workers_.size())});
            w.clock += cost;
        }
        return;
    }
    if (modelled) {
        if (work_ == Work::Train)
            run_all_reduce(schedule_, transport_, buffers);
        price_schedule();
    } else {
        run_measured_collective();
    }
}

void DataParallelTrainer::price_schedule() {
    // The cost model prices the rounds among the workers' lanes; the trainer keeps the account.
    const auto n = workers_.size();
    std::vector<Ticks> clocks(n);
    std::vector<double> slow(n);
    for (std::size_t k = 0; k < n; ++k) {
        clocks[k] = workers_[k].clock;
        slow[k] = link_factor_[static_cast<std::size_t>(ids_[k])];
    }
    priced_.clear();
    const CollectiveTime time = lockstep::price_schedule(
        schedule_, {ids_, clocks, slow}, scenario_.cost, step_, 0, sink_ ? &priced_ : nullptr);
    for (std::size_t k = 0; k < n; ++k) {
        workers_[k].clock = clocks[k];
        auto& spent = spent_[static_cast<std::size_t>(ids_[k])];
        spent.add(TimeBucket::Communication, time.busy[k]);
        spent.add(TimeBucket::Waiting, time.waiting[k]);
    }
    for (TraceEvent& e : priced_) {
        e.ordinal = static_cast<int>(std::min<std::int64_t>(ordinal_, INT32_MAX));
        events_.push_back(e);
    }
}

void DataParallelTrainer::run_measured_collective() {
    std::vector<std::span<double>> buffers;
    for (auto& w : workers_)
        buffers.emplace_back(w.gradient);
    transport_.attach(buffers);
    const auto n = workers_.size();
    for (std::size_t r = 0; r < schedule_.rounds.size(); ++r) {
        const Round& round = schedule_.rounds[r];
        round_start_.resize(n);
        for (std::size_t k = 0; k < n; ++k)
            round_start_[k] = workers_[k].clock;
        const Ticks start = now_measured();
        transport_.run_round(round);
        const Ticks end = now_measured();
        const int ri = static_cast<int>(r);
        for (const auto& m : round.messages) {
            emit({m.src, EventKind::Send, step_, start, end, m.bytes(), m.dst, ri});
            emit({m.dst, EventKind::Receive, step_, start, end, m.bytes(), m.src, ri});
            mark_busy(m.src, start, end);
            mark_busy(m.dst, start, end);
            workers_[static_cast<std::size_t>(m.src)].clock =
                std::max(workers_[static_cast<std::size_t>(m.src)].clock, end);
            workers_[static_cast<std::size_t>(m.dst)].clock =
                std::max(workers_[static_cast<std::size_t>(m.dst)].clock, end);
        }
        close_round(round_start_);
    }
}

void DataParallelTrainer::update_phase() {
    const auto n = workers_.size();
    const bool modelled = scenario_.clock == ClockKind::Modelled;
    std::vector<Ticks> started(n), ended(n);
    std::vector<std::uint64_t> hashes(n);
    const bool train = work_ == Work::Train;
    tbb::parallel_for(std::size_t{0}, train ? n : 0, [&](std::size_t k) {
        Worker& w = workers_[k];
        started[k] = modelled ? 0 : now_measured();
        w.optimizer.apply(w.parameters, w.gradient);
        hashes[k] = hash_parameters(w.parameters);
        ended[k] = modelled ? 0 : now_measured();
    });
    const Ticks update = to_ticks(scenario_.cost.update_s);
    for (std::size_t k = 0; k < n; ++k) {
        Worker& w = workers_[k];
        const double gradient0 = w.gradient.empty() ? 0.0 : w.gradient[0];
        const Ticks start = modelled ? w.clock : std::max(w.clock, started[k]);
        const Ticks end = modelled ? w.clock + update : std::max(start, ended[k]);
        if (end > start || modelled)
            emit({w.id, EventKind::Update, step_, start, end, 0, -1, -1, gradient0});
        w.clock = end;
    }

    StepSnapshot snap;
    snap.step = step_;
    snap.ordinal = ordinal_;
    std::size_t correct = 0, counted = 0;
    for (std::size_t k = 0; k < n; ++k) {
        const Worker& w = workers_[k];
        snap.time = std::max(snap.time, w.clock);
        snap.worker_loss.push_back(w.last.loss);
        if (train)
            snap.parameter_hash.push_back(hashes[k]);
        snap.loss += w.last.loss / static_cast<double>(n);
        correct += w.last.correct;
        counted += w.last.count;
        snap.replicas_aligned = snap.replicas_aligned && hashes[k] == hashes[0];
    }
    snap.accuracy = counted ? static_cast<double>(correct) / static_cast<double>(counted) : 0.0;
    if (!train) {
        snap.loss = snap.accuracy = std::numeric_limits<double>::quiet_NaN();
        snap.worker_loss.assign(n, snap.loss);
    }
    last_snapshot_ = std::move(snap);
}

void DataParallelTrainer::finish_step() {
    aligned_ = last_snapshot_.replicas_aligned;
    if (!aligned_)
        ++misaligned_steps_;
    if (sink_)
        sink_->on_snapshot(last_snapshot_);
    if (work_ == Work::Train)
        progress_.push_back(
            {step_, to_seconds(last_snapshot_.time), last_snapshot_.loss, energy_so_far()});
    ++step_;
    ++steps_run_;
}

RunMetrics DataParallelTrainer::metrics() const {
    RunMetrics m;
    m.workers = lanes_;
    m.workers_at_end = scenario_.workers;
    m.steps = step_;
    m.samples = samples_;
    m.steps_run = steps_run_;
    m.useful_samples = samples_ - lost_samples_ - dropped_samples_;
    Ticks end = 0;
    for (const auto& w : workers_)
        end = std::max(end, w.clock);
    std::vector<WorkerMetrics> lanes;
    for (const auto& lane : spent_)
        lanes.push_back(lane.seconds());
    summarise_lanes(m, std::move(lanes), to_seconds(end), scenario_.energy);
    m.checkpoints = checkpoints_;
    m.checkpoint_bytes = checkpoint_bytes_;
    m.bytes_moved = bytes_moved_;
    m.trained = work_ == Work::Train;
    m.final_loss = last_snapshot_.loss;
    m.final_accuracy = last_snapshot_.accuracy;
    m.replicas_aligned = m.trained && aligned_; // times only: nothing was compared
    m.misaligned_steps = misaligned_steps_;
    m.failures = static_cast<std::int64_t>(recoveries_.size());
    m.lost_steps = lost_steps_;
    m.lost_worker_s = to_seconds(lost_lane_time_);
    m.detection_s = to_seconds(detection_);
    m.recovery_s = to_seconds(recovery_);
    m.dropped_gradients = dropped_gradients_;
    return m;
}

Scenario baseline_scenario(const Scenario& scenario) {
    Scenario base = scenario;
    base.workers = 1;
    base.batch =
        scenario.scaling == Scaling::Strong ? scenario.global_batch() : scenario.batch_of(0);
    base.worker_batch.clear();
    base.shard_sizes.clear();
    base.delays = {};
    base.failures = {}; // the reference is the plain one-worker run: no faults, no backups
    return base;
}

RunResult run_scenario(const Scenario& scenario, TraceSink* sink) {
    return run_scenario(scenario, sink, Work::Train);
}

RunResult run_scenario(const Scenario& scenario, TraceSink* sink, Work work) {
    DataParallelTrainer trainer(scenario, load_dataset(scenario), sink, work);
    return finish_run(trainer);
}

RunResult finish_run(DataParallelTrainer& trainer) {
    const std::int64_t from = trainer.steps_done();
    trainer.run();
    RunResult result{trainer.metrics(), trainer.workers().front().parameters};

    // Only the baseline's time matters: on the modelled clock it needs no training.
    const Scenario& scenario = trainer.scenario();
    const Scenario base = baseline_scenario(scenario);
    const Work base_work = scenario.clock == ClockKind::Modelled ? Work::TimesOnly : Work::Train;
    DataParallelTrainer reference(base, trainer.shared_data(), nullptr, base_work);
    // After a restore the baseline does the same work: the steps still to go.
    for (std::int64_t k = from; k < scenario.steps; ++k)
        reference.step();
    const RunMetrics ref = reference.metrics();
    auto& m = result.metrics;
    m.baseline_time_s = ref.total_time_s;
    if (m.total_time_s > 0) {
        // Strong scaling: the same work, so speedup is the ratio of times. Weak scaling: N times
        // the work, so speedup is the ratio of throughputs.
        const double work_ratio =
            scenario.scaling == Scaling::Strong ? 1.0 : static_cast<double>(scenario.workers);
        m.speedup = work_ratio * ref.total_time_s / m.total_time_s;
        m.efficiency = m.speedup / static_cast<double>(scenario.workers);
    }
    return result;
}

Scenario scenario_for_workers(const Scenario& scenario, int workers) {
    Scenario s = scenario;
    s.workers = workers;
    s.worker_batch.clear();
    s.shard_sizes.clear();
    if (s.delays.slowdown.size() > static_cast<std::size_t>(s.workers))
        s.delays.slowdown.resize(static_cast<std::size_t>(s.workers));
    std::erase_if(s.delays.pauses, [&](const PauseDelay& p) { return p.worker >= s.workers; });
    std::erase_if(s.failures.events, [&](const FailureSpec& f) { return f.worker >= s.workers; });
    s.failures.backup_workers = std::clamp(s.failures.backup_workers, 0, s.workers - 1);
    if (s.failures.policy == RecoveryPolicy::Backup && s.failures.backup_workers == 0)
        s.failures.policy = RecoveryPolicy::Restart;
    return s;
}

std::vector<SweepPoint> sweep(const Scenario& scenario, std::span<const int> worker_counts,
                              Work work) {
    std::vector<SweepPoint> points(worker_counts.size());
    auto one = [&](std::size_t i) {
        const Scenario s = scenario_for_workers(scenario, worker_counts[i]);
        points[i] = {s.workers, run_scenario(s, nullptr, work).metrics};
    };
    // Measured runs would disturb each other's timings (and they sleep): run those one by one.
    if (scenario.clock == ClockKind::Measured) {
        for (std::size_t i = 0; i < points.size(); ++i)
            one(i);
    } else {
        tbb::parallel_for(std::size_t{0}, points.size(), one);
    }
    return points;
}

} // namespace lockstep
