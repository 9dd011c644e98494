#include "view_test_support.h"

#include "lockstep_views/timeline_view.h"
#include "lockstep_views/trace_index.h"
#include "runs/runs.h"
#include "trace/event_kinds.h"

#include <QtTest>

#include <algorithm>

using namespace lockstep;
using namespace lockstep::views;
using lockstep::testing::index_into;
using lockstep::testing::recorded;

Q_DECLARE_METATYPE(lockstep::EventKind)

namespace {

Scenario small_run(std::int64_t steps) {
    Scenario s;
    s.name = "trace-index";
    s.steps = steps;
    s.workers = 4;
    s.batch = 8;
    s.model.layers = {2, 8, 3};
    s.dataset = {"spiral", "", 240, 0.05, 3};
    s.delays.slowdown = {1.0, 1.0, 2.5, 1.0}; // worker 2 straggles: the others wait
    return s;
}

} // namespace

// The views' index over a run's trace: what forgetting old steps keeps, and that it keeps it
// without moving or reallocating what stays.
class TestTraceIndex : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void forgetting_keeps_every_answer_after_the_window_start();
    void forgetting_reuses_the_reserved_memory();
    void revision_changes_with_the_events();
    void every_view_picks_the_engines_event_data();
    void every_view_picks_the_engines_event();
};

void TestTraceIndex::forgetting_keeps_every_answer_after_the_window_start() {
    const Scenario s = small_run(40);
    const Trace trace = recorded(s);
    TraceIndex whole, windowed;
    index_into(s, trace, whole);
    index_into(s, trace, windowed);
    windowed.forget_before_snapshot(20);
    const Ticks until = windowed.snapshots()[19].time;
    QCOMPARE(windowed.first_retained_snapshot(), std::size_t(20));
    QVERIFY(windowed.events().size() < whole.events().size() * 3 / 5);
    QVERIFY(windowed.earliest_retained_time() <= until);
    for (int w = 0; w < s.workers; ++w) {
        // Nothing that ends after the window start is lost.
        const auto count_after = [until](std::span<const TraceEvent> lane) {
            return std::count_if(lane.begin(), lane.end(),
                                 [until](const TraceEvent& e) { return e.end > until; });
        };
        QCOMPARE(count_after(windowed.lane(w)), count_after(whole.lane(w)));
    }
    // From the window's start on, every question gets the answer the whole trace gives.
    const Ticks from = windowed.earliest_retained_time();
    const Ticks end = whole.end_time();
    int waiting = 0;
    for (int i = 0; i <= 300; ++i) {
        const Ticks t = std::max(until, from) + (end - std::max(until, from)) * i / 300;
        for (int w = 0; w < s.workers; ++w) {
            QCOMPARE(windowed.activity_at(w, t), whole.activity_at(w, t));
            waiting += whole.activity_at(w, t) == WorkerActivity::Waiting ? 1 : 0;
            double a = -1, b = -1;
            QCOMPARE(windowed.value_at(w, t, &a), whole.value_at(w, t, &b));
            QCOMPARE(a, b);
        }
        QCOMPARE(windowed.packets_at(t).size(), whole.packets_at(t).size());
        QCOMPARE(windowed.next_event_start(t), whole.next_event_start(t));
        if (t > from)
            QCOMPARE(windowed.previous_event_start(t), whole.previous_event_start(t));
    }
    QVERIFY(waiting > 0);
}

void TestTraceIndex::forgetting_reuses_the_reserved_memory() {
    const Scenario s = small_run(120);
    const Trace trace = recorded(s);
    // Step by step, as the window gets them, keeping about ten steps behind.
    TraceIndex index;
    index.reset(s.workers, s.algorithm);
    const std::span<const TraceEvent> all = trace.events();
    const std::size_t per_step = all.size() / static_cast<std::size_t>(s.steps);
    index.reserve(per_step * 24, all.subspan(0, per_step));
    std::size_t next = 0;
    const TraceEvent* lowest = nullptr;
    const TraceEvent* highest = nullptr;
    for (const StepSnapshot& snapshot : trace.snapshots()) {
        std::size_t last = next;
        while (last < all.size() && all[last].step <= snapshot.step)
            ++last;
        index.append(all.subspan(next, last - next));
        index.append(snapshot);
        next = last;
        if (index.snapshots().size() > 10)
            index.forget_before_snapshot(index.snapshots().size() - 10);
        const auto events = index.events();
        if (!lowest)
            lowest = events.data();
        lowest = std::min(lowest, events.data());
        highest = std::max(highest, events.data() + events.size());
    }
    QCOMPARE(next, all.size());
    QVERIFY(index.first_retained_snapshot() > 100);
    QVERIFY(index.events().size() < per_step * 14);
    // Everything the index ever held lay in one allocation of the size reserved up front.
    QVERIFY(std::size_t(highest - lowest) <= per_step * 24 + 64);
}

