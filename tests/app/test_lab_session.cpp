#include "lab/lab_session.h"

#include "failures/intervention.h"
#include "scenario/scenario.h"
#include "trace/trace.h"

#include <QSignalSpy>
#include <QtTest>

#include "trace_support.h"

#include <vector>

using lockstep::EventKind;
using lockstep::Intervention;
using lockstep::Scenario;
using lockstep::StepSnapshot;
using lockstep::Ticks;
using lockstep::TraceEvent;
using lockstep::app::LabSession;
using namespace lockstep::testing;

namespace {

// A small run: four workers, worker 2 a straggler, 30 steps on the modelled clock.
Scenario small_scenario(int steps = 30) {
    Scenario s;
    s.name = "lab";
    s.workers = 4;
    s.steps = steps;
    s.delays.slowdown = {1, 1, 3, 1};
    return s;
}

std::vector<TraceEvent> events_of(const LabSession& session) {
    const auto e = session.traceIndex().events();
    return {e.begin(), e.end()};
}

// Runs (or branches) until the session says the run is finished.
bool finishes(QSignalSpy& finished, int count) {
    return finished.count() >= count || (finished.wait(60000) && finished.count() >= count);
}

// The middle of executed step `ordinal` on the run's clock, seen from lane 0.
Ticks middle_of(const LabSession& session, std::int64_t ordinal) {
    Ticks from = -1, to = -1;
    for (const auto& e : session.traceIndex().lane(0))
        if (e.ordinal == ordinal) {
            from = from < 0 ? e.start : std::min(from, e.start);
            to = std::max(to, e.end);
        }
    return from + (to - from) / 2;
}

Ticks compute_time(const std::vector<TraceEvent>& events, int worker, std::int64_t ordinal) {
    for (const auto& e : events)
        if (e.worker == worker && e.kind == EventKind::Compute && e.ordinal == ordinal)
            return e.end - e.start;
    return 0;
}

} // namespace

// The session without a window: a run, an intervention at the playhead, its undo, a retune, and
// the memory policy, read from what the session states.
class TestLabSession : public QObject {
    Q_OBJECT

private Q_SLOTS:
    // An intervention in the middle of step 9 takes effect at step 10: the trace before it stays
    // bit for bit, the change is in step 10, the branch is marked there with what replaced it,
    // and undo gives the run back exactly.
    void an_intervention_branches_at_the_playhead_data() {
        QTest::addColumn<int>("kind");
        QTest::addColumn<int>("worker");
        QTest::addRow("slow worker 1") << int(Intervention::Kind::Slow) << 1;
        QTest::addRow("pause worker 1") << int(Intervention::Kind::Pause) << 1;
        QTest::addRow("crash worker 2") << int(Intervention::Kind::Crash) << 2;
    }
    void an_intervention_branches_at_the_playhead() {
        QFETCH(int, kind);
        QFETCH(int, worker);
        LabSession session;
        QSignalSpy finished(&session, &LabSession::runFinished);
        QSignalSpy branches(&session, &LabSession::branchesChanged);
        QVERIFY(session.run(small_scenario()));
        QVERIFY(finishes(finished, 1));
        QVERIFY(session.runComplete());
        const std::vector<TraceEvent> original = events_of(session);
        const std::vector<StepSnapshot> snapshots = session.traceIndex().snapshots();
        QCOMPARE(snapshots.size(), std::size_t(30));
        QCOMPARE(session.runLabel(), QStringLiteral("lab (4 workers, ring)"));

        session.playback().scrubTo(middle_of(session, 9));
        QCOMPARE(session.interventionPoint(), std::int64_t(10));
        Intervention change;
        change.kind = static_cast<Intervention::Kind>(kind);
        change.worker = worker;
        change.amount = change.kind == Intervention::Kind::Pause ? 5.0 : 3.0;
        QVERIFY(session.intervene(change, QStringLiteral("the change")));
        QCOMPARE(branches.count(), 1);
        QCOMPARE(session.branches().size(), qsizetype(1));
        QCOMPARE(session.branches().front().ordinal, std::int64_t(10));
        QCOMPARE(session.branches().front().label, QStringLiteral("step 10: the change"));
        QVERIFY(session.canUndo());
        QVERIFY(!session.runComplete()); // the branch's steps are still to come
        // What the run did from step 10 on before the change.
        const QList<QPointF>& replaced = session.replacedLoss();
        QCOMPARE(replaced.size(), qsizetype(20));
        QCOMPARE(replaced.front(), QPointF(10, snapshots[10].loss));
        QCOMPARE(replaced.back(), QPointF(29, snapshots[29].loss));

        QVERIFY(finishes(finished, 2));
        const std::vector<TraceEvent> now = events_of(session);
        QVERIFY(same_events(before(now, 10), before(original, 10)));
        QVERIFY(!same_events(now, original));
        const auto start = session.traceIndex().start_of(10);
        QVERIFY(start);
        QCOMPARE(session.markTime(session.branches().front()), start->start);
        QCOMPARE(session.runLabel(), QStringLiteral("lab (4 workers, ring) · step 10: the change"));
        // The change itself, in step 10 and not before.
        switch (change.kind) {
        case Intervention::Kind::Slow:
            QCOMPARE(compute_time(now, worker, 9), compute_time(original, worker, 9));
            QCOMPARE(std::round(double(compute_time(now, worker, 10)) /
                                double(compute_time(original, worker, 10)) * 100),
                     300.0);
            break;
        default: {
            const EventKind fault =
                change.kind == Intervention::Kind::Pause ? EventKind::Pause : EventKind::Failed;
            std::int64_t first = -1;
            for (const auto& e : now)
                if (e.worker == worker && e.kind == fault && first < 0)
                    first = e.ordinal;
            QCOMPARE(first, std::int64_t(10));
        }
        }

        QVERIFY(session.undo());
        QCOMPARE(branches.count(), 2);
        QVERIFY(session.branches().isEmpty());
        QVERIFY(session.replacedLoss().isEmpty());
        QVERIFY(!session.canUndo());
        QVERIFY(finishes(finished, 3));
        QVERIFY(same_events(events_of(session), original));
        QCOMPARE(session.runLabel(), QStringLiteral("lab (4 workers, ring)"));
    }

