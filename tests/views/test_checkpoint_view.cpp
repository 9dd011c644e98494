#include "view_test_support.h"

#include "failures/failure.h"
#include "lockstep_views/checkpoint_view.h"
#include "lockstep_views/continuation_plot.h"
#include "lockstep_views/palette.h"
#include "lockstep_views/trace_index.h"
#include "runs/restore_comparison.h"
#include "runs/runs.h"

#include <QSignalSpy>
#include <QTemporaryDir>
#include <QtTest>

#include <algorithm>

using namespace lockstep;
using namespace lockstep::views;
using lockstep::testing::count_near;
using lockstep::testing::screenshot_path;
using lockstep::testing::settled_grab;

// The checkpoint shelf and the recovery's walk, from a real run: four workers save a checkpoint
// every 4 steps into a real directory; worker 1's file of step 16 is damaged on disk after its
// commit, and worker 2 crashes half-way through writing its file of step 20. The recovery must
// skip step 20 (partial) and step 16 (corrupt) and load step 12.
class TestCheckpointView : public QObject {
    Q_OBJECT

private Q_SLOTS:
    void initTestCase();
    void file_states_follow_the_commit_protocol_data();
    void file_states_follow_the_commit_protocol();
    void file_state_is_the_stage_the_trace_states();
    void crashed_checkpoint_is_partial();
    void damaged_file_is_corrupt_after_the_damage();
    void scan_verdicts_in_order();
    void loading_progress_and_resume();
    void rewritten_checkpoint_replaces_the_corrupt_one();
    void shelf_draws_the_facts_the_trace_states();
    void newest_five_shown();
    void storage_events_survive_forgetting();
    void elastic_recovery_goes_on_without_the_dead_worker();
    void scan_is_revealed_one_by_one();
    void partial_and_corrupt_boxes_are_drawn_in_their_colours();
    void follows_the_dark_palette();
    void continuations_side_by_side();
    void screenshot();

private:
    const TraceEvent& find(EventKind kind, int worker, int round, int nth = 0) const;
    const ShelfCheckpoint* column(const CheckpointShelf& shelf, std::int64_t step) const;

    QTemporaryDir dir_;
    Scenario scenario_;
    Trace trace_;
    TraceIndex index_;
};

void TestCheckpointView::initTestCase() {
    QVERIFY(dir_.isValid());
    scenario_.steps = 26;
    scenario_.workers = 4;
    scenario_.checkpoint = CheckpointConfig{4, 3, false, RestoreMode::Full};
    scenario_.failures.heartbeat_s = 0.005;
    scenario_.failures.restart_s = 0.004;
    scenario_.failures.events = {parse_failure_spec("corrupt:worker=1,step=16"),
                                 parse_failure_spec("crash:worker=2,step=17,phase=before-fsync")};
    const auto trainer = make_run(scenario_, load_dataset(scenario_), &trace_);
    trainer->set_checkpoint_directory(dir_.path().toStdString());
    trainer->run_to_end();
    index_.reset(scenario_.workers, scenario_.algorithm);
    index_.append(trace_.events());
    for (const StepSnapshot& s : trace_.snapshots())
        index_.append(s);
}

const TraceEvent& TestCheckpointView::find(EventKind kind, int worker, int round, int nth) const {
    for (const TraceEvent& e : trace_.events())
        if (e.kind == kind && (worker < 0 || e.worker == worker) && (round < 0 || e.round == round))
            if (nth-- == 0)
                return e;
    qFatal("event %s of worker %d, checkpoint %d not in the trace",
           std::string(to_string(kind)).c_str(), worker, round);
}

const ShelfCheckpoint* TestCheckpointView::column(const CheckpointShelf& shelf,
                                                  std::int64_t step) const {
    for (const ShelfCheckpoint& c : shelf.checkpoints)
        if (c.step == step)
            return &c;
    return nullptr;
}

