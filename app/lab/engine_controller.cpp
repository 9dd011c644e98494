// The controller's run: started on the engine thread, the thread's loop and its last word, or run
// to its end on the GUI thread (headless). The GUI thread's half (changes down, the trace up) is
// in engine_controller_gui.cpp.

#include "engine_controller.h"

#include "background.h"
#include "core/atomic_file.h"
#include "core/error.h"
#include "runs/runs.h"

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

} // namespace

// The engine thread's trace sink: appends to the controller's pending buffers, each piece
// tagged with the branch the engine is on.
class EngineController::Sink final : public TraceSink {
public:
    explicit Sink(EngineController& owner)
        : owner_(owner) {}

    void on_events(std::span<const TraceEvent> events) override {
        produced += events.size();
        std::lock_guard lock(owner_.mutex_);
        owner_.pending_events_.push_back(
            {owner_.engine_generation_, QVector<TraceEvent>(events.begin(), events.end())});
    }

    void on_snapshot(const StepSnapshot& snapshot) override {
        std::lock_guard lock(owner_.mutex_);
        owner_.pending_snapshots_.push_back({owner_.engine_generation_, snapshot});
    }

    std::size_t produced = 0; // events so far; read and written by the engine thread only

private:
    EngineController& owner_;
};

EngineController::EngineController(QObject* parent)
    : QObject(parent) {
    frame_.setInterval(kFrameInterval);
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
    engine_cuts_.clear();
    takes_commands_ = false;
}

std::vector<double> EngineController::finalParameters() const {
    std::lock_guard lock(mutex_);
    return final_parameters_;
}

RunMetrics EngineController::metrics() const {
    std::lock_guard lock(mutex_);
    return metrics_;
}

void EngineController::start(const Scenario& scenario, std::shared_ptr<const Dataset> data) {
    if (!data) {
        validate(scenario); // before its data is read
        data = load_dataset(scenario);
    }
    // Constructing a trainer checks that the data fits the model before anything changes.
    auto run = std::make_unique<BranchingRun>(scenario, data);
    stop();
    scenario_ = scenario;
    base_ = scenario;
    dataset_ = data;
    inline_ = false;
    run_.reset();
    prepareCheckpoints();
    run_ = std::move(run);
    if (run_ && checkpoints_)
        run_->set_checkpoint_directory(
            checkpointDirectory().toStdString(),
            checkpoints_->filePath(QStringLiteral("branches")).toStdString());
    branches_ = 0;
    scenarios_before_.clear();
    generation_ = 0;
    cuts_.assign(1, kAtTheHead);
    playhead_step_ = 0;
    ahead_ = 1000;
    {
        std::lock_guard lock(mutex_);
        metrics_ = RunMetrics{};
        injected_.clear();
        engine_generation_ = 0;
    }
    Q_EMIT runStarted(scenario_);
    frame_.setInterval(kFrameInterval);
    launch();
}

// Starts the engine thread on the current run: a fresh one, or a finished one that a branch
// sends on again.
void EngineController::launch() {
    stop_ = false;
    finished_ = false;
    {
        std::lock_guard lock(mutex_);
        error_.clear();
        done_ = false;
        takes_commands_ = true;
    }
    thread_ = std::thread([this] { run_beside_the_gui([&] { engineMain(); }); });
    frame_.start();
}

void EngineController::prepareCheckpoints() {
    if (checkpoints_)
        keep_on_signal(checkpoints_->path().toStdString());
    checkpoints_.reset();
    // Without synchronisation the replicas differ: there is no single model to save. The
    // model-parallel trainers save no checkpoints.
    if (!scenario_.checkpoint ||
        (scenario_.algorithm == Algorithm::None && scenario_.workers > 1) ||
        scenario_.model_parallel())
        return;
    {
        // Made and put on the list together: a stopped lab removes it, never makes it after.
        const MakingFiles making;
        checkpoints_ = std::make_unique<QTemporaryDir>(QDir::tempPath() +
                                                       QStringLiteral("/lockstep-run-XXXXXX"));
        if (checkpoints_->isValid())
            remove_on_signal(checkpoints_->path().toStdString());
    }
    if (!checkpoints_->isValid() ||
        !QDir(checkpoints_->path()).mkdir(QStringLiteral("checkpoints")))
        throw Error(tr("checkpoint: cannot create a directory for this run's checkpoints in %1")
                        .arg(QDir::tempPath())
                        .toStdString());
}

std::vector<FailureSpec> EngineController::injectedFailures() const {
    std::lock_guard lock(mutex_);
    return injected_;
}

QString EngineController::checkpointDirectory() const {
    return checkpoints_ ? checkpoints_->filePath(QStringLiteral("checkpoints")) : QString();
}

