#pragma once

#include "change_description.h"
#include "lab_session.h"
#include "run_comparer.h"

#include "lockstep_lessons/action.h"
#include "lockstep_lessons/lesson.h"
#include "lockstep_lessons/profiles.h"
#include "lockstep_lessons/progress.h"

#include <QElapsedTimer>
#include <QHostAddress>
#include <QMainWindow>
#include <QPalette>
#include <QPointer>

#include <functional>
#include <memory>
#include <vector>

class QAction;
class QActionGroup;
class QDockWidget;
class QLabel;
class QSlider;
class QSplitter;
class QTabWidget;

namespace lockstep::views {
class ClusterView;
class TimelineView;
class TrainingView;
class SpeedupView;
class CheckpointView;
class PipelineView;
class MemoryView;
class SessionView;
struct ViewEntry;
} // namespace lockstep::views

class QSettings;
class QToolBar;
class QScreen;

namespace lockstep::app {

class TeacherLock;

class ControlsPanel;
class LessonPane;
class SpeedupSweeper;
class BackgroundJob;
class ClassWindow;
class AudioDescription;

// The lab window: the lesson pane on the left, the views in the middle (cluster and timeline,
// training and speedup), the controls on the right, playback along the top. It shows a
// LabSession (the run, its trace, the playhead, its branches) and hands every click, key and
// lesson link to it.
class MainWindow : public QMainWindow {
    Q_OBJECT
public:
    explicit MainWindow(QWidget* parent = nullptr);
    ~MainWindow() override;

    LabSession& session() { return session_; }
    const LabSession& session() const { return session_; }

    // Opens a scenario file. On a bad file: a dialog (unless `quiet`), the message in `error`,
    // and the previous scenario stays. Returns whether the file was taken.
    bool openScenario(const QString& path, QString* error = nullptr, bool quiet = false);
    // Plays back a recorded run (LabSession::openRecording); the title says it is a recording.
    bool openRecording(const QString& path, QString* error = nullptr, bool quiet = false);
    void runScenario(const Scenario& scenario) { session_.run(scenario); }
    // Opens a lesson: its page in the lesson pane, its scenario in the lab (run at once when
    // `run`), its views in front. Returns false, with the reason in `error`, for an unknown id.
    bool openLesson(const QString& id, QString* error = nullptr, bool run = true);
    // The lesson open when the lab last closed, without running it (false: none, or gone).
    bool openLastLesson();
    // Takes the user's own lessons from `folder` (kept in the settings; empty: the default
    // ~/.local/share/Lockstep/lessons) and shows them after the shipped ones at once. Returns how
    // many lessons it added; the lessons that cannot be loaded are named in the status bar.
    int useOwnLessonsFolder(const QString& folder);
    // Does what a lesson's lockstep: link asks, on the running lab (lesson_links.cpp).
    void applyLessonAction(const lessons::Action& action);
    // A fault link's change (lockstep:slow?worker=2&factor=3), as a click on the worker.
    void applyLessonFault(const lessons::Action& action);
    // Applies `change` at the playhead (LabSession::intervene): the run branches at the first
    // step that starts at or after it; the timeline marks the branch with "step N: `what`", the
    // Training view keeps the old loss as a faint line. Returns false, with the reason in the
    // status bar and a dialog, for what the run cannot take.
    bool intervene(Intervention change, const QString& what) {
        return session_.intervene(std::move(change), what);
    }
    // Ctrl+Z: the run, its settings and the playhead as they were before the last change;
    // Ctrl+Shift+Z: the change again.
    bool undoIntervention() { return session_.undo(); }
    bool redoIntervention() { return session_.redo(); }
    // The executed step an intervention at the playhead takes effect before.
    std::int64_t interventionPoint() const { return session_.interventionPoint(); }
    // A scenario from the controls or a lesson link (LabSession::changeScenario).
    void changeScenario(const Scenario& changed, const QString& what) {
        session_.changeScenario(changed, what);
    }
    static QString describeChange(const Scenario& from, const Scenario& to) {
        return describe_change(from, to);
    }
    LessonPane* lessonPane() const { return lesson_pane_; }
    // Class → Start a Class Quiz…: the dialog, then the projector's window (one quiz at a time).
    void startClassQuizDialog();
    // A class quiz on `bank`'s `questions` (all when empty), served on `port` (0: a free one) of
    // `addresses` (none: every classroom address). Shows the error and returns null when the
    // server cannot listen. Its "Replay in the lab" link plays here.
    ClassWindow* startClassQuiz(const QString& bank, std::vector<int> questions, quint16 port,
                                QList<QHostAddress> addresses);
    // Class → Resume a Class Quiz…: a journal from the data folder, then resumeClassQuiz().
    void resumeClassQuizDialog();
    // Goes on with the quiz of a journal (ClassWindow::resume) on port 8080 (or `port`) of every
    // classroom address, so the students' pages find it where it was. Shows the error and
    // returns null when it cannot.
    ClassWindow* resumeClassQuiz(const QString& journal, quint16 port = 8080,
                                 QList<QHostAddress> addresses = {});
    ClassWindow* classWindow() const;
    // Teacher mode with this PIN (false, and nothing shown, for a wrong one). With no PIN set yet,
    // `pin` becomes the teacher's PIN.
    bool enterTeacherMode(const QString& pin);
    TeacherLock& teacherLock() { return *teacher_lock_; }
    // The strip of the page's links shown in presentation mode.
    QToolBar* lessonLinksBar() const { return lesson_links_; }
    // Whether the lesson's calculator or study is one of the tabs beside the views.
    bool showsLessonTool(const QWidget* tool) const;
    // Runs the current scenario to its end on this thread (headless screenshots, tests).
    void runToCompletion() { session_.runToCompletion(); }
    // Headless (screenshots, --action): every run and branch goes to its end on this thread,
    // and a crash's restores are compared in place.
    void setHeadless(bool on) { session_.setHeadless(on); }
    // What the lab would have said in a dialog while headless (a refused action, a run that
    // cannot start): written to stderr instead, since nobody is there to close a dialog.
    const QStringList& headlessNotices() const { return headless_notices_; }

