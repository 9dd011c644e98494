// Crash: one worker dies in this step (or, for a checkpoint phase, while writing the next
// checkpoint); the recovery policy takes over.
#include "failures/intervention.h"

namespace lockstep {

extern const FaultKind fault_crash;
const FaultKind fault_crash{
    Intervention::Kind::Crash,
    "crash",
    QT_TRANSLATE_NOOP("Fault", "Crash"),
    QT_TRANSLATE_NOOP("Fault", "worker %1 crashed"),
    0.0,
    false,
    [](const Scenario& s, const Intervention&) {
        if (s.failures.policy != RecoveryPolicy::Restart && s.workers < 2)
            return Refusal{
                QT_TRANSLATE_NOOP("Fault", "With one worker there is nobody left to go on."), {}};
        return Refusal{};
    },
    [](FaultTarget& run, const Intervention& change) {
        FailureSpec crash;
        crash.kind = FailureKind::Crash;
        crash.worker = change.worker;
        crash.phase = change.phase;
        crash.step = run.steps_done() + (is_checkpoint_phase(change.phase) ? 1 : 0);
        run.inject_failure(crash);
    }};

} // namespace lockstep
