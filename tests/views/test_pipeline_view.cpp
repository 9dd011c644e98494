#include "data/data.h"
#include "lockstep_views/palette.h"
#include "lockstep_views/pipeline_view.h"
#include "lockstep_views/trace_index.h"
#include "runs/runs.h"
#include "scenario/pipeline_plan.h"
#include "scenario/scenario.h"
#include "trace/trace.h"
#include "trainers/run.h"
#include "view_test_support.h"

#include <QImage>
#include <QPushButton>
#include <QSignalSpy>
#include <QtTest>

#include <cmath>

using namespace lockstep;
using lockstep::views::PipelineGrid;
using lockstep::views::PipelineView;
using lockstep::views::TraceIndex;

Q_DECLARE_METATYPE(lockstep::PipelineSchedule)

namespace {

// Equal stages and free messages: twelve layers two wide on the xor data, so every stage costs
// the same and the bubble is exactly (P-1)/(M+P-1) of the stage-time.
Scenario equal_stages(int stages, int microbatches, PipelineSchedule schedule) {
    Scenario s;
    s.name = "pipeline-view";
    s.seed = 5;
    s.steps = 3;
    s.workers = 1;
    s.batch = 24;
    s.model = {std::vector<int>(13, 2), Activation::Tanh, LossKind::SoftmaxCrossEntropy};
    s.dataset = {"xor", "", 120, 0.05, 2};
    s.optimizer = {OptimizerKind::Sgd, 0.1, 0.9, 0.9, 0.999, 1e-8};
    s.cost.alpha_s = 0.0;
    s.cost.beta_s_per_byte = 0.0;
    s.cost.update_s = 0.0;
    s.cost.compute_s_per_sample = 3e-4;
    s.parallelism = ParallelismConfig{Parallelism::Pipeline, stages, microbatches, schedule, 1};
    return s;
}

// The engine's pipeline trainer, run for real, its trace indexed as the lab window does.
struct Indexed {
    TraceIndex index;
    PipelinePlan plan;
    PipelineReport report;
};

void run_into(const Scenario& s, Indexed& out) {
    Trace trace;
    const auto trainer = make_run(s, load_dataset(s), &trace);
    trainer->run_to_end();
    out.plan = plan_pipeline(s.model, s.batch, *s.parallelism);
    out.report = trainer->metrics().pipeline;
    out.index.reset(trainer->lanes(), Algorithm::Ring);
    out.index.append(trace.events());
    for (const auto& snap : trace.snapshots())
        out.index.append(snap);
}

std::vector<QString> labels(const std::vector<PipelineOp>& program) {
    std::vector<QString> out;
    for (const auto& op : program)
        out.push_back(
            (op.kind == PipelineOp::Kind::Forward ? QStringLiteral("F") : QStringLiteral("B")) +
            QString::number(op.microbatch));
    return out;
}

// Idle time of one lane in the grid.
Ticks idle(const PipelineGrid& g, int lane) {
    Ticks t = 0;
    for (const auto& b : g.bubbles)
        if (b.lane == lane)
            t += b.end - b.start;
    return t;
}

bool near(const QColor& a, const QColor& b, int tolerance = 12) {
    return std::abs(a.red() - b.red()) <= tolerance &&
           std::abs(a.green() - b.green()) <= tolerance &&
           std::abs(a.blue() - b.blue()) <= tolerance;
}

} // namespace

class TestPipelineView : public QObject {
    Q_OBJECT

private Q_SLOTS:
    void grid_follows_the_schedule_data() {
        QTest::addColumn<PipelineSchedule>("schedule");
        QTest::addColumn<int>("stages");
        QTest::addColumn<int>("microbatches");
        QTest::newRow("fill-drain P=4 M=4") << PipelineSchedule::FillDrain << 4 << 4;
        QTest::newRow("fill-drain P=3 M=6") << PipelineSchedule::FillDrain << 3 << 6;
        QTest::newRow("1f1b P=4 M=6") << PipelineSchedule::OneFOneB << 4 << 6;
        QTest::newRow("1f1b P=2 M=8") << PipelineSchedule::OneFOneB << 2 << 8;
    }

