#include "core/error.h"
#include "data/data.h"
#include "model/model.h"
#include "runs/runs.h"
#include "scenario/pipeline_plan.h"
#include "scenario/scenario.h"
#include "trace/trace.h"
#include "trainers/run.h"

#include <nlohmann/json.hpp>
#include <oneapi/tbb/global_control.h>

#include <QtTest>

#include "test_support.h"

#include <cmath>
#include <cstring>

using namespace lockstep;
using namespace lockstep::testing;

Q_DECLARE_METATYPE(lockstep::PipelineSchedule)

namespace {

// A small spiral run with a deep enough model to cut into stages.
Scenario pipeline_scenario(int stages, int microbatches, PipelineSchedule schedule,
                           std::size_t batch = 12) {
    Scenario s;
    s.name = "pipeline-test";
    s.seed = 5;
    s.steps = 5;
    s.workers = 1;
    s.batch = batch;
    s.model = {{2, 8, 6, 5, 3}, Activation::Tanh, LossKind::SoftmaxCrossEntropy};
    s.dataset = {"spiral", "", 120, 0.05, 3};
    s.optimizer = {OptimizerKind::Sgd, 0.1, 0.9, 0.9, 0.999, 1e-8};
    s.parallelism = ParallelismConfig{Parallelism::Pipeline, stages, microbatches, schedule, 1};
    return s;
}

// The same model trained unsplit: one data-parallel worker on the same batch.
Scenario unsplit(const Scenario& pipeline) {
    Scenario s = pipeline;
    s.parallelism.reset();
    s.workers =
        pipeline.parallelism->mode == Parallelism::Hybrid ? pipeline.parallelism->replicas : 1;
    return s;
}

bool same_bits(const std::vector<double>& a, const std::vector<double>& b) {
    return a.size() == b.size() && std::memcmp(a.data(), b.data(), a.size() * sizeof(double)) == 0;
}

double largest_difference(const std::vector<double>& a, const std::vector<double>& b) {
    double worst = 0.0;
    for (std::size_t i = 0; i < a.size(); ++i)
        worst = std::max(worst, std::fabs(a[i] - b[i]));
    return worst;
}

struct PipelineRun {
    Trace trace;
    std::vector<double> parameters;
    RunMetrics metrics;
    PipelineReport report;
};

PipelineRun run_pipeline(const Scenario& s) {
    PipelineRun out;
    const auto trainer = make_run(s, load_dataset(s), &out.trace);
    trainer->run_to_end();
    out.parameters = trainer->parameters();
    out.metrics = trainer->metrics();
    out.report = trainer->metrics().pipeline;
    return out;
}

} // namespace

class TestPipeline : public QObject {
    Q_OBJECT

private Q_SLOTS:
    void stages_balance_the_layers() {
        const ModelShape shape{{4, 4, 4, 4, 4}, Activation::Tanh, LossKind::SoftmaxCrossEntropy};
        const auto two = split_stages(shape, 2);
        QCOMPARE(two.size(), std::size_t(2));
        QCOMPARE(two[0].first, std::size_t(0));
        QCOMPARE(two[0].end, std::size_t(2));
        QCOMPARE(two[1].end, std::size_t(4));
        // A wide middle layer gets a stage to itself.
        const ModelShape wide{{2, 64, 64, 2}, Activation::Tanh, LossKind::SoftmaxCrossEntropy};
        const auto three = split_stages(wide, 2);
        QCOMPARE(three[0].end, std::size_t(1));
        QCOMPARE(three[1].first, std::size_t(1));
        QCOMPARE(three[1].end, std::size_t(3));
    }

    void programs_follow_the_schedules() {
        using K = PipelineOp::Kind;
        const auto fill = stage_program(PipelineSchedule::FillDrain, 1, 3, 3);
        const std::vector<PipelineOp> fill_expected{{K::Forward, 0},  {K::Forward, 1},
                                                    {K::Forward, 2},  {K::Backward, 0},
                                                    {K::Backward, 1}, {K::Backward, 2}};
        QVERIFY(fill == fill_expected);
        // Stage 0 of 3 warms up with two forwards, then alternates.
        const auto ofob = stage_program(PipelineSchedule::OneFOneB, 0, 3, 4);
        const std::vector<PipelineOp> ofob_expected{
            {K::Forward, 0}, {K::Forward, 1},  {K::Forward, 2},  {K::Backward, 0},
            {K::Forward, 3}, {K::Backward, 1}, {K::Backward, 2}, {K::Backward, 3}};
        QVERIFY(ofob == ofob_expected);
        // The last stage has no warm-up: forward, backward, forward, backward.
        const auto last = stage_program(PipelineSchedule::OneFOneB, 2, 3, 2);
        const std::vector<PipelineOp> last_expected{
            {K::Forward, 0}, {K::Backward, 0}, {K::Forward, 1}, {K::Backward, 1}};
        QVERIFY(last == last_expected);
    }

