#include "lab/controls_panel.h"
#include "lab/engine_controller.h"
#include "lab/main_window.h"
#include "lab/playback.h"

#include "lockstep_views/checkpoint_view.h"
#include "lockstep_views/cluster_view.h"
#include "lockstep_views/palette.h"
#include "lockstep_views/timeline_view.h"
#include "runs/restore_comparison.h"
#include "runs/runs.h"

#include <QAction>
#include <QApplication>
#include <QElapsedTimer>
#include <QLabel>
#include <QMenu>
#include <QMessageBox>
#include <QProcess>
#include <QSignalSpy>
#include <QTemporaryDir>
#include <QTimer>
#include <QtTest>

#include <map>

using lockstep::EventKind;
using lockstep::Ticks;
using lockstep::views::WorkerActivity;

namespace {

QString scenario_path(const char* name) {
    return QStringLiteral(LOCKSTEP_SOURCE_DIR "/resources/scenarios/") + QLatin1String(name);
}

// The straggler scenario shortened to a few steps: worker 2 computes 3x slower.
lockstep::Scenario straggler(int steps = 4) {
    auto s = lockstep::load_scenario(scenario_path("straggler.json").toStdString());
    s.steps = steps;
    return s;
}

// Shows the window and streams the short straggler run into it, to the end.
bool run_straggler_in(lockstep::app::MainWindow& window) {
    window.resize(1400, 900);
    window.show();
    QSignalSpy finished(&window.controller(), &lockstep::app::EngineController::runFinished);
    window.runScenario(straggler());
    return finished.wait(30000) || finished.count() == 1;
}

// The first Wait event of `worker` that lasts longer than `at_least`.
const lockstep::TraceEvent* first_wait(const lockstep::views::TraceIndex& index, int worker,
                                       Ticks at_least = 0) {
    for (const auto& e : index.lane(worker))
        if (e.kind == EventKind::Wait && e.end - e.start > at_least)
            return &e;
    return nullptr;
}

// Share of pixels in `rect` close to `colour`.
double share_of(const QImage& image, const QRect& rect, const QColor& colour) {
    int hits = 0, total = 0;
    for (int y = rect.top(); y <= rect.bottom(); ++y)
        for (int x = rect.left(); x <= rect.right(); ++x) {
            if (!image.rect().contains(x, y))
                continue;
            const QColor c = image.pixelColor(x, y);
            ++total;
            if (std::abs(c.red() - colour.red()) < 30 &&
                std::abs(c.green() - colour.green()) < 30 &&
                std::abs(c.blue() - colour.blue()) < 30)
                ++hits;
        }
    return total ? double(hits) / total : 0.0;
}

} // namespace

// The lab window as a class uses it: a real run streamed from the engine thread, the playhead
// moving the views, a click reaching the engine, bad files refused.
class TestLabWindow : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void controller_streams_the_whole_trace();
    void batches_hold_whole_steps_and_spread_a_burst();
    void views_follow_the_playhead();
    void scrubbing_back_and_reset_restore_the_picture();
    void keyboard_drives_playback();
    void clicking_slow_down_reaches_the_engine();
    void clicking_crash_reaches_the_engine();
    void crash_during_checkpoint_needs_checkpoints();
    void checkpoint_view_follows_the_run();
    void finished_crash_is_rerun_with_both_restores();
    void long_runs_are_paced_and_windowed();
    void stopping_does_not_wait_for_real_sleeps();
    void bad_scenario_keeps_the_previous_one();
    void headless_screenshot_of_a_view();
    void headless_rejects_bad_arguments_data();
    void headless_rejects_bad_arguments();
};

