#pragma once

#include "lockstep_views/checkpoint_shelf.h"
#include "lockstep_views/session_view.h"
#include "lockstep_views/trace_index.h"
#include "reports/restore_comparison.h"
#include "scenario/scenario.h"

#include <QRectF>
#include <QString>
#include <QTimer>
#include <QWidget>

#include <optional>

namespace lockstep::views {

// The storage directory as a shelf: one column per checkpoint (oldest left), one box per worker's
// file and one for the MANIFEST, each coloured, patterned and labelled by its state in the commit
// protocol. During a recovery the scan walks the shelf newest first: the checkpoint being examined
// is framed, the skipped ones get a ✗ with the reason, the chosen one a ✓, and a bar shows the
// workers reading it back. Below, what a full and a weights-only restore bring back, side by side:
// once the app has rerun the crash both ways (a RestoreComparison), each with its loss curve
// over the uninterrupted run's. Draws only what the TraceIndex and the comparison answer; holds
// no engine state.
class CheckpointView : public QWidget, public SessionView {
    Q_OBJECT

public:
    // Checkpoints shown at once; the older ones are pruned by the keep policy or left out.
    static constexpr int kShown = 5;

    explicit CheckpointView(QWidget* parent = nullptr);

    // What the lab's session tells it (SessionView).
    QWidget* widget() override { return this; }
    void runStarted(const TraceIndex& index, const Scenario& scenario) override {
        setTrace(&index);
        runRetuned(scenario);
    }
    void traceChanged() override { refresh(); }
    void playheadMoved(Ticks t) override { setPlayhead(t); }
    void runRetuned(const Scenario& running) override {
        setRestoreMode(running.checkpoint ? running.checkpoint->restore : RestoreMode::Full);
    }

    // Not owned; may be nullptr. Call refresh() after appending to the index.
    void setTrace(const TraceIndex* index);
    const TraceIndex* trace() const { return index_; }
    void setPlayhead(Ticks t);
    Ticks playhead() const { return playhead_; }
    void refresh();

    // Which restore the run uses (from its scenario); the view explains both and marks this one.
    void setRestoreMode(RestoreMode mode);
    RestoreMode restoreMode() const { return mode_; }

    // The crash of this run recovered both ways, from real runs; nullopt: not (yet) known, and
    // `note` says why ("Working out both continuations…", an error, or how to get one).
    void setRestoreComparison(std::optional<RestoreComparison> comparison);
    void setComparisonNote(const QString& note);
    const std::optional<RestoreComparison>& restoreComparison() const { return comparison_; }
    QString comparisonNote() const { return note_; }
    // Where the `mode` run's loss plot is drawn for the current size; empty when none is.
    QRectF continuationPlot(RestoreMode mode) const;

    // The scan's verdicts share one instant of the run's clock; a view on screen reveals them one
    // by one, this many wall-clock milliseconds apart (0: all at once, as a hidden view does).
    void setScanRevealInterval(int ms);

    // View-model, for tests and assistive technology.
    CheckpointShelf shelf(Ticks t) const;
    RestoreWalk restoreWalk(Ticks t) const;
    // Verdicts of the current scan drawn so far, and the index of the one being examined (-1 when
    // none is).
    int revealedVerdicts() const;
    int examinedVerdict() const;
    // Where the file box of `worker` (or the MANIFEST for -1) of the `column`-th shown checkpoint
    // is drawn, for the current size and playhead; empty when it is not drawn.
    QRectF boxRect(int column, int worker) const;
    // What that box means, as its tooltip says: "worker-2.ckpt of step-000000020: partial: its
    // writer crashed (2.2 KB written)". Empty when there is no such box.
    QString describeBox(int column, int worker) const;
    QString summary() const;

    QSize sizeHint() const override;
    QSize minimumSizeHint() const override;

Q_SIGNALS:
    // The scan's `index`-th verdict (newest checkpoint first) is now drawn.
    void verdictRevealed(int index);

protected:
    void paintEvent(QPaintEvent* event) override;
    bool event(QEvent* event) override;
    void changeEvent(QEvent* event) override;

private:
    struct Layout {
        qreal line = 0;
        QRectF title, status, grid, rowLabels, progress, modes, legend;
        qreal columnWidth = 0, columnGap = 0, headerHeight = 0, boxHeight = 0, boxGap = 0,
              verdictHeight = 0;
        int columns = 0;
        int workers = 0;
    };

    Layout layout(int columns) const;
    QRectF columnRect(const Layout& l, int column) const;
    QRectF box(const Layout& l, int column, int row) const; // row == workers: the MANIFEST
    void retranslate();
    void advanceReveal();
    void updateReveal();
    QString statusText(const RestoreWalk& walk) const;

    void paintHeader(QPainter& p, const Layout& l, const CheckpointShelf& shelf,
                     const RestoreWalk& walk) const;
    void paintShelf(QPainter& p, const Layout& l, const CheckpointShelf& shelf,
                    const RestoreWalk& walk) const;
    void paintBox(QPainter& p, const QRectF& r, const StorageStyle& style, double fill) const;
    void paintVerdict(QPainter& p, const QRectF& r, const ScanVerdict* verdict,
                      bool examining) const;
    void paintProgress(QPainter& p, const Layout& l, const RestoreWalk& walk) const;
    void paintModes(QPainter& p, const Layout& l) const;
    QRectF modeBox(const Layout& l, RestoreMode mode) const;
    QRectF plotRect(const Layout& l, RestoreMode mode) const;
    void paintLegend(QPainter& p, const Layout& l) const;

    const TraceIndex* index_ = nullptr;
    Ticks playhead_ = 0;
    RestoreMode mode_ = RestoreMode::Full;
    std::optional<RestoreComparison> comparison_;
    QString note_;
    QTimer reveal_;
    int revealInterval_ = 700;
    Ticks revealScan_ = -1; // the scan being revealed
    int revealed_ = 0;
};

} // namespace lockstep::views