    void equals_unsplit_training_data() {
        QTest::addColumn<PipelineSchedule>("schedule");
        QTest::addColumn<int>("stages");
        QTest::addColumn<int>("microbatches");
        for (auto schedule : {PipelineSchedule::FillDrain, PipelineSchedule::OneFOneB})
            for (int stages : {1, 2, 3, 4})
                for (int microbatches : {1, 3, 4, 12}) {
                    const QByteArray name = QByteArray(to_string(schedule).data()) +
                                            " P=" + QByteArray::number(stages) +
                                            " M=" + QByteArray::number(microbatches);
                    QTest::newRow(name.constData()) << schedule << stages << microbatches;
                }
    }

    // Same order of operations as one worker on the whole batch, so the same bits.
    void equals_unsplit_training() {
        QFETCH(PipelineSchedule, schedule);
        QFETCH(int, stages);
        QFETCH(int, microbatches);
        const Scenario s = pipeline_scenario(stages, microbatches, schedule);
        const PipelineRun piped = run_pipeline(s);
        Trace reference_trace;
        const auto reference = make_run(unsplit(s), load_dataset(s), &reference_trace);
        reference->run_to_end();
        QVERIFY(same_bits(piped.parameters, reference->parameters()));
        QCOMPARE(piped.trace.snapshots().size(), reference_trace.snapshots().size());
        for (std::size_t k = 0; k < piped.trace.snapshots().size(); ++k) {
            QCOMPARE(piped.trace.snapshots()[k].loss, reference_trace.snapshots()[k].loss);
            QCOMPARE(piped.trace.snapshots()[k].accuracy, reference_trace.snapshots()[k].accuracy);
        }
        // It really trained: the parameters moved away from the start.
        const auto fresh = make_run(s, load_dataset(s));
        QVERIFY(!same_bits(fresh->parameters(), piped.parameters));
    }

    void equals_unsplit_with_adam_relu_and_mse() {
        Scenario s = pipeline_scenario(3, 5, PipelineSchedule::OneFOneB, 10);
        s.model = {{2, 7, 9, 4, 1}, Activation::Relu, LossKind::MeanSquaredError};
        s.dataset = {"regression", "", 90, 0.05, 1};
        s.optimizer = {OptimizerKind::Adam, 0.01, 0.0, 0.9, 0.999, 1e-8};
        const PipelineRun piped = run_pipeline(s);
        const auto reference = make_run(unsplit(s), load_dataset(s));
        reference->run_to_end();
        QVERIFY(same_bits(piped.parameters, reference->parameters()));
    }

    void hybrid_equals_data_parallel_training_data() {
        QTest::addColumn<PipelineSchedule>("schedule");
        QTest::addColumn<int>("replicas");
        QTest::addColumn<int>("stages");
        QTest::addColumn<Algorithm>("algorithm");
        QTest::newRow("2x2 fill-drain ring")
            << PipelineSchedule::FillDrain << 2 << 2 << Algorithm::Ring;
        QTest::newRow("3x2 1f1b tree") << PipelineSchedule::OneFOneB << 3 << 2 << Algorithm::Tree;
        QTest::newRow("2x4 1f1b parameter server")
            << PipelineSchedule::OneFOneB << 2 << 4 << Algorithm::ParameterServer;
    }