    // What the run cannot take changes nothing, and says why.
    void a_refused_intervention_changes_nothing() {
        LabSession session;
        QSignalSpy finished(&session, &LabSession::runFinished);
        QSignalSpy refused(&session, &LabSession::refused);
        QVERIFY(session.run(small_scenario()));
        QVERIFY(finishes(finished, 1));
        const std::vector<TraceEvent> original = events_of(session);
        session.playback().scrubTo(middle_of(session, 9));
        Intervention change;
        change.kind = Intervention::Kind::Crash;
        change.worker = 9; // there are four
        QString why;
        QVERIFY(!session.intervene(change, QStringLiteral("worker 9 crashed"), &why));
        QVERIFY(!why.isEmpty());
        QCOMPARE(refused.count(), 1);
        QCOMPARE(refused.front().front().toString(), why);
        QVERIFY(session.branches().isEmpty());
        QVERIFY(!session.canUndo());
        QVERIFY(session.runComplete());
        QVERIFY(same_events(events_of(session), original));
    }

    // The engine runs ahead of the class: its summary ("Finished 30 steps...") waits until the
    // playhead reaches the run's end, and comes once; there the playback stops.
    void the_finished_summary_waits_for_the_playhead() {
        LabSession session;
        QSignalSpy finished(&session, &LabSession::runFinished);
        QSignalSpy said(&session, &LabSession::status);
        QVERIFY(session.run(small_scenario()));
        QVERIFY(finishes(finished, 1));
        const auto summaries = [&] {
            int n = 0;
            for (const auto& args : said)
                n += args.front().toString().startsWith(QStringLiteral("Finished 30 steps"));
            return n;
        };
        QVERIFY(session.playback().playhead() < session.traceIndex().end_time());
        QCOMPARE(summaries(), 0);
        session.playback().scrubTo(middle_of(session, 20));
        session.playback().play();
        QCOMPARE(summaries(), 0);
        session.playback().scrubTo(session.traceIndex().end_time());
        QCOMPARE(summaries(), 1);
        QVERIFY(!session.playback().playing()); // the end of the run stops the playback
        QVERIFY(said.back().front().toString().contains(QStringLiteral("final loss")));
        session.playback().scrubTo(0);
        session.playback().scrubTo(session.traceIndex().end_time());
        QCOMPARE(summaries(), 1);
    }

