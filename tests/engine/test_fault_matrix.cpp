// Every fault the engine can inject, against every way of recovering from it: fault kind and
// phase x step x recovery policy x collective algorithm x restore kind x transport, one named row
// each. On threads, every row must go back to a complete checkpoint that holds exactly the
// uninterrupted run's state at its step, and every full restart must then finish bit for bit
// like the uninterrupted run. Over processes (a rank of a run over MPI), where these faults are
// not injected, every row must be refused by name before anything runs.

#include "checkpoint/checkpoint.h"
#include "runs/runs.h"
#include "scenario/scenario.h"
#include "trainers/rank_worker.h"

#include <QTemporaryDir>
#include <QtTest>

#include <cstring>
#include <filesystem>
#include <map>
#include <optional>
#include <vector>

using namespace lockstep;
namespace fs = std::filesystem;

Q_DECLARE_METATYPE(lockstep::FailureKind)
Q_DECLARE_METATYPE(lockstep::CrashPhase)
Q_DECLARE_METATYPE(lockstep::RecoveryPolicy)
Q_DECLARE_METATYPE(lockstep::Algorithm)

namespace {

constexpr std::int64_t kSteps = 10;
constexpr std::int64_t kEvery = 2;
constexpr int kCrashedLane = 1;

// How the run is brought back: everything (optionally from sharded optimizer files), or the
// weights alone.
enum class RestoreKind { Full, FullSharded, WeightsOnly };

// The fault of a row: a crash in a step phase or inside a checkpoint's save, or a committed
// checkpoint damaged on disk before a crash in a step phase makes recovery read it.
struct Fault {
    const char* name;
    CrashPhase phase;
    std::optional<Corruption> damage;
};

const Fault kFaults[] = {
    {"crash/compute", CrashPhase::Compute, std::nullopt},
    {"crash/communicate", CrashPhase::Communicate, std::nullopt},
    {"crash/update", CrashPhase::Update, std::nullopt},
    {"crash/before-fsync", CrashPhase::CheckpointBeforeFsync, std::nullopt},
    {"crash/after-fsync", CrashPhase::CheckpointAfterFsync, std::nullopt},
    {"crash/after-rename", CrashPhase::CheckpointAfterRename, std::nullopt},
    {"bit-flip+crash/compute", CrashPhase::Compute, Corruption::BitFlip},
    {"bit-flip+crash/communicate", CrashPhase::Communicate, Corruption::BitFlip},
    {"bit-flip+crash/update", CrashPhase::Update, Corruption::BitFlip},
    {"truncate+crash/compute", CrashPhase::Compute, Corruption::Truncate},
    {"truncate+crash/communicate", CrashPhase::Communicate, Corruption::Truncate},
    {"truncate+crash/update", CrashPhase::Update, Corruption::Truncate},
};

bool in_checkpoint(CrashPhase phase) {
    return phase >= CrashPhase::CheckpointBeforeFsync;
}

// A tiny run on the modelled clock: momentum, shuffling and jitter, so that every part of the
// state matters to the continuation; a checkpoint every 2 steps, all of them kept.
Scenario matrix_scenario(Algorithm algorithm, RecoveryPolicy policy, RestoreKind restore) {
    Scenario s;
    s.name = "fault-matrix";
    s.steps = kSteps;
    s.workers = 3;
    s.batch = 8;
    s.algorithm = algorithm;
    s.model.layers = {2, 8, 3};
    s.dataset = {"spiral", "", 120, 0.05, 3};
    s.cost.jitter = 0.3;
    s.checkpoint = CheckpointConfig{kEvery, 1000, restore == RestoreKind::FullSharded,
                                    restore == RestoreKind::WeightsOnly ? RestoreMode::WeightsOnly
                                                                        : RestoreMode::Full};
    s.failures.policy = policy;
    return s;
}

bool bitwise_equal(const std::vector<double>& a, const std::vector<double>& b) {
    return a.size() == b.size() && std::memcmp(a.data(), b.data(), a.size() * sizeof(double)) == 0;
}

// The uninterrupted run of an algorithm: its state after every step (index: steps done).
const std::vector<TrainingState>& uninterrupted(Algorithm algorithm) {
    static std::map<Algorithm, std::vector<TrainingState>> runs;
    auto& states = runs[algorithm];
    if (states.empty()) {
        Scenario s = matrix_scenario(algorithm, RecoveryPolicy::Restart, RestoreKind::Full);
        s.checkpoint.reset();
        const auto trainer = make_run(s, load_dataset(s));
        states.push_back(trainer->capture_state());
        while (!trainer->finished()) {
            trainer->step();
            states.push_back(trainer->capture_state());
        }
    }
    return states;
}

// Where the checkpoints go: memory-backed when the system has it, so that 600 runs' fsyncs
// cost little; the commit protocol is the same on any file system.
QString scratch_template() {
    std::error_code ec;
    if (fs::is_directory("/dev/shm", ec))
        return QStringLiteral("/dev/shm/lockstep-fault-matrix-XXXXXX");
    return QDir::tempPath() + QStringLiteral("/lockstep-fault-matrix-XXXXXX");
}

} // namespace

