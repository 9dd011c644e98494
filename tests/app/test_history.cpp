#include "lab/lesson_pane.h"
#include "lab/main_window.h"

#include "lockstep_views/recovery_caption.h"
#include "lockstep_views/timeline_view.h"
#include "lockstep_views/training_view.h"

#include <QtTest>

#include <vector>

using lockstep::StepSnapshot;
using lockstep::Ticks;
using lockstep::TraceEvent;
using lockstep::app::MainWindow;

namespace {

std::vector<TraceEvent> events_of(const MainWindow& w) {
    const auto e = w.traceIndex().events();
    return {e.begin(), e.end()};
}

bool same_events(const std::vector<TraceEvent>& a, const std::vector<TraceEvent>& b) {
    if (a.size() != b.size())
        return false;
    for (std::size_t i = 0; i < a.size(); ++i)
        if (a[i].start != b[i].start || a[i].end != b[i].end || a[i].worker != b[i].worker ||
            a[i].kind != b[i].kind || a[i].ordinal != b[i].ordinal)
            return false;
    return true;
}

double final_loss(const MainWindow& w) {
    return w.traceIndex().snapshots().back().loss;
}

// The middle of executed step `ordinal` on the run's clock.
Ticks middle_of(const MainWindow& w, std::int64_t ordinal) {
    const auto start = w.traceIndex().start_of(ordinal);
    const auto next = w.traceIndex().start_of(ordinal + 1);
    return start && next ? (start->start + next->start) / 2 : 0;
}

std::int64_t playhead_step(MainWindow& w) {
    return w.traceIndex().ordinal_starting_from(w.playback().playhead());
}

// A lesson in a headless window: every run and change goes to its end at once.
void open(MainWindow& window, const QString& lesson) {
    window.setHeadless(true);
    QVERIFY(window.openLesson(lesson, nullptr, false));
    window.runToCompletion();
}

} // namespace

// What a click does wherever the playhead stands, and how undo and redo take it back: the run,
// its settings and the playhead's step.
class TestHistory : public QObject {
    Q_OBJECT
    // A home of its own: the settings the lab remembers (the last lesson and exercise) are not
    // shared with the other tests running beside it.
    QTemporaryDir home_;
private Q_SLOTS:
    void initTestCase() {
        QVERIFY(home_.isValid());
        qputenv("HOME", home_.path().toUtf8());
    }
    void a_link_at_the_end_replays_the_run_from_step_0();
    void restore_kind_at_the_end_changes_the_recovery();
    void undo_and_redo_restore_the_playheads_step();
    void a_page_links_crash_can_be_undone_and_redone();
    void a_slowdown_shows_in_the_controls();
    void a_recovery_explains_itself();
    void the_last_lesson_reopens();
    void the_ring_back_on_depends_on_where_the_run_stands();
    void a_broadcast_brings_the_replicas_together();
};

// Reductions: played to the end, "sum" changes the whole run, not only its last step; the run
// before stays as the faint line and the class sees it from step 0.
void TestHistory::a_link_at_the_end_replays_the_run_from_step_0() {
    MainWindow window;
    open(window, QStringLiteral("reductions"));
    const std::vector<TraceEvent> original = events_of(window);
    const double before = final_loss(window);
    const auto steps = window.traceIndex().snapshots().size();
    window.playback().scrubTo(window.traceIndex().end_time());
    QVERIFY(window.lessonPane()->activateLink(QStringLiteral("lockstep:set?rule=sum")));
    QCOMPARE(window.session().branches().size(), qsizetype(1));
    QCOMPARE(window.session().branches().front().ordinal, std::int64_t(0));
    QCOMPARE(window.traceIndex().snapshots().size(), steps);
    QVERIFY(qAbs(final_loss(window) - before) > 1e-3);
    // From the first steps on, not at the last one (step 0's loss is taken before any update).
    QVERIFY(window.traceIndex().snapshots()[2].loss != window.session().replacedLoss()[2].y());
    QCOMPARE(window.session().replacedLoss().size(), qsizetype(steps));
    QCOMPARE(window.trainingView()->branchedLossPoints().size(), qsizetype(steps));
    QCOMPARE(window.playback().playhead(), Ticks(0));
    QVERIFY(window.session().canUndo());
    QVERIFY(window.undoIntervention());
    QVERIFY(same_events(events_of(window), original));
    QCOMPARE(window.playback().playhead(), window.traceIndex().end_time());
    QCOMPARE(window.session().scenario().rule, lockstep::ReductionRule::WeightedMean);
}