    // Each stage's boxes in the order of its program, the bubble fraction of the formula, the
    // same idle time on every (equal) stage, and the peak in flight of the plan.
    void grid_follows_the_schedule() {
        QFETCH(PipelineSchedule, schedule);
        QFETCH(int, stages);
        QFETCH(int, microbatches);
        Indexed run;
        run_into(equal_stages(stages, microbatches, schedule), run);
        for (std::int64_t step = 0; step < 3; ++step) {
            const PipelineGrid g = PipelineView::grid(run.index, step);
            QCOMPARE(g.step, step);
            QCOMPARE(g.lanes, stages);
            for (int s = 0; s < stages; ++s) {
                QCOMPARE(g.passes(s), labels(stage_program(schedule, s, stages, microbatches)));
                QCOMPARE(g.peak_inflight[static_cast<std::size_t>(s)],
                         run.plan.peak_inflight[static_cast<std::size_t>(s)]);
                QCOMPARE(idle(g, s), idle(g, 0));
            }
            const double expected =
                static_cast<double>(stages - 1) / static_cast<double>(microbatches + stages - 1);
            QVERIFY2(
                std::fabs(g.bubble_fraction - expected) < 1e-12,
                qPrintable(
                    QStringLiteral("bubble %1, expected %2").arg(g.bubble_fraction).arg(expected)));
            QVERIFY(std::fabs(g.bubble_fraction - run.report.bubble_fraction) < 1e-12);
            // The first stage starts at once; the last one waits for the fill.
            QCOMPARE(g.boxes.front().lane, 0);
            QVERIFY(g.bubbleCount(stages - 1) > 0);
        }
        const PipelineGrid g = PipelineView::grid(run.index, 0);
        if (schedule == PipelineSchedule::FillDrain)
            QCOMPARE(g.peak_inflight.front(), microbatches);
        else
            QCOMPARE(g.peak_inflight.front(), std::min(stages, microbatches));
        QCOMPARE(g.peak_inflight.back(),
                 schedule == PipelineSchedule::FillDrain ? microbatches : 1);
    }

    // The bytes between the rows are the engine's: each micro-batch's activations (and their
    // gradients) at the boundary's width, and over the run the report's totals.
    void bytes_per_boundary_are_the_engines() {
        Scenario s = equal_stages(3, 4, PipelineSchedule::OneFOneB);
        s.model = {{2, 8, 6, 5, 3}, Activation::Tanh, LossKind::SoftmaxCrossEntropy};
        s.dataset = {"spiral", "", 120, 0.05, 3};
        s.cost.alpha_s = 2e-5;
        s.cost.beta_s_per_byte = 1e-9;
        Indexed run;
        run_into(s, run);
        std::int64_t activations = 0, gradients = 0;
        for (std::int64_t step = 0; step < s.steps; ++step) {
            const PipelineGrid g = PipelineView::grid(run.index, step);
            QCOMPARE(g.boundaries.size(), std::size_t(2));
            for (const auto& b : g.boundaries) {
                const auto width = static_cast<std::int64_t>(
                    s.model.layers[run.plan.ranges[static_cast<std::size_t>(b.lane)].end]);
                const std::int64_t expected = static_cast<std::int64_t>(s.batch) * width *
                                              static_cast<std::int64_t>(sizeof(double));
                QCOMPARE(b.activation_bytes, expected);
                QCOMPARE(b.gradient_bytes, expected);
                activations += b.activation_bytes;
                gradients += b.gradient_bytes;
            }
        }
        QCOMPARE(activations, run.report.activation_bytes);
        QCOMPARE(gradients, run.report.activation_gradient_bytes);
        QCOMPARE(PipelineView::bytesText(1536), QStringLiteral("1.5 kB"));
    }

