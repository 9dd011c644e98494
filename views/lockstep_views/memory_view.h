#pragma once

#include "clocks/clock.h"
#include "lockstep_views/session_view.h"
#include "lockstep_views/trace_index.h"
#include "reports/metrics.h"
#include "scenario/parallelism.h"
#include "scenario/scenario.h"
#include "trace/trace.h"

#include <QFont>
#include <QRectF>
#include <QString>
#include <QWidget>

#include <cstdint>
#include <optional>
#include <vector>

namespace lockstep::views {

// What one worker holds at the playhead: the newest of its memory samples (StepSnapshot::memory,
// read off its buffers by the engine) taken at or before it.
struct MemoryColumn {
    int worker = 0;
    bool known = false; // false before the worker's first sample
    MemorySample held;
};

// The kinds of memory a column stacks, bottom up, each with its colour and pattern.
enum class MemoryKind { Parameters, Gradients, Optimizer, Activations, Workspace };
inline constexpr int kMemoryKindCount = 5;

// Memory per worker at the playhead: one column per data-parallel worker, stacked by kind
// (parameters, gradients, optimizer state, activations, workspace), on one scale for the whole
// run. In a stage-3 run a worker's parameters grow as a layer is gathered and shrink when it is
// freed; in stage 2 its gradient shrinks to a shard after the reduce-scatter. A faint outline
// shows what the same worker holds at its peak without sharding: the lab computes one unsharded
// step and gives it here (setUnsharded), the view never runs the engine.
class MemoryView : public QWidget, public SessionView {
    Q_OBJECT

public:
    explicit MemoryView(QWidget* parent = nullptr);

    // What the lab's session tells it (SessionView).
    QWidget* widget() override { return this; }
    void runStarted(const TraceIndex& index, const Scenario& scenario) override;
    void traceChanged() override;
    void playheadMoved(Ticks t) override;

    // The worker that holds the most after one step of the same scenario without sharding (its
    // peak is outlined behind every column); nothing: no outline.
    void setUnsharded(const std::optional<WorkerMemory>& worker);
    const std::optional<WorkerMemory>& unsharded() const { return unsharded_; }

    // View-model, for tests and assistive technology.
    // Each worker's newest sample at or before `t` (a step's samples travel in its snapshot, so
    // the step under way is read from the next snapshot, and the one before fills in); of
    // several samples at one instant the last, except at that very instant: the largest, so
    // the column reaches the ledger's peak when the playhead stands on it.
    static std::vector<MemoryColumn> columnsAt(const TraceIndex& index, Ticks t);
    const std::vector<MemoryColumn>& columns() const { return columns_; }
    static std::int64_t bytesOf(const MemorySample& sample, MemoryKind kind);
    static QString kindName(MemoryKind kind);
    static QString bytesText(std::int64_t bytes);
    // The top of the scale: the most any worker holds in the whole trace, or the unsharded peak.
    std::int64_t scaleBytes() const;
    // A run whose workers each hold a replica (or its shards): data parallelism.
    bool showsLedger() const;
    // The words shown instead of the columns: another kind of run, or no samples yet.
    QString emptyText() const;
    // The heading's second line: the way of sharding, or its absence.
    QString subtitle() const;
    // The line under the columns: what is happening to memory at the playhead.
    QString caption() const;
    // Where a worker's column stands at full scale, and where one of its kinds is drawn.
    QRectF columnRect(int worker) const;
    QRectF segmentRect(int worker, MemoryKind kind) const;

    QSize sizeHint() const override;
    QSize minimumSizeHint() const override;

protected:
    void paintEvent(QPaintEvent* event) override;
    void resizeEvent(QResizeEvent* event) override;
    void changeEvent(QEvent* event) override;

private:
    struct Layout {
        double line = 0.0;
        QRectF title, subtitle, legend, plot, axis, names, caption;
        double column_width = 0.0;
        double pitch = 0.0; // from one column's left edge to the next one's
    };
    QFont viewFont() const;
    Layout layout() const;
    double yFor(const Layout& l, std::int64_t bytes) const;
    void update_columns();
    void update_scale();
    void updateAccessibleDescription();
    void paintLegend(QPainter& painter, const Layout& l) const;
    void paintAxis(QPainter& painter, const Layout& l) const;
    void paintColumns(QPainter& painter, const Layout& l) const;
    void paintOutline(QPainter& painter, const Layout& l) const;

    const TraceIndex* index_ = nullptr;
    Ticks playhead_ = 0;
    Parallelism mode_ = Parallelism::Data;
    Sharding sharding_ = Sharding::None;
    int workers_ = 0;
    std::vector<MemoryColumn> columns_;
    std::int64_t traced_max_ = 0;      // the most any worker holds in the trace
    std::size_t scaled_snapshots_ = 0; // the snapshots traced_max_ has counted
    std::optional<WorkerMemory> unsharded_;
    QString phase_; // the half of the collective under way at the playhead, if any
    CollectiveHalf phase_half_ = CollectiveHalf::None;
    int phase_layer_ = -1;
};

} // namespace lockstep::views
