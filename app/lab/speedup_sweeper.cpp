#include "speedup_sweeper.h"

#include "lockstep_views/speedup_view.h"

#include <utility>

namespace lockstep::app {

SpeedupSweeper::SpeedupSweeper(views::SpeedupView* view)
    : QObject(view)
    , view_(view)
    , job_(new BackgroundJob(this)) {
    debounce_.setSingleShot(true);
    debounce_.setInterval(kDebounceMs);
    connect(&debounce_, &QTimer::timeout, this, &SpeedupSweeper::start);
}

SpeedupSweeper::~SpeedupSweeper() = default;

void SpeedupSweeper::request(const Scenario& scenario, std::vector<int> workerCounts) {
    if (!view_)
        return;
    job_->cancel(); // the sweep running is not wanted any more
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

// The debounce has run out: sweep the latest request in the background.
void SpeedupSweeper::start() {
    if (overtaken())
        return; // the view was given points meanwhile
    job_->start(
        [scenario = pending_scenario_, counts = pending_counts_](const std::atomic<bool>&) {
            // Modelled times need no training: the quick path gives the same speedups.
            const auto work = scenario.clock == ClockKind::Modelled ? Work::TimesOnly : Work::Train;
            std::pair<std::vector<SweepPoint>, std::vector<SweepPoint>> points{
                sweep(scenario, counts, work), {}};
            // Buckets that overlap backward: the same sweep with them waiting for it, beside.
            if (scenario.gradients && scenario.gradients->bucket_kb > 0 &&
                scenario.gradients->overlap && !scenario.model_parallel()) {
                Scenario plain = scenario;
                plain.gradients->overlap = false;
                points.second = sweep(plain, counts, work);
            }
            return points;
        },
        [this](const std::pair<std::vector<SweepPoint>, std::vector<SweepPoint>>& points) {
            if (overtaken())
                return; // points given to the view meanwhile
            view_->setPoints(points.first, points.second);
            view_revision_ = view_->pointsRevision();
            Q_EMIT finished();
        },
        [this](const QString& error) {
            if (overtaken())
                return;
            view_->showSweepError(error);
            Q_EMIT failed(error);
        });
    Q_EMIT started();
}

} // namespace lockstep::app
