#include "run_comparer.h"

#include "lockstep_views/names.h"
#include "runs/runs.h"

#include <QCoreApplication>

namespace lockstep::app {

namespace {

QString name_of(const Scenario& s) {
    switch (s.sync_mode()) {
    case SyncMode::Ssp:
        return QCoreApplication::translate("lockstep::app::RunComparer", "ssp, S = %1")
            .arg(s.sync->staleness);
    case SyncMode::Local:
        return QCoreApplication::translate("lockstep::app::RunComparer",
                                           "local SGD, every %1 steps")
            .arg(s.sync->local_steps);
    case SyncMode::Async:
        return s.sync->staleness_aware_lr
                   ? QCoreApplication::translate("lockstep::app::RunComparer", "async, lr / τ")
                   : views::sync_name(SyncMode::Async);
    case SyncMode::Bsp:
        break;
    }
    return views::sync_name(SyncMode::Bsp);
}

// Every variant on the modelled clock: the same numbers on every machine, and fast.
Scenario modelled(const Scenario& scenario) {
    Scenario s = scenario;
    s.clock = ClockKind::Modelled;
    return s;
}

} // namespace

std::vector<RunComparer::Variant> RunComparer::ways(const Scenario& scenario,
                                                    const std::vector<SyncMode>& modes,
                                                    int staleness, int localSteps) {
    std::vector<Variant> variants;
    for (SyncMode m : modes) {
        Scenario s = with_sync(modelled(scenario), {m, staleness, localSteps, false});
        QString name = name_of(s);
        variants.push_back({std::move(name), std::move(s)});
    }
    return variants;
}

std::vector<RunComparer::Variant> RunComparer::precisions(const Scenario& scenario,
                                                          const std::vector<Precision>& formats) {
    std::vector<Variant> variants;
    for (Precision p : formats) {
        Scenario s = modelled(scenario);
        s.model.precision = p;
        validate(s);
        variants.push_back({QCoreApplication::translate("lockstep::app::RunComparer", "%1 model")
                                .arg(QString::fromLatin1(to_string(p))),
                            std::move(s)});
    }
    return variants;
}

std::vector<RunComparer::Variant>
RunComparer::wireFormats(const Scenario& scenario, const std::vector<WirePrecision>& formats) {
    std::vector<Variant> variants;
    for (WirePrecision w : formats) {
        Scenario s = modelled(scenario);
        s.comm_precision = w;
        validate(s);
        variants.push_back(
            {QCoreApplication::translate("lockstep::app::RunComparer", "%1 on the wire")
                 .arg(QString::fromLatin1(to_string(s.wire_precision()))),
             std::move(s)});
    }
    return variants;
}

RunComparer::RunComparer(QObject* parent)
    : QObject(parent)
    , job_(new BackgroundJob(this)) {}

RunComparer::~RunComparer() = default;

void RunComparer::request(std::vector<Variant> variants) {
    job_->start(
        [variants = std::move(variants)](const std::atomic<bool>& stop) {
            QList<Line> lines;
            for (const Variant& v : variants) {
                if (stop.load())
                    break;
                const RunResult r = run_scenario(v.scenario);
                Line line;
                line.name = v.name;
                for (const ProgressPoint& p : r.progress)
                    line.loss.append(QPointF(static_cast<double>(p.step), p.loss));
                line.total_s = r.metrics.total_time_s;
                line.waiting_s = r.metrics.waiting_s;
                line.final_loss = r.metrics.final_loss;
                line.bytes_per_step = r.metrics.steps_run > 0
                                          ? static_cast<double>(r.metrics.bytes_moved) /
                                                static_cast<double>(r.metrics.steps_run)
                                          : 0.0;
                line.skipped_steps = r.metrics.overflow_steps;
                lines.append(line);
            }
            return lines;
        },
        [this](QList<Line> lines) {
            lines_ = std::move(lines);
            Q_EMIT finished();
        },
        [this](const QString& error) { Q_EMIT failed(error); });
}

} // namespace lockstep::app
