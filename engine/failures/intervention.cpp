#include "failures/intervention.h"

#include <array>

namespace lockstep {

// Every kind of change, in the worker menu's order: each is defined in its fault_<id>.cpp. A new
// kind is that file, a line here and a line in Intervention::Kind.
// clang-format off
#define LOCKSTEP_FAULT_KINDS(X) \
    X(slow)                     \
    X(full_speed)               \
    X(slow_link)                \
    X(pause)                    \
    X(crash)                    \
    X(crash_in_checkpoint)      \
    X(retune)                   \
    X(broadcast)                \
    X(bucket_order)
// clang-format on

#define LOCKSTEP_DECLARE(name) extern const FaultKind fault_##name;
LOCKSTEP_FAULT_KINDS(LOCKSTEP_DECLARE)
#undef LOCKSTEP_DECLARE

namespace {

#define LOCKSTEP_ENTRY(name) &fault_##name,
constexpr std::array kKinds{LOCKSTEP_FAULT_KINDS(LOCKSTEP_ENTRY)};
#undef LOCKSTEP_ENTRY

} // namespace

std::span<const FaultKind* const> fault_kinds() {
    return kKinds;
}

const FaultKind& fault_kind(Intervention::Kind kind) {
    for (const FaultKind* k : kKinds)
        if (k->kind == kind)
            return *k;
    return *kKinds.front();
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

void apply_intervention(FaultTarget& run, const Intervention& change) {
    fault_kind(change.kind).apply(run, change);
}

} // namespace lockstep
