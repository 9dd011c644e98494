// Retune: the settings that may change while a run goes on (rule, algorithm, optimizer,
// slowdowns, cost, restore mode, sync bound) take the values of another scenario.
#include "failures/intervention.h"

namespace lockstep {

extern const FaultKind fault_retune;
const FaultKind fault_retune{
    Intervention::Kind::Retune,
    "retune",
    nullptr,
    nullptr,
    0.0,
    false,
    [](const Scenario& s, const Intervention& change) {
        if (const auto field = fixed_for_the_run(s, change.scenario))
            return Refusal{QT_TRANSLATE_NOOP("Fault", "“%1” cannot change while the run goes on."),
                           *field};
        return Refusal{};
    },
    [](FaultTarget& run, const Intervention& change) { run.retune(change.scenario); },
    true};

} // namespace lockstep
