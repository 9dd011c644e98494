#include "lockstep_views/timeline_view.h"

#include "fonts.h"

#include "lockstep_views/numbers.h"
#include "lockstep_views/palette.h"
#include "lockstep_views/recovery_caption.h"
#include "lockstep_views/timeline_axis.h"
#include "lockstep_views/timeline_styles.h"

#include <QFontMetricsF>
#include <QHash>
#include <QPainter>
#include <QPainterPath>

#include <algorithm>
#include <array>
#include <cmath>
#include <optional>
#include <vector>

// The timeline's painting: legend, lanes, the event layer, step labels, axis, branch marks and
// the playhead.
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

// Fills whole-pixel rectangles (widget coordinates) of one opaque colour into `image`, whose
// top-left corner is at `origin`.
static void fill_rects(QImage& image, const std::vector<QRect>& rects, QPointF origin, qreal dpr,
                       const QColor& colour) {
    const QRgb pixel = colour.rgb();
    const int width = image.width();
    const int height = image.height();
    const auto stride = static_cast<std::size_t>(image.bytesPerLine()) / sizeof(QRgb);
    auto* bits = reinterpret_cast<QRgb*>(image.bits());
    auto device = [&](double v, double o) { return static_cast<int>(std::lround((v - o) * dpr)); };
    for (const QRect& r : rects) {
        const int x0 = std::max(device(r.left(), origin.x()), 0);
        const int x1 = std::min(device(r.left() + r.width(), origin.x()), width);
        const int y0 = std::max(device(r.top(), origin.y()), 0);
        const int y1 = std::min(device(r.top() + r.height(), origin.y()), height);
        for (int y = y0; y < y1; ++y) {
            QRgb* line = bits + static_cast<std::size_t>(y) * stride;
            std::fill(line + x0, line + std::max(x0, x1), pixel);
        }
    }
}

