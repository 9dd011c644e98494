#include "checkpoint/checkpoint.h"
#include "core/error.h"
#include "model/model.h"
#include "runs/restore_comparison.h"
#include "runs/runs.h"
#include "scenario/scenario.h"
#include "trace/trace.h"

#include <QTemporaryDir>
#include <QtTest>

#include "test_support.h"

#include <cstring>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <map>
#include <string>
#include <vector>

using namespace lockstep;
namespace fs = std::filesystem;
using namespace lockstep::testing;

namespace {

// A short run that checkpoints every 3 steps and keeps them all: momentum, shuffling and jitter,
// so every part of the state matters to the continuation.
Scenario recovery_scenario() {
    Scenario s;
    s.name = "recovery";
    s.steps = 12;
    s.workers = 3;
    s.batch = 8;
    s.model.layers = {2, 8, 3};
    s.dataset = {"spiral", "", 120, 0.05, 3};
    s.cost.jitter = 0.3;
    s.checkpoint = CheckpointConfig{3, 1000, false, RestoreMode::Full};
    return s;
}

bool bitwise_equal(const std::vector<double>& a, const std::vector<double>& b) {
    return a.size() == b.size() && std::memcmp(a.data(), b.data(), a.size() * sizeof(double)) == 0;
}

bool is_checkpoint(EventKind kind) {
    return kind == EventKind::CheckpointWrite || kind == EventKind::CheckpointSync ||
           kind == EventKind::CheckpointCommit;
}

} // namespace

Q_DECLARE_METATYPE(lockstep::ClockKind)
Q_DECLARE_METATYPE(lockstep::FileStage)

// Checkpoints taken by the trainer during a run: the policy in the scenario, the phases in the
// trace, and restores from each one that continue exactly (full) or not (weights only).
class TestRecovery : public QObject {
    Q_OBJECT

private Q_SLOTS:
    void policy_round_trip();
    void policy_defaults();
    void bad_policies_data();
    void bad_policies();
    void hash_ignores_policy_and_steps();

    void checkpoints_every_k_steps();
    void phases_in_commit_order();
    void phases_state_the_file_stage_data();
    void phases_state_the_file_stage();
    void restore_from_each_checkpoint_data();
    void restore_from_each_checkpoint();
    void sharded_optimizer_restores_too();
    void measured_clock_times_the_real_save();
    void refuses_without_policy();
    void full_and_weights_only_continuations();
    void comparing_restores_needs_a_crash_and_checkpoints();

    // Issue 13, item 1: a directory that holds another run's checkpoints.
    void another_scenarios_directory_is_refused();
    void keep_counts_only_the_runs_own();
    void rollback_never_goes_forward_data();
    void rollback_never_goes_forward();
    // Item 3: a complete checkpoint that does not fit this run.
    void checkpoint_that_does_not_fit_is_skipped_data();
    void checkpoint_that_does_not_fit_is_skipped();
    void restore_of_a_misfit_changes_nothing();
    void hash_covers_file_contents();
};

void TestRecovery::policy_round_trip() {
    Scenario a = recovery_scenario();
    a.checkpoint = CheckpointConfig{7, 5, true, RestoreMode::WeightsOnly};
    a.cost.checkpoint_s_per_byte = 5e-9;
    a.cost.fsync_s = 0.004;
    const std::string text = scenario_to_json(a);
    const Scenario b = parse_scenario(text);
    QVERIFY(b.checkpoint.has_value());
    QCOMPARE(b.checkpoint->every, std::int64_t{7});
    QCOMPARE(b.checkpoint->keep, 5);
    QCOMPARE(b.checkpoint->sharded_optimizer, true);
    QCOMPARE(b.checkpoint->restore, RestoreMode::WeightsOnly);
    QCOMPARE(b.cost.checkpoint_s_per_byte, 5e-9);
    QCOMPARE(b.cost.fsync_s, 0.004);
    QCOMPARE(scenario_to_json(b), text);
    a.checkpoint.reset();
    QVERIFY(!parse_scenario(scenario_to_json(a)).checkpoint.has_value());
}