void TestLabWindow::controller_streams_the_whole_trace() {
    const auto scenario = straggler(30);
    lockstep::Trace expected;
    const auto reference =
        lockstep::make_run(scenario, lockstep::load_dataset(scenario), &expected);
    reference->run_to_end();

    lockstep::app::EngineController controller;
    QVector<lockstep::TraceEvent> events;
    QVector<lockstep::StepSnapshot> snapshots;
    int batches = 0;
    connect(&controller, &lockstep::app::EngineController::traceBatch, this,
            [&](const QVector<lockstep::TraceEvent>& e, const QVector<lockstep::StepSnapshot>& s) {
                events += e;
                snapshots += s;
                ++batches;
            });
    QSignalSpy finished(&controller, &lockstep::app::EngineController::runFinished);
    controller.start(scenario);
    QTRY_COMPARE_WITH_TIMEOUT(finished.count(), 1, 30000);
    QVERIFY(batches >= 1);
    // The GUI got exactly what the engine did, in order, whatever the batching.
    QCOMPARE(std::size_t(events.size()), expected.events().size());
    for (qsizetype i = 0; i < events.size(); ++i) {
        const auto& a = events[i];
        const auto& b = expected.events()[std::size_t(i)];
        QVERIFY(a.worker == b.worker && a.kind == b.kind && a.start == b.start && a.end == b.end);
    }
    QCOMPARE(std::size_t(snapshots.size()), expected.snapshots().size());
    QCOMPARE(snapshots.back().parameter_hash, expected.snapshots().back().parameter_hash);
    QCOMPARE(controller.finalParameters(), reference->parameters());
}

// A 32-worker run, the playhead held at the start: the engine runs far ahead at once, and the
// controller hands that burst over a few steps a frame, never splitting a step between batches.
void TestLabWindow::batches_hold_whole_steps_and_spread_a_burst() {
    using lockstep::app::EngineController;
    lockstep::Scenario s;
    s.workers = 32;
    s.steps = 30; // within what the engine may run ahead of a playhead at 0, so it finishes

    EngineController controller;
    std::vector<QVector<lockstep::TraceEvent>> batches;
    connect(&controller, &EngineController::traceBatch, this,
            [&](const QVector<lockstep::TraceEvent>& e, const QVector<lockstep::StepSnapshot>&) {
                if (!e.isEmpty())
                    batches.push_back(e);
            });
    QSignalSpy finished(&controller, &EngineController::runFinished);
    controller.start(s);
    QTRY_COMPARE_WITH_TIMEOUT(finished.count(), 1, 60000);

    std::map<std::int64_t, qsizetype> per_step;
    for (const auto& batch : batches)
        for (const auto& e : batch)
            ++per_step[e.step];
    QCOMPARE(per_step.size(), std::size_t(s.steps));
    qsizetype step_events = 0; // the most events any one step makes
    for (const auto& [step, count] : per_step)
        step_events = std::max(step_events, count);

    std::int64_t handed = -1;
    for (const auto& batch : batches) {
        QVERIFY2(batch.front().step > handed, "a step was split between two batches");
        const bool lead = handed >= EngineController::kLeadSteps; // the playhead stayed at 0
        const qsizetype budget =
            lead ? EngineController::kEventsPerFrameAhead : EngineController::kMaxEventsPerFrame;
        QVERIFY2(batch.size() < budget + step_events,
                 qPrintable(QStringLiteral("a batch of %1 events after step %2")
                                .arg(batch.size())
                                .arg(handed)));
        handed = batch.back().step;
    }
    // The burst was spread: once the views held enough steps, a batch took about one step.
    QVERIFY(batches.size() > std::size_t(s.steps - EngineController::kLeadSteps) / 2);
}

void TestLabWindow::views_follow_the_playhead() {
    lockstep::app::MainWindow window;
    QVERIFY(run_straggler_in(window));

    const auto& index = window.traceIndex();
    const lockstep::TraceEvent* wait = first_wait(index, 0, 1000);
    QVERIFY(wait);
    // Inside the wait, worker 0 is drawn waiting and worker 2 (the straggler) computing.
    const Ticks middle = (wait->start + wait->end) / 2;
    window.playback().scrubTo(middle);
    QCOMPARE(window.playback().playhead(), middle);
    QCOMPARE(window.clusterView()->playhead(), middle);
    QCOMPARE(window.timelineView()->playhead(), middle);
    const auto glyphs = window.clusterView()->glyphs();
    QCOMPARE(glyphs.size(), 4);
    QCOMPARE(glyphs[0].activity, WorkerActivity::Waiting);
    QCOMPARE(glyphs[2].activity, WorkerActivity::Computing);

    // The timeline draws that wait exactly over its interval.
    const QRectF r = window.timelineView()->eventRect(*wait);
    QVERIFY(std::abs(r.left() - window.timelineView()->xForTime(wait->start)) < 1.0);
    QVERIFY(std::abs(r.right() - window.timelineView()->xForTime(wait->end)) < 1.0);

    // And the cluster picture shows the waiting colour on worker 0.
    const QImage image = window.clusterView()->grab().toImage();
    const QPointF c = glyphs[0].centre * image.devicePixelRatio();
    const int radius = int(glyphs[0].radius * 0.5);
    const QRect disc(int(c.x()) - radius, int(c.y()) - radius, 2 * radius, 2 * radius);
    const QColor waiting = lockstep::views::style_for(WorkerActivity::Waiting).colour;
    const QColor computing = lockstep::views::style_for(WorkerActivity::Computing).colour;
    const QPointF c2 = glyphs[2].centre * image.devicePixelRatio();
    const QRect disc2(int(c2.x()) - radius, int(c2.y()) - radius, 2 * radius, 2 * radius);
    QVERIFY2(share_of(image, disc, waiting) > 0.2, "worker 0 is not drawn in the waiting colour");
    QVERIFY2(share_of(image, disc2, waiting) < 0.05, "the straggler is drawn waiting");
    QVERIFY2(share_of(image, disc2, computing) > 0.2, "the straggler is not drawn computing");
}

