#include "main_window.h"

#include "controls_panel.h"
#include "keyboard.h"
#include "lesson_pane.h"
#include "speedup_sweeper.h"

#include "core/error.h"
#include "lockstep_lessons/lesson.h"
#include "trace/chrome_trace.h"
#include "trace/trace.h"

#include "lockstep_views/checkpoint_view.h"
#include "lockstep_views/cluster_view.h"
#include "lockstep_views/comparison_view.h"
#include "lockstep_views/pipeline_view.h"
#include "lockstep_views/speedup_view.h"
#include "lockstep_views/timeline_view.h"
#include "lockstep_views/training_view.h"

#include <QAction>
#include <QApplication>
#include <QDir>
#include <QDockWidget>
#include <QElapsedTimer>
#include <QFile>
#include <QFileDialog>
#include <QFileInfo>
#include <QLabel>
#include <QMenuBar>
#include <QMessageBox>
#include <QPainter>
#include <QScreen>
#include <QSlider>
#include <QSplitter>
#include <QStandardPaths>
#include <QStatusBar>
#include <QSvgGenerator>
#include <QTabWidget>
#include <QTextBrowser>
#include <QTimer>
#include <QToolBar>
#include <QWindow>

namespace lockstep::app {

namespace {

// What the lesson pane shows until a lesson is opened: how to read the lab, in our words.
const char* kWelcome = R"(<h2>Welcome to the lab</h2>
<p>Several <b>workers</b> are training one small neural network together. Each holds a full copy
(a <i>replica</i>) of the model and learns from its own share of the data. After every step they
must agree on one combined gradient, or their copies stop being the same model.</p>
<h3>What you see</h3>
<ul>
<li><b>Cluster</b>: the workers, connected the way the chosen collective connects them. Colour,
letter and label say what each worker is doing. Green dots are chunks of gradient on their way.</li>
<li><b>Timeline</b>: one lane per worker. Hatched red is <i>waiting</i>: time a worker spends
doing nothing because someone else is not ready.</li>
<li><b>Training</b>: the loss going down, and what the model has learned so far.</li>
<li><b>Speedup</b>: how much faster more workers make a step, against the ideal line.</li>
<li><b>Checkpoints</b>: the files on disk, each in its state of the commit protocol; after a crash,
the recovery's scan for the newest complete checkpoint.</li>
</ul>
<h3>Try this</h3>
<ul>
<li>Press <b>Space</b> to play, <b>Right</b>/<b>Left</b> to step through events one by one.</li>
<li>Click a worker and slow it down: watch the others start to wait.</li>
<li>Set the collective to <i>none</i> and run: the replicas drift apart.</li>
<li>Press <b>F11</b> for presentation mode.</li>
</ul>)";

QString seconds_text(Ticks t) {
    return QString::number(to_seconds(t), 'f', 6) + QStringLiteral(" s");
}

} // namespace

MainWindow::MainWindow(QWidget* parent)
    : QMainWindow(parent) {
    setWindowTitle(tr("Lockstep"));
    normal_font_ = QApplication::font();
    buildViews();
    buildDocks();
    buildActions();

    connect(&controller_, &EngineController::runStarted, this, &MainWindow::onRunStarted);
    connect(&controller_, &EngineController::traceBatch, this, &MainWindow::onTraceBatch);
    connect(&controller_, &EngineController::runFinished, this, &MainWindow::onRunFinished);
    connect(&controller_, &EngineController::notice, this, &MainWindow::showStatus);
    connect(&controller_, &EngineController::branched, this, &MainWindow::onBranched);
    connect(&controller_, &EngineController::runFailed, this, [this](const QString& message) {
        showStatus(tr("The run stopped: %1").arg(message));
        QMessageBox::warning(this, tr("Run failed"), message);
    });
    connect(&comparer_, &RestoreComparer::ready, this, &MainWindow::showRestoreComparison);
    connect(&comparer_, &RestoreComparer::failed, this, &MainWindow::showRestoreComparisonFailed);
    connect(&playback_, &Playback::playheadChanged, this, &MainWindow::onPlayhead);
    connect(&playback_, &Playback::playingChanged, this,
            [this](bool playing) { play_action_->setText(playing ? tr("&Pause") : tr("&Play")); });
    connect(&playback_, &Playback::speedChanged, this,
            [this](double speed) { speed_label_->setText(tr("speed %1×").arg(speed)); });
    playback_.setTrace(&index_);

    controls_->setScenario(scenario_);
    resize(1440, 900);
    fitPanes();
    cluster_->setFocus(); // the playback keys work from the start
}

