#pragma once

#include "engine_controller.h"
#include "playback.h"
#include "restore_comparer.h"

#include "lockstep_views/cluster_view.h"
#include "lockstep_views/session_view.h"
#include "lockstep_views/trace_index.h"
#include "runs/restore_comparison.h"
#include "scenario/scenario.h"
#include "trace/trace.h"
#include "trainers/branching.h"

#include <QList>
#include <QObject>
#include <QPointF>
#include <QPointer>
#include <QString>
#include <QWidget>

#include <cstdint>
#include <optional>

namespace lockstep::app {

// One session in the lab: what the windows show and what a person's actions change, like KDE
// Step's WorldModel between StepCore and its windows. It owns the engine controller, the trace
// index the views read, the playhead, the restore comparer and the current scenario; it keeps
// the memory policy (steps far behind the playhead are forgotten past a budget) and the branches
// of the run (each intervention at the playhead, its mark, what it replaced, and undo).
// Windows draw what it holds, react to its signals and forward clicks, keys and lesson links to
// it; it knows no widget.
//
// Thread contract:
// - A LabSession lives on the GUI thread. Every public method is called there, and every signal
//   is emitted there; the views read traceIndex() and playback() there only.
// - It starts no thread of its own. The engine thread is the controller's, the restore
//   comparison is the comparer's BackgroundJob (see their headers); their results reach the
//   session as queued signals, so the session never waits on them. Only runToCompletion() and a
//   headless session (setHeadless(true)) run the engine, and the comparison, on the calling thread,
//   by design.
// - The trace index and the playback are touched by no other thread: the controller hands the
//   trace over on the GUI thread (traceBatch()), and the session appends it there.
class LabSession : public QObject {
    Q_OBJECT
public:
    explicit LabSession(QObject* parent = nullptr);
    ~LabSession() override;

    // A view the session drives from now on, after those added before: each run's start, its
    // trace as it grows or branches, the playhead, the running settings and the run's end (see
    // views::SessionView). Not owned; a view whose widget is gone is skipped.
    void addView(views::SessionView* view);

    EngineController& controller() { return controller_; }
    const EngineController& controller() const { return controller_; }
    Playback& playback() { return playback_; }
    const Playback& playback() const { return playback_; }
    const views::TraceIndex& traceIndex() const { return index_; }
    RestoreComparer& restoreComparer() { return comparer_; }

    // The current scenario: the one the next run takes (what the controls show), and the one the
    // running engine has when a run started or branched from it. Its file, if it came from one.
    const Scenario& scenario() const { return scenario_; }
    const QString& scenarioPath() const { return scenario_path_; }
    void setScenarioPath(const QString& path) { scenario_path_ = path; }
    // Takes `scenario` as the current one (from a lesson, a file, a link) without running it;
    // emits scenarioChanged().
    void useScenario(const Scenario& scenario, const QString& path = {});
    // Loads a scenario file and checks its data, so a bad file is reported now. On a bad file:
    // false, the message in `error`, and the current scenario stays.
    bool openScenario(const QString& path, QString* error = nullptr);
    // Starts a fresh run of `scenario` (to its end on this thread when headless). On a scenario
    // the engine cannot start: false and cannotRun(message).
    bool run(const Scenario& scenario);
    // Takes `scenario` as the current one and runs it from step 0.
    bool rerun(const Scenario& scenario);
    // Plays back a recorded run: a trace that lockstep-cli wrote with its recording (a run over
    // processes, --transport mpi --trace FILE). The views draw it as a finished run, step by
    // step as it happened; it cannot be changed (intervene() refuses), and a run of its
    // scenario starts a live one. On a bad file: false, the message in `error`, nothing changed.
    bool openRecording(const QString& path, QString* error = nullptr);
    // What a recording is ("a recording of 4 processes on 2 hosts, measured"), or empty for a
    // live run.
    const QString& recordingNote() const { return recording_note_; }
    // A recording's model at its end and its data (nothing when its data cannot be loaded
    // here, a CSV file of another computer): what the training view draws the boundary of.
    const std::vector<double>& recordingParameters() const { return recording_parameters_; }
    const std::shared_ptr<const Dataset>& recordingData() const { return recording_data_; }

