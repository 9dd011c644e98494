#pragma once

#include "lockstep_views/palette.h"
#include "lockstep_views/trace_index.h"

#include <QFont>
#include <QImage>
#include <QList>
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
    // The worker the arrow keys have chosen: Enter or the menu key opens its faults.
    int chosenWorker() const { return focusWorker_; }
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
    // Where everything goes, and in which fonts and styles, for one widget size, font, palette,
    // worker count and topology.
    struct Scene {
        QSize size;
        int workers = -1;
        Algorithm algorithm = Algorithm::Ring;
        qreal line = 0.0; // height of a line in the widget's font
        QRectF header, title, subtitle, area, legend;
        QRectF verdictRow; // when the header is too narrow for title and verdict side by side
        std::vector<QPointF> centres;
        std::vector<std::pair<int, int>> links; // drawn as src -> dst
        double radius = 0.0;
        bool labels = false;            // activity label and gradient bar under each disc
        bool numbers = false;           // worker number inside the disc, symbol badge on its rim
        std::vector<QRectF> labelRects; // per worker, when labels are drawn
        std::vector<QPointF> badges;    // centre of each worker's letter badge, when drawn
        std::vector<QRectF> legendItems;
        // Too many workers on a circle for discs that carry a number: each worker is a slice of
        // a band (the parameter server a disc in its middle), numbered every few slices.
        bool dense = false;
        QPointF bandCentre;
        qreal bandInner = 0.0, bandOuter = 0.0, hubRadius = 0.0;
        std::vector<QPainterPath> slices;                    // per worker, in dense mode
        std::vector<std::pair<int, QPointF>> bandTicks;      // worker number, where it is written
        std::array<ActivityStyle, 9> styles;                 // by WorkerActivity
        std::array<qreal, kWorkerActivityCount> labelWidths; // of each style's label
        QFont titleFont, chipFont, numberFont, badgeFont, symbolFont, emptyFont;
    };

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

    const Scene& scene() const;
    void flowLegend(Scene& s, const QRectF& inner, bool withBar) const;
    void placeWorkers(Scene& s, bool withLabels) const;
    void placeBand(Scene& s) const;
    int placeLabels(Scene& s, qreal blockWidth) const; // workers left without a free spot
    static QPointF linkEnd(const Scene& s, int src, int dst, double progress);
    static qreal discRadius(const Scene& s, int worker);
    static qreal badgeRadius(const Scene& s);
    static std::pair<qreal, qreal> packetRadii(const Scene& s);
    void updateStates() const;
    int verdict() const; // 0 before the first step, 1 replicas aligned, 2 replicas differ
    QString describe() const;
    void openMenu(int worker, QPoint globalPosition);

    void makePictures(const Scene& s, qreal ratio) const;
    const Sprite& verdictPicture(const Scene& s, int verdict) const;
    const Sprite& workerPicture(const Scene& s, int worker, WorkerActivity activity) const;

    void drawStill(QPainter& p, const Scene& s) const;
    void drawTitle(QPainter& p, const Scene& s) const;
    void drawVerdict(QPainter& p, const Scene& s, int verdict) const;
    void drawLinks(QPainter& p, const Scene& s) const;
    void drawBandTicks(QPainter& p, const Scene& s) const;
    void drawWorker(QPainter& p, const Scene& s, int worker, WorkerActivity activity,
                    bool focused) const;
    void drawWorkers(QPainter& p, const Scene& s, qreal ratio) const;
    void drawPackets(QPainter& p, const Scene& s) const;
    void drawLegend(QPainter& p, const Scene& s) const;

    const TraceIndex* index_ = nullptr;
    Ticks playhead_ = 0;
    int focusWorker_ = 0;
    mutable Scene scene_;
    mutable bool sceneValid_ = false;
    mutable Pictures pictures_;
    // The workers' state at the playhead, refreshed before every paint and query.
    mutable std::vector<WorkerActivity> activities_;
    mutable std::vector<double> gradients_;
    mutable std::int64_t step_ = 0;
    // Packet sizes are drawn relative to the largest message seen so far in the trace.
    mutable std::size_t bytesScanned_ = 0;
    mutable std::int64_t maxBytes_ = 0;
};

} // namespace lockstep::views