// Draws every visible event, whole run, into an image of the lanes. Touching events of a class
// merge into one rectangle, and a pixel column holding several sub-pixel events shows the class
// that covers most of it. Lanes are sorted by start, so each lane costs a binary search plus its
// visible events.
void TimelineView::renderEventLayer(const Layout& l, qreal dpr) const {
    EventLayer& cache = event_layer_;
    cache.index = index_;
    cache.revision = index_ ? index_->revision() : 0;
    cache.from = from_;
    cache.to = to_;
    cache.plot = l.plot;
    cache.pitch = l.lane_pitch;
    cache.dpr = dpr;
    cache.valid = true;
    const QSize pixels = (l.plot.size() * dpr).toSize();
    if (cache.image.size() != pixels.expandedTo(QSize(1, 1)))
        cache.image = QImage(pixels.expandedTo(QSize(1, 1)), QImage::Format_ARGB32_Premultiplied);
    cache.image.setDevicePixelRatio(dpr);
    cache.image.fill(Qt::transparent);
    const int n = workers();
    if (n == 0 || l.plot.width() <= 0)
        return;
    const double scale = l.plot.width() / static_cast<double>(to_ - from_);
    const double left = l.plot.left();
    auto x_of = [&](Ticks t) { return left + static_cast<double>(t - from_) * scale; };

    struct Run {
        int cls = -1; // the run being extended, or none
        int x0 = 0, x1 = 0;
        QRectF band;
    };
    std::array<std::vector<QRect>, ClassCount> rects;
    auto flush_run = [&](Run& r) {
        if (r.cls >= 0)
            rects[static_cast<std::size_t>(r.cls)].emplace_back(
                r.x0, static_cast<int>(r.band.top()), r.x1 - r.x0,
                static_cast<int>(r.band.height()));
        r.cls = -1;
    };
    auto extend = [&](Run& r, int cls, int x0, int x1, const QRectF& band) {
        x1 = std::max(x1, x0 + 1);
        if (r.cls == cls && x0 <= r.x1 && r.band == band) {
            r.x1 = std::max(r.x1, x1);
            return;
        }
        flush_run(r);
        r = {cls, x0, x1, band};
    };

    for (int k = 0; k < n; ++k) {
        const auto lane = index_->lane(k);
        if (lane.empty())
            continue;
        const QRectF lane_rect = l.lane(k);
        std::array<QRectF, BandCount> band;
        for (int b = 0; b < BandCount; ++b)
            band[static_cast<std::size_t>(b)] = band_rect(lane_rect, static_cast<Band>(b));
        // Events of a pixel or more are drawn in their own band. Narrower ones share pixel
        // columns: each column shows, over the whole lane, the class that covers most of it.
        std::array<Run, BandCount> wide;
        Run narrow;
        int column = std::numeric_limits<int>::min();
        std::array<double, ClassCount> covered{};
        auto flush_column = [&] {
            if (column == std::numeric_limits<int>::min())
                return;
            const auto cls = static_cast<int>(std::max_element(covered.begin(), covered.end()) -
                                              covered.begin());
            const bool outer = cls == WaitClass || cls == PauseClass;
            extend(narrow, cls, column, column + 1, band[outer ? Outer : Inner]);
            column = std::numeric_limits<int>::min();
            covered.fill(0.0);
        };

        // The first event starting at or after `from_`, then back over the few reaching into it.
        auto first =
            std::lower_bound(lane.begin(), lane.end(), from_,
                             [](const TraceEvent& e, Ticks value) { return e.start < value; });
        for (auto back = first; back != lane.begin() && first - back < 16;) {
            --back;
            if (back->end > from_)
                first = back;
        }
        for (auto it = first; it != lane.end() && it->start < to_; ++it) {
            if (it->end <= from_ || it->end <= it->start)
                continue;
            const double x0 = x_of(std::max(it->start, from_));
            const double x1 = x_of(std::min(it->end, to_));
            const int cls = class_of(it->kind);
            if (x1 - x0 >= 1.0) {
                const auto b = static_cast<std::size_t>(band_of(it->kind));
                extend(wide[b], cls, static_cast<int>(std::lround(x0)),
                       static_cast<int>(std::lround(x1)), band[b]);
            } else {
                const int c = static_cast<int>(std::floor((x0 + x1) / 2));
                if (c != column) {
                    flush_column();
                    column = c;
                }
                covered[static_cast<std::size_t>(cls)] += x1 - x0;
            }
        }
        flush_column();
        flush_run(narrow);
        for (auto& r : wide)
            flush_run(r);
    }

    // Solid fills go straight into the pixels (thousands of small rectangles cost a painter far
    // more); patterns are then laid over their kinds' rectangles with a painter.
    QPainter painter;
    for (int c = 0; c < ClassCount; ++c) {
        const auto& list = rects[static_cast<std::size_t>(c)];
        if (list.empty())
            continue;
        const ActivityStyle style = style_for(kClassKinds[static_cast<std::size_t>(c)]);
        fill_rects(cache.image, list, l.plot.topLeft(), dpr, style.colour);
        if (style.brush != Qt::SolidPattern) {
            if (!painter.isActive()) {
                painter.begin(&cache.image);
                painter.translate(-l.plot.topLeft());
                painter.setPen(Qt::NoPen);
            }
            painter.setBrush(QBrush(pattern_colour(style.colour), style.brush));
            painter.drawRects(list.data(), static_cast<int>(list.size()));
        }
    }
}

// Draws the visible events, cut at the playhead. The event layer is redrawn only when the
// window, the geometry or the trace changes, so playback over a fixed window costs one blit.
// A loosely synchronised run (sync ssp or async): each push to the parameter server carries a
// tag "τ = n", the updates its gradient is behind, coloured from fresh (0) to stale. Tags that
// would overlap the one before on their lane are left out; hovering the push still says it.
void TimelineView::paintStaleness(QPainter& painter, const Layout& l) const {
    const Ticks limit = std::min(to_, playhead_);
    if (!index_ || workers() == 0 || limit <= from_)
        return;
    const QFontMetricsF fm(font());
    if (l.lane_pitch < fm.height() * 0.9)
        return; // lanes too thin for a tag
    painter.save();
    painter.setClipRect(l.plot);
    QFont small = font();
    small.setPointSizeF(small.pointSizeF() * 0.85);
    painter.setFont(small);
    const QFontMetricsF sm(small);
    for (int k = 0; k < workers(); ++k) {
        const QRectF lane = laneRect(k);
        double free_from = l.plot.left() - 1;
        for (const TraceEvent& e : index_->lane(k)) {
            if (e.kind != EventKind::Send || e.staleness < 0)
                continue;
            if (e.start < from_ || e.start > limit)
                continue;
            const QString text = QStringLiteral("\u03C4 = %1").arg(e.staleness);
            const double w = sm.horizontalAdvance(text) + sm.height() * 0.5;
            const double x = xForTime(e.start) - w / 2;
            if (x < free_from)
                continue;
            free_from = x + w + sm.height() * 0.3;
            const QRectF tag(x, lane.center().y() - sm.height() * 0.55, w, sm.height() * 1.1);
            const QColor fill = staleness_colour(e.staleness);
            painter.setPen(QPen(palette().color(QPalette::Base), 1));
            painter.setBrush(fill);
            painter.drawRoundedRect(tag, tag.height() * 0.3, tag.height() * 0.3);
            painter.setPen(textOn(fill));
            painter.drawText(tag, Qt::AlignCenter, text);
        }
    }
    painter.restore();
}