    // Each stage's gradients are all-reduced across its replicas in chunks of the stage's slice
    // rather than of the whole vector, so the sums may round differently: equal to within
    // floating-point tolerance, and the replicas stay bitwise equal to each other.
    void hybrid_equals_data_parallel_training() {
        QFETCH(PipelineSchedule, schedule);
        QFETCH(int, replicas);
        QFETCH(int, stages);
        QFETCH(Algorithm, algorithm);
        Scenario s = pipeline_scenario(stages, 3, schedule, 9);
        s.algorithm = algorithm;
        s.parallelism->mode = Parallelism::Hybrid;
        s.parallelism->replicas = replicas;
        const auto trainer = make_run(s, load_dataset(s));
        trainer->run_to_end();
        QCOMPARE(trainer->lanes(), replicas * stages);
        QVERIFY(trainer->metrics().replicas_aligned);
        for (int r = 1; r < replicas; ++r)
            QVERIFY(same_bits(trainer->replicas()[0].parameters,
                              trainer->replicas()[static_cast<std::size_t>(r)].parameters));
        const auto reference = make_run(unsplit(s), load_dataset(s));
        reference->run_to_end();
        const auto& expected = reference->parameters();
        QVERIFY2(largest_difference(trainer->parameters(), expected) < 1e-12,
                 qPrintable(QString::number(largest_difference(trainer->parameters(), expected))));
        // ...and training moved them much further than that.
        const auto fresh = make_run(s, load_dataset(s));
        QVERIFY(largest_difference(fresh->parameters(), expected) > 1e-3);
    }

    void bubble_matches_the_formula_data() {
        QTest::addColumn<PipelineSchedule>("schedule");
        QTest::addColumn<int>("stages");
        QTest::addColumn<int>("microbatches");
        for (auto schedule : {PipelineSchedule::FillDrain, PipelineSchedule::OneFOneB})
            for (int stages : {1, 2, 3, 4, 6})
                for (int microbatches : {1, 2, 4, 8}) {
                    const QByteArray name = QByteArray(to_string(schedule).data()) +
                                            " P=" + QByteArray::number(stages) +
                                            " M=" + QByteArray::number(microbatches);
                    QTest::newRow(name.constData()) << schedule << stages << microbatches;
                }
    }

    // Equal stages and free messages: idle time is (P-1)/(M+P-1) of all stage-time, for
    // fill-drain and for 1F1B alike (1F1B saves memory, not time).
    void bubble_matches_the_formula() {
        QFETCH(PipelineSchedule, schedule);
        QFETCH(int, stages);
        QFETCH(int, microbatches);
        Scenario s = pipeline_scenario(stages, microbatches, schedule, 24);
        s.model = {std::vector<int>(13, 2), Activation::Tanh, LossKind::SoftmaxCrossEntropy};
        s.dataset = {"xor", "", 120, 0.05, 2};
        s.steps = 3;
        s.cost.alpha_s = 0.0;
        s.cost.beta_s_per_byte = 0.0;
        s.cost.update_s = 0.0;
        s.cost.compute_s_per_sample = 3e-4;
        const PipelineRun run = run_pipeline(s);
        const double expected =
            static_cast<double>(stages - 1) / static_cast<double>(microbatches + stages - 1);
        QVERIFY2(
            std::fabs(run.report.bubble_fraction - expected) < 1e-12,
            qPrintable(
                QString("bubble %1, expected %2").arg(run.report.bubble_fraction).arg(expected)));
        // The step takes (M+P-1) slots of one micro-batch's forward and backward on one stage.
        const double slot = 24.0 / microbatches * 3e-4 / stages;
        QVERIFY(std::fabs(run.metrics.total_time_s - 3 * (microbatches + stages - 1) * slot) <
                1e-9);
        // Bubbles are in the trace, each an explicit event.
        Ticks bubbles = 0, all = 0;
        for (const auto& e : run.trace.events()) {
            if (e.kind == EventKind::Bubble)
                bubbles += e.end - e.start;
            if (e.kind == EventKind::Forward || e.kind == EventKind::Backward ||
                e.kind == EventKind::Bubble || e.kind == EventKind::Update)
                all += e.end - e.start;
        }
        QCOMPARE(static_cast<double>(bubbles) / static_cast<double>(all),
                 run.report.bubble_fraction);
    }

