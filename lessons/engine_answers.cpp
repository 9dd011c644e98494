// The quiz's engine calls by name: each checked, evaluated and described by its own file.
#include "lockstep_lessons/engine_answers.h"

#include "engine_calls.h"

#include "lockstep_lessons/language.h"

#include <QJsonArray>

namespace lockstep::lessons {

using namespace detail;

QStringList engine_functions() {
    return {QStringLiteral("reduce"),
            QStringLiteral("scenario"),
            QStringLiteral("collective_bytes"),
            QStringLiteral("bubble_fraction"),
            QStringLiteral("study"),
            QStringLiteral("first_to_target"),
            QStringLiteral("collective_time"),
            QStringLiteral("best_bucket"),
            QStringLiteral("smallest_stage"),
            QStringLiteral("number_format"),
            QStringLiteral("most_overflows")};
}

void check_engine_call(const EngineCall& call, const QStringList& variables,
                       const QString& base_dir) {
    const QString fn = function_of(call);
    Values probe; // every variable present, so the names resolve
    for (const QString& v : variables)
        probe.insert(v, 1.0);
    if (fn == QLatin1String("reduce"))
        check_reduce_call(call, probe);
    else if (fn == QLatin1String("scenario"))
        check_scenario_call(call, variables, probe, base_dir);
    else if (fn == QLatin1String("first_to_target"))
        check_first_to_target_call(call, probe, base_dir);
    else if (fn == QLatin1String("study"))
        check_study_call(call, probe, base_dir);
    else if (fn == QLatin1String("collective_bytes"))
        check_collective_bytes_call(call, probe);
    else if (fn == QLatin1String("collective_time"))
        check_collective_time_call(call, probe);
    else if (fn == QLatin1String("bubble_fraction"))
        check_bubble_fraction_call(call, probe);
    else if (fn == QLatin1String("best_bucket"))
        check_best_bucket_call(call, probe, base_dir);
    else if (fn == QLatin1String("smallest_stage"))
        check_smallest_stage_call(call, probe, base_dir);
    else if (fn == QLatin1String("number_format"))
        check_number_format_call(call, probe);
    else if (fn == QLatin1String("most_overflows"))
        check_most_overflows_call(call, variables, probe, base_dir);
    else
        fail(QStringLiteral("answer.engine: must be one of %1, got '%2'")
                 .arg(engine_functions().join(QStringLiteral(", ")), fn));
}

double evaluate(const EngineCall& call, const Values& values, const QString& base_dir) {
    const QString fn = function_of(call);
    if (fn == QLatin1String("reduce"))
        return reduce_call(call, values);
    if (fn == QLatin1String("scenario"))
        return run_scenario_call(call, values, base_dir);
    if (fn == QLatin1String("collective_bytes"))
        return collective_bytes(call, values);
    if (fn == QLatin1String("collective_time"))
        return collective_time(call, values);
    if (fn == QLatin1String("bubble_fraction"))
        return bubble_fraction(call, values);
    if (fn == QLatin1String("study"))
        return study_call(call, values, base_dir);
    if (fn == QLatin1String("first_to_target"))
        return first_to_target(call, values, base_dir);
    if (fn == QLatin1String("best_bucket"))
        return best_bucket(call, values, base_dir);
    if (fn == QLatin1String("smallest_stage"))
        return smallest_stage(call, values, base_dir);
    if (fn == QLatin1String("number_format"))
        return number_format_call(call, values);
    if (fn == QLatin1String("most_overflows"))
        return most_overflows(call, values, base_dir);
    check_engine_call(call, values.keys(), base_dir); // throws with the reason
    fail(QStringLiteral("answer.engine: cannot evaluate '%1'").arg(fn));
}

QString describe_call(const EngineCall& call, const Values& values, const QString& base_dir) {
    const QString fn = function_of(call);
    const double result = evaluate(call, values, base_dir);
    if (fn == QLatin1String("reduce"))
        return describe_reduce_call(call, values, result);
    // A value of the call as written, or the student's number for a variable's name.
    auto argument_text = [&](const QJsonValue& x) {
        if (x.isString() && values.contains(x.toString()))
            return shown(values.value(x.toString()));
        if (x.isDouble())
            return localized_number(x.toVariant().toString());
        return x.toVariant().toString();
    };
    const QString value = shown(result);
    // Any other call: its arguments, with the student's numbers in place of their names.
    QStringList args;
    for (auto it = call.spec.begin(); it != call.spec.end(); ++it) {
        if (it.key() == QLatin1String("engine"))
            continue;
        QString text;
        if (it.value().isObject()) {
            QStringList inner;
            const QJsonObject o = it.value().toObject();
            for (auto j = o.begin(); j != o.end(); ++j)
                inner << j.key() + QLatin1Char('=') + argument_text(j.value());
            text = inner.join(QStringLiteral(", "));
        } else if (it.value().isArray()) {
            QStringList inner;
            for (const QJsonValue& x : it.value().toArray())
                inner << argument_text(x);
            text = inner.join(QStringLiteral(", "));
        } else {
            text = argument_text(it.value());
        }
        args << it.key() + QStringLiteral(": ") + text;
    }
    return Text::tr("the engine's %1 (%2) gives %3")
        .arg(fn, args.join(QStringLiteral("; ")), value);
}

} // namespace lockstep::lessons
