#include "clocks/cost_model.h"
#include "collectives/schedule.h"
#include "data/data.h"
#include "runs/runs.h"
#include "scenario/pipeline_plan.h"
#include "trainers/run.h"
#include "trainers/tensor.h"

#include <QTemporaryDir>
#include <QtTest>

#include <algorithm>
#include <numeric>
#include <tuple>
#include <vector>

using namespace lockstep;

namespace {

// A collective's events in a fixed order, to compare what a trainer drew with the cost model.
std::vector<TraceEvent> collective_events(std::vector<TraceEvent> events, std::int64_t step,
                                          std::span<const int> lanes) {
    std::erase_if(events, [&](const TraceEvent& e) {
        const bool message = (e.kind == EventKind::Send || e.kind == EventKind::Receive ||
                              e.kind == EventKind::Reduce) &&
                             e.round >= 0;
        return e.step != step || !(message || e.kind == EventKind::Wait) ||
               std::find(lanes.begin(), lanes.end(), e.worker) == lanes.end();
    });
    auto key = [](const TraceEvent& e) {
        return std::tuple(e.start, e.worker, static_cast<int>(e.kind), e.peer, e.round, e.end);
    };
    std::sort(events.begin(), events.end(),
              [&](const TraceEvent& a, const TraceEvent& b) { return key(a) < key(b); });
    return events;
}

bool same_timing(const std::vector<TraceEvent>& a, const std::vector<TraceEvent>& b) {
    if (a.size() != b.size())
        return false;
    for (std::size_t i = 0; i < a.size(); ++i)
        if (a[i].worker != b[i].worker || a[i].kind != b[i].kind || a[i].start != b[i].start ||
            a[i].end != b[i].end || a[i].peer != b[i].peer || a[i].bytes != b[i].bytes ||
            a[i].round != b[i].round)
            return false;
    return true;
}

// Where a lane had got to when it finished its last event of `kind` in `step`.
Ticks last_end(const std::vector<TraceEvent>& events, int lane, EventKind kind, std::int64_t step) {
    Ticks end = -1;
    for (const auto& e : events)
        if (e.worker == lane && e.kind == kind && e.step == step)
            end = std::max(end, e.end);
    return end;
}

// A tensor-parallel lane's computation of `layer` (its value) in `kind`'s pass of `step`; an event
// at -1 when there is none.
TraceEvent layer_compute(const std::vector<TraceEvent>& events, int lane, EventKind kind,
                         std::size_t layer, std::int64_t step) {
    for (const auto& e : events)
        if (e.worker == lane && e.kind == kind && e.step == step &&
            static_cast<std::size_t>(e.value) == layer)
            return e;
    TraceEvent none;
    none.start = none.end = -1;
    return none;
}

Scenario small_scenario() {
    Scenario s;
    s.name = "cost-model-test";
    s.seed = 3;
    s.steps = 2;
    s.batch = 12;
    s.model = {{2, 8, 6, 5, 3}, Activation::Tanh, LossKind::SoftmaxCrossEntropy};
    s.dataset = {"spiral", "", 120, 0.05, 3};
    s.algorithm = Algorithm::Ring;
    return s;
}

} // namespace

class TestCostModel : public QObject {
    Q_OBJECT

private Q_SLOTS:
    void message_price();
    void textbook_compute();
    void waits_and_slow_links();
    void data_parallel_uses_the_cost_model_data();
    void data_parallel_uses_the_cost_model();
    void hybrid_uses_the_cost_model();
    void tensor_uses_the_cost_model_data();
    void tensor_uses_the_cost_model();
    void storage_price();
    void checkpoints_use_the_cost_model();
    void slow_link_factor_in_effect();
};