    // A view by name (cluster, timeline, and the tabs of views::tab_views()), or nullptr.
    QWidget* view(const QString& name) const;
    static QStringList viewNames();
    QList<QWidget*> allViews() const;
    bool exportView(QWidget* view, const QString& path, QString* error = nullptr) const;

    EngineController& controller() { return session_.controller(); }
    // Reruns a finished run's crash with both restores for the Checkpoints view.
    RestoreComparer& restoreComparer() { return session_.restoreComparer(); }
    Playback& playback() { return session_.playback(); }
    const views::TraceIndex& traceIndex() const { return session_.traceIndex(); }
    views::ClusterView* clusterView() const { return cluster_; }
    views::TimelineView* timelineView() const { return timeline_; }
    views::TrainingView* trainingView() const { return training_; }
    ControlsPanel* controls() const { return controls_; }
    bool presentationMode() const { return presenting_; }
    // True while the Speedup view waits for the sweep of the run it shows.
    bool speedupPending() const;
    // True while the Memory view waits for the unsharded step it outlines.
    bool memoryPending() const;
    // True while the Training view waits for the runs a comparison trains.
    bool comparisonPending() const { return comparer_->isComputing(); }
    // Past this many events in memory, steps well behind the playhead are forgotten.
    static constexpr std::size_t kRetainedEvents = LabSession::kRetainedEvents;
    void setPresentationMode(bool on);
    // View → Text Size: 0 is normal, each step up to kTextSizes - 1 larger; remembered.
    static constexpr int kTextSizes = 5;
    static double textScale(int size);
    void setTextSize(int size);
    int textSize() const { return text_size_; }
    // Places the window on `screen` (the one under the pointer when null): where it was last
    // on a screen of that name and size, else as large as the screen allows, maximised on a
    // small one (a projector's 1024x768 or 1280x720).
    void placeOnScreen(QScreen* screen = nullptr);
    // View → Language: the window, the open lesson and its quizzes in `code` ("en", "de",
    // "es") at once, the lesson kept open where it was; remembered for the next start. False,
    // with the reason, for a language Lockstep does not speak.
    bool setLanguage(const QString& code, QString* error = nullptr);
    // View → High Contrast: black on white, stronger tones, thicker edges (for projectors);
    // remembered for the next start when `remember` (the menu), not for --high-contrast.
    void setHighContrast(bool on, bool remember = true);
    // View → Audio Description: each step's key event announced to screen readers (and shown
    // in the status bar) at the playback's pace; remembered for the next start.
    void setAudioDescription(bool on);
    AudioDescription& audioDescription() const { return *audio_; }

protected:
    void changeEvent(QEvent* event) override;
    void closeEvent(QCloseEvent* event) override;
    bool eventFilter(QObject* watched, QEvent* event) override;
    void resizeEvent(QResizeEvent* event) override;
    void showEvent(QShowEvent* event) override;

private:
    // Makes the class window with `make` (which may throw lockstep::Error: shown, then null) and
    // links its "Replay in the lab" here.
    ClassWindow* adoptClassWindow(const std::function<ClassWindow*()>& make);
    void buildViews();
    void buildDocks();
    void connectSession(); // window_session.cpp, with what each of its signals changes
    void buildActions();   // window_menus.cpp, with the playback toolbar
    // The texts of menus, actions, tabs and docks in the language in use (window_menus.cpp).
    void retranslate();
    QObject* label(QObject* target, const char* source);
    QString tabTitle(QWidget* page) const;
    QString tabsName() const;
    QString welcomePage(const QStringList& problems);
    void updateWindowTitle();
    void fitPanes(); // window_layout.cpp, with the presentation mode
    // The views above the timeline may be squeezed to this height (their charts cropped) so
    // that every lane stays readable on a projector's short screen.
    static constexpr int kTopMinimum = 200;
    void sizePanes();
    int lessonWidth() const;
    QWidget* frontView(QWidget* shown) const;
    void onRunStarted(const Scenario& scenario);
    void sweep(const Scenario& scenario);
    void outlineUnsharded(const Scenario& scenario);
    void updateWorkerMenu();
    std::int64_t playheadStep() const; // the step under the playhead, as the views name it
    void onTraceAppended(bool first, Ticks first_step_end);
    void onRunFinished();
    void onPlayhead(Ticks t);
    void onBranched();
    void showBranchMarks();
    void showRestoreComparison();
    void fitTimeline();
    void onLessonOpened(const QString& id); // window_lessons.cpp, with teacher mode
    void bringViewToFront(const QString& name);
    void updateScrubber();
    void showStatus(const QString& text);
    // A message box, or while headless a line on stderr (headlessNotices()).
    void tell(const QString& title, const QString& text, bool warning = false);
    void openScenarioDialog(); // window_dialogs.cpp, with the other dialogs of the menus
    void openRecordingDialog();
    void runAsPipeline();
    // The current scenario trained whole in each of the variants `variants` makes of it (ways of
    // agreeing, model precisions, wire formats: RunComparer's), off the GUI thread; the Training
    // view draws one loss line per variant beside the run. `what` names them in the status bar,
    // which says why when they cannot be compared (lesson_links.cpp).
    using RunVariants = std::function<std::vector<RunComparer::Variant>(const Scenario&)>;
    void compare(const QString& what, const RunVariants& variants);
    void placeLessonTools();
    void askForTeacherMode();
    void chooseOwnLessonsFolder();
    static lessons::LessonLibrary loadLibrary(const QString& own, QStringList* problems);
    void showAbout();
    void refreshLessonLinks();
    bool isLessonTool(const QWidget* page) const;
    void saveScenarioDialog();
    void exportViewDialog(const QString& format);
    void exportMetricsDialog();
    void exportTraceDialog();
    void showShortcuts();
    void focusNextPane();
    QWidget* currentView() const;