// Checkpoints, the page in order: the crash at step 12, played through, then "restore the
// weights alone" at the end: the run is played again and its recovery differs.
void TestHistory::restore_kind_at_the_end_changes_the_recovery() {
    MainWindow window;
    open(window, QStringLiteral("checkpoints"));
    QVERIFY(window.lessonPane()->activateLink(QStringLiteral("lockstep:crash?worker=1&step=12")));
    QCOMPARE(window.session().scenario().failures.events.size(), std::size_t(1));
    const double full = final_loss(window);
    window.playback().scrubTo(window.traceIndex().end_time());
    QVERIFY(
        window.lessonPane()->activateLink(QStringLiteral("lockstep:restore?mode=weights-only")));
    QCOMPARE(window.session().scenario().checkpoint->restore, lockstep::RestoreMode::WeightsOnly);
    QVERIFY2(qAbs(final_loss(window) - full) > 1e-4,
             qPrintable(QStringLiteral("%1 vs %2").arg(final_loss(window)).arg(full)));
}

// A click mid-run, the playhead moved on, undo: the run and the playhead's step as they were
// when the click was made; redo: the change again, the playhead where it was before the undo.
void TestHistory::undo_and_redo_restore_the_playheads_step() {
    MainWindow window;
    open(window, QStringLiteral("stragglers"));
    const std::vector<TraceEvent> original = events_of(window);
    window.playback().scrubTo(middle_of(window, 20));
    const std::int64_t clicked = playhead_step(window);
    lockstep::Intervention crash;
    crash.kind = lockstep::Intervention::Kind::Crash;
    crash.worker = 2;
    QVERIFY(window.intervene(crash, QStringLiteral("worker 2 crashed")));
    const std::vector<TraceEvent> changed = events_of(window);
    QVERIFY(!same_events(changed, original));
    window.playback().scrubTo(middle_of(window, 35));
    const std::int64_t later = playhead_step(window);
    QVERIFY(later != clicked);

    QVERIFY(window.undoIntervention());
    QVERIFY(same_events(events_of(window), original));
    QCOMPARE(playhead_step(window), clicked);
    QVERIFY(window.playback().playhead() <= window.traceIndex().end_time());
    QVERIFY(window.session().branches().isEmpty());
    QVERIFY(!window.session().canUndo());
    QVERIFY(window.session().canRedo());

    QVERIFY(window.redoIntervention());
    QVERIFY(same_events(events_of(window), changed));
    QCOMPARE(playhead_step(window), later);
    QCOMPARE(window.session().branches().size(), qsizetype(1));
    QVERIFY(!window.session().canRedo());
}

// The crash a page link writes into the scenario starts the run again; Ctrl+Z brings the run
// before it back, Ctrl+Shift+Z the crash.
void TestHistory::a_page_links_crash_can_be_undone_and_redone() {
    MainWindow window;
    open(window, QStringLiteral("checkpoints"));
    const std::vector<TraceEvent> original = events_of(window);
    window.playback().scrubTo(middle_of(window, 5));
    const std::int64_t at = playhead_step(window);
    QVERIFY(window.lessonPane()->activateLink(QStringLiteral("lockstep:crash?worker=1&step=12")));
    const std::vector<TraceEvent> crashed = events_of(window);
    QVERIFY(!same_events(crashed, original));
    QVERIFY(!window.session().replacedLoss().isEmpty()); // the run before, as the faint line
    QVERIFY(window.session().canUndo());
    QVERIFY(window.undoIntervention());
    QVERIFY(window.session().scenario().failures.events.empty());
    QVERIFY(same_events(events_of(window), original));
    QCOMPARE(playhead_step(window), at);
    QVERIFY(window.redoIntervention());
    QCOMPARE(window.session().scenario().failures.events.size(), std::size_t(1));
    QVERIFY(same_events(events_of(window), crashed));
}

// A worker slowed by a click: the Controls' slowdowns say so, and undo gives them back.
void TestHistory::a_slowdown_shows_in_the_controls() {
    MainWindow window;
    open(window, QStringLiteral("introduction"));
    window.playback().scrubTo(middle_of(window, 3));
    QVERIFY(window.lessonPane()->activateLink(QStringLiteral("lockstep:slow?worker=1&factor=5")));
    QCOMPARE(window.session().scenario().slowdown_of(1), 5.0);
    QVERIFY(window.undoIntervention());
    QCOMPARE(window.session().scenario().slowdown_of(1), 1.0);
}

