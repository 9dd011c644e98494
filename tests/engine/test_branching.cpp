#include "core/error.h"
#include "runs/runs.h"
#include "scenario/scenario.h"
#include "trace/trace.h"
#include "trainers/branching.h"

#include <QTemporaryDir>
#include <QtTest>

#include "trace_support.h"

#include <oneapi/tbb/global_control.h>

#include <cstring>
#include <filesystem>
#include <string>
#include <vector>

using namespace lockstep;
using namespace lockstep::testing;
namespace fs = std::filesystem;

namespace {

// A short run with everything a replay must reproduce: momentum, shuffling, jitter and a
// straggler drawn from the run's generator, checkpoints every 4 steps (kept 2), a crash with a
// rollback.
Scenario lively(bool checkpoints) {
    Scenario s;
    s.name = "branching";
    s.steps = 60;
    s.workers = 4;
    s.batch = 8;
    s.model.layers = {2, 8, 3};
    s.dataset = {"spiral", "", 160, 0.05, 3};
    s.cost.jitter = 0.2;
    s.delays.straggler_probability = 0.1;
    if (checkpoints) {
        s.checkpoint = CheckpointConfig{4, 2, false, RestoreMode::Full};
        FailureSpec crash;
        crash.worker = 1;
        crash.step = 30;
        s.failures.events.push_back(crash);
    }
    return s;
}

bool same_bits(const std::vector<double>& a, const std::vector<double>& b) {
    return a.size() == b.size() && std::memcmp(a.data(), b.data(), a.size() * sizeof(double)) == 0;
}

// A run with its own checkpoint directory, traced whole.
struct Lab {
    explicit Lab(const Scenario& s)
        : run(s, load_dataset(s), &trace) {
        if (s.checkpoint) {
            dir.emplace();
            fs::create_directory(fs::path(dir->path().toStdString()) / "checkpoints");
            run.set_checkpoint_directory(fs::path(dir->path().toStdString()) / "checkpoints",
                                         fs::path(dir->path().toStdString()) / "copies");
        }
    }
    void to_end() {
        while (!run.finished())
            run.step();
    }
    void to(std::int64_t ordinal) {
        while (run.ordinal() < ordinal && !run.finished())
            run.step();
    }
    // The trace as a viewer holds it: what came before the branch, then what the run traced
    // since (the caller empties `trace` when it branches).
    std::vector<TraceEvent> branched(const std::vector<TraceEvent>& old, std::int64_t from) const {
        std::vector<TraceEvent> out = before(old, from);
        for (const auto& e : trace.events())
            if (e.ordinal >= from)
                out.push_back(e);
        return out;
    }
    std::optional<QTemporaryDir> dir;
    Trace trace;
    BranchingRun run;
};

Intervention make(Intervention::Kind kind, std::int64_t at, int worker = 2, double amount = 0) {
    Intervention i;
    i.kind = kind;
    i.at = at;
    i.worker = worker;
    i.amount = amount;
    return i;
}

} // namespace

class TestBranching : public QObject {
    Q_OBJECT

private Q_SLOTS:
    // A branch at B after the run went far past it gives the very trace and parameters of a run
    // that met the same intervention at B without ever going back: the replay is exact. Before
    // B, the trace is the one seen, bit for bit.
    void branch_equals_a_straight_run_data() {
        QTest::addColumn<int>("kind");
        QTest::addColumn<int>("at");
        QTest::addColumn<bool>("checkpoints");
        using K = Intervention::Kind;
        for (bool ck : {false, true})
            for (int at : {0, 1, 7, 8, 19, 33}) {
                const char* suffix = ck ? "checkpointing" : "plain";
                QTest::addRow("slow@%d %s", at, suffix) << int(K::Slow) << at << ck;
                QTest::addRow("pause@%d %s", at, suffix) << int(K::Pause) << at << ck;
                QTest::addRow("crash@%d %s", at, suffix) << int(K::Crash) << at << ck;
                if (ck)
                    QTest::addRow("crash-checkpoint@%d %s", at, suffix)
                        << int(K::CrashInCheckpoint) << at << ck;
            }
    }
    void branch_equals_a_straight_run() {
        QFETCH(int, kind);
        QFETCH(int, at);
        QFETCH(bool, checkpoints);
        const Scenario s = lively(checkpoints);
        const Intervention change = make(static_cast<Intervention::Kind>(kind), at, 2, 2.5);

        Lab straight(s);
        straight.to(at);
        QCOMPARE(straight.run.branch(change), std::int64_t(at)); // nothing to go back over
        straight.to_end();

        Lab late(s);
        late.to_end();
        const std::vector<TraceEvent> original = late.trace.events();
        late.trace = Trace{};
        const auto from = late.run.branch(change);
        QCOMPARE(from, std::int64_t(at));
        late.to_end();
        const auto seen = late.branched(original, from);
        QVERIFY(same_events(before(seen, at), before(original, at)));
        QVERIFY(same_events(seen, straight.trace.events()));
        QVERIFY(same_bits(late.run.run().parameters(), straight.run.run().parameters()));
        // The intervention changed something from B on: the run is not the original.
        QVERIFY(!same_events(seen, original));
        QCOMPARE(late.run.injected_failures().size(), straight.run.injected_failures().size());
    }

