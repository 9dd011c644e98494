#include "main_window.h"

#include "audio_description.h"
#include "change_description.h"
#include "controls_panel.h"
#include "lesson_pane.h"
#include "mode_comparer.h"
#include "speedup_sweeper.h"
#include "study_panel.h"
#include "teacher_lock.h"
#include "welcome.h"
#include "worked_example_panel.h"

#include "core/error.h"
#include "lockstep_lessons/lesson.h"

#include "lockstep_views/accessibility.h"
#include "lockstep_views/checkpoint_view.h"
#include "lockstep_views/cluster_view.h"
#include "lockstep_views/comparison_view.h"
#include "lockstep_views/numbers.h"
#include "lockstep_views/pipeline_view.h"
#include "lockstep_views/speedup_view.h"
#include "lockstep_views/timeline_view.h"
#include "lockstep_views/training_view.h"

#include <QAction>
#include <QApplication>
#include <QDir>
#include <QDockWidget>
#include <QFileDialog>
#include <QFileInfo>
#include <QInputDialog>
#include <QLabel>
#include <QLineEdit>
#include <QMessageBox>
#include <QSettings>
#include <QSlider>
#include <QSplitter>
#include <QStandardPaths>
#include <QStatusBar>
#include <QTabWidget>
#include <QTimer>