// Checkpoints, crash at step 12: while the heartbeat is awaited, the caption says so and when it
// times out; after it, which checkpoint is loaded and how much work is redone; once step 12 is
// reached again, nothing. The steps named are the trace's own.
void TestHistory::a_recovery_explains_itself() {
    MainWindow window;
    open(window, QStringLiteral("checkpoints"));
    QVERIFY(window.lessonPane()->activateLink(QStringLiteral("lockstep:crash?worker=1&step=12")));
    const lockstep::TraceEvent* failed = nullptr;
    const lockstep::TraceEvent* detect = nullptr;
    const lockstep::TraceEvent* restore = nullptr;
    for (const auto& e : window.traceIndex().storage_events()) {
        if (e.kind == lockstep::EventKind::Failed && !failed)
            failed = &e;
        if (e.kind == lockstep::EventKind::Detect && !detect)
            detect = &e;
        if (e.kind == lockstep::EventKind::Restore && !restore)
            restore = &e;
    }
    QVERIFY(failed && detect && restore);
    QCOMPARE(failed->step, std::int64_t(12));
    const auto& index = window.traceIndex();
    const QString waiting = lockstep::views::recovery_caption(index, failed->start + 1);
    QVERIFY2(waiting.contains(QStringLiteral("Worker 1 stopped in step 12")), qPrintable(waiting));
    QVERIFY(waiting.contains(QStringLiteral("heartbeat")));
    const QString loading = lockstep::views::recovery_caption(index, restore->start + 1);
    QVERIFY2(loading.contains(QStringLiteral("checkpoint of step %1").arg(restore->round)),
             qPrintable(loading));
    // How the workers agree on it: one scan, the newest complete checkpoint, the same for all.
    QVERIFY2(loading.contains(QStringLiteral("newest complete checkpoint")), qPrintable(loading));
    QVERIFY(loading.contains(QStringLiteral("every worker loads that same one")));
    QVERIFY(loading.contains(
        QStringLiteral("%1 steps of work are done again").arg(12 - restore->round + 1)));
    QVERIFY(lockstep::views::recovery_caption(index, failed->start - 1).isEmpty());
    QVERIFY(lockstep::views::recovery_caption(index, index.end_time()).isEmpty());
    // The playhead's step, named once: in the crash's step, step 12.
    QCOMPARE(index.step_at(failed->start + 1)->step, std::int64_t(12));
    // The timeline says it too, in its lanes and to a screen reader, while it happens.
    window.resize(1280, 720);
    window.show();
    window.playback().scrubTo(restore->start + 1);
    QCOMPARE(window.timelineView()->recoveryText(), loading);
    QVERIFY(window.timelineView()->accessibleDescription().contains(loading));
    window.playback().scrubTo(index.end_time());
    QVERIFY(window.timelineView()->recoveryText().isEmpty());
}

// A student working alone: the next start opens the lesson they were in.
void TestHistory::the_last_lesson_reopens() {
    {
        MainWindow window;
        QVERIFY(window.openLesson(QStringLiteral("speedup"), nullptr, false));
    }
    MainWindow again;
    QVERIFY(again.openLastLesson());
    QCOMPARE(again.lessonPane()->currentLesson()->id, QStringLiteral("speedup"));
    // And the exercise the student was on.
    const auto& exercises = again.lessonPane()->currentLesson()->exercises;
    QVERIFY(exercises.size() >= 3);
    QCOMPARE(again.lessonPane()->currentExercise(), exercises[0].key());
    QVERIFY(again.lessonPane()->selectExercise(exercises[2].bank, exercises[2].question));
    MainWindow third;
    QVERIFY(third.openLastLesson());
    QCOMPARE(third.lessonPane()->currentExercise(), exercises[2].key());
}

