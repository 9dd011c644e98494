// How the lab window shows its session: a scenario or recording opened, a run started, its trace
// arriving, the playhead moving, branches and their marks, the sweep and the restore comparison.

#include "main_window.h"

#include "audio_description.h"
#include "controls_panel.h"
#include "mode_comparer.h"
#include "speedup_sweeper.h"

#include "lockstep_views/checkpoint_view.h"
#include "lockstep_views/cluster_view.h"
#include "lockstep_views/comparison_view.h"
#include "lockstep_views/numbers.h"
#include "lockstep_views/pipeline_view.h"
#include "lockstep_views/speedup_view.h"
#include "lockstep_views/timeline_view.h"
#include "lockstep_views/training_view.h"

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
    connect(&session_, &LabSession::scenarioChanged, controls_, &ControlsPanel::setScenario);
    connect(&session_, &LabSession::runRetuned, this, [this](const Scenario& running) {
        checkpoints_->setRestoreMode(running.checkpoint ? running.checkpoint->restore
                                                        : RestoreMode::Full);
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
    // A comparison belongs to the scenario it was made of: a new run takes it away.
    connect(&session_, &LabSession::runStarted, this, [this] { training_->setComparison({}); });
    connect(comparer_, &ModeComparer::finished, this, [this] {
        QList<views::TrainingView::ComparisonLine> lines;
        QStringList said;
        for (const ModeComparer::Line& l : comparer_->lines()) {
            lines.append({tr("%1 · %2 s").arg(l.name).arg(l.total_s, 0, 'g', 2), l.loss});
            said << tr("%1 %2 s, final loss %3")
                        .arg(l.name)
                        .arg(l.total_s, 0, 'g', 2)
                        .arg(l.final_loss, 0, 'g', 2);
        }
        training_->setComparison(lines);
        bringViewToFront(QStringLiteral("training"));
        showStatus(tr("Compared on the modelled clock, the whole run each: %1.")
                       .arg(said.join(QStringLiteral("; "))));
    });
    connect(comparer_, &ModeComparer::failed, this,
            [this](const QString& message) { showStatus(tr("No comparison: %1").arg(message)); });
    connect(&session_, &LabSession::runFailed, this, [this](const QString& message) {
        QMessageBox::warning(this, tr("Run failed"), message);
    });
    connect(&session_, &LabSession::refused, this, [this](const QString& why) {
        showStatus(why);
        QMessageBox::information(this, tr("Not possible"), why);
    });
    connect(&session_, &LabSession::cannotRun, this, [this](const QString& message) {
        QMessageBox::warning(this, tr("Cannot run"), message);
    });
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

void MainWindow::onRunStarted(const Scenario& scenario) {
    audio_->reset();
    const views::TraceIndex* index = &session_.traceIndex();
    const int lanes = scenario.lanes();
    cluster_->setParallelism(scenario.parallelism.value_or(ParallelismConfig{}));
    cluster_->setTrace(index);
    timeline_->setTrace(index);
    training_->setTrace(index);
    pipeline_->setStages(scenario.parallelism ? scenario.parallelism->stages : 0);
    pipeline_->setParallelism(scenario.parallelism ? scenario.parallelism->mode
                                                   : Parallelism::Data);
    pipeline_->setIndex(index);
    if (scenario.parallelism && (scenario.parallelism->mode == Parallelism::Pipeline ||
                                 scenario.parallelism->mode == Parallelism::Hybrid))
        side_tabs_->setCurrentWidget(pipeline_);
    training_->clearModel();
    if (lanes != fitted_lanes_)
        fitTimeline();
    showBranchMarks();
    checkpoints_->setTrace(index);
    checkpoints_->setRestoreMode(scenario.checkpoint ? scenario.checkpoint->restore
                                                     : RestoreMode::Full);
    sweep(scenario);
}

std::int64_t MainWindow::playheadStep() const {
    const auto step = session_.traceIndex().step_at(session_.playback().playhead());
    return step ? step->step : 0;
}

// The run's mean step so far, in seconds on its clock (a first guess before any step).
double MainWindow::stepSeconds() const {
    const auto& snaps = session_.traceIndex().snapshots();
    return snaps.empty() ? 0.01 : to_seconds(snaps.back().time) / static_cast<double>(snaps.size());
}

// The worker menu's offers for this run: what it cannot take, greyed, with the reason.
void MainWindow::updateWorkerMenu() {
    QMap<QString, QString> unavailable;
    for (const FaultKind* kind : fault_kinds())
        if (const auto change = make_intervention(kind->id, 0, 0, 1.0); change && kind->menu_text) {
            const QString why = session_.controller().refusal(*change);
            if (!why.isEmpty())
                unavailable.insert(QString::fromLatin1(kind->id), why);
        }
    cluster_->setWorkerMenu(unavailable);
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
    speedup_->setRunWorkers(scenario.workers);
    sweeper_->request(scenario, counts);
}

void MainWindow::onTraceAppended(bool first, Ticks first_step_end) {
    updateScrubber();
    if (first) // show a few steps at a time: enough to see waiting, big enough to read
        timeline_->setVisibleRange(0, std::max<Ticks>(1000, 3 * first_step_end));
    if (!session_.branches().isEmpty())
        showBranchMarks(); // a mark waits for its step to come back after a branch
    cluster_->refresh();
    timeline_->refresh();
    // The loss charts cost several milliseconds to rebuild: a few times a second is enough for
    // curves that move a pixel a step, and keeps frames coming while the engine streams.
    if (!training_refreshed_.isValid() || training_refreshed_.elapsed() >= 150) {
        training_->refresh();
        training_refreshed_.start();
    }
    checkpoints_->refresh();
    pipeline_->refresh();
}

void MainWindow::onRunFinished() {
    training_->refresh(); // the last steps, whatever the throttle held back
    const EngineController& controller = session_.controller();
    if (!session_.recordingNote().isEmpty()) {
        // A recording: its own model and data, and no figures of the engine's last live run.
        if (session_.recordingData())
            training_->setModel(session_.scenario().model, session_.recordingParameters(),
                                session_.recordingData());
        else
            training_->clearModel();
        updateScrubber();
        return;
    }
    comparison_->addRun({session_.runLabel(), controller.metrics()});
    training_->setModel(session_.scenario().model, controller.finalParameters(),
                        controller.dataset());
    updateScrubber();
}

void MainWindow::showRestoreComparison() {
    checkpoints_->setComparisonNote(session_.comparisonNote());
    checkpoints_->setRestoreComparison(session_.restoreComparison());
}

void MainWindow::onPlayhead(Ticks t) {
    audio_->follow(session_.traceIndex(), t);
    cluster_->setPlayhead(t);
    timeline_->setPlayhead(t);
    training_->setPlayhead(t);
    checkpoints_->setPlayhead(t);
    pipeline_->setPlayhead(t);
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
    cluster_->refresh();
    timeline_->refresh();
    training_->refresh();
    checkpoints_->refresh();
    pipeline_->refresh();
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
