// The session's branches and history: a change at the playhead (or, at the end of a finished
// run, from step 0 again), its mark, what it replaced, and undo and redo.
#include "lab_session.h"

#include <QCoreApplication>

namespace lockstep::app {

bool LabSession::replaysFromStart() const {
    return run_finished_ && !index_.snapshots().empty() &&
           playback_.playhead() >= index_.end_time();
}

std::int64_t LabSession::interventionPoint() const {
    // At the very end of a finished run no step is left to change: the run is played again
    // from its start, with the change.
    if (replaysFromStart())
        return 0;
    std::int64_t at = index_.ordinal_starting_from(playback_.playhead());
    // In the last step of a finished run, past its start: that step is done again.
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
    const bool from_start = replaysFromStart();
    change.at = interventionPoint();
    const auto held = index_.start_of(change.at);
    const auto last = index_.last_step();
    const std::int64_t step = held ? held->step : last ? last->step + 1 : 0;
    const State before = current();
    QString refusal;
    if (!applyBranch(change, tr("step %1: %2").arg(step).arg(what), &refusal)) {
        if (why)
            *why = refusal;
        Q_EMIT refused(refusal);
        return false;
    }
    undo_.append(before);
    redo_.clear();
    Q_EMIT historyChanged();
    if (const auto show = fault_kind(change.kind).in_scenario) {
        show(scenario_, change); // the Controls show what the change set, e.g. a worker's pace
        Q_EMIT scenarioChanged(scenario_);
    }
    if (from_start) {
        // The class watches the run again from its start, the one before as the faint line.
        playback_.reset();
        if (!headless_)
            playback_.play();
        Q_EMIT status(tr("From step 0 again with the change: %1. The run before is the faint "
                         "line; Ctrl+Z undoes it.")
                          .arg(what));
        return true;
    }
    // A change at the playhead when it stands past the step's start: show it from there.
    if (held && held->start < playback_.playhead())
        playback_.scrubTo(held->start);
    Q_EMIT status(tr("At step %1: %2. Ctrl+Z undoes it.").arg(step).arg(what));
    return true;
}

// Hands `change` (its `at` set) to the engine and marks it; the marks of the replaced future go.
// The session drops its trace from there first, keeping what it replaces as the faint line, so
// nothing comes back up while the engine takes the change.
bool LabSession::applyBranch(Intervention change, const QString& label, QString* refusal) {
    const QString no = controller_.refusal(change);
    if (!no.isEmpty()) {
        if (refusal)
            *refusal = no;
        return false;
    }
    const Intervention taken = change;
    replaced_loss_.clear();
    for (const StepSnapshot& s : index_.snapshots())
        if (s.ordinal >= taken.at)
            replaced_loss_.append(QPointF(static_cast<double>(s.step), s.loss));
    Q_EMIT replacedLossChanged();
    QList<Branch> kept;
    for (const Branch& b : branches_)
        if (b.ordinal <= taken.at)
            kept.append(b);
    kept.append({taken.at, label, taken});
    branches_ = kept;
    onBranched(taken.at);
    // It takes it: refusal() was empty, and intervene() asks nothing else.
    [[maybe_unused]] const bool taken_by_engine = controller_.intervene(std::move(change));
    Q_ASSERT(taken_by_engine);
    Q_EMIT branchesChanged();
    return true;
}

// A click on a worker: the kind `id` names, at the playhead, with its default, marked with the
// kind's own words.
bool LabSession::workerAction(int worker, const QString& id) {
    const FaultKind* kind = find_fault_kind(id.toStdString());
    if (!kind)
        return false;
    const QString what =
        kind->done_text ? QCoreApplication::translate("Fault", kind->done_text).arg(worker) : id;
    return intervene(faultOn(*kind, worker), what);
}

Intervention LabSession::faultOn(const FaultKind& kind, int worker) const {
    Intervention change;
    change.kind = kind.kind;
    change.worker = worker;
    change.amount = kind.amount_in_steps ? kind.default_amount * meanStepSeconds() : 0.0;
    return change;
}

// The run's mean step so far, in seconds on its clock (a first guess before any step).
double LabSession::meanStepSeconds() const {
    const auto& snaps = index_.snapshots();
    return snaps.empty() ? 0.01 : to_seconds(snaps.back().time) / static_cast<double>(snaps.size());
}

QList<views::WorkerAction> LabSession::workerMenu() const {
    QList<views::WorkerAction> menu;
    for (const FaultKind* kind : fault_kinds())
        if (kind->menu_text) {
            const auto change = make_intervention(kind->id, 0, 0, 1.0);
            menu.append({QString::fromLatin1(kind->id),
                         QCoreApplication::translate("Fault", kind->menu_text),
                         change ? controller_.refusal(*change) : QString()});
        }
    return menu;
}

void LabSession::changeScenario(const Scenario& changed, const QString& what) {
    const Scenario& running = controller_.scenario();
    const auto field = fixed_for_the_run(running, changed);
    if (!field && scenario_to_json(running) == scenario_to_json(changed) &&
        scenario_to_json(scenario_) == scenario_to_json(changed)) {
        Q_EMIT status(tr("Nothing to change: the run already trains this way."));
        return;
    }
    const bool can_branch = !field && !running.model_parallel() &&
                            index_.workers() == running.workers && recording_note_.isEmpty();
    if (!can_branch) {
        rerunWithChange(changed);
        if (field)
            Q_EMIT status(tr("%1: “%2” only changes when a run starts, so the run starts again "
                             "from step 0.")
                              .arg(what, QString::fromStdString(*field)));
        return;
    }
    Intervention change;
    change.kind = Intervention::Kind::Retune;
    change.scenario = changed;
    const Algorithm collective = running.algorithm; // intervene() updates the running scenario
    if (!intervene(change, what))
        return;
    if (changed.algorithm != collective)
        index_.set_algorithm_from(branches_.back().ordinal, changed.algorithm);
    scenario_ = controller_.scenario();
    Q_EMIT scenarioChanged(scenario_);
    retuned();
}

LabSession::State LabSession::current() const {
    State s;
    s.base = controller_.baseScenario();
    s.running = scenario_;
    s.branches = branches_;
    s.at_end = replaysFromStart();
    s.playhead = index_.ordinal_starting_from(playback_.playhead());
    return s;
}

bool LabSession::undo() {
    if (undo_.isEmpty())
        return false;
    redo_.append(current());
    goTo(undo_.takeLast());
    Q_EMIT historyChanged();
    Q_EMIT status(tr("Undone: the run, its settings and the playhead are back as they were "
                     "before the last change. Ctrl+Shift+Z redoes it."));
    return true;
}

bool LabSession::redo() {
    if (redo_.isEmpty())
        return false;
    undo_.append(current());
    goTo(redo_.takeLast());
    Q_EMIT historyChanged();
    Q_EMIT status(tr("Redone: the change is back. Ctrl+Z undoes it again."));
    return true;
}

void LabSession::clearHistory() {
    undo_.clear();
    redo_.clear();
    Q_EMIT historyChanged();
}

// The run of `state`: the same run branched to its interventions when it started from the same
// scenario, else a new run of it with them.
void LabSession::goTo(const State& state) {
    std::vector<Intervention> list;
    for (const Branch& b : state.branches)
        list.push_back(b.change);
    playback_.pause();
    if (!controller_.restore(state.base, state.running, list)) {
        run(state.base);
        if (!list.empty())
            controller_.restore(state.base, state.running, list);
    }
    replaced_loss_.clear();
    Q_EMIT replacedLossChanged();
    branches_ = state.branches;
    for (const Branch& b : branches_)
        if (b.change.kind == Intervention::Kind::Retune)
            index_.set_algorithm_from(b.ordinal, b.change.scenario.algorithm);
    Q_EMIT branchesChanged();
    scenario_ = state.running;
    Q_EMIT scenarioChanged(scenario_);
    retuned();
    seek_ = Seek{state.playhead, state.at_end};
    seekPending();
}

void LabSession::seekPending() {
    if (!seek_)
        return;
    if (seek_->at_end) {
        if (run_finished_) {
            playback_.scrubTo(index_.end_time());
            seek_.reset();
        }
        return;
    }
    if (const auto start = index_.start_of(seek_->ordinal)) {
        playback_.scrubTo(start->start);
        seek_.reset();
    } else if (run_finished_) {
        playback_.scrubTo(index_.end_time());
        seek_.reset();
    }
}

Ticks LabSession::markTime(const Branch& branch) const {
    if (const auto start = index_.start_of(branch.ordinal))
        return start->start;
    return index_.last_step() ? index_.end_time() : 0;
}

// The trace from executed step `from` on goes: a branch made here, or the engine's answer
// moving one earlier (an undo, a change at its head, the measured clock's replay).
void LabSession::onBranched(std::int64_t from) {
    run_finished_ = false;
    finished_status_.clear();
    index_.truncate_from(from);
    // The playhead never stands past what the run holds.
    if (playback_.playhead() > index_.end_time())
        playback_.scrubTo(index_.end_time());
    toViews([](views::SessionView& v) { v.traceChanged(); });
    Q_EMIT branched(from);
}

} // namespace lockstep::app