void TestRecovery::policy_defaults() {
    const Scenario s = parse_scenario(R"({"checkpoint": {"every": 4}})");
    QVERIFY(s.checkpoint.has_value());
    QCOMPARE(s.checkpoint->every, std::int64_t{4});
    QCOMPARE(s.checkpoint->keep, 3);
    QCOMPARE(s.checkpoint->sharded_optimizer, false);
    QCOMPARE(s.checkpoint->restore, RestoreMode::Full);
    QCOMPARE(s.cost.checkpoint_s_per_byte, 2e-9);
    QCOMPARE(s.cost.fsync_s, 1e-3);
}

void TestRecovery::bad_policies_data() {
    QTest::addColumn<QString>("json");
    QTest::addColumn<QString>("fragment");
    QTest::newRow("no every") << R"({"checkpoint": {"keep": 2}})"
                              << "checkpoint.every: required";
    QTest::newRow("every 0") << R"({"checkpoint": {"every": 0}})"
                             << "checkpoint.every: must be between 1 and 1000000, got 0";
    QTest::newRow("every not whole") << R"({"checkpoint": {"every": 2.5}})"
                                     << "checkpoint.every: must be a whole number";
    QTest::newRow("keep 0") << R"({"checkpoint": {"every": 2, "keep": 0}})"
                            << "checkpoint.keep: must be between 1 and 1000, got 0";
    QTest::newRow("keep too many") << R"({"checkpoint": {"every": 2, "keep": 1001}})"
                                   << "checkpoint.keep: must be between 1 and 1000, got 1001";
    QTest::newRow("restore unknown") << R"({"checkpoint": {"every": 2, "restore": "half"}})"
                                     << "checkpoint.restore: must be one of full, weights-only";
    QTest::newRow("sharded not a bool") << R"({"checkpoint": {"every": 2, "sharded_optimizer": 1}})"
                                        << "checkpoint.sharded_optimizer: must be true or false";
    QTest::newRow("unknown key") << R"({"checkpoint": {"every": 2, "dir": "x"}})"
                                 << "checkpoint.dir: unknown key";
    QTest::newRow("not an object") << R"({"checkpoint": 5})"
                                   << "checkpoint: must be an object";
    QTest::newRow("fsync negative") << R"({"cost": {"fsync_s": -1}})"
                                    << "cost.fsync_s: must be between 0 and 3600, got -1";
    QTest::newRow("storage per byte too big") << R"({"cost": {"checkpoint_s_per_byte": 2}})"
                                              << "cost.checkpoint_s_per_byte: must be between";
}

void TestRecovery::bad_policies() {
    QFETCH(QString, json);
    QFETCH(QString, fragment);
    const QString message = error_message([&] { parse_scenario(json.toStdString()); });
    LOCKSTEP_VERIFY_CONTAINS(message, fragment);
}

void TestRecovery::hash_ignores_policy_and_steps() {
    const Scenario a = recovery_scenario();
    Scenario b = a;
    b.steps = 400;
    b.checkpoint.reset();
    b.cost.checkpoint_s_per_byte = 1e-8;
    b.cost.fsync_s = 0.0;
    QCOMPARE(scenario_hash(b), scenario_hash(a));
    b.checkpoint = CheckpointConfig{1, 1, true, RestoreMode::WeightsOnly};
    QCOMPARE(scenario_hash(b), scenario_hash(a));
    // Anything that changes the training changes the hash.
    Scenario c = a;
    c.seed += 1;
    QVERIFY(scenario_hash(c) != scenario_hash(a));
    c = a;
    c.optimizer.learning_rate *= 2;
    QVERIFY(scenario_hash(c) != scenario_hash(a));
    c = a;
    c.cost.alpha_s *= 2;
    QVERIFY(scenario_hash(c) != scenario_hash(a));
}

