#include "mode_comparer.h"

#include "background.h"
#include "lockstep_views/names.h"
#include "runs/runs.h"

#include <QCoreApplication>
#include <QMetaObject>
#include <QThreadPool>

#include <exception>
#include <mutex>

namespace lockstep::app {

// Where a finished comparison is handed back; cleared under the mutex when the comparer goes.
struct ModeComparer::Mailbox {
    std::mutex mutex;
    ModeComparer* comparer = nullptr;
};

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
    , mailbox_(std::make_shared<Mailbox>()) {
    mailbox_->comparer = this;
}

ModeComparer::~ModeComparer() {
    std::lock_guard lock(mailbox_->mutex);
    mailbox_->comparer = nullptr;
}

void ModeComparer::request(const Scenario& scenario, const std::vector<SyncMode>& modes,
                           int staleness, int localSteps) {
    std::vector<Scenario> runs;
    Scenario modelled = scenario;
    modelled.clock = ClockKind::Modelled; // the same numbers on every machine, and fast
    for (SyncMode m : modes)
        runs.push_back(with_sync(modelled, {m, staleness, localSteps, false}));
    const std::uint64_t generation = ++generation_;
    computing_ = true;
    std::shared_ptr<Mailbox> mailbox = mailbox_;
    QThreadPool::globalInstance()->start([mailbox, generation, runs = std::move(runs)] {
        QList<Line> lines;
        QString error;
        try {
            run_beside_the_gui([&] {
                for (const Scenario& s : runs) {
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
            });
        } catch (const std::exception& e) {
            error = QString::fromUtf8(e.what());
        }
        std::lock_guard lock(mailbox->mutex);
        if (ModeComparer* comparer = mailbox->comparer)
            QMetaObject::invokeMethod(
                comparer,
                [comparer, generation, lines = std::move(lines), error] {
                    comparer->deliver(generation, lines, error);
                },
                Qt::QueuedConnection);
    });
}

void ModeComparer::deliver(std::uint64_t generation, const QList<Line>& lines,
                           const QString& error) {
    if (generation != generation_)
        return; // a newer request is running
    computing_ = false;
    if (!error.isEmpty()) {
        Q_EMIT failed(error);
        return;
    }
    lines_ = lines;
    Q_EMIT finished();
}

} // namespace lockstep::app
