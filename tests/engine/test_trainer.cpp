#include "collectives/reduction.h"
#include "collectives/schedule.h"
#include "core/error.h"
#include "core/rng.h"
#include "data/data.h"
#include "model/model.h"
#include "reports/metrics.h"
#include "runs/runs.h"
#include "scenario/scenario.h"
#include "trace/trace.h"

#include <oneapi/tbb/global_control.h>

#include <QFile>
#include <QTemporaryDir>
#include <QtTest>

#include "test_support.h"

#include <algorithm>
#include <cmath>
#include <cstring>
#include <numeric>
#include <set>

using namespace lockstep;

Q_DECLARE_METATYPE(lockstep::Algorithm)
Q_DECLARE_METATYPE(lockstep::ReductionRule)

using namespace lockstep::testing;

namespace {

// A small classification run: `workers` x `batch` spiral rows, one step, plain SGD, no shuffling,
// so every shard is exactly one batch.
Scenario one_step_scenario(int workers, std::size_t batch, Algorithm algorithm,
                           ReductionRule rule) {
    Scenario s;
    s.name = "test";
    s.seed = 11;
    s.steps = 1;
    s.workers = workers;
    s.batch = batch;
    s.shuffle = false;
    s.rule = rule;
    s.algorithm = algorithm;
    s.model = ModelShape{{2, 8, 3}, Activation::Tanh, LossKind::SoftmaxCrossEntropy};
    s.optimizer = OptimizerConfig{OptimizerKind::Sgd, 0.5, 0.0, 0.9, 0.999, 1e-8};
    s.dataset = DatasetConfig{"spiral", "", static_cast<std::size_t>(workers) * batch, 0.1, 3};
    return s;
}

// A scenario with barrier-mode costs that are whole nanoseconds: compute c = 10 ms per step.
Scenario timed_scenario(int workers, std::int64_t steps) {
    Scenario s;
    s.name = "timed";
    s.seed = 5;
    s.steps = steps;
    s.workers = workers;
    s.batch = 10;
    s.algorithm = Algorithm::Ring;
    s.model = ModelShape{{2, 8, 3}, Activation::Tanh, LossKind::SoftmaxCrossEntropy};
    s.dataset = DatasetConfig{"spiral", "", 400, 0.1, 3};
    s.cost.compute_s_per_sample = 1e-3;
    s.cost.update_s = 0.0;
    return s;
}

constexpr double kComputePerStep = 10 * 1e-3; // timed_scenario: batch 10 at 1 ms per sample

struct OneStep {
    std::vector<double> before; // worker 0's parameters before the step
    std::vector<double> after;  // worker 0's parameters after it
    bool aligned = false;
};

OneStep run_one_step(const Scenario& s, std::shared_ptr<const Dataset> data) {
    const auto trainer = make_run(s, std::move(data));
    OneStep out;
    out.before = trainer->parameters();
    trainer->step();
    out.after = trainer->parameters();
    out.aligned = trainer->metrics().replicas_aligned;
    return out;
}

double max_abs_difference(const std::vector<double>& a, const std::vector<double>& b) {
    double worst = 0.0;
    for (std::size_t i = 0; i < a.size(); ++i)
        worst = std::max(worst, std::abs(a[i] - b[i]));
    return worst;
}

bool same_bytes(const std::vector<double>& a, const std::vector<double>& b) {
    return a.size() == b.size() && std::memcmp(a.data(), b.data(), a.size() * sizeof(double)) == 0;
}

bool same_double(double a, double b) {
    return std::memcmp(&a, &b, sizeof a) == 0;
}

bool same_event(const TraceEvent& a, const TraceEvent& b) {
    return a.worker == b.worker && a.kind == b.kind && a.step == b.step && a.start == b.start &&
           a.end == b.end && a.bytes == b.bytes && a.peer == b.peer && a.round == b.round &&
           same_double(a.value, b.value);
}

bool same_snapshot(const StepSnapshot& a, const StepSnapshot& b) {
    return a.step == b.step && a.time == b.time && same_double(a.loss, b.loss) &&
           same_double(a.accuracy, b.accuracy) && same_bytes(a.worker_loss, b.worker_loss) &&
           a.parameter_hash == b.parameter_hash && a.replicas_aligned == b.replicas_aligned;
}

// Ticks a worker spent in events of `kind` during `step`.
Ticks lane_time(const Trace& trace, int worker, std::int64_t step, EventKind kind) {
    Ticks total = 0;
    for (const auto& e : trace.events())
        if (e.worker == worker && e.step == step && e.kind == kind)
            total += e.end - e.start;
    return total;
}

struct TracedRun {
    RunResult result;
    Trace trace;
};

TracedRun traced_run(const Scenario& s) {
    TracedRun out;
    out.result = run_scenario(s, &out.trace);
    return out;
}

void add_algorithm_by_workers_rows() {
    QTest::addColumn<int>("workers");
    QTest::addColumn<Algorithm>("algorithm");
    for (Algorithm a : {Algorithm::Ring, Algorithm::Tree, Algorithm::ParameterServer})
        for (int n : {2, 3, 4, 8})
            QTest::addRow("%s %d", std::string(to_string(a)).c_str(), n) << n << a;
}

} // namespace

// The data-parallel trainer: reduction rules against one-worker references, determinism over
// thread counts, the modelled clock's waits and pauses, replica alignment, sweeps and errors.
class TestTrainer : public QObject {
    Q_OBJECT

private Q_SLOTS:
    // A learning rate far too large: the run stops at the first step whose loss is no longer a
    // finite number, and finish_run() names that step and the likely cause, for every kind of
    // run that trains; a run that computes times only has no loss and is not stopped.
    void a_diverging_run_stops_and_says_why_data() {
        QTest::addColumn<QString>("mode");
        for (const char* m : {"bsp", "local", "async", "pipeline"})
            QTest::newRow(m) << QString::fromLatin1(m);
    }
    void a_diverging_run_stops_and_says_why() {
        QFETCH(QString, mode);
        Scenario s;
        s.steps = 60;
        s.workers = 2;
        s.batch = 16;
        s.model = ModelShape{{2, 16, 1}, Activation::Relu, LossKind::MeanSquaredError};
        s.dataset = DatasetConfig{"regression", "", 480, 0.1, 1};
        s.optimizer = OptimizerConfig{OptimizerKind::Sgd, 100.0, 0.99, 0.9, 0.999, 1e-8};
        if (mode == QLatin1String("local"))
            s.sync = SyncConfig{SyncMode::Local, 2, 4, false};
        if (mode == QLatin1String("async")) {
            s.algorithm = Algorithm::ParameterServer;
            s.sync = SyncConfig{SyncMode::Async, 2, 4, false};
        }
        if (mode == QLatin1String("pipeline")) {
            s.model.layers = {2, 16, 16, 1};
            s.parallelism = ParallelismConfig{};
            s.parallelism->mode = Parallelism::Pipeline;
            s.parallelism->stages = 2;
        }
        validate(s);
        const auto run = make_run(s, load_dataset(s));
        const QString why = testing::error_message([&] { (void)finish_run(*run); });
        LOCKSTEP_VERIFY_CONTAINS(why, QStringLiteral("training diverged in step"));
        LOCKSTEP_VERIFY_CONTAINS(why, QStringLiteral("the learning rate (100) is most likely too "
                                                     "large"));
        QVERIFY(run->steps_done() < s.steps);
        const auto diverged = run->divergence();
        QVERIFY(diverged.has_value());
        QCOMPARE(diverged->step, run->steps_done() - 1);
        QVERIFY(!std::isfinite(diverged->loss));
        if (mode == QLatin1String("bsp")) { // times only: no loss, nothing to stop
            s.clock = ClockKind::Modelled;
            const auto times = make_run(s, load_dataset(s), nullptr, Work::TimesOnly);
            times->run_to_end();
            QCOMPARE(times->steps_done(), s.steps);
            QVERIFY(!times->divergence());
        }
    }

