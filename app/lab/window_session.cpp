// How the lab window shows its session: a scenario or recording opened, a run started, its trace
// arriving, the playhead moving, branches and their marks, the sweep and the restore comparison.

#include "main_window.h"

#include "audio_description.h"
#include "background.h"
#include "controls_panel.h"
#include "run_comparer.h"
#include "speedup_sweeper.h"

#include "lockstep_views/checkpoint_view.h"
#include "lockstep_views/cluster_view.h"
#include "lockstep_views/memory_view.h"
#include "lockstep_views/numbers.h"
#include "lockstep_views/pipeline_view.h"
#include "lockstep_views/speedup_view.h"
#include "lockstep_views/timeline_view.h"
#include "lockstep_views/training_view.h"

#include "runs/runs.h"

#include <QAction>
#include <QLabel>
#include <QMessageBox>
#include <QSlider>
#include <QTabWidget>

namespace lockstep::app {

// The window shows the session: each of its signals goes to the views it changes.
void MainWindow::connectSession() {
    connect(&session_, &LabSession::runStarted, this, &MainWindow::onRunStarted);
    connect(&session_, &LabSession::traceAppended, this, &MainWindow::onTraceAppended);
    connect(&session_, &LabSession::runFinished, this, &MainWindow::onRunFinished);
    connect(&session_, &LabSession::branched, this, &MainWindow::onBranched);
    connect(&session_, &LabSession::playheadMoved, this, &MainWindow::onPlayhead);
    connect(&session_, &LabSession::status, this, &MainWindow::showStatus);
    // The Controls show the session's scenario: when it changes, and when a run starts.
    connect(&session_, &LabSession::scenarioChanged, controls_, &ControlsPanel::showScenario);
    connect(&session_, &LabSession::runStarted, controls_, &ControlsPanel::showScenario);
    connect(&session_, &LabSession::runRetuned, this, [this](const Scenario& running) {
        sweep(running); // the speedup of the run as it now trains
        updateWorkerMenu();
    });
    connect(&session_, &LabSession::runStarted, this, &MainWindow::updateWorkerMenu);
    connect(&session_, &LabSession::runFinished, this, &MainWindow::updateWorkerMenu);
    connect(&session_, &LabSession::branchesChanged, this, &MainWindow::showBranchMarks);
    connect(&session_, &LabSession::historyChanged, this, [this] {
        undo_action_->setEnabled(session_.canUndo());
        redo_action_->setEnabled(session_.canRedo());
    });
    connect(&session_, &LabSession::replacedLossChanged, this, [this] {
        const QList<QPointF>& old = session_.replacedLoss();
        training_->setBranchedLoss(old, old.isEmpty() ? QString() : tr("before the change"));
    });
    connect(&session_, &LabSession::restoreComparisonChanged, this,
            &MainWindow::showRestoreComparison);
    connect(comparer_, &RunComparer::finished, this, [this] {
        QList<views::TrainingView::ComparisonLine> lines;
        QStringList said;
        for (const RunComparer::Line& l : comparer_->lines()) {
            QString name = tr("%1 · %2 s").arg(l.name).arg(l.total_s, 0, 'g', 2);
            QString line = tr("%1 %2 s, final loss %3, %4 bytes a step")
                               .arg(l.name)
                               .arg(l.total_s, 0, 'g', 2)
                               .arg(l.final_loss, 0, 'g', 2)
                               .arg(views::display_number(l.bytes_per_step, 'f', 0));
            if (l.skipped_steps > 0) {
                name += tr(" · %1 skipped").arg(l.skipped_steps);
                line += l.skipped_steps == 1 ? tr(", 1 step skipped")
                                             : tr(", %1 steps skipped").arg(l.skipped_steps);
            }
            lines.append({name, l.loss});
            said << line;
        }
        training_->setComparison(lines);
        bringViewToFront(QStringLiteral("training"));
        showStatus(tr("Compared on the modelled clock, the whole run each: %1.")
                       .arg(said.join(QStringLiteral("; "))));
    });
    connect(comparer_, &RunComparer::failed, this,
            [this](const QString& message) { showStatus(tr("No comparison: %1").arg(message)); });
    connect(&session_, &LabSession::runFailed, this,
            [this](const QString& message) { tell(tr("Run failed"), message, true); });
    connect(&session_, &LabSession::refused, this, [this](const QString& why) {
        showStatus(why);
        tell(tr("Not possible"), why);
    });
    connect(&session_, &LabSession::cannotRun, this,
            [this](const QString& message) { tell(tr("Cannot run"), message, true); });
    Playback& playback = session_.playback();
    connect(&playback, &Playback::playingChanged, this,
            [this](bool playing) { play_action_->setText(playing ? tr("&Pause") : tr("&Play")); });
    connect(&playback, &Playback::speedChanged, this,
            [this](double speed) { speed_label_->setText(tr("speed %1×").arg(speed)); });
}

bool MainWindow::openScenario(const QString& path, QString* error, bool quiet) {
    QString message;
    if (session_.openScenario(path, &message)) {
        session_.clearHistory();
        title_ = Title::Scenario;
        title_file_ = path;
        updateWindowTitle();
        return true;
    }
    if (error)
        *error = message;
    if (!quiet)
        QMessageBox::warning(
            this, tr("Cannot open scenario"),
            tr("This scenario cannot be used:\n\n%1\n\nThe previous scenario is still loaded.")
                .arg(message));
    return false;
}

bool MainWindow::openRecording(const QString& path, QString* error, bool quiet) {
    QString message;
    if (session_.openRecording(path, &message)) {
        title_ = Title::Recording;
        title_file_ = path;
        updateWindowTitle();
        return true;
    }
    if (error)
        *error = message;
    if (!quiet)
        QMessageBox::warning(this, tr("Cannot open the recording"),
                             tr("This file cannot be played back:\n\n%1").arg(message));
    return false;
}

// The session has shown the views the run; the window fits itself to it.
void MainWindow::onRunStarted(const Scenario& scenario) {
    audio_->reset();
    const Parallelism mode = scenario.parallelism_mode();
    if (mode == Parallelism::Pipeline || mode == Parallelism::Hybrid)
        side_tabs_->setCurrentWidget(pipeline_);
    if (scenario.lanes() != fitted_lanes_)
        fitTimeline();
    showBranchMarks();
    sweep(scenario);
    outlineUnsharded(scenario);
}

// The Memory view's outline of a sharded run: the worker that holds the most in one step of the
// same scenario without sharding, run beside the GUI.
void MainWindow::outlineUnsharded(const Scenario& scenario) {
    if (scenario.sharding == Sharding::None || scenario.parallelism_mode() != Parallelism::Data) {
        unsharded_job_->cancel();
        return;
    }
    Scenario s = scenario;
    s.sharding = Sharding::None;
    s.clock = ClockKind::Modelled; // the bytes are the same on either clock
    unsharded_job_->start([s](const std::atomic<bool>&) { return peak_after_one_step(s).worker; },
                          [this](const WorkerMemory& worker) { memory_->setUnsharded(worker); },
                          [this](const QString& message) {
                              showStatus(
                                  tr("The Memory view has no unsharded outline: %1").arg(message));
                          });
}

bool MainWindow::memoryPending() const {
    return unsharded_job_->busy();
}

std::int64_t MainWindow::playheadStep() const {
    const auto step = session_.traceIndex().step_at(session_.playback().playhead());
    return step ? step->step : 0;
}

// The worker menu's offers for this run: what it cannot take, greyed, with the reason.
void MainWindow::updateWorkerMenu() {
    cluster_->setWorkerMenu(session_.workerMenu());
}

bool MainWindow::speedupPending() const {
    return sweeper_->isComputing();
}

// The Speedup view's points for `scenario` at 1, 2, 4, ... workers and at its own count.
void MainWindow::sweep(const Scenario& scenario) {
    std::vector<int> counts;
    for (int n : {1, 2, 4, 8, 16, 32})
        if (n <= std::max(scenario.workers, 8))
            counts.push_back(n);
    if (std::find(counts.begin(), counts.end(), scenario.workers) == counts.end())
        counts.push_back(scenario.workers);
    std::sort(counts.begin(), counts.end());
    sweeper_->request(scenario, counts);
}

void MainWindow::onTraceAppended(bool first, Ticks first_step_end) {
    updateScrubber();
    if (first) // show a few steps at a time: enough to see waiting, big enough to read
        timeline_->setVisibleRange(0, std::max<Ticks>(1000, 3 * first_step_end));
    if (!session_.branches().isEmpty())
        showBranchMarks(); // a mark waits for its step to come back after a branch
}

void MainWindow::onRunFinished() {
    updateScrubber();
}

void MainWindow::showRestoreComparison() {
    checkpoints_->setComparisonNote(session_.comparisonNote());
    checkpoints_->setRestoreComparison(session_.restoreComparison());
}

void MainWindow::onPlayhead(Ticks t) {
    audio_->follow(session_.traceIndex(), t);
    updateScrubber();
}

void MainWindow::updateScrubber() {
    const views::TraceIndex& index = session_.traceIndex();
    const Ticks end = index.end_time();
    const Ticks t = session_.playback().playhead();
    if (!scrubber_->isSliderDown())
        scrubber_->setValue(end > 0 ? static_cast<int>(t * 1000 / end) : 0);
    // The playhead's step, the one the cluster's header names too.
    const auto step = index.step_at(t);
    time_label_->setText(tr("t = %1 s of %2 s · step %3")
                             .arg(views::display_number(to_seconds(t), 'f', 4),
                                  views::display_number(to_seconds(end), 'f', 4))
                             .arg(step ? step->step : 0));
}

void MainWindow::onBranched() {
    showBranchMarks();
    updateScrubber();
}

void MainWindow::showBranchMarks() {
    QList<views::TimelineView::BranchMark> marks;
    for (const LabSession::Branch& b : session_.branches()) {
        // A change to one worker is marked in its lane, a change to the whole run across all.
        const bool run_wide = fault_kind(b.change.kind).whole_run;
        marks.append({session_.markTime(b), b.label, run_wide ? -1 : b.change.worker});
    }
    timeline_->setBranchMarks(marks);
}

} // namespace lockstep::app