class TestFaultMatrix : public QObject {
    Q_OBJECT

private Q_SLOTS:
    void every_fault_recovers_data();
    void every_fault_recovers();
};

void TestFaultMatrix::every_fault_recovers_data() {
    QTest::addColumn<int>("fault");
    QTest::addColumn<int>("step");
    QTest::addColumn<RecoveryPolicy>("policy");
    QTest::addColumn<Algorithm>("algorithm");
    QTest::addColumn<int>("restore");
    QTest::addColumn<bool>("processes");
    const std::pair<RecoveryPolicy, const char*> policies[] = {
        {RecoveryPolicy::Restart, "restart"}, {RecoveryPolicy::Elastic, "elastic"}};
    const std::pair<Algorithm, const char*> algorithms[] = {
        {Algorithm::ParameterServer, "parameter-server"},
        {Algorithm::Ring, "ring"},
        {Algorithm::Tree, "tree"}};
    const std::pair<RestoreKind, const char*> restores[] = {{RestoreKind::Full, "full"},
                                                            {RestoreKind::FullSharded, "sharded"},
                                                            {RestoreKind::WeightsOnly, "weights"}};
    // Steps 5, 7 and 9: each leaves a complete checkpoint to go back to even when the newest
    // one before the crash is the damaged one.
    int rows = 0;
    for (int f = 0; f < static_cast<int>(std::size(kFaults)); ++f)
        for (int step : {5, 7, 9})
            for (const auto& [policy, policy_name] : policies)
                for (const auto& [algorithm, algorithm_name] : algorithms)
                    for (const auto& [restore, restore_name] : restores)
                        for (const bool processes : {false, true}) {
                            QTest::addRow("%s step %d %s %s %s %s", kFaults[f].name, step,
                                          policy_name, algorithm_name, restore_name,
                                          processes ? "mpi" : "threads")
                                << f << step << policy << algorithm << static_cast<int>(restore)
                                << processes;
                            ++rows;
                        }
    QCOMPARE(rows, 1296);
}

