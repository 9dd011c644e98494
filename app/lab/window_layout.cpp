// How the lab window fits its panes to its size and to the projector.
#include "main_window.h"

#include "controls_panel.h"
#include "lesson_pane.h"
#include "study_panel.h"
#include "worked_example_panel.h"

#include "lockstep_lessons/action.h"
#include "lockstep_lessons/lesson.h"
#include "lockstep_views/cluster_view.h"
#include "lockstep_views/timeline_view.h"

#include <QAction>
#include <QApplication>
#include <QCursor>
#include <QDockWidget>
#include <QFontMetrics>
#include <QResizeEvent>
#include <QScreen>
#include <QSettings>
#include <QSplitter>
#include <QTabWidget>
#include <QTimer>
#include <QToolBar>
#include <QWindow>

namespace lockstep::app {

bool MainWindow::isLessonTool(const QWidget* page) const {
    return page && (page == static_cast<const QWidget*>(lesson_pane_->calculator()) ||
                    page == static_cast<const QWidget*>(lesson_pane_->study()));
}

int MainWindow::lessonWidth() const {
    return std::clamp(width() * 26 / 100, 240, 380);
}

// The window at any size from 1024x768 up: the lesson on the left at a readable width, the
// Controls beside the views or, when that leaves the views too little room, under them; the
// cluster beside the other views or, short of room, in their tabs. Nothing is ever squeezed below
// what it needs to be read.
void MainWindow::fitPanes() {
    const int w = width();
    const int lesson = lesson_dock_->isVisible() ? lessonWidth() : 0;
    const int controls_width = controls_->sizeHint().width();
    // Wanted (its menu entry ticked), even while it is a tab behind the lesson.
    const bool controls_wanted = controls_dock_->toggleViewAction()->isChecked();
    const int controls = controls_wanted && !controls_dock_->isFloating() ? controls_width : 0;
    int pages = 0; // the widest side view, which the tabs must leave room for
    for (int i = 0; i < side_tabs_->count(); ++i)
        if (QWidget* page = side_tabs_->widget(i); page != cluster_ && !isLessonTool(page))
            pages = std::max(pages, page->minimumSizeHint().width());
    pages += 8; // the tab widget's frame
    // The views need no more than the widest of them, whatever the arrangement: the window can
    // always be made as narrow as the compact arrangement, which fitPanes() then takes up.
    splitter_->setMinimumWidth(pages);
    const int slack = 24; // separators between docks and views
    const bool controls_beside = !controls_placed_ && controls > 0
                                     ? lesson + controls + pages + slack <= w
                                     : controls_area_ != Qt::BottomDockWidgetArea;
    if (!controls_placed_ && controls > 0) {
        // Beside the views; else under them while that leaves the views room (about 26 lines
        // of text); else a tab beside the lesson (large text on a projector's short screen).
        const bool below_fits =
            height() - controls_->wideHeightHint() >= fontMetrics().height() * 26;
        const Qt::DockWidgetArea area = controls_beside ? Qt::RightDockWidgetArea
                                        : below_fits    ? Qt::BottomDockWidgetArea
                                                        : Qt::LeftDockWidgetArea;
        if (area != controls_area_) {
            controls_area_ = area;
            addDockWidget(area, controls_dock_);
            if (area == Qt::LeftDockWidgetArea && lesson_dock_->isVisible()) {
                tabifyDockWidget(lesson_dock_, controls_dock_);
                lesson_dock_->raise();
            }
        }
    }
    const int beside = controls_beside ? controls : 0;
    const bool cluster_in_tabs =
        lesson + beside + cluster_->minimumSizeHint().width() + pages + slack > w;
    if (cluster_in_tabs != (side_tabs_->indexOf(cluster_) >= 0)) {
        if (cluster_in_tabs) {
            QWidget* shown = side_tabs_->currentWidget();
            side_tabs_->insertTab(0, cluster_, tr("Cluster"));
            side_tabs_->setCurrentWidget(frontView(shown));
        } else {
            side_tabs_->removeTab(side_tabs_->indexOf(cluster_));
            top_->insertWidget(0, cluster_);
            cluster_->show(); // the tabs hid it when another page was current, or it left them
            top_->setSizes({w * 45 / 100, w * 55 / 100});
        }
    }
    if ((fitted_width_ < 0 || std::abs(w - fitted_width_) > 40) && !sizing_pending_) {
        // Once the layout has taken the new arrangement in: the panes' widths and heights.
        sizing_pending_ = true;
        QTimer::singleShot(0, this, [this] {
            sizing_pending_ = false;
            sizePanes();
        });
    }
}

// The docks' widths (and the Controls' height under the views) and the timeline's share.
void MainWindow::sizePanes() {
    if (lesson_dock_->isVisible())
        resizeDocks({lesson_dock_}, {lessonWidth()}, Qt::Horizontal);
    if (controls_dock_->isVisible() && !controls_dock_->isFloating() &&
        controls_area_ != Qt::LeftDockWidgetArea) { // a tab beside the lesson has its width
        if (controls_area_ == Qt::BottomDockWidgetArea)
            resizeDocks({controls_dock_},
                        {controls_->sizeHint().height() + controls_dock_->height() -
                         controls_->height()}, // the fields and the dock's title
                        Qt::Vertical);
        else
            resizeDocks({controls_dock_}, {controls_->sizeHint().width()}, Qt::Horizontal);
    }
    fitTimeline();
    fitted_width_ = width();
}

// Every lane of the timeline at a readable height (as far as 45 % of the height allows, and always
// at least 18 px a lane while the views above keep kTopMinimum),
// the rest for the views above: when the window is laid out, and when a run brings another
// number of lanes.
void MainWindow::fitTimeline() {
    const int tall = splitter_->height();
    const int workers = std::max(1, session_.traceIndex().workers());
    const QFontMetrics fm(timeline_->font());
    const int readable = fm.height() * 6 + workers * 24; // the legend and the axis, and the lanes
    const int share = tall * 45 / 100;
    const int lanes = std::max(std::min(timeline_->sizeHint().height(), share),
                               std::min(readable, tall - kTopMinimum));
    if (tall > 0)
        splitter_->setSizes({tall - lanes, lanes});
    fitted_lanes_ = session_.traceIndex().workers();
}

// Which tab to show when the cluster joins the tabs: the first view the lesson names that is in
// them, else the cluster (for a scenario without a lesson), else what was shown.
QWidget* MainWindow::frontView(QWidget* shown) const {
    if (isLessonTool(shown))
        return shown; // the student asked for it
    if (const lessons::Lesson* l = lesson_pane_->currentLesson()) {
        for (const QString& name : l->views)
            if (QWidget* v = view(name); v && side_tabs_->indexOf(v) >= 0)
                return v;
        return shown;
    }
    return cluster_;
}

void MainWindow::resizeEvent(QResizeEvent* event) {
    QMainWindow::resizeEvent(event);
    fitPanes();
    // Taller or shorter (full screen on a screen as wide as the window was): the lanes again.
    if (std::abs(event->size().height() - event->oldSize().height()) > 40)
        QTimer::singleShot(0, this, [this] { fitTimeline(); });
}

void MainWindow::showEvent(QShowEvent* event) {
    QMainWindow::showEvent(event);
    fitted_width_ = -1;
    fitPanes();
}

// The current page's lockstep: links as buttons, in the order the page has them.
void MainWindow::refreshLessonLinks() {
    lesson_links_->clear();
    const lessons::Lesson* l = lesson_pane_->currentLesson();
    if (!l)
        return;
    QStringList seen;
    for (const lessons::Link& link : lessons::extract_links(l->markdown)) {
        if (!lessons::is_action_link(link.url) || seen.contains(link.url))
            continue;
        seen << link.url;
        QAction* a = lesson_links_->addAction(link.text);
        a->setToolTip(link.url);
        const QString url = link.url;
        connect(a, &QAction::triggered, this, [this, url] { lesson_pane_->activateLink(url); });
    }
    if (presenting_)
        lesson_links_->setVisible(!lesson_links_->actions().isEmpty());
}

void MainWindow::setPresentationMode(bool on) {
    if (on == presenting_) {
        presentation_action_->setChecked(on);
        return;
    }
    if (on) {
        normal_state_ = windowState() & ~Qt::WindowFullScreen;
        normal_geometry_ = normal_state_ ? normalGeometry() : geometry();
    }
    presenting_ = on;
    presentation_action_->setChecked(on);
    lesson_dock_->setVisible(!on);
    controls_dock_->setVisible(!on);
    // The page is hidden, its links are not: a strip of them for the teacher to click.
    refreshLessonLinks();
    lesson_links_->setVisible(on && !lesson_links_->actions().isEmpty());
    fitted_width_ = -1;
    if (on) {
        // Full screen on the screen the window is on now, whichever of the computer's that is.
        QScreen* here = QGuiApplication::screenAt(frameGeometry().center());
        if (here && windowHandle())
            windowHandle()->setScreen(here);
        applyFont();
        showFullScreen();
        QTimer::singleShot(0, this, [this] { sizePanes(); });
    } else {
        applyFont();
        // Back as it was: maximised, or at its place and size.
        setWindowState(normal_state_);
        if (!(normal_state_ & Qt::WindowMaximized) && normal_geometry_.isValid())
            setGeometry(normal_geometry_);
        show();
        QTimer::singleShot(0, this, [this] { sizePanes(); });
    }
}

double MainWindow::textScale(int size) {
    static constexpr double scales[kTextSizes] = {1.0, 1.2, 1.4, 1.6, 1.8};
    return scales[std::clamp(size, 0, kTextSizes - 1)];
}

void MainWindow::setTextSize(int size) {
    size = std::clamp(size, 0, kTextSizes - 1);
    if (size == text_size_)
        return;
    text_size_ = size;
    settings_->setValue(QStringLiteral("text_size"), size);
    applyFont();
    fitted_width_ = -1;
    fitPanes();
    QTimer::singleShot(0, this, [this] { sizePanes(); });
    showStatus(tr("Text size %1 %").arg(qRound(textScale(size) * 100)));
}

// The application's font: the normal one times the text size, and larger again in presentation
// mode, by as much as the screen's height leaves room for.
void MainWindow::applyFont() {
    double factor = textScale(text_size_);
    if (presenting_) {
        const QScreen* here = screen();
        const int tall = here ? here->geometry().height() : 900;
        factor *= tall >= 1000 ? 1.6 : tall >= 850 ? 1.45 : 1.3;
    }
    QFont f = normal_font_;
    if (normal_font_.pointSizeF() > 0)
        f.setPointSizeF(normal_font_.pointSizeF() * factor);
    else
        f.setPixelSize(qRound(normal_font_.pixelSize() * factor));
    QApplication::setFont(f);
}

QString MainWindow::placeKey(const QScreen* screen) const {
    QString name = screen->name().isEmpty() ? QStringLiteral("screen") : screen->name();
    name.replace(QLatin1Char('/'), QLatin1Char('_'));
    const QSize size = screen->geometry().size();
    return QStringLiteral("window/%1-%2x%3").arg(name).arg(size.width()).arg(size.height());
}

void MainWindow::placeOnScreen(QScreen* screen) {
    if (!screen)
        screen = QGuiApplication::screenAt(QCursor::pos());
    if (!screen)
        screen = QGuiApplication::primaryScreen();
    if (!screen)
        return;
    const QRect available = screen->availableGeometry();
    const QString key = placeKey(screen);
    const QRect saved = settings_->value(key + QStringLiteral("/geometry")).toRect();
    const bool maximised = settings_->value(key + QStringLiteral("/maximised"), false).toBool();
    setWindowState(windowState() & ~(Qt::WindowMaximized | Qt::WindowFullScreen));
    if (saved.isValid() && available.contains(saved)) {
        setGeometry(saved);
        if (maximised)
            setWindowState(windowState() | Qt::WindowMaximized);
        return;
    }
    // A projector or a small laptop: all of it. A larger screen: the size the panes were laid
    // out for, in its middle.
    const QSize size = QSize(1440, 900).boundedTo(available.size());
    QRect place(QPoint(0, 0), size);
    place.moveCenter(available.center());
    setGeometry(place);
    if (available.width() <= 1440 || available.height() <= 900)
        setWindowState(windowState() | Qt::WindowMaximized);
}

// Where the window is, for the next start on a screen of the same name and size.
void MainWindow::rememberPlace() {
    const QScreen* here = screen();
    if (!here || presenting_)
        return;
    const QString key = placeKey(here);
    settings_->setValue(key + QStringLiteral("/geometry"), normalGeometry());
    settings_->setValue(key + QStringLiteral("/maximised"), isMaximized());
    settings_->sync();
}

void MainWindow::closeEvent(QCloseEvent* event) {
    if (presenting_) {
        presenting_ = false; // the place before presentation mode is the one to keep
        setWindowState(normal_state_);
        if (normal_geometry_.isValid())
            setGeometry(normal_geometry_);
    }
    rememberPlace();
    QMainWindow::closeEvent(event);
}

} // namespace lockstep::app