void TestCheckpointView::file_states_follow_the_commit_protocol_data() {
    QTest::addColumn<int>("event"); // 0 write, 1 first sync, 2 second sync, 3 commit
    QTest::addColumn<bool>("atEnd");
    QTest::addColumn<FileState>("file");
    QTest::addColumn<ManifestState>("manifest");
    QTest::newRow("during the write") << 0 << false << FileState::Writing << ManifestState::Pending;
    QTest::newRow("after the file's fsync")
        << 1 << true << FileState::Synced << ManifestState::Pending;
    QTest::newRow("after rename and directory fsync")
        << 2 << true << FileState::Renamed << ManifestState::Pending;
    QTest::newRow("while the manifest commits")
        << 3 << false << FileState::Renamed << ManifestState::Writing;
    QTest::newRow("after the commit")
        << 3 << true << FileState::Committed << ManifestState::Committed;
}

void TestCheckpointView::file_states_follow_the_commit_protocol() {
    QFETCH(int, event);
    QFETCH(bool, atEnd);
    QFETCH(FileState, file);
    QFETCH(ManifestState, manifest);
    // Worker 1's file: worker 0's is larger and finishes last, as the commit starts.
    const TraceEvent& e = event == 0   ? find(EventKind::CheckpointWrite, 1, 4)
                          : event == 3 ? find(EventKind::CheckpointCommit, 1, 4)
                                       : find(EventKind::CheckpointSync, 1, 4, event - 1);
    const Ticks t = atEnd ? e.end : e.start + (e.end - e.start) / 2;
    const CheckpointShelf shelf = checkpoint_shelf(index_.storage_events(), 4, t);
    const ShelfCheckpoint* c = column(shelf, 4);
    QVERIFY(c);
    QCOMPARE(c->files[1].state, file);
    QCOMPARE(c->manifest, manifest);
    QCOMPARE(c->status,
             manifest == ManifestState::Committed ? ShelfStatus::Committed : ShelfStatus::Saving);
    if (file == FileState::Writing) {
        QVERIFY(c->files[1].progress > 0.3 && c->files[1].progress < 0.7);
        QVERIFY(c->files[1].bytes > 0 && c->files[1].bytes < e.bytes);
    }
}

// The shelf reads the stage each phase states, not how many syncs it has seen: without the
// file's fsync event, the rename still makes worker 1's file Renamed, and a sync that states no
// stage moves nothing.
void TestCheckpointView::file_state_is_the_stage_the_trace_states() {
    const TraceEvent& synced = find(EventKind::CheckpointSync, 1, 4, 0);
    const TraceEvent& renamed = find(EventKind::CheckpointSync, 1, 4, 1);
    QCOMPARE(synced.file, FileStage::Synced);
    QCOMPARE(renamed.file, FileStage::Renamed);
    std::vector<TraceEvent> events;
    for (const TraceEvent& e : index_.storage_events())
        if (!(e.kind == synced.kind && e.worker == synced.worker && e.start == synced.start))
            events.push_back(e);
    const ShelfCheckpoint* c = column(checkpoint_shelf(events, 4, renamed.end), 4);
    QVERIFY(c);
    QCOMPARE(c->files[1].state, FileState::Renamed);
    c = column(checkpoint_shelf(events, 4, renamed.start), 4);
    QCOMPARE(c->files[1].state, FileState::Writing);
    for (TraceEvent& e : events)
        if (e.kind == EventKind::CheckpointSync && e.worker == 1 && e.round == 4)
            e.file = FileStage::None;
    c = column(checkpoint_shelf(events, 4, renamed.end), 4);
    QCOMPARE(c->files[1].state, FileState::Writing);
}

void TestCheckpointView::crashed_checkpoint_is_partial() {
    const TraceEvent& failed = find(EventKind::Failed, 2, -1);
    const TraceEvent& torn = find(EventKind::CheckpointWrite, 2, 20);
    const CheckpointShelf before = checkpoint_shelf(index_.storage_events(), 4, failed.start - 1);
    const ShelfCheckpoint* c = column(before, 20);
    QVERIFY(c);
    QCOMPARE(c->status, ShelfStatus::Saving);
    QCOMPARE(c->files[2].state, FileState::Writing);

    const CheckpointShelf after = checkpoint_shelf(index_.storage_events(), 4, failed.start);
    c = column(after, 20);
    QVERIFY(c);
    QCOMPARE(c->status, ShelfStatus::Partial);
    QCOMPARE(c->manifest, ManifestState::Missing);
    QCOMPARE(c->files[0].state, FileState::Renamed); // durable, but no manifest names it
    QCOMPARE(c->files[1].state, FileState::Renamed);
    QCOMPARE(c->files[2].state, FileState::Partial); // torn: half its bytes
    QCOMPARE(c->files[2].bytes, torn.bytes);
    QCOMPARE(c->files[3].state, FileState::Missing); // its turn never came
    // The checkpoint before it is untouched.
    QCOMPARE(column(after, 12)->status, ShelfStatus::Committed);
}

