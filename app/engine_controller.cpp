#include "engine_controller.h"

#include "lockstep/error.h"
#include "lockstep/pipeline.h"
#include "lockstep/tensor.h"
#include "lockstep/trainer.h"
#include "lockstep_views/background.h"

#include <QTemporaryDir>

#include <algorithm>
#include <chrono>

namespace lockstep::app {

namespace {

// How many steps the engine may run ahead of the playhead, from how much trace its first step
// made: about kAheadEvents events, between 2 and 1000 steps.
std::int64_t steps_ahead(std::size_t first_step_events) {
    return std::clamp<std::int64_t>(
        EngineController::kAheadEvents /
            std::max<std::int64_t>(1, static_cast<std::int64_t>(first_step_events)),
        2, 1000);
}

// A click on a worker, as the engine's fault: in the coming step, or its coming checkpoint.
FailureSpec fault_for(const EngineController::Command& c, std::int64_t step) {
    FailureSpec f;
    f.kind = FailureKind::Crash;
    f.worker = c.worker;
    f.step = step;
    if (c.action == QLatin1String("crash-checkpoint")) {
        f.phase = CrashPhase::CheckpointBeforeFsync;
        f.step = step + 1;
    }
    return f;
}

// The engine's model-parallel trainer for a pipeline, hybrid or tensor scenario, behind the few
// calls the controller makes.
class ModelParallelRun {
public:
    ModelParallelRun(const Scenario& scenario, std::shared_ptr<const Dataset> data,
                     TraceSink* sink) {
        if (scenario.parallelism->mode == Parallelism::Tensor)
            tensor_ = std::make_unique<TensorTrainer>(scenario, std::move(data), sink);
        else
            pipeline_ = std::make_unique<PipelineTrainer>(scenario, std::move(data), sink);
    }

    void step() {
        if (tensor_)
            tensor_->step();
        else
            pipeline_->step();
        ++steps_;
    }
    bool finished() const { return tensor_ ? tensor_->finished() : pipeline_->finished(); }
    std::int64_t steps_done() const { return steps_; }
    std::vector<double> parameters() const {
        return tensor_ ? tensor_->parameters() : pipeline_->parameters();
    }
    RunMetrics metrics() const { return tensor_ ? tensor_->metrics() : pipeline_->metrics(); }

private:
    std::unique_ptr<PipelineTrainer> pipeline_;
    std::unique_ptr<TensorTrainer> tensor_;
    std::int64_t steps_ = 0;
};

} // namespace

// The engine thread's trace sink: appends to the controller's pending buffers.
class EngineController::Sink final : public TraceSink {
public:
    explicit Sink(EngineController& owner)
        : owner_(owner) {}

    void on_events(std::span<const TraceEvent> events) override {
        produced += events.size();
        std::lock_guard lock(owner_.mutex_);
        owner_.pending_events_.emplace_back(events.begin(), events.end());
    }

    void on_snapshot(const StepSnapshot& snapshot) override {
        std::lock_guard lock(owner_.mutex_);
        owner_.pending_snapshots_.append(snapshot);
    }

