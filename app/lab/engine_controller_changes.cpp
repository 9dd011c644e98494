// The way down from a click to the run: what the run refuses, the changes, undo and restore, the
// queue that hands them to the engine thread, and that thread's loop, which takes them between
// steps and steps the run, paced against the playhead (or, headless, runs it to its end on the
// GUI thread).

#include "engine_controller.h"

#include "background.h"
#include "core/error.h"
#include "runs/runs.h"

#include <QCoreApplication>

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

bool EngineController::injectFault(int worker, const QString& action, QString* why, double amount) {
    const auto change = make_intervention(action.toStdString(), worker, kAtTheHead, amount);
    if (!change) {
        if (why)
            *why = tr("The engine knows no action “%1”.").arg(action);
        return false;
    }
    return intervene(*change, why);
}

// Why this run cannot take `change`, in the status bar's words; empty when it can.
QString EngineController::refusal(const Intervention& change) const {
    if (scenario_.model_parallel())
        return tr("Model-parallel runs take no injected faults: every stage holds a part of the "
                  "one model. Use data parallelism to study failures.");
    if (!run_)
        return tr("There is no run yet: press Run first.");
    if (!fault_kind(change.kind).whole_run &&
        (change.worker < 0 || change.worker >= scenario_.workers))
        return tr("There is no worker %1.").arg(change.worker);
    if (const Refusal no = fault_kind(change.kind).refusal(scenario_, change)) {
        const QString text = QCoreApplication::translate("Fault", no.text);
        return no.arg.empty() ? text : text.arg(QString::fromStdString(no.arg));
    }
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
// run's end on this thread. Where the trace changes is dropped at once when it is known (a
// branch at a given step); the engine says it otherwise (an undo, a branch at its head, the
// measured clock's replays), and drain() cuts there and emits branched().
void EngineController::queue(Command command) {
    command.generation = ++generation_;
    // The class is waiting for this change: look for the engine's answer every few
    // milliseconds rather than every frame, until it comes.
    frame_.setInterval(kAnswerInterval);
    const std::int64_t from = command.change ? command.change->at : kAtTheHead;
    cuts_.push_back(from);
    if (from != kAtTheHead)
        dropFrom(from); // the caller drops its own copy: nothing goes back up
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

// The GUI's side of a branch from executed step `from`: what it holds from there goes.
void EngineController::dropFrom(std::int64_t from) {
    std::erase_if(backlog_events_,
                  [from](const QVector<TraceEvent>& p) { return position(p.front()) >= from; });
    std::erase_if(backlog_snapshots_,
                  [from](const StepSnapshot& s) { return position(s) >= from; });
    handed_step_ = -1;
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
                const std::int64_t from = take(c);
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

std::int64_t EngineController::take(Command& command) {
    const std::int64_t at = command.change ? command.change->at : kAtTheHead;
    try {
        return command.change    ? run_->branch(std::move(*command.change))
               : command.restore ? run_->restore(std::move(*command.restore))
                                 : run_->undo().value_or(kAtTheHead);
    } catch (const Error& e) {
        // The GUI has let go of the trace from `at` and counts a branch: the same run, traced
        // again from there, keeps both whole.
        const std::int64_t from = run_->retrace(at); // the sink takes the mutex: not held here
        std::lock_guard lock(mutex_);
        notices_.append(QString::fromStdString(e.what()));
        return from;
    }
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

// The run, after a branch or an undo when one is given, to its end on this thread, its trace
// handed over at once.
void EngineController::runInline(std::optional<Command> command) {
    Trace trace;
    run_->set_sink(&trace);
    try {
        if (command) {
            const std::int64_t from = take(*command);
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