void TestCheckpointView::damaged_file_is_corrupt_after_the_damage() {
    const TraceEvent& damage = find(EventKind::Damage, 1, 16);
    QCOMPARE(damage.value, 0.0); // a flipped bit
    const ShelfCheckpoint* c =
        column(checkpoint_shelf(index_.storage_events(), 4, damage.start - 1), 16);
    QVERIFY(c);
    // The damage strikes as the commit ends: until then the file is sound.
    QCOMPARE(c->files[1].state, FileState::Renamed);
    QCOMPARE(c->status, ShelfStatus::Saving);
    const CheckpointShelf after = checkpoint_shelf(index_.storage_events(), 4, damage.start);
    c = column(after, 16);
    QCOMPARE(c->files[1].state, FileState::Corrupt);
    QCOMPARE(c->files[1].damage, 0);
    QCOMPARE(c->files[0].state, FileState::Committed);
    QCOMPARE(c->status, ShelfStatus::Corrupt);
}

void TestCheckpointView::scan_verdicts_in_order() {
    const TraceEvent& failed = find(EventKind::Failed, 2, -1);
    const TraceEvent& detect = find(EventKind::Detect, 0, -1);
    const TraceEvent& verify = find(EventKind::Verify, 0, -1);
    QCOMPARE(restore_walk(index_.storage_events(), failed.start - 1).phase, RestorePhase::None);
    const RestoreWalk down = restore_walk(index_.storage_events(), failed.start);
    QCOMPARE(down.phase, RestorePhase::Down);
    QCOMPARE(down.crashed, 2);
    QCOMPARE(restore_walk(index_.storage_events(), detect.start).phase, RestorePhase::Detected);
    QVERIFY(detect.start < verify.start);

    const RestoreWalk scan = restore_walk(index_.storage_events(), verify.start);
    QCOMPARE(scan.verdicts.size(), std::size_t{3});
    QCOMPARE(scan.verdicts[0].step, 20);
    QCOMPARE(scan.verdicts[0].status, CheckpointStatus::Partial);
    QCOMPARE(scan.verdicts[0].fault, CheckpointFault::NoManifest);
    QCOMPARE(scan.verdicts[1].step, 16);
    QCOMPARE(scan.verdicts[1].status, CheckpointStatus::Corrupt);
    QCOMPARE(scan.verdicts[1].fault, CheckpointFault::ChecksumMismatch);
    QCOMPARE(scan.verdicts[2].step, 12);
    QCOMPARE(scan.verdicts[2].status, CheckpointStatus::Complete);
    QVERIFY(scan.chosen.has_value());
    QCOMPARE(*scan.chosen, 12);
    QCOMPARE(verdict_text(scan.verdicts[1]), QStringLiteral("corrupt: checksum mismatch"));
}

void TestCheckpointView::loading_progress_and_resume() {
    Ticks end = 0;
    std::int64_t bytes = 0;
    const TraceEvent& first = find(EventKind::Restore, 0, -1);
    for (int w = 0; w < 4; ++w) {
        const TraceEvent& r = find(EventKind::Restore, w, -1);
        QCOMPARE(r.round, 12);
        end = std::max(end, r.end);
        bytes += r.bytes;
    }
    const RestoreWalk loading =
        restore_walk(index_.storage_events(), first.start + (end - first.start) / 2);
    QCOMPARE(loading.phase, RestorePhase::Loading);
    QCOMPARE(loading.bytes_total, bytes);
    QVERIFY(loading.progress > 0.3 && loading.progress < 0.7);
    const RestoreWalk done = restore_walk(index_.storage_events(), end);
    QCOMPARE(done.phase, RestorePhase::Resumed);
    QCOMPARE(done.bytes_read, bytes);
    QCOMPARE(done.progress, 1.0);
}

