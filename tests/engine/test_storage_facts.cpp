#include "failures/failure.h"
#include "runs/runs.h"
#include "scenario/scenario.h"
#include "trace/trace.h"

#include <QTemporaryDir>
#include <QtTest>

#include <string>
#include <vector>

using namespace lockstep;

Q_DECLARE_METATYPE(lockstep::FileStage)
Q_DECLARE_METATYPE(lockstep::Corruption)

namespace {

bool is_checkpoint_phase(EventKind kind) {
    return kind == EventKind::CheckpointWrite || kind == EventKind::CheckpointSync ||
           kind == EventKind::CheckpointCommit;
}

// Four workers checkpoint every 4 steps into `dir`, keeping them all; `failures` strike.
struct StorageRun {
    Trace trace;
    std::vector<Recovery> recoveries;
};

StorageRun run_with(const std::vector<std::string>& failures, const QString& dir) {
    Scenario s;
    s.name = "storage-facts";
    s.steps = 14;
    s.workers = 4;
    s.checkpoint = CheckpointConfig{4, 1000, false, RestoreMode::Full};
    s.failures.heartbeat_s = 0.005;
    s.failures.restart_s = 0.004;
    for (const std::string& f : failures)
        s.failures.events.push_back(parse_failure_spec(f));
    StorageRun out;
    const auto run = make_run(s, load_dataset(s), &out.trace);
    run->set_checkpoint_directory(dir.toStdString());
    run->run_to_end();
    out.recoveries = run->recoveries();
    return out;
}

} // namespace

// The trace states the storage facts a view draws in typed fields (trace/trace.h): how each
// checkpoint phase ended, the recovery scan's verdicts and faults, and how a file was damaged.
class TestStorageFacts : public QObject {
    Q_OBJECT

private Q_SLOTS:
    // The crashed worker's last phase of the checkpoint it died in is the one Crashed; every
    // other phase of every checkpoint is Done.
    void the_phase_a_crash_cut_says_so_data() {
        QTest::addColumn<QString>("phase");
        QTest::addColumn<EventKind>("kind");
        QTest::addColumn<FileStage>("stage");
        QTest::newRow("before the file's fsync")
            << "before-fsync" << EventKind::CheckpointWrite << FileStage::Written;
        QTest::newRow("after the fsync, before the rename")
            << "after-fsync" << EventKind::CheckpointSync << FileStage::Synced;
        QTest::newRow("after the rename, before the manifest")
            << "after-rename" << EventKind::CheckpointSync << FileStage::Renamed;
    }

    void the_phase_a_crash_cut_says_so() {
        QFETCH(QString, phase);
        QFETCH(EventKind, kind);
        QFETCH(FileStage, stage);
        QTemporaryDir dir;
        QVERIFY(dir.isValid());
        const StorageRun run =
            run_with({"crash:worker=2,step=7,phase=" + phase.toStdString()}, dir.path());
        int crashed = 0, done = 0;
        for (const TraceEvent& e : run.trace.events()) {
            if (!is_checkpoint_phase(e.kind)) {
                QCOMPARE(e.outcome, PhaseOutcome::None);
                continue;
            }
            if (e.outcome == PhaseOutcome::Crashed) {
                ++crashed;
                QCOMPARE(e.worker, 2);
                QCOMPARE(e.round, 8);
                QCOMPARE(e.kind, kind);
                QCOMPARE(e.file, stage);
                // It ends where the worker's Failed interval begins.
                bool failed_there = false;
                for (const TraceEvent& f : run.trace.events())
                    failed_there = failed_there || (f.kind == EventKind::Failed && f.worker == 2 &&
                                                    f.start == e.end);
                QVERIFY(failed_there);
            } else {
                QCOMPARE(e.outcome, PhaseOutcome::Done);
                ++done;
            }
        }
        QCOMPARE(crashed, 1);
        QVERIFY(done > 0);
    }

    // The scan's verdicts, newest first, are the recovery's: each skipped checkpoint's status and
    // fault, then the one loaded, complete without a fault. A damaged file states how.
    void the_scan_and_the_damage_are_typed_data() {
        QTest::addColumn<Corruption>("how");
        QTest::newRow("a flipped bit") << Corruption::BitFlip;
        QTest::newRow("truncated") << Corruption::Truncate;
    }

    void the_scan_and_the_damage_are_typed() {
        QFETCH(Corruption, how);
        QTemporaryDir dir;
        QVERIFY(dir.isValid());
        const StorageRun run =
            run_with({"corrupt:worker=1,step=8,how=" + std::string(to_string(how)),
                      "crash:worker=2,step=11,phase=before-fsync"},
                     dir.path());
        std::vector<const TraceEvent*> damage, verify;
        for (const TraceEvent& e : run.trace.events()) {
            if (e.kind == EventKind::Damage)
                damage.push_back(&e);
            if (e.kind == EventKind::Verify)
                verify.push_back(&e);
        }
        QCOMPARE(damage.size(), std::size_t{1});
        QCOMPARE(damage[0]->damage, how);
        QCOMPARE(damage[0]->worker, 1);
        QCOMPARE(damage[0]->round, 8);

        QCOMPARE(run.recoveries.size(), std::size_t{1});
        const Recovery& r = run.recoveries[0];
        QCOMPARE(verify.size(), r.rejected.size() + 1);
        QVERIFY(r.rejected.size() >= 2); // step 12 partial, step 8 corrupt
        for (std::size_t i = 0; i < r.rejected.size(); ++i) {
            QCOMPARE(std::int64_t{verify[i]->round}, r.rejected[i].step);
            QCOMPARE(verify[i]->verdict, r.rejected[i].status);
            QCOMPARE(verify[i]->fault, r.rejected[i].fault);
        }
        QCOMPARE(verify[0]->verdict, CheckpointStatus::Partial);
        QCOMPARE(verify[1]->verdict, CheckpointStatus::Corrupt);
        QCOMPARE(verify.back()->round, 4);
        QCOMPARE(verify.back()->verdict, CheckpointStatus::Complete);
        QCOMPARE(verify.back()->fault, CheckpointFault::None);
    }
};

QTEST_MAIN(TestStorageFacts)
#include "test_storage_facts.moc"