    // Hybrid: two replicas of a two-stage pipeline on four lanes. Only the boundaries inside a
    // replica carry activations; the replicas' all-reduce is no boundary; rows are named by
    // replica and stage.
    void hybrid_rows_and_boundaries() {
        Scenario s = equal_stages(2, 4, PipelineSchedule::OneFOneB);
        s.parallelism->mode = Parallelism::Hybrid;
        s.parallelism->replicas = 2;
        Indexed run;
        run_into(s, run);
        const PipelineGrid g = PipelineView::grid(run.index, 1);
        QCOMPARE(g.lanes, 4);
        QCOMPARE(g.boundaries.size(), std::size_t(2));
        QCOMPARE(g.boundaries[0].lane, 0);
        QCOMPARE(g.boundaries[1].lane, 2);
        QCOMPARE(g.boundaries[0].activation_bytes + g.boundaries[1].activation_bytes,
                 run.report.activation_bytes / s.steps);
        for (int lane = 0; lane < 4; ++lane)
            QCOMPARE(g.passes(lane),
                     labels(stage_program(PipelineSchedule::OneFOneB, lane % 2, 2, 4)));
        PipelineView view;
        view.setStages(2);
        view.setIndex(&run.index);
        view.setPlayhead(run.index.end_time());
        QCOMPARE(view.rowName(3), QStringLiteral("r1 stage 1"));
        QVERIFY(view.summaryText().contains(QStringLiteral("= 1/5 = 20.0%")));
    }

    // The figures are the engine's report of the step, not counted from the boxes: a report
    // that says otherwise is what the view shows, and without one it shows none.
    void figures_are_the_reports() {
        Scenario s = equal_stages(3, 4, PipelineSchedule::FillDrain);
        Trace trace;
        const auto trainer = make_run(s, load_dataset(s), &trace);
        trainer->run_to_end();
        TraceIndex index;
        index.reset(trainer->lanes(), Algorithm::Ring);
        index.append(trace.events());
        for (StepSnapshot snap : trace.snapshots()) {
            QVERIFY(snap.pipeline.has_value());
            if (snap.step == 1) {
                snap.pipeline->stages = 5;
                snap.pipeline->microbatches = 7;
                snap.pipeline->bubble_fraction = 0.25;
                snap.pipeline->peak_inflight = {9, 8, 7};
            }
            if (snap.step != 2)
                index.append(snap);
        }
        const PipelineGrid g = PipelineView::grid(index, 1);
        QVERIFY(g.reported);
        QCOMPARE(g.bubble_fraction, 0.25);
        QCOMPARE(g.stages, 5);
        QCOMPARE(g.microbatches, 7);
        QCOMPARE(g.peak_inflight, (std::vector<int>{9, 8, 7}));
        PipelineView view;
        view.setIndex(&index);
        const TraceEvent& first_of_step_1 =
            *std::find_if(index.events().begin(), index.events().end(),
                          [](const TraceEvent& e) { return e.step == 1; });
        view.setPlayhead(first_of_step_1.start + 1);
        QCOMPARE(view.currentGrid().step, std::int64_t(1));
        QVERIFY2(view.summaryText().contains(QStringLiteral("25.0%")) &&
                     view.summaryText().contains(QStringLiteral("= 4/11 = 36.4%")),
                 qPrintable(view.summaryText()));
        // Step 2's report never arrived: its boxes are drawn, its figures are not made up.
        const PipelineGrid last = PipelineView::grid(index, 2);
        QCOMPARE(last.step, std::int64_t(2));
        QVERIFY(!last.reported);
        QVERIFY(!last.boxes.empty());
        view.setPlayhead(index.end_time());
        QVERIFY(!view.summaryText().contains(QLatin1Char('%')));
        QVERIFY(view.summaryText().contains(QStringLiteral("yet")));
        // A step whose snapshot came without a report ran no pipeline: nothing is made up.
        TraceIndex plain;
        plain.reset(trainer->lanes(), Algorithm::Ring);
        plain.append(trace.events());
        for (StepSnapshot snap : trace.snapshots()) {
            snap.pipeline.reset();
            plain.append(snap);
        }
        view.setIndex(&plain);
        QVERIFY(!view.currentGrid().reported && view.currentGrid().finished);
        QCOMPARE(view.summaryText(),
                 QStringLiteral("Bubble: none reported, this step ran no pipeline"));
    }

