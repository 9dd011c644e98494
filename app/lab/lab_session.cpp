#include "lab_session.h"

#include "trace/recording.h"

#include "lockstep_views/names.h"
#include "lockstep_views/numbers.h"
#include "runs/runs.h"

#include <QCoreApplication>

#include <algorithm>
#include <span>

namespace lockstep::app {

namespace {

QString seconds_text(Ticks t) {
    return views::display_number(to_seconds(t), 'f', 6) + QStringLiteral(" s");
}

// A finished run's name in the comparison: what it is and how it was spread.
QString run_label(const Scenario& s) {
    QString how;
    if (s.model_parallel()) {
        const auto& p = *s.parallelism;
        if (p.mode == Parallelism::Pipeline || p.mode == Parallelism::Hybrid)
            how = QCoreApplication::translate("lockstep::app::LabSession",
                                              "%1, %2 lanes, %3 micro-batches %4")
                      .arg(views::parallelism_name(p.mode))
                      .arg(p.lanes())
                      .arg(p.microbatches)
                      .arg(views::schedule_name(p.schedule));
        else
            how = QCoreApplication::translate("lockstep::app::LabSession", "%1, %2 lanes")
                      .arg(views::parallelism_name(p.mode))
                      .arg(p.lanes());
    } else {
        how = QCoreApplication::translate("lockstep::app::LabSession", "%1 workers, %2")
                  .arg(s.workers)
                  .arg(views::algorithm_name(s.algorithm));
    }
    return QStringLiteral("%1 (%2)").arg(QString::fromStdString(s.name), how);
}

} // namespace

LabSession::LabSession(QObject* parent)
    : QObject(parent) {
    connect(&controller_, &EngineController::runStarted, this, &LabSession::onRunStarted);
    connect(&controller_, &EngineController::traceBatch, this, &LabSession::onTraceBatch);
    connect(&controller_, &EngineController::runFinished, this, &LabSession::onRunFinished);
    connect(&controller_, &EngineController::branched, this, &LabSession::onBranched);
    connect(&controller_, &EngineController::notice, this, &LabSession::status);
    connect(&controller_, &EngineController::runFailed, this, [this](const QString& message) {
        Q_EMIT status(tr("The run stopped: %1").arg(message));
        Q_EMIT runFailed(message);
    });
    connect(&comparer_, &RestoreComparer::ready, this,
            [this](const RestoreComparison& comparison) { setComparison(comparison, {}); });
    connect(&comparer_, &RestoreComparer::failed, this, [this](const QString& message) {
        setComparison(comparison_, tr("The restores could not be compared: %1").arg(message));
    });
    connect(&playback_, &Playback::playheadChanged, this, &LabSession::onPlayhead);
    playback_.setTrace(&index_);
}

LabSession::~LabSession() {
    controller_.stop();
}

void LabSession::addView(views::SessionView* view) {
    views_.emplace_back(view->widget(), view);
}

void LabSession::retuned() {
    toViews([this](views::SessionView& v) { v.runRetuned(scenario_); });
    Q_EMIT runRetuned(scenario_);
}

void LabSession::useScenario(const Scenario& scenario, const QString& path) {
    scenario_ = scenario;
    scenario_path_ = path;
    Q_EMIT scenarioChanged(scenario_);
}

bool LabSession::openScenario(const QString& path, QString* error) {
    try {
        Scenario s = load_scenario(path.toStdString());
        auto data = load_dataset(s); // a bad CSV is reported now, and the current scenario stays
        useScenario(s, path);
        checked_for_ = scenario_to_json(s);
        checked_data_ = std::move(data);
        return true;
    } catch (const std::exception& e) {
        if (error)
            *error = QString::fromStdString(e.what());
        return false;
    }
}

bool LabSession::run(const Scenario& scenario) {
    if (headless_ || inline_runs_) {
        scenario_ = scenario;
        runToCompletion();
        return true;
    }
    try {
        // The data openScenario() checked, when this is its scenario; read once either way.
        std::shared_ptr<const Dataset> data;
        if (checked_data_ && scenario_to_json(scenario) == checked_for_)
            data = checked_data_;
        controller_.start(scenario, std::move(data));
        return true;
    } catch (const std::exception& e) {
        Q_EMIT cannotRun(QString::fromStdString(e.what()));
        return false;
    }
}

bool LabSession::rerun(const Scenario& scenario) {
    useScenario(scenario, scenario_path_);
    return run(scenario_);
}

// A new run the person asked for, undoable: the run before stays as the faint line.
bool LabSession::rerunWithChange(const Scenario& changed) {
    QList<QPointF> old;
    for (const StepSnapshot& s : index_.snapshots())
        old.append(QPointF(static_cast<double>(s.step), s.loss));
    const bool had_run = !index_.snapshots().empty() && recording_note_.isEmpty();
    const State before = current();
    if (!rerun(changed))
        return false;
    if (had_run) {
        undo_.append(before);
        redo_.clear();
        Q_EMIT historyChanged();
        replaced_loss_ = old; // the run before, as the faint line
        Q_EMIT replacedLossChanged();
    }
    if (!headless_)
        playback_.play();
    return true;
}

void LabSession::runToCompletion() {
    // The comparison is wanted at once (a headless picture), so onRunFinished() works it out here.
    compare_in_place_ = true;
    controller_.runToCompletion(scenario_);
    compare_in_place_ = headless_ || inline_runs_;
}

void LabSession::setHeadless(bool on) {
    headless_ = on;
    compare_in_place_ = headless_ || inline_runs_;
}

void LabSession::setInlineRuns(bool on) {
    inline_runs_ = on;
    compare_in_place_ = headless_ || inline_runs_;
}

bool LabSession::openRecording(const QString& path, QString* error) {
    Recording recording;
    try {
        recording = read_recording(path.toStdString());
    } catch (const std::exception& e) {
        if (error)
            *error = QString::fromStdString(e.what());
        return false;
    }
    controller_.stop();
    useScenario(recording.scenario, {});
    onRunStarted(recording.scenario);
    QStringList hosts;
    for (const std::string& h : recording.hosts)
        hosts << QString::fromStdString(h);
    recording_parameters_ = std::move(recording.parameters);
    try {
        recording_data_ = load_dataset(recording.scenario);
    } catch (const std::exception&) {
        recording_data_.reset(); // a CSV file that is not on this computer: no boundary
    }
    recording_note_ =
        (recording.ranks == 1 ? tr("a recording of 1 process")
                              : tr("a recording of %1 processes").arg(recording.ranks)) +
        QLatin1Char(' ') +
        (hosts.size() == 1 ? tr("on 1 host (%1), measured")
                           : tr("on %1 hosts (%2), measured").arg(hosts.size()))
            .arg(hosts.join(QStringLiteral(", ")));
    // Step by step, as a live run hands them over.
    std::size_t at = 0;
    for (const StepSnapshot& snapshot : recording.snapshots) {
        QVector<TraceEvent> events;
        while (at < recording.events.size() && recording.events[at].step <= snapshot.step)
            events.append(recording.events[at++]);
        onTraceBatch(events, {snapshot});
    }
    onRunFinished();
    Q_EMIT status(tr("Playing back %1: it happened as shown, so it cannot be changed. Run "
                     "starts its scenario live.")
                      .arg(recording_note_));
    return true;
}

void LabSession::onRunStarted(const Scenario& scenario) {
    recording_note_.clear();
    recording_parameters_.clear();
    recording_data_.reset();
    scenario_ = scenario;
    index_.reset(scenario.lanes(), scenario.algorithm, scenario.cost.topology);
    playback_.setTrace(&index_);
    first_batch_ = true;
    run_finished_ = false;
    finished_status_.clear();
    replaced_loss_.clear();
    branches_.clear();
    seek_.reset();
    comparer_.cancel();
    QString why;
    setComparison(std::nullopt,
                  RestoreComparer::comparable(scenario, &why)
                      ? tr("Once the run ends, its crash is rerun with both restores and drawn "
                           "here.")
                      : why);
    Q_EMIT replacedLossChanged();
    toViews([&](views::SessionView& v) { v.runStarted(index_, scenario); });
    Q_EMIT runStarted(scenario);
    Q_EMIT status(tr("Running %1 with %2 workers…")
                      .arg(QString::fromStdString(scenario.name))
                      .arg(scenario.lanes()));
}

void LabSession::onTraceBatch(const QVector<TraceEvent>& events,
                              const QVector<StepSnapshot>& snapshots) {
    // The run's first steps (not a branch's, which keeps the view the class is looking at).
    const bool first = first_batch_ && index_.snapshots().empty() && !snapshots.isEmpty();
    const std::span<const TraceEvent> batch(events.data(), static_cast<std::size_t>(events.size()));
    if (first) {
        first_batch_ = false;
        // The trace this run will hold at most: the retained window and what the engine runs
        // ahead, or the whole run if it is shorter.
        const auto per_step = static_cast<double>(events.size()) /
                              static_cast<double>(std::max<qsizetype>(1, snapshots.size()));
        const double whole = per_step * static_cast<double>(scenario_.steps) * 1.1;
        const double window =
            static_cast<double>(memory_.retained_events + EngineController::kAheadEvents);
        index_.reserve(static_cast<std::size_t>(std::min(whole, window)), batch);
    }
    index_.append(batch);
    for (const auto& s : snapshots)
        index_.append(s);
    toViews([](views::SessionView& v) { v.traceChanged(); });
    Q_EMIT traceAppended(first, first ? snapshots.front().time : 0);
    seekPending();
}

void LabSession::onRunFinished() {
    run_finished_ = true;
    compareRestores();
    views::FinishedRun finished_run;
    finished_run.model = scenario_.model;
    if (recording_note_.isEmpty()) {
        finished_run.label = runLabel();
        finished_run.metrics = controller_.metrics();
        finished_run.parameters = controller_.finalParameters();
        finished_run.data = controller_.dataset();
    } else { // a recording: its own model and data, and no figures of this machine
        finished_run.live = false;
        finished_run.parameters = recording_parameters_;
        finished_run.data = recording_data_;
    }
    toViews([&](views::SessionView& v) { v.runFinished(finished_run); });
    Q_EMIT runFinished();
    seekPending();
    const auto& snaps = index_.snapshots();
    if (snaps.empty())
        return;
    // A pipeline or a tensor-parallel run holds one model in parts: no replicas to compare.
    const bool replicas = !scenario_.parallelism ||
                          scenario_.parallelism->mode == Parallelism::Data ||
                          scenario_.parallelism->mode == Parallelism::Hybrid;
    const QString finished =
        replicas ? tr("Finished %1 steps in %2 on the %3 clock; final loss %4; replicas %5")
                       .arg(snaps.size())
                       .arg(seconds_text(snaps.back().time))
                       .arg(views::clock_name(scenario_.clock))
                       .arg(views::display_number(snaps.back().loss, 'f', 4))
                       .arg(snaps.back().replicas_aligned ? tr("aligned") : tr("differ"))
                 : tr("Finished %1 steps in %2 on the %3 clock; final loss %4")
                       .arg(snaps.size())
                       .arg(seconds_text(snaps.back().time))
                       .arg(views::clock_name(scenario_.clock))
                       .arg(views::display_number(snaps.back().loss, 'f', 4));
    finished_status_ =
        finished + (branches_.isEmpty()
                        ? QString()
                        : tr(" · changed at %1 (Ctrl+Z undoes it)").arg(branches_.back().label));
    if (headless_ || playback_.playhead() >= index_.end_time())
        sayFinished();
    if (playback_.playhead() >= index_.end_time())
        playback_.pause(); // nothing more to show: Play watches it again from the start
}

void LabSession::sayFinished() {
    if (finished_status_.isEmpty())
        return;
    Q_EMIT status(finished_status_);
    finished_status_.clear();
}

QString LabSession::runLabel() const {
    // A run changed at the playhead is a run of its own beside the one before the change.
    return branches_.isEmpty()
               ? run_label(scenario_)
               : run_label(scenario_) + QStringLiteral(" · ") + branches_.back().label;
}

void LabSession::onPlayhead(Ticks t) {
    // Tell the engine how far the class has got, and let go of trace far behind the playhead.
    const StepSnapshot* done = index_.snapshot_at(t);
    controller_.setPlayheadStep(done ? std::max(done->ordinal, done->step) + 1 : 0);
    forgetOldSteps(t);
    toViews([t](views::SessionView& v) { v.playheadMoved(t); });
    Q_EMIT playheadMoved(t);
    if (run_finished_ && t >= index_.end_time()) {
        sayFinished();
        playback_.pause(); // at the end of the run: Play watches it again from the start
    }
}

// The memory policy: past the budget, the steps well behind the playhead lose their events.
void LabSession::forgetOldSteps(Ticks playhead) {
    // Positions in the run's order of snapshots (a rollback repeats step numbers).
    const StepSnapshot* done = index_.snapshot_at(playhead);
    const auto at = done ? static_cast<std::int64_t>(done - index_.snapshots().data()) + 1 : 0;
    const auto first = static_cast<std::int64_t>(index_.first_retained_snapshot());
    if (index_.events().size() <= memory_.retained_events || at <= first)
        return;
    const auto steps_held =
        std::max<std::int64_t>(1, static_cast<std::int64_t>(index_.snapshots().size()) - first);
    const auto per_step = static_cast<std::int64_t>(index_.events().size()) / steps_held + 1;
    const std::int64_t keep_behind =
        std::max<std::int64_t>(2, static_cast<std::int64_t>(memory_.behind_events) / per_step);
    if (at - keep_behind > first)
        index_.forget_before_snapshot(static_cast<std::size_t>(at - keep_behind));
}

// After a run: its crash rerun both ways for the Checkpoints view, on the comparer's thread (or
// here, for a headless picture), or why there is nothing to compare.
void LabSession::compareRestores() {
    Scenario as_run = scenario_;
    for (const FailureSpec& f : controller_.injectedFailures())
        as_run.failures.events.push_back(f);
    QString why;
    if (!RestoreComparer::comparable(as_run, &why)) {
        setComparison(comparison_, why);
    } else if (!compare_in_place_) {
        setComparison(comparison_, tr("Rerunning the crash with both restores…"));
        comparer_.request(as_run);
    } else {
        try {
            setComparison(RestoreComparer::compareNow(as_run), {});
        } catch (const std::exception& e) {
            setComparison(
                comparison_,
                tr("The restores could not be compared: %1").arg(QString::fromStdString(e.what())));
        }
    }
}

void LabSession::setComparison(std::optional<RestoreComparison> comparison, const QString& note) {
    comparison_ = std::move(comparison);
    comparison_note_ = note;
    Q_EMIT restoreComparisonChanged();
}

} // namespace lockstep::app