    void mean_equals_one_worker_on_union_data();
    void mean_equals_one_worker_on_union();
    void sum_is_workers_times_mean_data();
    void sum_is_workers_times_mean();
    void same_result_on_any_thread_count_data();
    void same_result_on_any_thread_count();
    void worked_example();
    void straggler_makes_others_wait_at_barrier();
    void straggler_slows_the_ring();
    void replica_alignment_data();
    void replica_alignment();
    void pause_data();
    void pause();
    void weighted_mean_with_unequal_batches();
    void weighted_mean_equals_mean_on_equal_batches_data();
    void weighted_mean_equals_mean_on_equal_batches();
    void measured_clock_data();
    void measured_clock();
    void sweep_matches_single_runs();
    void times_only_matches_training_data();
    void times_only_matches_training();
    void times_only_moves_nothing_and_checks_nothing();
    void injected_delays_show_up();
    void full_restore_continues_exactly_data();
    void full_restore_continues_exactly();
    void restore_refuses_foreign_state();
    void error_shards_exceed_rows();
    void error_csv_features_mismatch();

    void gradients_in_narrow_formats_move_fewer_bytes_with_the_same_bits_everywhere();
    void a_sum_that_overflows_float16_is_skipped_at_its_step();
    void the_loss_scale_halves_at_each_overflow_and_doubles_after_good_steps();
    void loss_scaling_keeps_the_bits_small_gradients_lose_in_float16();
    void compare_precision_measures_each_format_without_changing_the_run();
    void a_float32_workers_ledger_holds_its_floats();
};

void TestTrainer::mean_equals_one_worker_on_union_data() {
    add_algorithm_by_workers_rows();
}

// N workers each averaging b rows, then averaging the N results, take the same step as one
// worker averaging all N*b rows.
void TestTrainer::mean_equals_one_worker_on_union() {
    QFETCH(int, workers);
    QFETCH(Algorithm, algorithm);
    constexpr std::size_t b = 6;
    const Scenario many = one_step_scenario(workers, b, algorithm, ReductionRule::Mean);
    Scenario one = many;
    one.workers = 1;
    one.batch = static_cast<std::size_t>(workers) * b;
    const auto data = load_dataset(many);
    QCOMPARE(data->size(), static_cast<std::size_t>(workers) * b);

    const OneStep split = run_one_step(many, data);
    const OneStep whole = run_one_step(one, data);
    QVERIFY(split.aligned);
    QVERIFY(same_bytes(split.before, whole.before));
    QVERIFY2(max_abs_difference(split.before, split.after) > 1e-4, "the step moved nothing");
    const double gap = max_abs_difference(split.after, whole.after);
    QVERIFY2(gap <= 1e-12, qPrintable(QString("largest difference %1").arg(gap)));
}

void TestTrainer::sum_is_workers_times_mean_data() {
    add_algorithm_by_workers_rows();
}

// Plain SGD moves by -lr * g, so summing N gradients moves N times as far as averaging them.
void TestTrainer::sum_is_workers_times_mean() {
    QFETCH(int, workers);
    QFETCH(Algorithm, algorithm);
    const Scenario mean_s = one_step_scenario(workers, 5, algorithm, ReductionRule::Mean);
    Scenario sum_s = mean_s;
    sum_s.rule = ReductionRule::Sum;
    const auto data = load_dataset(mean_s);

    const OneStep mean = run_one_step(mean_s, data);
    const OneStep sum = run_one_step(sum_s, data);
    QVERIFY(sum.aligned);
    QVERIFY(same_bytes(mean.before, sum.before));
    double largest = 0.0;
    for (std::size_t i = 0; i < mean.before.size(); ++i) {
        const double delta_mean = mean.after[i] - mean.before[i];
        const double delta_sum = sum.after[i] - sum.before[i];
        largest = std::max(largest, std::abs(delta_mean));
        QVERIFY2(std::abs(delta_sum - workers * delta_mean) <= 1e-12,
                 qPrintable(QString("parameter %1: sum moved %2, mean moved %3")
                                .arg(i)
                                .arg(delta_sum)
                                .arg(delta_mean)));
    }
    QVERIFY(largest > 1e-4);
}

void TestTrainer::same_result_on_any_thread_count_data() {
    QTest::addColumn<Algorithm>("algorithm");
    QTest::newRow("ring") << Algorithm::Ring;
    QTest::newRow("tree") << Algorithm::Tree;
    QTest::newRow("parameter-server") << Algorithm::ParameterServer;
    QTest::newRow("none") << Algorithm::None;
}