void TestCheckpointView::rewritten_checkpoint_replaces_the_corrupt_one() {
    // After the rollback to 12, step 16 is saved again: a new, clean attempt.
    const TraceEvent& again = find(EventKind::CheckpointCommit, 1, 16, 1);
    const CheckpointShelf shelf = checkpoint_shelf(index_.storage_events(), 4, again.end);
    const ShelfCheckpoint* c = column(shelf, 16);
    QVERIFY(c);
    QCOMPARE(c->status, ShelfStatus::Committed);
    QCOMPARE(c->files[1].state, FileState::Committed);
    QVERIFY(c->started > find(EventKind::Failed, 2, -1).start);
    // The partial 20 is still the newest attempt of its step until it is written again.
    QCOMPARE(column(shelf, 20)->status, ShelfStatus::Partial);
}

namespace {

// What the shelf shows of every checkpoint, as text, to compare two shelves.
QStringList shown(const CheckpointShelf& shelf) {
    QStringList out{QString::number(shelf.older)};
    for (const ShelfCheckpoint& c : shelf.checkpoints) {
        QString line = QStringLiteral("%1 %2 %3 %4:")
                           .arg(c.step)
                           .arg(static_cast<int>(c.status))
                           .arg(static_cast<int>(c.manifest))
                           .arg(c.started);
        for (const ShelfFile& f : c.files)
            line += QStringLiteral(" %1/%2/%3")
                        .arg(static_cast<int>(f.state))
                        .arg(f.bytes)
                        .arg(f.damage);
        out << line;
    }
    return out;
}

} // namespace

// The shelf and the scan draw what the trace states in typed fields: a crash ends the phase it
// cut (PhaseOutcome::Crashed), a verdict and a damage are typed. So the numbers once kept in
// `peer` and `value`, and the Failed intervals, change nothing on the shelf; without the
// Crashed outcome the checkpoint the crash cut is no longer partial.
void TestCheckpointView::shelf_draws_the_facts_the_trace_states() {
    const std::span<const TraceEvent> events = index_.storage_events();
    std::vector<TraceEvent> numbers_scrambled, no_failed, no_outcome;
    for (TraceEvent e : events) {
        no_outcome.push_back(e);
        if (e.outcome == PhaseOutcome::Crashed)
            no_outcome.back().outcome = PhaseOutcome::Done;
        if (e.kind != EventKind::Failed)
            no_failed.push_back(e);
        if (e.kind == EventKind::Verify) {
            e.peer = -1;
            e.value = 7.0;
        } else if (e.kind == EventKind::Damage) {
            e.value = 1.0; // would read as truncated
        }
        numbers_scrambled.push_back(e);
    }
    const TraceEvent& failed = find(EventKind::Failed, 2, -1);
    const TraceEvent& damage = find(EventKind::Damage, 1, 16);
    const TraceEvent& verify = find(EventKind::Verify, 0, -1);
    for (const Ticks t :
         {damage.start, failed.start - 1, failed.start, verify.start, index_.end_time()}) {
        const QStringList whole = shown(checkpoint_shelf(events, 4, t));
        QCOMPARE(shown(checkpoint_shelf(numbers_scrambled, 4, t)), whole);
        QCOMPARE(shown(checkpoint_shelf(no_failed, 4, t)), whole);
    }
    const RestoreWalk walk = restore_walk(events, verify.start);
    const RestoreWalk scrambled = restore_walk(numbers_scrambled, verify.start);
    QCOMPARE(scrambled.verdicts.size(), walk.verdicts.size());
    for (std::size_t i = 0; i < walk.verdicts.size(); ++i) {
        QCOMPARE(scrambled.verdicts[i].status, walk.verdicts[i].status);
        QCOMPARE(scrambled.verdicts[i].fault, walk.verdicts[i].fault);
    }
    QCOMPARE(scrambled.chosen, walk.chosen);

    const ShelfCheckpoint* c = column(checkpoint_shelf(no_outcome, 4, failed.start), 20);
    QVERIFY(c);
    QCOMPARE(c->status, ShelfStatus::Saving);
    QCOMPARE(c->files[2].state, FileState::Writing);
}

void TestCheckpointView::newest_five_shown() {
    const CheckpointShelf shelf = checkpoint_shelf(index_.storage_events(), 4, index_.end_time());
    QCOMPARE(shelf.checkpoints.size(), std::size_t{5});
    QList<std::int64_t> steps;
    for (const auto& c : shelf.checkpoints)
        steps << c.step;
    QCOMPARE(steps, (QList<std::int64_t>{8, 12, 16, 20, 24}));
    QCOMPARE(shelf.older, 1); // step 4
    for (const auto& c : shelf.checkpoints)
        QCOMPARE(c.status, ShelfStatus::Committed);
}

