#pragma once

#include "engine_controller.h"
#include "playback.h"

#include "lockstep_views/trace_index.h"

#include <QMainWindow>

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
} // namespace lockstep::views

namespace lockstep::app {

class ControlsPanel;

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
    // Runs the current scenario to its end on this thread (headless screenshots, tests).
    void runToCompletion();

    // A view by name (cluster, timeline, speedup, training), or nullptr.
    QWidget* view(const QString& name) const;
    static QStringList viewNames();
    bool exportView(QWidget* view, const QString& path, QString* error = nullptr) const;

    EngineController& controller() { return controller_; }
    Playback& playback() { return playback_; }
    const views::TraceIndex& traceIndex() const { return index_; }
    views::ClusterView* clusterView() const { return cluster_; }
    views::TimelineView* timelineView() const { return timeline_; }
    ControlsPanel* controls() const { return controls_; }
    bool presentationMode() const { return presenting_; }
    // True while the speedup view waits for a sweep requested at the start of the run.
    bool speedupPending() const { return sweep_pending_; }
    // Past this many events in memory, steps well behind the playhead are forgotten.
    static constexpr std::size_t kRetainedEvents = 600'000;
    void setPresentationMode(bool on);

protected:
    bool eventFilter(QObject* watched, QEvent* event) override;

private:
    void buildViews();
    void buildDocks();
    void buildActions();
    void onRunStarted(const Scenario& scenario);
    void onTraceBatch(const QVector<TraceEvent>& events, const QVector<StepSnapshot>& snapshots);
    void onRunFinished();
    void onPlayhead(Ticks t);
    void onWorkerAction(int worker, const QString& action);
    void updateScrubber();
    void showStatus(const QString& text);
    void openScenarioDialog();
    void saveScenarioDialog();
    void exportViewDialog(const QString& format);
    void exportMetricsDialog();
    void exportTraceDialog();
    QWidget* currentView() const;

    EngineController controller_;
    Playback playback_;
    views::TraceIndex index_;
    Scenario scenario_;
    QString scenario_path_;

    views::ClusterView* cluster_ = nullptr;
    views::TimelineView* timeline_ = nullptr;
    views::TrainingView* training_ = nullptr;
    views::SpeedupView* speedup_ = nullptr;
    QTabWidget* side_tabs_ = nullptr;
    QSplitter* splitter_ = nullptr;
    ControlsPanel* controls_ = nullptr;
    QDockWidget* lesson_dock_ = nullptr;
    QDockWidget* controls_dock_ = nullptr;
    QTextBrowser* lesson_ = nullptr;
    QSlider* scrubber_ = nullptr;
    QLabel* time_label_ = nullptr;
    QLabel* speed_label_ = nullptr;
    QAction* play_action_ = nullptr;
    QAction* presentation_action_ = nullptr;
    QWidget* last_view_ = nullptr;
    bool presenting_ = false;
    bool sweep_pending_ = false;
    QFont normal_font_;
};

} // namespace lockstep::app
