// Changing the way the replicas agree while a run goes on: bsp, ssp, async and local SGD handing
// a run over to one another at the playhead, and the faults a loosely synchronised run takes.

#include "core/error.h"
#include "runs/runs.h"
#include "scenario/scenario.h"
#include "trace/trace.h"
#include "trainers/branching.h"
#include "trainers/run.h"

#include <oneapi/tbb/global_control.h>

#include <QtTest>

#include "sync_support.h"
#include "test_support.h"

#include <cstring>
#include <span>

using namespace lockstep;
using namespace lockstep::testing;

namespace {

Scenario base_scenario() {
    Scenario s = sync_scenario(11, 30);
    s.delays.slowdown = {1.0, 1.0, 3.0, 1.0};
    return s;
}

Intervention retune(const Scenario& to, std::int64_t at) {
    Intervention i;
    i.kind = Intervention::Kind::Retune;
    i.scenario = to;
    i.at = at;
    return i;
}

Intervention delay(Intervention::Kind kind, int worker, double amount) {
    Intervention i;
    i.kind = kind;
    i.worker = worker;
    i.amount = amount;
    return i;
}

struct Switched {
    Trace trace;
    RunMetrics metrics;
    std::vector<double> parameters;
    std::vector<StepSnapshot> snapshots;
};

// `from` run to the end, switched to `to` before executed step `at`.
Switched switched(const Scenario& from, const Scenario& to, std::int64_t at) {
    Switched out;
    BranchingRun run(from, load_dataset(from), &out.trace);
    while (run.ordinal() < at)
        run.step();
    run.branch(retune(to, at));
    while (!run.finished())
        run.step();
    out.metrics = run.run().metrics();
    out.parameters = run.run().parameters();
    out.snapshots.assign(out.trace.snapshots().begin(), out.trace.snapshots().end());
    return out;
}

bool same_bits(std::span<const double> a, std::span<const double> b) {
    return a.size() == b.size() && std::memcmp(a.data(), b.data(), a.size() * sizeof(double)) == 0;
}

} // namespace

class TestSyncSwitch : public QObject {
    Q_OBJECT

private Q_SLOTS:
    // Every way of agreeing can follow every other at a step: the run ends at the scenario's
    // step count, its steps before the switch are the first run's, and its clock goes on.
    void every_mode_follows_every_other_data() {
        QTest::addColumn<int>("from");
        QTest::addColumn<int>("to");
        const SyncMode modes[] = {SyncMode::Bsp, SyncMode::Ssp, SyncMode::Async, SyncMode::Local};
        for (SyncMode a : modes)
            for (SyncMode b : modes)
                if (a != b)
                    QTest::addRow("%s to %s", std::string(to_string(a)).c_str(),
                                  std::string(to_string(b)).c_str())
                        << int(a) << int(b);
    }
    void every_mode_follows_every_other() {
        QFETCH(int, from);
        QFETCH(int, to);
        auto in_mode = [](SyncMode m) {
            return with_sync(base_scenario(), m, m == SyncMode::Ssp ? 2 : 0,
                             m == SyncMode::Local ? 3 : 1);
        };
        const Scenario a = in_mode(SyncMode(from));
        const Scenario b = in_mode(SyncMode(to));
        const std::int64_t at = 13; // between two averagings of local SGD (every 3)
        const Switched s = switched(a, b, at);
        QCOMPARE(s.metrics.steps, a.steps);

        // Up to the switch, the first mode's own run.
        Trace alone;
        auto plain = make_run(a, load_dataset(a), &alone);
        while (plain->ordinal() < at)
            plain->step();
        QVERIFY(s.snapshots.size() >= static_cast<std::size_t>(a.steps));
        for (std::int64_t k = 0; k < at; ++k) {
            QCOMPARE(s.snapshots[k].step, alone.snapshots()[k].step);
            QCOMPARE(s.snapshots[k].loss, alone.snapshots()[k].loss);
            QCOMPARE(s.snapshots[k].parameter_hash, alone.snapshots()[k].parameter_hash);
        }
        // After it, steps go on in order and in time, with the second mode's agreement.
        for (std::size_t k = at; k < s.snapshots.size(); ++k) {
            QCOMPARE(s.snapshots[k].step, std::int64_t(k));
            QVERIFY(s.snapshots[k].time >= s.snapshots[k - 1].time);
        }
        if (SyncMode(to) == SyncMode::Bsp)
            for (std::size_t k = at; k < s.snapshots.size(); ++k)
                QVERIFY2(s.snapshots[k].replicas_aligned, "bsp after a switch: one model");
        QVERIFY(s.metrics.total_time_s > to_seconds(s.snapshots[at - 1].time));
        // Nothing is counted twice or lost: every sample of every applied gradient, whatever
        // came before.
        QVERIFY(s.metrics.samples >= a.steps * a.workers * static_cast<std::int64_t>(a.batch) -
                                         a.workers * static_cast<std::int64_t>(a.batch) * 3);
    }

