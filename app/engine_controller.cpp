#include "engine_controller.h"

#include "lockstep/error.h"
#include "lockstep/trainer.h"

#include <QTemporaryDir>

#include <algorithm>
#include <chrono>

namespace lockstep::app {

// The engine thread's trace sink: appends to the controller's pending buffers.
class EngineController::Sink final : public TraceSink {
public:
    explicit Sink(EngineController& owner)
        : owner_(owner) {}

    void on_events(std::span<const TraceEvent> events) override {
        produced += events.size();
        std::lock_guard lock(owner_.mutex_);
        owner_.pending_events_.append(QVector<TraceEvent>(events.begin(), events.end()));
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
    std::lock_guard lock(mutex_);
    pending_events_.clear();
    pending_snapshots_.clear();
    commands_.clear();
}

std::vector<double> EngineController::finalParameters() const {
    std::lock_guard lock(mutex_);
    return final_parameters_;
}

namespace {

// A scenario with a checkpoint policy really saves its checkpoints, into a temporary folder that
// lives as long as the run, so the trace shows the write, sync and commit phases.
std::unique_ptr<QTemporaryDir> save_checkpoints(DataParallelTrainer& trainer) {
    const Scenario& s = trainer.scenario();
    if (!s.checkpoint || s.algorithm == Algorithm::None)
        return nullptr;
    auto dir = std::make_unique<QTemporaryDir>();
    if (!dir->isValid())
        throw Error("cannot create a temporary folder for the run's checkpoints");
    trainer.set_checkpoint_directory(dir->path().toStdString());
    return dir;
}

} // namespace

void EngineController::start(const Scenario& scenario) {
    validate(scenario);
    auto data = load_dataset(scenario);
    // Constructing a trainer checks that the data fits the model before anything changes.
    DataParallelTrainer check(scenario, data);
    stop();
    scenario_ = scenario;
    dataset_ = data;
    stop_ = false;
    playhead_step_ = 0;
    finished_ = false;
    {
        std::lock_guard lock(mutex_);
        error_.clear();
        done_ = false;
    }
    Q_EMIT runStarted(scenario_);
    thread_ = std::thread([this, scenario, data] { engineMain(scenario, data); });
    frame_.start();
}

void EngineController::engineMain(Scenario scenario, std::shared_ptr<const Dataset> data) {
    Sink sink(*this);
    std::vector<double> parameters;
    try {
        DataParallelTrainer trainer(scenario, std::move(data), &sink);
        trainer.set_stop_flag(&stop_);
        const auto checkpoints = save_checkpoints(trainer);
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
                if (c.action == QLatin1String("slow"))
                    trainer.set_slowdown(c.worker, c.amount > 0 ? c.amount : 3.0);
                else if (c.action == QLatin1String("pause"))
                    trainer.add_pause(c.worker, trainer.steps_done(),
                                      c.amount > 0 ? c.amount : 5.0);
            }
            trainer.step();
            if (trainer.steps_done() ==
                1) // steps ahead allowed, from how much trace one step makes
                ahead = std::clamp<std::int64_t>(
                    kAheadEvents /
                        std::max<std::int64_t>(1, static_cast<std::int64_t>(sink.produced)),
                    2, 1000);
        }
        parameters = trainer.workers().front().parameters;
    } catch (const std::exception& e) {
        std::lock_guard lock(mutex_);
        error_ = QString::fromStdString(e.what());
    }
    std::lock_guard lock(mutex_);
    final_parameters_ = std::move(parameters);
    done_ = true;
    finished_ = true;
}

void EngineController::drain() {
    QString error;
    bool done = false;
    {
        std::lock_guard lock(mutex_);
        backlog_events_.append(std::move(pending_events_));
        backlog_snapshots_.append(std::move(pending_snapshots_));
        pending_events_.clear();
        pending_snapshots_.clear();
        error = error_;
        done = done_;
    }
    // Hand over whole steps, about kMaxEventsPerFrame events a frame, so one frame never has to
    // take in the burst the engine makes when it starts ahead of the playhead.
    qsizetype n = std::min<qsizetype>(backlog_events_.size(), kMaxEventsPerFrame);
    while (n > 0 && n < backlog_events_.size() &&
           backlog_events_[n].step == backlog_events_[n - 1].step)
        ++n;
    const std::int64_t last_step = n > 0 ? backlog_events_[n - 1].step : -1;
    qsizetype m = 0;
    while (m < backlog_snapshots_.size() &&
           (backlog_snapshots_[m].step <= last_step || n == backlog_events_.size()))
        ++m;
    if (n > 0 || m > 0) {
        const QVector<TraceEvent> events = backlog_events_.first(n);
        const QVector<StepSnapshot> snapshots = backlog_snapshots_.first(m);
        backlog_events_.remove(0, n);
        backlog_snapshots_.remove(0, m);
        Q_EMIT traceBatch(events, snapshots);
    }
    if (done && backlog_events_.isEmpty() && backlog_snapshots_.isEmpty()) {
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
    Q_EMIT runStarted(scenario_);
    Trace trace;
    try {
        dataset_ = load_dataset(scenario);
        DataParallelTrainer trainer(scenario, dataset_, &trace);
        const auto checkpoints = save_checkpoints(trainer);
        trainer.run();
        std::lock_guard lock(mutex_);
        final_parameters_ = trainer.workers().front().parameters;
    } catch (const std::exception& e) {
        Q_EMIT runFailed(QString::fromStdString(e.what()));
        return;
    }
    Q_EMIT traceBatch(QVector<TraceEvent>(trace.events().begin(), trace.events().end()),
                      QVector<StepSnapshot>(trace.snapshots().begin(), trace.snapshots().end()));
    Q_EMIT runFinished();
}

bool EngineController::injectDelay(int worker, const QString& action, QString* why, double amount) {
    auto fail = [&](const QString& reason) {
        if (why)
            *why = reason;
        return false;
    };
    if (worker < 0 || worker >= scenario_.workers)
        return fail(tr("There is no worker %1.").arg(worker));
    if (action != QLatin1String("slow") && action != QLatin1String("pause"))
        return fail(
            tr("The engine cannot inject “%1” yet: failures and checkpoints are not part of "
               "this version.")
                .arg(action));
    if (!running())
        return fail(
            tr("The run has finished; press Run to start a new one, then inject the delay."));
    std::lock_guard lock(mutex_);
    commands_.push_back({worker, action, amount});
    return true;
}

} // namespace lockstep::app