void TestCheckpointView::storage_events_survive_forgetting() {
    TraceIndex index;
    index.reset(scenario_.workers, scenario_.algorithm);
    index.append(trace_.events());
    for (const StepSnapshot& s : trace_.snapshots())
        index.append(s);
    const std::size_t before = index.storage_events().size();
    const std::size_t events = index.events().size();
    index.forget_before_snapshot(index.snapshots().size() - 1);
    QVERIFY(index.events().size() < events / 4);
    QCOMPARE(index.storage_events().size(), before);
    QCOMPARE(checkpoint_shelf(index.storage_events(), 4, index.end_time()).older, 1);
}

void TestCheckpointView::elastic_recovery_goes_on_without_the_dead_worker() {
    // The survivors go on without worker 1, whose lane stays Failed step after step: one crash,
    // one scan, and the later checkpoints simply have no file of worker 1.
    QTemporaryDir dir;
    QVERIFY(dir.isValid());
    Scenario s = scenario_;
    s.failures.policy = RecoveryPolicy::Elastic;
    s.failures.events = {parse_failure_spec("corrupt:worker=2,step=16"),
                         parse_failure_spec("crash:worker=1,step=17,phase=after-rename")};
    TraceIndex index;
    lockstep::testing::run_into(s, index, dir.path().toStdString());

    const RestoreWalk walk = restore_walk(index.storage_events(), index.end_time());
    QCOMPARE(walk.phase, RestorePhase::Resumed);
    QCOMPARE(walk.crashed, 1);
    QCOMPARE(walk.verdicts.size(), std::size_t{3});
    QCOMPARE(walk.verdicts[0].status, CheckpointStatus::Partial);
    QCOMPARE(walk.verdicts[1].status, CheckpointStatus::Corrupt);
    QCOMPARE(walk.verdicts[2].status, CheckpointStatus::Complete);
    QCOMPARE(*walk.chosen, 12);

    const CheckpointShelf shelf = checkpoint_shelf(index.storage_events(), 4, index.end_time());
    const ShelfCheckpoint& newest = shelf.checkpoints.back();
    QCOMPARE(newest.step, 24);
    QCOMPARE(newest.status, ShelfStatus::Committed);
    QCOMPARE(newest.files[1].state, FileState::Absent);
    QCOMPARE(newest.files[0].state, FileState::Committed);
    QCOMPARE(newest.files[3].state, FileState::Committed);
}

void TestCheckpointView::scan_is_revealed_one_by_one() {
    CheckpointView view;
    view.setScanRevealInterval(40);
    view.setTrace(&index_);
    view.show();
    const TraceEvent& verify = find(EventKind::Verify, 0, -1);
    view.setPlayhead(verify.start - 1);
    QCOMPARE(view.examinedVerdict(), -1);
    QSignalSpy revealed(&view, &CheckpointView::verdictRevealed);
    view.setPlayhead(verify.start);
    QCOMPARE(view.revealedVerdicts(), 0);
    QCOMPARE(view.examinedVerdict(), 0); // step 20 first
    QTRY_COMPARE(view.revealedVerdicts(), 3);
    QCOMPARE(revealed.size(), 3);
    for (int i = 0; i < 3; ++i)
        QCOMPARE(revealed.at(i).at(0).toInt(), i);
    QCOMPARE(view.examinedVerdict(), -1);
    QVERIFY(view.summary().contains(QStringLiteral("step-000000012")));

    // Held on the first checkpoint examined: framed in the highlight colour, no verdict yet.
    CheckpointView held;
    held.setScanRevealInterval(3'600'000);
    held.resize(1100, 700);
    held.setTrace(&index_);
    held.show();
    held.setPlayhead(verify.start);
    QCOMPARE(held.examinedVerdict(), 0);
    const QImage image = settled_grab(held);
    QVERIFY(image.save(screenshot_path(QStringLiteral("checkpoints-scan.png"))));
    QVERIFY(count_near(image, held.palette().color(QPalette::Highlight), 8) > 300);
    QCOMPARE(count_near(image, okabe_ito::vermillion, 8) > 0, true); // the corrupt file of 16

    // A hidden view shows the whole scan at once.
    CheckpointView hidden;
    hidden.setTrace(&index_);
    hidden.setPlayhead(verify.start);
    QCOMPARE(hidden.revealedVerdicts(), 3);
}

