// The GUI's side of the engine's trace: taken from the engine thread each frame, what a later
// branch replaced dropped, and handed to the views in whole steps.

#include "engine_controller.h"

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

} // namespace lockstep::app