MainWindow::~MainWindow() {
    controller_.stop();
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
    checkpoints_ = new views::CheckpointView;
    pipeline_ = new views::PipelineView;
    comparison_ = new views::ComparisonView;
    for (QWidget* v : {static_cast<QWidget*>(cluster_), static_cast<QWidget*>(timeline_),
                       static_cast<QWidget*>(training_), static_cast<QWidget*>(speedup_),
                       static_cast<QWidget*>(checkpoints_), static_cast<QWidget*>(pipeline_),
                       static_cast<QWidget*>(comparison_)})
        v->installEventFilter(this);
    checkpoints_->setTrace(&index_);
    cluster_->setTrace(&index_);
    timeline_->setTrace(&index_);
    training_->setTrace(&index_);
    pipeline_->setIndex(&index_);
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

    splitter_ = new QSplitter(Qt::Vertical);
    splitter_->addWidget(top_);
    splitter_->addWidget(timeline_);
    splitter_->setStretchFactor(0, 3);
    splitter_->setStretchFactor(1, 2);
    splitter_->setSizes({560, 380});
    splitter_->setChildrenCollapsible(false);
    setCentralWidget(splitter_);

    connect(cluster_, &views::ClusterView::workerActionRequested, this,
            &MainWindow::onWorkerAction);
    connect(timeline_, &views::TimelineView::playheadRequested, &playback_, &Playback::scrubTo);
    connect(sweeper_, &SpeedupSweeper::finished, this, [this] { sweep_pending_ = false; });
}

