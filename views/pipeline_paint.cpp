// The Pipeline view's painting: legend, a row per stage with passes and bubbles, axis.
#include "lockstep_views/pipeline_view.h"

#include "lockstep_views/numbers.h"
#include "lockstep_views/palette.h"

#include <QFont>
#include <QFontMetricsF>
#include <QPainter>

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
