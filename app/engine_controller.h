#pragma once

#include "lockstep/data.h"
#include "lockstep/metrics.h"
#include "lockstep/scenario.h"
#include "lockstep/trace.h"

#include <QObject>
#include <QStringList>
#include <QTemporaryDir>
#include <QTimer>
#include <QVector>

#include <atomic>
#include <deque>
#include <memory>
#include <mutex>
#include <thread>
#include <vector>

namespace lockstep::app {

// Runs the engine off the GUI thread and hands its trace to the GUI in batches.
//
// Thread contract:
// - An EngineController lives on the GUI thread. Every public method, and every signal, is
//   called or emitted on the GUI thread only.
// - start() launches one engine thread that owns a DataParallelTrainer (or, for a scenario with
//   pipeline, tensor or hybrid parallelism, the engine's model-parallel trainer) and steps it
//   until the scenario ends or stop() is called. That thread touches no QObject: it appends the
//   trace to `pending_` under `mutex_`, and reads the injected delays from `commands_` under the
//   same mutex, between steps.
// - A GUI-thread timer takes `pending_` into a GUI-side backlog (a swap under the mutex, never a
//   wait for the engine) and emits traceBatch() at most once per frame, with whole steps of at
//   most about kMaxEventsPerFrame events. The GUI never blocks on the engine.
// - The engine thread paces itself against the playhead step (an atomic the GUI writes): it
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
    void start(const Scenario& scenario);
    void stop();
    bool running() const { return thread_.joinable() && !finished_.load(); }

    // Runs the whole scenario on the calling (GUI) thread, emitting the same signals: for
    // headless screenshots and tests that need the complete trace at once.
    void runToCompletion(const Scenario& scenario);

    // A user's click on a worker: "slow" (3x slower from the next step), "pause" (5 s at the next
    // step), "crash" (dies in the next step's computation) or "crash-checkpoint" (dies while
    // writing the next checkpoint). The fault goes to the engine, which detects and recovers
    // from it by the scenario's policy; all of it shows up in the trace. A positive `amount`
    // replaces the default factor (slow) or seconds (pause), as a lesson's link asks. Returns
    // false, with a reason in `why`, for an action this run cannot take.
    bool injectFault(int worker, const QString& action, QString* why = nullptr,
                     double amount = 0.0);

    // The faults clicks injected into the current or last run, as the engine took them (a crash
    // at the step it struck), kept until the next run starts: with the scenario's own, what a
    // rerun needs to meet the same crashes.
    std::vector<FailureSpec> injectedFailures() const;

    // Where this run's checkpoints are written: a fresh directory under the system's temporary
    // folder for each run whose scenario has a checkpoint policy (empty otherwise), removed when
    // the next run starts or the controller goes.
    QString checkpointDirectory() const;

    // Where the playhead is, in steps. The engine runs ahead of it by a bounded amount of trace
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

    const Scenario& scenario() const { return scenario_; }
    // True when the scenario trains with pipeline, tensor or hybrid parallelism.
    static bool isModelParallel(const Scenario& scenario);
    // How many lanes (workers) the run's trace has: the workers of a data-parallel run, the
    // stages (times replicas) of a model-parallel one.
    static int lanes(const Scenario& scenario);
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
    // Something the engine refused or reported during the run, for the status bar.
    void notice(const QString& message);

public:
    // One click waiting for the engine thread to take it between steps.
    struct Command {
        int worker = 0;
        QString action;
        double amount = 0.0; // 0: the default factor or seconds
    };

private:
    class Sink;

    void drain();
    void prepareCheckpoints();
    void engineMain(Scenario scenario, std::shared_ptr<const Dataset> data,
                    std::string checkpoint_dir);
    void engineMainModelParallel(Scenario scenario, std::shared_ptr<const Dataset> data);
    void finishRun(std::vector<double> parameters, RunMetrics metrics, const QString& error);

    Scenario scenario_;
    std::shared_ptr<const Dataset> dataset_;
    std::unique_ptr<QTemporaryDir> checkpoints_;
    std::vector<double> final_parameters_; // guarded by mutex_
    RunMetrics metrics_;                   // guarded by mutex_
    std::thread thread_;
    std::atomic<bool> stop_{false};
    std::atomic<bool> finished_{false};
    std::atomic<std::int64_t> playhead_step_{0};
    mutable std::mutex mutex_;                        // guards everything below
    std::vector<QVector<TraceEvent>> pending_events_; // as the engine handed them, a step each
    QVector<StepSnapshot> pending_snapshots_;
    std::deque<Command> commands_;
    std::vector<FailureSpec> injected_;
    QStringList notices_;
    QString error_;
    bool done_ = false;
    QTimer frame_;
    // GUI thread only: trace taken from the engine but not yet handed to the views, kept in the
    // engine's pieces so that handing some over never moves the rest.
    std::deque<QVector<TraceEvent>> backlog_events_;
    std::deque<StepSnapshot> backlog_snapshots_;
    std::int64_t handed_step_ = -1; // the step of the last event handed to the views
};

} // namespace lockstep::app
