#pragma once

#include "lockstep_views/cluster_layout.h"
#include "lockstep_views/palette.h"
#include "lockstep_views/session_view.h"
#include "lockstep_views/trace_index.h"

#include <QFont>
#include <QImage>
#include <QList>
#include <QMap>
#include <QPainterPath>
#include <QPair>
#include <QPointF>
#include <QRectF>
#include <QString>
#include <QWidget>

#include <array>
#include <optional>
#include <utility>
#include <vector>

class QMenu;
class QPainter;

namespace lockstep::views {

// The cluster at the playhead: every worker as a disc coloured, patterned and labelled by what
// the trace says it is doing, laid out by the collective's topology, with the messages in flight
// on its links and whether the replicas agreed after the last finished step. Clicking a worker
// offers faults to inject. Draws only what the TraceIndex answers; holds no engine state. Where
// things go is ClusterScene's (cluster_layout.h), how they look ClusterPainter's
// (cluster_painter.h); the widget keeps the pictures, the state at the playhead and the input.
// One entry of a worker's menu: the change's name ("slow"), its words ("Slow down 3×"), and why
// this run cannot take it (empty when it can).
struct WorkerAction {
    QString id;
    QString text;
    QString unavailable;
};

class ClusterView : public QWidget, public SessionView {
    Q_OBJECT
public:
    // One worker as drawn, in widget coordinates for the current size and playhead.
    struct WorkerGlyph {
        int worker = 0;
        QPointF centre;
        double radius = 0.0;
        WorkerActivity activity = WorkerActivity::Idle;
        double gradient = 0.0; // the first gradient entry of its latest finished compute/update
    };

    explicit ClusterView(QWidget* parent = nullptr);

    // What the lab's session tells it (SessionView).
    QWidget* widget() override { return this; }
    void runStarted(const TraceIndex& index, const Scenario& scenario) override {
        setParallelism(scenario.parallelism.value_or(ParallelismConfig{}));
        setWireFormat(scenario.wire_precision());
        setTrace(&index);
    }
    void traceChanged() override { refresh(); }
    void playheadMoved(Ticks t) override { setPlayhead(t); }

    // The index is not owned and may be nullptr. Call again after the index is reset.
    void setTrace(const TraceIndex* index);
    const TraceIndex* trace() const { return index_; }
    // How the run spreads its model: a pipeline's stages are drawn in a row joined in order, a
    // model-parallel run says so in the subtitle and has no replicas to be aligned.
    void setParallelism(const ParallelismConfig& parallelism);
    // The subtitle's words after the worker count, for tests and the accessible description.
    QString topologyText() const;
    void setPlayhead(Ticks t);
    Ticks playhead() const { return playhead_; }
    // Redraws after the index has grown (only the new events are looked at).
    void refresh();

    QList<WorkerGlyph> glyphs() const;
    QList<QPair<PacketInFlight, QPointF>> packetGlyphs() const;
    // The worker drawn at `position`, or -1.
    int workerAt(QPointF position) const;
    // The worker the arrow keys have chosen: Enter or the menu key opens its faults.
    int chosenWorker() const { return focusWorker_; }
    // The fault menu for one worker (owned by this widget, deleted when closed).
    QMenu* buildWorkerMenu(int worker);
    // What the menu offers for this run, in order (the lab gives the kinds of
    // failures/intervention.h); an entry the run cannot take is greyed, its reason as a tip.
    void setWorkerMenu(QList<WorkerAction> menu);

    QSize sizeHint() const override;
    QSize minimumSizeHint() const override;

Q_SIGNALS:
    // `action` is a fault kind's id from the menu (failures/intervention.h): "slow", "pause"...
    void workerActionRequested(int worker, const QString& action);

protected:
    void paintEvent(QPaintEvent* event) override;
    void resizeEvent(QResizeEvent* event) override;
    void changeEvent(QEvent* event) override;
    bool event(QEvent* event) override;
    void mousePressEvent(QMouseEvent* event) override;
    void mouseMoveEvent(QMouseEvent* event) override;
    void contextMenuEvent(QContextMenuEvent* event) override;
    void keyPressEvent(QKeyEvent* event) override;

    // The format the gradients travel in, named in the subtitle unless it is float64.
    void setWireFormat(WirePrecision wire);

private:
    ParallelismConfig parallelism_;
    QString wire_; // "float16 on the wire", or empty
    void drawRecovery(QPainter& p, const ClusterScene& s) const;
    QList<WorkerAction> menu_;
    // Part of the view painted once into a transparent image on the device pixel grid: drawn
    // with its top-left corner at `at` (device pixels), it lands where painting it directly would.
    struct Sprite {
        QImage image;
        QPoint at;
    };
    // What does not change with the playhead, painted at one device pixel ratio: made again with
    // the scene (size, font, palette, trace), the verdicts and workers on first use.
    struct Pictures {
        qreal ratio = 0.0;                             // 0 until made
        Sprite still;                                  // background, subtitle, links and legend
        std::array<std::optional<Sprite>, 3> verdicts; // by verdict()
        // By worker and activity (every activity, failed included).
        std::vector<std::array<std::optional<Sprite>, kWorkerActivityCount>> workers;
    };

    void retranslate();
    const ClusterScene& scene() const;
    void updateStates() const;
    int verdict() const; // 0 before the first step, 1 replicas aligned, 2 replicas differ
    QString describe() const;
    void openMenu(int worker, QPoint globalPosition);

    void makePictures(const ClusterScene& s, qreal ratio) const;
    const Sprite& verdictPicture(const ClusterScene& s, int verdict) const;
    const Sprite& workerPicture(const ClusterScene& s, int worker, WorkerActivity activity) const;
    void drawWorkers(QPainter& p, const ClusterScene& s, qreal ratio) const;

    const TraceIndex* index_ = nullptr;
    Ticks playhead_ = 0;
    int focusWorker_ = 0;
    mutable ClusterScene scene_;
    mutable bool sceneValid_ = false;
    mutable Pictures pictures_;
    // The workers' state at the playhead, refreshed before every paint and query.
    mutable std::vector<WorkerActivity> activities_;
    mutable std::vector<double> gradients_;
    mutable std::int64_t step_ = 0;
    std::int64_t describedStep_ = -1; // the step the accessible description tells of
    // Packet sizes are drawn relative to the largest message seen so far in the trace.
    mutable std::size_t bytesScanned_ = 0;
    mutable std::int64_t maxBytes_ = 0;
};

} // namespace lockstep::views
