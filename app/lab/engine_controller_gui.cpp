// The controller's GUI-thread half. Down: the changes a click or an undo asks for, what the run
// refuses, and the queue that hands a branch to the engine thread (which runs in
// engine_controller.cpp). Up: the engine's trace, taken each frame, what a later branch replaced
// dropped, and handed to the views in whole steps.

#include "engine_controller.h"

#include <QCoreApplication>

#include <algorithm>

namespace lockstep::app {

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
void EngineController::dropFrom(std::int64_t from) {
    std::erase_if(backlog_events_,
                  [from](const QVector<TraceEvent>& p) { return position(p.front()) >= from; });
    std::erase_if(backlog_snapshots_,
                  [from](const StepSnapshot& s) { return position(s) >= from; });
    handed_step_ = -1;
}

// The engine's answer moved a branch earlier than the GUI knew: the views drop it too.
void EngineController::cut(std::int64_t from) {
    dropFrom(from);
    Q_EMIT branched(from);
}

// ---- Down: changes to the run ----

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