// The modelled clock replays bit for bit whatever TBB's thread count: parameters, every event's
// times and bytes, every snapshot.
void TestTrainer::same_result_on_any_thread_count() {
    QFETCH(Algorithm, algorithm);
    Scenario s;
    s.seed = 21;
    s.steps = 12;
    s.workers = 5;
    s.batch = 8;
    s.algorithm = algorithm;
    s.model = ModelShape{{2, 12, 3}, Activation::Tanh, LossKind::SoftmaxCrossEntropy};
    s.dataset = DatasetConfig{"spiral", "", 300, 0.1, 3};
    s.cost.jitter = 0.3;
    s.cost.update_s = 1e-5;
    s.delays.slowdown = {1.0, 1.5};
    s.delays.pauses = {PauseDelay{3, 4, 0.01}};
    s.delays.straggler_probability = 0.2;

    auto run_with_threads = [&](int threads) {
        tbb::global_control limit(tbb::global_control::max_allowed_parallelism,
                                  static_cast<std::size_t>(threads));
        return traced_run(s);
    };
    const TracedRun one = run_with_threads(1);
    for (int threads : {2, 4}) {
        const TracedRun many = run_with_threads(threads);
        QVERIFY(same_bytes(one.result.parameters, many.result.parameters));
        QCOMPARE(one.trace.events().size(), many.trace.events().size());
        for (std::size_t i = 0; i < one.trace.events().size(); ++i)
            QVERIFY2(same_event(one.trace.events()[i], many.trace.events()[i]),
                     qPrintable(QString("event %1 differs with %2 threads").arg(i).arg(threads)));
        QCOMPARE(one.trace.snapshots().size(), std::size_t(12));
        QCOMPARE(many.trace.snapshots().size(), std::size_t(12));
        for (std::size_t i = 0; i < one.trace.snapshots().size(); ++i)
            QVERIFY2(
                same_snapshot(one.trace.snapshots()[i], many.trace.snapshots()[i]),
                qPrintable(QString("snapshot %1 differs with %2 threads").arg(i).arg(threads)));
        QVERIFY(one.result.metrics.total_time_s == many.result.metrics.total_time_s);
        QCOMPARE(one.result.metrics.bytes_moved, many.result.metrics.bytes_moved);
    }
    if (algorithm != Algorithm::None)
        QVERIFY(one.result.metrics.bytes_moved > 0);
}

// Lesson 1's figures: 40 s on one worker, 10 s of compute plus 6 s of communication on four.
void TestTrainer::worked_example() {
    const Scenario s =
        load_scenario(LOCKSTEP_SOURCE_DIR "/resources/scenarios/worked-example.json");
    QCOMPARE(s.workers, 4);
    const RunMetrics m = run_scenario(s).metrics;
    QVERIFY2(m.total_time_s == 16.0, qPrintable(QString::number(m.total_time_s, 'g', 17)));
    QVERIFY2(m.baseline_time_s == 40.0, qPrintable(QString::number(m.baseline_time_s, 'g', 17)));
    QVERIFY2(m.speedup == 2.5, qPrintable(QString::number(m.speedup, 'g', 17)));
    QVERIFY(m.efficiency == 0.625);
    QVERIFY(m.compute_s == 10.0);
    QVERIFY(m.communication_s == 6.0);
    QVERIFY(m.waiting_s == 0.0);
    QVERIFY(m.replicas_aligned);
}

// At a barrier every worker waits for the slowest: worker 2 at 3x speed costs the others 2c a
// step, and worker 2 itself never waits.
void TestTrainer::straggler_makes_others_wait_at_barrier() {
    Scenario s = timed_scenario(4, 6);
    s.cost.communication_s_per_step = 0.002;
    s.delays.slowdown = {1.0, 1.0, 3.0, 1.0};
    const RunMetrics m = run_scenario(s).metrics;
    QCOMPARE(m.per_worker.size(), std::size_t(4));
    const double steps = static_cast<double>(s.steps);
    for (int k = 0; k < 4; ++k) {
        const auto& w = m.per_worker[static_cast<std::size_t>(k)];
        const double expected_wait = k == 2 ? 0.0 : steps * 2.0 * kComputePerStep;
        const double expected_compute = steps * (k == 2 ? 3.0 : 1.0) * kComputePerStep;
        QVERIFY2(std::abs(w.waiting_s - expected_wait) <= 1e-9,
                 qPrintable(QString("worker %1 waited %2 s").arg(k).arg(w.waiting_s, 0, 'g', 17)));
        QVERIFY2(
            std::abs(w.compute_s - expected_compute) <= 1e-9,
            qPrintable(QString("worker %1 computed %2 s").arg(k).arg(w.compute_s, 0, 'g', 17)));
    }
    QVERIFY(std::abs(m.total_time_s - steps * (3.0 * kComputePerStep + 0.002)) <= 1e-9);
}

// Without a barrier the ring's dependencies still hold everyone back to the slow worker.
void TestTrainer::straggler_slows_the_ring() {
    const Scenario even = timed_scenario(4, 6);
    Scenario slow = even;
    slow.delays.slowdown = {1.0, 1.0, 3.0, 1.0};
    const RunMetrics a = run_scenario(even).metrics;
    const RunMetrics b = run_scenario(slow).metrics;
    const double steps = static_cast<double>(even.steps);
    QVERIFY2(b.total_time_s - a.total_time_s >= steps * 2.0 * kComputePerStep - 1e-9,
             qPrintable(QString("%1 s -> %2 s").arg(a.total_time_s).arg(b.total_time_s)));
    for (std::size_t k = 0; k < 4; ++k) {
        if (k == 2)
            continue;
        QVERIFY2(b.per_worker[k].waiting_s > a.per_worker[k].waiting_s + kComputePerStep,
                 qPrintable(QString("worker %1 waited %2 s, %3 s without the straggler")
                                .arg(k)
                                .arg(b.per_worker[k].waiting_s)
                                .arg(a.per_worker[k].waiting_s)));
    }
}

void TestTrainer::replica_alignment_data() {
    QTest::addColumn<Algorithm>("algorithm");
    QTest::addColumn<bool>("synchronised");
    QTest::newRow("none") << Algorithm::None << false;
    QTest::newRow("ring") << Algorithm::Ring << true;
    QTest::newRow("tree") << Algorithm::Tree << true;
    QTest::newRow("parameter-server") << Algorithm::ParameterServer << true;
}

// Without a collective the replicas drift apart from the first step; with one they stay bitwise
// equal after every step. The hashes are checked directly, not only the flag.
void TestTrainer::replica_alignment() {
    QFETCH(Algorithm, algorithm);
    QFETCH(bool, synchronised);
    Scenario s = timed_scenario(4, 10);
    s.algorithm = algorithm;
    const TracedRun run = traced_run(s);
    const RunMetrics& m = run.result.metrics;
    QCOMPARE(run.trace.snapshots().size(), std::size_t(10));
    QCOMPARE(m.replicas_aligned, synchronised);
    QCOMPARE(m.misaligned_steps, synchronised ? std::int64_t(0) : std::int64_t(10));
    for (const auto& snap : run.trace.snapshots()) {
        QCOMPARE(snap.parameter_hash.size(), std::size_t(4));
        const std::set<std::uint64_t> distinct(snap.parameter_hash.begin(),
                                               snap.parameter_hash.end());
        QCOMPARE(snap.replicas_aligned, synchronised);
        QCOMPARE(distinct.size(), synchronised ? std::size_t(1) : std::size_t(4));
    }
    QCOMPARE(m.bytes_moved > 0, synchronised);
}

