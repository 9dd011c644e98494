#include "lockstep_views/pipeline_view.h"

#include "lockstep_views/numbers.h"
#include "lockstep_views/palette.h"

#include <QEvent>
#include <QFont>
#include <QFontMetricsF>
#include <QPainter>
#include <QPushButton>

#include <algorithm>
#include <cmath>

namespace lockstep::views {

namespace {

// Forward and backward passes share the "computing" of the other views but need telling apart
// here: forward blue, backward orange, each with its letter; bubbles are the hatched vermillion
// of waiting everywhere in the lab, updates the sky blue of updating.
QColor colour_for(EventKind kind) {
    switch (kind) {
    case EventKind::Forward:
        return okabe_ito::blue;
    case EventKind::Backward:
        return okabe_ito::orange;
    default:
        return style_for(kind).colour;
    }
}

// Black or white, whichever reads better on `fill`.
QColor text_on(const QColor& fill) {
    const double luma = 0.299 * fill.redF() + 0.587 * fill.greenF() + 0.114 * fill.blueF();
    return luma > 0.55 ? QColor(Qt::black) : QColor(Qt::white);
}

// Hatched vermillion on a faint fill; on a dark background the hatch is drawn lighter so that it
// still stands out.
void fill_bubble(QPainter& painter, const QRectF& r, bool dark) {
    const QColor c = style_for(EventKind::Bubble).colour;
    QColor light = c;
    light.setAlpha(dark ? 60 : 80);
    painter.fillRect(r, light);
    painter.fillRect(r, QBrush(dark ? c.lighter(115) : c.darker(150), Qt::BDiagPattern));
}

QString time_text(Ticks t) {
    const double s = to_seconds(t);
    if (s >= 1.0)
        return QStringLiteral("%1 s").arg(display_number(s, 'g', 3));
    if (s >= 1e-3)
        return QStringLiteral("%1 ms").arg(display_number(s * 1e3, 'g', 3));
    return QStringLiteral("%1 µs").arg(display_number(s * 1e6, 'g', 3));
}

} // namespace

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
    // With the formula for equal stages and free messages, for this pipeline's P and M.
    const int p = grid_.stages;
    const int m = grid_.microbatches;
    if (p > 1 && m > 0)
        return tr("Bubble: %1% of stage-time idle in this step  ·  equal stages, free messages: "
                  "(P−1)/(M+P−1) = %2/%3 = %4%")
            .arg(display_number(grid_.bubble_fraction * 100.0, 'f', 1))
            .arg(p - 1)
            .arg(m + p - 1)
            .arg(display_number(100.0 * (p - 1) / (m + p - 1), 'f', 1));
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

void PipelineView::paintEvent(QPaintEvent*) {
    QPainter painter(this);
    painter.fillRect(rect(), palette().color(QPalette::Base));
    painter.setRenderHint(QPainter::TextAntialiasing, true);
    painter.setFont(viewFont());
    const Layout l = layout();
    QFont title_font = viewFont();
    title_font.setBold(true);
    painter.setFont(title_font);
    painter.setPen(palette().color(QPalette::Text));
    if (!showsPipeline()) {
        paintNotPipeline(painter, l);
        return;
    }
    if (grid_.empty()) {
        painter.drawText(l.title, Qt::AlignLeft | Qt::AlignVCenter,
                         tr("Pipeline: no step yet. Run a scenario with pipeline parallelism."));
        return;
    }
    const QString title = grid_.lanes == 1 ? tr("Pipeline, step %1: %2 stage, %3 per step")
                                           : tr("Pipeline, step %1: %2 stages, %3 per step");
    painter.drawText(
        l.title, Qt::AlignLeft | Qt::AlignVCenter,
        title.arg(grid_.step).arg(grid_.lanes).arg(time_text(grid_.end - grid_.start)));
    painter.setFont(viewFont());
    paintLegend(painter, l);
    paintRows(painter, l);
    paintAxis(painter, l);
    painter.setFont(title_font);
    painter.setPen(palette().color(QPalette::Text));
    painter.drawText(l.summary, Qt::AlignLeft | Qt::AlignTop | Qt::TextWordWrap, summaryText());
    if (hasFocus()) {
        painter.setPen(QPen(palette().color(QPalette::Highlight), 2));
        painter.setBrush(Qt::NoBrush);
        painter.drawRect(QRectF(rect()).adjusted(1, 1, -1, -1));
    }
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

void PipelineView::paintNotPipeline(QPainter& painter, const Layout& l) const {
    painter.drawText(l.title, Qt::AlignLeft | Qt::AlignVCenter, tr("Pipeline: none in this run"));
    painter.setFont(viewFont());
    const QRectF words = notPipelineRect(l);
    painter.drawText(QRectF(words.topLeft(), QSizeF(words.width() + 1, words.height() + 1)),
                     Qt::TextWordWrap, notPipelineText());
}

void PipelineView::paintLegend(QPainter& painter, const Layout& l) const {
    const QFontMetricsF fm(viewFont());
    const double sw = std::round(l.line * 1.6);
    const double sh = std::round(l.line * 1.0);
    double x = l.legend.left();
    const double cy = l.legend.center().y();
    struct Item {
        EventKind kind;
        QString letter;
        QString text;
    };
    const Item items[] = {{EventKind::Forward, QStringLiteral("F"), tr("forward pass")},
                          {EventKind::Backward, QStringLiteral("B"), tr("backward pass")},
                          {EventKind::Bubble, QString(), tr("bubble (idle)")},
                          {EventKind::Update, QStringLiteral("U"), tr("update")}};
    for (const Item& it : items) {
        const QRectF swatch(x, std::round(cy - sh / 2), sw, sh);
        if (it.kind == EventKind::Bubble) {
            fill_bubble(painter, swatch, palette().color(QPalette::Base).lightness() < 128);
        } else {
            painter.fillRect(swatch, colour_for(it.kind));
            painter.setPen(text_on(colour_for(it.kind)));
            painter.drawText(swatch, Qt::AlignCenter, it.letter);
        }
        painter.setPen(palette().color(QPalette::Text));
        const QRectF text(swatch.right() + l.line * 0.4, l.legend.top(),
                          fm.horizontalAdvance(it.text) + 2, l.legend.height());
        painter.drawText(text, Qt::AlignLeft | Qt::AlignVCenter, it.text);
        x = text.right() + l.line * 1.2;
    }
}

void PipelineView::paintRows(QPainter& painter, const Layout& l) const {
    const QColor text = palette().color(QPalette::Text);
    const QFontMetricsF fm(viewFont());
    QFont bold = viewFont();
    bold.setBold(true);
    for (int w = 0; w < grid_.lanes; ++w) {
        const QRectF row(l.plot.left(), l.plot.top() + w * (l.row_height + l.gap), l.plot.width(),
                         l.row_height);
        painter.fillRect(row, palette().color(QPalette::AlternateBase));
        painter.setPen(text);
        painter.setFont(viewFont());
        painter.drawText(
            QRectF(l.names.left(), row.top(), l.names.width() - l.line * 0.5, row.height()),
            Qt::AlignRight | Qt::AlignVCenter, rowName(w));
        painter.drawText(
            QRectF(l.peaks.left() + l.line * 0.5, row.top(), l.peaks.width(), row.height()),
            Qt::AlignLeft | Qt::AlignVCenter,
            tr("peak %1 in flight").arg(grid_.peak_inflight[static_cast<std::size_t>(w)]));
    }
    for (const PipelineBox& b : grid_.bubbles) {
        const QRectF row(l.plot.left(), l.plot.top() + b.lane * (l.row_height + l.gap),
                         l.plot.width(), l.row_height);
        const double x0 = xFor(l, b.start), x1 = xFor(l, b.end);
        fill_bubble(painter, QRectF(x0, row.top(), x1 - x0, row.height()),
                    palette().color(QPalette::Base).lightness() < 128);
    }
    painter.setFont(bold);
    for (const PipelineBox& b : grid_.boxes) {
        const QRectF row(l.plot.left(), l.plot.top() + b.lane * (l.row_height + l.gap),
                         l.plot.width(), l.row_height);
        const double x0 = xFor(l, b.start), x1 = xFor(l, b.end);
        const QRectF r(x0, row.top(), std::max(1.0, x1 - x0), row.height());
        const QColor c = colour_for(b.kind);
        if (b.start < playhead_) { // begun: solid
            painter.fillRect(r, c);
            painter.setPen(QPen(palette().color(QPalette::Base), 1));
            painter.setBrush(Qt::NoBrush);
            painter.drawRect(r);
            painter.setPen(text_on(c));
        } else { // still to come: an outline
            painter.setPen(QPen(c, 2));
            painter.setBrush(Qt::NoBrush);
            painter.drawRect(r.adjusted(1, 1, -1, -1));
            painter.setPen(text);
        }
        if (QFontMetricsF(bold).horizontalAdvance(b.label) + 4 < r.width())
            painter.drawText(r, Qt::AlignCenter, b.label);
    }
    // The bytes that crossed each boundary, in the gap between its two rows.
    painter.setFont(viewFont());
    painter.setPen(text);
    for (const PipelineBoundary& b : grid_.boundaries) {
        const double top = l.plot.top() + b.lane * (l.row_height + l.gap) + l.row_height;
        const QRectF gap(l.plot.left(), top, l.plot.width(), l.gap);
        const QString s = tr("↓ %1 activations    ↑ %2 activation gradients")
                              .arg(bytesText(b.activation_bytes), bytesText(b.gradient_bytes));
        painter.drawText(gap, Qt::AlignCenter, fm.elidedText(s, Qt::ElideRight, gap.width()));
    }
    // The playhead, when it is inside this step.
    if (playhead_ >= grid_.start && playhead_ <= grid_.end) {
        const double x = xFor(l, playhead_);
        painter.setPen(QPen(palette().color(QPalette::Highlight), 2));
        painter.drawLine(QPointF(x, l.plot.top() - l.line * 0.2),
                         QPointF(x, l.plot.bottom() + l.line * 0.2));
    }
}

void PipelineView::paintAxis(QPainter& painter, const Layout& l) const {
    painter.setPen(palette().color(QPalette::Text));
    painter.setFont(viewFont());
    const Ticks span = grid_.end - grid_.start;
    const QString left = tr("step start");
    const QString right = tr("+%1").arg(time_text(span));
    painter.drawText(l.axis, Qt::AlignLeft | Qt::AlignVCenter, left);
    painter.drawText(l.axis, Qt::AlignRight | Qt::AlignVCenter, right);
    painter.drawText(l.axis, Qt::AlignHCenter | Qt::AlignVCenter, tr("time →"));
}

} // namespace lockstep::views