    // A dark palette: the background and the text follow it; the boxes keep their colours.
    void dark_palette() {
        Indexed run;
        run_into(equal_stages(2, 4, PipelineSchedule::OneFOneB), run);
        PipelineView view;
        QPalette p = view.palette();
        p.setColor(QPalette::Base, QColor(0x1e, 0x1e, 0x1e));
        p.setColor(QPalette::AlternateBase, QColor(0x2a, 0x2a, 0x2a));
        p.setColor(QPalette::Text, QColor(0xee, 0xee, 0xee));
        view.setPalette(p);
        view.resize(1000, 420);
        view.setIndex(&run.index);
        view.setPlayhead(run.index.end_time());
        const QImage image = lockstep::testing::settled_grab(view);
        QVERIFY(image.save(lockstep::testing::screenshot_path("pipeline_view_dark.png")));
        const qreal dpr = image.devicePixelRatio();
        QCOMPARE(image.pixelColor(static_cast<int>((view.width() - 5) * dpr),
                                  static_cast<int>((view.height() - 5) * dpr)),
                 QColor(0x1e, 0x1e, 0x1e));
        // The row names are drawn in the light text colour.
        const QRectF row = view.rowRect(0);
        int light = 0;
        for (int x = 0; x < static_cast<int>(row.left() * dpr); ++x)
            for (int y = static_cast<int>(row.top() * dpr);
                 y < static_cast<int>(row.bottom() * dpr); ++y)
                light += image.pixelColor(x, y).lightness() > 200;
        QVERIFY(light > 20);
        const auto& forward = view.currentGrid().boxes.front();
        const QPointF at = view.boxRect(forward).topLeft() + QPointF(4, 4);
        QVERIFY(
            near(image.pixelColor(static_cast<int>(at.x() * dpr), static_cast<int>(at.y() * dpr)),
                 views::okabe_ito::blue));
    }

    void step_at_the_playhead() {
        Indexed run;
        run_into(equal_stages(2, 4, PipelineSchedule::FillDrain), run);
        const auto& snaps = run.index.snapshots();
        QCOMPARE(PipelineView::stepAt(run.index, 0), std::int64_t(0));
        QCOMPARE(PipelineView::stepAt(run.index, snaps[0].time + 1), std::int64_t(1));
        QCOMPARE(PipelineView::stepAt(run.index, snaps[1].time - 1), std::int64_t(1));
        QCOMPARE(PipelineView::stepAt(run.index, run.index.end_time() + 1000), std::int64_t(2));
        TraceIndex empty;
        empty.reset(2, Algorithm::Ring);
        QCOMPARE(PipelineView::stepAt(empty, 0), std::int64_t(-1));
        QVERIFY(PipelineView::grid(empty, 0).empty());
        QVERIFY(PipelineView::grid(run.index, 7).empty());
    }

    // Begun boxes solid in their colour (forward blue, backward orange), bubbles hatched, boxes
    // still to come drawn as outlines; the rows and the summary are in the accessible text.
    void pixels() {
        Indexed run;
        run_into(equal_stages(3, 4, PipelineSchedule::FillDrain), run);
        PipelineView view;
        view.resize(1100, 500);
        view.setIndex(&run.index);
        view.setPlayhead(run.index.end_time());
        const PipelineGrid& g = view.currentGrid();
        QCOMPARE(g.step, std::int64_t(2));
        QImage image = lockstep::testing::settled_grab(view);
        const qreal dpr = image.devicePixelRatio();
        auto at = [&](QPointF p) {
            return image.pixelColor(static_cast<int>(p.x() * dpr), static_cast<int>(p.y() * dpr));
        };
        const auto* forward = &g.boxes.front();
        QCOMPARE(forward->kind, EventKind::Forward);
        const auto* backward = &*std::find_if(g.boxes.begin(), g.boxes.end(), [](const auto& b) {
            return b.kind == EventKind::Backward;
        });
        const QRectF f = view.boxRect(*forward);
        const QRectF b = view.boxRect(*backward);
        QVERIFY(f.width() > 20 && f.height() > 20);
        QVERIFY(near(at(f.topLeft() + QPointF(4, 4)), views::okabe_ito::blue));
        QVERIFY(near(at(b.topLeft() + QPointF(4, 4)), views::okabe_ito::orange));
        // A bubble: a mix of the hatch and its light fill, neither blue nor orange.
        const QRectF bubble = view.boxRect(g.bubbles.front());
        int hatch = 0, other = 0;
        for (double x = bubble.left() + 2; x < bubble.right() - 2; x += 1)
            for (double y = bubble.top() + 2; y < bubble.bottom() - 2; y += 3) {
                const QColor c = at({x, y});
                if (c.red() > c.blue() + 60 && c.green() < 150)
                    ++hatch;
                if (near(c, views::okabe_ito::blue) || near(c, views::okabe_ito::orange))
                    ++other;
            }
        QVERIFY2(hatch > 20, qPrintable(QString::number(hatch)));
        QCOMPARE(other, 0);
        // The playhead back at the step's start: boxes still to come are outlines.
        view.setPlayhead(g.start);
        QCOMPARE(view.currentGrid().step, std::int64_t(2));
        image = view.grab().toImage();
        const PipelineGrid& g2 = view.currentGrid();
        const QRectF later = view.boxRect(g2.boxes[1]); // F1 of stage 0, not begun yet
        QVERIFY(!near(at(later.center() + QPointF(0, later.height() / 3)), views::okabe_ito::blue));
        QVERIFY(near(at(later.topLeft() + QPointF(1.5, later.height() / 2)), views::okabe_ito::blue,
                     40));
        QVERIFY(view.accessibleDescription().contains(QStringLiteral("stage 2: F0 F1 F2 F3")));
        QVERIFY(view.accessibleDescription().contains(QStringLiteral("bubble 33.3%")));
        QVERIFY2(view.summaryText().contains(QStringLiteral("= 2/6 = 33.3%")),
                 qPrintable(view.summaryText()));
        QVERIFY(view.grab().save(lockstep::testing::screenshot_path("pipeline_view.png")));
    }