void TestRecovery::checkpoints_every_k_steps() {
    QTemporaryDir dir;
    QVERIFY(dir.isValid());
    Scenario s = recovery_scenario();
    s.checkpoint->keep = 2;
    const auto trainer = make_run(s, load_dataset(s));
    trainer->set_checkpoint_directory(dir.path().toStdString());
    trainer->run_to_end();
    const auto scan = scan_checkpoints(dir.path().toStdString());
    QCOMPARE(scan.checkpoints.size(), std::size_t{2}); // steps 9 and 12; 3 and 6 pruned
    QCOMPARE(scan.checkpoints[0].step, std::int64_t{9});
    QCOMPARE(scan.checkpoints[1].step, std::int64_t{12});
    for (const auto& c : scan.checkpoints)
        QCOMPARE(c.status, CheckpointStatus::Complete);
    const RunMetrics m = trainer->metrics();
    QCOMPARE(m.checkpoints, std::int64_t{4});
    QVERIFY(m.checkpoint_bytes > 0);
    // Three files and a manifest per checkpoint: per lane, write + 2 fsyncs + commit.
    const double write = static_cast<double>(m.checkpoint_bytes) * s.cost.checkpoint_s_per_byte;
    QVERIFY(m.checkpoint_s >= 4 * 3 * s.cost.fsync_s);
    QVERIFY(m.checkpoint_s <= 4 * 4 * s.cost.fsync_s + write);

    // The same run without checkpoints trains to the very same parameters, faster.
    Scenario plain = s;
    plain.checkpoint.reset();
    const auto reference = make_run(plain, load_dataset(plain));
    reference->run_to_end();
    QVERIFY(bitwise_equal(reference->parameters(), trainer->parameters()));
    QCOMPARE(reference->metrics().checkpoint_s, 0.0);
    QVERIFY(reference->metrics().total_time_s < m.total_time_s);
}

void TestRecovery::phases_in_commit_order() {
    QTemporaryDir dir;
    QVERIFY(dir.isValid());
    const Scenario s = recovery_scenario();
    Trace trace;
    const auto trainer = make_run(s, load_dataset(s), &trace);
    trainer->set_checkpoint_directory(dir.path().toStdString());
    trainer->run_to_end();

    for (int w = 0; w < s.workers; ++w) {
        std::vector<TraceEvent> lane;
        for (const auto& e : trace.events())
            if (e.worker == w && is_checkpoint(e.kind))
                lane.push_back(e);
        QCOMPARE(lane.size(), std::size_t{4 * 4}); // 4 checkpoints x write, sync, sync, commit
        for (std::size_t i = 0; i < lane.size(); i += 4) {
            QCOMPARE(lane[i].kind, EventKind::CheckpointWrite);
            QCOMPARE(lane[i + 1].kind, EventKind::CheckpointSync);
            QCOMPARE(lane[i + 2].kind, EventKind::CheckpointSync);
            QCOMPARE(lane[i + 3].kind, EventKind::CheckpointCommit); // the manifest, last
            QCOMPARE(lane[i].step, std::int64_t(3 * (i / 4) + 2));   // after steps 3, 6, 9, 12
            QVERIFY(lane[i].bytes > 0);
            QVERIFY(lane[i + 3].bytes > 0);
            for (std::size_t j = i; j < i + 3; ++j)
                QVERIFY(lane[j].end <= lane[j + 1].start);
            QCOMPARE(lane[i + 1].end - lane[i + 1].start, to_ticks(s.cost.fsync_s));
            QCOMPARE(lane[i].end - lane[i].start,
                     to_ticks(static_cast<double>(lane[i].bytes) * s.cost.checkpoint_s_per_byte));
        }
    }
    // Every lane commits at the same moment, after every worker's file is durable.
    std::vector<Ticks> commits, durable;
    for (const auto& e : trace.events()) {
        if (e.step != 2)
            continue;
        if (e.kind == EventKind::CheckpointCommit)
            commits.push_back(e.start);
        if (e.kind == EventKind::CheckpointSync)
            durable.push_back(e.end);
    }
    QCOMPARE(commits.size(), std::size_t(s.workers));
    for (Ticks c : commits) {
        QCOMPARE(c, commits.front());
        for (Ticks d : durable)
            QVERIFY(d <= c);
    }
    // The Chrome trace names them.
    const std::string chrome = to_chrome_trace_json(trace.events(), s.workers);
    QVERIFY(chrome.find("\"checkpoint-write\"") != std::string::npos);
    QVERIFY(chrome.find("\"checkpoint-commit\"") != std::string::npos);
}

void TestRecovery::restore_from_each_checkpoint_data() {
    QTest::addColumn<int>("step");
    for (int step : {3, 6, 9})
        QTest::addRow("step %d", step) << step;
}