void TestCheckpointView::partial_and_corrupt_boxes_are_drawn_in_their_colours() {
    CheckpointView view;
    view.setScanRevealInterval(0);
    view.resize(1000, 720);
    view.setTrace(&index_);
    view.setPlayhead(find(EventKind::Detect, 0, -1).start);
    const CheckpointShelf shelf = view.shelf(view.playhead());
    int partial = -1;
    int corrupt = -1;
    for (int i = 0; i < static_cast<int>(shelf.checkpoints.size()); ++i) {
        if (shelf.checkpoints[static_cast<std::size_t>(i)].step == 20)
            partial = i;
        if (shelf.checkpoints[static_cast<std::size_t>(i)].step == 16)
            corrupt = i;
    }
    QVERIFY(partial >= 0 && corrupt >= 0);
    const QImage image = settled_grab(view);
    auto share = [&](QRectF r, const QColor& colour) {
        const QImage part = image.copy(r.toAlignedRect());
        return static_cast<double>(count_near(part, colour, 12)) / (part.width() * part.height());
    };
    const QRectF torn = view.boxRect(partial, 2);
    QVERIFY(!torn.isEmpty());
    QVERIFY2(share(torn, okabe_ito::orange) > 0.2, "the partial file is orange");
    QVERIFY(share(view.boxRect(corrupt, 1), okabe_ito::vermillion) > 0.2);
    QVERIFY(share(view.boxRect(corrupt, 0), okabe_ito::bluish_green) > 0.5);
    QVERIFY(share(torn, okabe_ito::bluish_green) < 0.01);
    // Worker 3 never wrote its file of step 20: no fill at all.
    const QRectF missing = view.boxRect(partial, 3);
    QVERIFY(share(missing, okabe_ito::orange) + share(missing, okabe_ito::bluish_green) < 0.01);

    // Half the file, as the torn write left it.
    const double torn_kb =
        static_cast<double>(find(EventKind::CheckpointWrite, 2, 20).bytes) / 1024.0;
    QCOMPARE(view.describeBox(partial, 2),
             QStringLiteral("worker-2.ckpt of step-000000020: partial: its writer crashed (%1 KB "
                            "written)")
                 .arg(torn_kb, 0, 'f', 1));
    QVERIFY(view.describeBox(corrupt, 1).contains(QStringLiteral("bit flipped")));
    QVERIFY(view.describeBox(partial, -1)
                .startsWith(QStringLiteral("MANIFEST of step-000000020: never")));
}

void TestCheckpointView::follows_the_dark_palette() {
    CheckpointView view;
    view.resize(900, 640);
    view.setTrace(&index_);
    view.setPlayhead(index_.end_time());
    QPalette dark;
    dark.setColor(QPalette::Window, QColor(0x20, 0x20, 0x24));
    dark.setColor(QPalette::WindowText, QColor(0xee, 0xee, 0xee));
    view.setPalette(dark);
    const QImage image = settled_grab(view);
    QVERIFY(image.save(screenshot_path(QStringLiteral("checkpoints-dark.png"))));
    QCOMPARE(image.pixelColor(2, 2), QColor(0x20, 0x20, 0x24));
    QVERIFY(count_near(image, QColor(0xee, 0xee, 0xee), 10) > 200); // the text
}