    // A data-parallel run has no stages: the view draws no rows and no bubble figure, says so in
    // words, and its button asks for the same model as a pipeline. A pipeline run hides both.
    void a_run_that_is_not_a_pipeline_says_so() {
        Scenario s = equal_stages(3, 4, PipelineSchedule::FillDrain);
        s.parallelism.reset();
        s.workers = 4;
        Trace trace;
        const auto trainer = make_run(s, load_dataset(s), &trace);
        trainer->run_to_end();
        TraceIndex index;
        index.reset(4, Algorithm::Ring);
        index.append(trace.events());
        for (const auto& snap : trace.snapshots())
            index.append(snap);
        PipelineView view;
        view.resize(1100, 500);
        view.setIndex(&index);
        view.setParallelism(Parallelism::Data);
        view.setPlayhead(index.end_time());
        view.show();
        QVERIFY(QTest::qWaitForWindowExposed(&view));
        QVERIFY(!view.showsPipeline());
        QVERIFY(view.notPipelineText().contains(QStringLiteral("data-parallel")));
        QCOMPARE(view.accessibleDescription(), view.notPipelineText());
        QVERIFY(!view.accessibleDescription().contains(QStringLiteral("Bubble")));
        QPushButton* button = view.runAsPipelineButton();
        QVERIFY(button->isVisible());
        // The button sits under the words, inside the view.
        QVERIFY(view.rect().contains(button->geometry()));
        QVERIFY(button->geometry().top() > 60);
        // No forward, backward or bubble colour anywhere: nothing pretends to be a pipeline.
        const QImage image = lockstep::testing::settled_grab(view);
        int coloured = 0;
        for (int y = 0; y < image.height(); y += 4)
            for (int x = 0; x < image.width(); x += 4) {
                const QColor c = image.pixelColor(x, y);
                if (near(c, views::okabe_ito::blue) || near(c, views::okabe_ito::orange))
                    ++coloured;
            }
        QCOMPARE(coloured, 0);
        QVERIFY(view.grab().save(lockstep::testing::screenshot_path("pipeline_view_data.png")));
        QSignalSpy asked(&view, &PipelineView::runAsPipelineRequested);
        QTest::mouseClick(button, Qt::LeftButton);
        QCOMPARE(asked.count(), 1);
        view.setParallelism(Parallelism::Pipeline);
        QVERIFY(!button->isVisible());
        QVERIFY(view.notPipelineText().isEmpty());
        view.setParallelism(Parallelism::Tensor);
        QVERIFY(view.notPipelineText().contains(QStringLiteral("tensor-parallel")));
    }
};

QTEST_MAIN(TestPipelineView)
#include "test_pipeline_view.moc"
