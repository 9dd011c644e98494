#include "lockstep_views/palette.h"
#include "lockstep_views/trace_index.h"
#include "runs/runs.h"

#include <QTemporaryDir>
#include <QtTest>

#include "view_test_support.h"

using namespace lockstep;
using namespace lockstep::views;
using lockstep::testing::run_into;

// Checkpoint phases from a real run reach the views as their own activity: the trace index
// reports workers as checkpointing while they write, sync or commit, drawn in its own style.
class TestCheckpointActivity : public QObject {
    Q_OBJECT

private Q_SLOTS:
    void style();
    void activity_during_a_real_checkpoint();
};

void TestCheckpointActivity::style() {
    const ActivityStyle s = style_for(WorkerActivity::Checkpointing);
    QCOMPARE(s.colour, okabe_ito::yellow);
    QCOMPARE(s.symbol, QStringLiteral("K"));
    QCOMPARE(s.label, QStringLiteral("checkpointing"));
    for (EventKind kind :
         {EventKind::CheckpointWrite, EventKind::CheckpointSync, EventKind::CheckpointCommit})
        QCOMPARE(style_for(kind).colour, okabe_ito::yellow);
}

void TestCheckpointActivity::activity_during_a_real_checkpoint() {
    QTemporaryDir dir;
    QVERIFY(dir.isValid());
    Scenario s;
    s.steps = 4;
    s.workers = 2;
    s.checkpoint = CheckpointConfig{2, 3, false, RestoreMode::Full};
    TraceIndex index;
    run_into(s, index, dir.path().toStdString());
    int seen = 0;
    for (const auto& e : index.events()) {
        if (e.kind != EventKind::CheckpointWrite && e.kind != EventKind::CheckpointSync &&
            e.kind != EventKind::CheckpointCommit)
            continue;
        const Ticks middle = e.start + (e.end - e.start) / 2;
        QCOMPARE(index.activity_at(e.worker, middle), WorkerActivity::Checkpointing);
        ++seen;
    }
    QCOMPARE(seen, 2 * s.workers * 4); // two checkpoints: write, sync, sync, commit per lane
}

QTEST_MAIN(TestCheckpointActivity)
#include "test_checkpoint_activity.moc"
