// The lab window: its views and docks, its title, and the way to a view by name.

#include "main_window.h"

#include "audio_description.h"
#include "change_description.h"
#include "controls_panel.h"
#include "lesson_pane.h"
#include "run_comparer.h"
#include "speedup_sweeper.h"
#include "teacher_lock.h"
#include "welcome.h"

#include "core/error.h"
#include "lockstep_lessons/lesson.h"

#include "lockstep_views/accessibility.h"
#include "lockstep_views/checkpoint_view.h"
#include "lockstep_views/cluster_view.h"
#include "lockstep_views/memory_view.h"
#include "lockstep_views/pipeline_view.h"
#include "lockstep_views/speedup_view.h"
#include "lockstep_views/timeline_view.h"
#include "lockstep_views/training_view.h"
#include "lockstep_views/view_catalog.h"

#include <QAction>
#include <QApplication>
#include <QDockWidget>
#include <QFileInfo>
#include <QMessageBox>
#include <QSettings>
#include <QSplitter>
#include <QStandardPaths>
#include <QStatusBar>
#include <QTabWidget>
#include <QTimer>

#include <cstdio>

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
    controls_->showScenario();
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
    QStringList names{QStringLiteral("cluster"), QStringLiteral("timeline")};
    for (const views::ViewEntry& entry : views::tab_views())
        names << QString::fromLatin1(entry.name);
    return names;
}

QList<QWidget*> MainWindow::allViews() const {
    QList<QWidget*> all{cluster_, timeline_};
    for (const auto& [entry, view] : tab_views_)
        all << view->widget();
    return all;
}

void MainWindow::buildViews() {
    // The cluster and the timeline have places of their own; the catalog's views are the tabs.
    cluster_ = new views::ClusterView;
    timeline_ = new views::TimelineView;
    session_.addView(cluster_);
    session_.addView(timeline_);
    side_tabs_ = new QTabWidget;
    for (const views::ViewEntry& entry : views::tab_views()) {
        views::SessionView* view = entry.make();
        tab_views_.emplace_back(&entry, view);
        session_.addView(view);
        side_tabs_->addTab(view->widget(), tabTitle(view->widget()));
    }
    training_ = qobject_cast<views::TrainingView*>(view(QStringLiteral("training")));
    speedup_ = qobject_cast<views::SpeedupView*>(view(QStringLiteral("speedup")));
    checkpoints_ = qobject_cast<views::CheckpointView*>(view(QStringLiteral("checkpoints")));
    pipeline_ = qobject_cast<views::PipelineView*>(view(QStringLiteral("pipeline")));
    memory_ = qobject_cast<views::MemoryView*>(view(QStringLiteral("memory")));
    unsharded_job_ = new BackgroundJob(this);
    sweeper_ = new SpeedupSweeper(speedup_);
    comparer_ = new RunComparer(this);
    for (QWidget* v : allViews())
        v->installEventFilter(this);
    connect(pipeline_, &views::PipelineView::runAsPipelineRequested, this,
            &MainWindow::runAsPipeline);
    timeline_->setFollowPlayhead(true);

    side_tabs_->setAccessibleName(tabsName());

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
    connect(cluster_, &views::ClusterView::workerActionRequested, &session_,
            &LabSession::workerAction);
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

    controls_ = new ControlsPanel(session_);
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
    connect(controls_, &ControlsPanel::runRequested, &session_, &LabSession::rerunWithChange);
    connect(controls_, &ControlsPanel::cannotRun, this,
            [this](const QString& message) { tell(tr("Cannot run"), message, true); });
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

void MainWindow::tell(const QString& title, const QString& text, bool warning) {
    if (session_.headless()) {
        headless_notices_.append(text);
        std::fprintf(stderr, "lockstep: %s: %s\n", qUtf8Printable(title), qUtf8Printable(text));
        return;
    }
    if (warning)
        QMessageBox::warning(this, title, text);
    else
        QMessageBox::information(this, title, text);
}

QWidget* MainWindow::view(const QString& name) const {
    if (name == QLatin1String("cluster"))
        return cluster_;
    if (name == QLatin1String("timeline"))
        return timeline_;
    for (const auto& [entry, view] : tab_views_)
        if (name == QLatin1String(entry->name))
            return view->widget();
    return nullptr;
}

// The tabs' names together, for screen readers: "Training, Speedup, ...".
QString MainWindow::tabsName() const {
    QStringList titles;
    for (const auto& [entry, view] : tab_views_)
        titles << tabTitle(view->widget());
    return titles.join(QStringLiteral(", "));
}

bool MainWindow::eventFilter(QObject* watched, QEvent* event) {
    // The view last clicked or focused is the one "Export View" writes.
    if (event->type() == QEvent::MouseButtonPress || event->type() == QEvent::FocusIn)
        last_view_ = qobject_cast<QWidget*>(watched);
    return QMainWindow::eventFilter(watched, event);
}

} // namespace lockstep::app