    // The engine's one statement of the formula (scenario/pipeline_plan.h), in slots: P-1 idle of
    // M+P-1. With equal stages and free messages the trainer idles exactly that share.
    void fill_drain_bubble_counts_slots_data() {
        QTest::addColumn<int>("stages");
        QTest::addColumn<int>("microbatches");
        QTest::addColumn<int>("idle");
        QTest::addColumn<int>("slots");
        QTest::newRow("one stage: no bubble") << 1 << 4 << 0 << 4;
        QTest::newRow("P=2 M=4") << 2 << 4 << 1 << 5;
        QTest::newRow("P=4 M=8") << 4 << 8 << 3 << 11;
        QTest::newRow("P=3 M=6") << 3 << 6 << 2 << 8;
        QTest::newRow("P=6 M=1") << 6 << 1 << 5 << 6;
    }

    void fill_drain_bubble_counts_slots() {
        QFETCH(int, stages);
        QFETCH(int, microbatches);
        QFETCH(int, idle);
        QFETCH(int, slots);
        const FillDrainBubble b = fill_drain_bubble(stages, microbatches);
        QCOMPARE(b.idle_slots, idle);
        QCOMPARE(b.slots, slots);
        QCOMPARE(b.fraction, static_cast<double>(idle) / slots);

        Scenario s = pipeline_scenario(stages, microbatches, PipelineSchedule::FillDrain, 24);
        s.model = {std::vector<int>(13, 2), Activation::Tanh, LossKind::SoftmaxCrossEntropy};
        s.dataset = {"xor", "", 120, 0.05, 2};
        s.steps = 2;
        s.cost.alpha_s = 0.0;
        s.cost.beta_s_per_byte = 0.0;
        s.cost.update_s = 0.0;
        s.cost.compute_s_per_sample = 3e-4;
        const double measured = run_pipeline(s).report.bubble_fraction;
        QVERIFY2(std::fabs(measured - b.fraction) < 1e-12,
                 qPrintable(QString("trainer %1, formula %2").arg(measured).arg(b.fraction)));
    }

    // Each step's snapshot carries the trainer's report of that step: P, M, each lane's peak in
    // flight and the step's bubble fraction, idle stage-time over lanes x the step's time; with
    // messages that cost something it is above the formula's, and the same for every step.
    void each_step_reports_its_bubble() {
        Scenario s = pipeline_scenario(3, 4, PipelineSchedule::OneFOneB, 24);
        s.cost.alpha_s = 2e-5;
        s.cost.beta_s_per_byte = 1e-9;
        const auto trainer = make_run(s, load_dataset(s), nullptr);
        Trace trace;
        trainer->set_sink(&trace);
        trainer->run_to_end();
        QCOMPARE(trace.snapshots().size(), std::size_t(s.steps));
        Ticks begun = 0;
        for (const StepSnapshot& snap : trace.snapshots()) {
            QVERIFY(snap.pipeline.has_value());
            const PipelineStepReport& r = *snap.pipeline;
            QCOMPARE(r.stages, 3);
            QCOMPARE(r.microbatches, 4);
            QCOMPARE(r.peak_inflight.size(), std::size_t(3));
            for (int lane = 0; lane < 3; ++lane)
                QCOMPARE(r.peak_inflight[static_cast<std::size_t>(lane)],
                         plan_pipeline(s.model, s.batch, *s.parallelism)
                             .peak_inflight[static_cast<std::size_t>(lane)]);
            Ticks idle = 0;
            for (const auto& e : trace.events())
                if (e.step == snap.step && e.kind == EventKind::Bubble)
                    idle += e.end - e.start;
            const double expected =
                static_cast<double>(idle) / (3.0 * static_cast<double>(snap.time - begun));
            QVERIFY2(std::fabs(r.bubble_fraction - expected) < 1e-12,
                     qPrintable(QString("step %1: %2, expected %3")
                                    .arg(snap.step)
                                    .arg(r.bubble_fraction)
                                    .arg(expected)));
            QVERIFY(r.bubble_fraction > 2.0 / 6.0);
            QVERIFY(std::fabs(r.bubble_fraction - trainer->metrics().pipeline.bubble_fraction) <
                    1e-12);
            begun = snap.time;
        }
        // A data-parallel run's snapshots carry no pipeline report.
        Scenario data = unsplit(s);
        Trace plain;
        const auto dp = make_run(data, load_dataset(data), &plain);
        dp->run_to_end();
        QVERIFY(!plain.snapshots().front().pipeline.has_value());
    }

