// The session's branches: a change at the playhead, its mark, what it replaced, and undo.
#include "lab_session.h"

namespace lockstep::app {

std::int64_t LabSession::interventionPoint() const {
    std::int64_t at = index_.ordinal_starting_from(playback_.playhead());
    // At the very end of a finished run no step is left to change: the last one is done again.
    if (run_finished_ && at > 0 && !index_.start_of(at))
        at -= 1;
    return at;
}

bool LabSession::intervene(Intervention change, const QString& what, QString* why) {
    if (!recording_note_.isEmpty()) {
        const QString refusal = tr("This is %1: it already happened, so it cannot be changed. "
                                   "Press Run to run its scenario live on threads, and change "
                                   "that run.")
                                    .arg(recording_note_);
        if (why)
            *why = refusal;
        Q_EMIT refused(refusal);
        return false;
    }
    change.at = interventionPoint();
    const auto held = index_.start_of(change.at);
    const auto last = index_.last_step();
    const std::int64_t step = held ? held->step : last ? last->step + 1 : 0;
    const QList<Branch> before = branches_;
    QString refusal;
    intervening_ = true; // the controller's branched() comes back before intervene() returns
    const bool taken = controller_.intervene(change, &refusal);
    intervening_ = false;
    if (!taken) {
        if (why)
            *why = refusal;
        Q_EMIT refused(refusal);
        return false;
    }
    // The marks of the replaced future go with it; this one joins those before it.
    QList<Branch> kept;
    for (const Branch& b : before)
        if (b.ordinal <= change.at)
            kept.append(b);
    kept.append({change.at, tr("step %1: %2").arg(step).arg(what)});
    branches_before_.append(before);
    branches_ = kept;
    Q_EMIT branchesChanged();
    // A change at the playhead when it stands past the last step's start: show it from there.
    if (held && held->start < playback_.playhead())
        playback_.scrubTo(held->start);
    Q_EMIT status(tr("At step %1: %2. Ctrl+Z undoes it.").arg(step).arg(what));
    return true;
}

bool LabSession::undo() {
    if (!controller_.undo())
        return false;
    replaced_loss_.clear();
    Q_EMIT replacedLossChanged();
    scenario_ = controller_.scenario(); // the settings as they were before the change
    Q_EMIT scenarioChanged(scenario_);
    Q_EMIT runRetuned(scenario_);
    branches_ = branches_before_.isEmpty() ? QList<Branch>() : branches_before_.takeLast();
    Q_EMIT branchesChanged();
    Q_EMIT status(tr("Undone: the run is back as it was before the last change."));
    return true;
}

void LabSession::changeScenario(const Scenario& changed, const QString& what) {
    const Scenario& running = controller_.scenario();
    const auto field = fixed_for_the_run(running, changed);
    if (!field && scenario_to_json(running) == scenario_to_json(changed))
        return; // nothing to change: the run already has these settings
    const bool can_branch = !field && !EngineController::isModelParallel(running) &&
                            index_.workers() == running.workers;
    if (!can_branch) {
        rerun(changed);
        if (field)
            Q_EMIT status(tr("%1: “%2” only changes when a run starts, so the run starts again "
                             "from step 0.")
                              .arg(what, QString::fromStdString(*field)));
        return;
    }
    Intervention change;
    change.kind = Intervention::Kind::Retune;
    change.scenario = changed;
    const std::int64_t at = interventionPoint();
    const Algorithm collective = running.algorithm; // intervene() updates the running scenario
    if (!intervene(change, what))
        return;
    if (changed.algorithm != collective)
        index_.set_algorithm_from(at, changed.algorithm);
    scenario_ = controller_.scenario();
    Q_EMIT scenarioChanged(scenario_);
    Q_EMIT runRetuned(scenario_);
}

Ticks LabSession::markTime(const Branch& branch) const {
    if (const auto start = index_.start_of(branch.ordinal))
        return start->start;
    return index_.last_step() ? index_.end_time() : 0;
}

void LabSession::onBranched(std::int64_t from) {
    // What the run did from there before the change: what the new one is read against.
    if (intervening_) {
        replaced_loss_.clear();
        for (const StepSnapshot& s : index_.snapshots())
            if (s.ordinal >= from)
                replaced_loss_.append(QPointF(static_cast<double>(s.step), s.loss));
        intervening_ = false; // a later cut of the same change (measured clock) keeps this line
        Q_EMIT replacedLossChanged();
    }
    run_finished_ = false;
    index_.truncate_from(from);
    Q_EMIT branched(from);
}

} // namespace lockstep::app