void TestLabWindow::scrubbing_back_and_reset_restore_the_picture() {
    lockstep::app::MainWindow window;
    QVERIFY(run_straggler_in(window));
    const lockstep::TraceEvent* wait = first_wait(window.traceIndex(), 0, 1000);
    QVERIFY(wait);

    auto picture = [&] { return window.clusterView()->grab().toImage(); };
    window.playback().scrubTo((wait->start + wait->end) / 2);
    const QImage during = picture();
    window.playback().scrubTo(window.traceIndex().end_time());
    const QImage after = picture();
    QVERIFY(during != after);
    window.playback().scrubTo((wait->start + wait->end) / 2);
    QCOMPARE(picture(), during); // scrubbing back restores the earlier picture exactly

    window.playback().scrubTo(1);
    const QImage start = picture();
    window.playback().scrubTo(window.traceIndex().end_time());
    window.playback().reset();
    QCOMPARE(window.playback().playhead(), Ticks{0});
    QVERIFY(!window.playback().playing());
    window.playback().scrubTo(1);
    QCOMPARE(picture(), start);
}

void TestLabWindow::keyboard_drives_playback() {
    lockstep::app::MainWindow window;
    window.show();
    QVERIFY(QTest::qWaitForWindowExposed(&window));
    window.runToCompletion();
    window.activateWindow();
    // A view that uses none of the playback keys itself (the cluster and the timeline use arrows).
    window.view(QStringLiteral("training"))->setFocus();
    auto& playback = window.playback();
    playback.reset();

    QTest::keyClick(&window, Qt::Key_Right);
    const Ticks first = playback.playhead();
    QVERIFY(first > 0); // the next event starts after 0
    QTest::keyClick(&window, Qt::Key_Right);
    QVERIFY(playback.playhead() > first);
    QTest::keyClick(&window, Qt::Key_Left);
    QCOMPARE(playback.playhead(), first);
    QTest::keyClick(&window, Qt::Key_Space);
    QVERIFY(playback.playing());
    QTRY_VERIFY(playback.playhead() > first);
    QTest::keyClick(&window, Qt::Key_Space);
    QVERIFY(!playback.playing());
    QTest::keyClick(&window, Qt::Key_BracketRight);
    QCOMPARE(playback.speed(), 2.0);
    for (int i = 0; i < 6; ++i)
        QTest::keyClick(&window, Qt::Key_BracketRight);
    QCOMPARE(playback.speed(), 8.0); // capped
    QTest::keyClick(&window, Qt::Key_R);
    QCOMPARE(playback.playhead(), Ticks{0});
}

