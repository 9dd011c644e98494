// The controller's run and the trace it hands up: a run started (its engine thread is in
// engine_controller_changes.cpp) or run to its end on the GUI thread (headless), stopped, and
// its trace taken each frame, what a later branch replaced dropped, and handed to the views in
// whole steps.

#include "engine_controller.h"

#include "background.h"
#include "core/atomic_file.h"
#include "core/error.h"

#include <QTemporaryDir>

#include <algorithm>

namespace lockstep::app {

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

// The engine's answer moved a branch earlier than the GUI knew: the views drop it too.
void EngineController::cut(std::int64_t from) {
    dropFrom(from);
    Q_EMIT branched(from);
}

} // namespace lockstep::app
