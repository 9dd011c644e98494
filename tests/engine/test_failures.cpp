#include "checkpoint/checkpoint.h"
#include "core/error.h"
#include "failures/failure.h"
#include "failures/intervention.h"
#include "runs/runs.h"
#include "scenario/scenario.h"
#include "trace/trace.h"

#include <QTemporaryDir>
#include <QtTest>

#include <set>

#include "test_support.h"

#include <oneapi/tbb/global_control.h>

#include <algorithm>
#include <cstring>
#include <filesystem>
#include <map>
#include <string>
#include <vector>

using namespace lockstep;
using namespace lockstep::testing;
namespace fs = std::filesystem;

namespace {

// Short runs that checkpoint every 3 steps and keep every checkpoint: momentum, shuffling and
// jitter, so a continuation is only equal when every part of the state came back.
Scenario faulty_scenario(RecoveryPolicy policy = RecoveryPolicy::Restart) {
    Scenario s;
    s.name = "faults";
    s.steps = 13;
    s.workers = 3;
    s.batch = 8;
    s.model.layers = {2, 8, 3};
    s.dataset = {"spiral", "", 120, 0.05, 3};
    s.cost.jitter = 0.3;
    s.checkpoint = CheckpointConfig{3, 1000, false, RestoreMode::Full};
    s.failures.policy = policy;
    s.failures.heartbeat_s = 0.02;
    s.failures.restart_s = 0.05;
    return s;
}

bool bitwise_equal(const std::vector<double>& a, const std::vector<double>& b) {
    return a.size() == b.size() && std::memcmp(a.data(), b.data(), a.size() * sizeof(double)) == 0;
}

struct Outcome {
    std::vector<double> parameters;
    RunMetrics metrics;
    std::vector<Recovery> recoveries;
    std::vector<TraceEvent> events;
    int workers_left = 0;
};

Outcome run(const Scenario& s, const fs::path& dir) {
    Trace trace;
    const auto trainer = make_run(s, load_dataset(s), &trace);
    if (!dir.empty())
        trainer->set_checkpoint_directory(dir);
    trainer->run_to_end();
    return {trainer->parameters(), trainer->metrics(), trainer->recoveries(), trace.events(),
            static_cast<int>(trainer->replicas().size())};
}

Outcome run_clean(Scenario s) {
    s.failures.events.clear();
    s.checkpoint.reset();
    return run(s, {});
}

std::vector<double> clean_parameters(const Scenario& s) {
    static std::map<std::string, std::vector<double>> cache;
    const std::string key = scenario_to_json(s);
    auto it = cache.find(key);
    if (it == cache.end())
        it = cache.emplace(key, run_clean(s).parameters).first;
    return it->second;
}

FailureSpec crash(int worker, std::int64_t step, CrashPhase phase) {
    FailureSpec f;
    f.kind = FailureKind::Crash;
    f.worker = worker;
    f.step = step;
    f.phase = phase;
    return f;
}

// The step of the newest checkpoint committed before the crash: step crashes find the newest
// multiple of `every` at or below their step; a checkpoint crash destroys the first checkpoint
// of its step or later, so the one before it is the newest.
std::int64_t expected_restore(const FailureSpec& f, std::int64_t every) {
    if (!f.during_checkpoint())
        return f.step / every * every;
    const std::int64_t hit = std::max<std::int64_t>(every, (f.step + every - 1) / every * every);
    return hit - every;
}

const std::vector<CrashPhase> kAllPhases{
    CrashPhase::Compute,
    CrashPhase::Communicate,
    CrashPhase::Update,
    CrashPhase::CheckpointBeforeFsync,
    CrashPhase::CheckpointAfterFsync,
    CrashPhase::CheckpointAfterRename,
};

} // namespace

// Failures injected into real runs: detection on the run's clock, recovery by each policy from
// a checkpoint that verifies on disk, and what was lost.
class TestFailures : public QObject {
    Q_OBJECT

private Q_SLOTS:
    void specs_read_and_write_back();
    void bad_specs_data();
    void bad_specs();
    void scenario_failures_round_trip();
    void bad_scenario_failures_data();
    void bad_scenario_failures();

    void fault_matrix_data();
    void fault_matrix();
    void timing_faults_change_no_numbers();
    void corrupted_checkpoint_is_skipped_data();
    void corrupted_checkpoint_is_skipped();

    void detection_waits_for_the_heartbeat();
    void crash_mid_write_leaves_a_truncated_temporary_file();
    void lost_work_and_goodput();
    void elastic_shrink_reshards_the_data();
    void backup_workers_cut_the_straggler();
    void backup_policy_survives_a_crash();
    void injected_crash_equals_scenario_crash();
    void same_numbers_whatever_the_threads();
    void energy_counts_every_state();
    void one_vocabulary_of_changes();
    void a_change_without_an_amount_takes_its_kinds_default();
    void a_slow_link_from_the_menu_is_the_scenarios_slow_link();
    void back_to_full_speed_restores_a_slowed_link();
};

void TestFailures::specs_read_and_write_back() {
    const FailureSpec c = parse_failure_spec("crash:worker=2,step=30,phase=after-fsync");
    QCOMPARE(c.kind, FailureKind::Crash);
    QCOMPARE(c.worker, 2);
    QCOMPARE(c.step, std::int64_t{30});
    QCOMPARE(c.phase, CrashPhase::CheckpointAfterFsync);
    QVERIFY(c.during_checkpoint());
    const FailureSpec p = parse_failure_spec("pause:worker=1,step=10,seconds=5");
    QCOMPARE(p.kind, FailureKind::Pause);
    QCOMPARE(p.seconds, 5.0);
    const FailureSpec k = parse_failure_spec("corrupt:step=20,worker=0");
    QCOMPARE(k.kind, FailureKind::Corrupt);
    QCOMPARE(k.step, std::int64_t{20});
    QCOMPARE(k.corruption, Corruption::BitFlip);
    const FailureSpec l = parse_failure_spec("slow-link:worker=3,step=0,factor=4.5");
    QCOMPARE(l.factor, 4.5);
    for (const FailureSpec& f : {c, p, k, l})
        QCOMPARE(parse_failure_spec(to_text(f)), f);
    QCOMPARE(to_text(c), std::string("crash:worker=2,step=30,phase=after-fsync"));
    QCOMPARE(to_text(parse_failure_spec("crash:step=1,worker=0")),
             std::string("crash:worker=0,step=1,phase=compute"));
}

