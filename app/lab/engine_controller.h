#pragma once

#include "data/data.h"
#include "reports/metrics.h"
#include "scenario/scenario.h"
#include "trace/trace.h"
#include "trainers/branching.h"

#include <QObject>
#include <QStringList>
#include <QTemporaryDir>
#include <QTimer>
#include <QVector>

#include <algorithm>
#include <atomic>
#include <deque>
#include <limits>
#include <memory>
#include <mutex>
#include <optional>
#include <thread>
#include <vector>

namespace lockstep::app {

// Runs the engine off the GUI thread and hands its trace to the GUI in batches.
//
// Thread contract:
// - An EngineController lives on the GUI thread. Every public method, and every signal, is
//   called or emitted on the GUI thread only.
// - A data-parallel run is a BranchingRun (`run_`), owned by the controller. While the engine
//   thread runs, only that thread touches it; the GUI touches it only when no engine thread
//   runs (start(), runToCompletion() and a branch of a finished run before the thread starts
//   again). A model-parallel run's trainer lives on the engine thread alone.
// - The engine thread touches no QObject. It appends the trace to `pending_` under `mutex_`, a
//   piece per executed step tagged with the branch generation it was made in, and takes the
//   GUI's interventions and undos from `commands_` under the same mutex, between steps. When it
//   has nothing left to do it says so under the mutex (`takes_commands_`), so a command is
//   either taken by it or finds it gone and starts a new engine thread on the same run.
// - A GUI-thread timer takes `pending_` into a GUI-side backlog (a swap under the mutex, never a
//   wait for the engine), drops what a later branch replaced, and emits traceBatch() at most
//   once per frame, with whole steps of at most about kMaxEventsPerFrame events. The GUI never
//   blocks on the engine.
// - The engine thread paces itself against the playhead position (an atomic the GUI writes): it
//   sleeps between steps while it is too far ahead. It never waits inside a TBB task.
// - stop() raises an atomic flag that the engine thread checks between steps; it and the
//   destructor then join the thread, which finishes its current step first (milliseconds).
class EngineController : public QObject {
    Q_OBJECT
public:
    explicit EngineController(QObject* parent = nullptr);
    ~EngineController() override;

    // Starts a fresh run of `scenario` (stopping any current one). Emits runStarted(), then
    // traceBatch() as the engine produces, then runFinished() or runFailed(message). Throws
    // lockstep::Error at once, with nothing changed, when the scenario or its data is bad.
    // `data`, when given, is the scenario's dataset, loaded and checked by the caller.
    void start(const Scenario& scenario, std::shared_ptr<const Dataset> data = nullptr);
    void stop();
    bool running() const { return thread_.joinable() && !finished_.load(); }

    // Runs the whole scenario on the calling (GUI) thread, emitting the same signals: for
    // headless screenshots and tests that need the complete trace at once. Interventions and
    // undos on such a run also go to its end on this thread, until the next start().
    void runToCompletion(const Scenario& scenario);

    // An intervention at executed step `change.at` (see BranchingRun): the run goes back there,
    // however far the engine has got, and goes on with the change; a finished run goes on
    // again. The trace it hands over continues from `at` (the caller drops what it holds from
    // there, as the controller does; branched() only says when the engine's answer moves that
    // earlier), and the new trace arrives as usual. Returns false, with a reason in `why`, for what
    // this run cannot take (a model-parallel run, a worker that is not there, a crash during the
    // next checkpoint without checkpoints, a setting only a new run can change).
    bool intervene(Intervention change, QString* why = nullptr);
    // Why this run cannot take `change`, in the status bar's words; empty when it can.
    QString refusal(const Intervention& change) const;
    // Back to the run as it was before the last intervention: branched() from its step.
    bool undo();
    // The current run with exactly `interventions` (as BranchingRun::interventions() had them)
    // and `running` as its settings: where the session's undo and redo go. branched() from the
    // first step that differs. False, changing nothing, without a data-parallel run of the same
    // starting scenario as `base`.
    bool restore(const Scenario& base, const Scenario& running,
                 std::vector<Intervention> interventions);
    // The scenario the current run started from (scenario() is its settings now).
    const Scenario& baseScenario() const { return base_; }
    bool canUndo() const { return branches_ > 0; }
    // Stands for "the newest step the engine has reached" in Intervention::at.
    static constexpr std::int64_t kAtTheHead = std::numeric_limits<std::int64_t>::max();

    // A click on a worker, at the engine's newest step: a fault kind's id (failures/
    // intervention.h), e.g. "slow" (3x slower), "pause" (2 of the run's steps), "crash" or
    // "crash-checkpoint"; a positive `amount` replaces the kind's default. The lab window uses
    // intervene() at the playhead instead.
    bool injectFault(int worker, const QString& action, QString* why = nullptr,
                     double amount = 0.0);

    // The crashes clicks injected into the current or last run (on its current branch), as the
    // engine took them (at the step it struck): with the scenario's own, what a rerun needs to
    // meet the same crashes.
    std::vector<FailureSpec> injectedFailures() const;

    // Where this run's checkpoints are written: a fresh directory under the system's temporary
    // folder for each run whose scenario has a checkpoint policy (empty otherwise), removed when
    // the next run starts or the controller goes.
    QString checkpointDirectory() const;

