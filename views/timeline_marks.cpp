// The timeline's notes over the lanes: the branch marks and the recovery box.
#include "lockstep_views/timeline_view.h"

#include "lockstep_views/palette.h"
#include "lockstep_views/recovery_caption.h"
#include "lockstep_views/timeline_axis.h"

#include <QFontMetricsF>
#include <QHash>
#include <QPainter>

#include <algorithm>
#include <cmath>

namespace lockstep::views {

using namespace timeline;

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

} // namespace lockstep::views
