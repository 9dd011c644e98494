// A sharded run's collectives on the timeline: each stretch of a worker's messages named by the
// half of the all-reduce it is ("all-gather L2", "reduce-scatter L2"), so a student sees a
// stage-3 step gather every layer before it computes and scatter its gradient after.
#include "lockstep_views/timeline_view.h"

#include "lockstep_views/palette.h"
#include "lockstep_views/timeline_styles.h"

#include <QFontMetricsF>
#include <QPainter>

#include <algorithm>

namespace lockstep::views {

using namespace timeline;

void TimelineView::paintHalves(QPainter& painter, const Layout& l) const {
    const Ticks limit = std::min(to_, playhead_);
    if (!index_ || workers() == 0 || limit <= from_)
        return;
    painter.save();
    painter.setClipRect(
        QRectF(l.plot.left(), l.plot.top(), xForTime(limit) - l.plot.left(), l.plot.height()));
    QFont small = font();
    small.setPointSizeF(small.pointSizeF() * 0.8);
    painter.setFont(small);
    const QFontMetricsF fm(small);
    const QColor base = palette().color(QPalette::Base);
    const QColor text = palette().color(QPalette::Text);
    for (int k = 0; k < workers(); ++k) {
        CollectiveHalf half = CollectiveHalf::None;
        int layer = -1;
        std::int64_t step = -1;
        Ticks from = 0, to = 0;
        auto close_span = [&] {
            if (half == CollectiveHalf::None || to <= from_ || from >= limit)
                return;
            const QRectF lane = laneRect(k);
            const double x0 = xForTime(std::max(from, from_));
            const double x1 = xForTime(std::min(to, limit));
            painter.setPen(QPen(base, 1));
            painter.drawLine(QPointF(std::round(xForTime(from)) + 0.5, lane.top()),
                             QPointF(std::round(xForTime(from)) + 0.5, lane.bottom()));
            const bool gather = half == CollectiveHalf::AllGather;
            const QString full =
                layer >= 0 ? (gather ? tr("all-gather L%1") : tr("reduce-scatter L%1")).arg(layer)
                           : (gather ? tr("all-gather") : tr("reduce-scatter"));
            const QString brief =
                layer >= 0 ? (gather ? tr("AG%1", "all-gather of a layer, where its name does "
                                                  "not fit")
                                     : tr("RS%1", "reduce-scatter of a layer's gradient, where "
                                                  "its name does not fit"))
                                 .arg(layer)
                           : (gather ? tr("AG") : tr("RS"));
            const double room = x1 - x0 - 4;
            const QString shown = room >= fm.horizontalAdvance(full) + 6    ? full
                                  : room >= fm.horizontalAdvance(brief) + 6 ? brief
                                                                            : QString();
            if (shown.isEmpty() || lane.height() < fm.height() * 0.9)
                return;
            // On a pill of the background, so the messages' colours do not cross the words.
            const double w = fm.horizontalAdvance(shown) + 6;
            const QRectF pill((x0 + x1 - w) / 2, lane.center().y() - fm.height() / 2, w,
                              fm.height());
            painter.setPen(Qt::NoPen);
            painter.setBrush(withAlpha(base, 225));
            painter.drawRoundedRect(pill, 3, 3);
            painter.setPen(text);
            painter.drawText(pill, Qt::AlignCenter, shown);
        };
        for (const TraceEvent& e : index_->lane(k)) {
            if (e.start >= limit)
                break;
            if (e.half == CollectiveHalf::None) {
                if (e.kind == EventKind::Compute || e.kind == EventKind::Update) {
                    close_span();
                    half = CollectiveHalf::None;
                }
                continue;
            }
            if (e.half != half || e.layer != layer || e.step != step) {
                close_span();
                half = e.half;
                layer = e.layer;
                step = e.step;
                from = e.start;
                to = e.end;
            } else {
                to = std::max(to, e.end);
            }
        }
        close_span();
    }
    painter.restore();
}

} // namespace lockstep::views