    // Undo goes back to the run as it was: every event after the branch point is the original
    // one again, and so are the final parameters and the checkpoint files' recovery.
    void undo_restores_the_previous_run() {
        const Scenario s = lively(true);
        Lab lab(s);
        lab.to_end();
        const std::vector<TraceEvent> original = lab.trace.events();
        const auto final_parameters = lab.run.run().parameters();
        lab.trace = Trace{};
        const auto from = lab.run.branch(make(Intervention::Kind::Crash, 13, 0));
        lab.to_end();
        const auto branched = lab.branched(original, from);
        QVERIFY(!same_events(branched, original));
        QVERIFY(lab.run.can_undo());
        lab.trace = Trace{};
        const auto back = lab.run.undo();
        QVERIFY(back);
        QCOMPARE(*back, std::int64_t(13));
        lab.to_end();
        QVERIFY(same_events(lab.branched(branched, *back), original));
        QVERIFY(same_bits(lab.run.run().parameters(), final_parameters));
        QVERIFY(!lab.run.can_undo());
        QVERIFY(!lab.run.undo());
    }

    // A branch keeps the interventions before it and lets go of the old future's.
    void a_branch_drops_the_old_futures_interventions() {
        const Scenario s = lively(false);
        Lab lab(s);
        lab.to_end();
        lab.run.branch(make(Intervention::Kind::Slow, 10, 1, 3));
        lab.to_end();
        lab.run.branch(make(Intervention::Kind::Pause, 40, 3, 1));
        lab.to_end();
        QCOMPARE(lab.run.interventions().size(), std::size_t(2));
        lab.run.branch(make(Intervention::Kind::Slow, 20, 0, 2));
        lab.to_end();
        QCOMPARE(lab.run.interventions().size(), std::size_t(2));
        QCOMPARE(lab.run.interventions()[0].at, std::int64_t(10));
        QCOMPARE(lab.run.interventions()[1].at, std::int64_t(20));
        QCOMPARE(lab.run.interventions()[1].step, std::int64_t(20));
    }

    // A change of rule at B: the loss is the original's up to B and bends from there.
    void retune_changes_the_run_from_its_step() {
        Scenario s = lively(false);
        s.rule = ReductionRule::Mean;
        Lab lab(s);
        lab.to_end();
        const auto original = lab.trace.snapshots();
        Intervention change;
        change.kind = Intervention::Kind::Retune;
        change.at = 25;
        change.scenario = s;
        change.scenario.rule = ReductionRule::Sum;
        change.scenario.optimizer.learning_rate = 0.05;
        lab.trace = Trace{};
        QCOMPARE(lab.run.branch(change), std::int64_t(25));
        lab.to_end();
        const auto& after = lab.trace.snapshots();
        QCOMPARE(after.front().ordinal, std::int64_t(25));
        QVERIFY(after.front().loss != original[25].loss || after[1].loss != original[26].loss);
        QCOMPARE(lab.run.run().scenario().rule, ReductionRule::Sum);

        // What only a new run can change is refused by name, and nothing changes.
        change.scenario.workers = 6;
        try {
            lab.run.branch(change);
            QFAIL("a change of workers was taken mid-run");
        } catch (const Error& e) {
            QVERIFY2(std::string(e.what()).starts_with("workers:"), e.what());
        }
        QCOMPARE(lab.run.interventions().size(), std::size_t(1));
    }

