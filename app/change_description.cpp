#include "change_description.h"

#include <QCoreApplication>
#include <QStringList>

namespace lockstep::app {

namespace {

QString tr(const char* text) {
    return QCoreApplication::translate("lockstep::app::ChangeDescription", text);
}

QString name_of(auto value) {
    return QString::fromStdString(std::string(to_string(value)));
}

} // namespace

QString describe_change(const Scenario& from, const Scenario& to) {
    QStringList parts;
    if (from.rule != to.rule)
        parts << tr("rule → %1").arg(name_of(to.rule));
    if (from.algorithm != to.algorithm)
        parts << tr("collective → %1").arg(name_of(to.algorithm));
    if (from.optimizer.learning_rate != to.optimizer.learning_rate)
        parts << tr("learning rate → %1").arg(to.optimizer.learning_rate);
    if (from.delays.slowdown != to.delays.slowdown) {
        QStringList factors;
        for (double f : to.delays.slowdown)
            factors << QString::number(f);
        parts << tr("slowdown → %1")
                     .arg(factors.isEmpty() ? tr("none") : factors.join(QStringLiteral(", ")));
    }
    if (from.sync_mode() != to.sync_mode())
        parts << tr("agreement → %1").arg(name_of(to.sync_mode()));
    else if (to.sync_mode() == SyncMode::Ssp && from.sync->staleness != to.sync->staleness)
        parts << tr("staleness bound → %1").arg(to.sync->staleness);
    else if (to.sync_mode() == SyncMode::Local && from.sync->local_steps != to.sync->local_steps)
        parts << tr("averaging every %1 steps").arg(to.sync->local_steps);
    return parts.join(QStringLiteral(", "));
}

QString describe_worker_action(int worker, const QString& action) {
    if (action == QLatin1String("slow"))
        return tr("worker %1 slowed 3×").arg(worker);
    if (action == QLatin1String("pause"))
        return tr("worker %1 paused 5 s").arg(worker);
    if (action == QLatin1String("crash"))
        return tr("worker %1 crashed").arg(worker);
    return tr("worker %1 crashes in the next checkpoint").arg(worker);
}

} // namespace lockstep::app
