#include "trainers/data_parallel.h"

#include "core/error.h"

#include <string>

// What the lab does to a data-parallel run while it goes on: each change becomes the same call
// a scenario's own delays and faults go through.

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

} // namespace lockstep
