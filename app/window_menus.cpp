// The window's menus, its playback toolbar, and the dialogs of its File menu.
#include "main_window.h"

#include "trace/chrome_trace.h"

#include "class_window.h"
#include "controls_panel.h"
#include "keyboard.h"
#include "lesson_pane.h"

#include "core/error.h"
#include "lockstep_views/cluster_view.h"
#include "lockstep_views/timeline_view.h"
#include "trace/trace.h"

#include <QAction>
#include <QDockWidget>
#include <QFile>
#include <QFileDialog>
#include <QLabel>
#include <QMenuBar>
#include <QMessageBox>
#include <QPainter>
#include <QSlider>
#include <QSvgGenerator>
#include <QTabWidget>
#include <QTextBrowser>
#include <QToolBar>

namespace lockstep::app {

void MainWindow::buildActions() {
    auto* file = menuBar()->addMenu(tr("&File"));
    auto add = [this](QMenu* menu, const QString& text, const QKeySequence& key, auto slot) {
        auto* a = menu->addAction(text);
        if (!key.isEmpty())
            a->setShortcut(key);
        connect(a, &QAction::triggered, this, slot);
        return a;
    };
    add(file, tr("&Open Scenario…"), QKeySequence::Open, [this] { openScenarioDialog(); });
    add(file, tr("Open &Recorded Run…"), QKeySequence(tr("Ctrl+Shift+O")),
        [this] { openRecordingDialog(); });
    add(file, tr("&Save Scenario…"), QKeySequence::Save, [this] { saveScenarioDialog(); });
    file->addSeparator();
    add(file, tr("Your Own &Lessons Folder…"), QKeySequence(),
        [this] { chooseOwnLessonsFolder(); });
    file->addSeparator();
    add(file, tr("Export View as &PNG…"), QKeySequence(tr("Ctrl+E")),
        [this] { exportViewDialog(QStringLiteral("png")); });
    add(file, tr("Export View as S&VG…"), QKeySequence(tr("Ctrl+Shift+E")),
        [this] { exportViewDialog(QStringLiteral("svg")); });
    add(file, tr("Export &Metrics as CSV…"), QKeySequence(), [this] { exportMetricsDialog(); });
    add(file, tr("Export &Trace (Chrome JSON)…"), QKeySequence(), [this] { exportTraceDialog(); });
    file->addSeparator();
    add(file, tr("&Quit"), QKeySequence::Quit, [this] { close(); });

    auto* play = menuBar()->addMenu(tr("&Playback"));
    play_action_ = add(play, tr("&Play"), QKeySequence(Qt::Key_Space),
                       [this] { session_.playback().togglePlay(); });
    auto* step = add(play, tr("&Next Event"), QKeySequence(Qt::Key_Right),
                     [this] { session_.playback().stepForward(); });
    auto* back = add(play, tr("Pre&vious Event"), QKeySequence(Qt::Key_Left),
                     [this] { session_.playback().stepBack(); });
    auto* reset =
        add(play, tr("&Reset"), QKeySequence(Qt::Key_R), [this] { session_.playback().reset(); });
    play->addSeparator();
    auto* faster = add(play, tr("&Faster"), QKeySequence(Qt::Key_BracketRight),
                       [this] { session_.playback().faster(); });
    auto* slower = add(play, tr("&Slower"), QKeySequence(Qt::Key_BracketLeft),
                       [this] { session_.playback().slower(); });
    play->addSeparator();
    add(play, tr("Run &Again"), QKeySequence(tr("Ctrl+R")),
        [this] { runScenario(session_.scenario()); });
    add(play, tr("&Compare Ways of Agreeing"), QKeySequence(tr("Ctrl+Shift+C")), [this] {
        // The scenario's own bound and period, else ssp with S = 2 and local SGD every 4 steps.
        const Scenario& s = session_.scenario();
        const int staleness = s.sync_mode() == SyncMode::Ssp ? s.sync->staleness : 2;
        const int local = s.sync_mode() == SyncMode::Local ? s.sync->local_steps : 4;
        compareModes({SyncMode::Bsp, SyncMode::Ssp, SyncMode::Async, SyncMode::Local}, staleness,
                     local);
    });

    auto* edit = menuBar()->addMenu(tr("Ed&it"));
    undo_action_ =
        add(edit, tr("&Undo Intervention"), QKeySequence::Undo, [this] { undoIntervention(); });
    undo_action_->setEnabled(false);

    auto* viewMenu = menuBar()->addMenu(tr("&View"));
    presentation_action_ = add(viewMenu, tr("&Presentation Mode"), QKeySequence(Qt::Key_F11),
                               [this] { setPresentationMode(!presenting_); });
    presentation_action_->setCheckable(true);
    auto* lessonToggle = lesson_dock_->toggleViewAction();
    lessonToggle->setText(tr("&Lesson Pane"));
    lessonToggle->setShortcut(QKeySequence(tr("Ctrl+L")));
    viewMenu->addAction(lessonToggle);
    controls_dock_->toggleViewAction()->setText(tr("&Controls Pane"));
    viewMenu->addAction(controls_dock_->toggleViewAction());
    add(viewMenu, tr("&Next Pane"), QKeySequence(Qt::Key_F6), [this] { focusNextPane(); });
    viewMenu->addSeparator();
    teacher_action_ = add(viewMenu, tr("&Teacher Mode…"), QKeySequence(tr("Ctrl+Shift+T")),
                          [this] { askForTeacherMode(); });
    teacher_action_->setCheckable(true);

    auto* klass = menuBar()->addMenu(tr("Class &Quiz"));
    add(klass, tr("&Start a Class Quiz…"), QKeySequence(tr("Ctrl+Shift+Q")),
        [this] { startClassQuizDialog(); });

    auto* help = menuBar()->addMenu(tr("&Help"));
    add(help, tr("&Keyboard Shortcuts…"), QKeySequence(QKeySequence::HelpContents),
        [this] { showShortcuts(); });
    add(help, tr("&About Lockstep"), QKeySequence(), [this] { showAbout(); });

    lesson_links_ = new QToolBar(tr("Lesson Links"), this);
    lesson_links_->setObjectName(QStringLiteral("lesson-links"));
    lesson_links_->setAccessibleName(tr("The lesson page's links"));
    lesson_links_->hide();

    auto* bar = addToolBar(tr("Playback"));
    bar->setObjectName(QStringLiteral("playback"));
    addToolBarBreak();
    addToolBar(lesson_links_);
    lesson_links_->hide();
    bar->addAction(back);
    bar->addAction(play_action_);
    bar->addAction(step);
    bar->addAction(reset);
    bar->addSeparator();
    bar->addAction(slower);
    speed_label_ = new QLabel(tr("speed 1×"));
    bar->addWidget(speed_label_);
    bar->addAction(faster);
    bar->addSeparator();
    scrubber_ = new QSlider(Qt::Horizontal);
    scrubber_->setRange(0, 1000);
    scrubber_->setSingleStep(10);
    scrubber_->setPageStep(100);
    scrubber_->setMinimumWidth(120);
    scrubber_->setAccessibleName(tr("Playhead"));
    scrubber_->setAccessibleDescription(tr("Drag, or use the arrow keys, to move through the run"));
    bar->addWidget(scrubber_);
    // Dragged or moved with the keyboard: the playhead follows the slider.
    connect(scrubber_, &QSlider::actionTriggered, this, [this] {
        session_.playback().scrubTo(session_.traceIndex().end_time() * scrubber_->sliderPosition() /
                                    1000);
    });
    time_label_ = new QLabel;
    bar->addWidget(time_label_);
    // Bare keys: a focused control that uses one keeps it (see keyboard.h for the whole rule).
    for (QAction* a : {play_action_, step, back, reset, faster, slower})
        a->setShortcutContext(Qt::WindowShortcut);
    new KeyRouter(this);
}

void MainWindow::showShortcuts() {
    auto* dialog = new ShortcutsDialog(*this, this);
    dialog->setAttribute(Qt::WA_DeleteOnClose);
    dialog->show();
}

// F6: lesson page, controls, the views in turn, so the keyboard can reach every pane.
void MainWindow::focusNextPane() {
    QList<QWidget*> panes = {lesson_pane_->page(), controls_, cluster_, side_tabs_->currentWidget(),
                             timeline_};
    panes.removeIf([this](QWidget* w) { return !w || !w->isVisibleTo(this); });
    if (panes.isEmpty())
        return;
    QWidget* focus = focusWidget();
    qsizetype at = -1;
    for (qsizetype i = 0; i < panes.size(); ++i)
        if (focus && (panes[i] == focus || panes[i]->isAncestorOf(focus)))
            at = i;
    panes[(at + 1) % panes.size()]->setFocus(Qt::TabFocusReason);
}

QWidget* MainWindow::currentView() const {
    if (last_view_)
        return last_view_;
    return cluster_;
}

bool MainWindow::exportView(QWidget* v, const QString& path, QString* error) const {
    if (!v)
        return false;
    if (path.endsWith(QLatin1String(".svg"), Qt::CaseInsensitive)) {
        QSvgGenerator svg;
        svg.setFileName(path);
        svg.setSize(v->size());
        svg.setViewBox(QRect(QPoint(0, 0), v->size()));
        svg.setTitle(v->accessibleName());
        QPainter painter;
        if (!painter.begin(&svg)) {
            if (error)
                *error = tr("cannot write %1").arg(path);
            return false;
        }
        v->render(&painter);
        painter.end();
        return true;
    }
    const bool ok = v->grab().save(path);
    if (!ok && error)
        *error = tr("cannot write %1").arg(path);
    return ok;
}

void MainWindow::openScenarioDialog() {
    const QString path = QFileDialog::getOpenFileName(this, tr("Open Scenario"), QString(),
                                                      tr("Scenarios (*.json)"));
    if (!path.isEmpty() && openScenario(path))
        runScenario(session_.scenario());
}

void MainWindow::openRecordingDialog() {
    const QString path = QFileDialog::getOpenFileName(this, tr("Open Recorded Run"), QString(),
                                                      tr("Traces of runs over processes (*.json)"));
    if (!path.isEmpty())
        openRecording(path);
}

void MainWindow::saveScenarioDialog() {
    const QString path = QFileDialog::getSaveFileName(
        this, tr("Save Scenario"), session_.scenarioPath(), tr("Scenarios (*.json)"));
    if (path.isEmpty())
        return;
    Scenario s;
    try {
        s = controls_->scenario();
    } catch (const Error& e) {
        QMessageBox::warning(this, tr("Cannot save"), QString::fromStdString(e.what()));
        return;
    }
    QFile file(path);
    if (!file.open(QIODevice::WriteOnly | QIODevice::Truncate) ||
        file.write(QByteArray::fromStdString(scenario_to_json(s))) < 0) {
        QMessageBox::warning(this, tr("Cannot save"), tr("Cannot write %1").arg(path));
        return;
    }
    session_.setScenarioPath(path);
    showStatus(tr("Saved %1").arg(path));
}

void MainWindow::exportViewDialog(const QString& format) {
    const QString path = QFileDialog::getSaveFileName(
        this, tr("Export View"), QString(),
        format == QLatin1String("svg") ? tr("SVG (*.svg)") : tr("PNG (*.png)"));
    QString error;
    if (!path.isEmpty() && !exportView(currentView(), path, &error))
        QMessageBox::warning(this, tr("Cannot export"), error);
}

void MainWindow::exportMetricsDialog() {
    const QString path =
        QFileDialog::getSaveFileName(this, tr("Export Metrics"), QString(), tr("CSV (*.csv)"));
    if (path.isEmpty())
        return;
    QFile file(path);
    if (!file.open(QIODevice::WriteOnly | QIODevice::Truncate) ||
        file.write(QByteArray::fromStdString(to_metrics_csv(session_.traceIndex().snapshots()))) <
            0)
        QMessageBox::warning(this, tr("Cannot export"), tr("Cannot write %1").arg(path));
}

void MainWindow::exportTraceDialog() {
    const QString path = QFileDialog::getSaveFileName(this, tr("Export Trace"), QString(),
                                                      tr("Chrome trace (*.json)"));
    if (path.isEmpty())
        return;
    const views::TraceIndex& index = session_.traceIndex();
    try { // streamed to the file, never built whole in memory
        write_chrome_trace(path.toStdString(), index.events(), index.workers(),
                           session_.scenario().name);
    } catch (const Error&) {
        QMessageBox::warning(this, tr("Cannot export"), tr("Cannot write %1").arg(path));
    }
}

ClassWindow* MainWindow::classWindow() const {
    return class_window_.data();
}

void MainWindow::startClassQuizDialog() {
    if (class_window_) {
        class_window_->show();
        class_window_->raise();
        class_window_->activateWindow();
        return;
    }
    ClassQuizDialog dialog(lesson_pane_->library(), this);
    if (dialog.exec() != QDialog::Accepted || !dialog.bank())
        return;
    if (ClassWindow* w = startClassQuiz(dialog.bank()->id, dialog.questions(), dialog.port(),
                                        dialog.addresses()))
        w->show();
}

ClassWindow* MainWindow::startClassQuiz(const QString& bank, std::vector<int> questions,
                                        quint16 port, QList<QHostAddress> addresses) {
    if (class_window_)
        return class_window_;
    try {
        auto* w = new ClassWindow(lesson_pane_->library().load_bank_named(bank),
                                  std::move(questions), port, std::move(addresses), {}, this);
        w->setAttribute(Qt::WA_DeleteOnClose);
        connect(w, &ClassWindow::replayRequested, this, [this](const QString& link) {
            try {
                applyLessonAction(lessons::parse_action(link));
                raise();
                activateWindow();
            } catch (const Error& e) {
                showStatus(tr("The question's run cannot be replayed: %1")
                               .arg(QString::fromStdString(e.what())));
            }
        });
        class_window_ = w;
        return w;
    } catch (const Error& e) {
        QMessageBox::warning(
            this, tr("Class Quiz"),
            tr("The class quiz could not start: %1").arg(QString::fromStdString(e.what())));
        return nullptr;
    }
}

} // namespace lockstep::app