    // A click on a worker: the menu offers every kind a worker can take, greyed with the reason
    // where this run cannot take it; a choice branches at the playhead in the kind's words, and
    // the current scenario shows what it set.
    void a_click_on_a_worker_offers_and_takes_each_kind() {
        LabSession session;
        QSignalSpy finished(&session, &LabSession::runFinished);
        QVERIFY(session.run(small_scenario()));
        QVERIFY(finishes(finished, 1));
        QStringList offered, kinds;
        QString checkpoint_refusal, order_refusal;
        for (const lockstep::views::WorkerAction& offer : session.workerMenu()) {
            offered << offer.id;
            QVERIFY(!offer.text.isEmpty());
            if (offer.id == QLatin1String("crash-checkpoint"))
                checkpoint_refusal = offer.unavailable;
            else if (offer.id == QLatin1String("bucket-order"))
                order_refusal = offer.unavailable;
            else
                QVERIFY2(offer.unavailable.isEmpty(), qPrintable(offer.id));
        }
        for (const lockstep::FaultKind* kind : lockstep::fault_kinds())
            if (kind->menu_text)
                kinds << QString::fromLatin1(kind->id);
        QCOMPARE(offered, kinds);
        QVERIFY(!checkpoint_refusal.isEmpty()); // the scenario writes no checkpoints
        QVERIFY(order_refusal.contains(QLatin1String("one bucket"))); // nor buckets

        session.playback().scrubTo(middle_of(session, 9));
        QVERIFY(!session.workerAction(1, QStringLiteral("explode")));
        QVERIFY(session.branches().isEmpty());
        QVERIFY(session.workerAction(1, QStringLiteral("slow")));
        QCOMPARE(session.branches().size(), 1);
        QCOMPARE(session.branches().front().ordinal, 10);
        QVERIFY(session.branches().front().label.endsWith(QStringLiteral("worker 1 slowed 3×")));
        QCOMPARE(session.scenario().delays.slowdown.at(1), 3.0);
        QVERIFY(finishes(finished, 2));
        const Ticks slowed = compute_time(events_of(session), 1, 10);
        const Ticks usual = compute_time(events_of(session), 0, 10);
        QVERIFY(usual > 0);
        QVERIFY2(std::abs(slowed - 3 * usual) <= 3, qPrintable(QString::number(slowed)));
    }

    // A setting that can change mid-run changes at the playhead, in the run and in the current
    // scenario; undo takes it back. One only a new run takes starts the run again.
    void a_retune_at_the_playhead_and_its_undo() {
        LabSession session;
        QSignalSpy finished(&session, &LabSession::runFinished);
        QSignalSpy scenarios(&session, &LabSession::scenarioChanged);
        QVERIFY(session.run(small_scenario()));
        QVERIFY(finishes(finished, 1));
        const std::vector<StepSnapshot> original = session.traceIndex().snapshots();
        session.playback().scrubTo(middle_of(session, 9));
        Scenario changed = session.scenario();
        changed.rule = lockstep::ReductionRule::Sum;
        changed.algorithm = lockstep::Algorithm::Tree;
        session.changeScenario(changed, QStringLiteral("rule → sum"));
        QCOMPARE(scenarios.count(), 1);
        QCOMPARE(session.scenario().rule, lockstep::ReductionRule::Sum);
        QCOMPARE(session.controller().scenario().algorithm, lockstep::Algorithm::Tree);
        QCOMPARE(session.branches().size(), qsizetype(1));
        QCOMPARE(session.branches().front().label, QStringLiteral("step 10: rule → sum"));
        QVERIFY(finishes(finished, 2));
        const auto& now = session.traceIndex().snapshots();
        QCOMPARE(now.size(), original.size());
        for (std::size_t k = 0; k <= 10; ++k)
            QCOMPARE(now[k].loss, original[k].loss); // step 10's loss is taken before its update
        QVERIFY(now[11].loss != original[11].loss);
        QCOMPARE(session.traceIndex().algorithm_at(middle_of(session, 9)),
                 lockstep::Algorithm::Ring);
        QCOMPARE(session.traceIndex().algorithm_at(middle_of(session, 11)),
                 lockstep::Algorithm::Tree);

        QVERIFY(session.undo());
        QCOMPARE(scenarios.count(), 2);
        QCOMPARE(session.scenario().rule, lockstep::ReductionRule::Mean);
        QCOMPARE(session.scenario().algorithm, lockstep::Algorithm::Ring);
        QVERIFY(finishes(finished, 3));
        QCOMPARE(session.traceIndex().algorithm_at(middle_of(session, 11)),
                 lockstep::Algorithm::Ring);
        QCOMPARE(session.traceIndex().snapshots()[11].loss, original[11].loss);

        QSignalSpy started(&session, &LabSession::runStarted);
        QSignalSpy status(&session, &LabSession::status);
        changed = session.scenario();
        changed.workers = 6;
        changed.delays.slowdown = {};
        session.changeScenario(changed, QStringLiteral("six workers"));
        QCOMPARE(started.count(), 1);
        QCOMPARE(session.scenario().workers, 6);
        QVERIFY(session.branches().isEmpty());
        QVERIFY(!status.isEmpty());
        QVERIFY2(status.back().front().toString().contains(QStringLiteral("from step 0")),
                 qPrintable(status.back().front().toString()));
        session.controller().stop();
    }

