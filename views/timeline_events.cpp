// The timeline's events: drawn once into an image of the lanes, shown up to the playhead.
#include "lockstep_views/timeline_view.h"

#include "lockstep_views/palette.h"
#include "lockstep_views/timeline_styles.h"

#include <QFontMetricsF>
#include <QPainter>

#include <algorithm>
#include <array>
#include <cmath>
#include <limits>
#include <vector>

namespace lockstep::views {

using namespace timeline;

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

    // With buckets each lane is drawn as two rows: computation, then the buckets' collectives.
    const bool split = index_->has_buckets();
    for (int row_index = 0; row_index < n * (split ? 2 : 1); ++row_index) {
        const int k = split ? row_index / 2 : row_index;
        const bool communication_row = split && row_index % 2 == 1;
        const auto lane = index_->lane(k);
        if (lane.empty())
            continue;
        const QRectF lane_rect = row_rect(l.lane(k), split, communication_row);
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
            if (it->end <= from_ || it->end <= it->start ||
                (split && (it->bucket >= 0) != communication_row))
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

} // namespace lockstep::views
