#pragma once

#include "background.h"

#include "runs/runs.h"
#include "scenario/scenario.h"

#include <QObject>
#include <QPointer>
#include <QString>
#include <QTimer>

#include <cstdint>
#include <memory>
#include <vector>

namespace lockstep::views {
class SpeedupView;
}

namespace lockstep::app {

// Computes a Speedup view's points off the GUI thread: request() sweeps a scenario over worker
// counts as a BackgroundJob (background.h) once no newer request has come for kDebounceMs, so a
// slider can drive it; the points go to the view. The newest of a request and the view's own
// setPoints() wins: a sweep whose result is no longer wanted is dropped when it ends. Lives on
// the GUI thread; destroying it (or the view) during a sweep is safe.
class SpeedupSweeper : public QObject {
    Q_OBJECT

public:
    static constexpr int kDebounceMs = 150;

    // The view is not owned; the sweeper is its child.
    explicit SpeedupSweeper(views::SpeedupView* view);
    ~SpeedupSweeper() override;

    void request(const Scenario& scenario, std::vector<int> workerCounts);
    // True from a request until its points are shown (or it fails, or is overtaken).
    bool isComputing() const;

Q_SIGNALS:
    void started();
    void finished();
    void failed(const QString& message);

private:
    void start();
    bool overtaken() const; // the view shows points newer than the request

    QPointer<views::SpeedupView> view_;
    QTimer debounce_;
    Scenario pending_scenario_;
    std::vector<int> pending_counts_;
    std::uint64_t view_revision_ = 0; // the view's points when it was made
    BackgroundJob* job_ = nullptr;
};

} // namespace lockstep::app