namespace lockstep::app {

MainWindow::MainWindow(QWidget* parent)
    : QMainWindow(parent) {
    views::install_accessibility(); // the views' workers, lanes and boxes for screen readers
    setWindowTitle(tr("Lockstep"));
    normal_font_ = QApplication::font();
    default_palette_ = QApplication::palette();
    audio_ = new AudioDescription(this);
    statusBar()->addPermanentWidget(audio_->line(), 1);
    buildViews();
    buildDocks();
    buildActions();
    connectSession();
    controls_->setScenario(session_.scenario());
    if (settings_->value(QStringLiteral("high_contrast"), false).toBool())
        setHighContrast(true, false);
    if (settings_->value(QStringLiteral("audio_description"), false).toBool())
        setAudioDescription(true);
    text_size_ =
        std::clamp(settings_->value(QStringLiteral("text_size"), 0).toInt(), 0, kTextSizes - 1);
    if (text_size_ > 0)
        applyFont();
    resize(1440, 900);
    fitPanes();
    cluster_->setFocus(); // the playback keys work from the start
}

MainWindow::~MainWindow() {
    session_.controller().stop();
}

QStringList MainWindow::viewNames() {
    return {QStringLiteral("cluster"),   QStringLiteral("timeline"),    QStringLiteral("training"),
            QStringLiteral("speedup"),   QStringLiteral("checkpoints"), QStringLiteral("pipeline"),
            QStringLiteral("comparison")};
}

void MainWindow::buildViews() {
    cluster_ = new views::ClusterView;
    timeline_ = new views::TimelineView;
    training_ = new views::TrainingView;
    speedup_ = new views::SpeedupView;
    sweeper_ = new SpeedupSweeper(speedup_);
    comparer_ = new ModeComparer(this);
    checkpoints_ = new views::CheckpointView;
    pipeline_ = new views::PipelineView;
    comparison_ = new views::ComparisonView;
    for (QWidget* v : {static_cast<QWidget*>(cluster_), static_cast<QWidget*>(timeline_),
                       static_cast<QWidget*>(training_), static_cast<QWidget*>(speedup_),
                       static_cast<QWidget*>(checkpoints_), static_cast<QWidget*>(pipeline_),
                       static_cast<QWidget*>(comparison_)})
        v->installEventFilter(this);
    const views::TraceIndex* index = &session_.traceIndex();
    checkpoints_->setTrace(index);
    cluster_->setTrace(index);
    timeline_->setTrace(index);
    training_->setTrace(index);
    pipeline_->setIndex(index);
    connect(pipeline_, &views::PipelineView::runAsPipelineRequested, this,
            &MainWindow::runAsPipeline);
    timeline_->setFollowPlayhead(true);

    side_tabs_ = new QTabWidget;
    side_tabs_->addTab(training_, tr("Training"));
    side_tabs_->addTab(speedup_, tr("Speedup"));
    side_tabs_->addTab(checkpoints_, tr("Checkpoints"));
    side_tabs_->addTab(pipeline_, tr("Pipeline"));
    side_tabs_->addTab(comparison_, tr("Compare"));
    side_tabs_->setAccessibleName(tr("Training, speedup, checkpoints, pipeline and comparison"));

    top_ = new QSplitter(Qt::Horizontal);
    top_->addWidget(cluster_);
    top_->addWidget(side_tabs_);
    top_->setStretchFactor(0, 3);
    top_->setStretchFactor(1, 2);
    top_->setSizes({720, 560});
    top_->setChildrenCollapsible(false);
    top_->setMinimumHeight(kTopMinimum); // below its children's wishes when the lanes need it

    splitter_ = new QSplitter(Qt::Vertical);
    splitter_->addWidget(top_);
    splitter_->addWidget(timeline_);
    splitter_->setStretchFactor(0, 3);
    splitter_->setStretchFactor(1, 2);
    splitter_->setSizes({560, 380});
    splitter_->setChildrenCollapsible(false);
    setCentralWidget(splitter_);

    // A worker's menu: the fault it names, at the playhead.
    connect(cluster_, &views::ClusterView::workerActionRequested, this,
            [this](int worker, const QString& action) {
                // A pause lasts two of the run's own steps, whatever their scale.
                const double amount = action == QLatin1String("pause") ? 2.0 * stepSeconds() : 0.0;
                if (const auto change = EngineController::faultFor(worker, action, 0, amount))
                    intervene(*change, describe_worker_action(worker, action));
            });
    connect(timeline_, &views::TimelineView::playheadRequested, &session_.playback(),
            &Playback::scrubTo);
}

QString MainWindow::welcomePage(const QStringList& problems) {
    QString welcome = welcome_text();
    if (!problems.isEmpty())
        welcome += tr("<h3>Lessons that could not be loaded</h3><p>%1</p>")
                       .arg(problems.join(QStringLiteral("<br>")).toHtmlEscaped());
    return welcome;
}

void MainWindow::changeEvent(QEvent* event) {
    if (event->type() == QEvent::LanguageChange && play_action_)
        retranslate();
    if (event->type() == QEvent::FontChange && controls_dock_) {
        // Another text size: the panes are placed again once every widget has the new font.
        QTimer::singleShot(0, this, [this] {
            fitted_width_ = -1;
            fitPanes();
        });
    }
    QMainWindow::changeEvent(event);
}

void MainWindow::updateWindowTitle() {
    switch (title_) {
    case Title::Plain:
        setWindowTitle(tr("Lockstep"));
        break;
    case Title::Scenario:
        setWindowTitle(tr("Lockstep — %1").arg(QFileInfo(title_file_).fileName()));
        break;
    case Title::Recording:
        setWindowTitle(tr("Lockstep — %1: %2")
                           .arg(QFileInfo(title_file_).fileName(), session_.recordingNote()));
        break;
    case Title::Lesson:
        if (const lessons::Lesson* lesson = lesson_pane_->currentLesson())
            setWindowTitle(tr("Lockstep — %1").arg(lesson->title));
        break;
    }
}

lessons::LessonLibrary MainWindow::loadLibrary(const QString& own, QStringList* problems) {
    // The shipped lessons, then the teacher's or student's own after them.
    lessons::LessonLibrary library;
    try {
        library = lessons::LessonLibrary::load(lessons::default_resources_dir(), problems);
    } catch (const Error& e) {
        *problems << QString::fromStdString(e.what());
    }
    library.add_own_lessons(own, problems);
    return library;
}

void MainWindow::buildDocks() {
    // The lessons shipped with the lab, and this user's progress through them.
    QStringList problems;
    lessons::LessonLibrary library = loadLibrary(lessons::own_lessons_dir(), &problems);
    // One profile per student on this computer; the teacher's PIN in the settings, hashed.
    const QString folder = QStandardPaths::writableLocation(QStandardPaths::AppDataLocation);
    profiles_ = std::make_unique<lessons::ProfileBook>(folder);
    settings_ = std::make_unique<QSettings>(lessons::settings_file(), QSettings::IniFormat);
    teacher_lock_ = std::make_unique<TeacherLock>(*settings_);
    lesson_pane_ = new LessonPane(std::move(library), nullptr);
    lesson_pane_->setProfiles(profiles_.get());
    if (lesson_pane_->progress() && !lesson_pane_->progress()->loadProblem().isEmpty())
        problems << lesson_pane_->progress()->loadProblem();
    lesson_pane_->setWelcome(welcomePage(problems));
    connect(lesson_pane_, &LessonPane::lessonOpened, this, &MainWindow::onLessonOpened);
    connect(lesson_pane_, &LessonPane::exerciseShown, this, [this](const QString& key) {
        settings_->setValue(QStringLiteral("last_exercise"), key); // where the next start opens
    });
    connect(lesson_pane_, &LessonPane::actionRequested, this, &MainWindow::applyLessonAction);
    connect(lesson_pane_, &LessonPane::message, this, &MainWindow::showStatus);
    connect(lesson_pane_, &LessonPane::toolsChanged, this, &MainWindow::placeLessonTools);
    connect(lesson_pane_, &LessonPane::toolRequested, this, [this](QWidget* tool) {
        placeLessonTools();
        if (side_tabs_->indexOf(tool) >= 0)
            side_tabs_->setCurrentWidget(tool);
    });
    lesson_pane_->setToolsInWindow(true);
    connect(lesson_pane_, &LessonPane::teacherModeChanged, this, [this](bool on) {
        if (teacher_action_)
            teacher_action_->setChecked(on);
    });
    connect(lesson_pane_, &LessonPane::lockRequested, this,
            [this](const QStringList& controls) { controls_->setLockedControls(controls); });
    lesson_dock_ = new QDockWidget(tr("Lesson"), this);
    lesson_dock_->setObjectName(QStringLiteral("lesson"));
    lesson_dock_->setWidget(lesson_pane_);
    addDockWidget(Qt::LeftDockWidgetArea, lesson_dock_);

    controls_ = new ControlsPanel;
    controls_dock_ = new QDockWidget(tr("Controls"), this);
    controls_dock_->setObjectName(QStringLiteral("controls"));
    controls_dock_->setWidget(controls_);
    addDockWidget(Qt::RightDockWidgetArea, controls_dock_);
    // The lesson runs the window's full height; a dock under the views stays under them.
    setCorner(Qt::BottomLeftCorner, Qt::LeftDockWidgetArea);
    setCorner(Qt::BottomRightCorner, Qt::RightDockWidgetArea);
    connect(
        controls_dock_, &QDockWidget::dockLocationChanged, this, [this](Qt::DockWidgetArea area) {
            controls_->setWide(area == Qt::TopDockWidgetArea || area == Qt::BottomDockWidgetArea);
            if (area != controls_area_)
                controls_placed_ = true; // moved by hand: stays where it was put
        });
    connect(controls_dock_, &QDockWidget::topLevelChanged, this, [this](bool floating) {
        if (floating) {
            controls_->setWide(false);
            controls_placed_ = true;
        }
    });
    connect(controls_, &ControlsPanel::changeRequested, this, [this] {
        try {
            const Scenario changed = controls_->scenario();
            const QString what = describe_change(session_.controller().scenario(), changed);
            session_.changeScenario(changed, what.isEmpty() ? tr("settings changed") : what);
        } catch (const Error& e) {
            showStatus(QString::fromStdString(e.what()));
        }
    });
    connect(controls_, &ControlsPanel::runRequested, this, [this] {
        try {
            session_.rerunWithChange(controls_->scenario());
        } catch (const Error& e) {
            QMessageBox::warning(this, tr("Cannot run"), QString::fromStdString(e.what()));
        }
    });
}

// The window shows the session: each of its signals goes to the views it changes.
void MainWindow::connectSession() {
    connect(&session_, &LabSession::runStarted, this, &MainWindow::onRunStarted);
    connect(&session_, &LabSession::traceAppended, this, &MainWindow::onTraceAppended);
    connect(&session_, &LabSession::runFinished, this, &MainWindow::onRunFinished);
    connect(&session_, &LabSession::branched, this, &MainWindow::onBranched);
    connect(&session_, &LabSession::playheadMoved, this, &MainWindow::onPlayhead);
    connect(&session_, &LabSession::status, this, &MainWindow::showStatus);
    connect(&session_, &LabSession::scenarioChanged, controls_, &ControlsPanel::setScenario);
    connect(&session_, &LabSession::runRetuned, this, [this](const Scenario& running) {
        checkpoints_->setRestoreMode(running.checkpoint ? running.checkpoint->restore
                                                        : RestoreMode::Full);
        sweep(running); // the speedup of the run as it now trains
        updateWorkerMenu();
    });
    connect(&session_, &LabSession::runStarted, this, &MainWindow::updateWorkerMenu);
    connect(&session_, &LabSession::runFinished, this, &MainWindow::updateWorkerMenu);
    connect(&session_, &LabSession::branchesChanged, this, &MainWindow::showBranchMarks);
    connect(&session_, &LabSession::historyChanged, this, [this] {
        undo_action_->setEnabled(session_.canUndo());
        redo_action_->setEnabled(session_.canRedo());
    });
    connect(&session_, &LabSession::replacedLossChanged, this, [this] {
        const QList<QPointF>& old = session_.replacedLoss();
        training_->setBranchedLoss(old, old.isEmpty() ? QString() : tr("before the change"));
    });
    connect(&session_, &LabSession::restoreComparisonChanged, this,
            &MainWindow::showRestoreComparison);
    // A comparison belongs to the scenario it was made of: a new run takes it away.
    connect(&session_, &LabSession::runStarted, this, [this] { training_->setComparison({}); });
    connect(comparer_, &ModeComparer::finished, this, [this] {
        QList<views::TrainingView::ComparisonLine> lines;
        QStringList said;
        for (const ModeComparer::Line& l : comparer_->lines()) {
            lines.append({tr("%1 · %2 s").arg(l.name).arg(l.total_s, 0, 'g', 2), l.loss});
            said << tr("%1 %2 s, final loss %3")
                        .arg(l.name)
                        .arg(l.total_s, 0, 'g', 2)
                        .arg(l.final_loss, 0, 'g', 2);
        }
        training_->setComparison(lines);
        bringViewToFront(QStringLiteral("training"));
        showStatus(tr("Compared on the modelled clock, the whole run each: %1.")
                       .arg(said.join(QStringLiteral("; "))));
    });
    connect(comparer_, &ModeComparer::failed, this,
            [this](const QString& message) { showStatus(tr("No comparison: %1").arg(message)); });
    connect(&session_, &LabSession::runFailed, this, [this](const QString& message) {
        QMessageBox::warning(this, tr("Run failed"), message);
    });
    connect(&session_, &LabSession::refused, this, [this](const QString& why) {
        showStatus(why);
        QMessageBox::information(this, tr("Not possible"), why);
    });
    connect(&session_, &LabSession::cannotRun, this, [this](const QString& message) {
        QMessageBox::warning(this, tr("Cannot run"), message);
    });
    Playback& playback = session_.playback();
    connect(&playback, &Playback::playingChanged, this,
            [this](bool playing) { play_action_->setText(playing ? tr("&Pause") : tr("&Play")); });
    connect(&playback, &Playback::speedChanged, this,
            [this](double speed) { speed_label_->setText(tr("speed %1×").arg(speed)); });
}

bool MainWindow::openScenario(const QString& path, QString* error, bool quiet) {
    QString message;
    if (session_.openScenario(path, &message)) {
        session_.clearHistory();
        title_ = Title::Scenario;
        title_file_ = path;
        updateWindowTitle();
        return true;
    }
    if (error)
        *error = message;
    if (!quiet)
        QMessageBox::warning(
            this, tr("Cannot open scenario"),
            tr("This scenario cannot be used:\n\n%1\n\nThe previous scenario is still loaded.")
                .arg(message));
    return false;
}

bool MainWindow::openRecording(const QString& path, QString* error, bool quiet) {
    QString message;
    if (session_.openRecording(path, &message)) {
        title_ = Title::Recording;
        title_file_ = path;
        updateWindowTitle();
        return true;
    }
    if (error)
        *error = message;
    if (!quiet)
        QMessageBox::warning(this, tr("Cannot open the recording"),
                             tr("This file cannot be played back:\n\n%1").arg(message));
    return false;
}

void MainWindow::onRunStarted(const Scenario& scenario) {
    audio_->reset();
    const views::TraceIndex* index = &session_.traceIndex();
    const int lanes = scenario.lanes();
    cluster_->setParallelism(scenario.parallelism.value_or(ParallelismConfig{}));
    cluster_->setTrace(index);
    timeline_->setTrace(index);
    training_->setTrace(index);
    pipeline_->setStages(scenario.parallelism ? scenario.parallelism->stages : 0);
    pipeline_->setParallelism(scenario.parallelism ? scenario.parallelism->mode
                                                   : Parallelism::Data);
    pipeline_->setIndex(index);
    if (scenario.parallelism && (scenario.parallelism->mode == Parallelism::Pipeline ||
                                 scenario.parallelism->mode == Parallelism::Hybrid))
        side_tabs_->setCurrentWidget(pipeline_);
    training_->clearModel();
    if (lanes != fitted_lanes_)
        fitTimeline();
    showBranchMarks();
    checkpoints_->setTrace(index);
    checkpoints_->setRestoreMode(scenario.checkpoint ? scenario.checkpoint->restore
                                                     : RestoreMode::Full);
    sweep(scenario);
}

std::int64_t MainWindow::playheadStep() const {
    const auto step = session_.traceIndex().step_at(session_.playback().playhead());
    return step ? step->step : 0;
}

// The run's mean step so far, in seconds on its clock (a first guess before any step).
double MainWindow::stepSeconds() const {
    const auto& snaps = session_.traceIndex().snapshots();
    return snaps.empty() ? 0.01 : to_seconds(snaps.back().time) / static_cast<double>(snaps.size());
}

// The worker menu's offers for this run: what it cannot take, greyed, with the reason.
void MainWindow::updateWorkerMenu() {
    QMap<QString, QString> unavailable;
    for (const QString& id : {QStringLiteral("slow"), QStringLiteral("pause"),
                              QStringLiteral("crash"), QStringLiteral("crash-checkpoint")})
        if (const auto change = EngineController::faultFor(0, id, 0, 1.0)) {
            const QString why = session_.controller().refusal(*change);
            if (!why.isEmpty())
                unavailable.insert(id, why);
        }
    cluster_->setWorkerMenu(tr("Pause for 2 steps"), unavailable);
}

bool MainWindow::speedupPending() const {
    return sweeper_->isComputing();
}

// The Speedup view's points for `scenario` at 1, 2, 4, ... workers and at its own count.
void MainWindow::sweep(const Scenario& scenario) {
    std::vector<int> counts;
    for (int n : {1, 2, 4, 8, 16, 32})
        if (n <= std::max(scenario.workers, 8))
            counts.push_back(n);
    if (std::find(counts.begin(), counts.end(), scenario.workers) == counts.end())
        counts.push_back(scenario.workers);
    std::sort(counts.begin(), counts.end());
    speedup_->setRunWorkers(scenario.workers);
    sweeper_->request(scenario, counts);
}

void MainWindow::onTraceAppended(bool first, Ticks first_step_end) {
    updateScrubber();
    if (first) // show a few steps at a time: enough to see waiting, big enough to read
        timeline_->setVisibleRange(0, std::max<Ticks>(1000, 3 * first_step_end));
    if (!session_.branches().isEmpty())
        showBranchMarks(); // a mark waits for its step to come back after a branch
    cluster_->refresh();
    timeline_->refresh();
    // The loss charts cost several milliseconds to rebuild: a few times a second is enough for
    // curves that move a pixel a step, and keeps frames coming while the engine streams.
    if (!training_refreshed_.isValid() || training_refreshed_.elapsed() >= 150) {
        training_->refresh();
        training_refreshed_.start();
    }
    checkpoints_->refresh();
    pipeline_->refresh();
}

void MainWindow::onRunFinished() {
    training_->refresh(); // the last steps, whatever the throttle held back
    const EngineController& controller = session_.controller();
    if (!session_.recordingNote().isEmpty()) {
        // A recording: its own model and data, and no figures of the engine's last live run.
        if (session_.recordingData())
            training_->setModel(session_.scenario().model, session_.recordingParameters(),
                                session_.recordingData());
        else
            training_->clearModel();
        updateScrubber();
        return;
    }
    comparison_->addRun({session_.runLabel(), controller.metrics()});
    training_->setModel(session_.scenario().model, controller.finalParameters(),
                        controller.dataset());
    updateScrubber();
}

void MainWindow::showRestoreComparison() {
    checkpoints_->setComparisonNote(session_.comparisonNote());
    checkpoints_->setRestoreComparison(session_.restoreComparison());
}

void MainWindow::onPlayhead(Ticks t) {
    audio_->follow(session_.traceIndex(), t);
    cluster_->setPlayhead(t);
    timeline_->setPlayhead(t);
    training_->setPlayhead(t);
    checkpoints_->setPlayhead(t);
    pipeline_->setPlayhead(t);
    updateScrubber();
}

void MainWindow::updateScrubber() {
    const views::TraceIndex& index = session_.traceIndex();
    const Ticks end = index.end_time();
    const Ticks t = session_.playback().playhead();
    if (!scrubber_->isSliderDown())
        scrubber_->setValue(end > 0 ? static_cast<int>(t * 1000 / end) : 0);
    // The playhead's step, the one the cluster's header names too.
    const auto step = index.step_at(t);
    time_label_->setText(tr("t = %1 s of %2 s · step %3")
                             .arg(views::display_number(to_seconds(t), 'f', 4),
                                  views::display_number(to_seconds(end), 'f', 4))
                             .arg(step ? step->step : 0));
}

void MainWindow::onBranched() {
    showBranchMarks();
    updateScrubber();
    cluster_->refresh();
    timeline_->refresh();
    training_->refresh();
    checkpoints_->refresh();
    pipeline_->refresh();
}

void MainWindow::showBranchMarks() {
    QList<views::TimelineView::BranchMark> marks;
    for (const LabSession::Branch& b : session_.branches()) {
        // A change to one worker is marked in its lane, a change to the whole run across all.
        const bool run_wide = b.change.kind == Intervention::Kind::Retune ||
                              b.change.kind == Intervention::Kind::Broadcast;
        marks.append({session_.markTime(b), b.label, run_wide ? -1 : b.change.worker});
    }
    timeline_->setBranchMarks(marks);
}

bool MainWindow::openLastLesson() {
    const QString id = settings_->value(QStringLiteral("last_lesson")).toString();
    const QString exercise = settings_->value(QStringLiteral("last_exercise")).toString();
    if (id.isEmpty() || !lesson_pane_->library().find(id) || !openLesson(id, nullptr, false))
        return false;
    // And the exercise the student was on, when it is still one of the lesson's.
    const qsizetype slash = exercise.indexOf(QLatin1Char('/'));
    if (slash > 0)
        for (const lessons::ExerciseRef& ref : lesson_pane_->currentLesson()->exercises)
            if (ref.key() == exercise)
                lesson_pane_->selectExercise(exercise.left(slash), exercise.mid(slash + 1));
    return true;
}

bool MainWindow::openLesson(const QString& id, QString* error, bool run) {
    run_opened_lesson_ = run;
    const bool ok = lesson_pane_->openLesson(id, error);
    run_opened_lesson_ = true;
    return ok;
}

void MainWindow::onLessonOpened(const QString& id) {
    const lessons::Lesson* lesson = lesson_pane_->library().find(id);
    if (!lesson)
        return;
    session_.useScenario(lesson->scenario, lesson->scenario_path);
    settings_->setValue(QStringLiteral("last_lesson"), id); // where the next start opens
    title_ = Title::Lesson;
    setWindowTitle(tr("Lockstep — %1").arg(lesson->title));
    refreshLessonLinks();
    if (!lesson->views.isEmpty())
        bringViewToFront(lesson->views.front());
    for (const QString& v : lesson->views)
        if (view(v) && side_tabs_->indexOf(view(v)) >= 0) { // the cluster, when it is a tab
            side_tabs_->setCurrentWidget(view(v));
            break;
        }
    if (run_opened_lesson_)
        runScenario(session_.scenario());
    session_.clearHistory(); // another lesson: nothing before it to undo into
}

// The lesson's calculator and study as tabs beside the views, where their charts and tables have
// room; only while the open lesson has them.
void MainWindow::placeLessonTools() {
    const lessons::Lesson* l = lesson_pane_->currentLesson();
    const auto place = [this](QWidget* tool, bool wanted, const QString& title) {
        const int at = side_tabs_->indexOf(tool);
        if (wanted && at < 0)
            side_tabs_->addTab(tool, title);
        else if (!wanted && at >= 0)
            side_tabs_->removeTab(at);
    };
    place(lesson_pane_->calculator(), l && l->calculator, tr("Worked example"));
    place(lesson_pane_->study(), l && l->study.has_value(), tr("Study"));
}

bool MainWindow::enterTeacherMode(const QString& pin) {
    if (!teacher_lock_->hasPin() ? !teacher_lock_->setPin(pin) : !teacher_lock_->check(pin))
        return false;
    lesson_pane_->setTeacherMode(true);
    lesson_dock_->show();
    return true;
}

// Asks for the PIN (or, the first time, for a new one, twice) and enters teacher mode; a second
// use leaves it.
int MainWindow::useOwnLessonsFolder(const QString& folder) {
    if (folder.isEmpty())
        settings_->remove(QStringLiteral("lessons/folder"));
    else
        settings_->setValue(QStringLiteral("lessons/folder"), folder);
    settings_->sync();
    QStringList problems;
    const QString dir = folder.isEmpty() ? lessons::own_lessons_dir() : folder;
    lessons::LessonLibrary library = loadLibrary(dir, &problems);
    int added = 0;
    for (const auto& l : library.lessons())
        added += l.own ? 1 : 0;
    lesson_pane_->setLibrary(std::move(library));
    QString text = tr("%n of your own lesson(s) from %1, after the shipped ones.", nullptr, added)
                       .arg(QDir::toNativeSeparators(dir));
    if (!problems.isEmpty())
        text += QLatin1Char(' ') + tr("Left out: %1").arg(problems.join(QStringLiteral("; ")));
    showStatus(text);
    return added;
}

void MainWindow::chooseOwnLessonsFolder() {
    const QString dir = QFileDialog::getExistingDirectory(this, tr("Your Own Lessons Folder"),
                                                          lessons::own_lessons_dir());
    if (!dir.isEmpty())
        useOwnLessonsFolder(dir);
}

void MainWindow::showAbout() {
    const lessons::ResourceLocation where = lessons::locate_resources();
    const QString own = lessons::own_lessons_dir();
    QMessageBox::about(
        this, tr("About Lockstep"),
        tr("<h3>Lockstep %1</h3><p>A lab that shows why many computers training one model need "
           "coordination: real training, split across workers, and what it costs.</p>"
           "<p>Lessons, scenarios and quiz banks: %2<br>Your own lessons: %3</p>")
            .arg(QApplication::applicationVersion(),
                 where.dir.isEmpty() ? tr("not found") : where.dir.toHtmlEscaped(),
                 own.toHtmlEscaped()));
}

void MainWindow::askForTeacherMode() {
    if (lesson_pane_->teacherMode()) {
        lesson_pane_->setTeacherMode(false);
        return;
    }
    bool ok = false;
    if (!teacher_lock_->hasPin()) {
        const QString pin = QInputDialog::getText(
            this, tr("Set the teacher's PIN"),
            tr("Choose a PIN of 4 to 12 digits. It protects teacher mode: the lock, the answers "
               "and resetting a student."),
            QLineEdit::Password, QString(), &ok);
        if (!ok)
            return;
        const QString again =
            QInputDialog::getText(this, tr("Set the teacher's PIN"), tr("The same PIN again:"),
                                  QLineEdit::Password, QString(), &ok);
        if (!ok)
            return;
        if (pin != again || !TeacherLock::acceptable(pin)) {
            QMessageBox::information(this, tr("PIN not set"),
                                     pin != again ? tr("The two PINs differ.")
                                                  : tr("A PIN has 4 to 12 digits."));
            teacher_action_->setChecked(false);
            return;
        }
        enterTeacherMode(pin);
        return;
    }
    const QString pin = QInputDialog::getText(this, tr("Teacher mode"), tr("The teacher's PIN:"),
                                              QLineEdit::Password, QString(), &ok);
    if (ok && !enterTeacherMode(pin))
        QMessageBox::information(this, tr("Teacher mode"), tr("That is not the teacher's PIN."));
    teacher_action_->setChecked(lesson_pane_->teacherMode());
}

bool MainWindow::showsLessonTool(const QWidget* tool) const {
    return side_tabs_->indexOf(const_cast<QWidget*>(tool)) >= 0;
}

void MainWindow::bringViewToFront(const QString& name) {
    QWidget* v = view(name);
    if (!v)
        return;
    if (side_tabs_->indexOf(v) >= 0)
        side_tabs_->setCurrentWidget(v);
    v->setFocus();
    last_view_ = v;
}

void MainWindow::showStatus(const QString& text) {
    statusBar()->showMessage(text);
}

QWidget* MainWindow::view(const QString& name) const {
    if (name == QLatin1String("cluster"))
        return cluster_;
    if (name == QLatin1String("timeline"))
        return timeline_;
    if (name == QLatin1String("training"))
        return training_;
    if (name == QLatin1String("speedup"))
        return speedup_;
    if (name == QLatin1String("checkpoints"))
        return checkpoints_;
    if (name == QLatin1String("pipeline"))
        return pipeline_;
    if (name == QLatin1String("comparison"))
        return comparison_;
    return nullptr;
}

bool MainWindow::eventFilter(QObject* watched, QEvent* event) {
    // The view last clicked or focused is the one "Export View" writes.
    if (event->type() == QEvent::MouseButtonPress || event->type() == QEvent::FocusIn)
        last_view_ = qobject_cast<QWidget*>(watched);
    return QMainWindow::eventFilter(watched, event);
}

} // namespace lockstep::app
