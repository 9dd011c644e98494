#pragma once

#include "clocks/clock.h"
#include "lockstep_views/session_view.h"
#include "lockstep_views/trace_index.h"
#include "trace/trace.h"

#include <QImage>
#include <QPair>
#include <QPointF>
#include <QRectF>
#include <QString>
#include <QWidget>

#include <cstddef>

namespace lockstep::views {

// A Gantt chart of the run, one lane per worker: what each worker did, up to the playhead.
// Events that start after the playhead are not drawn at all, and an event the playhead is inside
// is drawn up to the playhead, so the chart shows exactly what has happened so far. Waiting is
// drawn full lane height in hatched vermillion so that it stands out; the other activities sit a
// little inside their lane, with sends in its upper half and receives in its lower half.
// Mouse wheel and + / - zoom, dragging and the arrow keys pan, Home fits the whole run; a click on
// the time axis (or Shift+click anywhere) asks for the playhead to move there.
class TimelineView : public QWidget, public SessionView {
    Q_OBJECT

public:
    explicit TimelineView(QWidget* parent = nullptr);

    // What the lab's session tells it (SessionView).
    QWidget* widget() override { return this; }
    void runStarted(const TraceIndex& index, const Scenario&) override { setTrace(&index); }
    void traceChanged() override { refresh(); }
    void playheadMoved(Ticks t) override { setPlayhead(t); }

    // Not owned; may be nullptr. Call refresh() after appending to the index.
    void setTrace(const TraceIndex* index);
    const TraceIndex* trace() const { return index_; }
    void refresh();

    void setPlayhead(Ticks t);
    Ticks playhead() const { return playhead_; }

    void setVisibleRange(Ticks from, Ticks to);
    QPair<Ticks, Ticks> visibleRange() const { return {from_, to_}; }
    // Shows the whole run, and keeps showing it as the run grows, until the next zoom or pan.
    void fitAll();
    // When on, the visible window scrolls to keep the playhead in view.
    void setFollowPlayhead(bool follow);
    bool followPlayhead() const { return follow_; }

    // Where the run was branched (an intervention at the playhead): a dashed line at `at` with
    // its label ("step 23: worker 2 crashed"). A change to one worker (`lane` >= 0) is marked in
    // that worker's lane alone; a change to the whole run (`lane` -1) across every lane, its
    // label on the row of step numbers above them.
    struct BranchMark {
        Ticks at = 0;
        QString label;
        int lane = -1;
    };
    void setBranchMarks(QList<BranchMark> marks);
    const QList<BranchMark>& branchMarks() const { return marks_; }

    // View-model, in widget coordinates.
    QRectF laneRect(int worker) const;
    double xForTime(Ticks t) const;
    Ticks timeForX(double x) const;
    // Where the event is drawn when the playhead is past its end.
    QRectF eventRect(const TraceEvent& event) const;
    // The drawn event under `pos` (the most telling one when several meet), or nullptr. The
    // pointer stays valid until the index changes.
    const TraceEvent* eventAt(QPointF pos) const;
    // The area below the lanes where a click moves the playhead.
    QRectF axisRect() const;
    // While a recovery is under way at the playhead, what it is doing (recovery_caption()), shown
    // in a box at the foot of the lanes; empty otherwise.
    QString recoveryText() const;
    // Where a branch mark's label is drawn (empty when it is out of view), for tests.
    QRectF branchMarkLabelRect(int mark) const;
    // The tooltip shown over an event: kind, worker, step, exact times, bytes and peer.
    static QString describe(const TraceEvent& event);

    QSize sizeHint() const override;
    QSize minimumSizeHint() const override;

Q_SIGNALS:
    void playheadRequested(lockstep::Ticks t);
    void visibleRangeChanged(lockstep::Ticks from, lockstep::Ticks to);

protected:
    bool event(QEvent* event) override;
    void paintEvent(QPaintEvent* event) override;
    void wheelEvent(QWheelEvent* event) override;
    void mousePressEvent(QMouseEvent* event) override;
    void mouseMoveEvent(QMouseEvent* event) override;
    void mouseReleaseEvent(QMouseEvent* event) override;
    void keyPressEvent(QKeyEvent* event) override;
    void changeEvent(QEvent* event) override;

private:
    // Where everything goes, from the widget's size, font and number of workers.
    struct Layout {
        QSize size;
        int workers = 0;
        double line = 0.0;   // the font's line height: every size derives from it
        double ascent = 0.0; // for placing text by its baseline
        double descent = 0.0;
        double tick_spacing = 0.0; // the least distance between two time labels
        double digit_width = 0.0;
        double step_prefix_width = 0.0; // "step " before the number
        QRectF legend;                  // colour key along the top
        QRectF steps;                   // "step N" labels above the lanes
        QRectF plot;                    // the lanes
        QRectF axis;                    // ticks and time labels below the lanes
        double gutter = 0.0;
        double lane_pitch = 0.0;

        QRectF lane(int worker) const;
    };

    void retranslate();
    int workers() const;
    const Layout& layout() const;
    Ticks dataEnd() const;
    void zoomAround(double x, double factor);
    void panByPixels(double dx);
    void applyRange(Ticks from, Ticks to);
    void keepPlayheadInView();
    void updateAccessibleDescription();
    QRectF playheadLabelRect(const Layout& l, QString* label = nullptr) const;

    void paintLegend(QPainter& painter, const Layout& l) const;
    void paintLanes(QPainter& painter, const Layout& l) const;
    void renderEventLayer(const Layout& l, qreal dpr) const;
    void paintEvents(QPainter& painter, const Layout& l) const;
    void paintStaleness(QPainter& painter, const Layout& l) const;
    void paintBuckets(QPainter& painter, const Layout& l) const; // timeline_buckets.cpp
    void paintHalves(QPainter& painter, const Layout& l) const;  // timeline_halves.cpp
    void paintCheckpointKinds(QPainter& painter, const Layout& l) const;
    void paintSteps(QPainter& painter, const Layout& l) const;
    void paintAxis(QPainter& painter, const Layout& l) const;
    void paintPlayhead(QPainter& painter, const Layout& l) const;
    void paintBranchMarks(QPainter& painter, const Layout& l) const;
    QList<QRectF> branchMarkBoxes(const Layout& l) const;
    QRectF recoveryRect(const Layout& l, const QString& caption) const;
    void paintRecovery(QPainter& painter, const Layout& l) const;

    // The visible events drawn into an image, kept while only the playhead moves.
    struct EventLayer {
        bool valid = false;
        const TraceIndex* index = nullptr;
        std::uint64_t revision = 0;
        Ticks from = 0;
        Ticks to = 0;
        QRectF plot;
        double pitch = 0.0;
        qreal dpr = 1.0;
        QImage image;
    };

    mutable Layout layout_;
    mutable EventLayer event_layer_;
    mutable bool layout_valid_ = false;
    const TraceIndex* index_ = nullptr;
    QList<BranchMark> marks_;
    Ticks playhead_ = 0;
    Ticks from_ = 0;
    Ticks to_ = kTicksPerSecond;
    bool follow_ = false;
    bool fitted_ = true; // the window still shows the whole run: keep it so as the run grows

    enum class Drag { None, Pan, Scrub };
    Drag drag_ = Drag::None;
    double drag_x_ = 0.0;
    Ticks drag_from_ = 0;
};

} // namespace lockstep::views
