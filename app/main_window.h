#pragma once

#include "engine_controller.h"
#include "playback.h"
#include "restore_comparer.h"

#include "lockstep_lessons/action.h"
#include "lockstep_lessons/progress.h"
#include "lockstep_views/trace_index.h"
#include "trainers/branching.h"

#include <QElapsedTimer>
#include <QMainWindow>

#include <memory>

class QAction;
class QDockWidget;
class QLabel;
class QSlider;
class QSplitter;
class QTabWidget;
class QTextBrowser;

namespace lockstep::views {
class ClusterView;
class TimelineView;
class TrainingView;
class SpeedupView;
class CheckpointView;
class PipelineView;
class ComparisonView;
} // namespace lockstep::views

namespace lockstep::app {

class ControlsPanel;
class LessonPane;
class SpeedupSweeper;

// The lab window: the lesson pane on the left, the views in the middle (cluster and timeline,
// training and speedup), the controls on the right, playback along the top. It owns the engine
// controller, the trace index the views read, and the playhead.
class MainWindow : public QMainWindow {
    Q_OBJECT
public:
    explicit MainWindow(QWidget* parent = nullptr);
    ~MainWindow() override;

    // Opens a scenario file. On a bad file: a dialog (unless `quiet`), the message in `error`,
    // and the previous scenario stays. Returns whether the file was taken.
    bool openScenario(const QString& path, QString* error = nullptr, bool quiet = false);
    void runScenario(const Scenario& scenario);
    // Opens a lesson: its page in the lesson pane, its scenario in the lab (run at once when
    // `run`), its views in front. Returns false, with the reason in `error`, for an unknown id.
    bool openLesson(const QString& id, QString* error = nullptr, bool run = true);
    // Does what a lesson's lockstep: link asks, on the running lab.
    void applyLessonAction(const lessons::Action& action);
    // Applies `change` at the playhead (Intervention::at is set here): the run branches at the
    // first step that starts at or after it, whatever the engine has computed since; the
    // timeline marks the branch with "step N: `what`", the Training view keeps the old loss as a
    // faint line. Returns false, with the reason in the status bar, for what the run cannot take.
    bool intervene(Intervention change, const QString& what);
    // Ctrl+Z: the run as it was before the last intervention.
    bool undoIntervention();
    // The executed step an intervention at the playhead takes effect before.
    std::int64_t interventionPoint() const;
    // A scenario from the controls or a lesson link: at the playhead when only settings that can
    // change mid-run differ (rule, algorithm, learning rate, slowdowns, ...), else a new run
    // from the start, and the status bar says why.
    void changeScenario(const Scenario& changed, const QString& what);
    static QString describeChange(const Scenario& from, const Scenario& to);
    LessonPane* lessonPane() const { return lesson_pane_; }
    // Runs the current scenario to its end on this thread (headless screenshots, tests).
    void runToCompletion();
    // Headless (screenshots, --action): every run and branch goes to its end on this thread,
    // and a crash's restores are compared in place.
    void setHeadless(bool on);

    // A view by name (cluster, timeline, speedup, training), or nullptr.
    QWidget* view(const QString& name) const;
    static QStringList viewNames();
    bool exportView(QWidget* view, const QString& path, QString* error = nullptr) const;

    EngineController& controller() { return controller_; }
    // Reruns a finished run's crash with both restores for the Checkpoints view.
    RestoreComparer& restoreComparer() { return comparer_; }
    Playback& playback() { return playback_; }
    const views::TraceIndex& traceIndex() const { return index_; }
    views::ClusterView* clusterView() const { return cluster_; }
    views::TimelineView* timelineView() const { return timeline_; }
    views::TrainingView* trainingView() const { return training_; }
    ControlsPanel* controls() const { return controls_; }
    bool presentationMode() const { return presenting_; }
    // True while the speedup view waits for a sweep requested at the start of the run.
    bool speedupPending() const { return sweep_pending_; }
    // Past this many events in memory, steps well behind the playhead are forgotten.
    static constexpr std::size_t kRetainedEvents = 600'000;
    void setPresentationMode(bool on);

protected:
    bool eventFilter(QObject* watched, QEvent* event) override;
    void resizeEvent(QResizeEvent* event) override;
    void showEvent(QShowEvent* event) override;

private:
    void buildViews();
    void buildDocks();
    void buildActions();
    void fitPanes();
    void sizePanes();
    int lessonWidth() const;
    QWidget* frontView(QWidget* shown) const;
    void onRunStarted(const Scenario& scenario);
    void onTraceBatch(const QVector<TraceEvent>& events, const QVector<StepSnapshot>& snapshots);
    void onRunFinished();
    void compareRestores();
    void showRestoreComparison(const RestoreComparison& comparison);
    void showRestoreComparisonFailed(const QString& message);
    void onPlayhead(Ticks t);
    void onBranched(std::int64_t from);
    void showBranchMarks();
    void fitTimeline();
    void onWorkerAction(int worker, const QString& action);
    void onLessonOpened(const QString& id);
    void bringViewToFront(const QString& name);
    void updateScrubber();
    void showStatus(const QString& text);
    void openScenarioDialog();
    void saveScenarioDialog();
    void exportViewDialog(const QString& format);
    void exportMetricsDialog();
    void exportTraceDialog();
    void showShortcuts();
    void focusNextPane();
    QWidget* currentView() const;

    EngineController controller_;
    Playback playback_;
    views::TraceIndex index_;
    RestoreComparer comparer_;
    Scenario scenario_;
    QString scenario_path_;

    views::ClusterView* cluster_ = nullptr;
    views::TimelineView* timeline_ = nullptr;
    views::TrainingView* training_ = nullptr;
    views::SpeedupView* speedup_ = nullptr;
    SpeedupSweeper* sweeper_ = nullptr; // computes the speedup view's points
    views::CheckpointView* checkpoints_ = nullptr;
    views::PipelineView* pipeline_ = nullptr;
    views::ComparisonView* comparison_ = nullptr; // the runs finished this session
    QElapsedTimer training_refreshed_;            // when the loss charts were last rebuilt
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
    std::unique_ptr<lessons::ProgressStore> progress_;
    LessonPane* lesson_pane_ = nullptr;
    bool run_opened_lesson_ = true;
    QSlider* scrubber_ = nullptr;
    QLabel* time_label_ = nullptr;
    QLabel* speed_label_ = nullptr;
    QAction* play_action_ = nullptr;
    QAction* undo_action_ = nullptr;
    // The timeline's marks of this run's interventions, each at the executed step it branched,
    // with the lists as they were before each one (for undo).
    struct Mark {
        std::int64_t ordinal = 0;
        QString label;
    };
    QList<Mark> marks_;
    QList<QList<Mark>> marks_before_;
    bool intervening_ = false;  // a branch made here: keep what it replaced as the faint loss
    bool run_finished_ = false; // the whole run is in the index
    bool first_batch_ = true;   // the run's first steps are still to come
    int fitted_lanes_ = -1;     // the lanes the timeline's height was last fitted to
    QAction* presentation_action_ = nullptr;
    QWidget* last_view_ = nullptr;
    bool presenting_ = false;
    bool sweep_pending_ = false;
    bool compare_in_place_ = false; // runToCompletion(): no thread, the comparison right away
    bool headless_ = false;
    QFont normal_font_;
};

} // namespace lockstep::app