    // Runs the current scenario to its end on this thread, its crash compared in place.
    void runToCompletion();
    // Headless (screenshots, --action): every run and branch goes to its end on this thread,
    // and a crash's restores are compared in place.
    void setHeadless(bool on);
    bool headless() const { return headless_; }
    // Every run and branch to its end on this thread, as headless, but the playback as in a
    // window: links that play still play (a walk through the lessons, tests).
    void setInlineRuns(bool on);
    // The whole run is in the index (until the next branch or run).
    bool runComplete() const { return run_finished_; }

    // Branches at the playhead.
    //
    // The executed step an intervention at the playhead takes effect before: the first that
    // starts at or after it (at the very end of a finished run, the last one).
    std::int64_t interventionPoint() const;
    // Applies `change` at the playhead (Intervention::at is set here); `what` names it on the
    // branch's mark ("step N: what"). Where the change could not be seen at the playhead (at the
    // end of a finished run) the run is played again from step 0 with it, the run before kept
    // as the faint line. What the run cannot take: false, with the reason in `why` and
    // refused(reason).
    bool intervene(Intervention change, const QString& what, QString* why = nullptr);
    // A click on a worker's menu: the fault kind `id` (failures/fault_<id>.cpp) on `worker`,
    // with its default, through intervene(). False for an unknown id or what the run refuses.
    bool workerAction(int worker, const QString& id);
    // The worker menu's entries for this run: each kind a worker can take, greyed with the
    // reason where this run cannot take it.
    QList<views::WorkerAction> workerMenu() const;
    // The change of `kind` on `worker` with the kind's default: a pause counts the run's own
    // steps so far, whatever their scale. A click and a lesson's fault link both start here.
    Intervention faultOn(const FaultKind& kind, int worker) const;
    // Whether a change now would replay the run from step 0 (the playhead at the end of a
    // finished run) rather than branch at the playhead.
    bool replaysFromStart() const;
    // A scenario from the controls or a lesson link: at the playhead when only settings that can
    // change mid-run differ (rule, algorithm, learning rate, slowdowns, ...), else a new run
    // from step 0, and status() says why.
    void changeScenario(const Scenario& changed, const QString& what);
    // A change only a new run can take (a crash written at a step, a checkpoint policy, a
    // pipeline): `changed` runs from step 0, the run before stays as the faint line, and undo
    // brings that run back.
    bool rerunWithChange(const Scenario& changed);

    // Undo and redo (Ctrl+Z, Ctrl+Shift+Z): the run, its settings, its interventions and the
    // playhead's step as they were before (after) the last change a person made — a click on a
    // worker, a control, a page link, a new run.
    bool undo();
    bool redo();
    bool canUndo() const { return !undo_.isEmpty(); }
    bool canRedo() const { return !redo_.isEmpty(); }
    // A lesson or a scenario file was opened: what came before cannot be undone into.
    void clearHistory();

    // One intervention of this run: the executed step it branched at, its label and the change
    // as the engine took it.
    struct Branch {
        std::int64_t ordinal = 0;
        QString label;
        Intervention change;
    };
    const QList<Branch>& branches() const { return branches_; }
    // Where a branch's mark stands on the run's clock: its step's start, or where the run has got
    // to while that step is still to come back.
    Ticks markTime(const Branch& branch) const;
    // The losses (step, loss) the run had from the last intervention on before it was made:
    // what the changed run is read against. Empty without one.
    const QList<QPointF>& replacedLoss() const { return replaced_loss_; }

    // The forget-old-steps memory policy: past `retained_events` events in the index, the steps
    // more than about `behind_events` events behind the playhead are forgotten (their snapshots
    // stay). At least two steps behind the playhead are always kept.
    static constexpr std::size_t kRetainedEvents = 600'000;
    struct MemoryPolicy {
        std::size_t retained_events = kRetainedEvents;
        std::size_t behind_events = EngineController::kAheadEvents;
    };
    const MemoryPolicy& memoryPolicy() const { return memory_; }
    void setMemoryPolicy(MemoryPolicy policy) { memory_ = policy; }

    // The finished run's crash rerun both ways for the Checkpoints view, once it is there, and
    // what to say meanwhile or instead (empty beside a comparison).
    const std::optional<RestoreComparison>& restoreComparison() const { return comparison_; }
    const QString& comparisonNote() const { return comparison_note_; }

