#pragma once

#include "lockstep_views/trace_index.h"

#include <QList>
#include <QPair>
#include <QPointF>
#include <QRectF>
#include <QString>
#include <QWidget>

#include <utility>
#include <vector>

class QMenu;
class QPainter;

namespace lockstep::views {

// The cluster at the playhead: every worker as a disc coloured, patterned and labelled by what
// the trace says it is doing, laid out by the collective's topology, with the messages in flight
// on its links and whether the replicas agreed after the last finished step. Clicking a worker
// offers faults to inject. Draws only what the TraceIndex answers; holds no engine state.
class ClusterView : public QWidget {
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

    // The index is not owned and may be nullptr. Call again after the index is reset.
    void setTrace(const TraceIndex* index);
    const TraceIndex* trace() const { return index_; }
    void setPlayhead(Ticks t);
    Ticks playhead() const { return playhead_; }
    // Redraws after the index has grown (only the new events are looked at).
    void refresh();

    QList<WorkerGlyph> glyphs() const;
    QList<QPair<PacketInFlight, QPointF>> packetGlyphs() const;
    // The worker drawn at `position`, or -1.
    int workerAt(QPointF position) const;
    // The fault menu for one worker (owned by this widget, deleted when closed).
    QMenu* buildWorkerMenu(int worker);

    QSize sizeHint() const override;
    QSize minimumSizeHint() const override;

Q_SIGNALS:
    // `action` is one of "slow", "pause", "crash", "crash-checkpoint".
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

private:
    // Where everything goes for one widget size, font, worker count and topology.
    struct Scene {
        QSize size;
        int workers = -1;
        Algorithm algorithm = Algorithm::Ring;
        qreal line = 0.0; // height of a line in the widget's font
        QRectF header, area, legend;
        std::vector<QPointF> centres;
        std::vector<std::pair<int, int>> links; // drawn as src -> dst
        double radius = 0.0;
        bool labels = false;            // activity label and gradient bar under each disc
        bool numbers = false;           // worker number inside the disc, symbol badge on its rim
        std::vector<QRectF> labelRects; // per worker, when labels are drawn
        std::vector<QPointF> badges;    // centre of each worker's letter badge, when drawn
        std::vector<QRectF> legendItems;
    };

    const Scene& scene() const;
    void flowLegend(Scene& s, const QRectF& inner, bool withBar) const;
    void placeWorkers(Scene& s, bool withLabels) const;
    int placeLabels(Scene& s, qreal blockWidth) const; // workers left without a free spot
    static QPointF linkEnd(const Scene& s, int src, int dst, double progress);
    static qreal badgeRadius(const Scene& s);
    static std::pair<qreal, qreal> packetRadii(const Scene& s);
    void updateStates() const;
    QString describe() const;
    void openMenu(int worker, QPoint globalPosition);

    void drawHeader(QPainter& p, const Scene& s) const;
    void drawLinks(QPainter& p, const Scene& s) const;
    void drawWorkers(QPainter& p, const Scene& s) const;
    void drawPackets(QPainter& p, const Scene& s) const;
    void drawLegend(QPainter& p, const Scene& s) const;

    const TraceIndex* index_ = nullptr;
    Ticks playhead_ = 0;
    int focusWorker_ = 0;
    mutable Scene scene_;
    mutable bool sceneValid_ = false;
    // The workers' state at the playhead, refreshed before every paint and query.
    mutable std::vector<WorkerActivity> activities_;
    mutable std::vector<double> gradients_;
    mutable std::int64_t step_ = 0;
    // Packet sizes are drawn relative to the largest message seen so far in the trace.
    mutable std::size_t bytesScanned_ = 0;
    mutable std::int64_t maxBytes_ = 0;
};

} // namespace lockstep::views
