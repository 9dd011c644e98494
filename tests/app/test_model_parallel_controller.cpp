#include "lab/engine_controller.h"
#include "lab/main_window.h"

#include "core/error.h"
#include "data/data.h"
#include "lockstep_views/comparison_view.h"
#include "lockstep_views/pipeline_view.h"
#include "runs/runs.h"
#include "scenario/pipeline_plan.h"
#include "scenario/scenario.h"
#include "trainers/run.h"
#include "trainers/tensor.h"

#include <QApplication>
#include <QPushButton>
#include <QSignalSpy>
#include <QTabWidget>
#include <QtTest>

#include <cstring>

using lockstep::EventKind;
using lockstep::Scenario;
using lockstep::StepSnapshot;
using lockstep::TraceEvent;
using lockstep::app::EngineController;

namespace {

// The shipped pipeline scenario, shortened: 2 stages, 4 micro-batches, 1F1B.
Scenario pipeline(int steps = 6) {
    auto s = lockstep::load_scenario(LOCKSTEP_SOURCE_DIR "/resources/scenarios/pipeline.json");
    s.steps = steps;
    return s;
}

// Everything the controller streamed, put together.
struct Streamed {
    QVector<TraceEvent> events;
    QVector<StepSnapshot> snapshots;
    int finished = 0;
    QStringList failures;
};

void collect(EngineController& c, Streamed& out) {
    QObject::connect(&c, &EngineController::traceBatch,
                     [&out](const QVector<TraceEvent>& e, const QVector<StepSnapshot>& s) {
                         out.events += e;
                         out.snapshots += s;
                     });
    QObject::connect(&c, &EngineController::runFinished, [&out] { ++out.finished; });
    QObject::connect(&c, &EngineController::runFailed,
                     [&out](const QString& m) { out.failures << m; });
}

bool same_bits(const std::vector<double>& a, const std::vector<double>& b) {
    return a.size() == b.size() && !a.empty() &&
           std::memcmp(a.data(), b.data(), a.size() * sizeof(double)) == 0;
}

// The stream against the engine's own pipeline trainer run on the same scenario.
void check_pipeline_stream(const Streamed& got, const Scenario& s, EngineController& c) {
    QVERIFY2(got.failures.isEmpty(), qPrintable(got.failures.join(QLatin1Char('\n'))));
    QCOMPARE(got.finished, 1);
    lockstep::Trace trace;
    const auto direct = lockstep::make_run(s, lockstep::load_dataset(s), &trace);
    direct->run_to_end();
    QCOMPARE(got.events.size(), static_cast<qsizetype>(trace.events().size()));
    QCOMPARE(got.snapshots.size(), static_cast<qsizetype>(s.steps));
    int forwards = 0, backwards = 0, activations = 0;
    for (qsizetype i = 0; i < got.events.size(); ++i) {
        const TraceEvent& e = got.events[i];
        const TraceEvent& d = trace.events()[static_cast<std::size_t>(i)];
        QCOMPARE(e.kind, d.kind);
        QCOMPARE(e.start, d.start);
        QCOMPARE(e.microbatch, d.microbatch);
        forwards += e.kind == EventKind::Forward;
        backwards += e.kind == EventKind::Backward;
        activations += e.kind == EventKind::Send && e.peer == e.worker + 1 && e.microbatch >= 0;
        QVERIFY(e.worker >= 0 && e.worker < 2);
    }
    const int m = s.parallelism->microbatches, p = s.parallelism->stages;
    QCOMPARE(forwards, s.steps * m * p);
    QCOMPARE(backwards, s.steps * m * p);
    QCOMPARE(activations, s.steps * m * (p - 1));
    QCOMPARE(got.snapshots.back().time, trace.snapshots().back().time);
    QVERIFY(same_bits(c.finalParameters(), direct->parameters()));
    QCOMPARE(c.metrics().workers, p);
    QCOMPARE(c.metrics().steps_run, static_cast<std::int64_t>(s.steps));
    QCOMPARE(c.metrics().total_time_s, direct->metrics().total_time_s);
}

} // namespace

class TestModelParallelController : public QObject {
    Q_OBJECT

private Q_SLOTS:
    void lanes_follow_the_parallelism() {
        Scenario s = pipeline();
        QVERIFY(s.model_parallel());
        QCOMPARE(s.lanes(), 2);
        s.parallelism->mode = lockstep::Parallelism::Hybrid;
        s.parallelism->replicas = 3;
        QCOMPARE(s.lanes(), 6);
        s.parallelism.reset();
        s.workers = 5;
        QVERIFY(!s.model_parallel());
        QCOMPARE(s.lanes(), 5);
    }

    // start() runs the pipeline on the engine thread and streams what the engine's pipeline
    // trainer makes, event for event, with its final parameters and metrics.
    void streams_a_pipeline_run() {
        const Scenario s = pipeline();
        EngineController c;
        Streamed got;
        collect(c, got);
        c.setPlayheadStep(1'000'000);
        c.start(s);
        QTRY_COMPARE_WITH_TIMEOUT(got.finished + static_cast<int>(got.failures.size()), 1, 30000);
        check_pipeline_stream(got, s, c);
    }