void TestFailures::bad_specs_data() {
    QTest::addColumn<QString>("spec");
    QTest::addColumn<QString>("fragment");
    QTest::newRow("unknown kind") << "explode:worker=1,step=2"
                                  << "the kind must be one of crash";
    QTest::newRow("empty") << ""
                           << "the kind must be one of";
    QTest::newRow("no worker") << "crash:step=3"
                               << "needs worker=";
    QTest::newRow("no step") << "crash:worker=1"
                             << "needs step=";
    QTest::newRow("bad phase") << "crash:worker=1,step=2,phase=lunch"
                               << "phase must be one of compute, communicate";
    QTest::newRow("negative worker") << "crash:worker=-1,step=2"
                                     << "worker must be a whole number";
    QTest::newRow("not a number") << "pause:worker=1,step=2,seconds=soon"
                                  << "seconds must be a number between 0 and 86400";
    QTest::newRow("pause without seconds") << "pause:worker=1,step=2"
                                           << "needs seconds=";
    QTest::newRow("slow without factor") << "slow-link:worker=1,step=2"
                                         << "needs factor=";
    QTest::newRow("factor below one") << "slow-link:worker=1,step=2,factor=0.5"
                                      << "factor must be a number between 1 and 1000";
    QTest::newRow("key of another kind") << "crash:worker=1,step=2,seconds=3"
                                         << "a crash takes phase, step, worker, not \"seconds\"";
    QTest::newRow("twice") << "crash:worker=1,worker=2,step=1"
                           << "worker given twice";
    QTest::newRow("no equals") << "crash:worker"
                               << "is not of the form key=value";
    QTest::newRow("bad corruption") << "corrupt:worker=0,step=3,how=melt"
                                    << "how must be one of bit-flip, truncate";
    QTest::newRow("huge step") << "crash:worker=0,step=99999999999"
                               << "step must be a whole";
}

void TestFailures::bad_specs() {
    QFETCH(QString, spec);
    QFETCH(QString, fragment);
    const QString message = error_message([&] { parse_failure_spec(spec.toStdString()); });
    LOCKSTEP_VERIFY_CONTAINS(message, fragment);
}

void TestFailures::scenario_failures_round_trip() {
    Scenario a = faulty_scenario(RecoveryPolicy::Elastic);
    a.failures.backup_workers = 1;
    a.failures.events = {crash(2, 7, CrashPhase::Update),
                         parse_failure_spec("corrupt:worker=1,step=6,how=truncate"),
                         parse_failure_spec("pause:worker=0,step=2,seconds=0.5")};
    a.energy.compute_w = 42;
    const std::string text = scenario_to_json(a);
    const Scenario b = parse_scenario(text);
    QCOMPARE(b.failures.policy, RecoveryPolicy::Elastic);
    QCOMPARE(b.failures.backup_workers, 1);
    QCOMPARE(b.failures.heartbeat_s, 0.02);
    QCOMPARE(b.failures.events.size(), std::size_t{3});
    QCOMPARE(b.failures.events[0], a.failures.events[0]);
    QCOMPARE(b.failures.events[1], a.failures.events[1]);
    QCOMPARE(b.energy.compute_w, 42.0);
    QCOMPARE(scenario_to_json(b), text);
    // Objects work as well as the command line's strings.
    const Scenario c = parse_scenario(
        R"({"workers": 3, "checkpoint": {"every": 2}, "failures": {"events": [
             {"kind": "crash", "worker": 1, "step": 4, "phase": "before-fsync"}]}})");
    QCOMPARE(c.failures.events.at(0), crash(1, 4, CrashPhase::CheckpointBeforeFsync));
    // Faults leave the hash alone (a resume may add or drop them); backup workers do not.
    Scenario d = a;
    d.failures.events.clear();
    d.failures.policy = RecoveryPolicy::Restart;
    d.energy = {};
    QCOMPARE(scenario_hash(d), scenario_hash(a));
    d.failures.backup_workers = 0;
    QVERIFY(scenario_hash(d) != scenario_hash(a));
    // Scenarios without faults keep the hash they always had.
    Scenario plain = faulty_scenario();
    plain.failures = {};
    QVERIFY(scenario_to_json(plain).find("failures") == std::string::npos);
}