    // A finished run's name among the others: what it is, how it was spread, and its last
    // intervention.
    QString runLabel() const;

Q_SIGNALS:
    // A run started: the index is empty and laid out for it, and branches() is empty.
    void runStarted(const lockstep::Scenario& scenario);
    // New steps are in the index; `first` for the run's first ones (not a branch's), whose first
    // snapshot is at `first_step_end`.
    void traceAppended(bool first, lockstep::Ticks first_step_end);
    // The trace from executed step `from` on has gone; the branch's steps follow.
    void branched(std::int64_t from);
    void runFinished();
    void runFailed(const QString& message);
    // The playhead moved to `t` (after the engine was told and old steps were let go).
    void playheadMoved(lockstep::Ticks t);
    // The current scenario was replaced by a person's action (not by a run starting).
    void scenarioChanged(const lockstep::Scenario& scenario);
    // The running scenario changed at the playhead or by an undo.
    void runRetuned(const lockstep::Scenario& running);
    // An intervention or an undo changed branches().
    void branchesChanged();
    // canUndo() or canRedo() changed.
    void historyChanged();
    void replacedLossChanged();
    void restoreComparisonChanged();
    // For the status bar.
    void status(const QString& text);
    // An intervention the run cannot take, and why.
    void refused(const QString& why);
    // A scenario the engine cannot start, and why.
    void cannotRun(const QString& message);

private:
    template <typename Call> void toViews(Call call) {
        for (const auto& [widget, view] : views_)
            if (widget)
                call(*view);
    }
    void retuned(); // the running scenario changed: the views, then runRetuned()
    void onRunStarted(const Scenario& scenario);
    void onTraceBatch(const QVector<TraceEvent>& events, const QVector<StepSnapshot>& snapshots);
    double meanStepSeconds() const; // the run's so far, in seconds on its clock
    void onRunFinished();
    void sayFinished(); // the held summary, once
    void onPlayhead(Ticks t);
    void onBranched(std::int64_t from);
    void forgetOldSteps(Ticks playhead);
    void compareRestores();
    void setComparison(std::optional<RestoreComparison> comparison, const QString& note);
    // What undo and redo go back to.
    struct State {
        Scenario base;    // the scenario the run started from
        Scenario running; // its settings at the playhead's end of the run
        QList<Branch> branches;
        std::int64_t playhead = 0; // the executed step the playhead stood in
        bool at_end = false;       // at the end of the finished run
    };
    State current() const;
    void remember(); // the current state onto the undo stack, before a change
    void goTo(const State& state);
    // Moves the playhead to the remembered step once the run has it (at once when it does).
    void seekPending();
    bool applyBranch(Intervention change, const QString& label, QString* refusal);

    EngineController controller_;
    std::vector<std::pair<QPointer<QWidget>, views::SessionView*>> views_;
    Playback playback_;
    views::TraceIndex index_;
    RestoreComparer comparer_;
    Scenario scenario_;
    QString scenario_path_;
    // The data openScenario() loaded to check the file, with the scenario it belongs to (as
    // scenario_to_json()): the run of that scenario takes it rather than reading it again.
    std::string checked_for_;
    std::shared_ptr<const Dataset> checked_data_;
    MemoryPolicy memory_;

    QList<Branch> branches_;
    QList<State> undo_, redo_;
    struct Seek {
        std::int64_t ordinal = 0;
        bool at_end = false;
    };
    std::optional<Seek> seek_; // where the playhead goes once the run has got there
    QList<QPointF> replaced_loss_;
    bool run_finished_ = false; // the whole run is in the index
    // The finished run's summary for the status bar, held until the playhead reaches the run's
    // end: the engine runs ahead of what the class has watched.
    QString finished_status_;
    QString recording_note_; // set while the index holds a recording
    std::vector<double> recording_parameters_;
    std::shared_ptr<const Dataset> recording_data_;
    bool first_batch_ = true; // the run's first steps are still to come

    std::optional<RestoreComparison> comparison_;
    QString comparison_note_;
    bool compare_in_place_ = false; // runToCompletion(): no thread, the comparison right away
    bool headless_ = false;
    bool inline_runs_ = false;
};

} // namespace lockstep::app