void TestRecovery::restore_from_each_checkpoint() {
    QFETCH(int, step);
    QTemporaryDir dir;
    QVERIFY(dir.isValid());
    const Scenario s = recovery_scenario();
    const auto uninterrupted = make_run(s, load_dataset(s));
    uninterrupted->set_checkpoint_directory(dir.path().toStdString());
    uninterrupted->run_to_end();
    const auto& expected = uninterrupted->parameters();

    const fs::path step_dir = fs::path(dir.path().toStdString()) / checkpoint_directory_name(step);
    const TrainingState saved = load_checkpoint(step_dir);
    QCOMPARE(saved.step, std::int64_t(step));

    const auto full = make_run(s, load_dataset(s));
    full->restore_state(saved, RestoreMode::Full);
    full->run_to_end();
    QCOMPARE(full->steps_done(), s.steps);
    QVERIFY(bitwise_equal(full->parameters(), expected));

    const auto weights = make_run(s, load_dataset(s));
    weights->restore_state(saved, RestoreMode::WeightsOnly);
    weights->run_to_end();
    QVERIFY(!bitwise_equal(weights->parameters(), expected));
}

void TestRecovery::sharded_optimizer_restores_too() {
    QTemporaryDir dir;
    QVERIFY(dir.isValid());
    Scenario s = recovery_scenario();
    s.checkpoint->sharded_optimizer = true;
    s.optimizer.kind = OptimizerKind::Adam;
    s.optimizer.learning_rate = 0.01;
    const auto uninterrupted = make_run(s, load_dataset(s));
    uninterrupted->set_checkpoint_directory(dir.path().toStdString());
    uninterrupted->run_to_end();
    const auto recovery = load_newest_complete(dir.path().toStdString(), scenario_hash(s), 3);
    QVERIFY(recovery.state.has_value());
    QCOMPARE(recovery.state->step, std::int64_t{12});
    const TrainingState six =
        load_checkpoint(fs::path(dir.path().toStdString()) / "step-000000006");
    const auto resumed = make_run(s, load_dataset(s));
    resumed->restore_state(six, RestoreMode::Full);
    resumed->run_to_end();
    QVERIFY(bitwise_equal(resumed->parameters(), uninterrupted->parameters()));
}

void TestRecovery::phases_state_the_file_stage_data() {
    QTest::addColumn<ClockKind>("clock");
    QTest::addColumn<QList<FileStage>>("stages"); // of one checkpoint, on one lane
    QTest::newRow("modelled: write, fsync, rename + directory fsync, commit")
        << ClockKind::Modelled
        << QList<FileStage>{FileStage::Written, FileStage::Synced, FileStage::Renamed,
                            FileStage::Committed};
    QTest::newRow("measured: write, fsync, rename, directory fsync, commit")
        << ClockKind::Measured
        << QList<FileStage>{FileStage::Written, FileStage::Synced, FileStage::Renamed,
                            FileStage::Renamed, FileStage::Committed};
}

// Every checkpoint phase states the step of the commit protocol it completes, and its kind
// follows from it; nothing else carries a stage.
void TestRecovery::phases_state_the_file_stage() {
    QFETCH(ClockKind, clock);
    QFETCH(QList<FileStage>, stages);
    QTemporaryDir dir;
    QVERIFY(dir.isValid());
    Scenario s = recovery_scenario();
    s.steps = 6;
    s.clock = clock;
    Trace trace;
    const auto trainer = make_run(s, load_dataset(s), &trace);
    trainer->set_checkpoint_directory(dir.path().toStdString());
    trainer->run_to_end();
    for (int w = 0; w < s.workers; ++w) {
        QList<FileStage> seen;
        for (const auto& e : trace.events()) {
            if (!is_checkpoint(e.kind)) {
                QCOMPARE(e.file, FileStage::None);
                continue;
            }
            if (e.worker != w)
                continue;
            seen.push_back(e.file);
            const EventKind kind = e.file == FileStage::Written     ? EventKind::CheckpointWrite
                                   : e.file == FileStage::Committed ? EventKind::CheckpointCommit
                                                                    : EventKind::CheckpointSync;
            QCOMPARE(e.kind, kind);
        }
        QCOMPARE(seen, stages + stages); // two checkpoints, after steps 3 and 6
    }
}

