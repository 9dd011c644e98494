// The "smallest_stage" call: the least sharding, as a number (0 none, 1 optimizer, 2 gradients,
// 3 parameters), whose worker holds at most `budget` bytes at its peak after one real step of the
// scenario; 4 when none does. The stage a run refused over its memory_budget_bytes names, for an
// exercise.
#include "engine_calls.h"

#include "runs/runs.h"

#include <cmath>
#include <cstdint>
#include <limits>
#include <optional>
#include <string>

namespace lockstep::lessons::detail {

namespace {

constexpr double kNoneFits = 4.0;

std::int64_t budget_of(const EngineCall& call, const Values& values) {
    const double budget = argument(call.spec.value(QStringLiteral("budget")), values,
                                   QStringLiteral("answer.budget"));
    if (!std::isfinite(budget) || budget < 1)
        fail(QStringLiteral("answer.budget: a memory budget is a positive number of bytes, got %1")
                 .arg(budget));
    // A peak is a whole number of bytes: it fits `budget` when it fits its whole part.
    return budget >= 9.0e18 ? std::numeric_limits<std::int64_t>::max()
                            : static_cast<std::int64_t>(std::floor(budget));
}

// Only a data-parallel worker that holds a replica keeps a memory ledger to shard.
void data_parallel_only(const Scenario& s) {
    if (s.model_parallel())
        fail(QStringLiteral("answer.file: smallest_stage shards a data-parallel worker's memory; "
                            "this scenario's parallelism.mode is \"%1\"")
                 .arg(QString::fromStdString(std::string(to_string(s.parallelism_mode())))));
    if (s.sync_mode() == SyncMode::Ssp || s.sync_mode() == SyncMode::Async)
        fail(QStringLiteral("answer.file: smallest_stage shards a data-parallel worker's memory "
                            "with sync mode bsp; this scenario's sync.mode is %1, whose workers "
                            "keep no memory ledger")
                 .arg(QString::fromStdString(std::string(to_string(s.sync_mode())))));
}

} // namespace

void check_smallest_stage_call(const EngineCall& call, const Values& probe,
                               const QString& base_dir) {
    require_keys(call, {QStringLiteral("file"), QStringLiteral("budget")}, {QStringLiteral("set")});
    names_known(call.spec.value(QStringLiteral("budget")), probe, QStringLiteral("answer.budget"));
    if (call.spec.value(QStringLiteral("budget")).isDouble())
        (void)budget_of(call, probe); // a number written in the bank is a budget already
    const Scenario s = call_scenario(call, probe, base_dir);
    if (s.clock != ClockKind::Modelled)
        fail(QStringLiteral("answer.file: a quiz scenario must use the modelled clock, so "
                            "every student's answer is the same on every machine"));
    data_parallel_only(s);
}

double smallest_stage(const EngineCall& call, const Values& values, const QString& base_dir) {
    const Scenario s = call_scenario(call, values, base_dir);
    data_parallel_only(s);
    const std::optional<Sharding> stage = least_sharding_within(s, budget_of(call, values));
    return stage ? static_cast<double>(*stage) : kNoneFits; // Sharding counts from none, 0
}

} // namespace lockstep::lessons::detail
