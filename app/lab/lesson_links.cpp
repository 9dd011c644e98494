// What a lesson's lockstep: links do in the lab, each through the session as a click would.
#include "main_window.h"

#include "change_description.h"
#include "lesson_pane.h"
#include "run_comparer.h"

#include "core/error.h"
#include "lockstep_lessons/lesson.h"
#include "lockstep_views/names.h"
#include "lockstep_views/numbers.h"
#include "lockstep_views/timeline_view.h"

#include <QCoreApplication>
#include <QDir>

#include <algorithm>

namespace lockstep::app {

void MainWindow::applyLessonAction(const lessons::Action& action) {
    using lessons::ActionKind;
    Playback& playback = session_.playback();
    const Scenario& current = session_.scenario();
    try {
        switch (action.kind) {
        case ActionKind::Play:
            playback.play();
            showStatus(tr("Playing from step %1.").arg(playheadStep()));
            break;
        case ActionKind::Pause:
            playback.pause();
            showStatus(tr("Paused at step %1.").arg(playheadStep()));
            break;
        case ActionKind::Step:
            playback.stepForward();
            showStatus(tr("At the next event: step %1, t = %2 s.")
                           .arg(playheadStep())
                           .arg(views::display_number(to_seconds(playback.playhead()), 'f', 3)));
            break;
        case ActionKind::Reset:
            playback.reset();
            showStatus(tr("Back at the start of the run."));
            break;
        case ActionKind::Run:
            session_.rerunWithChange(current);
            showStatus(tr("The run starts again from step 0."));
            break;
        case ActionKind::Set: {
            Scenario s = current;
            lessons::apply_set(action, s);
            const QString what = describe_change(current, s);
            session_.changeScenario(s, what.isEmpty() ? tr("the page's settings") : what);
            break;
        }
        case ActionKind::Fault:
            applyLessonFault(action);
            break;
        case ActionKind::View: {
            QWidget* v = view(action.text(QStringLiteral("name")));
            bringViewToFront(action.text(QStringLiteral("name")));
            showStatus(tr("In front: %1.").arg(v == timeline_ ? tr("the timeline") : tabTitle(v)));
            break;
        }
        case ActionKind::Scenario: {
            const lessons::Lesson* l = lesson_pane_->currentLesson();
            const QString path = l ? QDir(l->dir).filePath(action.text(QStringLiteral("file")))
                                   : action.text(QStringLiteral("file"));
            if (openScenario(path))
                runScenario(current);
            break;
        }
        case ActionKind::Replay: {
            const lessons::Lesson* l = lesson_pane_->currentLesson();
            openRecording(l ? QDir(l->dir).filePath(action.text(QStringLiteral("file")))
                            : action.text(QStringLiteral("file")));
            break;
        }
        case ActionKind::Checkpoint: {
            Scenario s = current;
            s.checkpoint = s.checkpoint.value_or(CheckpointConfig{});
            s.checkpoint->every = action.integer(QStringLiteral("every"));
            if (action.has(QStringLiteral("restore")))
                parse_restore_mode(action.text(QStringLiteral("restore")).toStdString(),
                                   s.checkpoint->restore);
            validate(s);
            session_.rerunWithChange(s);
            showStatus(tr("From step 0 again, with a checkpoint after every %1 steps.")
                           .arg(s.checkpoint->every));
            break;
        }
        case ActionKind::Restore: {
            // From the playhead on, crashes are recovered with the other restore mode.
            Scenario s = current;
            s.checkpoint = s.checkpoint.value_or(CheckpointConfig{});
            parse_restore_mode(action.text(QStringLiteral("mode")).toStdString(),
                               s.checkpoint->restore);
            validate(s);
            session_.changeScenario(s, s.checkpoint->restore == RestoreMode::Full
                                           ? tr("restores bring back the whole state")
                                           : tr("restores bring back the weights alone"));
            break;
        }
        case ActionKind::Pipeline: {
            // The same model and batch, split into stages and micro-batches.
            Scenario s = current;
            ParallelismConfig p;
            p.mode = Parallelism::Pipeline;
            p.stages = action.integer(QStringLiteral("stages"));
            p.microbatches = action.integer(QStringLiteral("microbatches"));
            if (action.has(QStringLiteral("schedule")))
                parse_pipeline_schedule(action.text(QStringLiteral("schedule")).toStdString(),
                                        p.schedule);
            s.parallelism = p;
            s.workers = p.lanes();
            s.failures = {};
            s.checkpoint.reset();
            validate(s);
            session_.rerunWithChange(s);
            bringViewToFront(QStringLiteral("pipeline"));
            showStatus(tr("A pipeline of %1 stages, %2 micro-batches per batch (%3).")
                           .arg(p.stages)
                           .arg(p.microbatches)
                           .arg(views::schedule_name(p.schedule)));
            break;
        }
        case ActionKind::Compare: {
            const auto names = [&](const char* key) {
                return action.text(QLatin1String(key)).split(QLatin1Char(','));
            };
            if (action.has(QStringLiteral("sync"))) {
                std::vector<SyncMode> modes;
                for (const QString& name : names("sync")) {
                    SyncMode m{};
                    parse_sync_mode(name.toStdString(), m);
                    modes.push_back(m);
                }
                const int staleness = action.integer(QStringLiteral("staleness"), 2);
                const int local = action.integer(QStringLiteral("local_steps"), 4);
                compare(tr("Ways of agreeing"), [&](const Scenario& s) {
                    return RunComparer::ways(s, modes, staleness, local);
                });
            } else if (action.has(QStringLiteral("precision"))) {
                std::vector<Precision> formats;
                for (const QString& name : names("precision")) {
                    Precision p{};
                    parse_precision(name.toStdString(), p);
                    formats.push_back(p);
                }
                compare(tr("Number formats"),
                        [&](const Scenario& s) { return RunComparer::precisions(s, formats); });
            } else {
                std::vector<WirePrecision> formats;
                for (const QString& name : names("comm_precision")) {
                    WirePrecision w{};
                    parse_wire_precision(name.toStdString(), w);
                    formats.push_back(w);
                }
                compare(tr("Number formats"),
                        [&](const Scenario& s) { return RunComparer::wireFormats(s, formats); });
            }
            break;
        }
        case ActionKind::Quiz:
        case ActionKind::Calculator:
        case ActionKind::Study:
            lesson_pane_->applyAction(action); // the lesson pane's own, and its message
            break;
        }
        // A link that changes how the run trains shows it: the run plays on from the change.
        switch (action.kind) {
        case ActionKind::Run:
        case ActionKind::Scenario:
        case ActionKind::Set:
        case ActionKind::Fault:
        case ActionKind::Restore:
            if (!session_.headless())
                playback.play();
            // Where the class sees the change: the lesson's own view, if a tool or another
            // tab has covered every one of them.
            if (const lessons::Lesson* l = lesson_pane_->currentLesson()) {
                const bool seen =
                    std::any_of(l->views.begin(), l->views.end(), [&](const QString& n) {
                        const QWidget* v = view(n);
                        return v && v->isVisible() && !v->visibleRegion().isEmpty();
                    });
                if (!seen && !l->views.isEmpty())
                    bringViewToFront(l->views.front());
            }
            break;
        default:
            break;
        }
    } catch (const Error& e) {
        showStatus(QString::fromStdString(e.what()));
        tell(tr("Not possible"), QString::fromStdString(e.what()));
    }
}

// The Pipeline view's offer for a run that is not a pipeline: the same model in up to four stages
// (no more than it has layers), the batch in up to eight micro-batches.
// The current scenario as it started, without what a crash or a checkpoint would add (every
// variant trains the same data the same number of steps), made into `variants` and trained off
// the GUI thread; refused with the reason in the status bar.
void MainWindow::compare(const QString& what, const RunVariants& variants) {
    Scenario s = session_.scenario();
    if (s.model_parallel()) {
        showStatus(tr("%1 are compared on data parallelism; this run is a pipeline or "
                      "tensor-parallel run.")
                       .arg(what));
        return;
    }
    s.failures = {};
    s.checkpoint.reset();
    try {
        comparer_->request(variants(s));
    } catch (const Error& e) {
        showStatus(tr("No comparison: %1").arg(QString::fromStdString(e.what())));
        return;
    }
    showStatus(tr("%1: training the scenario once for each…").arg(what));
}

void MainWindow::runAsPipeline() {
    const Scenario& s = session_.scenario();
    const int layers = static_cast<int>(s.model.layers.size()) - 1;
    const int stages = std::clamp(layers, 1, 4);
    const int microbatches = static_cast<int>(std::min<std::size_t>(8, s.batch));
    applyLessonAction(
        lessons::parse_action(QStringLiteral("lockstep:pipeline?stages=%1&microbatches=%2")
                                  .arg(stages)
                                  .arg(microbatches)));
}

// A lesson's fault link (lockstep:slow?worker=2&factor=3): the change of the kind its id names,
// at the playhead as a click on the worker makes it, with the link's amount and in its words. A
// crash at a given step is written into the scenario instead, and the run starts again, so the
// same link always crashes at the same point and the class sees the same recovery.
void MainWindow::applyLessonFault(const lessons::Action& action) {
    const FaultKind* kind = find_fault_kind(action.fault.toStdString());
    if (!kind)
        return; // parse_action() names only the kinds
    const Scenario& current = session_.scenario();
    // The whole run's changes go from worker 0.
    Intervention change = session_.faultOn(*kind, lessons::action_worker(action).value_or(0));
    if (!kind->whole_run && change.worker >= current.workers) {
        showStatus(tr("There is no worker %1 in this scenario.").arg(change.worker));
        return;
    }
    if (action.has(QStringLiteral("phase")))
        parse_crash_phase(action.text(QStringLiteral("phase")).toStdString(), change.phase);
    const QString phase = QString::fromStdString(std::string(to_string(change.phase)));
    if (action.has(QStringLiteral("step"))) {
        FailureSpec crash;
        crash.worker = change.worker;
        crash.phase = change.phase;
        crash.step = action.integer(QStringLiteral("step"));
        Scenario s = current;
        s.failures.events.push_back(crash);
        validate(s);
        session_.rerunWithChange(s);
        showStatus(tr("From step 0 again: worker %1 will crash (%2) at step %3. Watch the "
                      "others wait for its heartbeat, then recover.")
                       .arg(crash.worker)
                       .arg(phase)
                       .arg(crash.step));
        return;
    }
    const bool given = kind->amount_name && action.has(QLatin1String(kind->amount_name));
    if (given)
        change.amount = action.number(QLatin1String(kind->amount_name));
    const char* words =
        kind->link_text && (given || !kind->done_text) ? kind->link_text : kind->done_text;
    QString what =
        words ? QCoreApplication::translate("Fault", words).arg(change.worker) : action.fault;
    if (given)
        what = what.arg(views::display_number(change.amount));
    if (action.has(QStringLiteral("phase")))
        what = tr("%1 (%2)").arg(what, phase);
    intervene(change, what);
}

} // namespace lockstep::app