    void messages_and_uneven_stages_add_to_the_bubble() {
        Scenario s = pipeline_scenario(2, 4, PipelineSchedule::FillDrain, 24);
        s.model = {std::vector<int>(5, 2), Activation::Tanh, LossKind::SoftmaxCrossEntropy};
        s.dataset = {"xor", "", 120, 0.05, 2};
        s.cost.alpha_s = 0.0;
        s.cost.beta_s_per_byte = 0.0;
        const double free = run_pipeline(s).report.bubble_fraction;
        s.cost.alpha_s = 1e-4;
        QVERIFY(run_pipeline(s).report.bubble_fraction > free);
    }

    void inflight_bound_data() {
        QTest::addColumn<int>("stages");
        QTest::addColumn<int>("microbatches");
        QTest::newRow("P=2 M=8") << 2 << 8;
        QTest::newRow("P=4 M=8") << 4 << 8;
        QTest::newRow("P=4 M=12") << 4 << 12;
        QTest::newRow("P=4 M=2") << 4 << 2;
        QTest::newRow("P=3 M=3") << 3 << 3;
    }

    // 1F1B: stage s holds at most min(P - s, M) micro-batches; fill-drain holds all M. Counted
    // while the passes really run, and read from the programs.
    void inflight_bound() {
        QFETCH(int, stages);
        QFETCH(int, microbatches);
        const Scenario ofob = pipeline_scenario(stages, microbatches, PipelineSchedule::OneFOneB);
        const auto plan = plan_pipeline(ofob.model, ofob.batch, *ofob.parallelism);
        for (int s = 0; s < stages; ++s)
            QCOMPARE(plan.peak_inflight[static_cast<std::size_t>(s)],
                     std::min(stages - s, microbatches));
        QCOMPARE(run_pipeline(ofob).report.peak_inflight_microbatches,
                 std::min(stages, microbatches));
        const Scenario fill = pipeline_scenario(stages, microbatches, PipelineSchedule::FillDrain);
        QCOMPARE(run_pipeline(fill).report.peak_inflight_microbatches, microbatches);
    }

    // Layers 2-8-6-3 in three stages, 10 rows per step in four micro-batches (2, 3, 2, 3 rows):
    // 10 x (8 + 6) doubles of activations forward per step and as many gradients back.
    void exact_byte_counts() {
        Scenario s = pipeline_scenario(3, 4, PipelineSchedule::OneFOneB, 10);
        s.model.layers = {2, 8, 6, 3};
        s.steps = 2;
        const PipelineRun run = run_pipeline(s);
        QCOMPARE(run.report.activation_bytes, std::int64_t(2 * 10 * (8 + 6) * 8));
        QCOMPARE(run.report.activation_gradient_bytes, std::int64_t(2 * 10 * (8 + 6) * 8));
        QCOMPARE(run.report.gradient_bytes, std::int64_t(0));
        QCOMPARE(run.metrics.bytes_moved, std::int64_t(2 * 2 * 10 * (8 + 6) * 8));
        // Each message is one micro-batch's rows at one boundary.
        std::vector<std::int64_t> sent;
        for (const auto& e : run.trace.events())
            if (e.kind == EventKind::Send && e.step == 0 && e.worker == 0 && e.peer == 1)
                sent.push_back(e.bytes);
        QCOMPARE(sent, (std::vector<std::int64_t>{2 * 8 * 8, 3 * 8 * 8, 2 * 8 * 8, 3 * 8 * 8}));

        // Hybrid, two replicas on a ring: per stage 2(N-1)/N of its gradient from each of N.
        s.parallelism->mode = Parallelism::Hybrid;
        s.parallelism->replicas = 2;
        s.algorithm = Algorithm::Ring;
        const PipelineRun hybrid = run_pipeline(s);
        const std::int64_t parameters = (2 * 8 + 8) + (8 * 6 + 6) + (6 * 3 + 3);
        QCOMPARE(hybrid.report.gradient_bytes, std::int64_t(2 * 2 * parameters * 8));
        QCOMPARE(hybrid.report.activation_bytes, std::int64_t(2 * 2 * 10 * (8 + 6) * 8));
    }

