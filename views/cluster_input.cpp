#include "lockstep_views/cluster_view.h"

#include "lockstep_views/numbers.h"
#include "lockstep_views/palette.h"

#include <QContextMenuEvent>
#include <QHelpEvent>
#include <QKeyEvent>
#include <QMenu>
#include <QMouseEvent>
#include <QToolTip>

#include <algorithm>

// The cluster view's input: a worker's fault menu from a click, the keyboard or the context-menu
// key, the arrow keys choosing a worker, and the tooltips.
namespace lockstep::views {

QMenu* ClusterView::buildWorkerMenu(int worker) {
    auto* menu = new QMenu(this);
    menu->setAttribute(Qt::WA_DeleteOnClose);
    menu->setAccessibleName(tr("Faults for worker %1").arg(worker));
    menu->addSection(tr("Worker %1").arg(worker));
    menu->setToolTipsVisible(true);
    for (const WorkerAction& entry : menu_) {
        QAction* action = menu->addAction(entry.text);
        const QString id = entry.id;
        action->setData(id);
        if (!entry.unavailable.isEmpty()) {
            // Shown, so the class learns it exists, but greyed with the reason.
            action->setEnabled(false);
            action->setToolTip(entry.unavailable);
        }
        connect(action, &QAction::triggered, this,
                [this, worker, id] { Q_EMIT workerActionRequested(worker, id); });
    }
    return menu;
}

void ClusterView::setWorkerMenu(QList<WorkerAction> menu) {
    menu_ = std::move(menu);
}

void ClusterView::openMenu(int worker, QPoint globalPosition) {
    focusWorker_ = worker;
    update();
    buildWorkerMenu(worker)->popup(globalPosition);
}

// The keys this view uses itself, so the window's playback shortcuts leave them to it: arrows
// choose a worker; Enter, the menu key and Shift+F10 open its faults. Space stays the window's
// (play and pause).
static bool is_cluster_key(const QKeyEvent& key) {
    if (key.modifiers() & (Qt::ControlModifier | Qt::AltModifier | Qt::MetaModifier))
        return false;
    switch (key.key()) {
    case Qt::Key_Left:
    case Qt::Key_Right:
    case Qt::Key_Up:
    case Qt::Key_Down:
    case Qt::Key_Return:
    case Qt::Key_Enter:
    case Qt::Key_Menu:
        return true;
    case Qt::Key_F10:
        return key.modifiers() & Qt::ShiftModifier;
    default:
        return false;
    }
}

bool ClusterView::event(QEvent* event) {
    if (event->type() == QEvent::ShortcutOverride &&
        is_cluster_key(*static_cast<QKeyEvent*>(event)) && scene().workers > 0) {
        event->accept();
        return true;
    }
    if (event->type() == QEvent::ToolTip) {
        auto* help = static_cast<QHelpEvent*>(event);
        const int worker = workerAt(help->pos());
        if (worker < 0) {
            QToolTip::hideText();
            event->ignore();
            return true;
        }
        updateStates();
        const auto i = static_cast<std::size_t>(worker);
        QToolTip::showText(help->globalPos(),
                           tr("Worker %1: %2\nfirst gradient entry %3\nclick for faults")
                               .arg(worker)
                               .arg(style_for(activities_[i]).label)
                               .arg(display_number(gradients_[i], 'g', 4)),
                           this);
        return true;
    }
    return QWidget::event(event);
}

void ClusterView::mousePressEvent(QMouseEvent* event) {
    if (event->button() == Qt::LeftButton) {
        const int worker = workerAt(event->position());
        if (worker >= 0) {
            openMenu(worker, event->globalPosition().toPoint());
            event->accept();
            return;
        }
    }
    QWidget::mousePressEvent(event);
}

void ClusterView::mouseMoveEvent(QMouseEvent* event) {
    if (workerAt(event->position()) >= 0)
        setCursor(Qt::PointingHandCursor);
    else
        unsetCursor();
    QWidget::mouseMoveEvent(event);
}

void ClusterView::contextMenuEvent(QContextMenuEvent* event) {
    const ClusterScene& s = scene();
    int worker = -1;
    QPoint at = event->globalPos();
    if (event->reason() == QContextMenuEvent::Keyboard) {
        if (focusWorker_ >= 0 && focusWorker_ < s.workers) {
            worker = focusWorker_;
            at = mapToGlobal(s.centres[static_cast<std::size_t>(worker)].toPoint());
        }
    } else {
        worker = workerAt(event->pos());
    }
    if (worker < 0) {
        event->ignore();
        return;
    }
    openMenu(worker, at);
    event->accept();
}

// Arrow keys move between workers; Enter, the menu key or Shift+F10 open the chosen one's faults
// (the menu a click opens).
void ClusterView::keyPressEvent(QKeyEvent* event) {
    const int n = scene().workers;
    if (n <= 0 || !is_cluster_key(*event)) {
        QWidget::keyPressEvent(event);
        return;
    }
    focusWorker_ = std::clamp(focusWorker_, 0, n - 1);
    switch (event->key()) {
    case Qt::Key_Left:
    case Qt::Key_Up:
        focusWorker_ = (focusWorker_ + n - 1) % n;
        break;
    case Qt::Key_Right:
    case Qt::Key_Down:
        focusWorker_ = (focusWorker_ + 1) % n;
        break;
    default: // Enter, the menu key, Shift+F10
        openMenu(focusWorker_,
                 mapToGlobal(scene().centres[static_cast<std::size_t>(focusWorker_)].toPoint()));
        break;
    }
    update();
    event->accept();
}

} // namespace lockstep::views
