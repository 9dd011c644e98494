// The data-parallel trainer's failures: injected faults, detection on the run's clock, recovery
// by policy, and the accounting of what was lost.
#include "clocks/cost_model.h"
#include "core/error.h"
#include "trainers/data_parallel.h"
#include "trainers/setup.h"

#include <algorithm>
#include <cstdint>
#include <numeric>
#include <utility>

namespace lockstep {

using detail::fresh_cursor;
using detail::initial_parameters;
using detail::make_shards;

void DataParallelTrainer::inject_failure(const FailureSpec& spec) {
    if (spec.worker < 0 || spec.worker >= lanes_ || index_of_lane(spec.worker) < 0)
        throw Error(to_text(spec) + ": there is no running worker " + std::to_string(spec.worker));
    if (spec.kind == FailureKind::BucketOrder && collective_.buckets.size() < 2)
        throw Error(to_text(spec) + ": this run reduces its gradient in one piece: there is no "
                                    "order of buckets to get wrong");
    if (work_ != Work::Train && spec.kind != FailureKind::Pause &&
        spec.kind != FailureKind::SlowLink && spec.kind != FailureKind::BucketOrder)
        throw Error(to_text(spec) + ": a times-only run keeps no state to lose");
    const bool storage = spec.during_checkpoint() || spec.kind == FailureKind::Corrupt;
    if (storage && checkpoints_.directory.empty())
        throw Error(to_text(spec) + ": this run writes no checkpoints");
    if (spec.during_checkpoint() && scenario_.failures.policy == RecoveryPolicy::Backup)
        throw Error(to_text(spec) +
                    ": with backup workers a crash is a missing gradient; crash in a step instead");
    if (spec.kind == FailureKind::Crash && scenario_.failures.policy != RecoveryPolicy::Restart &&
        scenario_.workers < 2)
        throw Error(to_text(spec) + ": no worker would be left to go on");
    if (spec.kind == FailureKind::Pause) {
        add_pause(index_of_lane(spec.worker), spec.step, spec.seconds);
        return;
    }
    if (!(spec.factor >= 1.0 && spec.factor <= 1000.0))
        throw Error(to_text(spec) + ": factor must be between 1 and 1000");
    faults_.pending.push_back(spec);
}

int DataParallelTrainer::index_of_lane(int lane) const {
    const auto it = std::find(faults_.lane_of.begin(), faults_.lane_of.end(), lane);
    return it == faults_.lane_of.end() ? -1 : static_cast<int>(it - faults_.lane_of.begin());
}

void DataParallelTrainer::start_step_faults() {
    const auto s = static_cast<std::size_t>(step_);
    if (faults_.step_started.size() <= s) {
        faults_.step_started.resize(s + 1, 0);
        faults_.samples_before.resize(s + 1, 0);
    }
    Ticks begin = 0;
    for (const auto& w : workers_)
        begin = std::max(begin, w.clock);
    faults_.step_started[s] = begin;
    faults_.samples_before[s] = accounts_.samples;

    // A worker due to reduce its buckets in another order, in this step (or at once, when
    // injected for a step already past).
    faults_.misordering = -1;
    std::erase_if(faults_.pending, [&](const FailureSpec& f) {
        if (f.kind != FailureKind::BucketOrder || f.step > step_)
            return false;
        faults_.misordering = index_of_lane(f.worker);
        return true;
    });
    // Slow links take effect from their step on.
    std::erase_if(faults_.pending, [&](const FailureSpec& f) {
        if (f.kind != FailureKind::SlowLink || f.step > step_)
            return false;
        faults_.link_factor[static_cast<std::size_t>(f.worker)] = f.factor;
        return true;
    });
}

std::optional<FailureSpec> DataParallelTrainer::take_crash(bool checkpoint_phase) {
    // Crashes of workers that are gone already can never happen.
    std::erase_if(faults_.pending, [&](const FailureSpec& f) {
        return f.kind == FailureKind::Crash && index_of_lane(f.worker) < 0;
    });
    for (auto it = faults_.pending.begin(); it != faults_.pending.end(); ++it) {
        if (it->kind != FailureKind::Crash || it->during_checkpoint() != checkpoint_phase)
            continue;
        // A step crash strikes in its step (or at once, when injected for a step already past);
        // a checkpoint crash in the first checkpoint holding at least `step` updates.
        const bool due = checkpoint_phase ? step_ + 1 >= it->step : step_ >= it->step;
        if (!due)
            continue;
        const FailureSpec spec = *it;
        faults_.pending.erase(it);
        return spec;
    }
    return std::nullopt;
}

void DataParallelTrainer::choose_backups(std::span<const Ticks> finish, int crashed) {
    // The first (workers - backup_workers) gradients to arrive are aggregated, ties going to
    // the lower worker number; a crashed worker's gradient never arrives.
    const auto n = workers_.size();
    std::vector<std::size_t> order;
    for (std::size_t k = 0; k < n; ++k)
        if (static_cast<int>(k) != crashed)
            order.push_back(k);
    std::stable_sort(order.begin(), order.end(),
                     [&](std::size_t a, std::size_t b) { return finish[a] < finish[b]; });
    const int wanted =
        std::clamp(lanes_ - scenario_.failures.backup_workers, 1, static_cast<int>(order.size()));
    scratch_.chosen.assign(n, 0);
    std::vector<double> samples;
    for (int i = 0; i < wanted; ++i)
        scratch_.chosen[order[static_cast<std::size_t>(i)]] = 1;
    for (std::size_t k = 0; k < n; ++k)
        if (scratch_.chosen[k])
            samples.push_back(static_cast<double>(scenario_.batch_of(static_cast<int>(k))));
    const auto weights = reduction_weights(scenario_.rule, wanted, samples);
    scratch_.chosen_weights.assign(n, 0.0);
    for (std::size_t k = 0, i = 0; k < n; ++k)
        if (scratch_.chosen[k])
            scratch_.chosen_weights[k] = weights[i++];
    accounts_.dropped_gradients += static_cast<std::int64_t>(n) - wanted;
}

void DataParallelTrainer::fail(const FailureSpec& spec, int index, Ticks at) {
    Recovery record;
    record.cause = spec;
    record.worker = faults_.lane_of[static_cast<std::size_t>(index)];
    record.crashed_at_step = step_;
    record.crashed = at;
    record.policy = scenario_.failures.policy;
    const Ticks detected = at + to_ticks(scenario_.failures.heartbeat_s);
    record.detected = detected;
    accounts_.detection += detected - at;

    if (record.policy == RecoveryPolicy::Backup) {
        // Nobody waits and nothing is rolled back: the dead worker's gradient is one that never
        // arrives, this step and every step after.
        faults_.dead.push_back({record.worker, at});
        remove_worker(index, false);
        record.resumed = at;
        record.restored_step = step_;
        record.workers_after = scenario_.workers;
        faults_.recoveries.push_back(std::move(record));
        return;
    }

    // The others go on until they need the silent worker, then wait for it until the heartbeat
    // timeout declares it dead.
    for (std::size_t k = 0; k < workers_.size(); ++k) {
        if (static_cast<int>(k) == index)
            continue;
        Worker& w = workers_[k];
        if (w.clock < detected)
            emit({w.id, EventKind::Wait, step_, w.clock, detected, 0, index});
        w.clock = std::max(w.clock, detected);
        emit({w.id, EventKind::Detect, step_, w.clock, w.clock, 0, index});
    }
    clock_->wait_until(detected, stop_);
    Ticks resume_from = detected;
    for (const auto& w : workers_)
        if (w.id != index)
            resume_from = std::max(resume_from, w.clock);

    if (record.policy == RecoveryPolicy::Restart) {
        // A replacement starts on the dead worker's lane; everyone else waits for it.
        const Ticks restarted = resume_from + to_ticks(scenario_.failures.restart_s);
        clock_->wait_until(restarted, stop_);
        Worker& dead = workers_[static_cast<std::size_t>(index)];
        TraceEvent down{index, EventKind::Failed, step_, at, restarted};
        down.crash_begins = true;
        emit(down);
        dead.clock = restarted;
        for (auto& w : workers_) {
            if (w.id != index && w.clock < restarted)
                emit({w.id, EventKind::Wait, step_, w.clock, restarted, 0, index});
            w.clock = restarted;
        }
        resume_from = restarted;
    } else {
        // Elastic: the survivors go on without it, the data re-sharded over them.
        faults_.dead.push_back({record.worker, at});
        remove_worker(index, true);
        for (auto& w : workers_)
            w.clock = resume_from;
    }
    roll_back(at, resume_from, record);
    accounts_.recovery += record.resumed - detected;
    record.workers_after = scenario_.workers;
    faults_.recoveries.push_back(std::move(record));
}

void DataParallelTrainer::roll_back(Ticks at, Ticks resume_from, Recovery& record) {
    record.rolled_back = true;
    const int before = scenario_.workers + (record.policy == RecoveryPolicy::Elastic ? 1 : 0);
    const RestoreMode mode =
        scenario_.checkpoint ? scenario_.checkpoint->restore : RestoreMode::Full;
    std::optional<TrainingState> state;
    if (!checkpoints_.directory.empty()) {
        // The real recovery: scan this run's own checkpoints, newest first, no newer than the
        // state the crash interrupted (a crash while saving checkpoint S+1 looks at S+1 too),
        // and take the first that verifies and fits.
        record.cleaned = clean_leftovers(checkpoints_.directory, checkpoints_.own);
        RecoveryFilter filter;
        filter.scenario_hash = hash_;
        filter.newest_step = faults_.rolled_back ? step_ + 1 : step_;
        filter.own = checkpoints_.own;
        filter.fits = [&](const TrainingState& found) {
            return misfit(for_these_workers(found), mode);
        };
        CheckpointRecovery found = load_newest_complete(checkpoints_.directory, filter);
        record.rejected = std::move(found.rejected);
        if (found.state) {
            state = std::move(found.state);
            record.checkpoint = found.directory;
        }
    }

    const std::int64_t crashed_step = step_;
    if (state)
        restore_state(for_these_workers(*state), mode);
    else
        reset_to_start();
    record.restored_step = step_;
    record.lost_steps = crashed_step + 1 - step_;
    accounts_.lost_steps += record.lost_steps;
    const auto from = static_cast<std::size_t>(step_);
    const Ticks redone_since = from < faults_.step_started.size() ? faults_.step_started[from] : 0;
    accounts_.lost_lane_time += static_cast<Ticks>(before) * std::max<Ticks>(0, at - redone_since);
    if (from < faults_.samples_before.size())
        accounts_.lost_samples += accounts_.samples - faults_.samples_before[from];

    // Reading the checkpoint back: each worker reads worker 0's file (the model and the shared
    // state), its own file and the manifest.
    if (state) {
        const auto dir = record.checkpoint;
        auto size_of = [&](const std::string& name) {
            std::error_code ec;
            const auto bytes = std::filesystem::file_size(dir / name, ec);
            return ec ? std::uintmax_t{0} : bytes;
        };
        const auto shared = size_of(worker_file_name(0));
        const auto manifest = size_of(std::string(manifest_file_name));
        const Ticks start = clock_->begins(resume_from, clock_->now());
        // The scan, newest first: every checkpoint skipped, then the one loaded.
        auto verdict = [&](std::int64_t step, CheckpointStatus status, CheckpointFault fault) {
            TraceEvent e{0, EventKind::Verify, step_, resume_from, resume_from};
            e.round = static_cast<int>(std::min<std::int64_t>(step, INT32_MAX));
            e.verdict = status;
            e.fault = fault;
            e.peer = static_cast<int>(status); // the same two as numbers (see TraceEvent)
            e.value = static_cast<double>(fault);
            emit(e);
        };
        for (const auto& c : record.rejected)
            verdict(c.step, c.status, c.fault);
        verdict(state->step, CheckpointStatus::Complete, CheckpointFault::None);
        for (std::size_t k = 0; k < workers_.size(); ++k) {
            Worker& w = workers_[k];
            const int lane = faults_.lane_of[k];
            const auto bytes = shared + manifest + (lane > 0 ? size_of(worker_file_name(lane)) : 0);
            const Ticks read = price_storage(scenario_.cost, static_cast<std::uint64_t>(bytes), 1);
            const Ticks end = clock_->ends(start, read);
            emit({w.id, EventKind::Restore, step_, start, end, static_cast<std::int64_t>(bytes), -1,
                  static_cast<int>(std::min<std::int64_t>(step_, INT32_MAX))});
            w.clock = end;
        }
        barrier();
    }
    Ticks resumed = resume_from;
    for (const auto& w : workers_)
        resumed = std::max(resumed, w.clock);
    record.resumed = resumed;
    mark_dead_lanes(resumed);
}

TrainingState DataParallelTrainer::for_these_workers(TrainingState state) const {
    // Elastic: the model and the optimizer come back; the data positions belonged to a
    // different set of workers, so the survivors start their new shards afresh.
    if (state.workers() != scenario_.workers) {
        state.cursors.clear();
        for (const auto& w : workers_)
            state.cursors.push_back(w.cursor.state());
    }
    return state;
}

void DataParallelTrainer::reset_to_start() {
    // No checkpoint to go back to: everyone starts over from the scenario's first step.
    const auto params = initial_parameters(scenario_);
    const auto shards = make_shards(scenario_, data_->size());
    for (std::size_t k = 0; k < workers_.size(); ++k) {
        Worker& w = workers_[k];
        w.parameters.assign(params.begin(), params.end());
        w.optimizer = Optimizer(scenario_.optimizer, params.size(), scenario_.model.precision);
        w.cursor = fresh_cursor(scenario_, static_cast<int>(k), shards[k]);
    }
    shard_whole_state(); // a sharded run starts over in shards
    run_rng_ = Rng::stream(scenario_.seed, 1);
    step_ = 0;
    aligned_ = true;
}

void DataParallelTrainer::remove_worker(int index, bool reshard) {
    const auto k = static_cast<std::size_t>(index);
    workers_.erase(workers_.begin() + index);
    faults_.lane_of.erase(faults_.lane_of.begin() + index);
    Scenario& s = scenario_;
    s.workers -= 1;
    if (!s.worker_batch.empty())
        s.worker_batch.erase(s.worker_batch.begin() + index);
    if (!s.shard_sizes.empty())
        s.shard_sizes.erase(s.shard_sizes.begin() + index);
    if (k < s.delays.slowdown.size())
        s.delays.slowdown.erase(s.delays.slowdown.begin() + index);
    std::erase_if(s.delays.pauses, [&](const PauseDelay& p) { return p.worker == index; });
    for (auto& p : s.delays.pauses)
        if (p.worker > index)
            --p.worker;
    for (std::size_t i = 0; i < workers_.size(); ++i)
        workers_[i].id = static_cast<int>(i);
    if (reshard) {
        s.shard_sizes.clear();
        const auto shards = make_shards(s, data_->size());
        for (std::size_t i = 0; i < workers_.size(); ++i)
            workers_[i].cursor = fresh_cursor(s, faults_.lane_of[i], shards[i]);
    }
    build_collective(); // for the workers that are left
}

void DataParallelTrainer::mark_dead_lanes(Ticks until) {
    // A worker that is gone for good is drawn failed up to where the others have got.
    for (auto& dead : faults_.dead) {
        if (until > dead.drawn) {
            TraceEvent down{dead.lane, EventKind::Failed, step_, dead.drawn, until};
            if (!std::exchange(dead.crash_drawn, true))
                down.crash_begins = true; // where the crash begins
            emit_lane(down);
        }
        dead.drawn = std::max(dead.drawn, until);
    }
}

void DataParallelTrainer::corrupt_after_commit(const CheckpointWrite& written) {
    // Storage faults strike committed files: the damage is only found when a recovery reads them.
    const auto step = parse_checkpoint_directory_name(written.directory.filename().string());
    std::erase_if(faults_.pending, [&](const FailureSpec& f) {
        if (f.kind != FailureKind::Corrupt || !step || *step < f.step)
            return false;
        const int index = index_of_lane(f.worker);
        if (index < 0 || index >= static_cast<int>(written.files.size()))
            return true;
        const auto file = written.directory / written.files[static_cast<std::size_t>(index)].name;
        const auto size = written.files[static_cast<std::size_t>(index)].size;
        if (f.corruption == Corruption::BitFlip)
            flip_bit(file, size / 2, 3);
        else
            truncate_file(file, size / 2);
        const Worker& w = workers_[static_cast<std::size_t>(index)];
        TraceEvent damage{index, EventKind::Damage, step_, w.clock, w.clock};
        damage.round = static_cast<int>(std::min<std::int64_t>(*step, INT32_MAX));
        damage.damage = f.corruption;
        damage.value = f.corruption == Corruption::BitFlip ? 0.0 : 1.0; // the same as a number
        emit(damage);
        return true;
    });
}

} // namespace lockstep