void MainWindow::buildDocks() {
    // The lessons shipped with the lab, and this user's progress through them.
    QStringList problems;
    lessons::LessonLibrary library;
    try {
        library = lessons::LessonLibrary::load(lessons::default_resources_dir(), &problems);
    } catch (const Error& e) {
        problems << QString::fromStdString(e.what());
    }
    progress_ = std::make_unique<lessons::ProgressStore>(
        QStandardPaths::writableLocation(QStandardPaths::AppDataLocation));
    if (!progress_->loadProblem().isEmpty())
        problems << progress_->loadProblem();
    lesson_pane_ = new LessonPane(std::move(library), progress_.get());
    QString welcome = QString::fromUtf8(kWelcome);
    if (!problems.isEmpty())
        welcome += tr("<h3>Lessons that could not be loaded</h3><p>%1</p>")
                       .arg(problems.join(QStringLiteral("<br>")).toHtmlEscaped());
    lesson_pane_->setWelcome(welcome);
    connect(lesson_pane_, &LessonPane::lessonOpened, this, &MainWindow::onLessonOpened);
    connect(lesson_pane_, &LessonPane::actionRequested, this, &MainWindow::applyLessonAction);
    connect(lesson_pane_, &LessonPane::message, this, &MainWindow::showStatus);
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
            const QString what = describeChange(controller_.scenario(), changed);
            changeScenario(changed, what.isEmpty() ? tr("settings changed") : what);
        } catch (const Error& e) {
            showStatus(QString::fromStdString(e.what()));
        }
    });
    connect(controls_, &ControlsPanel::runRequested, this, [this] {
        try {
            runScenario(controls_->scenario());
        } catch (const Error& e) {
            QMessageBox::warning(this, tr("Cannot run"), QString::fromStdString(e.what()));
        }
    });
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
    const int controls =
        controls_dock_->isVisible() && !controls_dock_->isFloating() ? controls_width : 0;
    int pages = 0; // the widest side view, which the tabs must leave room for
    for (int i = 0; i < side_tabs_->count(); ++i)
        if (side_tabs_->widget(i) != cluster_)
            pages = std::max(pages, side_tabs_->widget(i)->minimumSizeHint().width());
    pages += 8; // the tab widget's frame
    // The views need no more than the widest of them, whatever the arrangement: the window can
    // always be made as narrow as the compact arrangement, which fitPanes() then takes up.
    splitter_->setMinimumWidth(pages);
    const int slack = 24; // separators between docks and views
    const bool controls_beside = !controls_placed_ && controls > 0
                                     ? lesson + controls + pages + slack <= w
                                     : controls_area_ != Qt::BottomDockWidgetArea;
    if (!controls_placed_ && controls > 0) {
        const Qt::DockWidgetArea area =
            controls_beside ? Qt::RightDockWidgetArea : Qt::BottomDockWidgetArea;
        if (area != controls_area_) {
            controls_area_ = area;
            addDockWidget(area, controls_dock_);
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
    if (controls_dock_->isVisible() && !controls_dock_->isFloating()) {
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

// Every lane of the timeline at a readable height (as far as 45 % of the height allows), the
// rest for the views above: when the window is laid out, and when a run brings another number
// of lanes.
void MainWindow::fitTimeline() {
    const int tall = splitter_->height();
    const int lanes = std::min(timeline_->sizeHint().height(), tall * 45 / 100);
    if (tall > 0)
        splitter_->setSizes({tall - lanes, lanes});
    fitted_lanes_ = index_.workers();
}

// Which tab to show when the cluster joins the tabs: the first view the lesson names that is in
// them, else the cluster (for a scenario without a lesson), else what was shown.
QWidget* MainWindow::frontView(QWidget* shown) const {
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
}

void MainWindow::showEvent(QShowEvent* event) {
    QMainWindow::showEvent(event);
    fitted_width_ = -1;
    fitPanes();
}

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
    add(file, tr("&Save Scenario…"), QKeySequence::Save, [this] { saveScenarioDialog(); });
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
    play_action_ =
        add(play, tr("&Play"), QKeySequence(Qt::Key_Space), [this] { playback_.togglePlay(); });
    auto* step = add(play, tr("&Next Event"), QKeySequence(Qt::Key_Right),
                     [this] { playback_.stepForward(); });
    auto* back = add(play, tr("Pre&vious Event"), QKeySequence(Qt::Key_Left),
                     [this] { playback_.stepBack(); });
    auto* reset = add(play, tr("&Reset"), QKeySequence(Qt::Key_R), [this] { playback_.reset(); });
    play->addSeparator();
    auto* faster = add(play, tr("&Faster"), QKeySequence(Qt::Key_BracketRight),
                       [this] { playback_.faster(); });
    auto* slower =
        add(play, tr("&Slower"), QKeySequence(Qt::Key_BracketLeft), [this] { playback_.slower(); });
    play->addSeparator();
    add(play, tr("Run &Again"), QKeySequence(tr("Ctrl+R")), [this] { runScenario(scenario_); });

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

    auto* help = menuBar()->addMenu(tr("&Help"));
    add(help, tr("&Keyboard Shortcuts…"), QKeySequence(QKeySequence::HelpContents),
        [this] { showShortcuts(); });

    auto* bar = addToolBar(tr("Playback"));
    bar->setObjectName(QStringLiteral("playback"));
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
    connect(scrubber_, &QSlider::actionTriggered, this,
            [this] { playback_.scrubTo(index_.end_time() * scrubber_->sliderPosition() / 1000); });
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

void MainWindow::setHeadless(bool on) {
    headless_ = on;
    compare_in_place_ = on;
}

void MainWindow::runScenario(const Scenario& scenario) {
    if (headless_) {
        scenario_ = scenario;
        runToCompletion();
        return;
    }
    try {
        controller_.start(scenario);
    } catch (const std::exception& e) {
        QMessageBox::warning(this, tr("Cannot run"), QString::fromStdString(e.what()));
    }
}

void MainWindow::runToCompletion() {
    // Headless: the comparison is wanted in the picture, so onRunFinished() works it out in place.
    compare_in_place_ = true;
    controller_.runToCompletion(scenario_);
    compare_in_place_ = headless_;
}

// After a run: its crash rerun both ways for the Checkpoints view, on the comparer's thread (or
// here, for a headless picture), or why there is nothing to compare.
void MainWindow::compareRestores() {
    Scenario as_run = scenario_;
    for (const FailureSpec& f : controller_.injectedFailures())
        as_run.failures.events.push_back(f);
    QString why;
    if (!RestoreComparer::comparable(as_run, &why)) {
        checkpoints_->setComparisonNote(why);
    } else if (!compare_in_place_) {
        checkpoints_->setComparisonNote(tr("Rerunning the crash with both restores…"));
        comparer_.request(as_run);
    } else {
        try {
            showRestoreComparison(RestoreComparer::compareNow(as_run));
        } catch (const std::exception& e) {
            showRestoreComparisonFailed(QString::fromStdString(e.what()));
        }
    }
}

void MainWindow::showRestoreComparison(const RestoreComparison& comparison) {
    checkpoints_->setComparisonNote({});
    checkpoints_->setRestoreComparison(comparison);
}

void MainWindow::showRestoreComparisonFailed(const QString& message) {
    checkpoints_->setComparisonNote(tr("The restores could not be compared: %1").arg(message));
}

bool MainWindow::openScenario(const QString& path, QString* error, bool quiet) {
    try {
        Scenario s = load_scenario(path.toStdString());
        // Check the data too, so a bad CSV is reported now and the old scenario stays.
        (void)load_dataset(s);
        scenario_ = s;
        scenario_path_ = path;
        controls_->setScenario(s);
        setWindowTitle(tr("Lockstep — %1").arg(QFileInfo(path).fileName()));
        return true;
    } catch (const std::exception& e) {
        const QString message = QString::fromStdString(e.what());
        if (error)
            *error = message;
        if (!quiet)
            QMessageBox::warning(
                this, tr("Cannot open scenario"),
                tr("This scenario cannot be used:\n\n%1\n\nThe previous scenario is still loaded.")
                    .arg(message));
        return false;
    }
}

void MainWindow::onRunStarted(const Scenario& scenario) {
    scenario_ = scenario;
    const int lanes = EngineController::lanes(scenario);
    index_.reset(lanes, scenario.algorithm);
    playback_.setTrace(&index_);
    cluster_->setTrace(&index_);
    timeline_->setTrace(&index_);
    training_->setTrace(&index_);
    pipeline_->setStages(scenario.parallelism ? scenario.parallelism->stages : 0);
    pipeline_->setIndex(&index_);
    if (EngineController::isModelParallel(scenario))
        side_tabs_->setCurrentWidget(pipeline_);
    training_->clearModel();
    if (lanes != fitted_lanes_)
        fitTimeline();
    first_batch_ = true;
    training_->setBranchedLoss({}, {});
    marks_.clear();
    marks_before_.clear();
    showBranchMarks();
    run_finished_ = false;
    checkpoints_->setTrace(&index_);
    checkpoints_->setRestoreMode(scenario.checkpoint ? scenario.checkpoint->restore
                                                     : RestoreMode::Full);
    comparer_.cancel();
    checkpoints_->setRestoreComparison(std::nullopt);
    QString why;
    checkpoints_->setComparisonNote(
        RestoreComparer::comparable(scenario, &why)
            ? tr("Once the run ends, its crash is rerun with both restores and drawn here.")
            : why);
    std::vector<int> counts;
    for (int n : {1, 2, 4, 8, 16, 32})
        if (n <= std::max(scenario.workers, 8))
            counts.push_back(n);
    if (std::find(counts.begin(), counts.end(), scenario.workers) == counts.end())
        counts.push_back(scenario.workers);
    std::sort(counts.begin(), counts.end());
    sweep_pending_ = true;
    sweeper_->request(scenario, counts);
    showStatus(
        tr("Running %1 with %2 workers…").arg(QString::fromStdString(scenario.name)).arg(lanes));
}

void MainWindow::onTraceBatch(const QVector<TraceEvent>& events,
                              const QVector<StepSnapshot>& snapshots) {
    // The run's first steps (not a branch's, which keeps the view the class is looking at).
    const bool first_steps = first_batch_ && index_.snapshots().empty() && !snapshots.isEmpty();
    if (first_steps)
        first_batch_ = false;
    if (first_steps) {
        // The trace this run will hold at most: the retained window and what the engine runs
        // ahead, or the whole run if it is shorter.
        const auto per_step = static_cast<double>(events.size()) /
                              static_cast<double>(std::max<qsizetype>(1, snapshots.size()));
        const double whole = per_step * static_cast<double>(scenario_.steps) * 1.1;
        const double window = static_cast<double>(kRetainedEvents + EngineController::kAheadEvents);
        index_.reserve(
            static_cast<std::size_t>(std::min(whole, window)),
            std::span<const TraceEvent>(events.data(), static_cast<std::size_t>(events.size())));
    }
    index_.append(
        std::span<const TraceEvent>(events.data(), static_cast<std::size_t>(events.size())));
    for (const auto& s : snapshots)
        index_.append(s);
    updateScrubber();
    if (first_steps) // show a few steps at a time: enough to see waiting, big enough to read
        timeline_->setVisibleRange(0, std::max<Ticks>(1000, 3 * snapshots.front().time));
    if (!marks_.isEmpty())
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

// A finished run's name in the comparison: what it is and how it was spread.
static QString run_label(const Scenario& s) {
    QString how;
    if (EngineController::isModelParallel(s)) {
        const auto& p = *s.parallelism;
        how = QStringLiteral("%1, %2 lanes")
                  .arg(QString::fromUtf8(std::string(to_string(p.mode)).c_str()))
                  .arg(p.lanes());
        if (p.mode == Parallelism::Pipeline || p.mode == Parallelism::Hybrid)
            how += QStringLiteral(", %1 micro-batches %2")
                       .arg(p.microbatches)
                       .arg(QString::fromUtf8(std::string(to_string(p.schedule)).c_str()));
    } else {
        how = QStringLiteral("%1 workers, %2")
                  .arg(s.workers)
                  .arg(QString::fromUtf8(std::string(to_string(s.algorithm)).c_str()));
    }
    return QStringLiteral("%1 (%2)").arg(QString::fromStdString(s.name), how);
}

void MainWindow::onRunFinished() {
    run_finished_ = true;
    training_->refresh(); // the last steps, whatever the throttle held back
    compareRestores();
    // A run changed at the playhead is a run of its own beside the one before the change.
    comparison_->addRun({marks_.isEmpty()
                             ? run_label(scenario_)
                             : run_label(scenario_) + QStringLiteral(" · ") + marks_.back().label,
                         controller_.metrics()});
    training_->setModel(scenario_.model, controller_.finalParameters(), controller_.dataset());
    const auto& snaps = index_.snapshots();
    if (!snaps.empty())
        showStatus(tr("Finished %1 steps in %2 on the %3 clock; final loss %4; replicas %5")
                       .arg(snaps.size())
                       .arg(seconds_text(snaps.back().time))
                       .arg(QString::fromUtf8(std::string(to_string(scenario_.clock)).c_str()))
                       .arg(snaps.back().loss, 0, 'f', 4)
                       .arg(snaps.back().replicas_aligned ? tr("aligned") : tr("differ")) +
                   (marks_.isEmpty()
                        ? QString()
                        : tr(" · changed at %1 (Ctrl+Z undoes it)").arg(marks_.back().label)));
    updateScrubber();
}

void MainWindow::onPlayhead(Ticks t) {
    // Tell the engine how far the class has got, and let go of trace far behind the playhead.
    const StepSnapshot* done = index_.snapshot_at(t);
    controller_.setPlayheadStep(done ? std::max(done->ordinal, done->step) + 1 : 0);
    // Positions in the run's order of snapshots (a rollback repeats step numbers).
    const auto at = done ? static_cast<std::int64_t>(done - index_.snapshots().data()) + 1 : 0;
    const auto first = static_cast<std::int64_t>(index_.first_retained_snapshot());
    if (index_.events().size() > kRetainedEvents && at > first) {
        const auto steps_held =
            std::max<std::int64_t>(1, static_cast<std::int64_t>(index_.snapshots().size()) - first);
        const auto per_step = static_cast<std::int64_t>(index_.events().size()) / steps_held + 1;
        const std::int64_t keep_behind =
            std::max<std::int64_t>(2, EngineController::kAheadEvents / per_step);
        if (at - keep_behind > first)
            index_.forget_before_snapshot(static_cast<std::size_t>(at - keep_behind));
    }
    cluster_->setPlayhead(t);
    timeline_->setPlayhead(t);
    training_->setPlayhead(t);
    checkpoints_->setPlayhead(t);
    pipeline_->setPlayhead(t);
    updateScrubber();
}

void MainWindow::updateScrubber() {
    const Ticks end = index_.end_time();
    const Ticks t = playback_.playhead();
    if (!scrubber_->isSliderDown())
        scrubber_->setValue(end > 0 ? static_cast<int>(t * 1000 / end) : 0);
    const StepSnapshot* snap = index_.snapshot_at(t);
    time_label_->setText(tr("t = %1 s of %2 s · %3 steps done")
                             .arg(to_seconds(t), 0, 'f', 4)
                             .arg(to_seconds(end), 0, 'f', 4)
                             .arg(snap ? snap->step + 1 : 0));
}

void MainWindow::onWorkerAction(int worker, const QString& action) {
    const auto change = EngineController::faultFor(worker, action, 0);
    if (!change)
        return;
    const QString what = action == QLatin1String("slow")    ? tr("worker %1 slowed 3×").arg(worker)
                         : action == QLatin1String("pause") ? tr("worker %1 paused 5 s").arg(worker)
                         : action == QLatin1String("crash") ? tr("worker %1 crashed").arg(worker)
                                                            : tr("worker %1 crashes in the next "
                                                                 "checkpoint")
                                                                  .arg(worker);
    intervene(*change, what);
}

std::int64_t MainWindow::interventionPoint() const {
    std::int64_t at = index_.ordinal_starting_from(playback_.playhead());
    // At the very end of a finished run no step is left to change: the last one is done again.
    if (run_finished_ && at > 0 && !index_.start_of(at))
        at -= 1;
    return at;
}

bool MainWindow::intervene(Intervention change, const QString& what) {
    change.at = interventionPoint();
    const auto held = index_.start_of(change.at);
    const auto last = index_.last_step();
    const std::int64_t step = held ? held->step : last ? last->step + 1 : 0;
    QString why;
    intervening_ = true;
    const QList<Mark> before = marks_;
    if (!controller_.intervene(change, &why)) {
        intervening_ = false;
        showStatus(why);
        QMessageBox::information(this, tr("Not possible"), why);
        return false;
    }
    intervening_ = false;
    // The marks of the replaced future go with it; this one joins those before it.
    QList<Mark> kept;
    for (const Mark& m : before)
        if (m.ordinal <= change.at)
            kept.append(m);
    kept.append({change.at, tr("step %1: %2").arg(step).arg(what)});
    marks_before_.append(before);
    marks_ = kept;
    showBranchMarks();
    undo_action_->setEnabled(controller_.canUndo());
    // A change at the playhead when it stands past the last step's start: show it from there.
    if (held && held->start < playback_.playhead())
        playback_.scrubTo(held->start);
    showStatus(tr("At step %1: %2. Ctrl+Z undoes it.").arg(step).arg(what));
    return true;
}

bool MainWindow::undoIntervention() {
    if (!controller_.undo())
        return false;
    training_->setBranchedLoss({}, {});
    scenario_ = controller_.scenario(); // the settings as they were before the change
    controls_->setScenario(scenario_);
    checkpoints_->setRestoreMode(scenario_.checkpoint ? scenario_.checkpoint->restore
                                                      : RestoreMode::Full);
    marks_ = marks_before_.isEmpty() ? QList<Mark>() : marks_before_.takeLast();
    showBranchMarks();
    undo_action_->setEnabled(controller_.canUndo());
    showStatus(tr("Undone: the run is back as it was before the last change."));
    return true;
}

void MainWindow::onBranched(std::int64_t from) {
    // What the run did from there before the change: the faint line the new one is read against.
    if (intervening_) {
        QList<QPointF> old;
        for (const StepSnapshot& s : index_.snapshots())
            if (s.ordinal >= from)
                old.append(QPointF(static_cast<double>(s.step), s.loss));
        training_->setBranchedLoss(old, tr("before the change"));
        intervening_ = false; // a later cut of the same change (measured clock) keeps this line
    }
    run_finished_ = false;
    index_.truncate_from(from);
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
    for (const Mark& m : marks_) {
        const auto start = index_.start_of(m.ordinal);
        const auto last = index_.last_step();
        // A branch at a step not yet drawn is marked where the run has got to.
        marks.append({start ? start->start : last ? index_.end_time() : 0, m.label});
    }
    timeline_->setBranchMarks(marks);
}

// What a change of the mid-run settings says on the timeline: "rule → sum".
QString MainWindow::describeChange(const Scenario& from, const Scenario& to) {
    auto name = [](auto value) { return QString::fromStdString(std::string(to_string(value))); };
    QStringList parts;
    if (from.rule != to.rule)
        parts << tr("rule → %1").arg(name(to.rule));
    if (from.algorithm != to.algorithm)
        parts << tr("collective → %1").arg(name(to.algorithm));
    if (from.optimizer.learning_rate != to.optimizer.learning_rate)
        parts << tr("learning rate → %1").arg(to.optimizer.learning_rate);
    if (from.delays.slowdown != to.delays.slowdown) {
        QStringList factors;
        for (double f : to.delays.slowdown)
            factors << QString::number(f);
        parts << tr("slowdown → %1")
                     .arg(factors.isEmpty() ? tr("none") : factors.join(QStringLiteral(", ")));
    }
    return parts.join(QStringLiteral(", ")); // empty: none of them changed
}

void MainWindow::changeScenario(const Scenario& changed, const QString& what) {
    const Scenario& running = controller_.scenario();
    const auto field = fixed_for_the_run(running, changed);
    if (!field && scenario_to_json(running) == scenario_to_json(changed))
        return; // nothing to change: the run already has these settings
    const bool can_branch = !field && !EngineController::isModelParallel(running) &&
                            index_.workers() == running.workers;
    if (!can_branch) {
        scenario_ = changed;
        controls_->setScenario(changed);
        runScenario(changed);
        if (field)
            showStatus(tr("%1: “%2” only changes when a run starts, so the run starts again from "
                          "step 0.")
                           .arg(what, QString::fromStdString(*field)));
        return;
    }
    Intervention change;
    change.kind = Intervention::Kind::Retune;
    change.scenario = changed;
    change.at = interventionPoint();
    const Algorithm collective = running.algorithm; // intervene() updates the running scenario
    if (intervene(change, what)) {
        if (changed.algorithm != collective)
            index_.set_algorithm_from(change.at, changed.algorithm);
        scenario_ = controller_.scenario();
        controls_->setScenario(scenario_);
        checkpoints_->setRestoreMode(scenario_.checkpoint ? scenario_.checkpoint->restore
                                                          : RestoreMode::Full);
    }
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
    scenario_ = lesson->scenario;
    scenario_path_ = lesson->scenario_path;
    controls_->setScenario(scenario_);
    setWindowTitle(tr("Lockstep — %1").arg(lesson->title));
    if (!lesson->views.isEmpty())
        bringViewToFront(lesson->views.front());
    for (const QString& v : lesson->views)
        if (view(v) && side_tabs_->indexOf(view(v)) >= 0) { // the cluster, when it is a tab
            side_tabs_->setCurrentWidget(view(v));
            break;
        }
    if (run_opened_lesson_)
        runScenario(scenario_);
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

void MainWindow::applyLessonAction(const lessons::Action& action) {
    using lessons::ActionKind;
    const std::optional<int> worker = lessons::action_worker(action);
    auto rerun = [this](const Scenario& s) {
        scenario_ = s;
        controls_->setScenario(s);
        runScenario(s);
    };
    try {
        switch (action.kind) {
        case ActionKind::Play:
            playback_.play();
            break;
        case ActionKind::Pause:
            playback_.pause();
            break;
        case ActionKind::Step:
            playback_.stepForward();
            break;
        case ActionKind::Reset:
            playback_.reset();
            break;
        case ActionKind::Run:
            rerun(scenario_);
            break;
        case ActionKind::Set: {
            Scenario s = scenario_;
            lessons::apply_set(action, s);
            const QString what = describeChange(scenario_, s);
            changeScenario(s, what.isEmpty()
                                  ? action.url.mid(action.url.indexOf(QLatin1Char('?')) + 1)
                                  : what);
            break;
        }
        case ActionKind::Slow:
        case ActionKind::Stall: {
            const bool slow = action.kind == ActionKind::Slow;
            const double amount = action.number(
                slow ? QStringLiteral("factor") : QStringLiteral("seconds"), slow ? 3.0 : 5.0);
            if (*worker >= scenario_.workers) {
                showStatus(tr("There is no worker %1 in this scenario.").arg(*worker));
                break;
            }
            Intervention change;
            change.kind = slow ? Intervention::Kind::Slow : Intervention::Kind::Pause;
            change.worker = *worker;
            change.amount = amount;
            intervene(change, slow ? tr("worker %1 slowed %2×").arg(*worker).arg(amount)
                                   : tr("worker %1 stalled %2 s").arg(*worker).arg(amount));
            break;
        }
        case ActionKind::View:
            bringViewToFront(action.text(QStringLiteral("name")));
            break;
        case ActionKind::Scenario: {
            const lessons::Lesson* l = lesson_pane_->currentLesson();
            const QString path = l ? QDir(l->dir).filePath(action.text(QStringLiteral("file")))
                                   : action.text(QStringLiteral("file"));
            if (openScenario(path))
                runScenario(scenario_);
            break;
        }
        case ActionKind::Checkpoint: {
            Scenario s = scenario_;
            s.checkpoint = s.checkpoint.value_or(CheckpointConfig{});
            s.checkpoint->every = action.integer(QStringLiteral("every"));
            if (action.has(QStringLiteral("restore")))
                parse_restore_mode(action.text(QStringLiteral("restore")).toStdString(),
                                   s.checkpoint->restore);
            validate(s);
            rerun(s);
            showStatus(tr("A checkpoint after every %1 steps.").arg(s.checkpoint->every));
            break;
        }
        case ActionKind::Crash: {
            FailureSpec f;
            f.worker = *worker;
            if (action.has(QStringLiteral("phase")))
                parse_crash_phase(action.text(QStringLiteral("phase")).toStdString(), f.phase);
            const QString phase = QString::fromStdString(std::string(to_string(f.phase)));
            if (!action.has(QStringLiteral("step"))) {
                // At the playhead, like a click on the worker.
                Intervention change;
                change.kind = Intervention::Kind::Crash;
                change.worker = f.worker;
                change.phase = f.phase;
                intervene(change, tr("worker %1 crashed (%2)").arg(f.worker).arg(phase));
                break;
            }
            // At a given step: run again with the crash written into the scenario, so the same
            // link always crashes at the same point and the class sees the same recovery.
            Scenario s = scenario_;
            f.step = action.integer(QStringLiteral("step"));
            s.failures.events.push_back(f);
            validate(s);
            rerun(s);
            showStatus(tr("Worker %1 will crash (%2) at step %3: watch the others wait for the "
                          "heartbeat, then recover.")
                           .arg(*worker)
                           .arg(phase)
                           .arg(f.step));
            break;
        }
        case ActionKind::Restore: {
            // From the playhead on, crashes are recovered with the other restore mode.
            Scenario s = scenario_;
            s.checkpoint = s.checkpoint.value_or(CheckpointConfig{});
            parse_restore_mode(action.text(QStringLiteral("mode")).toStdString(),
                               s.checkpoint->restore);
            validate(s);
            changeScenario(s, s.checkpoint->restore == RestoreMode::Full
                                  ? tr("restores bring back the whole state")
                                  : tr("restores bring back the weights alone"));
            break;
        }
        case ActionKind::Pipeline: {
            // The same model and batch, split into stages and micro-batches.
            Scenario s = scenario_;
            ParallelismConfig p;
            p.mode = Parallelism::Pipeline;
            p.stages = action.integer(QStringLiteral("stages"));
            p.microbatches = action.integer(QStringLiteral("microbatches"));
            if (action.has(QStringLiteral("schedule")))
                parse_pipeline_schedule(action.text(QStringLiteral("schedule")).toStdString(),
                                        p.schedule);
            s.parallelism = p;
            s.workers = p.lanes();
            s.failures = {};
            s.checkpoint.reset();
            validate(s);
            rerun(s);
            bringViewToFront(QStringLiteral("pipeline"));
            showStatus(tr("A pipeline of %1 stages, %2 micro-batches per batch (%3).")
                           .arg(p.stages)
                           .arg(p.microbatches)
                           .arg(QString::fromStdString(std::string(to_string(p.schedule)))));
            break;
        }
        case ActionKind::Quiz:
        case ActionKind::Calculator:
        case ActionKind::Study:
            break; // the lesson pane handles these itself
        }
    } catch (const Error& e) {
        showStatus(QString::fromStdString(e.what()));
        QMessageBox::information(this, tr("Not possible"), QString::fromStdString(e.what()));
    }
}

void MainWindow::showStatus(const QString& text) {
    statusBar()->showMessage(text);
}

void MainWindow::setPresentationMode(bool on) {
    presenting_ = on;
    presentation_action_->setChecked(on);
    QFont f = normal_font_;
    if (on)
        f.setPointSizeF(normal_font_.pointSizeF() * 1.6);
    QApplication::setFont(f);
    lesson_dock_->setVisible(!on);
    controls_dock_->setVisible(!on);
    fitted_width_ = -1;
    if (on) {
        // Full screen on the screen the window is on now, whichever of the computer's that is.
        QScreen* here = QGuiApplication::screenAt(frameGeometry().center());
        if (here && windowHandle())
            windowHandle()->setScreen(here);
        showFullScreen();
    } else {
        showNormal();
    }
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
        runScenario(scenario_);
}

void MainWindow::saveScenarioDialog() {
    const QString path = QFileDialog::getSaveFileName(this, tr("Save Scenario"), scenario_path_,
                                                      tr("Scenarios (*.json)"));
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
    scenario_path_ = path;
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
        file.write(QByteArray::fromStdString(to_metrics_csv(index_.snapshots()))) < 0)
        QMessageBox::warning(this, tr("Cannot export"), tr("Cannot write %1").arg(path));
}

void MainWindow::exportTraceDialog() {
    const QString path = QFileDialog::getSaveFileName(this, tr("Export Trace"), QString(),
                                                      tr("Chrome trace (*.json)"));
    if (path.isEmpty())
        return;
    try {
        write_chrome_trace(path.toStdString(), index_.events(), index_.workers(), scenario_.name);
    } catch (const Error&) {
        QMessageBox::warning(this, tr("Cannot export"), tr("Cannot write %1").arg(path));
    }
}

} // namespace lockstep::app