    // Local SGD between two averagings hands over one model: its replicas average once more,
    // through the collective, traced as the next step's.
    void local_averages_once_more_before_a_switch() {
        const Scenario local = with_sync(base_scenario(), SyncMode::Local, 0, 5);
        const Scenario bsp = with_sync(base_scenario(), SyncMode::Bsp);
        const std::int64_t at = 7; // two steps after the averaging at step 4
        const Switched s = switched(local, bsp, at);
        QVERIFY(!s.snapshots[at - 1].replicas_aligned);
        int reduces = 0;
        for (const TraceEvent& e : s.trace.events())
            if (e.ordinal == at && e.step == at && e.bytes > 0 && e.kind != EventKind::Compute)
                ++reduces;
        QVERIFY2(reduces > 0, "the last averaging moves the replicas' bytes");
        for (std::size_t k = at; k < s.snapshots.size(); ++k)
            QVERIFY(s.snapshots[k].replicas_aligned);
    }

    // From a parameter server without a barrier: the gradients on their way are dropped, and
    // every worker pulls the newest model, in the trace, before the next mode's first step.
    void async_to_bsp_pulls_the_newest_model() {
        const Scenario async = with_sync(base_scenario(), SyncMode::Async);
        const Scenario bsp = with_sync(base_scenario(), SyncMode::Bsp);
        const std::int64_t at = 10;
        const Switched s = switched(async, bsp, at);
        QVERIFY(s.metrics.dropped_gradients > 0);
        QVERIFY(s.metrics.dropped_gradients < async.workers);
        int pulls = 0;
        for (const TraceEvent& e : s.trace.events())
            if (e.ordinal == at && e.kind == EventKind::Receive && e.step >= at)
                ++pulls;
        QVERIFY(pulls >= 1);
        QVERIFY(s.metrics.max_staleness >= 1); // the async part's, still counted
        QVERIFY(s.metrics.mean_staleness > 0.0);
    }

    // The same switch gives the same numbers with 1, 2 and 4 threads.
    void a_switch_is_the_same_with_any_threads() {
        const Scenario bsp = with_sync(base_scenario(), SyncMode::Bsp);
        const Scenario async = with_sync(base_scenario(), SyncMode::Async);
        std::vector<std::vector<double>> results;
        for (int threads : {1, 2, 4}) {
            tbb::global_control limit(tbb::global_control::max_allowed_parallelism, threads);
            const Switched there = switched(bsp, async, 9);
            const Switched back = switched(async, bsp, 9);
            std::vector<double> r = there.parameters;
            r.insert(r.end(), back.parameters.begin(), back.parameters.end());
            r.push_back(there.metrics.total_time_s);
            r.push_back(back.metrics.waiting_s);
            results.push_back(r);
        }
        QVERIFY(same_bits(results[0], results[1]));
        QVERIFY(same_bits(results[0], results[2]));
    }

    // A switch is undone like any change: the run as it was, bit for bit.
    void a_switch_is_undone() {
        const Scenario bsp = with_sync(base_scenario(), SyncMode::Bsp);
        const Scenario ssp = with_sync(base_scenario(), SyncMode::Ssp, 2);
        Trace trace;
        BranchingRun run(bsp, load_dataset(bsp), &trace);
        while (!run.finished())
            run.step();
        const auto before = run.run().parameters();
        const double time = run.run().metrics().total_time_s;
        run.branch(retune(ssp, 12));
        while (!run.finished())
            run.step();
        QVERIFY(!same_bits(run.run().parameters(), before));
        QVERIFY(run.undo());
        while (!run.finished())
            run.step();
        QVERIFY(same_bits(run.run().parameters(), before));
        QCOMPARE(run.run().metrics().total_time_s, time);
    }

    // A new staleness bound applies in place; a larger one lets the fast workers run ahead, so
    // they wait less from there.
    void a_new_bound_applies_in_place() {
        const Scenario tight = with_sync(base_scenario(), SyncMode::Ssp, 0);
        const Scenario loose = with_sync(base_scenario(), SyncMode::Ssp, 3);
        const Switched stays = switched(tight, tight, 5);
        const Switched eased = switched(tight, loose, 5);
        QVERIFY(eased.metrics.waiting_s < stays.metrics.waiting_s);
        QVERIFY(eased.metrics.max_staleness <= 3);
        QCOMPARE(eased.metrics.dropped_gradients, std::int64_t(0)); // the same trainer goes on
    }