void TestRecovery::measured_clock_times_the_real_save() {
    QTemporaryDir dir;
    QVERIFY(dir.isValid());
    Scenario s = recovery_scenario();
    s.steps = 6;
    s.clock = ClockKind::Measured;
    Trace trace;
    const auto trainer = make_run(s, load_dataset(s), &trace);
    trainer->set_checkpoint_directory(dir.path().toStdString());
    trainer->run_to_end();
    QVERIFY(trainer->metrics().checkpoint_s > 0.0);
    QCOMPARE(trainer->metrics().checkpoints, std::int64_t{2});
    for (int w = 0; w < s.workers; ++w) {
        std::vector<EventKind> kinds;
        Ticks last_end = 0;
        for (const auto& e : trace.events()) {
            if (e.worker != w || !is_checkpoint(e.kind))
                continue;
            kinds.push_back(e.kind);
            QVERIFY(e.start <= e.end);
            QVERIFY(e.start >= last_end); // one after another on the lane
            last_end = e.end;
        }
        // Per checkpoint: write, fsync, rename, directory fsync, then the manifest's commit.
        const std::vector<EventKind> one{EventKind::CheckpointWrite, EventKind::CheckpointSync,
                                         EventKind::CheckpointSync, EventKind::CheckpointSync,
                                         EventKind::CheckpointCommit};
        std::vector<EventKind> expected = one;
        expected.insert(expected.end(), one.begin(), one.end());
        QVERIFY(kinds == expected);
    }
    // The clock does not change the arithmetic.
    Scenario modelled = s;
    modelled.clock = ClockKind::Modelled;
    modelled.checkpoint.reset();
    const auto reference = make_run(modelled, load_dataset(modelled));
    reference->run_to_end();
    QVERIFY(bitwise_equal(reference->parameters(), trainer->parameters()));
}

void TestRecovery::refuses_without_policy() {
    Scenario s = recovery_scenario();
    s.checkpoint.reset();
    const auto trainer = make_run(s, load_dataset(s));
    QVERIFY(error_message([&] {
                trainer->set_checkpoint_directory("/tmp");
            }).contains("checkpoint: the scenario has no checkpoint policy"));
    Scenario drifting = recovery_scenario();
    drifting.algorithm = Algorithm::None;
    const auto apart = make_run(drifting, load_dataset(drifting));
    QVERIFY(
        error_message([&] { apart->set_checkpoint_directory("/tmp"); }).contains("algorithm none"));
    const auto times =
        make_run(recovery_scenario(), load_dataset(recovery_scenario()), nullptr, Work::TimesOnly);
    QVERIFY(error_message([&] { times->set_checkpoint_directory("/tmp"); }).contains("times-only"));
}

// The lab's side-by-side picture, from three real runs: the full restore's curve is the
// uninterrupted run's, step for step; the weights-only curve matches it only before the restore.
void TestRecovery::full_and_weights_only_continuations() {
    Scenario s = recovery_scenario();
    s.optimizer.momentum = 0.9;
    s.failures.events.push_back({FailureKind::Crash, 1, 8, CrashPhase::Compute});
    s.failures.events.push_back({FailureKind::Pause, 0, 2, CrashPhase::Compute, 0.01});
    QTemporaryDir scratch;
    const RestoreComparison c = compare_restores(s, scratch.path().toStdString());
    QCOMPARE(c.crash_step, std::int64_t(8));
    QCOMPARE(c.restored_step, std::int64_t(6)); // the newest checkpoint before step 8
    QCOMPARE(c.checkpoint_step, std::int64_t(6));
    for (const LossCurve* curve : {&c.uninterrupted, &c.full, &c.weights_only}) {
        QCOMPARE(curve->steps.size(), std::size_t(s.steps));
        QCOMPARE(curve->steps.front(), std::int64_t(0));
        QCOMPARE(curve->steps.back(), s.steps - 1);
    }
    QCOMPARE(c.full.loss, c.uninterrupted.loss);
    QCOMPARE(c.full_gap, 0.0);
    QVERIFY(c.full_identical);
    for (std::int64_t step = 0; step < c.restored_step; ++step)
        QCOMPARE(c.weights_only.loss[std::size_t(step)], c.uninterrupted.loss[std::size_t(step)]);
    QVERIFY(c.weights_only.loss[std::size_t(c.restored_step)] !=
            c.uninterrupted.loss[std::size_t(c.restored_step)]);
    QVERIFY(c.weights_only_gap > 0.0);
    QVERIFY(!c.weights_only_identical);
    // Each recovered run wrote its own checkpoints.
    QVERIFY(fs::exists(fs::path(scratch.path().toStdString()) / "full"));
    QVERIFY(fs::exists(fs::path(scratch.path().toStdString()) / "weights-only"));
    double loss = 0;
    QVERIFY(loss_at(c.full, 3, &loss));
    QCOMPARE(loss, c.full.loss[3]);
    QVERIFY(!loss_at(c.full, s.steps, &loss));
}