    void runs_a_pipeline_to_completion() {
        const Scenario s = pipeline();
        EngineController c;
        Streamed got;
        collect(c, got);
        c.runToCompletion(s);
        check_pipeline_stream(got, s, c);
    }

    // A tensor run goes through the tensor trainer: its parameters, not a data-parallel one's.
    void runs_a_tensor_scenario() {
        Scenario s = pipeline(3);
        s.parallelism = lockstep::ParallelismConfig{lockstep::Parallelism::Tensor, 2, 1,
                                                    lockstep::PipelineSchedule::FillDrain, 1};
        EngineController c;
        Streamed got;
        collect(c, got);
        c.runToCompletion(s);
        QVERIFY2(got.failures.isEmpty(), qPrintable(got.failures.join(QLatin1Char('\n'))));
        const auto direct = lockstep::make_run(s, lockstep::load_dataset(s));
        direct->run_to_end();
        QVERIFY(same_bits(c.finalParameters(), direct->parameters()));
        QCOMPARE(got.snapshots.size(), qsizetype(3));
    }

    void refuses_faults_and_bad_combinations() {
        EngineController c;
        Scenario s = pipeline(400);
        c.start(s);
        QString why;
        QVERIFY(!c.injectFault(0, QStringLiteral("slow"), &why));
        QVERIFY2(why.contains(QStringLiteral("Model-parallel")), qPrintable(why));
        c.stop();
        s.parallelism->stages = 9; // more stages than the model's 4 layers
        QVERIFY_THROWS_EXCEPTION(lockstep::Error, c.start(s));
    }

    // In the lab window the pipeline run fills the index with one lane per stage and shows the
    // pipeline view.
    void lab_window_shows_the_pipeline() {
        lockstep::app::MainWindow window;
        window.resize(1400, 900);
        window.show();
        QSignalSpy finished(&window.controller(), &EngineController::runFinished);
        window.runScenario(pipeline());
        QVERIFY(finished.wait(30000) || finished.count() == 1);
        QCOMPARE(window.traceIndex().workers(), 2);
        auto* view =
            qobject_cast<lockstep::views::PipelineView*>(window.view(QStringLiteral("pipeline")));
        QVERIFY(view);
        QVERIFY(view->isVisible());
        window.playback().scrubTo(window.traceIndex().end_time());
        QApplication::processEvents();
        const auto& g = view->currentGrid();
        QCOMPARE(g.step, std::int64_t(5));
        QCOMPARE(g.passes(0).size(), std::size_t(8));
        // The finished run joins the comparison with the pipeline trainer's metrics.
        auto* comparison = qobject_cast<lockstep::views::ComparisonView*>(
            window.view(QStringLiteral("comparison")));
        QVERIFY(comparison);
        QCOMPARE(comparison->runs().size(), std::size_t(1));
        QCOMPARE(comparison->runs().front().metrics.workers, 2);
        QVERIFY(comparison->runs().front().name.contains(QStringLiteral("pipeline, 2 lanes")));
        QCOMPARE(comparison->runs().front().metrics.total_time_s,
                 lockstep::to_seconds(window.traceIndex().end_time()));
    }

    // A data-parallel run: the Pipeline tab draws no stages, says why, and its button runs the
    // same model as a pipeline, which the tab then draws.
    void the_pipeline_tab_offers_a_pipeline_for_a_data_parallel_run() {
        lockstep::app::MainWindow window;
        window.resize(1400, 900);
        window.show();
        QSignalSpy finished(&window.controller(), &EngineController::runFinished);
        Scenario s = pipeline();
        s.parallelism.reset();
        s.workers = 2;
        window.runScenario(s);
        QVERIFY(finished.wait(30000) || finished.count() == 1);
        auto* view =
            qobject_cast<lockstep::views::PipelineView*>(window.view(QStringLiteral("pipeline")));
        QVERIFY(view);
        QCOMPARE(view->parallelism(), lockstep::Parallelism::Data);
        QVERIFY(!view->showsPipeline());
        QTest::mouseClick(view->runAsPipelineButton(), Qt::LeftButton);
        QVERIFY(finished.wait(30000) || finished.count() == 2);
        const Scenario& now = window.session().scenario();
        QVERIFY(now.parallelism.has_value());
        QCOMPARE(now.parallelism->mode, lockstep::Parallelism::Pipeline);
        QCOMPARE(now.model.layers, s.model.layers);
        QCOMPARE(now.batch, s.batch);
        QVERIFY(view->showsPipeline());
        QVERIFY(view->isVisible());
        QVERIFY(!view->runAsPipelineButton()->isVisible());
        window.playback().scrubTo(window.traceIndex().end_time());
        QApplication::processEvents();
        QCOMPARE(view->currentGrid().lanes, now.parallelism->stages);
        QVERIFY(view->currentGrid().reported);
    }
};

QTEST_MAIN(TestModelParallelController)
#include "test_model_parallel_controller.moc"