void TestFailures::bad_scenario_failures_data() {
    QTest::addColumn<QString>("json");
    QTest::addColumn<QString>("fragment");
    QTest::newRow("worker out of range")
        << R"({"workers": 2, "failures": {"events": ["crash:worker=2,step=1"]}})"
        << "failures.events[0] (crash:worker=2,step=1,phase=compute): worker must be between 0 "
           "and 1";
    QTest::newRow("checkpoint crash without checkpoints")
        << R"({"failures": {"events": ["crash:worker=0,step=1,phase=after-rename"]}})"
        << "needs a checkpoint policy";
    QTest::newRow("corrupt without checkpoints")
        << R"({"failures": {"events": ["corrupt:worker=0,step=1"]}})"
        << "needs a checkpoint policy";
    QTest::newRow("backup policy without backups") << R"({"failures": {"policy": "backup"}})"
                                                   << "backup needs failures.backup_workers";
    QTest::newRow("backups for everyone") << R"({"workers": 2, "failures": {"backup_workers": 2}})"
                                          << "failures.backup_workers: must be between 0 and 1";
    QTest::newRow("backup and checkpoint crash")
        << R"({"checkpoint": {"every": 2}, "failures": {"policy": "backup", "backup_workers": 1,
              "events": ["crash:worker=0,step=1,phase=before-fsync"]}})"
        << "with backup workers a crash is a gradient that never arrives";
    QTest::newRow("elastic with everyone crashing")
        << R"({"workers": 2, "failures": {"policy": "elastic",
              "events": ["crash:worker=0,step=1", "crash:worker=1,step=2"]}})"
        << "every worker is set to crash";
    QTest::newRow("bad string spec") << R"({"failures": {"events": ["crash:worker=x,step=1"]}})"
                                     << "failures.events[0]: --fail crash:worker=x,step=1: worker";
    QTest::newRow("object without kind")
        << R"({"failures": {"events": [{"worker": 1, "step": 2}]}})"
        << "failures.events[0].kind: required";
    QTest::newRow("object unknown key")
        << R"({"failures": {"events": [{"kind": "pause", "worker": 0, "step": 2, "phase": "x"}]}})"
        << "failures.events[0].phase: unknown key";
    QTest::newRow("policy unknown") << R"({"failures": {"policy": "pray"}})"
                                    << "failures.policy: must be one of restart, elastic, backup";
    QTest::newRow("heartbeat negative") << R"({"failures": {"heartbeat_s": -1}})"
                                        << "failures.heartbeat_s: must be between 0 and 3600";
    QTest::newRow("energy negative") << R"({"energy": {"idle_w": -5}})"
                                     << "energy.idle_w: must be between 0 and 1000000";
    QTest::newRow("energy unknown") << R"({"energy": {"gpu_w": 5}})"
                                    << "energy.gpu_w: unknown key";
}

void TestFailures::bad_scenario_failures() {
    QFETCH(QString, json);
    QFETCH(QString, fragment);
    const QString message = error_message([&] { parse_scenario(json.toStdString()); });
    LOCKSTEP_VERIFY_CONTAINS(message, fragment);
}

void TestFailures::fault_matrix_data() {
    QTest::addColumn<int>("policy");
    QTest::addColumn<int>("phase");
    QTest::addColumn<int>("step");
    QTest::addColumn<int>("restore");
    for (const RecoveryPolicy policy :
         {RecoveryPolicy::Restart, RecoveryPolicy::Elastic, RecoveryPolicy::Backup}) {
        for (const CrashPhase phase : kAllPhases) {
            // With backup workers a crash is a missing gradient: step phases only.
            if (policy == RecoveryPolicy::Backup && phase >= CrashPhase::CheckpointBeforeFsync)
                continue;
            for (const int step : {1, 4, 7, 11}) {
                for (const RestoreMode mode : {RestoreMode::Full, RestoreMode::WeightsOnly}) {
                    const std::string name =
                        std::string(to_string(policy)) + " " + std::string(to_string(phase)) +
                        " step " + std::to_string(step) + " " + std::string(to_string(mode));
                    QTest::newRow(name.c_str())
                        << static_cast<int>(policy) << static_cast<int>(phase) << step
                        << static_cast<int>(mode);
                }
            }
        }
    }
}

void TestFailures::fault_matrix() {
    QFETCH(int, policy);
    QFETCH(int, phase);
    QFETCH(int, step);
    QFETCH(int, restore);
    Scenario s = faulty_scenario(static_cast<RecoveryPolicy>(policy));
    s.checkpoint->restore = static_cast<RestoreMode>(restore);
    const FailureSpec fault = crash(1, step, static_cast<CrashPhase>(phase));
    s.failures.events = {fault};
    QTemporaryDir dir;
    QVERIFY(dir.isValid());
    if (static_cast<RecoveryPolicy>(policy) == RecoveryPolicy::Backup) {
        // Nothing rolls back: no checkpoint is read, no step is lost, the survivors go on
        // without the dead worker's gradient, from the step of the crash.
        s.failures.backup_workers = 1;
        const Outcome out = run(s, dir.path().toStdString());
        QCOMPARE(out.recoveries.size(), std::size_t{1});
        QVERIFY(!out.recoveries[0].rolled_back);
        QCOMPARE(out.recoveries[0].restored_step, std::int64_t{step});
        QVERIFY(out.recoveries[0].checkpoint.empty());
        QCOMPARE(out.metrics.lost_steps, std::int64_t{0});
        QCOMPARE(out.workers_left, s.workers - 1);
        QCOMPARE(out.metrics.steps, s.steps);
        QVERIFY(out.metrics.replicas_aligned);
        // Before the crash one late gradient a step is dropped, at the crash the dead one's.
        QCOMPARE(out.metrics.dropped_gradients, std::int64_t{step + 1});
        QTemporaryDir again;
        QVERIFY(bitwise_equal(run(s, again.path().toStdString()).parameters, out.parameters));
        return;
    }
    const Outcome out = run(s, dir.path().toStdString());

    // One crash, detected, and the run rolled back to the newest complete checkpoint.
    QCOMPARE(out.recoveries.size(), std::size_t{1});
    const auto& r = out.recoveries.front();
    QVERIFY(r.rolled_back);
    QCOMPARE(r.worker, 1);
    const std::int64_t restored = expected_restore(fault, 3);
    QCOMPARE(r.restored_step, restored);
    if (restored == 0) {
        QVERIFY(r.checkpoint.empty()); // nothing committed yet: everyone starts over
    } else {
        QCOMPARE(r.checkpoint.filename().string(), checkpoint_directory_name(restored));
        // What was loaded was complete then; the files on disk (rewritten by the continuation
        // under the same name) are still a complete checkpoint now.
        QCOMPARE(load_checkpoint(r.checkpoint).step, restored);
    }
    if (fault.during_checkpoint()) {
        // The checkpoint the crash interrupted was seen, and refused as partial.
        QVERIFY(!r.rejected.empty());
        QCOMPARE(r.rejected.front().status, CheckpointStatus::Partial);
        QCOMPARE(r.rejected.front().step, restored + 3);
    }
    QCOMPARE(out.metrics.failures, std::int64_t{1});
    QCOMPARE(out.metrics.steps, s.steps);
    QVERIFY(out.metrics.replicas_aligned);
    QVERIFY(out.metrics.lost_steps >= 1);
    QVERIFY(out.metrics.detection_s > 0);

    const auto clean = clean_parameters(s);
    if (static_cast<RecoveryPolicy>(policy) == RecoveryPolicy::Restart) {
        QCOMPARE(out.workers_left, s.workers);
        // Full state: the continuation is the uninterrupted run, bit for bit. Weights alone
        // (with a checkpoint to take them from) give another run.
        if (static_cast<RestoreMode>(restore) == RestoreMode::Full || restored == 0)
            QVERIFY(bitwise_equal(out.parameters, clean));
        else
            QVERIFY(!bitwise_equal(out.parameters, clean));
    } else {
        // Elastic: the survivors go on alone, which is another run, the same every time.
        QCOMPARE(out.workers_left, s.workers - 1);
        QCOMPARE(out.metrics.workers_at_end, s.workers - 1);
        QVERIFY(!bitwise_equal(out.parameters, clean));
        QTemporaryDir again;
        QVERIFY(bitwise_equal(run(s, again.path().toStdString()).parameters, out.parameters));
    }
}

