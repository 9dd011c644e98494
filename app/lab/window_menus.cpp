// The window's menus, its playback toolbar, their texts in the language in use, the language,
// contrast and audio description they switch, and the keys that move between panes.

#include "main_window.h"

#include "audio_description.h"
#include "controls_panel.h"
#include "keyboard.h"
#include "lesson_pane.h"
#include "study_panel.h"
#include "worked_example_panel.h"

#include "lockstep_lessons/language.h"
#include "lockstep_views/checkpoint_view.h"
#include "lockstep_views/cluster_view.h"
#include "lockstep_views/comparison_view.h"
#include "lockstep_views/palette.h"
#include "lockstep_views/pipeline_view.h"
#include "lockstep_views/speedup_view.h"
#include "lockstep_views/timeline_view.h"
#include "lockstep_views/training_view.h"
#include "lockstep_views/view_catalog.h"

#include <QAction>
#include <QActionGroup>
#include <QApplication>
#include <QDockWidget>
#include <QLabel>
#include <QMenuBar>
#include <QSettings>
#include <QSlider>
#include <QTabWidget>
#include <QTextBrowser>
#include <QToolBar>

namespace lockstep::app {

void MainWindow::buildActions() {
    // Each text is kept untranslated (QT_TR_NOOP) beside its action, so that a change of
    // language retranslates the menus in place (retranslate()).
    auto menu = [this](const char* title) {
        return static_cast<QMenu*>(label(menuBar()->addMenu(QString()), title));
    };
    auto add = [this](QMenu* in, const char* text, const QKeySequence& key, auto slot) {
        auto* a = in->addAction(QString());
        label(a, text);
        if (!key.isEmpty())
            a->setShortcut(key);
        connect(a, &QAction::triggered, this, slot);
        return a;
    };
    auto* file = menu(QT_TR_NOOP("&File"));
    add(file, QT_TR_NOOP("&Open Scenario…"), QKeySequence::Open, &MainWindow::openScenarioDialog);
    add(file, QT_TR_NOOP("Open &Recorded Run…"), QKeySequence(QStringLiteral("Ctrl+Shift+O")),
        &MainWindow::openRecordingDialog);
    add(file, QT_TR_NOOP("&Save Scenario…"), QKeySequence::Save, &MainWindow::saveScenarioDialog);
    file->addSeparator();
    add(file, QT_TR_NOOP("Your Own &Lessons Folder…"), QKeySequence(),
        [this] { chooseOwnLessonsFolder(); });
    file->addSeparator();
    add(file, QT_TR_NOOP("Export View as &PNG…"), QKeySequence(QStringLiteral("Ctrl+E")),
        [this] { exportViewDialog(QStringLiteral("png")); });
    add(file, QT_TR_NOOP("Export View as S&VG…"), QKeySequence(QStringLiteral("Ctrl+Shift+E")),
        [this] { exportViewDialog(QStringLiteral("svg")); });
    add(file, QT_TR_NOOP("Export &Metrics as CSV…"), QKeySequence(),
        [this] { exportMetricsDialog(); });
    add(file, QT_TR_NOOP("Export &Trace (Chrome JSON)…"), QKeySequence(),
        [this] { exportTraceDialog(); });
    file->addSeparator();
    add(file, QT_TR_NOOP("&Quit"), QKeySequence::Quit, [this] { close(); });

    auto* play = menu(QT_TR_NOOP("&Playback"));
    play_action_ = add(play, QT_TR_NOOP("&Play"), QKeySequence(Qt::Key_Space),
                       [this] { session_.playback().togglePlay(); });
    auto* step = add(play, QT_TR_NOOP("&Next Event"), QKeySequence(Qt::Key_Right),
                     [this] { session_.playback().stepForward(); });
    auto* back = add(play, QT_TR_NOOP("Pre&vious Event"), QKeySequence(Qt::Key_Left),
                     [this] { session_.playback().stepBack(); });
    auto* reset = add(play, QT_TR_NOOP("&Reset"), QKeySequence(Qt::Key_R),
                      [this] { session_.playback().reset(); });
    play->addSeparator();
    auto* faster = add(play, QT_TR_NOOP("&Faster"), QKeySequence(Qt::Key_BracketRight),
                       [this] { session_.playback().faster(); });
    auto* slower = add(play, QT_TR_NOOP("&Slower"), QKeySequence(Qt::Key_BracketLeft),
                       [this] { session_.playback().slower(); });
    play->addSeparator();
    add(play, QT_TR_NOOP("Run &Again"), QKeySequence(QStringLiteral("Ctrl+R")),
        [this] { runScenario(session_.scenario()); });
    add(play, QT_TR_NOOP("&Compare Ways of Agreeing"), QKeySequence(QStringLiteral("Ctrl+Shift+C")),
        [this] {
            // The scenario's own bound and period, else ssp with S = 2 and local SGD every 4 steps.
            const Scenario& s = session_.scenario();
            const int staleness = s.sync_mode() == SyncMode::Ssp ? s.sync->staleness : 2;
            const int local = s.sync_mode() == SyncMode::Local ? s.sync->local_steps : 4;
            compare(tr("Ways of agreeing"), [&](const Scenario& running) {
                return RunComparer::ways(
                    running, {SyncMode::Bsp, SyncMode::Ssp, SyncMode::Async, SyncMode::Local},
                    staleness, local);
            });
        });
    add(play, QT_TR_NOOP("Compare Number For&mats"), QKeySequence(QStringLiteral("Ctrl+Shift+N")),
        [this] {
            // The gradients on the wire in each format narrower than the model's, and the model's.
            std::vector<WirePrecision> formats = {WirePrecision::Float32, WirePrecision::Float16,
                                                  WirePrecision::BFloat16};
            if (session_.scenario().model.precision == Precision::Float64)
                formats.insert(formats.begin(), WirePrecision::Float64);
            compare(tr("Number formats"), [&](const Scenario& running) {
                return RunComparer::wireFormats(running, formats);
            });
        });

    auto* edit = menu(QT_TR_NOOP("Ed&it"));
    undo_action_ = add(edit, QT_TR_NOOP("&Undo"), QKeySequence::Undo, [this] { session_.undo(); });
    undo_action_->setEnabled(false);
    redo_action_ = add(edit, QT_TR_NOOP("&Redo"), QKeySequence(QStringLiteral("Ctrl+Shift+Z")),
                       [this] { session_.redo(); });
    redo_action_->setEnabled(false);

    auto* viewMenu = menu(QT_TR_NOOP("&View"));
    presentation_action_ =
        add(viewMenu, QT_TR_NOOP("&Presentation Mode"), QKeySequence(Qt::Key_F11),
            [this] { setPresentationMode(!presenting_); });
    presentation_action_->setCheckable(true);
    // Text for the back of the room: the lesson, the exercises and the views' labels together.
    auto* text = static_cast<QMenu*>(label(viewMenu->addMenu(QString()), QT_TR_NOOP("Te&xt Size")));
    auto* larger = add(text, QT_TR_NOOP("&Larger"), QKeySequence(QStringLiteral("Ctrl+=")),
                       [this] { setTextSize(text_size_ + 1); });
    larger->setShortcuts({QKeySequence(QStringLiteral("Ctrl+=")),
                          QKeySequence(QStringLiteral("Ctrl++")), QKeySequence::ZoomIn});
    add(text, QT_TR_NOOP("&Smaller"), QKeySequence(QStringLiteral("Ctrl+-")),
        [this] { setTextSize(text_size_ - 1); });
    add(text, QT_TR_NOOP("&Normal"), QKeySequence(QStringLiteral("Ctrl+0")),
        [this] { setTextSize(0); });
    auto* lessonToggle = lesson_dock_->toggleViewAction();
    label(lessonToggle, QT_TR_NOOP("&Lesson Pane"));
    lessonToggle->setShortcut(QKeySequence(QStringLiteral("Ctrl+L")));
    viewMenu->addAction(lessonToggle);
    label(controls_dock_->toggleViewAction(), QT_TR_NOOP("&Controls Pane"));
    viewMenu->addAction(controls_dock_->toggleViewAction());
    add(viewMenu, QT_TR_NOOP("&Next Pane"), QKeySequence(Qt::Key_F6), [this] { focusNextPane(); });
    viewMenu->addSeparator();
    teacher_action_ =
        add(viewMenu, QT_TR_NOOP("&Teacher Mode…"), QKeySequence(QStringLiteral("Ctrl+Shift+T")),
            [this] { askForTeacherMode(); });
    teacher_action_->setCheckable(true);
    viewMenu->addSeparator();
    // The language, switched at once; the high-contrast theme for projectors.
    auto* languages =
        static_cast<QMenu*>(label(viewMenu->addMenu(QString()), QT_TR_NOOP("L&anguage")));
    language_group_ = new QActionGroup(this);
    for (const QString& code : lessons::languages()) {
        // Each language by its own name, whatever the language in use.
        auto* a = languages->addAction(lessons::language_name(code));
        a->setCheckable(true);
        a->setData(code);
        a->setChecked(code == lessons::language());
        language_group_->addAction(a);
        connect(a, &QAction::triggered, this, [this, code] { setLanguage(code); });
    }
    contrast_action_ =
        add(viewMenu, QT_TR_NOOP("&High Contrast"), QKeySequence(QStringLiteral("Ctrl+Shift+H")),
            [this] { setHighContrast(!views::high_contrast()); });
    contrast_action_->setCheckable(true);
    contrast_action_->setChecked(views::high_contrast());
    audio_action_ = add(viewMenu, QT_TR_NOOP("Audio &Description"),
                        QKeySequence(QStringLiteral("Ctrl+Shift+D")),
                        [this] { setAudioDescription(!audio_->enabled()); });
    audio_action_->setCheckable(true);
    audio_action_->setChecked(audio_->enabled());

    auto* klass = menu(QT_TR_NOOP("Class &Quiz"));
    add(klass, QT_TR_NOOP("&Start a Class Quiz…"), QKeySequence(QStringLiteral("Ctrl+Shift+Q")),
        [this] { startClassQuizDialog(); });
    add(klass, QT_TR_NOOP("&Resume a Class Quiz…"), QKeySequence(),
        [this] { resumeClassQuizDialog(); });

    auto* help = menu(QT_TR_NOOP("&Help"));
    add(help, QT_TR_NOOP("&Keyboard Shortcuts…"), QKeySequence(QKeySequence::HelpContents),
        [this] { showShortcuts(); });
    add(help, QT_TR_NOOP("&About Lockstep"), QKeySequence(), [this] { showAbout(); });

    lesson_links_ = new QToolBar(this);
    label(lesson_links_, QT_TR_NOOP("Lesson Links"));
    lesson_links_->setObjectName(QStringLiteral("lesson-links"));
    lesson_links_->setAccessibleName(tr("The lesson page's links"));
    // (retranslate() names it again.)
    lesson_links_->hide();

    auto* bar = addToolBar(QString());
    label(bar, QT_TR_NOOP("Playback"));
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
    // (Its accessible name and description: retranslate().)
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
    retranslate();
}

QObject* MainWindow::label(QObject* target, const char* source) {
    labels_.push_back({target, source});
    return target;
}

void MainWindow::retranslate() {
    for (const Label& l : labels_) {
        if (!l.target)
            continue;
        const QString text = tr(l.source);
        if (auto* a = qobject_cast<QAction*>(l.target))
            a->setText(text);
        else if (auto* m = qobject_cast<QMenu*>(l.target))
            m->setTitle(text);
        else if (auto* w = qobject_cast<QWidget*>(l.target))
            w->setWindowTitle(text);
    }
    if (play_action_)
        play_action_->setText(session_.playback().playing() ? tr("&Pause") : tr("&Play"));
    lesson_links_->setAccessibleName(tr("The lesson page's links"));
    scrubber_->setAccessibleName(tr("Playhead"));
    scrubber_->setAccessibleDescription(tr("Drag, or use the arrow keys, to move through the run"));
    speed_label_->setText(tr("speed %1×").arg(session_.playback().speed()));
    lesson_dock_->setWindowTitle(tr("Lesson"));
    controls_dock_->setWindowTitle(tr("Controls"));
    for (int i = 0; i < side_tabs_->count(); ++i)
        side_tabs_->setTabText(i, tabTitle(side_tabs_->widget(i)));
    side_tabs_->setAccessibleName(tabsName());
    updateScrubber();
    updateWindowTitle();
}

QString MainWindow::tabTitle(QWidget* page) const {
    if (page == cluster_)
        return tr("Cluster");
    for (const auto& [entry, view] : tab_views_)
        if (page == view->widget())
            return QCoreApplication::translate("View", entry->title);
    if (lesson_pane_ && page == lesson_pane_->calculator())
        return tr("Worked example");
    if (lesson_pane_ && page == lesson_pane_->study())
        return tr("Study");
    return page ? page->windowTitle() : QString();
}

bool MainWindow::setLanguage(const QString& code, QString* error) {
    QString why;
    if (!lessons::set_language(code, &why)) {
        if (error)
            *error = why;
        showStatus(why);
        return false;
    }
    settings_->setValue(QStringLiteral("language"), lessons::language());
    // Spin boxes and charts write numbers the new language's way (2,5).
    setLocale(QLocale());
    // The lessons and banks in the new language; the open lesson stays open at its place.
    QStringList problems;
    lesson_pane_->setLibrary(loadLibrary(lessons::own_lessons_dir(), &problems));
    lesson_pane_->setWelcome(welcomePage(problems));
    for (QAction* a : language_group_->actions())
        a->setChecked(a->data().toString() == lessons::language());
    // Qt has sent every widget a LanguageChange (retranslate() for this window); the views
    // paint their words anew.
    refreshLessonLinks();
    return true;
}

void MainWindow::setAudioDescription(bool on) {
    audio_->setEnabled(on);
    settings_->setValue(QStringLiteral("audio_description"), on);
    if (audio_action_)
        audio_action_->setChecked(on);
    audio_->line()->setAccessibleDescription(tr("Audio description of the run"));
    if (on)
        audio_->announce(tr("Audio description on: each step is told as the playhead passes it."));
}

void MainWindow::setHighContrast(bool on, bool remember) {
    views::set_high_contrast(on);
    if (remember)
        settings_->setValue(QStringLiteral("high_contrast"), on);
    QApplication::setPalette(on ? views::high_contrast_palette() : default_palette_);
    if (contrast_action_)
        contrast_action_->setChecked(on);
    for (QWidget* v : allViews())
        v->update();
    training_->refresh();
    showStatus(on ? tr("High contrast: on") : tr("High contrast: off"));
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

} // namespace lockstep::app