void TestTrainer::pause_data() {
    QTest::addColumn<bool>("barrier");
    QTest::newRow("fixed communication (barrier)") << true;
    QTest::newRow("ring") << false;
}

// An injected pause is one Pause event on its worker's lane at its step, and holds the others up.
void TestTrainer::pause() {
    QFETCH(bool, barrier);
    Scenario s = timed_scenario(4, 6);
    if (barrier)
        s.cost.communication_s_per_step = 0.002;
    s.delays.pauses = {PauseDelay{1, 3, 5.0}};
    const TracedRun run = traced_run(s);
    Scenario unpaused = s;
    unpaused.delays.pauses.clear();
    const RunMetrics base = run_scenario(unpaused).metrics;

    std::vector<TraceEvent> pauses;
    for (const auto& e : run.trace.events())
        if (e.kind == EventKind::Pause)
            pauses.push_back(e);
    QCOMPARE(pauses.size(), std::size_t(1));
    QCOMPARE(pauses[0].worker, 1);
    QCOMPARE(pauses[0].step, std::int64_t(3));
    QCOMPARE(pauses[0].end - pauses[0].start, 5 * kTicksPerSecond);
    // It starts where worker 1's lane was at the start of step 3.
    Ticks lane_end = 0;
    for (const auto& e : run.trace.events())
        if (e.worker == 1 && e.step == 2)
            lane_end = std::max(lane_end, e.end);
    QCOMPARE(pauses[0].start, lane_end);

    QCOMPARE(lane_time(run.trace, 1, 3, EventKind::Wait), Ticks(0));
    for (int k : {0, 2, 3}) {
        const Ticks waited = lane_time(run.trace, k, 3, EventKind::Wait);
        if (barrier)
            QCOMPARE(waited, 5 * kTicksPerSecond);
        else
            QVERIFY2(waited >= 5 * kTicksPerSecond - to_ticks(0.01),
                     qPrintable(QString("worker %1 waited %2 ns").arg(k).arg(waited)));
    }
    QVERIFY(run.result.metrics.total_time_s - base.total_time_s >= 5.0 - 1e-9);
    if (barrier)
        QVERIFY(std::abs(run.result.metrics.total_time_s - base.total_time_s - 5.0) <= 1e-9);
}

// 30 samples with one gradient and 10 with another: the weighted mean counts every sample once
// (the step one worker takes on all 40 rows), the equal mean counts every worker once.
void TestTrainer::weighted_mean_with_unequal_batches() {
    Scenario s = one_step_scenario(2, 30, Algorithm::Ring, ReductionRule::WeightedMean);
    s.worker_batch = {30, 10};
    s.shard_sizes = {30, 10};
    s.dataset.samples = 40;
    Scenario mean_s = s;
    mean_s.rule = ReductionRule::Mean;
    Scenario one = s;
    one.workers = 1;
    one.batch = 40;
    one.worker_batch.clear();
    one.shard_sizes.clear();
    const auto data = load_dataset(s);
    QCOMPARE(data->size(), std::size_t(40));

    const OneStep weighted = run_one_step(s, data);
    const OneStep mean = run_one_step(mean_s, data);
    const OneStep whole = run_one_step(one, data);
    QVERIFY(weighted.aligned);
    QVERIFY(mean.aligned);

    // The reference gradients of the two shards, from the same starting parameters.
    const std::vector<double>& p0 = weighted.before;
    std::vector<double> g0(p0.size()), g1(p0.size());
    Workspace work;
    std::vector<double> features, targets;
    std::vector<std::size_t> rows(30);
    std::iota(rows.begin(), rows.end(), std::size_t{0});
    gather_rows(*data, rows, features, targets);
    loss_and_gradient(s.model, p0, {features.data(), targets.data(), 30}, g0, work);
    rows.resize(10);
    std::iota(rows.begin(), rows.end(), std::size_t{30});
    gather_rows(*data, rows, features, targets);
    loss_and_gradient(s.model, p0, {features.data(), targets.data(), 10}, g1, work);

    const double lr = s.optimizer.learning_rate;
    double weighted_vs_mean = 0.0;
    for (std::size_t i = 0; i < p0.size(); ++i) {
        QVERIFY(std::abs(weighted.after[i] - (p0[i] - lr * (0.75 * g0[i] + 0.25 * g1[i]))) <=
                1e-12);
        QVERIFY(std::abs(mean.after[i] - (p0[i] - lr * (0.5 * g0[i] + 0.5 * g1[i]))) <= 1e-12);
        weighted_vs_mean = std::max(weighted_vs_mean, std::abs(weighted.after[i] - mean.after[i]));
    }
    QVERIFY2(weighted_vs_mean > 1e-6, qPrintable(QString::number(weighted_vs_mean)));
    QVERIFY(max_abs_difference(weighted.after, whole.after) <= 1e-12);
}

void TestTrainer::weighted_mean_equals_mean_on_equal_batches_data() {
    QTest::addColumn<int>("workers");
    QTest::addColumn<Algorithm>("algorithm");
    QTest::newRow("2 ring") << 2 << Algorithm::Ring;
    QTest::newRow("3 tree") << 3 << Algorithm::Tree;
    QTest::newRow("5 parameter-server") << 5 << Algorithm::ParameterServer;
    QTest::newRow("7 ring") << 7 << Algorithm::Ring;
}

// With equal batches b/(N*b) and 1/N are the same double, so the runs agree bit for bit.
void TestTrainer::weighted_mean_equals_mean_on_equal_batches() {
    QFETCH(int, workers);
    QFETCH(Algorithm, algorithm);
    Scenario s = timed_scenario(workers, 8);
    s.algorithm = algorithm;
    s.optimizer.momentum = 0.9;
    s.rule = ReductionRule::Mean;
    const RunResult mean = run_scenario(s);
    s.rule = ReductionRule::WeightedMean;
    const RunResult weighted = run_scenario(s);
    s.rule = ReductionRule::Sum;
    const RunResult sum = run_scenario(s);
    QVERIFY(same_bytes(mean.parameters, weighted.parameters));
    QVERIFY(same_double(mean.metrics.final_loss, weighted.metrics.final_loss));
    QVERIFY(!same_bytes(mean.parameters, sum.parameters));
}

void TestTrainer::measured_clock_data() {
    QTest::addColumn<Algorithm>("algorithm");
    QTest::addColumn<bool>("barrier");
    QTest::newRow("ring") << Algorithm::Ring << false;
    QTest::newRow("tree") << Algorithm::Tree << false;
    QTest::newRow("parameter-server") << Algorithm::ParameterServer << false;
    QTest::newRow("ring, fixed communication") << Algorithm::Ring << true;
}