    // A loosely synchronised run takes a slower worker and a pause at the playhead, and refuses
    // a crash with its reason.
    void loose_runs_take_delays_and_refuse_crashes() {
        const Scenario async = with_sync(base_scenario(), SyncMode::Async);
        auto plain = make_run(async, load_dataset(async));
        auto slowed = plain->clone();
        Intervention slow = delay(Intervention::Kind::Slow, 1, 6.0);
        slowed->intervene(slow);
        auto paused = plain->clone();
        Intervention pause = delay(Intervention::Kind::Pause, 0, 0.05);
        paused->intervene(pause);
        for (Run* r : {plain.get(), slowed.get(), paused.get()})
            while (!r->finished())
                r->step();
        QVERIFY(slowed->metrics().total_time_s > plain->metrics().total_time_s);
        QVERIFY(paused->metrics().waiting_s > plain->metrics().waiting_s);
        QVERIFY(paused->metrics().total_time_s >= plain->metrics().total_time_s + 0.05 / 4);

        auto crashed = make_run(async, load_dataset(async));
        Intervention crash = delay(Intervention::Kind::Crash, 2, 0.0);
        QVERIFY_THROWS_EXCEPTION(Error, crashed->intervene(crash));
        try {
            crashed->intervene(crash);
        } catch (const Error& e) {
            QVERIFY(std::string(e.what()).find("switch to bsp") != std::string::npos);
        }
    }

    // Replicas that drifted apart without synchronisation take worker 0's parameters and optimizer
    // state through a tree broadcast of real buffers, priced as communication, and train as one
    // from there; a loosely synchronised run has no replicas to copy to and says so.
    void a_broadcast_makes_the_replicas_one_again() {
        Scenario s = with_sync(base_scenario(), SyncMode::Bsp);
        s.algorithm = Algorithm::None;
        s.optimizer.momentum = 0.9;
        const auto apart = make_run(s, load_dataset(s));
        for (int k = 0; k < 10; ++k)
            apart->step();
        QVERIFY(!apart->metrics().replicas_aligned);
        QVERIFY(!same_bits(apart->replicas()[0].parameters, apart->replicas()[1].parameters));
        const std::vector<double> root = apart->replicas()[0].parameters;
        const double sent_before = apart->metrics().communication_s;

        Scenario ring = s;
        ring.algorithm = Algorithm::Ring;
        Intervention on = retune(ring, 10);
        apart->intervene(on);
        Intervention copy = delay(Intervention::Kind::Broadcast, 0, 0.0);
        apart->intervene(copy);
        apart->step();
        QVERIFY(apart->metrics().replicas_aligned);
        for (const auto& w : apart->replicas()) {
            QVERIFY(same_bits(w.parameters, apart->replicas()[0].parameters));
            QVERIFY(same_bits(w.optimizer.velocity, apart->replicas()[0].optimizer.velocity));
        }
        QVERIFY(!same_bits(apart->replicas()[0].parameters, root)); // and then it trained a step
        QVERIFY(apart->metrics().communication_s > sent_before);
        while (!apart->finished())
            apart->step();
        QVERIFY(apart->metrics().replicas_aligned);

        // Not a run with one model: refused with the reason.
        const Scenario async = with_sync(base_scenario(), SyncMode::Async);
        auto loose = make_run(async, load_dataset(async));
        Intervention again = delay(Intervention::Kind::Broadcast, 0, 0.0);
        QVERIFY_THROWS_EXCEPTION(Error, loose->intervene(again));
    }

    // What cannot switch says why, and stays as it was; a measured run switches like any other.
    void refusals_name_the_reason() {
        Scenario saving = with_sync(base_scenario(), SyncMode::Bsp);
        saving.checkpoint = CheckpointConfig{};
        saving.checkpoint->every = 5;
        QTemporaryDir dir;
        const auto run = make_run(saving, load_dataset(saving));
        run->set_checkpoint_directory(dir.path().toStdString());
        run->step();
        Scenario to = base_scenario();
        to.checkpoint = saving.checkpoint;
        to.sync = SyncConfig{};
        to.sync->mode = SyncMode::Local;
        to.sync->local_steps = 5;
        try {
            (void)continue_run(*run, to);
            QFAIL("a checkpointing run handed over");
        } catch (const Error& e) {
            QVERIFY(std::string(e.what()).find("checkpoints") != std::string::npos);
        }
        QCOMPARE(run->steps_done(), std::int64_t(1));
        to.sync->mode = SyncMode::Async;
        QVERIFY_THROWS_EXCEPTION(Error, (void)continue_run(*run, to)); // async saves none

        // A measured run switches too, and goes on measured.
        Scenario measured = with_sync(base_scenario(), SyncMode::Bsp);
        measured.clock = ClockKind::Measured;
        measured.steps = 6;
        const auto timed = make_run(measured, load_dataset(measured));
        timed->step();
        timed->step();
        Scenario async = measured;
        async.sync = SyncConfig{};
        async.sync->mode = SyncMode::Async;
        auto next = continue_run(*timed, async);
        while (!next->finished())
            next->step();
        QCOMPARE(next->metrics().steps, std::int64_t(6));
        QVERIFY(next->metrics().total_time_s > 0);
    }
};

QTEST_GUILESS_MAIN(TestSyncSwitch)
#include "test_sync_switch.moc"
