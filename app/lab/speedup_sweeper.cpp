#include "speedup_sweeper.h"

#include "background.h"
#include "lockstep_views/speedup_view.h"

#include <QMetaObject>
#include <QThreadPool>

#include <exception>
#include <mutex>

namespace lockstep::app {

// Where a finished sweep is handed back. The sweeper clears `sweeper` under the mutex when it is
// destroyed, so a pool thread either posts to a live sweeper or drops its result.
struct SpeedupSweeper::Mailbox {
    std::mutex mutex;
    SpeedupSweeper* sweeper = nullptr;
};

SpeedupSweeper::SpeedupSweeper(views::SpeedupView* view)
    : QObject(view)
    , view_(view)
    , mailbox_(std::make_shared<Mailbox>()) {
    mailbox_->sweeper = this;
    debounce_.setSingleShot(true);
    debounce_.setInterval(kDebounceMs);
    connect(&debounce_, &QTimer::timeout, this, &SpeedupSweeper::start);
}

SpeedupSweeper::~SpeedupSweeper() {
    std::lock_guard lock(mailbox_->mutex);
    mailbox_->sweeper = nullptr;
}

void SpeedupSweeper::request(const Scenario& scenario, std::vector<int> workerCounts) {
    if (!view_)
        return;
    ++generation_;
    pending_scenario_ = scenario;
    pending_counts_ = std::move(workerCounts);
    view_->setComputing(true);
    view_revision_ = view_->pointsRevision();
    debounce_.start();
}

bool SpeedupSweeper::isComputing() const {
    return view_ && view_->isComputing() && !overtaken();
}

bool SpeedupSweeper::overtaken() const {
    return !view_ || view_->pointsRevision() != view_revision_;
}

// The debounce has run out: sweep the latest request on a pool thread. The result comes back as a
// queued call on the GUI thread, tagged with the request it answers.
void SpeedupSweeper::start() {
    if (overtaken())
        return; // the view was given points meanwhile
    const std::uint64_t generation = generation_;
    std::shared_ptr<Mailbox> mailbox = mailbox_;
    QThreadPool::globalInstance()->start([mailbox, generation, scenario = pending_scenario_,
                                          counts = pending_counts_] {
        std::vector<SweepPoint> points;
        QString error;
        try {
            // Modelled times need no training: the quick path gives the same speedups.
            const auto work = scenario.clock == ClockKind::Modelled ? Work::TimesOnly : Work::Train;
            points = run_beside_the_gui([&] { return sweep(scenario, counts, work); });
        } catch (const std::exception& e) {
            error = QString::fromUtf8(e.what());
        }
        std::lock_guard lock(mailbox->mutex);
        if (SpeedupSweeper* sweeper = mailbox->sweeper) {
            QMetaObject::invokeMethod(
                sweeper,
                [sweeper, generation, points = std::move(points), error] {
                    sweeper->deliver(generation, points, error);
                },
                Qt::QueuedConnection);
        }
    });
    Q_EMIT started();
}

void SpeedupSweeper::deliver(std::uint64_t generation, const std::vector<SweepPoint>& points,
                             const QString& error) {
    if (generation != generation_ || overtaken())
        return; // a newer request, or points given to the view, came in meanwhile
    if (!error.isEmpty()) {
        view_->showSweepError(error);
        Q_EMIT failed(error);
        return;
    }
    view_->setPoints(points);
    view_revision_ = view_->pointsRevision();
    Q_EMIT finished();
}

} // namespace lockstep::app
