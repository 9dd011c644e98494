// The "number_format" call: what a number format keeps, and what a value becomes in it.
#include "engine_calls.h"

#include "collectives/precision.h"

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

} // namespace lockstep::lessons::detail