void TestLabWindow::clicking_slow_down_reaches_the_engine() {
    lockstep::app::MainWindow window;
    window.resize(1200, 800);
    window.show();
    auto scenario = straggler(200000); // long enough to still be running when the click comes
    scenario.delays.slowdown.clear();
    window.runScenario(scenario);
    QTRY_VERIFY(!window.traceIndex().snapshots().empty());

    // The user's click: the worker's menu, "Slow down 3x".
    QMenu* menu = window.clusterView()->buildWorkerMenu(1);
    QAction* slow = nullptr;
    for (QAction* a : menu->actions())
        if (a->data().toString() == QLatin1String("slow")) // not "Slow its link"
            slow = a;
    QVERIFY(slow);
    slow->trigger();
    delete menu;

    // From some step on, worker 1 computes exactly 3x as long as worker 0, and the others wait.
    auto slowed_step = [&]() -> std::int64_t {
        std::map<std::int64_t, Ticks> w0;
        for (const auto& e : window.traceIndex().lane(0))
            if (e.kind == EventKind::Compute)
                w0[e.step] = e.end - e.start;
        for (const auto& e : window.traceIndex().lane(1))
            if (e.kind == EventKind::Compute && w0.count(e.step) &&
                e.end - e.start == 3 * w0[e.step])
                return e.step;
        return -1;
    };
    // The engine runs a bounded distance ahead of the playhead, so keep the playhead at the end.
    auto follow_and_check = [&] {
        window.playback().scrubTo(window.traceIndex().end_time());
        return slowed_step() >= 0;
    };
    QTRY_VERIFY_WITH_TIMEOUT(follow_and_check(), 20000);
    window.controller().stop();
    const auto step = slowed_step();
    bool others_wait = false;
    for (const auto& e : window.traceIndex().lane(0))
        others_wait =
            others_wait || (e.kind == EventKind::Wait && e.step == step && e.end - e.start > 0);
    QVERIFY(others_wait);
}

// "Crash" on a worker: the engine kills it, the others wait for the heartbeat, everyone reads the
// newest checkpoint back, and the views draw the dead worker failed over that interval.
void TestLabWindow::clicking_crash_reaches_the_engine() {
    lockstep::app::MainWindow window;
    window.resize(1200, 800);
    window.show();
    auto scenario = straggler(200000);
    scenario.delays.slowdown.clear();
    scenario.checkpoint = lockstep::CheckpointConfig{5, 2, false, lockstep::RestoreMode::Full};
    window.runScenario(scenario);
    QVERIFY(!window.controller().checkpointDirectory().isEmpty());
    QTRY_VERIFY(window.traceIndex().snapshots().size() > 12);
    // The crash strikes at the playhead: after step 12, so there is a checkpoint to go back to.
    window.playback().scrubTo(window.traceIndex().snapshots()[12].time);

    QMenu* menu = window.clusterView()->buildWorkerMenu(2);
    QAction* crash = nullptr;
    for (QAction* a : menu->actions())
        if (a->data().toString() == QLatin1String("crash"))
            crash = a;
    QVERIFY(crash);
    crash->trigger();
    delete menu;

    auto failed = [&]() -> const lockstep::TraceEvent* {
        for (const auto& e : window.traceIndex().lane(2))
            if (e.kind == EventKind::Failed)
                return &e;
        return nullptr;
    };
    auto follow_and_check = [&] {
        window.playback().scrubTo(window.traceIndex().end_time());
        return failed() != nullptr;
    };
    QTRY_VERIFY_WITH_TIMEOUT(follow_and_check(), 20000);
    window.controller().stop();
    const lockstep::TraceEvent down = *failed();
    // The controller kept the click as the engine took it, for a rerun to meet the same crash.
    const auto injected = window.controller().injectedFailures();
    QCOMPARE(injected.size(), std::size_t(1));
    QCOMPARE(injected.front().kind, lockstep::FailureKind::Crash);
    QCOMPARE(injected.front().worker, 2);
    QCOMPARE(injected.front().step, down.step);
    // The others waited for worker 2 until the heartbeat declared it dead, then restored.
    bool waited = false, restored = false;
    for (const auto& e : window.traceIndex().lane(0)) {
        waited = waited || (e.kind == EventKind::Wait && e.peer == 2 && e.start >= down.start);
        restored = restored || (e.kind == EventKind::Restore && e.start >= down.start);
    }
    QVERIFY(waited);
    QVERIFY(restored);
    // In the middle of the failed interval, the views show worker 2 failed.
    const Ticks mid = down.start + (down.end - down.start) / 2;
    QCOMPARE(window.traceIndex().activity_at(2, mid), WorkerActivity::Failed);
    QCOMPARE(window.traceIndex().activity_at(0, mid), WorkerActivity::Waiting);
    window.playback().scrubTo(mid);
    QCOMPARE(window.clusterView()->glyphs().at(2).activity, WorkerActivity::Failed);
}

