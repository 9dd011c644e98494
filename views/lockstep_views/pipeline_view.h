#pragma once

#include "clocks/clock.h"
#include "lockstep_views/session_view.h"
#include "lockstep_views/trace_index.h"
#include "scenario/parallelism.h"
#include "trace/trace.h"

#include <QFont>
#include <QRectF>
#include <QString>
#include <QWidget>

class QPushButton;

#include <cstddef>
#include <cstdint>
#include <vector>

namespace lockstep::views {

// One box of the grid: a micro-batch's forward or backward pass, an idle stretch (bubble) or the
// optimizer's update, on one lane.
struct PipelineBox {
    int lane = 0;
    EventKind kind = EventKind::Forward; // Forward, Backward, Bubble or Update
    int microbatch = -1;
    Ticks start = 0;
    Ticks end = 0;
    QString label; // "F0", "B3", "U"; empty for a bubble
};

// What crossed the boundary between lane `lane` and lane `lane + 1` in the step.
struct PipelineBoundary {
    int lane = 0;
    std::int64_t activation_bytes = 0; // forward: lane -> lane + 1
    std::int64_t gradient_bytes = 0;   // backward: lane + 1 -> lane
};

// One step of a pipeline, read from its trace: rows are lanes (stages), time runs along x. The
// boxes are the step's events; the figures are the engine's report of the step (its snapshot's
// PipelineStepReport), not counted here.
struct PipelineGrid {
    std::int64_t step = -1; // -1: nothing to show
    int lanes = 0;
    Ticks start = 0;                  // the step's first event starts
    Ticks end = 0;                    // its last one ends
    std::vector<PipelineBox> boxes;   // passes and updates, per lane in time order
    std::vector<PipelineBox> bubbles; // idle stretches, per lane in time order
    std::vector<PipelineBoundary> boundaries;
    bool finished = false;          // the step's snapshot has arrived
    bool reported = false;          // ... with a pipeline report (a pipeline or hybrid run)
    int stages = 0;                 // P, as reported
    int microbatches = 0;           // M, as reported
    double bubble_fraction = 0.0;   // reported: idle lane-time / (lanes x step time)
    std::vector<int> peak_inflight; // reported, per lane: most micro-batches held at once
    bool empty() const { return step < 0; }
    // The labels of one lane's passes in order ("F0", "F1", ..., "B0", ...), updates left out.
    std::vector<QString> passes(int lane) const;
    // The bubbles' count on a lane.
    int bubbleCount(int lane) const;
};

// The step at the playhead as a pipeline diagram: one row per stage, one box per micro-batch's
// forward (F0, F1, ...) and backward (B0, ...) pass, bubbles hatched, the bytes crossing each
// stage boundary written between the rows, and the step's bubble fraction and each stage's peak
// of micro-batches in flight as text. Boxes that start after the playhead are drawn as outlines,
// so the diagram fills in as the step plays. Reads the trace only.
class PipelineView : public QWidget, public SessionView {
    Q_OBJECT

public:
    explicit PipelineView(QWidget* parent = nullptr);

    // What the lab's session tells it (SessionView).
    QWidget* widget() override { return this; }
    void runStarted(const TraceIndex& index, const Scenario& scenario) override {
        setStages(scenario.parallelism ? scenario.parallelism->stages : 0);
        setParallelism(scenario.parallelism_mode());
        setIndex(&index);
    }
    void traceChanged() override { refresh(); }
    void playheadMoved(Ticks t) override { setPlayhead(t); }

    // Not owned; may be nullptr. Call refresh() after appending to the index.
    void setIndex(const TraceIndex* index);
    const TraceIndex* index() const { return index_; }
    void refresh();
    void setPlayhead(Ticks t);
    Ticks playhead() const { return playhead_; }
    // Stages per pipeline, to name the rows of a hybrid run (replica r, stage s) until a step's
    // report states them; 0 means every lane is a stage of one pipeline.
    void setStages(int stages);
    // How the run is spread. Only a pipeline (or a hybrid of pipelines) has stages to draw; for a
    // data- or tensor-parallel run the view says so in plain words instead of drawing empty rows,
    // and offers to run the same model as a pipeline (runAsPipelineRequested).
    void setParallelism(Parallelism mode);
    Parallelism parallelism() const { return mode_; }
    bool showsPipeline() const;
    // The words shown instead of the grid for a run that is not a pipeline (empty for a pipeline).
    QString notPipelineText() const;
    QPushButton* runAsPipelineButton() const { return run_as_pipeline_; }

    // View-model. The step the playhead is in (or the last one, past the end; -1 when empty).
    static std::int64_t stepAt(const TraceIndex& index, Ticks t);
    // The grid of one step, from the index alone.
    static PipelineGrid grid(const TraceIndex& index, std::int64_t step);
    // The grid of the step at the playhead, as drawn.
    const PipelineGrid& currentGrid() const;
    // Where a box is drawn, in widget coordinates; the row of a lane.
    QRectF boxRect(const PipelineBox& box) const;
    QRectF rowRect(int lane) const;
    QString rowName(int lane) const;
    static QString bytesText(std::int64_t bytes);
    // The line under the grid: the step's bubble fraction and the formula's for its P and M, all
    // as the engine reported them.
    QString summaryText() const;

    QSize sizeHint() const override;
    QSize minimumSizeHint() const override;

Q_SIGNALS:
    void runAsPipelineRequested();

protected:
    void paintEvent(QPaintEvent* event) override;
    void resizeEvent(QResizeEvent* event) override;
    void changeEvent(QEvent* event) override;

private:
    struct Layout {
        double line = 0.0;
        QRectF title;
        QRectF legend;
        QRectF plot;  // the rows, time along x
        QRectF names; // stage names left of the plot
        QRectF peaks; // peak in flight right of the plot
        QRectF axis;
        QRectF summary;
        double row_height = 0.0;
        double gap = 0.0; // between rows: the boundary's bytes
    };
    QFont viewFont() const; // a little larger than the widget's: read from the back of a room
    Layout layout() const;
    double xFor(const Layout& l, Ticks t) const;
    void retranslate();
    void updateGrid();
    void updateAccessibleDescription();
    void paintLegend(QPainter& painter, const Layout& l) const;
    void paintRows(QPainter& painter, const Layout& l) const;
    void paintAxis(QPainter& painter, const Layout& l) const;
    QRectF notPipelineRect(const Layout& l) const;
    void placeButton();
    void paintNotPipeline(QPainter& painter, const Layout& l) const;

    const TraceIndex* index_ = nullptr;
    Ticks playhead_ = 0;
    int stages_ = 0;
    Parallelism mode_ = Parallelism::Pipeline;
    QPushButton* run_as_pipeline_ = nullptr;
    PipelineGrid grid_;
    std::uint64_t grid_revision_ = 0; // the index's revision when grid_ was made
};

} // namespace lockstep::views
