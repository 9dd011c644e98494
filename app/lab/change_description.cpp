#include "change_description.h"

#include "failures/intervention.h"

#include "lockstep_views/names.h"
#include "lockstep_views/numbers.h"

#include <QCoreApplication>
#include <QStringList>

namespace lockstep::app {

QString describe_change(const Scenario& from, const Scenario& to) {
    QStringList parts;
    if (from.rule != to.rule)
        parts << QCoreApplication::translate("lockstep::app::ChangeDescription", "rule → %1")
                     .arg(views::rule_name(to.rule));
    if (from.algorithm != to.algorithm)
        parts << QCoreApplication::translate("lockstep::app::ChangeDescription", "collective → %1")
                     .arg(views::algorithm_name(to.algorithm));
    if (from.optimizer.learning_rate != to.optimizer.learning_rate)
        parts << QCoreApplication::translate("lockstep::app::ChangeDescription",
                                             "learning rate → %1")
                     .arg(views::display_number(to.optimizer.learning_rate));
    if (from.delays.slowdown != to.delays.slowdown) {
        QStringList factors;
        for (double f : to.delays.slowdown)
            factors << views::display_number(f);
        // "1.5, 3" in English; "1,5; 3" where the comma is the decimal mark.
        const QString between = views::display_locale().decimalPoint() == QLatin1String(",")
                                    ? QStringLiteral("; ")
                                    : QStringLiteral(", ");
        parts << QCoreApplication::translate("lockstep::app::ChangeDescription", "slowdown → %1")
                     .arg(factors.isEmpty() ? QCoreApplication::translate(
                                                  "lockstep::app::ChangeDescription", "none")
                                            : factors.join(between));
    }
    if (from.sync_mode() != to.sync_mode())
        parts << QCoreApplication::translate("lockstep::app::ChangeDescription", "agreement → %1")
                     .arg(views::sync_name(to.sync_mode()));
    else if (to.sync_mode() == SyncMode::Ssp && from.sync->staleness != to.sync->staleness)
        parts << QCoreApplication::translate("lockstep::app::ChangeDescription",
                                             "staleness bound → %1")
                     .arg(to.sync->staleness);
    else if (to.sync_mode() == SyncMode::Local && from.sync->local_steps != to.sync->local_steps)
        parts << QCoreApplication::translate("lockstep::app::ChangeDescription",
                                             "averaging every %1 steps")
                     .arg(to.sync->local_steps);
    // What only a new run takes.
    if (from.workers != to.workers)
        parts << QCoreApplication::translate("lockstep::app::ChangeDescription", "%1 workers")
                     .arg(to.workers);
    if (from.batch != to.batch)
        parts << QCoreApplication::translate("lockstep::app::ChangeDescription",
                                             "batch → %1 per worker")
                     .arg(to.batch);
    if (from.cost.communication_s_per_step != to.cost.communication_s_per_step &&
        to.cost.communication_s_per_step)
        parts << QCoreApplication::translate("lockstep::app::ChangeDescription",
                                             "communication → %1 s in all")
                     .arg(views::display_number(*to.cost.communication_s_per_step *
                                                static_cast<double>(to.steps)));
    if (from.cost.one_worker_compute_s != to.cost.one_worker_compute_s &&
        to.cost.one_worker_compute_s)
        parts << QCoreApplication::translate("lockstep::app::ChangeDescription",
                                             "one worker's compute → %1 s")
                     .arg(views::display_number(*to.cost.one_worker_compute_s));
    if (from.seed != to.seed)
        parts << QCoreApplication::translate("lockstep::app::ChangeDescription", "seed → %1")
                     .arg(to.seed);
    if (from.model.layers != to.model.layers) {
        QStringList widths;
        for (const auto w : to.model.layers)
            widths << QString::number(w);
        parts << QCoreApplication::translate("lockstep::app::ChangeDescription", "layers → %1")
                     .arg(widths.join(QStringLiteral("-")));
    }
    if (from.clock != to.clock)
        parts << QCoreApplication::translate("lockstep::app::ChangeDescription", "clock → %1")
                     .arg(views::clock_name(to.clock));
    if (from.sharding != to.sharding)
        parts << QCoreApplication::translate("lockstep::app::ChangeDescription", "sharding → %1")
                     .arg(views::sharding_name(to.sharding));
    if (from.delays.straggler_probability != to.delays.straggler_probability)
        parts << QCoreApplication::translate(
                     "lockstep::app::ChangeDescription",
                     "a random straggler with chance %1 per worker and step")
                     .arg(views::display_number(to.delays.straggler_probability));
    if (from.steps != to.steps)
        parts << QCoreApplication::translate("lockstep::app::ChangeDescription", "%1 steps")
                     .arg(to.steps);
    return parts.join(QStringLiteral(", "));
}

} // namespace lockstep::app