    void trace_names_every_microbatch() {
        const Scenario s = pipeline_scenario(3, 4, PipelineSchedule::OneFOneB);
        const PipelineRun run = run_pipeline(s);
        int forwards = 0, backwards = 0;
        for (const auto& e : run.trace.events()) {
            if (e.kind == EventKind::Forward || e.kind == EventKind::Backward) {
                QVERIFY(e.microbatch >= 0 && e.microbatch < 4);
                QVERIFY(e.end > e.start);
                (e.kind == EventKind::Forward ? forwards : backwards) += 1;
            }
            if (e.kind == EventKind::Send && e.microbatch >= 0)
                QCOMPARE(std::abs(e.peer - e.worker), 1);
        }
        QCOMPARE(forwards, 3 * 4 * 5);
        QCOMPARE(backwards, 3 * 4 * 5);
        // Lanes never do two things at once: compute and bubbles tile each lane.
        for (int w = 0; w < 3; ++w) {
            Ticks at = 0;
            for (const auto& e : run.trace.events()) {
                if (e.worker != w || e.kind == EventKind::Send || e.kind == EventKind::Receive)
                    continue;
                QCOMPARE(e.start, at);
                at = e.end;
            }
            QCOMPARE(to_seconds(at), run.metrics.total_time_s);
        }
        const auto doc = nlohmann::json::parse(to_chrome_trace_json(run.trace.events(), 3));
        int forward_slices = 0, transfer_begins = 0, transfer_ends = 0;
        for (const auto& e : doc["traceEvents"]) {
            if (e["name"] == "forward" && e["ph"] == "X") {
                ++forward_slices;
                QVERIFY(e["args"].contains("microbatch"));
            }
            transfer_begins += e["ph"] == "b" ? 1 : 0;
            transfer_ends += e["ph"] == "e" ? 1 : 0;
        }
        QCOMPARE(forward_slices, forwards);
        QCOMPARE(transfer_begins, 2 * 2 * 2 * 4 * 5); // send + receive, 2 boundaries, 2 ways
        QCOMPARE(transfer_ends, transfer_begins);
    }

    void same_results_at_any_thread_count() {
        Scenario s = pipeline_scenario(3, 4, PipelineSchedule::OneFOneB);
        s.parallelism->mode = Parallelism::Hybrid;
        s.parallelism->replicas = 2;
        auto with_threads = [&](int threads) {
            tbb::global_control limit(tbb::global_control::max_allowed_parallelism,
                                      static_cast<std::size_t>(threads));
            return run_pipeline(s);
        };
        const PipelineRun one = with_threads(1);
        for (int threads : {2, 4}) {
            const PipelineRun many = with_threads(threads);
            QVERIFY(same_bits(one.parameters, many.parameters));
            QCOMPARE(one.trace.events().size(), many.trace.events().size());
            for (std::size_t i = 0; i < one.trace.events().size(); ++i) {
                const auto& a = one.trace.events()[i];
                const auto& b = many.trace.events()[i];
                QVERIFY(a.worker == b.worker && a.kind == b.kind && a.start == b.start &&
                        a.end == b.end && a.bytes == b.bytes && a.microbatch == b.microbatch);
            }
            QCOMPARE(one.metrics.final_loss, many.metrics.final_loss);
        }
    }

    void scenario_files_carry_the_parallelism() {
        Scenario s = pipeline_scenario(2, 4, PipelineSchedule::OneFOneB);
        s.parallelism->mode = Parallelism::Hybrid;
        s.parallelism->replicas = 3;
        const Scenario back = parse_scenario(scenario_to_json(s));
        QVERIFY(back.parallelism.has_value());
        QCOMPARE(back.parallelism->mode, Parallelism::Hybrid);
        QCOMPARE(back.parallelism->stages, 2);
        QCOMPARE(back.parallelism->microbatches, 4);
        QCOMPARE(back.parallelism->schedule, PipelineSchedule::OneFOneB);
        QCOMPARE(back.parallelism->replicas, 3);
        QCOMPARE(scenario_hash(back), scenario_hash(s));
        // Without the key nothing changes: not in the file, so not in the hash.
        Scenario plain = s;
        plain.parallelism.reset();
        QVERIFY(scenario_to_json(plain).find("parallelism") == std::string::npos);
        QVERIFY(scenario_hash(plain) != scenario_hash(s));
        QVERIFY(!parse_scenario(scenario_to_json(plain)).parallelism.has_value());
    }

