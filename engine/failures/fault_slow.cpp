// Slow: one worker computes `amount` times slower from here on (3 times by default).
#include "failures/intervention.h"

#include "core/error.h"

namespace lockstep {

extern const FaultKind fault_slow;
const FaultKind fault_slow{Intervention::Kind::Slow,
                           "slow",
                           QT_TRANSLATE_NOOP("Fault", "Slow down 3×"),
                           QT_TRANSLATE_NOOP("Fault", "worker %1 slowed 3×"),
                           3.0,
                           false,
                           [](const Scenario&, const Intervention&) { return Refusal{}; },
                           [](FaultTarget& run, const Intervention& change) {
                               const double factor = amount_or_default(change, run);
                               if (!(factor >= 1.0 && factor <= 100.0))
                                   throw Error("slowdown: the factor must be between 1 and 100");
                               run.slow_down_lane(change.worker, factor);
                           },
                           false,
                           [](Scenario& s, const Intervention& change) {
                               s.delays.slowdown.resize(static_cast<std::size_t>(s.workers), 1.0);
                               s.delays.slowdown.at(static_cast<std::size_t>(change.worker)) =
                                   change.amount != 0.0 ? change.amount : fault_slow.default_amount;
                           },
                           "factor",
                           1.0,
                           100.0,
                           QT_TRANSLATE_NOOP("Fault", "worker %1 slowed %2×")};

} // namespace lockstep
