// An engine call's arguments: numbers or a student's variables, its keys, its scenario file.
#include "engine_calls.h"

#include "lockstep_lessons/language.h"

#include "core/error.h"

#include <QDir>
#include <QJsonArray>

namespace lockstep::lessons::detail {

void fail(const QString& what) {
    throw Error(what.toStdString());
}

QString function_of(const EngineCall& call) {
    return call.spec.value(QStringLiteral("engine")).toString();
}

double argument(const QJsonValue& v, const Values& values, const QString& key) {
    if (v.isDouble())
        return v.toDouble();
    if (v.isString() && values.contains(v.toString()))
        return values.value(v.toString());
    fail(QStringLiteral("%1: expected a number or a variable name, got %2")
             .arg(key, v.isString() ? QLatin1Char('\'') + v.toString() + QLatin1Char('\'')
                                    : QStringLiteral("something else")));
}

std::vector<double> argument_list(const QJsonValue& v, const Values& values, const QString& key) {
    if (!v.isArray())
        fail(QStringLiteral("%1: expected a list of numbers or variable names").arg(key));
    std::vector<double> out;
    const QJsonArray array = v.toArray();
    for (qsizetype i = 0; i < array.size(); ++i)
        out.push_back(argument(array[i], values, QStringLiteral("%1[%2]").arg(key).arg(i)));
    return out;
}

void names_known(const QJsonValue& v, const Values& probe, const QString& key) {
    if (v.isArray())
        (void)argument_list(v, probe, key);
    else
        (void)argument(v, probe, key);
}

void require_keys(const EngineCall& call, const QStringList& required,
                  const QStringList& optional) {
    const QString fn = function_of(call);
    for (const QString& key : required)
        if (!call.spec.contains(key))
            fail(QStringLiteral("answer: '%1' needs '%2'").arg(fn, key));
    for (auto it = call.spec.begin(); it != call.spec.end(); ++it)
        if (it.key() != QLatin1String("engine") && !required.contains(it.key()) &&
            !optional.contains(it.key()))
            fail(QStringLiteral("answer.%1: unknown key for '%2'").arg(it.key(), fn));
}

QString scenario_path(const EngineCall& call, const QString& base_dir) {
    return QDir(base_dir).filePath(call.spec.value(QStringLiteral("file")).toString());
}

QString shown(double x) {
    return localized_number(QString::number(x, 'g', 10));
}

} // namespace lockstep::lessons::detail