void TestRecovery::comparing_restores_needs_a_crash_and_checkpoints() {
    QTemporaryDir scratch;
    const fs::path dir = scratch.path().toStdString();
    Scenario s = recovery_scenario();
    LOCKSTEP_VERIFY_CONTAINS(error_message([&] { compare_restores(s, dir); }),
                             QStringLiteral("no crash"));
    s.failures.events.push_back({FailureKind::Crash, 1, 8, CrashPhase::Compute});
    Scenario none = s;
    none.checkpoint.reset();
    LOCKSTEP_VERIFY_CONTAINS(error_message([&] { compare_restores(none, dir); }),
                             QStringLiteral("saves no checkpoints"));
    Scenario backup = s;
    backup.failures.policy = RecoveryPolicy::Backup;
    LOCKSTEP_VERIFY_CONTAINS(error_message([&] { compare_restores(backup, dir); }),
                             QStringLiteral("backup policy"));
    const std::atomic<bool> stop{true};
    LOCKSTEP_VERIFY_CONTAINS(error_message([&] { compare_restores(s, dir, &stop); }),
                             QStringLiteral("stopped"));
}

namespace {

// Every file under `dir` with its size and bytes' checksum: to show that nothing was touched.
std::map<std::string, std::uint64_t> fingerprint(const fs::path& dir) {
    std::map<std::string, std::uint64_t> out;
    for (const auto& entry : fs::recursive_directory_iterator(dir)) {
        if (!entry.is_regular_file())
            continue;
        std::ifstream in(entry.path(), std::ios::binary);
        const std::string bytes((std::istreambuf_iterator<char>(in)), {});
        out[fs::relative(entry.path(), dir).string()] =
            checkpoint_checksum(std::as_bytes(std::span(bytes.data(), bytes.size())));
    }
    return out;
}

Scenario other_run(Scenario s) {
    s.seed = 7;
    return s;
}

} // namespace

void TestRecovery::another_scenarios_directory_is_refused() {
    QTemporaryDir scratch;
    const fs::path dir = scratch.path().toStdString();
    const Scenario s = recovery_scenario();
    const auto first = make_run(s, load_dataset(s));
    first->set_checkpoint_directory(dir);
    first->run_to_end();
    const auto before = fingerprint(dir);

    const Scenario other = other_run(s);
    const auto second = make_run(other, load_dataset(other));
    const QString message = error_message([&] { second->set_checkpoint_directory(dir); });
    LOCKSTEP_VERIFY_CONTAINS(message, QString::fromStdString(dir.string()));
    LOCKSTEP_VERIFY_CONTAINS(
        message, QStringLiteral("holds another run's checkpoints (4 checkpoints, step-000000003 to "
                                "step-000000012 of another scenario)"));
    QVERIFY(!message.contains('\n'));
    QVERIFY(fingerprint(dir) == before);
    // The same scenario continues its own run there (what lockstep-cli resume does).
    const auto again = make_run(s, load_dataset(s));
    again->set_checkpoint_directory(dir);
}

// Another run's checkpoints (newer steps) written into the directory while this run goes on:
// `keep` counts this run's own, and nothing of the other run's is removed.
void TestRecovery::keep_counts_only_the_runs_own() {
    QTemporaryDir scratch;
    const fs::path dir = scratch.path().toStdString();
    Scenario s = recovery_scenario();
    s.checkpoint->keep = 2;
    const auto trainer = make_run(s, load_dataset(s));
    trainer->set_checkpoint_directory(dir);
    for (int k = 0; k < 3; ++k)
        trainer->step(); // step-000000003
    const Scenario other = other_run(s);
    const auto foreign = make_run(other, load_dataset(other));
    TrainingState theirs = foreign->capture_state();
    for (std::int64_t step : {80, 90, 100}) {
        theirs.step = step;
        save_checkpoint(dir, theirs);
    }
    const auto foreign_files = fingerprint(dir / "step-000000100");
    trainer->run_to_end();
    std::vector<std::int64_t> steps;
    for (const auto& c : scan_checkpoints(dir).checkpoints) {
        steps.push_back(c.step);
        QCOMPARE(c.status, CheckpointStatus::Complete);
    }
    QCOMPARE(steps, (std::vector<std::int64_t>{9, 12, 80, 90, 100}));
    QVERIFY(fingerprint(dir / "step-000000100") == foreign_files);
}