void TestLabWindow::checkpoint_view_follows_the_run() {
    // Worker 2 dies writing step 20 and worker 1's file of step 16 is damaged: the Checkpoints
    // tab shows the shelf the run left and the scan that went back to step 12.
    lockstep::app::MainWindow window;
    QVERIFY(lockstep::app::MainWindow::viewNames().contains(QStringLiteral("checkpoints")));
    auto* view =
        qobject_cast<lockstep::views::CheckpointView*>(window.view(QStringLiteral("checkpoints")));
    QVERIFY(view);
    QCOMPARE(view->accessibleName(), QStringLiteral("Checkpoints view"));
    window.resize(1400, 900);
    window.show();
    QSignalSpy finished(&window.controller(), &lockstep::app::EngineController::runFinished);
    window.runScenario(
        lockstep::load_scenario(scenario_path("checkpoint-crash.json").toStdString()));
    QVERIFY(finished.wait(30000) || finished.count() == 1);
    QCOMPARE(view->trace(), &window.traceIndex());

    lockstep::Ticks verify = -1;
    for (const auto& e : window.traceIndex().storage_events())
        if (e.kind == EventKind::Verify)
            verify = e.start;
    QVERIFY(verify > 0);
    window.playback().scrubTo(verify);
    QCOMPARE(view->playhead(), verify);
    const auto walk = view->restoreWalk(view->playhead());
    QCOMPARE(walk.verdicts.size(), std::size_t{3});
    QVERIFY(walk.chosen && *walk.chosen == 12);
    const auto shelf = view->shelf(view->playhead());
    QCOMPARE(shelf.checkpoints.back().step, 20);
    QCOMPARE(shelf.checkpoints.back().status, lockstep::views::ShelfStatus::Partial);
}

// After a run with a crash, the Checkpoints tab gets the crash rerun with both restores: its
// "full" curve is the run the class just watched, step for step.
void TestLabWindow::finished_crash_is_rerun_with_both_restores() {
    lockstep::app::MainWindow window;
    window.resize(1200, 800);
    window.show();
    auto* view =
        qobject_cast<lockstep::views::CheckpointView*>(window.view(QStringLiteral("checkpoints")));
    QVERIFY(view);
    QSignalSpy finished(&window.controller(), &lockstep::app::EngineController::runFinished);
    QSignalSpy ready(&window.restoreComparer(), &lockstep::app::RestoreComparer::ready);
    window.runScenario(lockstep::load_scenario(scenario_path("crash-recovery.json").toStdString()));
    QVERIFY(!view->restoreComparison());
    QVERIFY(view->comparisonNote().contains(QStringLiteral("both restores")));
    QVERIFY(finished.wait(30000) || finished.count() == 1);
    QTRY_COMPARE_WITH_TIMEOUT(ready.count(), 1, 60000);
    QVERIFY(view->restoreComparison());
    const lockstep::RestoreComparison& c = *view->restoreComparison();
    QCOMPARE(c.crash_step, std::int64_t(25));
    QCOMPARE(c.restored_step, std::int64_t(20));
    QVERIFY(c.full_identical);
    QVERIFY(!c.weights_only_identical);
    QVERIFY(view->comparisonNote().isEmpty());
    // The run as the window holds it: the later attempt at each step counts.
    std::map<std::int64_t, double> watched;
    for (const auto& snapshot : window.traceIndex().snapshots())
        watched[snapshot.step] = snapshot.loss;
    QCOMPARE(watched.size(), c.full.steps.size());
    for (std::size_t i = 0; i < c.full.steps.size(); ++i)
        QCOMPARE(watched.at(c.full.steps[i]), c.full.loss[i]);

    // A run without a crash says how to get one; a new run forgets the old comparison.
    auto plain = straggler(6);
    plain.checkpoint = lockstep::CheckpointConfig{};
    window.runScenario(plain);
    QVERIFY(!view->restoreComparison());
    QVERIFY(view->comparisonNote().contains(QStringLiteral("Crash a worker")));
}

