// Pause: one worker stalls at the start of the next step (for two of the run's own steps by
// default), and everyone who needs it waits.
#include "failures/intervention.h"

namespace lockstep {

extern const FaultKind fault_pause;
const FaultKind fault_pause{Intervention::Kind::Pause,
                            "pause",
                            QT_TRANSLATE_NOOP("Fault", "Pause for 2 steps"),
                            QT_TRANSLATE_NOOP("Fault", "worker %1 paused for 2 steps"),
                            2.0,
                            true,
                            [](const Scenario&, const Intervention&) { return Refusal{}; },
                            [](FaultTarget& run, const Intervention& change) {
                                run.pause_lane(change.worker, amount_or_default(change, run));
                            },
                            false,
                            nullptr,
                            "seconds",
                            0.0,
                            86400.0,
                            QT_TRANSLATE_NOOP("Fault", "worker %1 paused for %2 s")};

} // namespace lockstep
