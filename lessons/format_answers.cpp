// The "number_format" call: what a number format keeps, and what a value becomes in it; and
// "most_overflows": which of several runs skips the most steps on an overflow.
#include "engine_calls.h"

#include "collectives/precision.h"
#include "runs/runs.h"

#include <QJsonArray>

#include <cmath>

namespace lockstep::lessons::detail {

namespace {

const QStringList kMeasures = {QStringLiteral("largest"),
                               QStringLiteral("smallest_normal"),
                               QStringLiteral("smallest_subnormal"),
                               QStringLiteral("spacing_at_one"),
                               QStringLiteral("bytes"),
                               QStringLiteral("fraction_bits"),
                               QStringLiteral("exponent_bits"),
                               QStringLiteral("rounded")};

WirePrecision call_format(const EngineCall& call) {
    WirePrecision w = WirePrecision::Float64;
    const QString name = call.spec.value(QStringLiteral("format")).toString();
    if (!parse_wire_precision(name.toStdString(), w))
        fail(QStringLiteral("answer.format: must be float64, float32, float16 or bfloat16, got "
                            "'%1'")
                 .arg(name));
    return w;
}

} // namespace

void check_number_format_call(const EngineCall& call, const Values& probe) {
    require_keys(call, {QStringLiteral("format"), QStringLiteral("measure")},
                 {QStringLiteral("value")});
    call_format(call);
    const QString measure = call.spec.value(QStringLiteral("measure")).toString();
    if (!kMeasures.contains(measure))
        fail(QStringLiteral("answer.measure: must be one of %1, got '%2'")
                 .arg(kMeasures.join(QStringLiteral(", ")), measure));
    const bool rounded = measure == QLatin1String("rounded");
    if (rounded != call.spec.contains(QStringLiteral("value")))
        fail(rounded ? QStringLiteral("answer: 'rounded' needs the 'value' to round")
                     : QStringLiteral("answer.value: only 'rounded' takes a value"));
    if (rounded)
        names_known(call.spec.value(QStringLiteral("value")), probe,
                    QStringLiteral("answer.value"));
}

double number_format_call(const EngineCall& call, const Values& values) {
    const WirePrecision w = call_format(call);
    const NumberFormat f = number_format(w);
    const QString measure = call.spec.value(QStringLiteral("measure")).toString();
    if (measure == QLatin1String("largest"))
        return f.largest();
    if (measure == QLatin1String("smallest_normal"))
        return f.smallest_normal();
    if (measure == QLatin1String("smallest_subnormal"))
        return f.smallest_subnormal();
    if (measure == QLatin1String("spacing_at_one"))
        return f.spacing_at_one();
    if (measure == QLatin1String("bytes"))
        return static_cast<double>(bytes_per_value(w));
    if (measure == QLatin1String("fraction_bits"))
        return f.fraction_bits;
    if (measure == QLatin1String("exponent_bits"))
        return f.exponent_bits;
    const double x =
        argument(call.spec.value(QStringLiteral("value")), values, QStringLiteral("answer.value"));
    const double r = round_to(w, x);
    if (!std::isfinite(r))
        fail(QStringLiteral("answer.value: %1 overflows %2")
                 .arg(x)
                 .arg(QString::fromLatin1(to_string(w).data(),
                                          static_cast<qsizetype>(to_string(w).size()))));
    return r;
}

namespace {

// The scenario call of one of a most_overflows call's runs: its file with that run's settings.
EngineCall run_call(const EngineCall& call, const QJsonValue& settings) {
    return EngineCall{QJsonObject{{QStringLiteral("engine"), QStringLiteral("scenario")},
                                  {QStringLiteral("file"), call.spec.value(QStringLiteral("file"))},
                                  {QStringLiteral("set"), settings},
                                  {QStringLiteral("metric"), QStringLiteral("overflow_steps")}}};
}

} // namespace

void check_most_overflows_call(const EngineCall& call, const QStringList& variables,
                               const Values& probe, const QString& base_dir) {
    require_keys(call, {QStringLiteral("file"), QStringLiteral("runs")}, {});
    const QJsonValue runs = call.spec.value(QStringLiteral("runs"));
    if (!runs.isArray() || runs.toArray().size() < 2)
        fail(QStringLiteral("answer.runs: expected a list of at least two runs' settings"));
    for (const QJsonValue& settings : runs.toArray()) {
        if (!settings.isObject())
            fail(QStringLiteral("answer.runs: each run is an object of lockstep:set settings, "
                                "e.g. {\"workers\": 8, \"loss_scale\": 1024}"));
        check_scenario_call(run_call(call, settings), variables, probe, base_dir);
    }
}

// The index of the run that skips the most steps (the first of equals), on the modelled clock.
double most_overflows(const EngineCall& call, const Values& values, const QString& base_dir) {
    const QJsonArray runs = call.spec.value(QStringLiteral("runs")).toArray();
    int best = -1;
    double most = 0.0;
    for (qsizetype i = 0; i < runs.size(); ++i) {
        const double skipped = run_scenario_call(run_call(call, runs[i]), values, base_dir);
        if (skipped > most) {
            best = static_cast<int>(i);
            most = skipped;
        }
    }
    if (best < 0)
        fail(QStringLiteral("answer.runs: none of the runs skips a step; give one a narrower "
                            "format or a larger loss scale"));
    return best;
}

} // namespace lockstep::lessons::detail