void TestRecovery::rollback_never_goes_forward_data() {
    QTest::addColumn<int>("steps");
    QTest::addColumn<int>("crash_step");
    QTest::addColumn<int>("restored");
    // The directory holds an earlier run of the same scenario to step 12.
    QTest::newRow("same length") << 12 << 5 << 3;
    QTest::newRow("shorter run") << 6 << 4 << 3;
    QTest::newRow("crash right after a checkpoint") << 12 << 6 << 6;
}

// Checkpoints of the same scenario from further on (an earlier, longer run) are never a
// rollback's target: the run goes back to the newest one at or before its crash.
void TestRecovery::rollback_never_goes_forward() {
    QFETCH(int, steps);
    QFETCH(int, crash_step);
    QFETCH(int, restored);
    QTemporaryDir scratch;
    const fs::path dir = scratch.path().toStdString();
    const Scenario s = recovery_scenario();
    const auto earlier = make_run(s, load_dataset(s));
    earlier->set_checkpoint_directory(dir);
    earlier->run_to_end();

    Scenario shorter = s;
    shorter.steps = steps;
    const auto clean = make_run(shorter, load_dataset(shorter));
    clean->run_to_end();
    shorter.failures.events = {{FailureKind::Crash, 2, crash_step, CrashPhase::Compute}};
    const auto trainer = make_run(shorter, load_dataset(shorter));
    trainer->set_checkpoint_directory(dir);
    trainer->run_to_end();
    QCOMPARE(trainer->steps_done(), std::int64_t(steps));
    const auto r = trainer->recoveries().at(0);
    QCOMPARE(r.restored_step, std::int64_t(restored));
    QCOMPARE(r.checkpoint.filename().string(), checkpoint_directory_name(restored));
    QCOMPARE(r.lost_steps, std::int64_t(crash_step + 1 - restored));
    QVERIFY(r.rejected.empty()); // newer ones were not candidates at all
    QVERIFY(bitwise_equal(trainer->parameters(), clean->parameters()));
}

void TestRecovery::checkpoint_that_does_not_fit_is_skipped_data() {
    QTest::addColumn<QString>("damage");
    QTest::addColumn<QString>("reason");
    QTest::newRow("parameter count") << "parameters"
                                     << "the checkpoint's model has 50 parameters, this run's 51";
    QTest::newRow("cursor outside its shard")
        << "cursor"
        << "worker 1: data cursor state: position 4000 is outside the shard of 40";
    QTest::newRow("cursor order of another shard")
        << "order"
        << "worker 2: data cursor state: order has 39 entries, the shard has 40";
    QTest::newRow("optimizer kind")
        << "optimizer"
        << "the checkpoint's optimizer state is not that of this run's sgd";
}