// The checkpoint's six kinds of event (write, sync, rename, commit, verify, restore) share a
// colour; each also has its pattern and, where the box has room, its letters ("Wr", "Sy", "Rn",
// "Cm", "Vf", "Rs"), and every such box an edge that stands out from the lane by 3:1 or more.
// Updates (sky blue, 2.3:1 alone on white) get the edge too.
void TimelineView::paintCheckpointKinds(QPainter& painter, const Layout& l) const {
    const Ticks limit = std::min(to_, playhead_);
    if (!index_ || workers() == 0 || limit <= from_)
        return;
    painter.save();
    painter.setClipRect(l.plot);
    QFont small = font();
    small.setPointSizeF(small.pointSizeF() * 0.8);
    painter.setFont(small);
    const QFontMetricsF fm(small);
    const QColor lane_colour = palette().color(QPalette::Base);
    for (int k = 0; k < workers(); ++k) {
        for (const TraceEvent& e : index_->lane(k)) {
            if (e.start >= limit)
                break;
            const bool checkpoint = e.kind == EventKind::CheckpointWrite ||
                                    e.kind == EventKind::CheckpointSync ||
                                    e.kind == EventKind::CheckpointCommit ||
                                    e.kind == EventKind::Verify || e.kind == EventKind::Restore;
            if ((!checkpoint && e.kind != EventKind::Update) || e.end <= from_)
                continue;
            TraceEvent shown = e;
            shown.end = std::min(e.end, limit);
            const QRectF r = eventRect(shown);
            if (r.width() < 3)
                continue;
            const ActivityStyle style = style_for(e);
            const QColor edge = outline_for(style.colour, lane_colour);
            if (style.brush != Qt::SolidPattern) {
                painter.setPen(Qt::NoPen);
                painter.setBrush(QBrush(edge, style.brush));
                painter.drawRect(r);
            }
            painter.setBrush(Qt::NoBrush);
            painter.setPen(QPen(edge, high_contrast() ? 2.0 : 1.0));
            painter.drawRect(r.adjusted(0.5, 0.5, -0.5, -0.5));
            if (checkpoint && r.width() >= fm.horizontalAdvance(style.symbol) + 4 &&
                r.height() >= fm.height()) {
                const QRectF tag = fm.boundingRect(style.symbol).adjusted(-2, 0, 2, 0);
                const QRectF at(r.center() - tag.center(), tag.size());
                painter.setPen(Qt::NoPen);
                painter.setBrush(style.colour);
                painter.drawRect(at);
                painter.setPen(textOn(style.colour));
                painter.drawText(at, Qt::AlignCenter, style.symbol);
            }
        }
    }
    painter.restore();
}

