#include "lockstep_views/timeline_styles.h"

#include "lockstep_views/palette.h"
#include "lockstep_views/trace_index.h"

#include <QCoreApplication>
#include <QPainter>

#include <cmath>

namespace lockstep::views::timeline {

Band band_of(EventKind kind) {
    switch (kind) {
    case EventKind::Send:
        return Upper;
    case EventKind::Receive:
    case EventKind::Reduce:
        return Lower;
    case EventKind::Wait:
    case EventKind::Pause:
    case EventKind::Failed:
    case EventKind::Detect:
    case EventKind::Mismatch:
    case EventKind::Bubble:
        return Outer;
    case EventKind::Restore:
    case EventKind::Verify:
    case EventKind::Damage:
    case EventKind::Compute:
    case EventKind::Forward:
    case EventKind::Backward:
    case EventKind::Update:
    case EventKind::Communicate:
    case EventKind::CheckpointWrite:
    case EventKind::CheckpointSync:
    case EventKind::CheckpointCommit:
        break;
    }
    return Inner;
}

// The class of the activity the kind is (activity_of): the palette's one table.
PaintClass class_of(EventKind kind) {
    switch (activity_of(kind)) {
    case WorkerActivity::Computing:
        return ComputeClass;
    case WorkerActivity::Sending:
    case WorkerActivity::Receiving:
        return CommClass;
    case WorkerActivity::Updating:
        return UpdateClass;
    case WorkerActivity::Waiting:
        return WaitClass;
    case WorkerActivity::Paused:
        return PauseClass;
    case WorkerActivity::Checkpointing:
        return CheckpointClass;
    case WorkerActivity::Failed:
        return FailedClass;
    case WorkerActivity::Idle:
        break;
    }
    return ComputeClass;
}

QString class_label(PaintClass c) {
    switch (c) {
    case ComputeClass:
        return QCoreApplication::translate("TimelineView", "compute");
    case CommClass:
        return QCoreApplication::translate("TimelineView", "communicate");
    case UpdateClass:
        return QCoreApplication::translate("TimelineView", "update");
    case WaitClass:
        return QCoreApplication::translate("TimelineView", "wait");
    case PauseClass:
        return QCoreApplication::translate("TimelineView", "pause");
    case CheckpointClass:
        return QCoreApplication::translate("TimelineView", "checkpoint");
    case FailedClass:
        return QCoreApplication::translate("TimelineView", "failed");
    case ClassCount:
        break;
    }
    return {};
}

QColor pattern_colour(const QColor& colour) {
    return colour.darker(175);
}

QRectF band_rect(const QRectF& lane, Band band) {
    if (band == Outer)
        return lane;
    const double h = lane.height();
    const double inset = h >= 10 ? std::round(h * 0.15) : 0.0;
    const QRectF inner = lane.adjusted(0, inset, 0, -inset);
    if (band == Inner || inner.height() < 2)
        return inner;
    const double mid = inner.top() + std::floor(inner.height() / 2);
    return band == Upper ? QRectF(inner.left(), inner.top(), inner.width(), mid - inner.top())
                         : QRectF(inner.left(), mid, inner.width(), inner.bottom() - mid);
}

QRectF row_rect(const QRectF& lane, bool split, bool communication_row) {
    if (!split || lane.height() < 6)
        return lane;
    const double gap = std::max(1.0, std::round(lane.height() * 0.06));
    const double top_height = std::round((lane.height() - gap) * 0.55);
    return communication_row ? QRectF(lane.left(), lane.top() + top_height + gap, lane.width(),
                                      lane.height() - top_height - gap)
                             : QRectF(lane.left(), lane.top(), lane.width(), top_height);
}

void fill_swatch(QPainter& painter, const QRectF& r, EventKind kind) {
    const ActivityStyle style = style_for(kind);
    painter.fillRect(r, style.colour);
    if (style.brush != Qt::SolidPattern)
        painter.fillRect(r, QBrush(pattern_colour(style.colour), style.brush));
}

} // namespace lockstep::views::timeline
