// Crash during the next checkpoint: one worker dies while it writes the first checkpoint that
// holds this step's update, its file half written.
#include "failures/intervention.h"

namespace lockstep {

extern const FaultKind fault_crash_in_checkpoint;
const FaultKind fault_crash_in_checkpoint{
    Intervention::Kind::CrashInCheckpoint,
    "crash-checkpoint",
    QT_TRANSLATE_NOOP("Fault", "Crash during next checkpoint"),
    QT_TRANSLATE_NOOP("Fault", "worker %1 crashes in the next checkpoint"),
    0.0,
    false,
    [](const Scenario& s, const Intervention&) {
        if (!s.checkpoint)
            return Refusal{QT_TRANSLATE_NOOP("Fault",
                                             "This scenario saves no checkpoints, so there is no "
                                             "next checkpoint to crash in. Give it a checkpoint "
                                             "policy first."),
                           {}};
        if (s.failures.policy == RecoveryPolicy::Backup)
            return Refusal{QT_TRANSLATE_NOOP("Fault",
                                             "With backup workers a crash is a gradient that never "
                                             "arrives; crash the worker in a step instead."),
                           {}};
        return Refusal{};
    },
    [](FaultTarget& run, const Intervention& change) {
        FailureSpec crash;
        crash.kind = FailureKind::Crash;
        crash.worker = change.worker;
        crash.phase = CrashPhase::CheckpointBeforeFsync;
        crash.step = run.steps_done() + 1;
        run.inject_failure(crash);
    }};

} // namespace lockstep
