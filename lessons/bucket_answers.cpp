// The "best_bucket" call: a scenario run with buckets of each size it lists, on the modelled
// clock; the size whose step is fastest (the first of equals). What `lockstep-cli sweep
// --bucket-kb` prints, for an exercise.
#include "engine_calls.h"

#include "runs/runs.h"

#include <QJsonArray>

#include <cmath>

namespace lockstep::lessons::detail {

namespace {

std::vector<double> sizes_of(const EngineCall& call, const Values& values) {
    const std::vector<double> sizes =
        argument_list(call.spec.value(QStringLiteral("sizes")), values, QStringLiteral("sizes"));
    if (sizes.empty())
        fail(QStringLiteral("answer.sizes: needs at least one bucket size in KB"));
    for (double kb : sizes)
        if (kb < 0 || kb > static_cast<double>(ScenarioLimits::max_bucket_kb) ||
            kb != std::floor(kb))
            fail(QStringLiteral("answer.sizes: a bucket size is a whole number of KB from 0 to "
                                "%1, got %2")
                     .arg(ScenarioLimits::max_bucket_kb)
                     .arg(kb));
    return sizes;
}

} // namespace

void check_best_bucket_call(const EngineCall& call, const Values& probe, const QString& base_dir) {
    require_keys(call, {QStringLiteral("file"), QStringLiteral("sizes")}, {QStringLiteral("set")});
    names_known(call.spec.value(QStringLiteral("sizes")), probe, QStringLiteral("answer.sizes"));
    (void)sizes_of(call, probe);
    const Scenario s = call_scenario(call, probe, base_dir);
    if (s.clock != ClockKind::Modelled)
        fail(QStringLiteral("answer.file: a quiz scenario must use the modelled clock, so "
                            "every student's answer is the same on every machine"));
}

double best_bucket(const EngineCall& call, const Values& values, const QString& base_dir) {
    const Scenario base = call_scenario(call, values, base_dir);
    double best = -1.0, fastest = 0.0;
    for (double kb : sizes_of(call, values)) {
        Scenario s = base;
        GradientConfig g = s.gradients.value_or(GradientConfig{});
        g.bucket_kb = static_cast<std::size_t>(kb);
        s.gradients = g;
        validate(s);
        const double step = run_scenario(s, nullptr, Work::TimesOnly).metrics.step_time_s;
        if (best < 0 || step < fastest) {
            best = kb;
            fastest = step;
        }
    }
    return best;
}

} // namespace lockstep::lessons::detail
