// The Pipeline view: the step at the playhead, its texts and where its parts go.
#include "lockstep_views/pipeline_view.h"

#include "lockstep_views/numbers.h"
#include "scenario/pipeline_plan.h"

#include <QEvent>
#include <QFont>
#include <QFontMetricsF>
#include <QPushButton>

#include <algorithm>
#include <cmath>

namespace lockstep::views {

PipelineView::PipelineView(QWidget* parent)
    : QWidget(parent) {
    setFocusPolicy(Qt::StrongFocus);
    setAutoFillBackground(false);
    run_as_pipeline_ = new QPushButton(this);
    retranslate();
    run_as_pipeline_->hide();
    connect(run_as_pipeline_, &QPushButton::clicked, this, &PipelineView::runAsPipelineRequested);
    updateAccessibleDescription();
}

void PipelineView::retranslate() {
    setAccessibleName(tr("Pipeline view"));
    run_as_pipeline_->setText(tr("Run this model as a pipeline"));
    run_as_pipeline_->setAccessibleDescription(
        tr("Cuts the same model into four stages and the batch into eight micro-batches, and runs "
           "it again"));
}

void PipelineView::setParallelism(Parallelism mode) {
    mode_ = mode;
    placeButton();
    updateAccessibleDescription();
    update();
}

bool PipelineView::showsPipeline() const {
    return mode_ == Parallelism::Pipeline || mode_ == Parallelism::Hybrid;
}

QString PipelineView::notPipelineText() const {
    switch (mode_) {
    case Parallelism::Data:
        return tr("This run is data-parallel, not a pipeline. Every worker holds the whole model "
                  "and trains on its own share of the batch, so nothing flows from stage to "
                  "stage and no stage waits in a bubble.");
    case Parallelism::Tensor:
        return tr("This run is tensor-parallel, not a pipeline. Every layer is cut across the "
                  "workers, who all work on every micro-step together, so there are no stages "
                  "to wait for each other.");
    case Parallelism::Pipeline:
    case Parallelism::Hybrid:
        break;
    }
    return {};
}

void PipelineView::setIndex(const TraceIndex* index) {
    index_ = index;
    grid_ = PipelineGrid{}; // another index may have the same revision
    refresh();
}

void PipelineView::setStages(int stages) {
    stages_ = std::max(0, stages);
    update();
}

void PipelineView::refresh() {
    updateGrid();
}

void PipelineView::setPlayhead(Ticks t) {
    playhead_ = t;
    updateGrid();
}

const PipelineGrid& PipelineView::currentGrid() const {
    return grid_;
}

void PipelineView::updateGrid() {
    const std::int64_t step = index_ ? stepAt(*index_, playhead_) : -1;
    // Recompute when the step changes or the index has changed (the run may still add to it).
    if (!index_)
        grid_ = PipelineGrid{};
    else if (step != grid_.step || index_->revision() != grid_revision_ || grid_.empty()) {
        grid_ = grid(*index_, step);
        grid_revision_ = index_->revision();
    }
    updateAccessibleDescription();
    update();
}

QString PipelineView::bytesText(std::int64_t bytes) {
    if (bytes < 1000)
        return tr("%1 B").arg(bytes);
    if (bytes < 1'000'000)
        return tr("%1 kB").arg(display_number(static_cast<double>(bytes) / 1e3, 'f', 1));
    return tr("%1 MB").arg(display_number(static_cast<double>(bytes) / 1e6, 'f', 2));
}

QString PipelineView::rowName(int lane) const {
    const int stages = grid_.stages > 0 ? grid_.stages : stages_;
    if (stages > 0 && grid_.lanes > stages)
        return tr("r%1 stage %2").arg(lane / stages).arg(lane % stages);
    return tr("stage %1").arg(lane);
}

QString PipelineView::summaryText() const {
    if (!grid_.reported)
        return grid_.finished ? tr("Bubble: none reported, this step ran no pipeline")
                              : tr("Bubble: not reported for this step yet");
    // With the engine's formula for equal stages and free messages, for this pipeline's P and M.
    if (grid_.stages > 1 && grid_.microbatches > 0) {
        const FillDrainBubble formula = fill_drain_bubble(grid_.stages, grid_.microbatches);
        return tr("Bubble: %1% of stage-time idle in this step  ·  equal stages, free messages: "
                  "(P−1)/(M+P−1) = %2/%3 = %4%")
            .arg(display_number(grid_.bubble_fraction * 100.0, 'f', 1))
            .arg(formula.idle_slots)
            .arg(formula.slots)
            .arg(display_number(100.0 * formula.fraction, 'f', 1));
    }
    return tr("Bubble: %1% of stage-time idle in this step")
        .arg(display_number(grid_.bubble_fraction * 100.0, 'f', 1));
}

void PipelineView::updateAccessibleDescription() {
    if (!showsPipeline()) {
        setAccessibleDescription(notPipelineText());
        return;
    }
    if (grid_.empty()) {
        setAccessibleDescription(tr("No pipeline step to show yet."));
        return;
    }
    QStringList rows;
    for (int w = 0; w < grid_.lanes; ++w) {
        QStringList labels;
        for (const QString& p : grid_.passes(w))
            labels << p;
        rows << tr("%1: %2, %3 bubbles, peak %4 in flight")
                    .arg(rowName(w), labels.join(QLatin1Char(' ')))
                    .arg(grid_.bubbleCount(w))
                    .arg(grid_.peak_inflight[static_cast<std::size_t>(w)]);
    }
    setAccessibleDescription(tr("Step %1; bubble %2% of stage-time. %3. %4")
                                 .arg(grid_.step)
                                 .arg(display_number(grid_.bubble_fraction * 100.0, 'f', 1))
                                 .arg(rows.join(QStringLiteral("; ")), summaryText()));
}

QFont PipelineView::viewFont() const {
    QFont f = font();
    if (f.pointSizeF() > 0)
        f.setPointSizeF(f.pointSizeF() * 1.2);
    else
        f.setPixelSize(f.pixelSize() * 6 / 5);
    return f;
}

PipelineView::Layout PipelineView::layout() const {
    Layout l;
    const QFontMetricsF fm(viewFont());
    l.line = fm.height();
    const double margin = std::round(l.line * 0.6);
    double y = margin;
    l.title = QRectF(margin, y, width() - 2 * margin, l.line * 1.3);
    y += l.title.height();
    l.legend = QRectF(margin, y, width() - 2 * margin, l.line * 1.4);
    y += l.legend.height() + l.line * 0.4;
    const double names_w = fm.horizontalAdvance(rowName(std::max(0, grid_.lanes - 1))) + l.line;
    const double peaks_w = fm.horizontalAdvance(tr("peak 88 in flight")) + l.line;
    // Under the rows: the time axis, then the summary, which wraps onto a second line when the
    // view is narrow.
    const double bottom = height() - margin - l.line * 1.4 - l.line * 2.6;
    const int lanes = std::max(1, grid_.lanes);
    // Rows and the gaps between them (where the bytes are written) share the height.
    const double unit = std::max(0.0, bottom - y) / (lanes + 0.9 * (lanes - 1));
    l.row_height = std::min(unit, l.line * 7.0);
    l.gap = std::max(l.line * 1.3, std::min(unit * 0.9, l.line * 2.2));
    const double plot_h = lanes * l.row_height + (lanes - 1) * l.gap;
    l.names = QRectF(margin, y, names_w, plot_h);
    l.peaks = QRectF(width() - margin - peaks_w, y, peaks_w, plot_h);
    l.plot = QRectF(l.names.right(), y, std::max(10.0, l.peaks.left() - l.names.right()), plot_h);
    l.axis = QRectF(l.plot.left(), l.plot.bottom() + l.line * 0.2, l.plot.width(), l.line * 1.4);
    l.summary = QRectF(margin, l.axis.bottom() + l.line * 0.2, width() - 2 * margin, l.line * 2.6);
    return l;
}

double PipelineView::xFor(const Layout& l, Ticks t) const {
    const Ticks span = std::max<Ticks>(1, grid_.end - grid_.start);
    return l.plot.left() +
           l.plot.width() * static_cast<double>(t - grid_.start) / static_cast<double>(span);
}

QRectF PipelineView::rowRect(int lane) const {
    const Layout l = layout();
    return QRectF(l.plot.left(), l.plot.top() + lane * (l.row_height + l.gap), l.plot.width(),
                  l.row_height);
}

QRectF PipelineView::boxRect(const PipelineBox& box) const {
    const Layout l = layout();
    const QRectF row = rowRect(box.lane);
    const double x0 = xFor(l, box.start);
    const double x1 = xFor(l, box.end);
    return QRectF(x0, row.top(), std::max(1.0, x1 - x0), row.height());
}

QSize PipelineView::sizeHint() const {
    return {900, 420};
}

QSize PipelineView::minimumSizeHint() const {
    return {320, 200};
}

void PipelineView::resizeEvent(QResizeEvent* event) {
    QWidget::resizeEvent(event);
    placeButton();
    update();
}

void PipelineView::changeEvent(QEvent* event) {
    if (event->type() == QEvent::LanguageChange) {
        retranslate();
        updateAccessibleDescription();
    }
    if (event->type() == QEvent::FontChange || event->type() == QEvent::PaletteChange ||
        event->type() == QEvent::LanguageChange) {
        placeButton();
        update();
    }
    QWidget::changeEvent(event);
}

// Where the plain words go for a run that is not a pipeline; the button sits under them.
QRectF PipelineView::notPipelineRect(const Layout& l) const {
    const double width = std::min(l.title.width(), l.line * 34.0);
    const QRectF body(l.title.left(), l.title.bottom() + l.line, width, height());
    return QFontMetricsF(viewFont()).boundingRect(body, Qt::TextWordWrap, notPipelineText());
}

void PipelineView::placeButton() {
    run_as_pipeline_->setVisible(!showsPipeline());
    if (showsPipeline())
        return;
    run_as_pipeline_->setFont(viewFont());
    const Layout l = layout();
    const QRectF words = notPipelineRect(l);
    const QSize hint = run_as_pipeline_->sizeHint();
    run_as_pipeline_->setGeometry(static_cast<int>(words.left()),
                                  static_cast<int>(words.bottom() + l.line), hint.width(),
                                  hint.height());
}

SessionView* make_pipeline_view() {
    return new PipelineView;
}

} // namespace lockstep::views