void TestTraceIndex::revision_changes_with_the_events() {
    const Scenario s = small_run(6);
    const Trace trace = recorded(s);
    TraceIndex index;
    index.reset(s.workers, s.algorithm);
    const auto first = index.revision();
    index.append(trace.events());
    const auto appended = index.revision();
    QVERIFY(appended != first);
    for (const auto& snapshot : trace.snapshots())
        index.append(snapshot);
    QCOMPARE(index.revision(), appended); // snapshots do not change what the lanes hold
    index.forget_before_snapshot(3);
    QVERIFY(index.revision() != appended);
    const auto forgotten = index.revision();
    index.forget_before_snapshot(2); // already gone: nothing changes
    QCOMPARE(index.revision(), forgotten);
    index.reset(s.workers, s.algorithm);
    QVERIFY(index.revision() != forgotten);
}

// Where two events on one lane cover the same instant, the index (which the cluster view and the
// screen reader ask) and the timeline under the pointer both show the one the engine's priority
// (trace/event_kinds.h) puts first, whichever of the two comes first in the lane.
void TestTraceIndex::every_view_picks_the_engines_event_data() {
    QTest::addColumn<EventKind>("winner");
    QTest::addColumn<EventKind>("loser");
    // Both drawn in one band, so the pointer alone cannot tell them apart.
    QTest::addColumn<bool>("sameBand");
    QTest::newRow("pause over wait") << EventKind::Pause << EventKind::Wait << true;
    QTest::newRow("failed over bubble") << EventKind::Failed << EventKind::Bubble << true;
    QTest::newRow("receive over reduce") << EventKind::Receive << EventKind::Reduce << true;
    QTest::newRow("restore over update") << EventKind::Restore << EventKind::Update << true;
    QTest::newRow("checkpoint write over compute")
        << EventKind::CheckpointWrite << EventKind::Compute << true;
    QTest::newRow("send over receive") << EventKind::Send << EventKind::Receive << false;
    QTest::newRow("wait over send") << EventKind::Wait << EventKind::Send << false;
    QTest::newRow("pause over compute") << EventKind::Pause << EventKind::Compute << false;
}

void TestTraceIndex::every_view_picks_the_engines_event() {
    QFETCH(EventKind, winner);
    QFETCH(EventKind, loser);
    QFETCH(bool, sameBand);
    QVERIFY(priority_of(winner) > priority_of(loser));
    for (const bool winnerFirst : {true, false}) {
        TraceEvent a{.worker = 0, .kind = winnerFirst ? winner : loser, .start = 0, .end = 1000};
        TraceEvent b = a;
        b.kind = winnerFirst ? loser : winner;
        const TraceEvent step_end{
            .worker = 0, .kind = EventKind::Compute, .start = 1000, .end = 2000};
        TraceIndex index;
        index.reset(1, Algorithm::Ring);
        const std::vector<TraceEvent> events{a, b, step_end};
        index.append(events);
        const TraceEvent* picked = index.event_at(0, 500);
        QVERIFY(picked);
        QCOMPARE(picked->kind, winner);
        QCOMPARE(index.activity_at(0, 500), activity_of(winner));

        // An instant: the one event every view agrees on, whatever the order.
        TraceEvent detect{.worker = 0, .kind = EventKind::Detect, .start = 500, .end = 500};
        TraceEvent restore = detect;
        restore.kind = EventKind::Restore;
        TraceIndex instants;
        instants.reset(1, Algorithm::Ring);
        const std::vector<TraceEvent> both =
            winnerFirst ? std::vector{detect, restore} : std::vector{restore, detect};
        instants.append(both);
        QCOMPARE(instants.event_at(0, 500)->kind, EventKind::Detect);

        if (!sameBand)
            continue;
        TimelineView view;
        view.resize(800, 200);
        view.setTrace(&index);
        view.setPlayhead(index.end_time());
        view.setVisibleRange(0, 2000);
        const TraceEvent* hit = view.eventAt(view.eventRect(a).center());
        QVERIFY(hit);
        QCOMPARE(hit->kind, winner);
    }
}

QTEST_MAIN(TestTraceIndex)
#include "test_trace_index.moc"