// Real threads and wall-clock times: the run finishes, time passes, the replicas stay equal.
void TestTrainer::measured_clock() {
    QFETCH(Algorithm, algorithm);
    QFETCH(bool, barrier);
    Scenario s = timed_scenario(3, 5);
    s.clock = ClockKind::Measured;
    s.algorithm = algorithm;
    if (barrier)
        s.cost.communication_s_per_step = 0.001;
    const TracedRun run = traced_run(s);
    const RunMetrics& m = run.result.metrics;
    QCOMPARE(m.steps, std::int64_t(5));
    QCOMPARE(m.samples, std::int64_t(3 * 10 * 5));
    QVERIFY(m.total_time_s > 0.0);
    QVERIFY(m.compute_s > 0.0);
    QVERIFY(m.baseline_time_s > 0.0);
    QVERIFY(m.speedup > 0.0);
    QVERIFY(m.replicas_aligned);
    QCOMPARE(m.misaligned_steps, std::int64_t(0));
    QCOMPARE(run.trace.snapshots().size(), std::size_t(5));
    for (const auto& snap : run.trace.snapshots())
        QVERIFY(snap.replicas_aligned);
    for (const auto& e : run.trace.events())
        QVERIFY(e.end >= e.start);
}

// A sweep is the same scenario run once per worker count.
void TestTrainer::sweep_matches_single_runs() {
    Scenario s;
    s.seed = 3;
    s.steps = 10;
    s.batch = 8;
    s.model = ModelShape{{2, 8, 3}, Activation::Tanh, LossKind::SoftmaxCrossEntropy};
    s.dataset = DatasetConfig{"spiral", "", 240, 0.1, 3};
    const std::vector<int> counts{1, 2, 4};
    const auto points = sweep(s, counts);
    QCOMPARE(points.size(), std::size_t(3));
    QVERIFY(points[0].metrics.speedup == 1.0);
    for (std::size_t i = 0; i < points.size(); ++i) {
        const auto& p = points[i];
        QCOMPARE(p.workers, counts[i]);
        QCOMPARE(p.metrics.workers, counts[i]);
        QVERIFY(p.metrics.speedup > 0.0);
        QVERIFY(p.metrics.efficiency == p.metrics.speedup / counts[i]);
        Scenario single = s;
        single.workers = counts[i];
        const RunMetrics m = run_scenario(single).metrics;
        QVERIFY(p.metrics.total_time_s == m.total_time_s);
        QVERIFY(p.metrics.baseline_time_s == m.baseline_time_s);
        QVERIFY(p.metrics.speedup == m.speedup);
        QVERIFY(same_double(p.metrics.final_loss, m.final_loss));
        QCOMPARE(p.metrics.bytes_moved, m.bytes_moved);
    }
    QVERIFY(points[2].metrics.speedup > points[1].metrics.speedup);
}

void TestTrainer::error_shards_exceed_rows() {
    Scenario s = one_step_scenario(2, 10, Algorithm::Ring, ReductionRule::Mean);
    s.dataset.samples = 100;
    s.shard_sizes = {60, 60};
    const QString message = error_message([&] { const auto t = make_run(s, load_dataset(s)); });
    QVERIFY2(message.contains("shard", Qt::CaseInsensitive) && message.contains("100"),
             qPrintable(message));
    QVERIFY(!message.contains('\n'));
    QCOMPARE(error_message([&] { run_scenario(s); }), message);
}

void TestTrainer::error_csv_features_mismatch() {
    QTemporaryDir dir;
    QVERIFY(dir.isValid());
    const QString path = dir.filePath("three.csv");
    QFile file(path);
    QVERIFY(file.open(QIODevice::WriteOnly));
    file.write("a,b,c,label\n0.1,0.2,0.3,0\n0.4,0.5,0.6,1\n0.7,0.8,0.9,0\n1.0,1.1,1.2,1\n");
    file.close();

    Scenario s = one_step_scenario(2, 2, Algorithm::Ring, ReductionRule::Mean);
    s.model.layers = {2, 8, 2};
    s.dataset.csv = path.toStdString();
    s.dataset.name.clear();
    const QString message = error_message([&] { run_scenario(s); });
    QVERIFY2(message.startsWith("model.layers[0]"), qPrintable(message));
    QVERIFY2(message.contains("3") && message.contains("2"), qPrintable(message));
}

// A times-only run walks the same modelled clock as a training run: identical events, times and
// per-worker accounting, with no loss figures.
void TestTrainer::times_only_matches_training_data() {
    QTest::addColumn<int>("algorithm");
    QTest::newRow("ring") << int(lockstep::Algorithm::Ring);
    QTest::newRow("tree") << int(lockstep::Algorithm::Tree);
    QTest::newRow("parameter-server") << int(lockstep::Algorithm::ParameterServer);
    QTest::newRow("none") << int(lockstep::Algorithm::None);
}

void TestTrainer::times_only_matches_training() {
    QFETCH(int, algorithm);
    lockstep::Scenario s;
    s.workers = 5;
    s.steps = 12;
    s.algorithm = static_cast<lockstep::Algorithm>(algorithm);
    s.cost.jitter = 0.3;
    s.delays.straggler_probability = 0.2;
    s.delays.slowdown = {1, 2.5};
    s.delays.pauses = {{3, 4, 0.01}};
    auto data = lockstep::load_dataset(s);

    lockstep::Trace trained, timed;
    const auto a = lockstep::make_run(s, data, &trained);
    const auto b = lockstep::make_run(s, data, &timed, lockstep::Work::TimesOnly);
    a->run_to_end();
    b->run_to_end();
    QCOMPARE(timed.events().size(), trained.events().size());
    for (std::size_t i = 0; i < trained.events().size(); ++i) {
        const auto& x = trained.events()[i];
        const auto& y = timed.events()[i];
        QVERIFY2(x.worker == y.worker && x.kind == y.kind && x.start == y.start && x.end == y.end &&
                     x.bytes == y.bytes,
                 qPrintable(QStringLiteral("event %1 differs").arg(i)));
    }
    const auto ma = a->metrics();
    const auto mb = b->metrics();
    QVERIFY(ma.total_time_s == mb.total_time_s);
    QVERIFY(ma.waiting_s == mb.waiting_s);
    QVERIFY(ma.communication_s == mb.communication_s);
    QVERIFY(ma.trained);
    QVERIFY(!mb.trained);
    QVERIFY(std::isnan(mb.final_loss));
    QVERIFY(std::isfinite(ma.final_loss));

    // A sweep on times only gives the same times and speedups as one that trains.
    const std::vector<int> counts{1, 2, 5};
    const auto full = lockstep::sweep(s, counts);
    const auto quick = lockstep::sweep(s, counts, lockstep::Work::TimesOnly);
    for (std::size_t i = 0; i < counts.size(); ++i) {
        QVERIFY(full[i].metrics.total_time_s == quick[i].metrics.total_time_s);
        QVERIFY(full[i].metrics.speedup == quick[i].metrics.speedup);
    }

    // Times only cannot stand in for the real work on the measured clock.
    s.clock = lockstep::ClockKind::Measured;
    QVERIFY_THROWS_EXCEPTION(lockstep::Error,
                             (void)lockstep::make_run(s, data, nullptr, lockstep::Work::TimesOnly));
}