    std::size_t produced = 0; // events so far; read and written by the engine thread only

private:
    EngineController& owner_;
};

EngineController::EngineController(QObject* parent)
    : QObject(parent) {
    frame_.setInterval(16);
    connect(&frame_, &QTimer::timeout, this, &EngineController::drain);
}

EngineController::~EngineController() {
    stop();
}

void EngineController::stop() {
    stop_ = true;
    if (thread_.joinable())
        thread_.join();
    frame_.stop();
    backlog_events_.clear();
    backlog_snapshots_.clear();
    handed_step_ = -1;
    std::lock_guard lock(mutex_);
    pending_events_.clear();
    pending_snapshots_.clear();
    commands_.clear();
}

std::vector<double> EngineController::finalParameters() const {
    std::lock_guard lock(mutex_);
    return final_parameters_;
}

RunMetrics EngineController::metrics() const {
    std::lock_guard lock(mutex_);
    return metrics_;
}

bool EngineController::isModelParallel(const Scenario& scenario) {
    return scenario.parallelism && scenario.parallelism->mode != Parallelism::Data;
}

int EngineController::lanes(const Scenario& scenario) {
    return isModelParallel(scenario) ? scenario.parallelism->lanes() : scenario.workers;
}

void EngineController::start(const Scenario& scenario) {
    validate(scenario);
    auto data = load_dataset(scenario);
    // Constructing a trainer checks that the data fits the model before anything changes.
    if (isModelParallel(scenario)) {
        ModelParallelRun check(scenario, data, nullptr);
    } else {
        DataParallelTrainer check(scenario, data);
    }
    stop();
    scenario_ = scenario;
    dataset_ = data;
    prepareCheckpoints();
    stop_ = false;
    playhead_step_ = 0;
    finished_ = false;
    {
        std::lock_guard lock(mutex_);
        error_.clear();
        done_ = false;
        metrics_ = RunMetrics{};
        injected_.clear();
    }
    Q_EMIT runStarted(scenario_);
    thread_ = std::thread([this, scenario, data, dir = checkpointDirectory().toStdString()] {
        views::run_beside_the_gui([&] { engineMain(scenario, data, dir); });
    });
    frame_.start();
}

void EngineController::prepareCheckpoints() {
    checkpoints_.reset();
    // Without synchronisation the replicas differ: there is no single model to save. The
    // model-parallel trainers save no checkpoints.
    if (!scenario_.checkpoint ||
        (scenario_.algorithm == Algorithm::None && scenario_.workers > 1) ||
        isModelParallel(scenario_))
        return;
    checkpoints_ =
        std::make_unique<QTemporaryDir>(QDir::tempPath() + QStringLiteral("/lockstep-run-XXXXXX"));
    if (!checkpoints_->isValid())
        throw Error("checkpoint: cannot create a directory for this run's checkpoints in " +
                    QDir::tempPath().toStdString());
}

std::vector<FailureSpec> EngineController::injectedFailures() const {
    std::lock_guard lock(mutex_);
    return injected_;
}

QString EngineController::checkpointDirectory() const {
    return checkpoints_ ? checkpoints_->path() : QString();
}

void EngineController::engineMain(Scenario scenario, std::shared_ptr<const Dataset> data,
                                  std::string checkpoint_dir) {
    if (isModelParallel(scenario)) {
        engineMainModelParallel(std::move(scenario), std::move(data));
        return;
    }
    Sink sink(*this);
    std::vector<double> parameters;
    RunMetrics metrics;
    QString error;
    try {
        DataParallelTrainer trainer(scenario, std::move(data), &sink);
        trainer.set_stop_flag(&stop_);
        if (!checkpoint_dir.empty())
            trainer.set_checkpoint_directory(checkpoint_dir);
        std::int64_t ahead = 1000;
        while (!trainer.finished() && !stop_) {
            while (!stop_ && trainer.steps_done() > playhead_step_.load() + ahead)
                std::this_thread::sleep_for(std::chrono::milliseconds(5));
            std::deque<Command> commands;
            {
                std::lock_guard lock(mutex_);
                commands.swap(commands_);
            }
            for (const auto& c : commands) {
                try {
                    if (c.action == QLatin1String("slow"))
                        trainer.set_slowdown(c.worker, c.amount > 0 ? c.amount : 3.0);
                    else if (c.action == QLatin1String("pause"))
                        trainer.add_pause(c.worker, trainer.steps_done(),
                                          c.amount > 0 ? c.amount : 5.0);
                    else {
                        const FailureSpec fault = fault_for(c, trainer.steps_done());
                        trainer.inject_failure(fault);
                        std::lock_guard lock(mutex_);
                        injected_.push_back(fault);
                    }
                } catch (const Error& e) {
                    std::lock_guard lock(mutex_);
                    notices_.append(QString::fromStdString(e.what()));
                }
            }
            trainer.step();
            if (trainer.steps_done() == 1)
                ahead = steps_ahead(sink.produced);
        }
        parameters = trainer.workers().front().parameters;
        metrics = trainer.metrics();
    } catch (const std::exception& e) {
        error = QString::fromStdString(e.what());
    }
    finishRun(std::move(parameters), std::move(metrics), error);
}

// The engine thread's last word on a run: what it ended with, or why it stopped.
void EngineController::finishRun(std::vector<double> parameters, RunMetrics metrics,
                                 const QString& error) {
    std::lock_guard lock(mutex_);
    if (!error.isEmpty())
        error_ = error;
    final_parameters_ = std::move(parameters);
    metrics_ = std::move(metrics);
    done_ = true;
    finished_ = true;
}

// The same pacing as a data-parallel run, without faults: the model-parallel trainers take none
// (injectFault() refuses them).
void EngineController::engineMainModelParallel(Scenario scenario,
                                               std::shared_ptr<const Dataset> data) {
    Sink sink(*this);
    std::vector<double> parameters;
    RunMetrics metrics;
    QString error;
    try {
        ModelParallelRun run(scenario, std::move(data), &sink);
        std::int64_t ahead = 1000;
        while (!run.finished() && !stop_) {
            while (!stop_ && run.steps_done() > playhead_step_.load() + ahead)
                std::this_thread::sleep_for(std::chrono::milliseconds(5));
            run.step();
            if (run.steps_done() == 1)
                ahead = steps_ahead(sink.produced);
        }
        parameters = run.parameters();
        metrics = run.metrics();
    } catch (const std::exception& e) {
        error = QString::fromStdString(e.what());
    }
    finishRun(std::move(parameters), std::move(metrics), error);
}

void EngineController::drain() {
    QStringList notices;
    QString error;
    bool done = false;
    std::vector<QVector<TraceEvent>> events_in;
    QVector<StepSnapshot> snapshots_in;
    {
        std::lock_guard lock(mutex_);
        events_in.swap(pending_events_);
        snapshots_in.swap(pending_snapshots_);
        error = error_;
        done = done_;
        notices.swap(notices_);
    }
    for (auto& piece : events_in)
        backlog_events_.push_back(std::move(piece));
    for (auto& snapshot : snapshots_in)
        backlog_snapshots_.push_back(std::move(snapshot));
    for (const QString& n : notices)
        Q_EMIT notice(n);
    // Hand over whole steps, about kMaxEventsPerFrame events a frame, so one frame never has to
    // take in the burst the engine makes when it starts ahead of the playhead; fewer while the
    // views are well ahead of the playhead, and in the first batch, which shares its frame with
    // the window's first paint.
    const qsizetype budget = handed_step_ < 0 || handed_step_ - playhead_step_.load() >= kLeadSteps
                                 ? kEventsPerFrameAhead
                                 : kMaxEventsPerFrame;
    qsizetype n = 0;
    std::size_t pieces = 0;
    std::int64_t taken_step = -1;
    for (; pieces < backlog_events_.size(); ++pieces) {
        const QVector<TraceEvent>& piece = backlog_events_[pieces];
        if (n >= budget && (piece.isEmpty() || piece.front().step != taken_step))
            break;
        n += piece.size();
        if (!piece.isEmpty())
            taken_step = piece.back().step;
    }
    QVector<TraceEvent> events;
    events.reserve(n);
    for (; pieces > 0; --pieces) {
        events.append(backlog_events_.front());
        backlog_events_.pop_front();
    }
    const std::int64_t last_step = events.isEmpty() ? -1 : events.back().step;
    if (!events.isEmpty())
        handed_step_ = last_step;
    QVector<StepSnapshot> snapshots;
    while (!backlog_snapshots_.empty() &&
           (backlog_snapshots_.front().step <= last_step || backlog_events_.empty())) {
        snapshots.append(std::move(backlog_snapshots_.front()));
        backlog_snapshots_.pop_front();
    }
    if (!events.isEmpty() || !snapshots.isEmpty())
        Q_EMIT traceBatch(events, snapshots);
    if (done && backlog_events_.empty() && backlog_snapshots_.empty()) {
        frame_.stop();
        if (thread_.joinable())
            thread_.join();
        {
            std::lock_guard lock(mutex_);
            done_ = false;
        }
        if (error.isEmpty())
            Q_EMIT runFinished();
        else
            Q_EMIT runFailed(error);
    }
}

void EngineController::runToCompletion(const Scenario& scenario) {
    stop();
    scenario_ = scenario;
    {
        std::lock_guard lock(mutex_);
        injected_.clear();
    }
    Q_EMIT runStarted(scenario_);
    Trace trace;
    try {
        prepareCheckpoints();
        dataset_ = load_dataset(scenario);
        if (isModelParallel(scenario)) {
            ModelParallelRun run(scenario, dataset_, &trace);
            while (!run.finished())
                run.step();
            std::lock_guard lock(mutex_);
            final_parameters_ = run.parameters();
            metrics_ = run.metrics();
        } else {
            DataParallelTrainer trainer(scenario, dataset_, &trace);
            if (checkpoints_)
                trainer.set_checkpoint_directory(checkpoints_->path().toStdString());
            trainer.run();
            std::lock_guard lock(mutex_);
            final_parameters_ = trainer.workers().front().parameters;
            metrics_ = trainer.metrics();
        }
    } catch (const std::exception& e) {
        Q_EMIT runFailed(QString::fromStdString(e.what()));
        return;
    }
    Q_EMIT traceBatch(QVector<TraceEvent>(trace.events().begin(), trace.events().end()),
                      QVector<StepSnapshot>(trace.snapshots().begin(), trace.snapshots().end()));
    Q_EMIT runFinished();
}

bool EngineController::injectFault(int worker, const QString& action, QString* why, double amount) {
    auto fail = [&](const QString& reason) {
        if (why)
            *why = reason;
        return false;
    };
    if (isModelParallel(scenario_))
        return fail(tr("Model-parallel runs take no injected faults: every stage holds a part of "
                       "the one model. Use data parallelism to study failures."));
    if (worker < 0 || worker >= scenario_.workers)
        return fail(tr("There is no worker %1.").arg(worker));
    static const QStringList known{QStringLiteral("slow"), QStringLiteral("pause"),
                                   QStringLiteral("crash"), QStringLiteral("crash-checkpoint")};
    if (!known.contains(action))
        return fail(tr("The engine knows no action “%1”.").arg(action));
    if (action == QLatin1String("crash-checkpoint")) {
        if (!scenario_.checkpoint)
            return fail(tr("This scenario saves no checkpoints, so there is no next checkpoint "
                           "to crash in. Give it a checkpoint policy first."));
        if (scenario_.failures.policy == RecoveryPolicy::Backup)
            return fail(tr("With backup workers a crash is a gradient that never arrives; crash "
                           "the worker in a step instead."));
    }
    if (action == QLatin1String("crash") && scenario_.failures.policy != RecoveryPolicy::Restart &&
        scenario_.workers < 2)
        return fail(tr("With one worker there is nobody left to go on."));
    if (!running())
        return fail(
            tr("The run has finished; press Run to start a new one, then inject the fault."));
    std::lock_guard lock(mutex_);
    commands_.push_back({worker, action, amount});
    return true;
}

} // namespace lockstep::app
