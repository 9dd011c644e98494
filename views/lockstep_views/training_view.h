#pragma once

#include "clocks/clock.h"
#include "data/data.h"
#include "lockstep_views/decision_boundary_plot.h"
#include "lockstep_views/session_view.h"
#include "model/model.h"

#include <QColor>
#include <QElapsedTimer>
#include <QImage>
#include <QList>
#include <QPoint>
#include <QPointF>
#include <QString>
#include <QWidget>

#include <memory>
#include <vector>

class QChart;
class QChartView;
class QLabel;
class QLineSeries;
class QScatterSeries;
class QTimer;
class QValueAxis;

namespace lockstep::views {

class TraceIndex;
class SeriesLegend;

// How training went, as the class watches it. Left: loss and accuracy per step from the trace's
// snapshots up to the playhead; as long as the replicas stay identical one mean-loss line, and
// once they differ one loss line per replica, so the drift is visible. Right: the decision
// boundary of a model handed in by the caller (the view never runs the engine): the class the
// model predicts over the input plane, paler where it is less sure, with the data on top.
class TrainingView : public QWidget, public SessionView {
    Q_OBJECT

public:
    // Cells per side of the decision-boundary image.
    static constexpr int kBoundaryCells = 160;
    // At most this many replica lines; with more workers, evenly spread ones are drawn.
    static constexpr int kMaxReplicaSeries = 8;

    explicit TrainingView(QWidget* parent = nullptr);

    // What the lab's session tells it (SessionView).
    QWidget* widget() override { return this; }
    // A run's start takes away the model, and the comparison of the scenario before; the loss
    // charts follow the trace a few times a second (each rebuild costs milliseconds), and
    // wholly at the run's end, with its model.
    void runStarted(const TraceIndex& index, const Scenario& scenario) override;
    void traceChanged() override;
    void playheadMoved(Ticks t) override { setPlayhead(t); }
    void runFinished(const FinishedRun& run) override;
    ~TrainingView() override;

    // Not owned; may be nullptr. Call refresh() after appending to the index.
    void setTrace(const TraceIndex* trace);
    void setPlayhead(Ticks t);
    Ticks playhead() const { return playhead_; }
    void refresh();

    // The loss of the run as it went before the last change at the playhead (its steps from the
    // branch on), drawn as a broad faint line under the new one so the class sees what the
    // change did; `name` says what it is. An empty list takes it away.
    void setBranchedLoss(QList<QPointF> points, const QString& name);
    QList<QPointF> branchedLossPoints() const;

    // Runs set beside the one playing, e.g. the same scenario under each way of agreeing: one
    // loss line per run (loss after each step), each in its own colour and named in the legend.
    // The lines stay until replaced; an empty list takes them away.
    struct ComparisonLine {
        QString name;
        QList<QPointF> points; // (step, loss)
    };
    void setComparison(const QList<ComparisonLine>& lines);
    int comparisonCount() const { return static_cast<int>(comparison_.size()); }
    QList<QPointF> comparisonPoints(int line) const;
    QString comparisonName(int line) const;

    // The model whose decision boundary is drawn, e.g. worker 0's parameters after a run. Only
    // classifiers of 2-D data get a map; anything else shows a short explanation instead.
    void setModel(const ModelShape& shape, std::vector<double> parameters,
                  std::shared_ptr<const Dataset> dataset);
    void clearModel();

    // View-model, for tests and assistive technology.
    int seriesCount() const; // loss lines drawn
    QList<QPointF> lossPoints(int series) const;
    QString lossSeriesName(int series) const;
    QList<QPointF> accuracyPoints() const; // accuracy in percent
    // The steps up to the playhead whose summed gradient overflowed its wire format and were
    // skipped (nothing applied), each at (step, loss): marked on the loss line.
    QList<QPointF> skippedPoints() const;
    // A run that started over (a crash without a checkpoint, or back to an older one) is drawn
    // as a new segment from the step it resumed at; the lines of the attempts before it stay,
    // dashed and faint: the work lost. lossPoints() are the current attempt's.
    int lostSegmentCount() const { return static_cast<int>(lostSeries_.size()); }
    QList<QPointF> lostSegmentPoints(int segment) const;
    bool showsReplicas() const { return replicaMode_; }
    QString summary() const; // "step 120, loss 0.41, accuracy 86%, replicas identical"

    QImage boundaryImage() const; // null when no map is shown
    // The image cell under an input point, or (-1, -1) outside the mapped area.
    QPoint boundaryCellAt(QPointF input) const;
    // The model's class for an input point (arg-max of its outputs), or -1 without a model.
    int predictedClassAt(QPointF input) const;
    QString boundaryMessage() const; // why there is no map; empty when there is one

protected:
    void changeEvent(QEvent* event) override;
    // Short of height (a projector in presentation mode): the map's caption gives way.
    void resizeEvent(QResizeEvent* event) override;

private:
    void retranslate();
    QString lossSeriesTitle(int series) const;
    void updateSeries(bool force);
    void rebuildSeries(int count, bool replicas);
    void applyStyle();
    void updateLegend();
    void updateBoundaryCaption();
    bool captionFits() const; // tall enough for the map's caption under it

    const TraceIndex* trace_ = nullptr;
    Ticks playhead_ = 0;
    QElapsedTimer refreshed_;     // when traceChanged() last rebuilt the loss charts
    QTimer* held_back_ = nullptr; // the rebuild traceChanged() held back, still to come
    std::size_t shownSnapshots_ = 0;
    std::size_t knownSnapshots_ = 0;
    bool replicaMode_ = false;
    bool accuracyShown_ = true;
    std::vector<int> replicaWorkers_; // the worker each replica line belongs to

    QChart* chart_ = nullptr;
    QChartView* chartView_ = nullptr;
    QValueAxis* stepAxis_ = nullptr;
    QValueAxis* lossAxis_ = nullptr;
    QValueAxis* accuracyAxis_ = nullptr;
    QList<QLineSeries*> lossSeries_;
    QList<QLineSeries*> lostSeries_; // earlier attempts' lines, per attempt then per line
    QLineSeries* accuracySeries_ = nullptr;
    QLineSeries* branchedSeries_ = nullptr;
    QScatterSeries* skippedSeries_ = nullptr; // steps skipped on an overflow
    QList<QLineSeries*> comparison_; // setComparison()'s lines // the loss before the last branch
    QLabel* header_ = nullptr;
    SeriesLegend* legend_ = nullptr;

    QLabel* boundaryTitle_ = nullptr;
    DecisionBoundaryPlot* boundary_ = nullptr;
    SeriesLegend* classLegend_ = nullptr;
    QLabel* boundaryCaption_ = nullptr;
};

} // namespace lockstep::views
