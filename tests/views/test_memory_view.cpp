// The Memory view follows the engine's memory samples: at any playhead each column is the
// worker's newest sample, a stage-3 worker's parameters grow as a layer is gathered and shrink
// when it is freed, the end of the run agrees with the run's ledger, the caption names the half
// of the collective under way, and a run without replicas says so instead of drawing columns.
#include "lockstep_views/memory_view.h"
#include "lockstep_views/palette.h"
#include "lockstep_views/trace_index.h"
#include "scenario/scenario.h"
#include "trace/trace.h"
#include "trainers/run.h"
#include "view_test_support.h"

#include <QtTest>

#include <algorithm>

using namespace lockstep;
using lockstep::views::MemoryColumn;
using lockstep::views::MemoryKind;
using lockstep::views::MemoryView;
using lockstep::views::TraceIndex;

namespace {

Scenario sharded(Sharding sharding) {
    Scenario s;
    s.name = "memory-view";
    s.workers = 4;
    s.steps = 3;
    s.batch = 12;
    s.algorithm = Algorithm::Ring;
    s.clock = ClockKind::Modelled;
    s.model.layers = {2, 40, 30, 3};
    s.optimizer.kind = OptimizerKind::Adam;
    s.optimizer.learning_rate = 0.01;
    s.sharding = sharding;
    return s;
}

struct Indexed {
    TraceIndex index;
    Trace trace;
    RunMetrics metrics;
};

void run_into(const Scenario& s, Indexed& out) {
    const auto run = make_run(s, load_dataset(s), &out.trace);
    run->run_to_end();
    out.metrics = run->metrics();
    out.index.reset(run->lanes(), s.algorithm);
    out.index.append(out.trace.events());
    for (const StepSnapshot& snap : out.trace.snapshots())
        out.index.append(snap);
}

// The worker's newest sample at or before t, by a plain scan of the whole trace: of several at
// one instant the last, but the largest (the later of equals) when t is that instant.
std::optional<MemorySample> newest(const Trace& trace, int worker, Ticks t) {
    std::optional<MemorySample> found;
    for (const StepSnapshot& snap : trace.snapshots())
        for (const MemorySample& m : snap.memory)
            if (m.worker == worker && m.at <= t &&
                (!found || m.at > found->at ||
                 (m.at == found->at && (m.at < t || m.total() >= found->total()))))
                found = m;
    return found;
}

bool same(const MemorySample& a, const MemorySample& b) {
    return a.worker == b.worker && a.at == b.at && a.parameters == b.parameters &&
           a.gradients == b.gradients && a.optimizer == b.optimizer &&
           a.activations == b.activations && a.workspace == b.workspace;
}

} // namespace

class TestMemoryView : public QObject {
    Q_OBJECT

private Q_SLOTS:
    void columns_are_the_newest_samples_data() {
        QTest::addColumn<Sharding>("sharding");
        QTest::newRow("none") << Sharding::None;
        QTest::newRow("optimizer") << Sharding::Optimizer;
        QTest::newRow("gradients") << Sharding::Gradients;
        QTest::newRow("parameters") << Sharding::Parameters;
    }

    // At every sample's time, just before it and past the end, each column is the worker's
    // newest sample; at the end it is what the run's ledger holds.
    void columns_are_the_newest_samples() {
        QFETCH(Sharding, sharding);
        Indexed r;
        run_into(sharded(sharding), r);
        std::vector<Ticks> times{r.index.end_time() + 1000};
        for (const StepSnapshot& snap : r.trace.snapshots())
            for (const MemorySample& m : snap.memory) {
                times.push_back(m.at);
                times.push_back(m.at - 1);
                times.push_back(m.at + 1); // just after: what was freed at that instant is gone
            }
        QVERIFY(times.size() > 4 * 3);
        for (Ticks t : times) {
            const std::vector<MemoryColumn> columns = MemoryView::columnsAt(r.index, t);
            QCOMPARE(columns.size(), std::size_t{4});
            for (int k = 0; k < 4; ++k) {
                const auto expected = newest(r.trace, k, t);
                QCOMPARE(columns[static_cast<std::size_t>(k)].known, expected.has_value());
                if (expected)
                    QVERIFY2(same(columns[static_cast<std::size_t>(k)].held, *expected),
                             qPrintable(QStringLiteral("worker %1 at %2").arg(k).arg(t)));
            }
        }
        // The tallest a column grows is the ledger's peak, which `run --json` reports.
        for (int k = 0; k < 4; ++k) {
            std::int64_t tallest = 0;
            for (Ticks t : times)
                tallest = std::max(
                    tallest,
                    MemoryView::columnsAt(r.index, t)[static_cast<std::size_t>(k)].held.total());
            QCOMPARE(tallest, r.metrics.memory[static_cast<std::size_t>(k)].peak);
        }
        const auto end = MemoryView::columnsAt(r.index, r.index.end_time());
        for (int k = 0; k < 4; ++k) {
            const WorkerMemory& ledger = r.metrics.memory[static_cast<std::size_t>(k)];
            const MemorySample& held = end[static_cast<std::size_t>(k)].held;
            QCOMPARE(held.parameters, ledger.parameters);
            QCOMPARE(held.gradients, ledger.gradients);
            QCOMPARE(held.optimizer, ledger.optimizer);
            QCOMPARE(held.total(), ledger.total());
        }
    }

