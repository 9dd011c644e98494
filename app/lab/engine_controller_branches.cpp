// Interventions and undos on the controller's run: the fault a click on a worker means, what the
// run refuses, and the queue that hands a branch to the engine thread.

#include "engine_controller.h"

#include <QCoreApplication>

namespace lockstep::app {

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

} // namespace lockstep::app
