#pragma once

#include "clocks/clock.h"
#include "data/data.h"
#include "model/model.h"
#include "reports/metrics.h"
#include "scenario/scenario.h"

#include <QString>

#include <memory>
#include <vector>

class QWidget;

namespace lockstep::views {

class TraceIndex;

// A run whose whole trace is in the index: what a view may draw of its end.
struct FinishedRun {
    QString label;      // the run among the others: "straggler, 4 workers, ring"
    bool live = true;   // false for a recording played back (its metrics are not this machine's)
    RunMetrics metrics; // as `lockstep-cli run` reports them (live runs only)
    ModelShape model;
    std::vector<double> parameters;      // worker 0's at the end (empty: none to draw)
    std::shared_ptr<const Dataset> data; // what it trained on (null: not loadable here)
};

// What the lab's session tells a view, the whole of it: a run started, its trace grew or
// branched, the playhead moved, the running settings changed, the run finished. The session
// drives every view it is given (LabSession::addView), in the order given; a view reads the
// index it was shown and paints, and never runs the engine. To add a view to the lab, write one
// file in views/ with a class that implements this and a make_<name>_view() that builds it, and
// list it once in view_catalog.h.
class SessionView {
public:
    virtual ~SessionView() = default;
    virtual QWidget* widget() = 0; // the view itself: the window takes it over and deletes it
    // A run of `scenario` started; `index` (empty, laid out for it) holds its trace from now on
    // and outlives the view's use of it.
    virtual void runStarted(const TraceIndex& index, const Scenario& scenario) = 0;
    // The index changed: new steps at its end, or a branch replaced its end.
    virtual void traceChanged() = 0;
    virtual void playheadMoved(Ticks t) = 0;
    // The running settings changed at the playhead (a control, a link, an undo).
    virtual void runRetuned(const Scenario& /*running*/) {}
    // The whole run is in the index.
    virtual void runFinished(const FinishedRun& /*run*/) {}
};

} // namespace lockstep::views