void TestFailures::timing_faults_change_no_numbers() {
    // A pause and a slow link cost time, never a different model.
    Scenario s = faulty_scenario();
    s.checkpoint.reset();
    const Outcome clean = run(s, {});
    s.failures.events = {parse_failure_spec("pause:worker=2,step=3,seconds=0.25"),
                         parse_failure_spec("slow-link:worker=1,step=5,factor=20")};
    const Outcome slow = run(s, {});
    QVERIFY(bitwise_equal(slow.parameters, clean.parameters));
    QVERIFY(slow.metrics.total_time_s > clean.metrics.total_time_s + 0.25);
    QCOMPARE(slow.metrics.failures, std::int64_t{0});
    // The slow link's messages take longer from step 5 on, and only messages touching worker 1.
    auto longest = [](const Outcome& o, std::int64_t from, int worker) {
        Ticks best = 0;
        for (const auto& e : o.events)
            if (e.kind == EventKind::Send && e.step >= from &&
                (e.worker == worker || e.peer == worker))
                best = std::max(best, e.end - e.start);
        return best;
    };
    QVERIFY(longest(slow, 5, 1) > 10 * longest(clean, 5, 1));
    Ticks before = 0;
    for (const auto& e : slow.events)
        if (e.kind == EventKind::Send && e.step < 5)
            before = std::max(before, e.end - e.start);
    QCOMPARE(before, longest(clean, 0, 1));
}

void TestFailures::corrupted_checkpoint_is_skipped_data() {
    QTest::addColumn<QString>("how");
    QTest::addColumn<int>("fault");
    QTest::newRow("bit flip") << "bit-flip" << static_cast<int>(CheckpointFault::ChecksumMismatch);
    QTest::newRow("truncate") << "truncate" << static_cast<int>(CheckpointFault::SizeMismatch);
}

void TestFailures::corrupted_checkpoint_is_skipped() {
    QFETCH(QString, how);
    QFETCH(int, fault);
    // The checkpoint of step 9 is damaged on disk after its commit; a crash at step 10 must
    // refuse it, fall back to step 6, and still continue exactly.
    Scenario s = faulty_scenario();
    s.failures.events = {parse_failure_spec("corrupt:worker=2,step=9,how=" + how.toStdString()),
                         crash(0, 10, CrashPhase::Communicate)};
    QTemporaryDir dir;
    const Outcome out = run(s, dir.path().toStdString());
    QCOMPARE(out.recoveries.size(), std::size_t{1});
    const auto& r = out.recoveries.front();
    QCOMPARE(r.restored_step, std::int64_t{6});
    QCOMPARE(r.rejected.size(), std::size_t{1});
    QCOMPARE(r.rejected.front().step, std::int64_t{9});
    QCOMPARE(r.rejected.front().status, CheckpointStatus::Corrupt);
    QCOMPARE(static_cast<int>(r.rejected.front().fault), fault);
    QVERIFY(QString::fromStdString(r.rejected.front().reason).contains("worker-2.ckpt"));
    QCOMPARE(r.lost_steps, std::int64_t{5}); // steps 6 to 10 again
    QVERIFY(bitwise_equal(out.parameters, clean_parameters(s)));
}

void TestFailures::detection_waits_for_the_heartbeat() {
    Scenario s = faulty_scenario();
    s.cost.jitter = 0;
    s.failures.heartbeat_s = 0.5;
    s.failures.restart_s = 0.25;
    s.failures.events = {crash(2, 5, CrashPhase::Compute)};
    QTemporaryDir dir;
    const Outcome out = run(s, dir.path().toStdString());
    const auto& r = out.recoveries.at(0);
    QCOMPARE(r.detected - r.crashed, to_ticks(0.5));
    // The dead worker's lane is failed from the crash until its replacement is up.
    const auto failed = std::find_if(out.events.begin(), out.events.end(), [](const TraceEvent& e) {
        return e.kind == EventKind::Failed;
    });
    QVERIFY(failed != out.events.end());
    QCOMPARE(failed->worker, 2);
    QCOMPARE(failed->start, r.crashed);
    QCOMPARE(failed->end, r.detected + to_ticks(0.25));
    QVERIFY(failed->crash_begins); // the trace says where the crash begins
    // Everyone else waits for the silent worker up to the detection, sees it, waits for the
    // replacement, and reads the checkpoint back.
    for (int w : {0, 1}) {
        bool waited = false, detected = false, restored = false;
        for (const auto& e : out.events) {
            if (e.worker != w)
                continue;
            if (e.kind == EventKind::Wait && e.peer == 2 && e.end == r.detected)
                waited = true;
            if (e.kind == EventKind::Detect && e.peer == 2 && e.start == r.detected)
                detected = true;
            if (e.kind == EventKind::Restore && e.start == r.detected + to_ticks(0.25) &&
                e.bytes > 0)
                restored = true;
        }
        QVERIFY2(waited && detected && restored, qPrintable(QString::number(w)));
    }
    QCOMPARE(out.metrics.detection_s, 0.5);
    QVERIFY(out.metrics.recovery_s >= 0.25);
    // Lanes stay in time order, so the views can search them.
    for (int w = 0; w < s.workers; ++w) {
        Ticks last = 0;
        for (const auto& e : out.events) {
            if (e.worker != w || e.kind == EventKind::Send || e.kind == EventKind::Receive ||
                e.kind == EventKind::Reduce)
                continue;
            QVERIFY2(e.start >= last,
                     qPrintable(QString::fromStdString(std::string(to_string(e.kind)))));
            last = e.start;
        }
    }
}