void TestFaultMatrix::every_fault_recovers() {
    QFETCH(int, fault);
    QFETCH(int, step);
    QFETCH(RecoveryPolicy, policy);
    QFETCH(Algorithm, algorithm);
    QFETCH(int, restore);
    QFETCH(bool, processes);
    const Fault& f = kFaults[fault];
    const auto kind = static_cast<RestoreKind>(restore);
    Scenario s = matrix_scenario(algorithm, policy, kind);

    // The checkpoint the run must go back to, and the one it must skip on the way.
    std::int64_t expected = 0, skipped = -1;
    CheckpointStatus skipped_status = CheckpointStatus::Complete;
    if (in_checkpoint(f.phase)) {
        // The first checkpoint holding at least `step` updates is cut short by the crash.
        skipped = (step + kEvery - 1) / kEvery * kEvery;
        skipped_status = CheckpointStatus::Partial;
        expected = skipped - kEvery;
    } else if (f.damage) {
        // The newest checkpoint before the crash is damaged after its commit.
        skipped = step / kEvery * kEvery;
        skipped_status = CheckpointStatus::Corrupt;
        expected = skipped - kEvery;
        s.failures.events.push_back(
            {FailureKind::Corrupt, step % 3, skipped, CrashPhase::Compute, 0.0, 1.0, *f.damage});
    } else {
        expected = step / kEvery * kEvery;
    }
    s.failures.events.push_back({FailureKind::Crash, kCrashedLane, step, f.phase});
    validate(s);
    if (processes) {
        // A rank refuses the scenario before it trains: no fault is run as anything else.
        const auto data = load_dataset(s);
        for (int rank = 0; rank < s.workers; ++rank)
            QVERIFY_THROWS_EXCEPTION(Error, RankWorker(s, data, rank));
        try {
            RankWorker rank(s, data, 0);
        } catch (const Error& e) {
            QVERIFY2(std::string(e.what()).find("fault is injected into threads only") !=
                         std::string::npos,
                     e.what());
        }
        return;
    }

    QTemporaryDir scratch(scratch_template());
    QVERIFY(scratch.isValid());
    const fs::path dir = scratch.path().toStdString();
    const auto trainer = make_run(s, load_dataset(s));
    trainer->set_checkpoint_directory(dir);
    trainer->run_to_end();

    QCOMPARE(trainer->steps_done(), kSteps);
    QVERIFY(trainer->metrics().replicas_aligned);
    QCOMPARE(trainer->recoveries().size(), std::size_t{1});
    const auto r = trainer->recoveries().front();
    QVERIFY(r.rolled_back);
    QCOMPARE(r.worker, kCrashedLane);
    QCOMPARE(r.restored_step, expected);
    QCOMPARE(r.checkpoint, dir / checkpoint_directory_name(expected));
    if (skipped >= 0) {
        QCOMPARE(r.rejected.size(), std::size_t{1});
        QCOMPARE(r.rejected.front().step, skipped);
        QCOMPARE(r.rejected.front().status, skipped_status);
    } else {
        QVERIFY(r.rejected.empty());
    }

    // What it went back to is complete and is exactly the uninterrupted run's state there.
    const auto& clean = uninterrupted(algorithm);
    const TrainingState loaded = load_checkpoint(r.checkpoint);
    const TrainingState& then = clean[static_cast<std::size_t>(expected)];
    QCOMPARE(loaded.step, expected);
    QVERIFY(loaded == then); // bitwise: parameters, optimizer, generators, data positions

    const auto& final_parameters = trainer->parameters();
    const auto& clean_final = clean.back().parameters;
    if (policy == RecoveryPolicy::Elastic) {
        // One worker fewer from the restore on: a run of its own, every replica the same.
        QCOMPARE(r.workers_after, 2);
        QCOMPARE(trainer->metrics().workers_at_end, 2);
        QVERIFY(!bitwise_equal(final_parameters, clean_final));
    } else if (kind == RestoreKind::WeightsOnly) {
        // The optimizer, the generators and the data positions start afresh: another run.
        QVERIFY(!bitwise_equal(final_parameters, clean_final));
    } else {
        // A full restore continues exactly as if the crash had never happened.
        QVERIFY(bitwise_equal(final_parameters, clean_final));
        const std::int64_t crashed_in = in_checkpoint(f.phase) ? skipped - 1 : step;
        QCOMPARE(trainer->metrics().lost_steps, crashed_in + 1 - expected);
    }
}

QTEST_GUILESS_MAIN(TestFaultMatrix)
#include "test_fault_matrix.moc"