    // Past its budget of events, the session forgets the steps behind the playhead, keeping
    // about `behind_events` events' worth of them and never fewer than two; snapshots stay.
    void the_memory_policy_forgets_old_steps_past_its_budget_data() {
        QTest::addColumn<int>("over");   // events beyond the budget
        QTest::addColumn<int>("behind"); // in steps' worth of events, times two
        QTest::addColumn<int>("kept");   // steps whose events stay, -1: all
        QTest::addRow("at the budget") << 0 << 20 << -1;
        QTest::addRow("one event over") << 1 << 21 << 10;
        QTest::addRow("far over, ten steps behind") << 100000 << 21 << 10;
        QTest::addRow("far over, at least two") << 100000 << 0 << 2;
    }
    void the_memory_policy_forgets_old_steps_past_its_budget() {
        QFETCH(int, over);
        QFETCH(int, behind);
        QFETCH(int, kept);
        LabSession session;
        QSignalSpy finished(&session, &LabSession::runFinished);
        QVERIFY(session.run(small_scenario(60)));
        QVERIFY(finishes(finished, 1));
        const std::size_t total = session.traceIndex().events().size();
        const std::size_t per_step = total / 60;
        QVERIFY(per_step * 60 == total && per_step > 20); // every step has the same events
        LabSession::MemoryPolicy policy;
        policy.retained_events = total - std::min<std::size_t>(total, std::size_t(over));
        policy.behind_events = per_step * behind / 2;
        session.setMemoryPolicy(policy);
        QSignalSpy moved(&session, &LabSession::playheadMoved);
        session.playback().scrubTo(session.traceIndex().end_time());
        QCOMPARE(moved.count(), 1);
        const auto& index = session.traceIndex();
        QCOMPARE(index.snapshots().size(), std::size_t(60));
        if (kept < 0) {
            QCOMPARE(index.first_retained_snapshot(), std::size_t(0));
            QCOMPARE(index.events().size(), total);
            return;
        }
        QCOMPARE(index.first_retained_snapshot(), std::size_t(60 - kept));
        QCOMPARE(index.events().size(), per_step * std::size_t(kept));
        // The playhead cannot go back into forgotten steps.
        session.playback().scrubTo(0);
        QVERIFY(index.earliest_retained_time() > 0);
        QCOMPARE(session.playback().playhead(), index.earliest_retained_time());
    }

    // A scenario file that cannot be used leaves the current scenario as it was.
    void a_bad_scenario_file_changes_nothing() {
        LabSession session;
        QSignalSpy scenarios(&session, &LabSession::scenarioChanged);
        session.useScenario(small_scenario(), QStringLiteral("small.json"));
        QCOMPARE(scenarios.count(), 1);
        QString error;
        QVERIFY(!session.openScenario(QStringLiteral("/nonexistent/scenario.json"), &error));
        QVERIFY(!error.isEmpty());
        QCOMPARE(scenarios.count(), 1);
        QCOMPARE(session.scenario().name, std::string("lab"));
        QCOMPARE(session.scenarioPath(), QStringLiteral("small.json"));
        QVERIFY(session.openScenario(
            QStringLiteral(LOCKSTEP_SOURCE_DIR "/resources/scenarios/straggler.json"), &error));
        QCOMPARE(scenarios.count(), 2);
        QCOMPARE(session.scenario().name, std::string("straggler"));
        // Without checkpoints there is no restore to compare, and the session says so.
        QSignalSpy started(&session, &LabSession::runStarted);
        QVERIFY(session.run(session.scenario()));
        QCOMPARE(started.count(), 1);
        QVERIFY(!session.restoreComparison());
        QVERIFY2(session.comparisonNote().startsWith(QStringLiteral("No restores to compare")),
                 qPrintable(session.comparisonNote()));
        session.controller().stop();
    }
};

QTEST_GUILESS_MAIN(TestLabSession)
#include "test_lab_session.moc"