void TestFailures::crash_mid_write_leaves_a_truncated_temporary_file() {
    // With no recovery to clean up (the crash is the last thing that happens), the files stay as
    // the crash left them.
    Scenario s = faulty_scenario();
    s.steps = 6;
    QTemporaryDir dir;
    const auto trainer = make_run(s, load_dataset(s));
    trainer->set_checkpoint_directory(dir.path().toStdString());
    for (int k = 0; k < 4; ++k)
        trainer->step(); // the checkpoint of step 3 committed, then one step more
    CheckpointOptions options;
    options.crash = CrashPoint{1, CrashPoint::Moment::BeforeFsync};
    TrainingState state = trainer->capture_state();
    const auto written = save_checkpoint(dir.path().toStdString(), state, options);
    QVERIFY(written.crash.has_value());
    const fs::path temp = written.directory / (worker_file_name(1) + std::string(temp_suffix));
    QVERIFY(fs::exists(temp));
    const auto whole = encode_worker_file(state, 1, false).size();
    QCOMPARE(static_cast<std::size_t>(fs::file_size(temp)), whole / 2);
    // Recovery inside the trainer cleans it and goes back to step 3.
    s.failures.events = {crash(1, 4, CrashPhase::Compute)};
    const auto again = make_run(s, load_dataset(s));
    again->set_checkpoint_directory(dir.path().toStdString());
    TrainingState at3 =
        load_newest_complete(dir.path().toStdString(), scenario_hash(s), 3).state.value();
    again->restore_state(at3, RestoreMode::Full);
    again->run_to_end();
    const auto r = again->recoveries().at(0);
    QCOMPARE(r.restored_step, std::int64_t{3});
    QVERIFY(std::find(r.cleaned.begin(), r.cleaned.end(), temp) != r.cleaned.end());
    QVERIFY(!fs::exists(temp));
    QCOMPARE(r.rejected.at(0).step, std::int64_t{4});
    QCOMPARE(r.rejected.at(0).status, CheckpointStatus::Partial);
}

void TestFailures::lost_work_and_goodput() {
    Scenario s = faulty_scenario();
    s.failures.events = {crash(0, 8, CrashPhase::Update)};
    QTemporaryDir dir;
    const Outcome out = run(s, dir.path().toStdString());
    const Outcome clean = run_clean(s);
    // Back to step 6 from inside step 8: steps 6, 7 and 8 are done twice.
    QCOMPARE(out.metrics.lost_steps, std::int64_t{3});
    QCOMPARE(out.recoveries.at(0).lost_steps, std::int64_t{3});
    const std::int64_t per_step = static_cast<std::int64_t>(s.global_batch());
    QCOMPARE(out.metrics.samples, clean.metrics.samples + 3 * per_step);
    QCOMPARE(out.metrics.useful_samples, clean.metrics.samples);
    QVERIFY(out.metrics.lost_worker_s > 0);
    QVERIFY(out.metrics.goodput < out.metrics.throughput);
    QVERIFY(out.metrics.goodput < clean.metrics.goodput);
    QVERIFY(out.metrics.total_time_s > clean.metrics.total_time_s);
}

void TestFailures::elastic_shrink_reshards_the_data() {
    Scenario s = faulty_scenario(RecoveryPolicy::Elastic);
    s.failures.events = {crash(1, 5, CrashPhase::Compute)};
    QTemporaryDir dir;
    Trace trace;
    const auto trainer = make_run(s, load_dataset(s), &trace);
    trainer->set_checkpoint_directory(dir.path().toStdString());
    trainer->run_to_end();
    QCOMPARE(trainer->replicas().size(), std::size_t{2});
    // The two survivors share all 120 examples, 60 each, in order.
    QCOMPARE(trainer->replicas()[0].shard.begin, std::size_t{0});
    QCOMPARE(trainer->replicas()[0].shard.size(), std::size_t{60});
    QCOMPARE(trainer->replicas()[1].shard.begin, std::size_t{60});
    QCOMPARE(trainer->replicas()[1].shard.size(), std::size_t{60});
    QVERIFY(trainer->metrics().replicas_aligned);
    const RunMetrics m = trainer->metrics();
    QCOMPARE(m.workers, 3);
    QCOMPARE(m.workers_at_end, 2);
    QCOMPARE(m.steps, s.steps);
    // Later checkpoints are written by the two survivors.
    const auto scan = scan_checkpoints(dir.path().toStdString());
    QCOMPARE(scan.checkpoints.back().manifest->workers, 2);
    QCOMPARE(scan.checkpoints.back().status, CheckpointStatus::Complete);
    // The dead worker's lane is failed from its crash to the end of the run.
    Ticks failed = 0;
    for (const auto& lane : m.per_worker)
        failed = std::max(failed, to_ticks(lane.failed_s));
    QVERIFY(failed > to_ticks(m.total_time_s / 2));
    // The lane gone for good is drawn failed step after step, and only the first interval,
    // from the crash on, is marked as where the crash begins.
    int intervals = 0, marked = 0;
    Ticks crash_start = -1;
    for (const auto& e : trace.events())
        if (e.kind == EventKind::Failed) {
            QCOMPARE(e.worker, 1);
            ++intervals;
            if (e.crash_begins) {
                ++marked;
                crash_start = e.start;
            }
        }
    QVERIFY(intervals > 1);
    QCOMPARE(marked, 1);
    QCOMPARE(crash_start, trainer->recoveries().at(0).crashed);
}