    void fixed_for_the_run_names_the_field() {
        const Scenario s = lively(false);
        Scenario t = s;
        QVERIFY(!fixed_for_the_run(s, t));
        t.rule = ReductionRule::Sum;
        t.algorithm = Algorithm::Tree;
        t.optimizer.learning_rate = 0.01;
        t.delays.slowdown = {1, 3};
        t.cost.alpha_s = 1e-3;
        QVERIFY(!fixed_for_the_run(s, t));
        t.model.layers = {2, 16, 3};
        QCOMPARE(fixed_for_the_run(s, t).value_or(""), std::string("model.layers"));
        t = s;
        t.dataset.samples = 200;
        QCOMPARE(fixed_for_the_run(s, t).value_or(""), std::string("dataset.samples"));
        t = s;
        t.optimizer.kind = OptimizerKind::Adam;
        QCOMPARE(fixed_for_the_run(s, t).value_or(""), std::string("optimizer.kind"));
    }

    // Copies stay bounded however long the run, and a branch at an old step still replays
    // exactly (from an older copy, a longer replay).
    void copies_stay_bounded() {
        Scenario s = lively(false);
        s.steps = 1500;
        s.model.layers = {2, 4, 3};
        Lab lab(s);
        lab.to_end();
        QVERIFY(lab.run.copies() <= BranchingRun::kMaxCopies);
        const std::vector<TraceEvent> original = lab.trace.events();
        lab.trace = Trace{};
        const auto from = lab.run.branch(make(Intervention::Kind::Slow, 321, 0, 2));
        QCOMPARE(from, std::int64_t(321));
        lab.to(330);
        std::vector<TraceEvent> again;
        for (const auto& e : lab.trace.events())
            if (e.worker != 0 && e.ordinal == 321)
                again.push_back(e);
        std::vector<TraceEvent> was;
        for (const auto& e : original)
            if (e.worker != 0 && e.ordinal == 321 && e.kind == EventKind::Compute)
                was.push_back(e);
        // The other workers' computations at that step start exactly where they did.
        int matched = 0;
        for (const auto& w : was)
            for (const auto& a : again)
                matched += a.kind == EventKind::Compute && same_event(a, w) ? 1 : 0;
        QCOMPARE(matched, static_cast<int>(was.size()));
    }

    // The thread count does not change what a branch replays.
    void branch_is_the_same_on_one_thread() {
        const Scenario s = lively(true);
        Lab many(s);
        many.to_end();
        many.trace = Trace{};
        many.run.branch(make(Intervention::Kind::Crash, 21, 3));
        many.to_end();
        tbb::global_control one(tbb::global_control::max_allowed_parallelism, 1);
        Lab single(s);
        single.to_end();
        single.trace = Trace{};
        single.run.branch(make(Intervention::Kind::Crash, 21, 3));
        single.to_end();
        QVERIFY(same_events(many.trace.events(), single.trace.events()));
    }

    // On the measured clock a branch cannot replay the times seen: it says from where the
    // trace is traced anew, never later than asked.
    void measured_branches_say_where_the_trace_changes() {
        Scenario s = lively(false);
        s.steps = 12;
        s.clock = ClockKind::Measured;
        Lab lab(s);
        lab.to_end();
        const auto from = lab.run.branch(make(Intervention::Kind::Slow, 6, 1, 2));
        QVERIFY(from <= 6);
        lab.to_end();
        QVERIFY(lab.run.finished());
    }

    // A refused change leaves the same run, traced again from its step, and a branch to undo.
    void retrace_gives_the_same_run_again() {
        const Scenario s = lively(true);
        Lab lab(s);
        lab.to_end();
        const std::vector<TraceEvent> original = lab.trace.events();
        lab.trace = Trace{};
        QCOMPARE(lab.run.retrace(17), std::int64_t(17));
        lab.to_end();
        QVERIFY(same_events(lab.branched(original, 17), original));
        QVERIFY(lab.run.can_undo());
    }

    // A lane that is not there is refused before anything changes.
    void refuses_a_worker_that_is_not_there() {
        const Scenario s = lively(false);
        Lab lab(s);
        lab.to(5);
        QVERIFY_THROWS_EXCEPTION(Error, lab.run.branch(make(Intervention::Kind::Crash, 2, 9)));
        QVERIFY(lab.run.interventions().empty());
        QCOMPARE(lab.run.ordinal(), std::int64_t(5));
    }
};

QTEST_GUILESS_MAIN(TestBranching)
#include "test_branching.moc"
