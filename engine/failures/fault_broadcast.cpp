// Broadcast: before the next step every replica takes the first worker's parameters and
// optimizer state, as data-parallel training does before its first step.
#include "failures/intervention.h"

namespace lockstep {

extern const FaultKind fault_broadcast;
const FaultKind fault_broadcast{
    Intervention::Kind::Broadcast,
    "broadcast",
    nullptr,
    nullptr,
    0.0,
    false,
    [](const Scenario& s, const Intervention&) {
        if (s.sync_mode() == SyncMode::Ssp || s.sync_mode() == SyncMode::Async)
            return Refusal{QT_TRANSLATE_NOOP("Fault",
                                             "Under %1 the workers read the one model the server "
                                             "holds: there are no replicas to copy parameters "
                                             "between."),
                           std::string(to_string(s.sync_mode()))};
        if (s.clock == ClockKind::Measured)
            return Refusal{QT_TRANSLATE_NOOP("Fault", "A broadcast is priced by the cost model: "
                                                      "switch to the modelled clock."),
                           {}};
        if (s.sharding != Sharding::None)
            return Refusal{QT_TRANSLATE_NOOP("Fault", "A sharded worker's optimizer state is its "
                                                      "own shard: there is no whole state to copy "
                                                      "to the others."),
                           {}};
        if (s.workers < 2)
            return Refusal{QT_TRANSLATE_NOOP("Fault", "With one worker there is nobody to copy "
                                                      "the parameters to."),
                           {}};
        return Refusal{};
    },
    [](FaultTarget& run, const Intervention& change) { run.broadcast_from_lane(change.worker); },
    true,
    nullptr,
    nullptr,
    0.0,
    0.0,
    QT_TRANSLATE_NOOP("Fault", "worker %1's parameters copied to every worker")};

} // namespace lockstep
