// Gradient buckets on the timeline: a worker's backward drawn layer by layer ("L3", "L2", ...)
// on its compute row, and each bucket's collective named ("bucket 0", ...) on its communication
// row, so a student sees which layers' gradients are travelling while backward goes on.
#include "lockstep_views/timeline_view.h"

#include "lockstep_views/palette.h"
#include "lockstep_views/timeline_styles.h"

#include <QFontMetricsF>
#include <QPainter>

#include <algorithm>
#include <vector>

namespace lockstep::views {

using namespace timeline;

void TimelineView::paintBuckets(QPainter& painter, const Layout& l) const {
    const Ticks limit = std::min(to_, playhead_);
    if (!index_ || !index_->has_buckets() || workers() == 0 || limit <= from_)
        return;
    painter.save();
    painter.setClipRect(
        QRectF(l.plot.left(), l.plot.top(), xForTime(limit) - l.plot.left(), l.plot.height()));
    QFont small = font();
    small.setPointSizeF(small.pointSizeF() * 0.8);
    painter.setFont(small);
    const QFontMetricsF fm(small);
    const QColor lane_colour = palette().color(QPalette::Base);
    // The text, or its short form when the box is too narrow for it, or nothing.
    auto label = [&](const QRectF& r, const QString& text, const QColor& fill,
                     const QString& brief = {}) {
        if (r.height() < fm.height() * 0.8)
            return;
        const QString shown = r.width() >= fm.horizontalAdvance(text) + 4 ? text
                              : !brief.isEmpty() && r.width() >= fm.horizontalAdvance(brief) + 4
                                  ? brief
                                  : QString();
        if (shown.isEmpty())
            return;
        painter.setPen(textOn(fill));
        painter.drawText(r, Qt::AlignCenter, shown);
    };
    struct Tag {
        QRectF box;
        QString text;
    };
    std::vector<Tag> tags; // drawn last, over everything else
    for (int k = 0; k < workers(); ++k) {
        // One bucket's collective: from its first event to its last, on this worker.
        int bucket = -1;
        std::int64_t step = -1;
        Ticks from = 0, to = 0;
        auto close_bucket = [&] {
            if (bucket < 0 || to <= from_ || from >= limit)
                return;
            const QRectF row = row_rect(laneRect(k), true, true);
            const QRectF r(xForTime(from), row.top(),
                           xForTime(std::min(to, limit)) - xForTime(from), row.height());
            painter.setPen(QPen(lane_colour, 1));
            painter.drawLine(QPointF(std::round(r.left()) + 0.5, r.top()),
                             QPointF(std::round(r.left()) + 0.5, r.bottom()));
            label(r, tr("bucket %1").arg(bucket), style_for(EventKind::Send).colour,
                  tr("b%1", "a bucket's number where its name does not fit").arg(bucket));
        };
        for (const TraceEvent& e : index_->lane(k)) {
            if (e.start >= limit)
                break;
            if (e.kind == EventKind::Backward && e.layer >= 0 && e.end > from_) {
                const QRectF r = eventRect(e);
                painter.setPen(QPen(lane_colour, 1));
                painter.drawLine(QPointF(std::round(r.left()) + 0.5, r.top()),
                                 QPointF(std::round(r.left()) + 0.5, r.bottom()));
                label(r.intersected(
                          QRectF(r.left(), r.top(), xForTime(limit) - r.left(), r.height())),
                      tr("L%1").arg(e.layer), style_for(e.kind).colour);
            }
            if (e.kind == EventKind::Forward && e.microbatch < 0 && e.end > from_) {
                const QRectF r = eventRect(e);
                label(r.intersected(
                          QRectF(r.left(), r.top(), xForTime(limit) - r.left(), r.height())),
                      tr("forward"), style_for(e.kind).colour);
            }
            if (e.kind == EventKind::Mismatch && e.start >= from_) {
                // Where a message named the wrong bucket: the step stops here for everyone.
                const QRectF lane = laneRect(k);
                const double x = std::round(xForTime(e.start)) + 0.5;
                const QColor alarm = style_for(EventKind::Wait).colour;
                painter.setPen(QPen(alarm, 3));
                painter.drawLine(QPointF(x, lane.top()), QPointF(x, lane.bottom()));
                const QString text = tr("got bucket %1, expected %2: step stopped")
                                         .arg(static_cast<int>(e.value))
                                         .arg(e.bucket);
                const QRectF row = row_rect(lane, true, true);
                tags.push_back({QRectF(x + 3, row.center().y() - fm.height() / 2,
                                       fm.horizontalAdvance(text) + 6, fm.height()),
                                text});
                continue;
            }
            if (e.bucket < 0 || e.kind == EventKind::Wait)
                continue;
            if (e.bucket != bucket || e.step != step) {
                close_bucket();
                bucket = e.bucket;
                step = e.step;
                from = e.start;
                to = e.end;
            } else {
                to = std::max(to, e.end);
            }
        }
        close_bucket();
    }
    const QColor alarm = style_for(EventKind::Wait).colour;
    for (const Tag& tag : tags) {
        painter.setPen(Qt::NoPen);
        painter.setBrush(alarm);
        painter.drawRect(tag.box);
        painter.setPen(textOn(alarm));
        painter.drawText(tag.box, Qt::AlignCenter, tag.text);
    }
    painter.restore();
}

} // namespace lockstep::views