void TestLabWindow::crash_during_checkpoint_needs_checkpoints() {
    lockstep::app::MainWindow window;
    auto scenario = straggler(200000);
    window.runScenario(scenario); // no checkpoint policy
    QString why;
    QVERIFY(!window.controller().injectFault(1, QStringLiteral("crash-checkpoint"), &why));
    QVERIFY(why.contains(QLatin1String("saves no checkpoints")));
    QVERIFY(!window.controller().injectFault(1, QStringLiteral("explode"), &why));
    QVERIFY(why.contains(QLatin1String("no action")));
    QVERIFY(window.controller().injectFault(1, QStringLiteral("crash"), &why));
    window.controller().stop();
    // The worker's menu offers it greyed, with the same reason, rather than a refusal later.
    std::unique_ptr<QMenu> menu(window.clusterView()->buildWorkerMenu(1));
    bool seen = false;
    for (QAction* a : menu->actions())
        if (a->data().toString() == QLatin1String("crash-checkpoint")) {
            seen = true;
            QVERIFY(!a->isEnabled());
            QVERIFY(a->toolTip().contains(QLatin1String("saves no checkpoints")));
        } else if (a->data().toString() == QLatin1String("bucket-order")) {
            QVERIFY(!a->isEnabled()); // one bucket: no order to get wrong
        } else if (!a->data().toString().isEmpty()) {
            QVERIFY(a->isEnabled());
        }
    QVERIFY(seen);
}

// A long run paced by the playhead: the engine stays a bounded number of steps ahead of it, and
// the index lets go of steps far behind it, so memory stays flat.
void TestLabWindow::long_runs_are_paced_and_windowed() {
    lockstep::app::MainWindow window;
    window.show();
    lockstep::Scenario s;
    s.workers = 8;
    s.steps = 1'000'000;
    window.runScenario(s);
    QTRY_VERIFY(!window.traceIndex().snapshots().empty());
    // With the playhead held at the start, the engine stops a bounded way ahead.
    // (However slow this machine, the count stops growing: every reading for 300 ms agrees. The
    // engine's sleep shows nowhere but in the count, so "stopped" is "unchanged for a while".)
    std::size_t held = 0;
    QElapsedTimer unchanged;
    auto settled = [&] {
        const auto now = window.traceIndex().snapshots().size();
        if (!unchanged.isValid() || now != held) {
            held = now;
            unchanged.start();
        }
        return unchanged.elapsed() >= 300;
    };
    QTRY_VERIFY_WITH_TIMEOUT(settled(), 120000);
    QVERIFY(held < std::size_t(s.steps));
    QVERIFY(window.controller().running());
    QVERIFY(window.traceIndex().events().size() <=
            2 * std::size_t(lockstep::app::EngineController::kAheadEvents));

    // Moving the playhead on lets it run further; old steps are forgotten past the budget.
    auto forgets_old_steps = [&] {
        window.playback().scrubTo(window.traceIndex().end_time());
        return window.traceIndex().first_retained_snapshot() > 0;
    };
    QTRY_VERIFY_WITH_TIMEOUT(forgets_old_steps(), 60000);
    QVERIFY(window.traceIndex().snapshots().size() > held);
    QVERIFY(window.traceIndex().events().size() < 2 * lockstep::app::MainWindow::kRetainedEvents);
    // The playhead cannot be scrubbed into forgotten steps.
    window.playback().scrubTo(0);
    QCOMPARE(window.playback().playhead(), window.traceIndex().earliest_retained_time());
    window.controller().stop();
}

// On the measured clock a pause is a real sleep; stopping the run must not sit through it.
void TestLabWindow::stopping_does_not_wait_for_real_sleeps() {
    lockstep::app::EngineController controller;
    lockstep::Scenario s;
    s.workers = 2;
    s.steps = 50;
    s.clock = lockstep::ClockKind::Measured;
    s.delays.pauses = {{1, 1, 60.0}}; // a minute-long stall at step 1
    int snapshots = 0;
    lockstep::Ticks step0_end = 0;
    connect(&controller, &lockstep::app::EngineController::traceBatch, this,
            [&](const auto&, const QVector<lockstep::StepSnapshot>& snaps) {
                if (snapshots == 0 && !snaps.isEmpty())
                    step0_end = snaps.front().time;
                snapshots += int(snaps.size());
            });
    QElapsedTimer since_start;
    since_start.start();
    controller.start(s);
    QTRY_VERIFY(snapshots >= 1);
    // Step 1's stall shows nowhere until the step ends. Its work takes microseconds, so once
    // the wall clock is 50 ms past step 0's end (on the run's measured clock, which started
    // after `since_start`) with step 1 not back, the engine sleeps in the stall.
    QTRY_VERIFY(since_start.nsecsElapsed() > step0_end + 50'000'000);
    QCOMPARE(snapshots, 1);
    QElapsedTimer timer;
    timer.start();
    controller.stop();
    QVERIFY2(timer.elapsed() < 20000, "stop() sat through the pause");
    QVERIFY(!controller.running());
}