// The engine thread's loop over the run, whatever its parallelism: the interventions and undos the
// GUI sent, then the next step, paced against the playhead, until the run is done and nothing is
// asked.
void EngineController::engineMain() {
    Sink sink(*this);
    run_->set_sink(&sink);
    run_->set_stop_flag(&stop_);
    std::vector<double> parameters;
    RunMetrics metrics;
    QString error;
    try {
        for (;;) {
            std::deque<Command> commands;
            {
                std::lock_guard lock(mutex_);
                commands.swap(commands_);
                // A run whose training diverged goes no further: its numbers are no longer numbers.
                if (commands.empty() && (stop_ || run_->finished() || run_->run().divergence())) {
                    takes_commands_ = false;
                    break;
                }
            }
            for (Command& c : commands) {
                std::int64_t from = kAtTheHead;
                const std::int64_t at = c.change ? c.change->at : kAtTheHead;
                try {
                    from = c.change    ? run_->branch(std::move(*c.change))
                           : c.restore ? run_->restore(std::move(*c.restore))
                                       : run_->undo().value_or(kAtTheHead);
                } catch (const Error& e) {
                    // The GUI has let go of the trace from `at` and counts a branch: the same
                    // run, traced again from there, keeps both whole.
                    from = run_->retrace(at);
                    std::lock_guard lock(mutex_);
                    notices_.append(QString::fromStdString(e.what()));
                }
                std::lock_guard lock(mutex_);
                engine_generation_ = c.generation;
                engine_cuts_.emplace_back(c.generation, from);
            }
            if (commands.empty()) {
                if (run_->ordinal() > playhead_step_.load() + ahead_) {
                    std::this_thread::sleep_for(std::chrono::milliseconds(5));
                    continue;
                }
                run_->step();
                if (run_->ordinal() == 1)
                    ahead_ = steps_ahead(sink.produced);
            }
            std::lock_guard lock(mutex_);
            injected_ = run_->injected_failures();
            for (const std::string& n : run_->take_notices())
                notices_.append(QString::fromStdString(n));
        }
        parameters = run_->run().parameters();
        metrics = run_->run().metrics();
        if (const auto diverged = run_->run().divergence())
            error = QString::fromStdString(divergence_message(run_->run().scenario(), *diverged));
    } catch (const std::exception& e) {
        error = QString::fromStdString(e.what());
    }
    run_->set_sink(nullptr);
    finishRun(std::move(parameters), std::move(metrics), error);
}

// The engine thread's last word on a run: what it ended with, or why it stopped.
void EngineController::finishRun(std::vector<double> parameters, RunMetrics metrics,
                                 const QString& error) {
    std::lock_guard lock(mutex_);
    takes_commands_ = false;
    if (!error.isEmpty())
        error_ = error;
    final_parameters_ = std::move(parameters);
    metrics_ = std::move(metrics);
    done_ = true;
    finished_ = true;
}

void EngineController::runToCompletion(const Scenario& scenario) {
    stop();
    scenario_ = scenario;
    base_ = scenario;
    branches_ = 0;
    scenarios_before_.clear();
    generation_ = 0;
    cuts_.assign(1, kAtTheHead);
    {
        std::lock_guard lock(mutex_);
        injected_.clear();
    }
    run_.reset();
    Q_EMIT runStarted(scenario_);
    try {
        prepareCheckpoints();
        dataset_ = load_dataset(scenario);
        run_ = std::make_unique<BranchingRun>(scenario, dataset_);
        if (checkpoints_)
            run_->set_checkpoint_directory(
                checkpointDirectory().toStdString(),
                checkpoints_->filePath(QStringLiteral("branches")).toStdString());
    } catch (const std::exception& e) {
        run_.reset();
        Q_EMIT runFailed(QString::fromStdString(e.what()));
        return;
    }
    inline_ = true;
    runInline(std::nullopt);
}

// The run, after a branch or an undo when one is given, to its end on this thread, its trace
// handed over at once.
void EngineController::runInline(std::optional<Command> command) {
    Trace trace;
    run_->set_sink(&trace);
    try {
        if (command) {
            std::int64_t from = kAtTheHead;
            const std::int64_t at = command->change ? command->change->at : kAtTheHead;
            try {
                from = command->change    ? run_->branch(std::move(*command->change))
                       : command->restore ? run_->restore(std::move(*command->restore))
                                          : run_->undo().value_or(kAtTheHead);
            } catch (const Error& e) {
                from = run_->retrace(at); // as on the engine thread
                std::lock_guard lock(mutex_);
                notices_.append(QString::fromStdString(e.what()));
            }
            if (from < cuts_.back()) {
                cuts_.back() = from;
                cut(from);
            }
        }
        while (!run_->finished() && !run_->run().divergence())
            run_->step();
        if (const auto diverged = run_->run().divergence())
            throw Error(divergence_message(run_->run().scenario(), *diverged));
        std::lock_guard lock(mutex_);
        final_parameters_ = run_->run().parameters();
        metrics_ = run_->run().metrics();
        injected_ = run_->injected_failures();
        for (const std::string& n : run_->take_notices())
            notices_.append(QString::fromStdString(n));
    } catch (const std::exception& e) {
        run_->set_sink(nullptr);
        Q_EMIT runFailed(QString::fromStdString(e.what()));
        return;
    }
    run_->set_sink(nullptr);
    QStringList notices;
    {
        std::lock_guard lock(mutex_);
        notices.swap(notices_);
    }
    for (const QString& n : notices)
        Q_EMIT notice(n);
    Q_EMIT traceBatch(QVector<TraceEvent>(trace.events().begin(), trace.events().end()),
                      QVector<StepSnapshot>(trace.snapshots().begin(), trace.snapshots().end()));
    Q_EMIT runFinished();
}

} // namespace lockstep::app