// A checkpoint that verifies, with this scenario's hash, but whose contents cannot be this run's
// (a forged or foreign file): recovery says why it skipped it and goes back to the one before,
// and the full restore from there still continues bit for bit.
void TestRecovery::checkpoint_that_does_not_fit_is_skipped() {
    QFETCH(QString, damage);
    QFETCH(QString, reason);
    QTemporaryDir scratch;
    const fs::path dir = scratch.path().toStdString();
    const Scenario s = recovery_scenario();
    const auto clean = make_run(s, load_dataset(s));
    clean->run_to_end();

    Trace trace;
    const auto trainer = make_run(s, load_dataset(s), &trace);
    trainer->set_checkpoint_directory(dir);
    for (int k = 0; k < 7; ++k)
        trainer->step(); // checkpoints 3 and 6, then step 6 done
    TrainingState bad = load_checkpoint(dir / checkpoint_directory_name(6));
    if (damage == "parameters") {
        bad.parameters.pop_back();
        bad.optimizer.velocity.pop_back();
    } else if (damage == "cursor") {
        bad.cursors[1].position = 4000;
    } else if (damage == "order") {
        bad.cursors[2].order.pop_back();
    } else {
        bad.optimizer.first_moment = bad.optimizer.velocity;
        bad.optimizer.second_moment = bad.optimizer.velocity;
        bad.optimizer.velocity.clear();
    }
    save_checkpoint(dir, bad);
    trainer->inject_failure({FailureKind::Crash, 1, 7, CrashPhase::Communicate});
    trainer->run_to_end();

    QCOMPARE(trainer->steps_done(), s.steps);
    const auto r = trainer->recoveries().at(0);
    QCOMPARE(r.restored_step, std::int64_t{3});
    QCOMPARE(r.rejected.size(), std::size_t{1});
    QCOMPARE(r.rejected[0].step, std::int64_t{6});
    QCOMPARE(r.rejected[0].status, CheckpointStatus::Complete);
    QCOMPARE(r.rejected[0].fault, CheckpointFault::DoesNotFit);
    LOCKSTEP_VERIFY_CONTAINS(QString::fromStdString(r.rejected[0].reason),
                             QStringLiteral("does not fit this run: ") + reason);
    // The scan is in the trace: checkpoint 6 skipped for this fault, then 3 loaded.
    std::vector<std::pair<int, double>> verdicts;
    for (const auto& e : trace.events())
        if (e.kind == EventKind::Verify)
            verdicts.emplace_back(e.round, e.value);
    QCOMPARE(verdicts.size(), std::size_t{2});
    QCOMPARE(verdicts[0].first, 6);
    QCOMPARE(verdicts[0].second, static_cast<double>(CheckpointFault::DoesNotFit));
    QCOMPARE(verdicts[1].first, 3);
    QVERIFY(bitwise_equal(trainer->parameters(), clean->parameters()));
}

// restore_state checks everything before it changes anything.
void TestRecovery::restore_of_a_misfit_changes_nothing() {
    const Scenario s = recovery_scenario();
    const auto trainer = make_run(s, load_dataset(s));
    trainer->step();
    TrainingState bad = trainer->capture_state();
    const TrainingState before = bad;
    bad.cursors[2].position = 4000;
    LOCKSTEP_VERIFY_CONTAINS(error_message([&] { trainer->restore_state(bad, RestoreMode::Full); }),
                             QStringLiteral("restore: worker 2: data cursor state"));
    QVERIFY(trainer->capture_state() == before);
    QVERIFY(trainer->misfit(bad, RestoreMode::WeightsOnly) == std::nullopt);
}

void TestRecovery::hash_covers_file_contents() {
    QTemporaryDir scratch;
    const fs::path dir = scratch.path().toStdString();
    auto write = [](const fs::path& file, const std::string& text) {
        std::ofstream(file, std::ios::binary) << text;
    };
    write(dir / "a.csv", "x,y,label\n0.1,0.2,0\n0.3,0.4,1\n");
    write(dir / "copy.csv", "x,y,label\n0.1,0.2,0\n0.3,0.4,1\n");
    Scenario s = recovery_scenario();
    s.dataset.csv = (dir / "a.csv").string();
    const std::uint64_t original = scenario_hash(s);
    write(dir / "a.csv", "x,y,label\n0.1,0.2,0\n0.3,0.4,2\n");
    QVERIFY(scenario_hash(s) != original); // same path, other rows
    Scenario moved = s;
    moved.dataset.csv = (dir / "copy.csv").string();
    QCOMPARE(scenario_hash(moved), original); // the same rows elsewhere

    Scenario p = recovery_scenario();
    const auto params = make_run(p, load_dataset(p))->parameters();
    write(dir / "init.json", parameters_to_json(p.model, params));
    p.init_params = (dir / "init.json").string();
    const std::uint64_t with_params = scenario_hash(p);
    auto other = params;
    other[0] += 1.0;
    write(dir / "init.json", parameters_to_json(p.model, other));
    QVERIFY(scenario_hash(p) != with_params);
}

QTEST_GUILESS_MAIN(TestRecovery)
#include "test_recovery.moc"
