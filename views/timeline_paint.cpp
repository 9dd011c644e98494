// The timeline's painting: legend, lanes, step labels, axis and the playhead.
#include "lockstep_views/timeline_view.h"

#include "fonts.h"

#include "lockstep_views/numbers.h"
#include "lockstep_views/palette.h"
#include "lockstep_views/timeline_axis.h"
#include "lockstep_views/timeline_styles.h"

#include <QFontMetricsF>
#include <QPainter>
#include <QPainterPath>

#include <algorithm>
#include <cmath>
#include <optional>
#include <vector>

namespace lockstep::views {

using namespace timeline;

void TimelineView::paintEvent(QPaintEvent*) {
    QPainter painter(this);
    painter.fillRect(rect(), palette().color(QPalette::Base));
    painter.setRenderHint(QPainter::Antialiasing, true);
    painter.setRenderHint(QPainter::TextAntialiasing, true);
    painter.setFont(font());
    const Layout& l = layout();
    paintLegend(painter, l);
    paintLanes(painter, l);
    paintEvents(painter, l);
    paintCheckpointKinds(painter, l);
    paintStaleness(painter, l);
    paintBuckets(painter, l);
    paintHalves(painter, l);
    paintSteps(painter, l);
    paintAxis(painter, l);
    paintBranchMarks(painter, l);
    paintRecovery(painter, l);
    paintPlayhead(painter, l);
    if (hasFocus()) {
        QPen pen(palette().color(QPalette::Highlight), 2);
        painter.setPen(pen);
        painter.setBrush(Qt::NoBrush);
        painter.drawRect(QRectF(rect()).adjusted(1, 1, -1, -1));
    }
}

void TimelineView::paintLegend(QPainter& painter, const Layout& l) const {
    // Every entry in one row: in a narrow view (large text) the legend's letters get smaller.
    QFont legend_font = font();
    {
        const QFontMetricsF full(legend_font);
        double total = 0;
        for (int c = 0; c < ClassCount; ++c)
            total += full.height() * 3.1 +
                     full.horizontalAdvance(class_label(static_cast<PaintClass>(c)));
        const double room = width() - std::min(l.gutter, full.height() * 2);
        if (total > room && total > 0)
            legend_font = scaledFont(legend_font, std::max(0.6, room / total));
    }
    painter.setFont(legend_font);
    const QFontMetricsF fm(legend_font);
    const double line = fm.height();
    const double swatch_w = std::round(line * 1.4);
    const double swatch_h = std::round(line * 0.8);
    // Above the lanes the legend may start left of the labels' gutter when it needs the room.
    double total = 0;
    for (int c = 0; c < ClassCount; ++c)
        total += line * 3.1 + fm.horizontalAdvance(class_label(static_cast<PaintClass>(c)));
    double x = total <= width() - l.gutter ? l.gutter : std::min(l.gutter, line);
    const double cy = l.legend.center().y();
    painter.setPen(palette().color(QPalette::Text));
    for (int c = 0; c < ClassCount; ++c) {
        const QString label = class_label(static_cast<PaintClass>(c));
        const QRectF swatch(x, std::round(cy - swatch_h / 2), swatch_w, swatch_h);
        const double label_w = fm.horizontalAdvance(label);
        if (swatch.left() + swatch_w + line * 0.4 + label_w > width())
            break;
        painter.setRenderHint(QPainter::Antialiasing, false);
        fill_swatch(painter, swatch, kClassKinds[static_cast<std::size_t>(c)]);
        painter.setRenderHint(QPainter::Antialiasing, true);
        const double text_x = swatch.right() + line * 0.4;
        draw_label(painter, text_x, cy, label, fm.ascent(), fm.descent());
        x = text_x + label_w + line * 1.3;
    }
    painter.setFont(font());
}

void TimelineView::paintLanes(QPainter& painter, const Layout& l) const {
    const int n = workers();
    const QColor text = palette().color(QPalette::Text);
    if (n == 0) {
        painter.setPen(palette().color(QPalette::PlaceholderText));
        painter.drawText(l.plot, Qt::AlignCenter, tr("No run yet"));
        return;
    }
    const QFontMetricsF fm(font());
    const double line = fm.height();
    // Thin lanes: label every stride-th one, so labels never overlap.
    int stride = 1;
    while (stride < n && stride * l.lane_pitch < line * 1.05)
        stride *= 2;
    const QColor stripe = palette().color(QPalette::AlternateBase);
    painter.setRenderHint(QPainter::Antialiasing, false);
    for (int k = 0; k < n; k += 2)
        painter.fillRect(laneRect(k), stripe);
    // Machines (a scenario's topology): a dashed line across the lanes where one machine's
    // workers end and the next one's begin, as the cluster view outlines them.
    if (index_ && index_->machines().machines() && index_->machines().nodes > 1) {
        const int per = index_->machines().workers_per_node;
        QPen edge(withAlpha(text, 150), std::max(1.0, line / 10.0), Qt::DashLine);
        painter.setPen(edge);
        for (int first = per; first < n; first += per) {
            const double y = (laneRect(first - 1).bottom() + laneRect(first).top()) / 2.0;
            painter.drawLine(QPointF(0.0, y), QPointF(l.plot.right(), y));
        }
    }
    painter.setRenderHint(QPainter::Antialiasing, true);
    painter.setPen(text);
    const double pad = std::round(line * 0.5);
    for (int k = 0; k < n; k += stride) {
        const QRectF lane = laneRect(k);
        const QString label = tr("worker %1").arg(k);
        draw_label(painter, l.gutter - pad - fm.horizontalAdvance(label), lane.center().y(), label,
                   l.ascent, l.descent);
        if (stride > 1) {
            painter.setRenderHint(QPainter::Antialiasing, false);
            painter.drawLine(QPointF(l.gutter - pad * 0.6, lane.center().y()),
                             QPointF(l.gutter - 1, lane.center().y()));
            painter.setRenderHint(QPainter::Antialiasing, true);
        }
    }
}

void TimelineView::paintSteps(QPainter& painter, const Layout& l) const {
    if (!index_ || !index_->last_step())
        return;
    const double pad = l.line * 0.5;
    QColor line_colour = palette().color(QPalette::Text);
    line_colour.setAlphaF(0.45);
    QColor label_colour = palette().color(QPalette::Text);
    label_colour.setAlphaF(0.8);
    // Each executed step from its start to the next one's, as the cluster's header and the
    // playback bar name the playhead's step (TraceIndex::step_at()): a step a crash cut short
    // has its own label, and the steps done again after a rollback say so.
    std::int64_t ordinal = index_->ordinal_starting_from(from_);
    if (ordinal > 0 && index_->start_of(ordinal - 1))
        --ordinal;
    std::optional<TraceIndex::StepStart> step = index_->start_of(ordinal);
    std::optional<TraceIndex::StepStart> before = index_->start_of(ordinal - 1);
    std::vector<QLineF> barriers;
    painter.save();
    painter.setClipRect(l.steps.united(l.plot));
    painter.setPen(label_colour);
    while (step && step->start < to_ && step->start <= playhead_) {
        const std::optional<TraceIndex::StepStart> next = index_->start_of(step->ordinal + 1);
        const Ticks end = next ? next->start : index_->end_time();
        if (next && end <= playhead_ && end >= from_ && end <= to_) {
            const double x = std::round(xForTime(end));
            barriers.emplace_back(x, l.steps.bottom() - std::round(pad * 0.6), x, l.plot.bottom());
        }
        // The label sits over the part of the step that has happened and is visible; step
        // numbers are digits, so their width is known without measuring each label.
        const double x0 = xForTime(std::max(step->start, from_));
        const double x1 = xForTime(std::min({end, playhead_, to_}));
        const bool again = before && step->step <= before->step;
        const QString number =
            again ? QStringLiteral("↺") + QString::number(step->step) : QString::number(step->step);
        const double room = x1 - x0 - pad;
        const double brief_w = static_cast<double>(number.size()) * l.digit_width;
        const double full_w = again ? QFontMetricsF(painter.font())
                                          .horizontalAdvance(tr("step %1 again").arg(step->step))
                                    : l.step_prefix_width + brief_w;
        if (brief_w <= room) {
            const bool full = full_w <= room;
            draw_label(
                painter, (x0 + x1 - (full ? full_w : brief_w)) / 2, l.steps.center().y(),
                full ? (again ? tr("step %1 again").arg(step->step) : tr("step %1").arg(number))
                     : number,
                l.ascent, l.descent);
        }
        before = step;
        step = next;
    }
    painter.setRenderHint(QPainter::Antialiasing, false);
    painter.setPen(QPen(line_colour, 1));
    painter.drawLines(barriers.data(), static_cast<int>(barriers.size()));
    painter.restore();
}

void TimelineView::paintAxis(QPainter& painter, const Layout& l) const {
    const double line = QFontMetricsF(font()).height();
    // Tick labels give way to the playhead's own label.
    const QRectF playhead_box = playheadLabelRect(l).adjusted(-line * 0.3, 0, line * 0.3, 0);
    paint_time_axis(
        painter, font(), palette().color(QPalette::Text),
        {l.axis, from_, to_, l.tick_spacing, l.ascent, l.descent, static_cast<double>(width())},
        playhead_box);
}

QRectF TimelineView::playheadLabelRect(const Layout& l, QString* label) const {
    if (playhead_ < from_ || playhead_ > to_)
        return {};
    const QFontMetricsF fm(font());
    const double line = fm.height();
    const AxisScale scale = axis_scale(from_, to_, l.axis.width(), l.tick_spacing);
    // AxisScale::label(playhead_, 1) in the language's digits.
    const QString text =
        display_number(static_cast<double>(playhead_) / scale.unit.ticks, 'f', scale.decimals + 1) +
        QLatin1Char(' ') + scale.unit.name;
    if (label)
        *label = text;
    const double w = fm.horizontalAdvance(text) + line * 0.8;
    const double h = line * 1.25;
    const double left =
        std::clamp(xForTime(playhead_) - w / 2, 2.0, std::max(2.0, width() - w - 2));
    return QRectF(left, l.axis.top() + std::round(line * 0.35) + (line * 1.4 - h) / 2, w, h);
}

void TimelineView::paintPlayhead(QPainter& painter, const Layout& l) const {
    if (playhead_ < from_ || playhead_ > to_)
        return;
    const QFontMetricsF fm(font());
    const double line = fm.height();
    const QColor strong = palette().color(QPalette::Text);
    const double x = xForTime(playhead_);
    const double pen_width = std::max(2.0, std::round(line / 7));
    painter.setPen(QPen(strong, pen_width, Qt::SolidLine, Qt::FlatCap));
    painter.drawLine(QPointF(x, l.steps.top() + line * 0.4),
                     QPointF(x, l.axis.top() + std::round(line * 0.35)));
    // A handle at the top, like a scrubber's.
    const double h = std::round(line * 0.45);
    QPainterPath handle;
    handle.moveTo(x - h, l.steps.top());
    handle.lineTo(x + h, l.steps.top());
    handle.lineTo(x, l.steps.top() + h * 1.3);
    handle.closeSubpath();
    painter.fillPath(handle, strong);
    // Its time, in a box over the axis labels.
    QString label;
    const QRectF box = playheadLabelRect(l, &label);
    const double box_h = box.height();
    painter.setPen(Qt::NoPen);
    painter.setBrush(strong);
    painter.drawRoundedRect(box, box_h * 0.25, box_h * 0.25);
    painter.setPen(palette().color(QPalette::Base));
    draw_label(painter, box.center().x() - QFontMetricsF(font()).horizontalAdvance(label) / 2,
               box.center().y(), label, l.ascent, l.descent);
}

} // namespace lockstep::views
