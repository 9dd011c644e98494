#include "lockstep_views/timeline_view.h"

#include "lockstep_views/palette.h"
#include "lockstep_views/timeline_axis.h"
#include "lockstep_views/timeline_styles.h"

#include <QEvent>
#include <QHelpEvent>
#include <QKeyEvent>
#include <QMouseEvent>
#include <QToolTip>
#include <QWheelEvent>

#include <algorithm>
#include <cmath>

// The timeline's keys, wheel and mouse: zoom, pan, scrub and tooltips.
namespace lockstep::views {

using namespace timeline;

// The keys this view uses itself (the window's playback shortcuts leave them to it): Left and
// Right pan, + and - zoom, Home and 0 show the whole run.
static bool is_timeline_key(const QKeyEvent& key) {
    if (key.modifiers() & (Qt::ControlModifier | Qt::AltModifier | Qt::MetaModifier))
        return false;
    switch (key.key()) {
    case Qt::Key_Plus:
    case Qt::Key_Equal:
    case Qt::Key_Minus:
    case Qt::Key_Underscore:
    case Qt::Key_Left:
    case Qt::Key_Right:
    case Qt::Key_Home:
    case Qt::Key_0:
        return true;
    default:
        return false;
    }
}

bool TimelineView::event(QEvent* event) {
    if (event->type() == QEvent::ShortcutOverride &&
        is_timeline_key(*static_cast<QKeyEvent*>(event))) {
        event->accept();
        return true;
    }
    if (event->type() == QEvent::ToolTip) {
        const auto* help = static_cast<QHelpEvent*>(event);
        if (const TraceEvent* e = eventAt(help->pos())) {
            QToolTip::showText(help->globalPos(), describe(*e), this,
                               eventRect(*e).toAlignedRect());
        } else {
            QToolTip::hideText();
            event->ignore();
        }
        return true;
    }
    return QWidget::event(event);
}

void TimelineView::changeEvent(QEvent* event) {
    if (event->type() == QEvent::LanguageChange) {
        retranslate();
        updateAccessibleDescription();
    }
    if (event->type() == QEvent::FontChange || event->type() == QEvent::PaletteChange ||
        event->type() == QEvent::LanguageChange) {
        layout_valid_ = false;      // the lane labels' and step labels' widths
        event_layer_.valid = false; // the bars in the new colours (high contrast on or off)
        updateGeometry();
        update();
    }
    QWidget::changeEvent(event);
}

void TimelineView::wheelEvent(QWheelEvent* event) {
    const QPoint delta = event->angleDelta();
    if (delta.y() != 0) {
        zoomAround(event->position().x(), std::pow(0.8, delta.y() / 120.0));
    } else if (delta.x() != 0) {
        panByPixels(delta.x() / 120.0 * layout().plot.width() / 10.0);
    }
    event->accept();
}

void TimelineView::mousePressEvent(QMouseEvent* event) {
    if (event->button() != Qt::LeftButton)
        return QWidget::mousePressEvent(event);
    const Layout& l = layout();
    const QPointF pos = event->position();
    const bool on_axis = l.axis.contains(pos);
    if (on_axis || (event->modifiers() & Qt::ShiftModifier)) {
        drag_ = Drag::Scrub;
        const double x = std::clamp(pos.x(), l.plot.left(), l.plot.right());
        Q_EMIT playheadRequested(timeForX(x));
    } else if (l.plot.contains(pos) || l.steps.contains(pos)) {
        drag_ = Drag::Pan;
        drag_x_ = pos.x();
        drag_from_ = from_;
        setCursor(Qt::ClosedHandCursor);
    }
    event->accept();
}

void TimelineView::mouseMoveEvent(QMouseEvent* event) {
    const Layout& l = layout();
    const double x = event->position().x();
    if (drag_ == Drag::Scrub) {
        Q_EMIT playheadRequested(timeForX(std::clamp(x, l.plot.left(), l.plot.right())));
    } else if (drag_ == Drag::Pan) {
        const double span = static_cast<double>(to_ - from_);
        const auto shift =
            static_cast<Ticks>(std::llround((x - drag_x_) / std::max(l.plot.width(), 1.0) * span));
        const Ticks latest = std::max({dataEnd(), playhead_, Ticks{0}});
        const Ticks from = std::clamp<Ticks>(drag_from_ - shift, 0,
                                             std::max<Ticks>(latest - (to_ - from_) / 10, 0));
        fitted_ = false;
        applyRange(from, from + (to_ - from_));
    }
    event->accept();
}

void TimelineView::mouseReleaseEvent(QMouseEvent* event) {
    if (drag_ == Drag::Pan)
        unsetCursor();
    drag_ = Drag::None;
    event->accept();
}

void TimelineView::keyPressEvent(QKeyEvent* event) {
    if (!is_timeline_key(*event))
        return QWidget::keyPressEvent(event);
    const Layout& l = layout();
    const double playhead_x = xForTime(playhead_);
    const double anchor = playhead_x >= l.plot.left() && playhead_x <= l.plot.right()
                              ? playhead_x
                              : l.plot.center().x();
    switch (event->key()) {
    case Qt::Key_Plus:
    case Qt::Key_Equal:
        zoomAround(anchor, 0.8);
        break;
    case Qt::Key_Minus:
    case Qt::Key_Underscore:
        zoomAround(anchor, 1.25);
        break;
    case Qt::Key_Left:
        panByPixels(l.plot.width() / 10.0);
        break;
    case Qt::Key_Right:
        panByPixels(-l.plot.width() / 10.0);
        break;
    case Qt::Key_Home:
    case Qt::Key_0:
        fitAll();
        break;
    default:
        return QWidget::keyPressEvent(event);
    }
    event->accept();
}

} // namespace lockstep::views