void TestLabWindow::bad_scenario_keeps_the_previous_one() {
    lockstep::app::MainWindow window;
    QString error;
    QVERIFY(window.openScenario(scenario_path("straggler.json"), &error, true));
    const auto before = window.controls()->scenario();

    QTemporaryDir dir;
    const QString bad = dir.filePath(QStringLiteral("bad.json"));
    QFile file(bad);
    QVERIFY(file.open(QIODevice::WriteOnly));
    file.write(R"({"workers": 4, "model": {"layers": [2, 0, 3]}})");
    file.close();

    // The dialog names the field; closing it leaves the old scenario in place.
    QString dialog_text;
    QTimer::singleShot(0, this, [&] {
        QTRY_VERIFY(QApplication::activeModalWidget());
        auto* box = qobject_cast<QMessageBox*>(QApplication::activeModalWidget());
        QVERIFY(box);
        dialog_text = box->text();
        box->accept();
    });
    QVERIFY(!window.openScenario(bad, &error));
    QVERIFY(error.contains(QLatin1String("model.layers[1]")));
    QVERIFY(dialog_text.contains(QLatin1String("model.layers[1]")));
    QVERIFY(dialog_text.contains(QLatin1String("previous scenario")));
    const auto after = window.controls()->scenario();
    QCOMPARE(after.name, before.name);
    QCOMPARE(after.delays.slowdown, before.delays.slowdown);
    QCOMPARE(after.model.layers, before.model.layers);
}

void TestLabWindow::headless_screenshot_of_a_view() {
    QTemporaryDir dir;
    const QString out = dir.filePath(QStringLiteral("cluster.png"));
    QProcess gui;
    gui.setProcessEnvironment(QProcessEnvironment::systemEnvironment());
    gui.start(QStringLiteral(LOCKSTEP_GUI_PATH),
              {QStringLiteral("--scenario"), scenario_path("straggler.json"),
               QStringLiteral("--view"), QStringLiteral("cluster"), QStringLiteral("--play-to"),
               QStringLiteral("0.0025"), QStringLiteral("--size"), QStringLiteral("800x600"),
               QStringLiteral("--screenshot"), out});
    QVERIFY(gui.waitForFinished(60000));
    QCOMPARE(gui.exitCode(), 0);
    QImage image(out);
    QVERIFY(!image.isNull());
    QCOMPARE(image.size(), QSize(800, 600));
    // At 2.5 ms, in the first step, the fast workers have finished computing and wait for worker 2.
    QVERIFY(share_of(image, image.rect(),
                     lockstep::views::style_for(WorkerActivity::Waiting).colour) > 0.005);
    QVERIFY(share_of(image, image.rect(),
                     lockstep::views::style_for(WorkerActivity::Computing).colour) > 0.002);
}

void TestLabWindow::headless_rejects_bad_arguments_data() {
    QTest::addColumn<QStringList>("args");
    QTest::addColumn<QString>("fragment");
    QTest::newRow("unknown view") << QStringList{"--view", "nope", "--screenshot", "x.png"}
                                  << "--view";
    QTest::newRow("bad play-to") << QStringList{"--play-to", "soon", "--screenshot", "x.png"}
                                 << "--play-to";
    QTest::newRow("bad size") << QStringList{"--size", "9x9", "--screenshot", "x.png"} << "--size";
    QTest::newRow("missing scenario")
        << QStringList{"--scenario", "/nonexistent.json", "--screenshot", "x.png"}
        << "/nonexistent.json";
    QTest::newRow("view without screenshot") << QStringList{"--view", "cluster"} << "--screenshot";
}

void TestLabWindow::headless_rejects_bad_arguments() {
    QFETCH(QStringList, args);
    QFETCH(QString, fragment);
    QTemporaryDir dir;
    QProcess gui;
    gui.setWorkingDirectory(dir.path());
    gui.start(QStringLiteral(LOCKSTEP_GUI_PATH), args);
    QVERIFY(gui.waitForFinished(60000));
    QVERIFY(gui.exitCode() != 0);
    const QString err = QString::fromUtf8(gui.readAllStandardError());
    QVERIFY2(err.contains(fragment), qPrintable(err));
    QVERIFY(!QFile::exists(dir.filePath(QStringLiteral("x.png"))));
}

QTEST_MAIN(TestLabWindow)
#include "test_lab_window.moc"
