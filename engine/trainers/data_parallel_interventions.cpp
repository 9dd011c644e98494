#include "trainers/data_parallel.h"

#include "core/error.h"
#include "trainers/setup.h"

#include <algorithm>
#include <string>

// What changes in a data-parallel run while it goes on: the lab's interventions, each through
// the same call a scenario's own delays and faults go through, and the settings a run may take
// between two steps.

namespace lockstep {

void DataParallelTrainer::intervene(Intervention& change) {
    const int index = index_of_lane(change.worker);
    if (change.kind != Intervention::Kind::Retune && index < 0)
        throw Error("worker " + std::to_string(change.worker) + " is no longer in the run");
    FailureSpec crash;
    crash.kind = FailureKind::Crash;
    crash.worker = change.worker;
    crash.step = steps_done();
    switch (change.kind) {
    case Intervention::Kind::Slow:
        set_slowdown(index, change.amount > 0 ? change.amount : 3.0);
        break;
    case Intervention::Kind::Pause:
        add_pause(index, steps_done(), change.amount > 0 ? change.amount : 5.0);
        break;
    case Intervention::Kind::Crash:
        crash.phase = change.phase;
        if (is_checkpoint_phase(change.phase))
            crash.step = steps_done() + 1;
        inject_failure(crash);
        break;
    case Intervention::Kind::CrashInCheckpoint:
        // The first checkpoint that holds this step's update.
        crash.phase = CrashPhase::CheckpointBeforeFsync;
        crash.step = steps_done() + 1;
        inject_failure(crash);
        break;
    case Intervention::Kind::Retune:
        retune(change.scenario);
        break;
    }
    change.step = steps_done();
}

void DataParallelTrainer::resume_measured_clock() {
    Ticks latest = 0;
    for (const auto& w : workers_)
        latest = std::max(latest, w.clock);
    clock_->resume_at(latest);
}

void DataParallelTrainer::retune(const Scenario& to) {
    if (to.algorithm == Algorithm::None && !checkpoints_.directory.empty() && scenario_.workers > 1)
        throw Error("algorithm: a run that saves checkpoints needs one model, so its replicas "
                    "must stay synchronised");
    for (auto& w : workers_)
        w.optimizer.retune(to.optimizer);
    take_mid_run_settings(scenario_, to);
    // Slowdowns are given per lane; after an elastic recovery worker indices differ from lanes.
    scenario_.delays.slowdown.assign(workers_.size(), 1.0);
    for (std::size_t i = 0; i < workers_.size(); ++i)
        scenario_.delays.slowdown[i] = to.slowdown_of(faults_.lane_of[i]);
    build_collective();
    price_compute();
}

void DataParallelTrainer::set_slowdown(int worker, double factor) {
    detail::set_slowdown(scenario_, worker, factor);
}

void DataParallelTrainer::add_pause(int worker, std::int64_t step, double seconds) {
    detail::check_pause(scenario_, worker, seconds);
    scenario_.delays.pauses.push_back({worker, step, seconds});
}

} // namespace lockstep
