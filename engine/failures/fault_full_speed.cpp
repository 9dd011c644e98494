// Back to full speed: a slowed worker computes at its normal pace again from the next step, and
// its link, where "Slow its link 10×" could have slowed it, carries messages at its own speed.
#include "failures/intervention.h"

namespace lockstep {

extern const FaultKind fault_slow_link;
extern const FaultKind fault_full_speed;
const FaultKind fault_full_speed{
    Intervention::Kind::FullSpeed,
    "full-speed",
    QT_TRANSLATE_NOOP("Fault", "Back to full speed"),
    QT_TRANSLATE_NOOP("Fault", "worker %1 back to full speed"),
    1.0,
    false,
    [](const Scenario&, const Intervention&) { return Refusal{}; },
    [](FaultTarget& run, const Intervention& change) {
        run.slow_down_lane(change.worker, 1.0);
        if (fault_slow_link.refusal(run.scenario(), change))
            return; // no link here that a click could have slowed
        FailureSpec link;
        link.kind = FailureKind::SlowLink;
        link.worker = change.worker;
        link.step = run.steps_done();
        link.factor = 1.0;
        run.inject_failure(link);
    },
    false,
    [](Scenario& s, const Intervention& change) {
        s.delays.slowdown.resize(static_cast<std::size_t>(s.workers), 1.0);
        s.delays.slowdown.at(static_cast<std::size_t>(change.worker)) = 1.0;
    }};

} // namespace lockstep