void TestFailures::backup_workers_cut_the_straggler() {
    Scenario s = faulty_scenario();
    s.checkpoint.reset();
    s.workers = 4;
    s.cost.jitter = 0;
    s.delays.slowdown = {1, 1, 1, 4};
    const Outcome waiting = run(s, {});
    s.failures.backup_workers = 1;
    const Outcome backed = run(s, {});
    // Every step aggregates the first three gradients: the straggler's is dropped each time.
    QCOMPARE(backed.metrics.dropped_gradients, s.steps);
    QCOMPARE(waiting.metrics.dropped_gradients, std::int64_t{0});
    QVERIFY(backed.metrics.step_time_s < 0.5 * waiting.metrics.step_time_s);
    QVERIFY(backed.metrics.replicas_aligned);
    QVERIFY(!bitwise_equal(backed.parameters, waiting.parameters));
    QCOMPARE(backed.metrics.useful_samples,
             backed.metrics.samples - s.steps * static_cast<std::int64_t>(s.batch));
    // The straggler's compute is cut where the step moved on: nobody waits for it.
    double straggler_waits = 0;
    for (int w = 0; w < 3; ++w)
        straggler_waits += backed.metrics.per_worker[static_cast<std::size_t>(w)].waiting_s;
    double plain_waits = 0;
    for (int w = 0; w < 3; ++w)
        plain_waits += waiting.metrics.per_worker[static_cast<std::size_t>(w)].waiting_s;
    QVERIFY(straggler_waits < 0.1 * plain_waits);
}

void TestFailures::backup_policy_survives_a_crash() {
    Scenario s = faulty_scenario(RecoveryPolicy::Backup);
    s.checkpoint.reset();
    s.workers = 4;
    s.failures.backup_workers = 1;
    s.failures.events = {crash(2, 6, CrashPhase::Communicate)};
    const Outcome out = run(s, {});
    QCOMPARE(out.recoveries.size(), std::size_t{1});
    QVERIFY(!out.recoveries[0].rolled_back);
    QCOMPARE(out.metrics.lost_steps, std::int64_t{0});
    QCOMPARE(out.workers_left, 3);
    QCOMPARE(out.metrics.steps, s.steps);
    QVERIFY(out.metrics.replicas_aligned);
    // One late gradient in each of steps 0-5, the dead worker's own in step 6; from then on
    // three workers are left and all three are needed, so nothing else drops.
    QCOMPARE(out.metrics.dropped_gradients, std::int64_t{7});
    // Nobody waited for the heartbeat.
    for (const auto& e : out.events)
        QVERIFY(!(e.kind == EventKind::Wait && e.peer == 2));
}

void TestFailures::injected_crash_equals_scenario_crash() {
    // The lab's click: inject between steps, as the scenario would have had it.
    Scenario s = faulty_scenario();
    s.failures.events = {crash(1, 7, CrashPhase::Communicate)};
    QTemporaryDir a, b;
    const Outcome planned = run(s, a.path().toStdString());
    Scenario quiet = s;
    quiet.failures.events.clear();
    Trace trace;
    const auto trainer = make_run(quiet, load_dataset(quiet), &trace);
    trainer->set_checkpoint_directory(b.path().toStdString());
    for (int k = 0; k < 7; ++k)
        trainer->step();
    trainer->inject_failure(crash(1, 7, CrashPhase::Communicate));
    trainer->run_to_end();
    QVERIFY(bitwise_equal(trainer->parameters(), planned.parameters));
    QCOMPARE(trainer->metrics().total_time_s, planned.metrics.total_time_s);
    QCOMPARE(trainer->recoveries().size(), std::size_t{1});
    // Faults the run cannot take are refused with the reason.
    QVERIFY(error_message([&] {
                trainer->inject_failure(crash(5, 1, CrashPhase::Compute));
            }).contains("there is no running worker 5"));
    const auto bare = make_run(quiet, load_dataset(quiet));
    QVERIFY(error_message([&] {
                bare->inject_failure(crash(0, 1, CrashPhase::CheckpointAfterFsync));
            }).contains("this run writes no checkpoints"));
}

void TestFailures::same_numbers_whatever_the_threads() {
    Scenario s = faulty_scenario(RecoveryPolicy::Elastic);
    s.failures.backup_workers = 1;
    s.failures.events = {crash(2, 5, CrashPhase::CheckpointAfterFsync),
                         parse_failure_spec("slow-link:worker=0,step=2,factor=3")};
    std::vector<Outcome> outs;
    for (int threads : {1, 2, 4}) {
        tbb::global_control limit(tbb::global_control::max_allowed_parallelism,
                                  static_cast<std::size_t>(threads));
        QTemporaryDir dir;
        outs.push_back(run(s, dir.path().toStdString()));
    }
    for (const auto& o : outs) {
        QVERIFY(bitwise_equal(o.parameters, outs.front().parameters));
        QCOMPARE(o.events.size(), outs.front().events.size());
        QCOMPARE(o.metrics.total_time_s, outs.front().metrics.total_time_s);
        QCOMPARE(o.metrics.energy_j, outs.front().metrics.energy_j);
        for (std::size_t i = 0; i < o.events.size(); ++i) {
            QCOMPARE(o.events[i].start, outs.front().events[i].start);
            QCOMPARE(o.events[i].kind, outs.front().events[i].kind);
        }
    }
}