// A times-only run moves no bytes and compares no hashes: it says so instead of claiming
// aligned replicas.
void TestTrainer::times_only_moves_nothing_and_checks_nothing() {
    lockstep::Scenario s;
    s.workers = 4;
    s.steps = 6;
    auto data = lockstep::load_dataset(s);
    lockstep::Trace trained, timed;
    const auto a = lockstep::make_run(s, data, &trained);
    const auto b = lockstep::make_run(s, data, &timed, lockstep::Work::TimesOnly);
    a->run_to_end();
    b->run_to_end();
    QVERIFY(a->metrics().bytes_moved > 0);
    QCOMPARE(b->metrics().bytes_moved, std::int64_t{0});
    QVERIFY(a->metrics().replicas_aligned);
    QVERIFY(!b->metrics().replicas_aligned);
    QVERIFY(!b->metrics().trained);
    QCOMPARE(trained.snapshots().back().parameter_hash.size(), std::size_t{4});
    for (const auto& snap : timed.snapshots())
        QVERIFY(snap.parameter_hash.empty());
}

// Delays injected between steps (the lab window's "slow down" and "pause") land in the trace.
void TestTrainer::injected_delays_show_up() {
    lockstep::Scenario s;
    s.workers = 3;
    s.steps = 6;
    s.cost.communication_s_per_step = 0.001;
    auto data = lockstep::load_dataset(s);
    lockstep::Trace trace;
    const auto trainer = lockstep::make_run(s, data, &trace);
    trainer->step();
    trainer->step();
    auto change = [&](lockstep::Intervention::Kind kind, int worker, double amount) {
        lockstep::Intervention c;
        c.kind = kind;
        c.at = trainer->ordinal();
        c.worker = worker;
        c.amount = amount;
        trainer->intervene(c);
    };
    change(lockstep::Intervention::Kind::Slow, 1, 3.0);
    change(lockstep::Intervention::Kind::Pause, 2, 0.5);
    trainer->run_to_end();
    auto compute_of = [&](int worker, std::int64_t step) {
        for (const auto& e : trace.events())
            if (e.worker == worker && e.step == step && e.kind == lockstep::EventKind::Compute)
                return e.end - e.start;
        return lockstep::Ticks{-1};
    };
    QCOMPARE(compute_of(1, 1), compute_of(0, 1));
    QCOMPARE(compute_of(1, 2), 3 * compute_of(0, 2));
    int pauses = 0;
    for (const auto& e : trace.events())
        if (e.kind == lockstep::EventKind::Pause) {
            ++pauses;
            QCOMPARE(e.worker, 2);
            QCOMPARE(e.step, std::int64_t{2});
            QCOMPARE(e.end - e.start, lockstep::to_ticks(0.5));
        }
    QCOMPARE(pauses, 1);
    QVERIFY_THROWS_EXCEPTION(lockstep::Error, change(lockstep::Intervention::Kind::Slow, 7, 2.0));
    QVERIFY_THROWS_EXCEPTION(lockstep::Error, change(lockstep::Intervention::Kind::Slow, 0, 0.5));
    QVERIFY_THROWS_EXCEPTION(lockstep::Error, change(lockstep::Intervention::Kind::Pause, 0, -1.0));
}

// A full restore continues bit for bit like the uninterrupted run; weights alone do not.
void TestTrainer::full_restore_continues_exactly_data() {
    QTest::addColumn<int>("algorithm");
    QTest::addColumn<int>("optimizer");
    QTest::addColumn<bool>("shuffle");
    QTest::newRow("ring sgd shuffled")
        << int(lockstep::Algorithm::Ring) << int(lockstep::OptimizerKind::Sgd) << true;
    QTest::newRow("tree adam shuffled")
        << int(lockstep::Algorithm::Tree) << int(lockstep::OptimizerKind::Adam) << true;
    QTest::newRow("parameter-server sgd in order")
        << int(lockstep::Algorithm::ParameterServer) << int(lockstep::OptimizerKind::Sgd) << false;
}

void TestTrainer::full_restore_continues_exactly() {
    QFETCH(int, algorithm);
    QFETCH(int, optimizer);
    QFETCH(bool, shuffle);
    lockstep::Scenario s;
    s.workers = 3;
    s.steps = 40;
    s.batch = 48; // several epochs of each 200-row shard, so shuffling state matters
    s.algorithm = static_cast<lockstep::Algorithm>(algorithm);
    s.optimizer.kind = static_cast<lockstep::OptimizerKind>(optimizer);
    s.optimizer.learning_rate = s.optimizer.kind == lockstep::OptimizerKind::Adam ? 0.01 : 0.1;
    s.shuffle = shuffle;
    s.cost.jitter = 0.2;
    auto data = lockstep::load_dataset(s);

    const auto whole = lockstep::make_run(s, data);
    whole->run_to_end();

    const auto first = lockstep::make_run(s, data);
    for (int i = 0; i < 17; ++i)
        first->step();
    const lockstep::TrainingState saved = first->capture_state();
    QCOMPARE(saved.step, std::int64_t{17});
    QCOMPARE(saved.workers(), 3);

    const auto resumed = lockstep::make_run(s, data);
    resumed->restore_state(saved, lockstep::RestoreMode::Full);
    QCOMPARE(resumed->steps_done(), std::int64_t{17});
    resumed->run_to_end();
    QVERIFY(resumed->parameters() == whole->parameters());
    QCOMPARE(resumed->replicas().front().optimizer.step, whole->replicas().front().optimizer.step);

    const auto weights_only = lockstep::make_run(s, data);
    weights_only->restore_state(saved, lockstep::RestoreMode::WeightsOnly);
    weights_only->run_to_end();
    QVERIFY(weights_only->parameters() != whole->parameters());
    QVERIFY(weights_only->metrics().replicas_aligned);
}