// The same crash rerun both ways (three real runs): the full restore's line lies on the
// uninterrupted run's, the weights-only line leaves it after the restore, each in its own plot.
void TestCheckpointView::continuations_side_by_side() {
    QTemporaryDir scratch;
    const RestoreComparison c = compare_restores(scenario_, scratch.path().toStdString());
    QCOMPARE(c.restored_step, std::int64_t(12)); // step 20 partial, step 16 corrupt
    CheckpointView view;
    view.setScanRevealInterval(0);
    view.resize(1100, 800);
    view.setTrace(&index_);
    view.setPlayhead(index_.end_time());
    QVERIFY(view.continuationPlot(RestoreMode::Full).isEmpty()); // nothing to draw yet
    view.setComparisonNote(QStringLiteral("Rerunning the crash with both restores…"));
    view.setRestoreComparison(c);
    const QRectF full = view.continuationPlot(RestoreMode::Full);
    const QRectF weights = view.continuationPlot(RestoreMode::WeightsOnly);
    QVERIFY(!full.isEmpty() && !weights.isEmpty());
    QVERIFY(weights.left() > full.right()); // side by side
    QVERIFY(full.height() > 80);

    // The step where weights-only strays furthest from the uninterrupted run.
    const ContinuationWindow window = continuation_window(c);
    std::int64_t far = -1;
    double gap = 0;
    for (std::size_t i = 0; i < c.uninterrupted.steps.size(); ++i) {
        const std::int64_t step = c.uninterrupted.steps[i];
        if (step < window.first || step > window.last)
            continue;
        QCOMPARE(c.full.loss[i], c.uninterrupted.loss[i]);
        const double d = std::abs(c.weights_only.loss[i] - c.uninterrupted.loss[i]);
        if (d > gap) {
            gap = d;
            far = step;
        }
        if (step < c.restored_step)
            QCOMPARE(c.weights_only.loss[i], c.uninterrupted.loss[i]);
    }
    QVERIFY(far > c.restored_step);
    QCOMPARE(gap, c.weights_only_gap);
    double base = 0, strayed = 0;
    QVERIFY(loss_at(c.uninterrupted, far, &base));
    QVERIFY(loss_at(c.weights_only, far, &strayed));

    const QImage image = settled_grab(view);
    auto near_at = [&](const QPointF& at, const QColor& colour) {
        const QRect around = QRect(at.toPoint() - QPoint(2, 2), QSize(5, 5));
        return count_near(image.copy(around), colour, 40) > 0;
    };
    auto count_in = [&](const QRectF& r, const QColor& colour) {
        return count_near(image.copy(r.toAlignedRect()), colour, 12);
    };
    const QColor blue = continuation_colour(RestoreMode::Full);
    const QColor red = continuation_colour(RestoreMode::WeightsOnly);
    QVERIFY(blue != red);
    // Full: the run's line is where the uninterrupted loss is; no weights-only colour there.
    QVERIFY(near_at(continuation_point(window, full, far, base), blue));
    QVERIFY(count_in(full, blue) > 100);
    QCOMPARE(count_in(full, red), 0);
    // Weights only: its line is at its own loss, the uninterrupted loss is left to the grey line.
    const QPointF own = continuation_point(window, weights, far, strayed);
    const QPointF other = continuation_point(window, weights, far, base);
    QVERIFY(std::abs(own.y() - other.y()) > 8);
    QVERIFY(near_at(own, red));
    QVERIFY(!near_at(other, red));
    QVERIFY(count_in(weights, red) > 100);
    QCOMPARE(count_in(weights, blue), 0);

    QVERIFY(view.summary().contains(QStringLiteral("identical bit for bit")));
    QVERIFY(view.summary().contains(QStringLiteral("From step 12 on the loss differs")));
    QVERIFY(image.save(screenshot_path(QStringLiteral("checkpoints-continuations.png"))));

    // Too small for plots: the captions still say it, as text.
    view.resize(760, 480);
    QVERIFY(view.continuationPlot(RestoreMode::Full).isEmpty());
    QVERIFY(view.summary().contains(QStringLiteral("identical bit for bit")));
    view.setRestoreComparison(std::nullopt);
    QVERIFY(!view.summary().contains(QStringLiteral("identical bit for bit")));
}

void TestCheckpointView::screenshot() {
    CheckpointView view;
    view.setScanRevealInterval(0);
    view.resize(1100, 700);
    view.setTrace(&index_);
    const TraceEvent& restore = find(EventKind::Restore, 3, -1);
    view.setPlayhead(restore.start + (restore.end - restore.start) * 2 / 3);
    const QImage image = settled_grab(view);
    QVERIFY(image.save(screenshot_path(QStringLiteral("checkpoints.png"))));
    QVERIFY(count_near(image, okabe_ito::bluish_green, 8) > 2000);
}

QTEST_MAIN(TestCheckpointView)
#include "test_checkpoint_view.moc"