void TestCostModel::message_price() {
    CostConfig cost;
    cost.alpha_s = 1e-5;
    cost.beta_s_per_byte = 1e-9;
    cost.gamma_s_per_byte = 1e-10;
    const MessagePrice copy = price_message(cost, 8000, Message::Op::Copy);
    QCOMPARE(copy.transfer, Ticks{18'000}); // 10 us + 8 us
    QCOMPARE(copy.reduce, Ticks{0});
    const MessagePrice add = price_message(cost, 8000, Message::Op::Reduce, 3.0);
    QCOMPARE(add.transfer, Ticks{54'000}); // a slow link triples the transfer, not the addition
    QCOMPARE(add.reduce, Ticks{800});
}

void TestCostModel::textbook_compute() {
    Scenario s = small_scenario();
    QCOMPARE(compute_s_per_sample(s, 12), s.cost.compute_s_per_sample);
    s.cost.one_worker_compute_s = 6.0; // 2 steps of 12 samples: 0.25 s each
    QCOMPARE(compute_s_per_sample(s, 12), 0.25);
    const PassCost passes = split_passes(0.3);
    QCOMPARE(passes.forward, Ticks{100'000'000});
    QCOMPARE(passes.backward, Ticks{200'000'000});
}

// Two workers that reach the ring at different times: the early one waits for its peer, and a
// slow link stretches every message to or from its worker.
void TestCostModel::waits_and_slow_links() {
    CostConfig cost;
    cost.alpha_s = 1e-6;
    cost.beta_s_per_byte = 1e-9;
    cost.gamma_s_per_byte = 0.0;
    const CommSchedule ring = ring_schedule(2, 1000); // 2 rounds, one 4000-byte message each way
    const std::vector<int> lanes{5, 7};
    std::vector<Ticks> clocks{0, 10'000};
    const std::vector<double> slow{1.0, 2.0};
    std::vector<TraceEvent> events;
    const CollectiveTime time = price_schedule(ring, {lanes, clocks, slow}, cost, 4, 0, &events);
    // Each message: (1 us + 4 us) * 2 on the slow link = 10 us; both start at 10 us.
    QCOMPARE(clocks[0], Ticks{30'000});
    QCOMPARE(clocks[1], Ticks{30'000});
    QCOMPARE(time.waiting[0], Ticks{10'000});
    QCOMPARE(time.waiting[1], Ticks{0});
    QCOMPARE(time.busy[0], Ticks{20'000});
    QCOMPARE(time.busy[1], Ticks{20'000});
    int waits = 0;
    for (const auto& e : events) {
        QVERIFY(e.worker == 5 || e.worker == 7); // lanes, not participants
        QCOMPARE(e.step, std::int64_t{4});
        if (e.kind == EventKind::Wait) {
            ++waits;
            QCOMPARE(e.worker, 5);
            QCOMPARE(e.end, Ticks{10'000});
        }
    }
    QCOMPARE(waits, 1);
    std::vector<Ticks> again{0, 10'000};
    const CollectiveTime quiet = price_schedule(ring, {lanes, again, slow}, cost, 4, 0, nullptr);
    QCOMPARE(again, clocks); // the same times without recording the events
    QCOMPARE(quiet.waiting, time.waiting);
}

void TestCostModel::data_parallel_uses_the_cost_model_data() {
    QTest::addColumn<Algorithm>("algorithm");
    QTest::addColumn<double>("slowdown");
    for (auto a : {Algorithm::Ring, Algorithm::Tree, Algorithm::ParameterServer})
        for (double slowdown : {1.0, 2.5})
            QTest::addRow("%s/slowdown %.1f", std::string(to_string(a)).c_str(), slowdown)
                << a << slowdown;
}

// A data-parallel step's collective is exactly the cost model's price of its schedule from where
// the workers finished computing, waits included.
void TestCostModel::data_parallel_uses_the_cost_model() {
    QFETCH(Algorithm, algorithm);
    QFETCH(double, slowdown);
    Scenario s = small_scenario();
    s.workers = 3;
    s.algorithm = algorithm;
    s.delays.slowdown = {1.0, slowdown, 1.0};
    Trace trace;
    const auto trainer = make_run(s, load_dataset(s), &trace);
    trainer->step();
    const std::vector<int> lanes{0, 1, 2};
    std::vector<Ticks> clocks;
    for (int k : lanes)
        clocks.push_back(last_end(trace.events(), k, EventKind::Compute, 0));
    std::vector<TraceEvent> expected;
    price_schedule(make_schedule(s.algorithm, s.workers, s.model.parameter_count()),
                   {lanes, clocks, {}}, s.cost, 0, 0, &expected);
    const auto drawn = collective_events(trace.events(), 0, lanes);
    QVERIFY(!drawn.empty());
    QVERIFY(same_timing(drawn, collective_events(expected, 0, lanes)));
}

// The hybrid run's all-reduce of each stage among its replicas is priced by the same function:
// with one replica's stage slowed, the others wait for it exactly as a data-parallel ring would.
void TestCostModel::hybrid_uses_the_cost_model() {
    Scenario s = small_scenario();
    s.batch = 6;
    const int stages = 2, replicas = 3;
    s.parallelism =
        ParallelismConfig{Parallelism::Hybrid, stages, 2, PipelineSchedule::OneFOneB, replicas};
    s.workers = stages * replicas;
    s.delays.slowdown = {1.0, 1.0, 2.0, 1.0, 1.0, 1.0}; // replica 1, stage 0
    Trace trace;
    const auto trainer = make_run(s, load_dataset(s), &trace);
    trainer->step();
    for (int stage = 0; stage < stages; ++stage) {
        std::vector<int> lanes;
        std::vector<Ticks> clocks;
        for (int r = 0; r < replicas; ++r) {
            lanes.push_back(r * stages + stage);
            clocks.push_back(last_end(trace.events(), lanes.back(), EventKind::Backward, 0));
        }
        const LayerRange range =
            plan_pipeline(s.model, s.batch, *s.parallelism).ranges[static_cast<std::size_t>(stage)];
        const std::size_t count =
            s.model.weight_offset(range.end) - s.model.weight_offset(range.first);
        const CommSchedule schedule = make_schedule(Algorithm::Ring, replicas, count);
        std::vector<TraceEvent> expected;
        price_schedule(schedule, {lanes, clocks, {}}, s.cost, 0, 0, &expected);
        const auto drawn = collective_events(trace.events(), 0, lanes);
        QVERIFY(!drawn.empty());
        QVERIFY2(same_timing(drawn, collective_events(expected, 0, lanes)),
                 qPrintable(QStringLiteral("stage %1").arg(stage)));
    }
}

void TestCostModel::tensor_uses_the_cost_model_data() {
    QTest::addColumn<Algorithm>("algorithm");
    QTest::addColumn<int>("workers");
    for (auto a : {Algorithm::Ring, Algorithm::Tree, Algorithm::ParameterServer})
        for (int workers : {2, 3})
            QTest::addRow("%s/%d workers", std::string(to_string(a)).c_str(), workers)
                << a << workers;
}

// A tensor-parallel step runs one collective per layer and pass: after each layer's forward, an
// all-gather of its outputs; after each layer's backward but the first layer's, an all-reduce
// (the scenario's algorithm) of its input gradient. Each is exactly the cost model's price of its
// schedule from where each worker finished that layer's compute, waits included (the layers'
// widths do not divide evenly, so the pieces finish at different times), its rounds numbered on
// from the step's collective before; and the next layer's compute starts where the price left
// each worker. The trainer does not expose its schedules, so they are rebuilt here from the
// layer shapes and tensor_share_begin(), as the hybrid case rebuilds its stages' from the plan.
void TestCostModel::tensor_uses_the_cost_model() {
    QFETCH(Algorithm, algorithm);
    QFETCH(int, workers);
    Scenario s = small_scenario();
    s.workers = 1;
    s.algorithm = algorithm;
    s.parallelism =
        ParallelismConfig{Parallelism::Tensor, workers, 1, PipelineSchedule::FillDrain, 1};
    Trace trace;
    const auto trainer = make_run(s, load_dataset(s), &trace);
    trainer->run_to_end();

    const ModelShape& shape = s.model;
    const std::size_t layers = shape.layer_count(), rows = s.batch;
    auto width = [&](std::size_t index) { return static_cast<std::size_t>(shape.layers[index]); };
    // The step's computations in order, each followed by its collective (the last by none).
    struct Pass {
        EventKind kind;
        std::size_t layer;
        CommSchedule collective;
    };
    std::vector<Pass> passes;
    for (std::size_t l = 0; l < layers; ++l) {
        std::vector<std::size_t> offsets;
        for (int k = 0; k < workers; ++k)
            offsets.push_back(rows * tensor_share_begin(k, workers, width(l + 1)));
        offsets.push_back(rows * width(l + 1));
        passes.push_back({EventKind::Forward, l, ring_all_gather_schedule(offsets)});
    }
    for (std::size_t l = layers; l-- > 0;)
        passes.push_back(
            {EventKind::Backward, l,
             l > 0 ? make_schedule(algorithm, workers, rows * width(l)) : CommSchedule{}});

    std::vector<int> lanes(static_cast<std::size_t>(workers));
    std::iota(lanes.begin(), lanes.end(), 0);
    std::int64_t bytes = 0;
    for (std::int64_t step = 0; step < s.steps; ++step) {
        std::vector<TraceEvent> expected;
        int round = 0;
        for (std::size_t i = 0; i + 1 < passes.size(); ++i) {
            std::vector<Ticks> clocks;
            for (int k : lanes)
                clocks.push_back(
                    layer_compute(trace.events(), k, passes[i].kind, passes[i].layer, step).end);
            price_schedule(passes[i].collective, {lanes, clocks, {}}, s.cost, step, round,
                           &expected);
            round += static_cast<int>(passes[i].collective.rounds.size());
            bytes += passes[i].collective.total_bytes();
            for (int k : lanes)
                QCOMPARE(
                    layer_compute(trace.events(), k, passes[i + 1].kind, passes[i + 1].layer, step)
                        .start,
                    clocks[static_cast<std::size_t>(k)]);
        }
        // Each worker's wait for the slowest after the update ends the step: no collective's.
        std::vector<TraceEvent> events = trace.events();
        std::vector<Ticks> updated;
        for (int k : lanes)
            updated.push_back(last_end(events, k, EventKind::Update, step));
        std::erase_if(events, [&](const TraceEvent& e) {
            return e.kind == EventKind::Wait && e.step == step &&
                   e.start >= updated[static_cast<std::size_t>(e.worker)];
        });
        const auto drawn = collective_events(events, step, lanes);
        QVERIFY(!drawn.empty());
        QVERIFY2(same_timing(drawn, collective_events(expected, step, lanes)),
                 qPrintable(QStringLiteral("step %1").arg(step)));
    }
    QCOMPARE(trainer->metrics().bytes_moved, bytes);
}

// Checkpoint storage: bytes at the per-byte price, then each fsync.
void TestCostModel::storage_price() {
    CostConfig cost;
    cost.checkpoint_s_per_byte = 2e-9;
    cost.fsync_s = 0.003;
    QCOMPARE(price_storage(cost, 0), Ticks{0});
    QCOMPARE(price_storage(cost, 1'000'000), to_ticks(0.002));
    QCOMPARE(price_storage(cost, 0, 1), to_ticks(0.003));
    QCOMPARE(price_storage(cost, 1'000'000, 2), to_ticks(0.002 + 0.006));
}

// A data-parallel run's checkpoint phases last exactly what the cost model charges for their
// bytes and syncs: the file written, then synced and renamed.
void TestCostModel::checkpoints_use_the_cost_model() {
    Scenario s = small_scenario();
    s.workers = 2;
    s.steps = 4;
    s.checkpoint = CheckpointConfig{};
    s.checkpoint->every = 2;
    s.cost.checkpoint_s_per_byte = 5e-9;
    s.cost.fsync_s = 0.004;
    QTemporaryDir dir;
    QVERIFY(dir.isValid());
    Trace trace;
    const auto run = make_run(s, load_dataset(s), &trace);
    run->set_checkpoint_directory(dir.path().toStdString());
    run->run_to_end();
    int written = 0, synced = 0;
    for (const TraceEvent& e : trace.events()) {
        if (e.file == FileStage::Written) {
            QVERIFY(e.bytes > 0);
            QCOMPARE(e.end - e.start, price_storage(s.cost, static_cast<std::uint64_t>(e.bytes)));
            ++written;
        } else if (e.file == FileStage::Synced || e.file == FileStage::Renamed) {
            QCOMPARE(e.end - e.start, price_storage(s.cost, 0, 1));
            ++synced;
        }
    }
    QCOMPARE(written, 2 * s.workers); // two checkpoints, a file per worker
    QCOMPARE(synced, 2 * written);
}

// The slow link in effect: the latest at or before the step, of that worker only.
void TestCostModel::slow_link_factor_in_effect() {
    FailureConfig f;
    FailureSpec a;
    a.kind = FailureKind::SlowLink;
    a.worker = 1;
    a.step = 3;
    a.factor = 4.0;
    FailureSpec b = a;
    b.step = 6;
    b.factor = 2.0;
    f.events = {b, a}; // out of order: the step decides
    QCOMPARE(slow_link_factor(f, 1, 2), 1.0);
    QCOMPARE(slow_link_factor(f, 1, 3), 4.0);
    QCOMPARE(slow_link_factor(f, 1, 5), 4.0);
    QCOMPARE(slow_link_factor(f, 1, 6), 2.0);
    QCOMPARE(slow_link_factor(f, 0, 9), 1.0);
}

QTEST_APPLESS_MAIN(TestCostModel)
#include "test_cost_model.moc"