void TestTrainer::restore_refuses_foreign_state() {
    lockstep::Scenario s;
    s.workers = 2;
    s.steps = 5;
    auto data = lockstep::load_dataset(s);
    const auto a = lockstep::make_run(s, data);
    a->step();
    const auto saved = a->capture_state();

    lockstep::Scenario other = s;
    other.seed = 99;
    const auto b = lockstep::make_run(other, lockstep::load_dataset(other));
    QVERIFY_THROWS_EXCEPTION(lockstep::Error, b->restore_state(saved, lockstep::RestoreMode::Full));

    s.algorithm = lockstep::Algorithm::None;
    const auto drifting = lockstep::make_run(s, data);
    drifting->step();
    QVERIFY_THROWS_EXCEPTION(lockstep::Error, (void)drifting->capture_state());
}

namespace {

struct WireRun {
    std::vector<double> parameters;
    RunMetrics metrics;
    std::vector<StepSnapshot> snapshots;
};

// A tanh, cross-entropy run of the default data for the wire-format tests.
Scenario wire_scenario(int workers, std::int64_t steps, std::size_t batch, Algorithm algorithm,
                       std::vector<int> layers) {
    Scenario s;
    s.workers = workers;
    s.steps = steps;
    s.batch = batch;
    s.algorithm = algorithm;
    s.model = ModelShape{std::move(layers), Activation::Tanh, LossKind::SoftmaxCrossEntropy};
    return s;
}

// The scenario starts from `parameters`, written as a parameter file in `dir`.
bool start_from(Scenario& s, const QTemporaryDir& dir, const std::vector<double>& parameters) {
    s.init_params = dir.filePath("first.json").toStdString();
    QFile file(QString::fromStdString(s.init_params));
    return file.open(QIODevice::WriteOnly) &&
           file.write(QByteArray::fromStdString(parameters_to_json(s.model, parameters))) > 0;
}

WireRun run_on_the_wire(Scenario s, WirePrecision wire, int threads) {
    s.comm_precision = wire;
    validate(s);
    const tbb::global_control limit(tbb::global_control::max_allowed_parallelism,
                                    std::size_t(threads));
    Trace trace;
    const auto run = make_run(s, load_dataset(s), &trace);
    run->run_to_end();
    return {run->parameters(), run->metrics(), trace.snapshots()};
}

} // namespace

// Gradients sent as float32, float16 or bfloat16 move a half or a quarter of float64's bytes;
// the rounding changes the numbers, a little, but never with the thread count, the clock or the
// buckets (the parameter server adds in worker order however the gradient is cut).
void TestTrainer::gradients_in_narrow_formats_move_fewer_bytes_with_the_same_bits_everywhere() {
    const Scenario s = wire_scenario(4, 6, 16, Algorithm::ParameterServer, {2, 16, 16, 3});
    const WireRun wide = run_on_the_wire(s, WirePrecision::Float64, 2);
    for (const auto& [wire, parts] : {std::pair{WirePrecision::Float32, 2},
                                      {WirePrecision::Float16, 4},
                                      {WirePrecision::BFloat16, 4}}) {
        const WireRun one = run_on_the_wire(s, wire, 1);
        QCOMPARE(one.metrics.bytes_moved * parts, wide.metrics.bytes_moved);
        QCOMPARE(one.metrics.overflow_steps, 0);
        QVERIFY(!same_bytes(one.parameters, wide.parameters)); // rounded on the way
        QVERIFY(max_abs_difference(one.parameters, wide.parameters) < 1e-2);
        QVERIFY(same_bytes(run_on_the_wire(s, wire, 4).parameters, one.parameters));
        Scenario live = s; // each layer handed over from inside backward, on the measured clock
        live.clock = ClockKind::Measured;
        live.gradients = GradientConfig{};
        live.gradients->bucket_kb = 1;
        QVERIFY(same_bytes(run_on_the_wire(live, wire, 4).parameters, one.parameters));
    }
    Scenario ring = s;
    ring.algorithm = Algorithm::Ring;
    QVERIFY(same_bytes(run_on_the_wire(ring, WirePrecision::Float16, 1).parameters,
                       run_on_the_wire(ring, WirePrecision::Float16, 4).parameters));
}

// A model whose hidden layer is saturated (tanh of 1500: exactly 1, so no gradient below it)
// and whose output is 7,500 for every row: each worker's output gradient, about 15,000, fits
// float16, and two of them added still do, but eight (about 120,000) do not. Float16 sees it in
// the first step and skips every step, nothing applied; float32 holds the sum and trains.
void TestTrainer::a_sum_that_overflows_float16_is_skipped_at_its_step() {
    Scenario s;
    s.workers = 8;
    s.steps = 3;
    s.batch = 16;
    s.rule = ReductionRule::Sum;
    s.dataset.name = "regression";
    s.model = ModelShape{{2, 4, 1}, Activation::Tanh, LossKind::MeanSquaredError};
    std::vector<double> large(s.model.parameter_count(), 1500.0); // 17 values
    std::fill_n(large.begin(), 8, 0.0);                           // the hidden layer's weights
    QTemporaryDir dir;
    QVERIFY(start_from(s, dir, large));

    const WireRun half = run_on_the_wire(s, WirePrecision::Float16, 2);
    QCOMPARE(half.metrics.overflow_steps, s.steps);
    QCOMPARE(int(half.snapshots.size()), int(s.steps));
    for (const StepSnapshot& snap : half.snapshots)
        QVERIFY(snap.overflow);
    QVERIFY(same_bytes(half.parameters, large)); // no step applied

    Scenario two = s; // two such gradients still fit: it is the eight together that overflow
    two.workers = 2;
    QCOMPARE(run_on_the_wire(two, WirePrecision::Float16, 2).metrics.overflow_steps, 0);

    const WireRun single = run_on_the_wire(s, WirePrecision::Float32, 2);
    QCOMPARE(single.metrics.overflow_steps, 0);
    QVERIFY(!single.snapshots.front().overflow);
    QVERIFY(!same_bytes(single.parameters, large));
}

