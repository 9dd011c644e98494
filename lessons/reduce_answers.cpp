// The "reduce" call: lockstep::reduce, the function every collective combines gradients with.
#include "engine_calls.h"

#include "lockstep_lessons/language.h"

#include "collectives/reduction.h"

#include <vector>

namespace lockstep::lessons::detail {

namespace {

// A reduce call's rule and numbers, with a student's values in place of their names; samples
// only for the weighted mean.
struct ReduceArguments {
    ReductionRule rule = ReductionRule::Mean;
    std::vector<double> values;
    std::vector<double> samples;
};

ReduceArguments reduce_arguments(const EngineCall& call, const Values& values) {
    ReduceArguments r;
    parse_reduction_rule(call.spec.value(QStringLiteral("rule")).toString().toStdString(), r.rule);
    r.values = argument_list(call.spec.value(QStringLiteral("values")), values,
                             QStringLiteral("answer.values"));
    if (r.rule == ReductionRule::WeightedMean && call.spec.contains(QStringLiteral("samples")))
        r.samples = argument_list(call.spec.value(QStringLiteral("samples")), values,
                                  QStringLiteral("answer.samples"));
    return r;
}

} // namespace

void check_reduce_call(const EngineCall& call, const Values& probe) {
    require_keys(call, {QStringLiteral("rule"), QStringLiteral("values")},
                 {QStringLiteral("samples")});
    ReductionRule rule = ReductionRule::Mean;
    if (!parse_reduction_rule(call.spec.value(QStringLiteral("rule")).toString().toStdString(),
                              rule))
        fail(QStringLiteral("answer.rule: must be sum, mean or weighted-mean"));
    names_known(call.spec.value(QStringLiteral("values")), probe, QStringLiteral("answer.values"));
    if (call.spec.contains(QStringLiteral("samples")))
        names_known(call.spec.value(QStringLiteral("samples")), probe,
                    QStringLiteral("answer.samples"));
    else if (rule == ReductionRule::WeightedMean)
        fail(QStringLiteral("answer: a weighted mean needs 'samples'"));
}

double reduce_call(const EngineCall& call, const Values& values) {
    const ReduceArguments r = reduce_arguments(call, values);
    return reduce(r.rule, r.values, r.samples);
}

QString describe_reduce_call(const EngineCall& call, const Values& values, double result) {
    auto numbers = [&](const std::vector<double>& v, const QString& join) {
        QStringList parts;
        for (double x : v)
            parts << shown(x);
        return parts.join(join);
    };
    const QString value = shown(result);
    const ReduceArguments r = reduce_arguments(call, values);
    const ReductionRule rule = r.rule;
    const std::vector<double>& v = r.values;
    const QString sum = numbers(v, QStringLiteral(" + "));
    if (rule == ReductionRule::Sum)
        return Text::tr("lockstep::reduce, rule sum: %1 = %2").arg(sum, value);
    if (rule == ReductionRule::Mean)
        return Text::tr("lockstep::reduce, rule mean: (%1) / %2 = %3")
            .arg(sum)
            .arg(v.size())
            .arg(value);
    const std::vector<double>& n = r.samples;
    QStringList terms;
    for (std::size_t i = 0; i < v.size() && i < n.size(); ++i)
        terms << QStringLiteral("%1 × %2").arg(shown(n[i]), shown(v[i]));
    return Text::tr("lockstep::reduce, rule weighted-mean: (%1) / (%2) = %3")
        .arg(terms.join(QStringLiteral(" + ")), numbers(n, QStringLiteral(" + ")), value);
}

} // namespace lockstep::lessons::detail