void TimelineView::paintEvents(QPainter& painter, const Layout& l) const {
    const Ticks limit = std::min(to_, playhead_);
    if (workers() == 0 || limit <= from_ || l.plot.width() <= 0)
        return;
    const qreal dpr = painter.device()->devicePixelRatioF();
    const EventLayer& cache = event_layer_;
    if (!cache.valid || cache.index != index_ || cache.revision != index_->revision() ||
        cache.from != from_ || cache.to != to_ || cache.plot != l.plot ||
        cache.pitch != l.lane_pitch || cache.dpr != dpr)
        renderEventLayer(l, dpr);
    painter.save();
    const double played = std::round(xForTime(limit));
    painter.setClipRect(
        QRectF(l.plot.left(), l.plot.top(), played - l.plot.left(), l.plot.height()));
    painter.drawImage(l.plot.topLeft(), cache.image);
    painter.restore();
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

// Lays out the branch marks' labels: a run-wide change's on the row of step numbers (later ones
// that would overlap go down a row), a worker's inside its lane (later ones move right of the
// one before). Empty rectangles for marks out of view.
QList<QRectF> TimelineView::branchMarkBoxes(const Layout& l) const {
    const QFontMetricsF fm(font());
    QList<QRectF> boxes;
    double run_right = l.plot.left() - 1;
    int run_row = 0;
    QHash<int, double> lane_right;
    for (const BranchMark& m : marks_) {
        if (m.at < from_ || m.at > to_) {
            boxes.append(QRectF());
            continue;
        }
        const double x = std::round(xForTime(m.at)) + 0.5;
        const double w = fm.horizontalAdvance(m.label) + l.line * 0.5;
        const double h = l.line * 1.05;
        const QRectF lane = l.lane(m.lane);
        if (lane.isEmpty()) {
            run_row = x < run_right ? run_row + 1 : 0;
            const double top = run_row == 0 ? l.steps.center().y() - h / 2
                                            : l.plot.top() + (run_row - 1) * h * 1.05;
            const QRectF box(std::min(x, l.plot.right() - w), top, w, h);
            run_right = std::max(run_right, box.right());
            boxes.append(box);
        } else {
            const double left = std::max(x + l.line * 0.2, lane_right.value(m.lane, lane.left()));
            const QRectF box(std::min(left, l.plot.right() - w),
                             lane.center().y() - std::min(h, lane.height()) / 2, w,
                             std::min(h, lane.height()));
            lane_right[m.lane] = box.right() + l.line * 0.3;
            boxes.append(box);
        }
    }
    return boxes;
}

QRectF TimelineView::branchMarkLabelRect(int mark) const {
    const QList<QRectF> boxes = branchMarkBoxes(layout());
    return mark >= 0 && mark < boxes.size() ? boxes[mark] : QRectF();
}

void TimelineView::paintBranchMarks(QPainter& painter, const Layout& l) const {
    // Reddish purple (Okabe-Ito), apart from every activity's colour.
    const QColor colour = palette().color(QPalette::Base).lightness() < 128
                              ? QColor(0xE0, 0x9C, 0xC4)
                              : QColor(0xA8, 0x4A, 0x82);
    const QList<QRectF> boxes = branchMarkBoxes(l);
    for (qsizetype i = 0; i < marks_.size(); ++i) {
        const BranchMark& m = marks_[i];
        const QRectF& box = boxes[i];
        if (box.isEmpty())
            continue;
        const double x = std::round(xForTime(m.at)) + 0.5;
        const QRectF lane = l.lane(m.lane);
        const double top = lane.isEmpty() ? l.steps.top() : lane.top();
        const double bottom = lane.isEmpty() ? l.plot.bottom() : lane.bottom();
        painter.setPen(QPen(colour, std::max(1.5, std::round(l.line / 10)), Qt::DashLine));
        painter.drawLine(QPointF(x, top), QPointF(x, bottom));
        painter.setPen(Qt::NoPen);
        painter.setBrush(colour);
        painter.drawRoundedRect(box, l.line * 0.2, l.line * 0.2);
        painter.setPen(palette().color(QPalette::Base));
        draw_label(painter, box.left() + l.line * 0.25, box.center().y(), m.label, l.ascent,
                   l.descent);
    }
}

QString TimelineView::recoveryText() const {
    return index_ ? recovery_caption(*index_, playhead_) : QString();
}

QRectF TimelineView::recoveryRect(const Layout& l, const QString& caption) const {
    if (caption.isEmpty() || l.plot.height() < 2 * l.line)
        return {};
    const QFontMetricsF fm(font());
    const double pad = l.line * 0.5;
    QRectF text =
        fm.boundingRect(l.plot.adjusted(2 * pad, 0, -2 * pad, 0), Qt::TextWordWrap, caption);
    text.setLeft(l.plot.left() + 2 * pad);
    text.setWidth(l.plot.width() - 4 * pad);
    text.setHeight(std::min(text.height(), l.plot.height() - 2 * pad));
    text.moveBottom(l.plot.bottom() - pad);
    return text.adjusted(-pad, -pad * 0.6, pad, pad * 0.6);
}

// While a recovery is under way, what it is doing, as the cluster view says it: in a box at the
// foot of the lanes.
void TimelineView::paintRecovery(QPainter& painter, const Layout& l) const {
    const QString caption = recoveryText();
    const QRectF box = recoveryRect(l, caption);
    if (box.isEmpty())
        return;
    const double pad = l.line * 0.5;
    painter.setPen(QPen(palette().color(QPalette::Text), 1.5));
    painter.setBrush(withAlpha(palette().color(QPalette::Base), 235));
    painter.drawRoundedRect(box, pad * 0.8, pad * 0.8);
    painter.save();
    painter.setClipRect(box);
    painter.drawText(box.adjusted(pad, pad * 0.6, -pad, -pad * 0.6),
                     Qt::TextWordWrap | Qt::AlignLeft | Qt::AlignVCenter, caption);
    painter.restore();
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
