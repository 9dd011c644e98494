#include "trainers/data_parallel.h"

#include "checkpoint/checkpoint.h"
#include "clocks/cost_model.h"
#include "core/error.h"
#include "trainers/setup.h"

#include <algorithm>
#include <cstdint>
#include <limits>
#include <numeric>

// The data-parallel run's checkpoint timeline: what it saves after a K-th step, each phase of the
// commit on the trace, and how a saved state is checked and put back.

namespace lockstep {

TrainingState DataParallelTrainer::capture_state() const {
    if (!aligned_)
        throw Error("checkpoint: the replicas differ (no synchronisation), so there is no single "
                    "model to save");
    // A sharded run's state is put together from its workers' shards: a checkpoint holds the
    // whole model, whatever layout saved it, so it can be restored onto other worker counts.
    TrainingState state;
    state.step = step_;
    state.scenario_hash = hash_;
    state.precision = scenario_.model.precision;
    if (scenario_.loss_scale)
        state.loss_scale = loss_scale_;
    state.parameters = assembled_parameters();
    state.optimizer = assembled_optimizer_state();
    state.run_rng = run_rng_.state();
    for (const auto& w : workers_)
        state.cursors.push_back(w.cursor.state());
    return state;
}

std::optional<std::string> DataParallelTrainer::misfit(const TrainingState& state,
                                                       RestoreMode mode) const {
    std::vector<Shard> shards;
    for (const Worker& w : workers_)
        shards.push_back(w.cursor.shard());
    return detail::state_misfit(scenario_, hash_, shards, state, mode);
}

void DataParallelTrainer::restore_state(const TrainingState& state, RestoreMode mode) {
    if (const auto why = misfit(state, mode))
        throw Error("restore: " + *why);
    const bool full = mode == RestoreMode::Full;
    if (full)
        run_rng_.set_state(state.run_rng);
    else
        run_rng_ = Rng::stream(scenario_.seed, 1);
    if (scenario_.loss_scale) // a weights-only restore starts the scale afresh
        loss_scale_ = full && state.loss_scale ? *state.loss_scale
                                               : LossScaleState{scenario_.loss_scale->initial, 0};
    for (std::size_t k = 0; k < workers_.size(); ++k) {
        Worker& w = workers_[k];
        w.parameters.assign(state.parameters.begin(), state.parameters.end());
        w.optimizer =
            Optimizer(scenario_.optimizer, state.parameters.size(), scenario_.model.precision);
        if (full) {
            w.optimizer.state() = state.optimizer;
            w.cursor.set_state(state.cursors[k]);
        } else {
            w.cursor = detail::fresh_cursor(scenario_, static_cast<int>(k), w.cursor.shard());
        }
    }
    shard_whole_state(); // a sharded run: each worker keeps its shard of what came back
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
    checkpoints_.own = owners.this_scenario;
    checkpoints_.directory = dir;
}

void DataParallelTrainer::checkpoint_phase() {
    // The state after this step's update, as the next step will find it.
    TrainingState state = capture_state();
    state.step = step_ + 1;

    // The two clocks do different work here: the modelled clock prices each phase of the save;
    // the measured clock observes the real phases as they end.
    const bool modelled = clock_->kind() == ClockKind::Modelled;
    std::vector<std::pair<CheckpointPhase, Ticks>> phases;
    std::vector<int> owners;
    barrier(); // the state is only whole once every worker has updated
    const Ticks started = clock_->begins(workers_.front().clock, clock_->now());
    CheckpointOptions options;
    // A sharded run writes each worker's slice of the optimizer state in its own file.
    options.sharded_optimizer =
        scenario_.checkpoint->sharded_optimizer || scenario_.sharding != Sharding::None;
    options.sharded_parameters = layer_sharded(); // stage 3: its slice of the parameters too
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
            phases.emplace_back(phase, clock_->now());
            owners.push_back(worker);
        };
    const CheckpointWrite written = save_checkpoint(checkpoints_.directory, state, options);
    accounts_.checkpoint_bytes += static_cast<std::int64_t>(written.bytes);
    const auto at = std::lower_bound(checkpoints_.own.begin(), checkpoints_.own.end(), state.step);
    if (at == checkpoints_.own.end() || *at != state.step)
        checkpoints_.own.insert(at, state.step);
    if (written.crash) {
        emit_crashed_checkpoint(written, started);
        const int index = written.crash->worker;
        faults_.rolled_back = true;
        fail(*crash, index, workers_[static_cast<std::size_t>(index)].clock);
        return;
    }
    ++accounts_.checkpoints;
    // `keep` counts this run's own committed checkpoints only; nothing else is removed.
    for (const auto& pruned : keep_last_checkpoints(checkpoints_.directory,
                                                    scenario_.checkpoint->keep, checkpoints_.own))
        std::erase(checkpoints_.own,
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
    const Ticks fsync = price_storage(scenario_.cost, 0, 1);
    const int crashed = written.crash->worker;
    Ticks at = clock_->begins(started, clock_->now());
    if (clock_->kind() == ClockKind::Measured) {
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
        const Ticks write = price_storage(scenario_.cost, bytes);
        const int syncs = k < crashed                                            ? 2
                          : moment == CrashPoint::Moment::BeforeFsync            ? 0
                          : moment == CrashPoint::Moment::AfterFsyncBeforeRename ? 1
                                                                                 : 2;
        // The crashed worker's last phase says so: its file stays partial, nothing is committed.
        auto ended = [&](TraceEvent e, bool last) {
            if (k == crashed && last)
                e.outcome = PhaseOutcome::Crashed;
            return e;
        };
        emit(ended(checkpoint_event(k, FileStage::Written, step_, w.clock, w.clock + write,
                                    static_cast<std::int64_t>(bytes)),
                   syncs == 0));
        w.clock += write;
        for (int s = 0; s < syncs; ++s) {
            emit(ended(checkpoint_event(k, s == 0 ? FileStage::Synced : FileStage::Renamed, step_,
                                        w.clock, w.clock + fsync),
                       s == syncs - 1));
            w.clock += fsync;
        }
        at = w.clock;
    }
}

void DataParallelTrainer::emit_modelled_checkpoint(const CheckpointWrite& written) {
    // Every worker writes its own file at once (its own storage), then syncs it, renames it and
    // syncs the directory; once all are durable, the manifest commits the checkpoint on every lane.
    const Ticks fsync = price_storage(scenario_.cost, 0, 1);
    std::uint64_t file_bytes = 0;
    for (std::size_t k = 0; k < workers_.size() && k < written.files.size(); ++k) {
        Worker& w = workers_[k];
        const auto bytes = written.files[k].size;
        file_bytes += bytes;
        const Ticks write = price_storage(scenario_.cost, bytes);
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
    const Ticks commit = price_storage(scenario_.cost, static_cast<std::uint64_t>(manifest)) +
                         2 * fsync; // file and directory
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

} // namespace lockstep
