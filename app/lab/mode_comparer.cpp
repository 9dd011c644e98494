#include "mode_comparer.h"

#include "lockstep_views/names.h"
#include "runs/runs.h"

#include <QCoreApplication>

namespace lockstep::app {

namespace {

QString name_of(const Scenario& s) {
    switch (s.sync_mode()) {
    case SyncMode::Ssp:
        return QCoreApplication::translate("lockstep::app::ModeComparer", "ssp, S = %1")
            .arg(s.sync->staleness);
    case SyncMode::Local:
        return QCoreApplication::translate("lockstep::app::ModeComparer",
                                           "local SGD, every %1 steps")
            .arg(s.sync->local_steps);
    case SyncMode::Async:
        return s.sync->staleness_aware_lr
                   ? QCoreApplication::translate("lockstep::app::ModeComparer", "async, lr / τ")
                   : views::sync_name(SyncMode::Async);
    case SyncMode::Bsp:
        break;
    }
    return views::sync_name(SyncMode::Bsp);
}

} // namespace

ModeComparer::ModeComparer(QObject* parent)
    : QObject(parent)
    , job_(new BackgroundJob(this)) {}

ModeComparer::~ModeComparer() = default;

void ModeComparer::request(const Scenario& scenario, const std::vector<SyncMode>& modes,
                           int staleness, int localSteps) {
    std::vector<Scenario> runs;
    Scenario modelled = scenario;
    modelled.clock = ClockKind::Modelled; // the same numbers on every machine, and fast
    for (SyncMode m : modes)
        runs.push_back(with_sync(modelled, {m, staleness, localSteps, false}));
    job_->start(
        [runs = std::move(runs)](const std::atomic<bool>& stop) {
            QList<Line> lines;
            for (const Scenario& s : runs) {
                if (stop.load())
                    break;
                const RunResult r = run_scenario(s);
                Line line;
                line.mode = s.sync_mode();
                line.name = name_of(s);
                for (const ProgressPoint& p : r.progress)
                    line.loss.append(QPointF(static_cast<double>(p.step), p.loss));
                line.total_s = r.metrics.total_time_s;
                line.waiting_s = r.metrics.waiting_s;
                line.final_loss = r.metrics.final_loss;
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
