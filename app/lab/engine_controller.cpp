#include "engine_controller.h"

#include "background.h"
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

// The engine's model-parallel trainer for a pipeline, hybrid or tensor scenario, behind the few
// calls the controller makes.

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

namespace {

// Where an event or snapshot stands in the run's order: its executed step (a model-parallel
// run, which never goes back, counts by step).
std::int64_t position(std::int64_t ordinal, std::int64_t step) {
    return std::max(ordinal, step);
}
std::int64_t position(const TraceEvent& e) {
    return position(e.ordinal, e.step);
}
std::int64_t position(const StepSnapshot& s) {
    return position(s.ordinal, s.step);
}

} // namespace

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

void EngineController::start(const Scenario& scenario) {
    validate(scenario);
    auto data = load_dataset(scenario);
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
    checkpoints_.reset();
    // Without synchronisation the replicas differ: there is no single model to save. The
    // model-parallel trainers save no checkpoints.
    if (!scenario_.checkpoint ||
        (scenario_.algorithm == Algorithm::None && scenario_.workers > 1) ||
        scenario_.model_parallel())
        return;
    checkpoints_ =
        std::make_unique<QTemporaryDir>(QDir::tempPath() + QStringLiteral("/lockstep-run-XXXXXX"));
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
                if (commands.empty() && (stop_ || run_->finished())) {
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

// Whether a branch made after `generation` replaced the piece at `position`.
bool EngineController::replaced(std::uint64_t generation, std::int64_t at) const {
    for (std::uint64_t g = generation + 1; g < cuts_.size(); ++g)
        if (at >= cuts_[g])
            return true;
    return false;
}

void EngineController::drain() {
    QStringList notices;
    QString error;
    bool done = false;
    std::vector<std::pair<std::uint64_t, std::int64_t>> engine_cuts;
    std::vector<Piece<QVector<TraceEvent>>> events_in;
    std::vector<Piece<StepSnapshot>> snapshots_in;
    {
        std::lock_guard lock(mutex_);
        events_in.swap(pending_events_);
        snapshots_in.swap(pending_snapshots_);
        error = error_;
        done = done_;
        notices.swap(notices_);
        engine_cuts.swap(engine_cuts_);
    }
    // Where the engine's branches really changed the trace, when that is earlier than the GUI
    // knew: the step an undo goes back to, the head a click "now" met, the measured clock's
    // replay (traced anew).
    for (const auto& [generation, from] : engine_cuts)
        if (generation < cuts_.size() && from < cuts_[generation]) {
            cuts_[generation] = from;
            cut(from);
        }
    for (auto& piece : events_in) {
        if (piece.value.isEmpty() || replaced(piece.generation, position(piece.value.front())))
            continue;
        if (piece.generation == generation_)
            frame_.setInterval(kFrameInterval); // the answer is here
        backlog_events_.push_back(std::move(piece.value));
    }
    for (auto& snapshot : snapshots_in)
        if (!replaced(snapshot.generation, position(snapshot.value)))
            backlog_snapshots_.push_back(std::move(snapshot.value));
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
    std::int64_t taken = -1;
    for (; pieces < backlog_events_.size(); ++pieces) {
        const QVector<TraceEvent>& piece = backlog_events_[pieces];
        if (n >= budget && position(piece.front()) != taken)
            break;
        n += piece.size();
        taken = position(piece.back());
    }
    QVector<TraceEvent> events;
    events.reserve(n);
    for (; pieces > 0; --pieces) {
        events.append(backlog_events_.front());
        backlog_events_.pop_front();
    }
    const std::int64_t last = events.isEmpty() ? -1 : position(events.back());
    if (!events.isEmpty())
        handed_step_ = last;
    QVector<StepSnapshot> snapshots;
    while (!backlog_snapshots_.empty() &&
           (position(backlog_snapshots_.front()) <= last || backlog_events_.empty())) {
        snapshots.append(std::move(backlog_snapshots_.front()));
        backlog_snapshots_.pop_front();
    }
    if (!events.isEmpty() || !snapshots.isEmpty())
        Q_EMIT traceBatch(events, snapshots);
    if (done && backlog_events_.empty() && backlog_snapshots_.empty()) {
        frame_.stop();
        frame_.setInterval(kFrameInterval);
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

// The GUI's side of a branch from executed step `from`: what it holds from there goes.
void EngineController::cut(std::int64_t from) {
    std::erase_if(backlog_events_,
                  [from](const QVector<TraceEvent>& p) { return position(p.front()) >= from; });
    std::erase_if(backlog_snapshots_,
                  [from](const StepSnapshot& s) { return position(s) >= from; });
    handed_step_ = -1;
    Q_EMIT branched(from);
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
        while (!run_->finished())
            run_->step();
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

std::optional<Intervention> EngineController::faultFor(int worker, const QString& action,
                                                       std::int64_t at, double amount) {
    Intervention i;
    i.worker = worker;
    i.at = at;
    i.amount = amount;
    if (action == QLatin1String("slow"))
        i.kind = Intervention::Kind::Slow;
    else if (action == QLatin1String("pause"))
        i.kind = Intervention::Kind::Pause;
    else if (action == QLatin1String("crash"))
        i.kind = Intervention::Kind::Crash;
    else if (action == QLatin1String("crash-checkpoint"))
        i.kind = Intervention::Kind::CrashInCheckpoint;
    else
        return std::nullopt;
    return i;
}

bool EngineController::injectFault(int worker, const QString& action, QString* why, double amount) {
    const auto change = faultFor(worker, action, kAtTheHead, amount);
    if (!change) {
        if (why)
            *why = tr("The engine knows no action “%1”.").arg(action);
        return false;
    }
    return intervene(*change, why);
}

// Why this run cannot take `change`, in the status bar's words; empty when it can.
QString EngineController::refusal(const Intervention& change) const {
    using Kind = Intervention::Kind;
    if (scenario_.model_parallel())
        return tr("Model-parallel runs take no injected faults: every stage holds a part of the "
                  "one model. Use data parallelism to study failures.");
    if (!run_)
        return tr("There is no run yet: press Run first.");
    if (change.kind == Kind::Broadcast) {
        if (scenario_.sync_mode() == SyncMode::Ssp || scenario_.sync_mode() == SyncMode::Async)
            return tr("Under %1 the workers read the one model the server holds: there are no "
                      "replicas to copy parameters between.")
                .arg(QString::fromStdString(std::string(to_string(scenario_.sync_mode()))));
        if (scenario_.clock == ClockKind::Measured)
            return tr("A broadcast is priced by the cost model: switch to the modelled clock.");
        if (scenario_.workers < 2)
            return tr("With one worker there is nobody to copy the parameters to.");
        return {};
    }
    if (change.kind == Kind::Retune) {
        if (const auto field = fixed_for_the_run(scenario_, change.scenario))
            return tr("“%1” cannot change while the run goes on.")
                .arg(QString::fromStdString(*field));
        return {};
    }
    if (change.worker < 0 || change.worker >= scenario_.workers)
        return tr("There is no worker %1.").arg(change.worker);
    if (change.kind == Kind::CrashInCheckpoint) {
        if (!scenario_.checkpoint)
            return tr("This scenario saves no checkpoints, so there is no next checkpoint to "
                      "crash in. Give it a checkpoint policy first.");
        if (scenario_.failures.policy == RecoveryPolicy::Backup)
            return tr("With backup workers a crash is a gradient that never arrives; crash the "
                      "worker in a step instead.");
    }
    if (change.kind == Kind::Crash && scenario_.failures.policy != RecoveryPolicy::Restart &&
        scenario_.workers < 2)
        return tr("With one worker there is nobody left to go on.");
    return {};
}

bool EngineController::intervene(Intervention change, QString* why) {
    const QString no = refusal(change);
    if (!no.isEmpty()) {
        if (why)
            *why = no;
        return false;
    }
    scenarios_before_.push_back(scenario_);
    if (change.kind == Intervention::Kind::Retune)
        take_mid_run_settings(scenario_, change.scenario); // for reruns and the controls
    ++branches_;
    queue({std::move(change), 0, std::nullopt});
    return true;
}

bool EngineController::undo() {
    if (branches_ == 0 || !run_)
        return false;
    --branches_;
    scenario_ = scenarios_before_.back();
    scenarios_before_.pop_back();
    queue({std::nullopt, 0, std::nullopt});
    return true;
}

bool EngineController::restore(const Scenario& base, const Scenario& running,
                               std::vector<Intervention> interventions) {
    if (!run_ || scenario_.model_parallel() || scenario_to_json(base) != scenario_to_json(base_))
        return false;
    scenario_ = running;
    Command c;
    c.restore = std::move(interventions);
    queue(std::move(c));
    return true;
}

// Sends a branch or an undo to the run: to the engine thread, which may be running, done, or
// gone (then it starts again on the same run), or, after runToCompletion(), straight to the
// run's end on this thread. Where the trace changes is cut at once when it is known (a branch
// at a given step); the engine says it otherwise (an undo, a branch at its head, the measured
// clock's replays), and drain() cuts there.
void EngineController::queue(Command command) {
    command.generation = ++generation_;
    // The class is waiting for this change: look for the engine's answer every few
    // milliseconds rather than every frame, until it comes.
    frame_.setInterval(kAnswerInterval);
    const std::int64_t from = command.change ? command.change->at : kAtTheHead;
    cuts_.push_back(from);
    if (from != kAtTheHead)
        cut(from);
    if (inline_) {
        runInline(std::move(command));
        return;
    }
    {
        std::lock_guard lock(mutex_);
        if (takes_commands_) {
            commands_.push_back(std::move(command));
            return;
        }
    }
    if (thread_.joinable())
        thread_.join();
    {
        std::lock_guard lock(mutex_);
        commands_.push_back(std::move(command));
    }
    launch();
}

} // namespace lockstep::app