void TestFailures::energy_counts_every_state() {
    // Two lanes of a 10 s run: every second priced at its state's power.
    EnergyConfig power;
    power.compute_w = 100;
    power.communicate_w = 50;
    power.wait_w = 20;
    power.checkpoint_w = 30;
    power.idle_w = 5;
    std::vector<WorkerMetrics> lanes(2);
    lanes[0] = {4, 2, 1, 1, 1, 1, 0}; // 10 s accounted
    lanes[1] = {2, 0, 3, 0, 0, 0, 5}; // 5 s accounted, 5 s failed: idle
    const double expected = (5 * 100 + 2 * 50 + 1 * 20 + 2 * 30) + (2 * 100 + 3 * 20 + 5 * 5);
    QCOMPARE(energy_joules(lanes, 10.0, power), expected);

    // A crash costs energy as well as time, and the energy per useful sample goes up.
    Scenario s = faulty_scenario();
    const Outcome clean = run_clean(s);
    s.failures.events = {crash(1, 10, CrashPhase::Compute)};
    QTemporaryDir dir;
    const Outcome crashed = run(s, dir.path().toStdString());
    QVERIFY(clean.metrics.energy_j > 0);
    QVERIFY(crashed.metrics.energy_j > clean.metrics.energy_j);
    QVERIFY(crashed.metrics.energy_per_sample_j > clean.metrics.energy_per_sample_j);
    // The default prices are the documented assumptions.
    const EnergyConfig assumed;
    QCOMPARE(assumed.compute_w, 300.0);
    QCOMPARE(assumed.idle_w, 60.0);
}

// Every change a teacher can make is one kind in failures/intervention.h: its name, words and
// default are found there and nowhere else.
void TestFailures::one_vocabulary_of_changes() {
    std::set<std::string_view> ids;
    int index = 0;
    for (const FaultKind* kind : fault_kinds()) {
        QVERIFY(ids.insert(kind->id).second); // every name once
        QCOMPARE(int(kind->kind), index++);   // its file names the kind the list gives it
        QCOMPARE(&fault_kind(kind->kind), kind);
        QCOMPARE(find_fault_kind(kind->id), kind);
        QVERIFY(kind->apply != nullptr);
        QVERIFY(kind->refusal != nullptr);
        // A change to one worker is on the worker's menu and says what it did; a change to the
        // whole run is neither.
        QCOMPARE(kind->menu_text != nullptr, !kind->whole_run);
        QCOMPARE(kind->done_text != nullptr, !kind->whole_run);
    }
    for (std::string_view id :
         {"slow", "full-speed", "pause", "crash", "crash-checkpoint", "retune", "broadcast"})
        QVERIFY(ids.count(id) == 1);
    // A fault a scenario file (and lockstep-cli run --fail) can schedule has the name of the
    // change that makes it while the run goes on: one word for one fault everywhere.
    const std::pair<FailureKind, Intervention::Kind> same[] = {
        {FailureKind::Crash, Intervention::Kind::Crash},
        {FailureKind::Pause, Intervention::Kind::Pause},
        {FailureKind::SlowLink, Intervention::Kind::SlowLink},
        {FailureKind::BucketOrder, Intervention::Kind::BucketOrder}};
    for (const auto& [scheduled, change] : same)
        QCOMPARE(to_string(scheduled), fault_kind(change).id);
    for (const FaultKind* kind : fault_kinds()) // lower case, words joined by '-'
        QVERIFY2(kind->id.find_first_not_of("abcdefghijklmnopqrstuvwxyz-") ==
                     std::string_view::npos,
                 std::string(kind->id).c_str());
    const auto slow = make_intervention("slow", 2, 7, 4.0);
    QVERIFY(slow.has_value());
    QCOMPARE(slow->kind, Intervention::Kind::Slow);
    QCOMPARE(slow->worker, 2);
    QCOMPARE(slow->at, std::int64_t{7});
    QCOMPARE(slow->amount, 4.0);
    QVERIFY(!make_intervention("melt", 0, 0).has_value());

    // A kind's own refusal: no checkpoint to crash in without a checkpoint policy.
    Scenario s = faulty_scenario();
    Intervention late = *make_intervention("crash-checkpoint", 1, 0);
    s.checkpoint.reset();
    QVERIFY(bool(fault_kind(late.kind).refusal(s, late)));
    s.checkpoint = CheckpointConfig{};
    QVERIFY(!fault_kind(late.kind).refusal(s, late));

    // What the Controls show: a slowed worker's pace, the default when none was given.
    Scenario shown = faulty_scenario();
    Intervention slower = *make_intervention("slow", 1, 0);
    fault_kind(slower.kind).in_scenario(shown, slower);
    QCOMPARE(shown.delays.slowdown.at(1), fault_kind(Intervention::Kind::Slow).default_amount);
    QCOMPARE(shown.delays.slowdown.at(0), 1.0);
}