// Data parallelism, as its page says: synchronisation off, then the ring back on. At the end of
// the run the run is played again with the ring and the replicas stay equal throughout; in the
// middle, the replicas already apart stay apart.
void TestHistory::the_ring_back_on_depends_on_where_the_run_stands() {
    for (const bool at_end : {true, false}) {
        MainWindow window;
        open(window, QStringLiteral("data-parallelism"));
        window.playback().scrubTo(middle_of(window, 50));
        QVERIFY(window.lessonPane()->activateLink(QStringLiteral("lockstep:set?algorithm=none")));
        QVERIFY(!window.traceIndex().snapshots().back().replicas_aligned);
        window.playback().scrubTo(at_end ? window.traceIndex().end_time() : middle_of(window, 120));
        QVERIFY(window.lessonPane()->activateLink(QStringLiteral("lockstep:set?algorithm=ring")));
        const auto& snaps = window.traceIndex().snapshots();
        if (at_end) {
            for (const auto& s : snaps)
                QVERIFY(s.replicas_aligned);
        } else {
            QVERIFY(!snaps.back().replicas_aligned);
            QVERIFY(snaps.back().replica_spread > 0);
        }
    }
}

// Mid-run, the ring back on and then worker 0's parameters copied to every worker, as real
// data-parallel training starts: from that step on the replicas are equal again, the copy went
// through the collective (tree broadcast messages in the trace), and Undo takes it back.
void TestHistory::a_broadcast_brings_the_replicas_together() {
    MainWindow window;
    open(window, QStringLiteral("data-parallelism"));
    window.playback().scrubTo(middle_of(window, 50));
    QVERIFY(window.lessonPane()->activateLink(QStringLiteral("lockstep:set?algorithm=none")));
    window.playback().scrubTo(middle_of(window, 120));
    QVERIFY(window.lessonPane()->activateLink(QStringLiteral("lockstep:set?algorithm=ring")));
    QVERIFY(!window.traceIndex().snapshots().back().replicas_aligned);
    window.playback().scrubTo(middle_of(window, 150));
    QVERIFY(window.lessonPane()->activateLink(QStringLiteral("lockstep:broadcast")));
    const auto& snaps = window.traceIndex().snapshots();
    for (const auto& s : snaps) {
        if (s.step >= 120 && s.step < 151)
            QVERIFY2(!s.replicas_aligned, qPrintable(QString::number(s.step)));
        if (s.step >= 151)
            QVERIFY2(s.replicas_aligned, qPrintable(QString::number(s.step)));
    }
    // The copy: the parameters and SGD's momentum (the velocity, as long again) go from worker 0
    // down a tree and reach the three others in step 151, and in no step before; the ring's
    // messages carry a quarter of the parameters.
    const lockstep::Scenario& running = window.session().scenario();
    QVERIFY(running.optimizer.kind == lockstep::OptimizerKind::Sgd &&
            running.optimizer.momentum > 0);
    const auto whole =
        static_cast<std::int64_t>(2 * running.model.parameter_count() * sizeof(double));
    auto copies = [&](std::int64_t step, lockstep::EventKind kind) {
        int n = 0;
        for (int k = 0; k < window.traceIndex().workers(); ++k)
            for (const auto& e : window.traceIndex().lane(k))
                n += e.step == step && e.kind == kind && e.bytes == whole;
        return n;
    };
    QCOMPARE(copies(151, lockstep::EventKind::Receive), 3);
    QCOMPARE(copies(151, lockstep::EventKind::Send), 3); // 0 to 2, then 0 to 1 and 2 to 3
    QCOMPARE(copies(150, lockstep::EventKind::Receive), 0);
    const auto marks = window.timelineView()->branchMarks();
    QCOMPARE(marks.back().lane, -1); // a change to the whole run
    QVERIFY(window.undoIntervention());
    QVERIFY(!window.traceIndex().snapshots().back().replicas_aligned);

    // Without the ring the copy does not last: in the same step each applies its own gradient.
    MainWindow alone;
    open(alone, QStringLiteral("data-parallelism"));
    alone.playback().scrubTo(middle_of(alone, 50));
    QVERIFY(alone.lessonPane()->activateLink(QStringLiteral("lockstep:set?algorithm=none")));
    alone.playback().scrubTo(middle_of(alone, 150));
    QVERIFY(alone.lessonPane()->activateLink(QStringLiteral("lockstep:broadcast")));
    for (const auto& s : alone.traceIndex().snapshots())
        if (s.step >= 51)
            QVERIFY2(!s.replicas_aligned, qPrintable(QString::number(s.step)));
}

QTEST_MAIN(TestHistory)
#include "test_history.moc"