    // Stage 3: worker 0's parameters rise above its pieces while a layer is gathered and come
    // back down when it is freed, within one step; at its peak it holds what the ledger says.
    void stage_three_gathers_and_frees() {
        Indexed r;
        run_into(sharded(Sharding::Parameters), r);
        std::vector<std::int64_t> seen;
        for (const MemorySample& m : r.trace.snapshots().at(1).memory)
            if (m.worker == 0)
                seen.push_back(MemoryView::columnsAt(r.index, m.at)[0].held.parameters);
        const std::int64_t least = *std::min_element(seen.begin(), seen.end());
        const std::int64_t most = *std::max_element(seen.begin(), seen.end());
        QVERIFY(most > least);
        QCOMPARE(most, r.metrics.memory[0].parameters_peak);
        QCOMPARE(least, r.metrics.memory[0].parameters); // the pieces alone, between layers
        int rises = 0;
        for (std::size_t i = 1; i < seen.size(); ++i)
            rises += seen[i] > seen[i - 1];
        QVERIFY2(rises >= 3, qPrintable(QString::number(rises))); // every layer, gathered
    }

    // The view shows what the model says: its columns, its segments in proportion, the half
    // under way in words, and the unsharded outline's scale.
    void view_draws_the_model() {
        Indexed r;
        const Scenario s = sharded(Sharding::Parameters);
        run_into(s, r);
        MemoryView view;
        view.resize(800, 500);
        TraceIndex none; // a run that has not made its first step yet
        none.reset(4, s.algorithm);
        view.runStarted(none, s);
        QCOMPARE(view.emptyText(), QStringLiteral("Each worker's memory appears here as the first "
                                                  "step runs."));
        view.runStarted(r.index, s);
        view.traceChanged();
        // Before any training: each worker's pieces only, as between steps.
        QVERIFY(view.emptyText().isEmpty());
        QVERIFY(view.columns().at(0).known);
        QCOMPARE(view.columns()[0].held.parameters, r.metrics.memory[0].parameters);
        QCOMPARE(view.columns()[0].held.optimizer, r.metrics.memory[0].optimizer);
        // In the middle of an all-gather of layer 1.
        const TraceEvent* gather = nullptr;
        for (const TraceEvent& e : r.index.events())
            if (e.kind == EventKind::Send && e.half == CollectiveHalf::AllGather && e.layer == 1 &&
                e.step == 1) {
                gather = &e;
                break;
            }
        QVERIFY(gather);
        view.playheadMoved((gather->start + gather->end) / 2);
        QVERIFY(view.emptyText().isEmpty());
        QVERIFY2(view.caption().startsWith(QStringLiteral("Now: all-gather of layer 1")),
                 qPrintable(view.caption()));
        QCOMPARE(view.columns().size(), std::size_t{4});
        const MemorySample& held = view.columns()[0].held;
        const QRectF params = view.segmentRect(0, MemoryKind::Parameters);
        const QRectF optimizer = view.segmentRect(0, MemoryKind::Optimizer);
        QVERIFY(params.height() > 0 && optimizer.height() > 0);
        QVERIFY(std::abs(params.height() / optimizer.height() -
                         static_cast<double>(held.parameters) /
                             static_cast<double>(held.optimizer)) < 0.05);
        QVERIFY(params.bottom() >= optimizer.bottom()); // parameters at the foot of the column
        // Without an outline the scale is the trace's own; with one, the unsharded peak's.
        const std::int64_t traced = view.scaleBytes();
        Scenario plain = s;
        plain.sharding = Sharding::None;
        Indexed u;
        run_into(plain, u);
        QVERIFY(u.metrics.memory[0].peak > traced);
        view.setUnsharded(u.metrics.memory[0]);
        QCOMPARE(view.scaleBytes(), u.metrics.memory[0].peak);
        QVERIFY(view.caption().contains(MemoryView::bytesText(u.metrics.memory[0].peak)));
        // It paints at the smallest size and at a projector's.
        for (const QSize size : {view.minimumSizeHint(), QSize(1280, 720)}) {
            view.resize(size);
            const QImage image = lockstep::testing::settled_grab(view);
            QVERIFY(lockstep::testing::count_near(image, views::okabe_ito::blue, 8) > 0);
        }
    }

    // A full replica says so; a pipeline has no columns but words.
    void other_runs_say_what_they_are() {
        Indexed r;
        const Scenario s = sharded(Sharding::None);
        run_into(s, r);
        MemoryView view;
        view.runStarted(r.index, s);
        view.playheadMoved(r.index.end_time());
        QVERIFY2(view.caption().contains(QStringLiteral("full replica")),
                 qPrintable(view.caption()));
        view.setUnsharded(r.metrics.memory[0]); // no outline for a run that is not sharded
        QVERIFY(!view.caption().contains(QStringLiteral("without sharding")));

        Scenario pipeline = sharded(Sharding::None);
        pipeline.workers = 1;
        pipeline.parallelism =
            ParallelismConfig{Parallelism::Pipeline, 3, 4, PipelineSchedule::FillDrain, 1};
        Indexed p;
        run_into(pipeline, p);
        view.runStarted(p.index, pipeline);
        view.playheadMoved(p.index.end_time());
        QVERIFY(!view.showsLedger());
        QVERIFY(view.columns().empty());
        QVERIFY(view.emptyText().contains(QStringLiteral("pipeline")));
        QVERIFY(view.accessibleDescription().contains(QStringLiteral("pipeline")));
    }
};

QTEST_MAIN(TestMemoryView)
#include "test_memory_view.moc"
