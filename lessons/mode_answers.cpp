// The "first_to_target" call: which way of agreeing first trains a scenario to a target loss.
#include "engine_calls.h"

#include "core/error.h"
#include "runs/runs.h"

#include <QJsonArray>

namespace lockstep::lessons::detail {

namespace {

const QStringList kSyncModes = {QStringLiteral("bsp"), QStringLiteral("ssp"),
                                QStringLiteral("async"), QStringLiteral("local")};

// The scenario of a first_to_target call under one way of agreeing: ssp with the call's
// staleness bound (2 unless given), local SGD with its period (4 unless given).
Scenario in_mode(const Scenario& s, const QString& mode, const EngineCall& call,
                 const Values& values) {
    SyncConfig c;
    parse_sync_mode(mode.toStdString(), c.mode);
    c.staleness = static_cast<int>(call.spec.contains(QStringLiteral("staleness"))
                                       ? argument(call.spec.value(QStringLiteral("staleness")),
                                                  values, QStringLiteral("answer.staleness"))
                                       : 2);
    c.local_steps = static_cast<int>(call.spec.contains(QStringLiteral("local_steps"))
                                         ? argument(call.spec.value(QStringLiteral("local_steps")),
                                                    values, QStringLiteral("answer.local_steps"))
                                         : 4);
    try {
        return with_sync(s, c);
    } catch (const Error& e) {
        fail(QStringLiteral("answer.modes: %1: %2").arg(mode, QString::fromStdString(e.what())));
    }
}

} // namespace

// Which of the call's ways of agreeing first trains the scenario to the target loss on the
// modelled clock: its index in `modes` (the first listed, on a tie).
double first_to_target(const EngineCall& call, const Values& values, const QString& base_dir) {
    const Scenario s = call_scenario(call, values, base_dir);
    const double target = argument(call.spec.value(QStringLiteral("target")), values,
                                   QStringLiteral("answer.target"));
    const QJsonArray modes = call.spec.value(QStringLiteral("modes")).toArray();
    int best = -1;
    double best_time = 0.0;
    for (qsizetype i = 0; i < modes.size(); ++i) {
        const RunResult r = run_scenario(in_mode(s, modes[i].toString(), call, values));
        for (const ProgressPoint& p : r.progress)
            if (p.loss <= target) {
                if (best < 0 || p.time_s < best_time) {
                    best = static_cast<int>(i);
                    best_time = p.time_s;
                }
                break;
            }
    }
    if (best < 0)
        fail(QStringLiteral("answer.target: no way of agreeing trains this scenario to a loss of "
                            "%1; choose a higher target")
                 .arg(target));
    return best;
}

void check_first_to_target_call(const EngineCall& call, const Values& probe,
                                const QString& base_dir) {
    require_keys(
        call, {QStringLiteral("file"), QStringLiteral("target"), QStringLiteral("modes")},
        {QStringLiteral("set"), QStringLiteral("staleness"), QStringLiteral("local_steps")});
    names_known(call.spec.value(QStringLiteral("target")), probe, QStringLiteral("answer.target"));
    for (const char* key : {"staleness", "local_steps"})
        if (call.spec.contains(QLatin1String(key)))
            names_known(call.spec.value(QLatin1String(key)), probe,
                        QStringLiteral("answer.") + QLatin1String(key));
    const QJsonValue modes = call.spec.value(QStringLiteral("modes"));
    if (!modes.isArray() || modes.toArray().size() < 2)
        fail(QStringLiteral("answer.modes: expected a list of at least two ways of agreeing"));
    QStringList seen;
    for (const QJsonValue& m : modes.toArray()) {
        if (!kSyncModes.contains(m.toString()) || seen.contains(m.toString()))
            fail(QStringLiteral("answer.modes: each must be one of %1, once")
                     .arg(kSyncModes.join(QStringLiteral(", "))));
        seen << m.toString();
    }
    const Scenario s = load_scenario(scenario_path(call, base_dir).toStdString());
    if (s.clock != ClockKind::Modelled)
        fail(QStringLiteral("answer.file: a quiz scenario must use the modelled clock, so "
                            "every student's answer is the same on every machine"));
    (void)set_action(call, probe);
}

} // namespace lockstep::lessons::detail
