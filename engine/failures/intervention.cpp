#include "failures/intervention.h"

#include <array>

namespace lockstep {

// Every kind of change (LOCKSTEP_FAULT_KINDS, intervention.h), each defined in its
// fault_<id>.cpp.
#define LOCKSTEP_DECLARE(name, object) extern const FaultKind object;
LOCKSTEP_FAULT_KINDS(LOCKSTEP_DECLARE)
#undef LOCKSTEP_DECLARE

namespace {

#define LOCKSTEP_ENTRY(name, object) &object,
constexpr std::array kKinds{LOCKSTEP_FAULT_KINDS(LOCKSTEP_ENTRY)};
#undef LOCKSTEP_ENTRY

} // namespace

std::span<const FaultKind* const> fault_kinds() {
    return kKinds;
}

// The enum and the array come from the one list, in its order.
const FaultKind& fault_kind(Intervention::Kind kind) {
    return *kKinds.at(static_cast<std::size_t>(kind));
}

const FaultKind* find_fault_kind(std::string_view id) {
    for (const FaultKind* k : kKinds)
        if (k->id == id)
            return k;
    return nullptr;
}

double amount_or_default(const Intervention& change, const FaultTarget& run) {
    if (change.amount != 0.0)
        return change.amount;
    const FaultKind& kind = fault_kind(change.kind);
    if (!kind.amount_in_steps)
        return kind.default_amount;
    const double step = run.mean_step_seconds();
    return kind.default_amount * (step > 0.0 ? step : 0.01);
}

std::optional<Intervention> make_intervention(std::string_view id, int worker, std::int64_t at,
                                              double amount) {
    const FaultKind* kind = find_fault_kind(id);
    if (!kind)
        return std::nullopt;
    Intervention i;
    i.kind = kind->kind;
    i.worker = worker;
    i.at = at;
    i.amount = amount;
    return i;
}

} // namespace lockstep