// Slow without a factor is 3 times slower; a pause without seconds lasts two of the run's own
// steps: the defaults of failures/fault_slow.cpp and fault_pause.cpp, met in the trace.
void TestFailures::a_change_without_an_amount_takes_its_kinds_default() {
    Scenario s; // no jitter: every worker computes a step in the same time
    s.workers = 3;
    s.steps = 6;
    Trace trace;
    const auto run = make_run(s, load_dataset(s), &trace);
    for (int k = 0; k < 4; ++k)
        run->step();
    const double step_s = run->mean_step_seconds();
    QVERIFY(step_s > 0.0);
    Intervention slow = *make_intervention("slow", 1, run->ordinal());
    run->intervene(slow);
    Intervention pause = *make_intervention("pause", 2, run->ordinal());
    run->intervene(pause);
    run->step();
    auto compute_of = [&](int worker, std::int64_t step) {
        for (const auto& e : trace.events())
            if (e.worker == worker && e.step == step && e.kind == EventKind::Compute)
                return e.end - e.start;
        return Ticks{-1};
    };
    QCOMPARE(compute_of(1, 4), 3 * compute_of(0, 4));
    int pauses = 0;
    for (const auto& e : trace.events())
        if (e.kind == EventKind::Pause && e.step == 4) {
            ++pauses;
            QCOMPARE(e.worker, 2);
            QCOMPARE(e.end - e.start, to_ticks(2.0 * step_s));
        }
    QCOMPARE(pauses, 1);

    // The kind checks its own amount, for every trainer alike: 500 times slower is refused,
    // named, and the worker's pace is left as it was.
    Intervention absurd = *make_intervention("slow", 0, run->ordinal(), 500.0);
    try {
        run->intervene(absurd);
        QFAIL("a 500-fold slowdown was taken");
    } catch (const Error& e) {
        QVERIFY(std::string(e.what()).find("slowdown") != std::string::npos);
    }
    QVERIFY(run->scenario().delays.slowdown.empty() || run->scenario().delays.slowdown[0] == 1.0);
}

// "Slow its link 10×" from the worker menu is the scenario's slow link from the step at the
// playhead: the same times, event for event, and the same parameters. A run whose workers send
// nothing, or one under ssp, refuses it by name.
void TestFailures::a_slow_link_from_the_menu_is_the_scenarios_slow_link() {
    Scenario s;
    s.workers = 4;
    s.steps = 6;
    s.algorithm = Algorithm::Ring;
    Trace clicked;
    const auto run = make_run(s, load_dataset(s), &clicked);
    for (int k = 0; k < 3; ++k)
        run->step();
    Intervention slow_link = *make_intervention("slow-link", 2, run->ordinal());
    run->intervene(slow_link);
    while (!run->finished())
        run->step();

    Scenario written = s;
    FailureSpec slow;
    slow.kind = FailureKind::SlowLink;
    slow.worker = 2;
    slow.step = 3;
    slow.factor = fault_kind(Intervention::Kind::SlowLink).default_amount;
    written.failures.events.push_back(slow);
    Trace planned;
    const auto reference = make_run(written, load_dataset(written), &planned);
    while (!reference->finished())
        reference->step();
    QCOMPARE(slow.factor, 10.0);
    QCOMPARE(clicked.events().size(), planned.events().size());
    for (std::size_t i = 0; i < clicked.events().size(); ++i) {
        QCOMPARE(clicked.events()[i].start, planned.events()[i].start);
        QCOMPARE(clicked.events()[i].end, planned.events()[i].end);
    }
    QCOMPARE(run->parameters(), reference->parameters());
    // And it did slow step 3 down: its last round ends later than in the plain run.
    Trace plain;
    const auto quick = make_run(s, load_dataset(s), &plain);
    while (!quick->finished())
        quick->step();
    QVERIFY(clicked.snapshots().back().time > plain.snapshots().back().time);
    QCOMPARE(clicked.snapshots()[2].time, plain.snapshots()[2].time);

    const FaultKind& kind = fault_kind(Intervention::Kind::SlowLink);
    const Intervention change = *make_intervention("slow-link", 1, 0);
    Scenario alone = s;
    alone.algorithm = Algorithm::None;
    QVERIFY(bool(kind.refusal(alone, change)));
    Scenario loose = s;
    loose.sync = SyncConfig{};
    loose.sync->mode = SyncMode::Ssp;
    const Refusal no = kind.refusal(loose, change);
    QVERIFY(bool(no));
    QCOMPARE(no.arg, std::string("ssp"));
    QVERIFY(!kind.refusal(s, change));
}

// "Back to full speed" after "Slow its link 10×": from its step on, the worker's messages travel
// at the link's own speed again, so the steps take as long as the plain run's; before it they
// took as long as the slowed run's. Where no link can be slowed (ssp), it restores the pace alone.
void TestFailures::back_to_full_speed_restores_a_slowed_link() {
    Scenario s;
    s.workers = 4;
    s.steps = 6;
    s.algorithm = Algorithm::Ring;
    auto trace_of = [&](bool restore) {
        Trace trace;
        const auto run = make_run(s, load_dataset(s), &trace);
        run->step();
        Intervention slow = *make_intervention("slow-link", 2, run->ordinal());
        run->intervene(slow);
        while (!run->finished()) {
            Intervention back = *make_intervention("full-speed", 2, run->ordinal());
            if (restore && run->steps_done() == 3)
                run->intervene(back);
            run->step();
        }
        return trace;
    };
    Trace plain;
    const auto quick = make_run(s, load_dataset(s), &plain);
    while (!quick->finished())
        quick->step();
    const Trace slowed = trace_of(false);
    const Trace restored = trace_of(true);
    auto took = [](const Trace& t, std::size_t k) {
        return t.snapshots()[k].time - (k == 0 ? Ticks{0} : t.snapshots()[k - 1].time);
    };
    QCOMPARE(restored.snapshots().size(), std::size_t{6});
    for (std::size_t k = 1; k < 3; ++k) {
        QCOMPARE(took(restored, k), took(slowed, k));
        QVERIFY(took(restored, k) > took(plain, k));
    }
    for (std::size_t k = 3; k < 6; ++k)
        QCOMPARE(took(restored, k), took(plain, k));

    Scenario loose = s;
    loose.sync = SyncConfig{};
    loose.sync->mode = SyncMode::Ssp;
    loose.algorithm = Algorithm::ParameterServer;
    const auto ssp = make_run(loose, load_dataset(loose), nullptr);
    ssp->step();
    Intervention slow = *make_intervention("slow", 1, ssp->ordinal());
    ssp->intervene(slow);
    Intervention back = *make_intervention("full-speed", 1, ssp->ordinal());
    ssp->intervene(back);
    ssp->step();
    QVERIFY(ssp->steps_done() > 0);
}

QTEST_GUILESS_MAIN(TestFailures)
#include "test_failures.moc"