    // Where the playhead is, in executed steps (TraceEvent::ordinal; steps for a model-parallel
    // run). The engine runs ahead of it by a bounded amount of trace
    // (about kAheadEvents events) and waits on its own thread when it gets too far ahead, so a
    // long run neither floods the GUI nor outruns what the views keep in memory.
    void setPlayheadStep(std::int64_t step) { playhead_step_ = step; }
    static constexpr std::int64_t kAheadEvents = 200'000;
    static constexpr qsizetype kMaxEventsPerFrame = 20'000;
    // The first batch of a run, and any while the views already hold kLeadSteps steps beyond the
    // playhead, take only about kEventsPerFrameAhead events (whole steps, at least one): the
    // burst a run makes when it starts far ahead of the playhead is spread over many cheap
    // frames.
    static constexpr std::int64_t kLeadSteps = 16;
    static constexpr qsizetype kEventsPerFrameAhead = 6'000;
    // How often the GUI looks for the engine's trace: every frame, and every couple of
    // milliseconds while it waits for the answer to an intervention.
    static constexpr int kFrameInterval = 16;
    static constexpr int kAnswerInterval = 2;

    const Scenario& scenario() const { return scenario_; }
    // Once runFinished() has been emitted: the run's metrics, as `lockstep-cli run` reports them.
    RunMetrics metrics() const;
    // The run's dataset (loaded on the GUI thread by start(), so a bad file fails at once) and,
    // once runFinished() has been emitted, worker 0's final parameters.
    std::shared_ptr<const Dataset> dataset() const { return dataset_; }
    std::vector<double> finalParameters() const;

Q_SIGNALS:
    void runStarted(const lockstep::Scenario& scenario);
    void traceBatch(const QVector<lockstep::TraceEvent>& events,
                    const QVector<lockstep::StepSnapshot>& snapshots);
    void runFinished();
    void runFailed(const QString& message);
    // The trace from executed step `from` on is being replaced by a branch (or an undo): views
    // drop it; the new steps follow in traceBatch().
    void branched(std::int64_t from);
    // Something the engine refused or reported during the run, for the status bar.
    void notice(const QString& message);

public:
    // An intervention or an undo waiting for the engine thread to take it between steps.
    struct Command {
        std::optional<Intervention> change; // none: undo, or restore when `restore` is set
        std::uint64_t generation = 0;       // the branch it makes
        std::optional<std::vector<Intervention>> restore;
    };

private:
    class Sink;
    template <typename T> struct Piece {
        std::uint64_t generation = 0;
        T value;
    };

    // Where an event or snapshot stands in the run's order: its executed step (a model-parallel
    // run, which never goes back, counts by step).
    static std::int64_t position(const TraceEvent& e) {
        return std::max<std::int64_t>(e.ordinal, e.step);
    }
    static std::int64_t position(const StepSnapshot& s) {
        return std::max<std::int64_t>(s.ordinal, s.step);
    }

    void drain();
    void prepareCheckpoints();
    void launch();
    void queue(Command command);
    void dropFrom(std::int64_t from);
    void cut(std::int64_t from);
    bool replaced(std::uint64_t generation, std::int64_t position) const;
    void engineMain();
    // Applies `command` to the run, on the thread that runs it: the executed step its trace
    // changes from. A change the run refuses is traced again from its step, with a notice.
    std::int64_t take(Command& command);
    void finishRun(std::vector<double> parameters, RunMetrics metrics, const QString& error);
    void runInline(std::optional<Command> command);

    Scenario scenario_;
    Scenario base_; // as the run started
    std::shared_ptr<const Dataset> dataset_;
    std::unique_ptr<QTemporaryDir> checkpoints_;
    std::unique_ptr<BranchingRun> run_; // data-parallel runs (see the thread contract)
    bool inline_ = false; // runToCompletion(): branches run to the end on the GUI thread too
    int branches_ = 0;    // interventions that undo() can still take back
    std::vector<Scenario> scenarios_before_; // scenario_ before each of them
    std::vector<double> final_parameters_;   // guarded by mutex_
    RunMetrics metrics_;                     // guarded by mutex_
    std::thread thread_;
    std::atomic<bool> stop_{false};
    std::atomic<bool> finished_{false};
    std::atomic<std::int64_t> playhead_step_{0};
    std::int64_t ahead_ = 1000; // engine thread: steps it may run ahead of the playhead
    mutable std::mutex mutex_;  // guards everything below
    std::vector<Piece<QVector<TraceEvent>>> pending_events_; // as the engine handed them
    std::vector<Piece<StepSnapshot>> pending_snapshots_;
    std::deque<Command> commands_;
    bool takes_commands_ = false;         // the engine thread will still look at commands_
    std::uint64_t engine_generation_ = 0; // the branch the engine thread is on
    // Per branch the engine made (generation), the first executed step it replaced.
    std::vector<std::pair<std::uint64_t, std::int64_t>> engine_cuts_;
    std::vector<FailureSpec> injected_;
    QStringList notices_;
    QString error_;
    bool done_ = false;
    QTimer frame_;
    // GUI thread only: the branches made, each with the first executed step it replaced
    // (cuts_[g] for generation g; cuts_[0] is unused), and the trace taken from the engine but
    // not yet handed to the views, kept in the engine's pieces so that handing some over never
    // moves the rest.
    std::uint64_t generation_ = 0;
    std::vector<std::int64_t> cuts_{kAtTheHead};
    std::deque<QVector<TraceEvent>> backlog_events_;
    std::deque<StepSnapshot> backlog_snapshots_;
    std::int64_t handed_step_ = -1; // the position of the last event handed to the views
};

} // namespace lockstep::app