    void bad_combinations_get_clear_errors_data() {
        QTest::addColumn<int>("stages");
        QTest::addColumn<int>("microbatches");
        QTest::addColumn<QString>("expected");
        QTest::newRow("more stages than layers")
            << 5 << 2
            << "parallelism.stages: 5 stages need at least as many layers, the model has 4";
        QTest::newRow("no micro-batch") << 2 << 0 << "parallelism.microbatches: must be";
        QTest::newRow("more micro-batches than rows")
            << 2 << 13
            << "parallelism.microbatches: 13 micro-batches cannot be cut from a batch of 12";
        QTest::newRow("no stage") << 0 << 2 << "parallelism.stages: must be";
    }

    void bad_combinations_get_clear_errors() {
        QFETCH(int, stages);
        QFETCH(int, microbatches);
        QFETCH(QString, expected);
        const Scenario s = pipeline_scenario(stages, microbatches, PipelineSchedule::FillDrain);
        const QString message = error_message([&] { validate(s); });
        QVERIFY2(message.startsWith(expected), qPrintable(message));
        QCOMPARE(error_message([&] { (void)make_run(s, load_dataset(s)); }), message);
    }

    // Textbook mode: the activation messages and the hybrid all-reduce are free, and each step
    // ends its passes with one fixed communication time on every lane. Same arithmetic.
    void fixed_communication_replaces_the_messages_data() {
        QTest::addColumn<int>("replicas");
        QTest::newRow("pipeline") << 1;
        QTest::newRow("hybrid") << 2;
    }

    void fixed_communication_replaces_the_messages() {
        QFETCH(int, replicas);
        Scenario priced = pipeline_scenario(3, 4, PipelineSchedule::OneFOneB);
        if (replicas > 1) {
            priced.parallelism->mode = Parallelism::Hybrid;
            priced.parallelism->replicas = replicas;
        }
        Scenario textbook = priced;
        textbook.cost.communication_s_per_step = 0.25;
        Trace trace;
        const auto t = make_run(textbook, load_dataset(textbook), &trace);
        t->run_to_end();
        const auto reference = make_run(priced, load_dataset(priced));
        reference->run_to_end();
        QVERIFY(same_bits(t->parameters(), reference->parameters()));
        std::vector<int> per_lane(static_cast<std::size_t>(t->lanes()), 0);
        for (const auto& e : trace.events()) {
            if (e.kind == EventKind::Communicate) {
                QCOMPARE(e.end - e.start, to_ticks(0.25));
                ++per_lane[static_cast<std::size_t>(e.worker)];
            }
            if (e.kind == EventKind::Send || e.kind == EventKind::Receive)
                QCOMPARE(e.end, e.start);
        }
        QCOMPARE(per_lane, std::vector<int>(static_cast<std::size_t>(t->lanes()), 5));
        QCOMPARE(t->metrics().bytes_moved, reference->metrics().bytes_moved);
        QVERIFY(t->metrics().total_time_s >= 5 * 0.25);
    }

    void other_bad_settings() {
        Scenario s = pipeline_scenario(2, 2, PipelineSchedule::FillDrain);
        s.clock = ClockKind::Measured;
        QVERIFY(error_message([&] { (void)make_run(s, load_dataset(s)); }).startsWith("clock:"));
        s = pipeline_scenario(2, 2, PipelineSchedule::FillDrain);
        s.parallelism->mode = Parallelism::Hybrid;
        s.parallelism->replicas = 2;
        s.algorithm = Algorithm::None;
        QVERIFY(
            error_message([&] { (void)make_run(s, load_dataset(s)); }).startsWith("algorithm:"));
        s = pipeline_scenario(2, 2, PipelineSchedule::FillDrain);
        s.parallelism->mode = Parallelism::Hybrid;
        s.parallelism->replicas = 200;
        QVERIFY(error_message([&] { validate(s); }).contains("at most 256"));
        // A model-parallel scenario is not quietly timed as a data-parallel one.
        s = pipeline_scenario(2, 2, PipelineSchedule::FillDrain);
        QVERIFY(error_message([&] {
                    (void)make_run(s, load_dataset(s), nullptr, Work::TimesOnly);
                }).startsWith("parallelism.mode: \"pipeline\" is timed by training it"));
    }
};

QTEST_APPLESS_MAIN(TestPipeline)
#include "test_pipeline.moc"
