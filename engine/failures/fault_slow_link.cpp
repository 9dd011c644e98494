// Slow link: from the step at the playhead, everything one worker sends or receives travels
// `amount` times slower (10 times by default), the network's straggler where "Slow down 3×" is
// the processor's. Every round of the collective that uses its link waits for it.
#include "failures/intervention.h"

namespace lockstep {

extern const FaultKind fault_slow_link;
const FaultKind fault_slow_link{
    Intervention::Kind::SlowLink,
    "slow-link",
    QT_TRANSLATE_NOOP("Fault", "Slow its link 10×"),
    QT_TRANSLATE_NOOP("Fault", "worker %1's link slowed 10×"),
    10.0,
    false,
    [](const Scenario& s, const Intervention&) {
        if (s.workers < 2 || s.algorithm == Algorithm::None)
            return Refusal{QT_TRANSLATE_NOOP("Fault", "In this run the workers send each other "
                                                      "nothing: there is no link to slow."),
                           {}};
        if (s.sync_mode() == SyncMode::Ssp || s.sync_mode() == SyncMode::Async)
            return Refusal{QT_TRANSLATE_NOOP("Fault",
                                             "Under %1 a link is slowed in the scenario "
                                             "(failures: slow-link), not while the run goes on; "
                                             "switch to bsp to slow one now."),
                           std::string(to_string(s.sync_mode()))};
        return Refusal{};
    },
    [](FaultTarget& run, const Intervention& change) {
        FailureSpec slow;
        slow.kind = FailureKind::SlowLink;
        slow.worker = change.worker;
        slow.step = run.steps_done();
        slow.factor = amount_or_default(change, run);
        run.inject_failure(slow);
    },
    false,
    nullptr,
    "factor",
    1.0,
    1000.0,
    QT_TRANSLATE_NOOP("Fault", "worker %1's link slowed %2×")};

} // namespace lockstep