    LabSession session_;
    QStringList headless_notices_; // see headlessNotices()

    views::ClusterView* cluster_ = nullptr;
    views::TimelineView* timeline_ = nullptr;
    views::TrainingView* training_ = nullptr;
    views::SpeedupView* speedup_ = nullptr;
    SpeedupSweeper* sweeper_ = nullptr; // computes the speedup view's points
    RunComparer* comparer_ = nullptr;   // the Training view's one loss line per variant of the run
    views::CheckpointView* checkpoints_ = nullptr;
    views::PipelineView* pipeline_ = nullptr;
    views::MemoryView* memory_ = nullptr;
    BackgroundJob* unsharded_job_ = nullptr; // one unsharded step, for the Memory view's outline
    // The tabs' views, as views::tab_views() lists them; the session drives them.
    std::vector<std::pair<const views::ViewEntry*, views::SessionView*>> tab_views_;
    QTabWidget* side_tabs_ = nullptr;
    QSplitter* splitter_ = nullptr;
    QSplitter* top_ = nullptr; // the cluster beside the tabs, unless it is one of them
    ControlsPanel* controls_ = nullptr;
    QDockWidget* lesson_dock_ = nullptr;
    QDockWidget* controls_dock_ = nullptr;
    Qt::DockWidgetArea controls_area_ = Qt::RightDockWidgetArea;
    bool controls_placed_ = false; // moved or floated by hand: fitPanes() leaves it there
    int fitted_width_ = -1;        // the width the docks were last sized for
    bool sizing_pending_ = false;  // sizePanes() is on its way
    std::unique_ptr<lessons::ProgressStore> progress_; // before profiles: the pane's first store
    std::unique_ptr<lessons::ProfileBook> profiles_;
    std::unique_ptr<QSettings> settings_;
    std::unique_ptr<TeacherLock> teacher_lock_;
    QAction* teacher_action_ = nullptr;
    QToolBar* lesson_links_ = nullptr; // the page's links, in presentation mode
    LessonPane* lesson_pane_ = nullptr;
    bool run_opened_lesson_ = true;
    QSlider* scrubber_ = nullptr;
    QLabel* time_label_ = nullptr;
    QLabel* speed_label_ = nullptr;
    QAction* play_action_ = nullptr;
    QAction* undo_action_ = nullptr;
    QAction* redo_action_ = nullptr;
    int text_size_ = 0;
    // The window as it was before presentation mode: put back when it ends.
    QRect normal_geometry_;
    Qt::WindowStates normal_state_;
    void applyFont();
    void rememberPlace();
    QString placeKey(const QScreen* screen) const;
    int fitted_lanes_ = -1; // the lanes the timeline's height was last fitted to
    QAction* presentation_action_ = nullptr;
    QWidget* last_view_ = nullptr;
    bool presenting_ = false;
    QFont normal_font_;
    QPointer<ClassWindow> class_window_;
    // Each menu, action and bar with its English text, for retranslate().
    struct Label {
        QPointer<QObject> target;
        const char* source = nullptr;
    };
    std::vector<Label> labels_;
    QActionGroup* language_group_ = nullptr;
    QAction* contrast_action_ = nullptr;
    QAction* audio_action_ = nullptr;
    AudioDescription* audio_ = nullptr;
    QPalette default_palette_;
    // What the title names: nothing, a scenario file, a recording or the open lesson.
    enum class Title { Plain, Scenario, Recording, Lesson };
    Title title_ = Title::Plain;
    QString title_file_;
};

} // namespace lockstep::app