// Dynamic loss scaling: a scale far too large overflows the float16 sum, the step is skipped and
// the scale halved, until the sums fit; after `growth_interval` good steps it doubles. The
// snapshots show the scale each step used, exactly as after_step() moves it, with the same bits
// for 1 and 4 threads and on the measured clock with buckets.
void TestTrainer::the_loss_scale_halves_at_each_overflow_and_doubles_after_good_steps() {
    Scenario s = wire_scenario(8, 24, 8, Algorithm::Ring, {2, 16, 3});
    s.rule = ReductionRule::Sum;
    s.loss_scale = LossScaleConfig{max_loss_scale, 3};
    const WireRun run = run_on_the_wire(s, WirePrecision::Float16, 1);
    QCOMPARE(int(run.snapshots.size()), int(s.steps));
    LossScaleState expected{max_loss_scale, 0};
    int overflows = 0, growths = 0;
    for (const StepSnapshot& snap : run.snapshots) {
        QCOMPARE(snap.loss_scale, expected.scale);
        const LossScaleState next = after_step(expected, snap.overflow, 3);
        overflows += snap.overflow ? 1 : 0;
        growths += next.scale > expected.scale ? 1 : 0;
        expected = next;
    }
    QVERIFY2(overflows >= 4, qPrintable(QString::number(overflows))); // 2^24 is far too much
    QVERIFY(run.snapshots.front().overflow);
    QVERIFY(growths >= 1);
    QCOMPARE(run.metrics.overflow_steps, std::int64_t(overflows));
    QCOMPARE(run.metrics.loss_scale, expected.scale);
    QVERIFY(same_bytes(run_on_the_wire(s, WirePrecision::Float16, 4).parameters, run.parameters));
    Scenario live = s;
    live.clock = ClockKind::Measured;
    live.gradients = GradientConfig{};
    live.gradients->bucket_kb = 1;
    QVERIFY(
        same_bytes(run_on_the_wire(live, WirePrecision::Float16, 4).parameters, run.parameters));
}

// Gradients smaller than float16's smallest normal number (6.1e-5) keep fewer bits on the way,
// or vanish; scaled up first, they keep all of float16's. With the output layer's weights made
// tiny, the layers below it get tiny gradients: one plain SGD step with rate 1 moves them by minus
// their summed gradient, which the unscaled run gets badly wrong and the scaled one almost right.
void TestTrainer::loss_scaling_keeps_the_bits_small_gradients_lose_in_float16() {
    Scenario s = wire_scenario(8, 1, 8, Algorithm::ParameterServer, {2, 32, 32, 3});
    s.optimizer.learning_rate = 1.0;
    s.optimizer.momentum = 0.0;
    Rng rng(3);
    std::vector<double> start = init_parameters(s.model, rng);
    const std::size_t last = s.model.weight_offset(2); // the output layer's first weight
    for (std::size_t i = last; i < s.model.bias_offset(2); ++i)
        start[i] *= 1e-4;
    QTemporaryDir dir;
    QVERIFY(start_from(s, dir, start));

    const WireRun exact = run_on_the_wire(s, WirePrecision::Float64, 2);
    const WireRun plain = run_on_the_wire(s, WirePrecision::Float16, 2);
    s.loss_scale = LossScaleConfig{65536.0, 1000};
    const WireRun scaled = run_on_the_wire(s, WirePrecision::Float16, 2);
    QCOMPARE(scaled.metrics.overflow_steps, 0);
    // How far each run's step over the layers below the output is from the exact step, relative.
    const auto error = [&](const std::vector<double>& after) {
        double off = 0.0, size = 0.0;
        for (std::size_t i = 0; i < last; ++i) {
            const double step = exact.parameters[i] - start[i];
            off += std::pow(after[i] - exact.parameters[i], 2);
            size += step * step;
        }
        return std::sqrt(off / size);
    };
    const double plain_error = error(plain.parameters), scaled_error = error(scaled.parameters);
    QVERIFY2(
        scaled_error < 1e-3 && plain_error > 100 * scaled_error,
        qPrintable(
            QStringLiteral("scaled off by %1, plain by %2").arg(scaled_error).arg(plain_error)));
}

// compare_precision reports, per step, how far the summed gradient is from float64's: nearly
// nothing when everything is float64 (only the order of additions differs), more for a float32
// model, more again with float16 and bfloat16 on the wire; and it changes nothing in the run.
void TestTrainer::compare_precision_measures_each_format_without_changing_the_run() {
    const Scenario s = wire_scenario(4, 5, 16, Algorithm::Ring, {2, 16, 16, 3});
    const auto largest_gap = [](const WireRun& run) {
        return *std::max_element(run.metrics.precision_gap.begin(),
                                 run.metrics.precision_gap.end());
    };
    Scenario compared = s;
    compared.compare_precision = true;
    const WireRun exact = run_on_the_wire(compared, WirePrecision::Float64, 2);
    QCOMPARE(int(exact.metrics.precision_gap.size()), int(s.steps));
    QVERIFY(largest_gap(exact) < 1e-15);
    QVERIFY(same_bytes(exact.parameters, run_on_the_wire(s, WirePrecision::Float64, 2).parameters));
    QVERIFY(run_on_the_wire(s, WirePrecision::Float64, 2).metrics.precision_gap.empty());

    Scenario single = compared;
    single.model.precision = Precision::Float32;
    const double float32_gap = largest_gap(run_on_the_wire(single, WirePrecision::Float64, 2));
    const double float16_gap = largest_gap(run_on_the_wire(compared, WirePrecision::Float16, 2));
    const double bfloat16_gap = largest_gap(run_on_the_wire(compared, WirePrecision::BFloat16, 2));
    QVERIFY2(float32_gap > 1e-10 && float32_gap < 1e-6, qPrintable(QString::number(float32_gap)));
    QVERIFY2(
        float16_gap > 10 * float32_gap && bfloat16_gap > 2 * float16_gap,
        qPrintable(QStringLiteral("float16 %1, bfloat16 %2").arg(float16_gap).arg(bfloat16_gap)));
    Scenario threads = single;
    const WireRun four = run_on_the_wire(threads, WirePrecision::Float64, 4);
    QCOMPARE(four.metrics.precision_gap,
             run_on_the_wire(single, WirePrecision::Float64, 1).metrics.precision_gap);
}

// A float32 worker's memory ledger counts the buffers of its float pass: its transposes in floats
// and the float copies of its parameters and gradient make the same 16 bytes per parameter of
// workspace as float64's transposes; its activations and deltas take half the bytes.
void TestTrainer::a_float32_workers_ledger_holds_its_floats() {
    const Scenario s = wire_scenario(4, 2, 16, Algorithm::Ring, {2, 64, 64, 3});
    Scenario single = s;
    single.model.precision = Precision::Float32;
    const RunMetrics wide = run_on_the_wire(s, WirePrecision::Float64, 2).metrics;
    const RunMetrics narrow = run_on_the_wire(single, WirePrecision::Float64, 2).metrics;
    QCOMPARE(narrow.memory.size(), wide.memory.size());
    const auto n = static_cast<std::int64_t>(s.model.parameter_count());
    for (std::size_t k = 0; k < wide.memory.size(); ++k) {
        QCOMPARE(wide.memory[k].workspace, 16 * n);
        QCOMPARE(narrow.memory[k].workspace, 16 * n);
        QVERIFY(narrow.memory[k].activations > 0);
        QVERIFY(narrow.memory[k].activations < wide.memory[k].activations);
    }
}

QTEST_APPLESS_MAIN(TestTrainer)
#include "test_trainer.moc"
