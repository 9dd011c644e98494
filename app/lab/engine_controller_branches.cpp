// Interventions and undos on the controller's run: the fault a click on a worker means, what the
// run refuses, and the queue that hands a branch to the engine thread.

#include "engine_controller.h"

namespace lockstep::app {

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
