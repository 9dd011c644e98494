// Sharded data parallelism, ZeRO stages 1 to 3: the same bits as the unsharded run for every
// stage, collective, optimizer, clock and thread count; each worker's resident buffers really are
// its shard; the memory ledger and the bytes the halves move, worked out by hand; checkpoints
// that hold each worker's shard, a crash that recovers to the same bits, an elastic recovery that
// re-shards over fewer workers; and what a sharded run refuses, by name.
#include "checkpoint/checkpoint.h"
#include "collectives/sharding.h"
#include "core/error.h"
#include "failures/intervention.h"
#include "trace/trace.h"
#include "trainers/run.h"
#include "trainers/setup.h"

#include <QtTest>

#include <oneapi/tbb/global_control.h>
#include <oneapi/tbb/task_arena.h>

#include <cstring>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <set>

using namespace lockstep;

Q_DECLARE_METATYPE(lockstep::Algorithm)
Q_DECLARE_METATYPE(lockstep::OptimizerKind)
Q_DECLARE_METATYPE(lockstep::ClockKind)
Q_DECLARE_METATYPE(lockstep::Sharding)
Q_DECLARE_METATYPE(lockstep::CrashPhase)

namespace {

Scenario base(Algorithm algorithm, OptimizerKind optimizer, ClockKind clock) {
    Scenario s;
    s.workers = 4;
    s.steps = 15;
    s.batch = 12;
    s.algorithm = algorithm;
    s.clock = clock;
    s.model.layers = {2, 17, 9, 3}; // 243 parameters: shards of 60 and 61
    s.optimizer.kind = optimizer;
    s.optimizer.learning_rate = optimizer == OptimizerKind::Adam ? 0.01 : 0.1;
    return s;
}

struct Outcome {
    std::vector<double> parameters;
    std::vector<ReplicaState> replicas;
    RunMetrics metrics;
};

Outcome train(const Scenario& s, int threads = 2) {
    tbb::global_control limit(tbb::global_control::max_allowed_parallelism,
                              static_cast<std::size_t>(threads));
    tbb::task_arena arena(threads);
    Outcome o;
    arena.execute([&] {
        auto run = make_run(s, load_dataset(s), nullptr);
        run->run_to_end();
        o.parameters = run->parameters();
        o.replicas = run->replicas();
        o.metrics = run->metrics();
    });
    return o;
}

bool same_bits(const std::vector<double>& a, const std::vector<double>& b) {
    return a.size() == b.size() && std::memcmp(a.data(), b.data(), a.size() * sizeof(double)) == 0;
}

// The model's layers as a sharded run lays them out: worker k's piece of each layer, in turn.
std::vector<ShardedCollective> layer_layouts(const Scenario& s) {
    std::vector<ShardedCollective> layers;
    for (std::size_t l = 0; l < s.model.layer_count(); ++l)
        layers.push_back(sharded_collective(
            s.algorithm, s.workers, s.model.weight_offset(l + 1) - s.model.weight_offset(l)));
    return layers;
}

std::size_t pieces_of(const std::vector<ShardedCollective>& layers, int worker) {
    std::size_t held = 0;
    for (const ShardedCollective& layer : layers)
        held += layer.shard_size(worker);
    return held;
}

QString refusal_of(const Scenario& s) {
    try {
        validate(s);
    } catch (const Error& e) {
        return QString::fromStdString(e.what());
    }
    return {};
}

} // namespace

class TestSharding : public QObject {
    Q_OBJECT

private Q_SLOTS:
    void same_bits_as_unsharded_data();
    void same_bits_as_unsharded();
    void resident_buffers_are_shards();
    void ledger_by_hand();
    void ledger_by_hand_fully_sharded();
    void the_halves_bytes();
    void stage_three_accumulates_data();
    void stage_three_accumulates();
    void refused_by_name();
    void crash_taken_broadcast_refused();
    void collective_fixed_for_the_run();
    void trace_names_the_halves_data();
    void trace_names_the_halves();
    void checkpoints_hold_the_shards_data();
    void checkpoints_hold_the_shards();
    void crash_recovers_bit_for_bit_data();
    void crash_recovers_bit_for_bit();
    void elastic_reshards_onto_fewer_data();
    void elastic_reshards_onto_fewer();
};

void TestSharding::same_bits_as_unsharded_data() {
    QTest::addColumn<Algorithm>("algorithm");
    QTest::addColumn<OptimizerKind>("optimizer");
    QTest::addColumn<double>("momentum");
    QTest::addColumn<ClockKind>("clock");
    QTest::addColumn<Sharding>("stage");
    for (Sharding z : {Sharding::Optimizer, Sharding::Gradients, Sharding::Parameters})
        for (Algorithm a : {Algorithm::Ring, Algorithm::Tree, Algorithm::ParameterServer})
            for (ClockKind c : {ClockKind::Modelled, ClockKind::Measured}) {
                const QByteArray name = QByteArray(to_string(z).data()) + "/" +
                                        QByteArray(to_string(a).data()) + "/" +
                                        QByteArray(to_string(c).data());
                QTest::newRow((name + "/sgd").constData())
                    << a << OptimizerKind::Sgd << 0.0 << c << z;
                QTest::newRow((name + "/momentum").constData())
                    << a << OptimizerKind::Sgd << 0.9 << c << z;
                QTest::newRow((name + "/adam").constData())
                    << a << OptimizerKind::Adam << 0.0 << c << z;
            }
}

// The reduce-scatter and all-gather add in the all-reduce's order and the optimizers work value by
// value, so a worker updating its shard alone gives the unsharded run's bits, for 1, 2 and 4
// threads; on the modelled clock the times are the same too for the ring in stages 1 and 2, whose
// halves are its all-reduce (the cost model prices no update here). Stage 3 reduces layer by
// layer: the parameter server and the tree add each value in the same order still, and the ring
// gives the bits of the unsharded run whose gradient buckets hold one layer each (1 KB here:
// the layers' 51, 162 and 30 values do not fit two to a bucket).
void TestSharding::same_bits_as_unsharded() {
    QFETCH(Algorithm, algorithm);
    QFETCH(OptimizerKind, optimizer);
    QFETCH(double, momentum);
    QFETCH(ClockKind, clock);
    QFETCH(Sharding, stage);
    Scenario plain = base(algorithm, optimizer, clock);
    plain.optimizer.momentum = momentum;
    Scenario sharded = plain;
    sharded.sharding = stage;
    if (stage == Sharding::Parameters && algorithm == Algorithm::Ring)
        plain.gradients = GradientConfig{1, true, 1};
    const Outcome reference = train(plain);
    for (int threads : {1, 2, 4}) {
        const Outcome o = train(sharded, threads);
        QVERIFY2(same_bits(o.parameters, reference.parameters),
                 qPrintable(QStringLiteral("%1 threads").arg(threads)));
        for (const ReplicaState& r : o.replicas)
            QVERIFY(same_bits(r.parameters, reference.parameters)); // every replica whole again
        QCOMPARE(o.metrics.final_loss, reference.metrics.final_loss);
        if (clock == ClockKind::Modelled && algorithm == Algorithm::Ring &&
            stage != Sharding::Parameters)
            QCOMPARE(o.metrics.step_time_s, reference.metrics.step_time_s);
    }
    // And the run did something: the parameters moved from where they started.
    QVERIFY(!same_bits(reference.parameters, detail::initial_parameters(plain)));
}

// The test reads the workers' own buffers between steps, not a ledger: what each stage shards is
// the worker's shard's size, and the shards add up to the model once. Stage 3 keeps nothing of
// a gathered layer once the step is over.
void TestSharding::resident_buffers_are_shards() {
    for (OptimizerKind kind : {OptimizerKind::Sgd, OptimizerKind::Adam})
        for (Sharding stage :
             {Sharding::None, Sharding::Optimizer, Sharding::Gradients, Sharding::Parameters}) {
            Scenario s = base(Algorithm::Ring, kind, ClockKind::Modelled);
            s.sharding = stage;
            s.steps = 3;
            const std::size_t per_value = kind == OptimizerKind::Adam ? 2 : 1;
            const std::size_t parameters = 243;
            QCOMPARE(s.model.parameter_count(), parameters);
            const ShardedCollective whole = sharded_collective(Algorithm::Ring, 4, parameters);
            const std::vector<ShardedCollective> layers = layer_layouts(s);
            const auto run = make_run(s, load_dataset(s));
            run->run_to_end();
            QCOMPARE(run->steps_done(), std::int64_t{3});
            std::size_t total = 0;
            const std::vector<HeldValues> held = run->held();
            QCOMPARE(held.size(), std::size_t{4});
            for (int k = 0; k < 4; ++k) {
                const HeldValues& w = held[static_cast<std::size_t>(k)];
                const std::size_t shard = stage == Sharding::None         ? parameters
                                          : stage == Sharding::Parameters ? pieces_of(layers, k)
                                                                          : whole.shard_size(k);
                if (stage != Sharding::None) // a quarter, give or take a value per layer
                    QVERIFY(shard <= parameters / 4 + (stage == Sharding::Parameters ? 3 : 1));
                const std::size_t kept_parameters =
                    stage == Sharding::Parameters ? shard : parameters;
                const std::size_t kept_gradient =
                    stage == Sharding::None || stage == Sharding::Optimizer ? parameters : shard;
                QCOMPARE(w.parameters, kept_parameters);
                QCOMPARE(w.gradient, kept_gradient);
                QCOMPARE(w.optimizer, per_value * shard);
                QCOMPARE(w.gathered_layer, std::size_t{0});
                QCOMPARE(w.layer_gradient, std::size_t{0});
                total += shard;
            }
            QCOMPARE(total, stage == Sharding::None ? 4 * parameters : parameters);
        }
}

// The memory ledger of a small model worked out by hand: 243 parameters of 8 bytes; SGD's
// velocity or Adam's two moments, whole or a shard; 12 rows' activations (layer widths 17, 9, 3)
// and deltas (two rows of the widest layer, 17, per row); the batch's 2 features, target and
// row index per row; the kernels' transposed weights and gradient, 2 x 243. After a step the
// ledger holds what stays resident; the peak is the end of backward, whole gradient and all.
void TestSharding::ledger_by_hand() {
    const std::int64_t p = 243 * 8;
    const std::int64_t activations = (12 * (17 + 9 + 3) + 2 * 12 * 17 + 12 * 2 + 12 + 12) * 8;
    for (OptimizerKind kind : {OptimizerKind::Sgd, OptimizerKind::Adam})
        for (Sharding stage : {Sharding::None, Sharding::Optimizer, Sharding::Gradients}) {
            Scenario s = base(Algorithm::Ring, kind, ClockKind::Modelled);
            s.sharding = stage;
            const Outcome o = train(s);
            const ShardedCollective layout = sharded_collective(Algorithm::Ring, 4, 243);
            const std::int64_t moments = kind == OptimizerKind::Adam ? 2 : 1;
            QCOMPARE(o.metrics.memory.size(), std::size_t{4});
            for (int k = 0; k < 4; ++k) {
                const WorkerMemory& m = o.metrics.memory[static_cast<std::size_t>(k)];
                const std::int64_t held =
                    stage == Sharding::None ? 243 : static_cast<std::int64_t>(layout.shard_size(k));
                QCOMPARE(m.parameters, p);
                QCOMPARE(m.parameters_peak, p);
                QCOMPARE(m.gradients, stage == Sharding::Gradients ? held * 8 : p);
                QCOMPARE(m.optimizer, moments * held * 8);
                QCOMPARE(m.activations, activations);
                QCOMPARE(m.workspace, 2 * p);
                QCOMPARE(m.peak, 4 * p + activations + moments * held * 8);
                if (stage != Sharding::Gradients)
                    QCOMPARE(m.peak, m.total());
            }
        }
}

// Stage 3 by hand: layers of 51, 162 and 30 values, each in four pieces. Between steps a worker
// holds its pieces of the parameters, of the summed gradient and of the optimizer state. The
// passes go layer by layer: the layer's input delta has a buffer of its own (two rows of 17 per
// row) beside the kernel's, and the kernel's transposed weights are one layer's, at most 162.
// The peak is the backward of the largest layer: that layer gathered, its gradient and the
// gradient's transposed copy, beside everything resident.
void TestSharding::ledger_by_hand_fully_sharded() {
    const std::int64_t largest = 162;
    const std::int64_t activations = (12 * (17 + 9 + 3) + 2 * (2 * 12 * 17) + 12 * 2 + 12 + 12) * 8;
    for (OptimizerKind kind : {OptimizerKind::Sgd, OptimizerKind::Adam}) {
        Scenario s = base(Algorithm::Ring, kind, ClockKind::Modelled);
        s.sharding = Sharding::Parameters;
        const std::vector<ShardedCollective> layers = layer_layouts(s);
        QCOMPARE(layers[1].reduce_scatter.count, std::size_t(largest));
        const Outcome o = train(s);
        const std::int64_t moments = kind == OptimizerKind::Adam ? 2 : 1;
        QCOMPARE(o.metrics.memory.size(), std::size_t{4});
        for (int k = 0; k < 4; ++k) {
            const WorkerMemory& m = o.metrics.memory[static_cast<std::size_t>(k)];
            const auto pieces = static_cast<std::int64_t>(pieces_of(layers, k)) * 8;
            QVERIFY(pieces <= (243 / 4 + 3) * 8);
            QCOMPARE(m.parameters, pieces);
            QCOMPARE(m.gradients, pieces);
            QCOMPARE(m.optimizer, moments * pieces);
            QCOMPARE(m.activations, activations);
            QCOMPARE(m.workspace, largest * 8);
            QCOMPARE(m.parameters_peak, pieces + largest * 8);
            QCOMPARE(m.peak, (2 + moments) * pieces + 4 * largest * 8 + activations);
        }
    }
}

// The ring's halves move exactly its all-reduce's bytes; at a root the shards go down after the
// reduce and come back up before the broadcast, 2 (N-1)/N of the buffer more. Stages 1 and 2 move
// the same bytes; stage 3 gathers every layer twice and reduce-scatters it once, about 1.5 times
// the ring's all-reduce.
void TestSharding::the_halves_bytes() {
    for (Algorithm a : {Algorithm::Ring, Algorithm::Tree, Algorithm::ParameterServer}) {
        Scenario s = base(a, OptimizerKind::Sgd, ClockKind::Modelled);
        const Outcome plain = train(s);
        s.sharding = Sharding::Parameters;
        std::int64_t per_step = 0;
        for (const ShardedCollective& layer : layer_layouts(s))
            per_step += 2 * layer.all_gather.total_bytes() + layer.reduce_scatter.total_bytes();
        QCOMPARE(train(s).metrics.bytes_moved, per_step * s.steps);
        if (a == Algorithm::Ring) {
            const double ratio = static_cast<double>(per_step * s.steps) /
                                 static_cast<double>(plain.metrics.bytes_moved);
            QVERIFY2(ratio > 1.45 && ratio < 1.55, qPrintable(QString::number(ratio)));
        }
        s.sharding = Sharding::Gradients;
        const std::int64_t stage_two = train(s).metrics.bytes_moved;
        s.sharding = Sharding::Optimizer;
        const Outcome sharded = train(s);
        QCOMPARE(stage_two, sharded.metrics.bytes_moved);
        const ShardedCollective layout = sharded_collective(a, 4, plain.parameters.size());
        std::int64_t away = 0; // the shards not the root's, down and up again each step
        for (int k = 1; k < 4; ++k)
            away += 2 * static_cast<std::int64_t>(layout.shard_size(k) * sizeof(double)) * s.steps;
        if (a != Algorithm::Ring) // the root keeps chunk 0 (60 values), the others 61 each
            QCOMPARE(away, std::int64_t{2 * (61 * 3) * 8 * 15});
        if (a == Algorithm::Ring)
            QCOMPARE(sharded.metrics.bytes_moved, plain.metrics.bytes_moved);
        else
            QCOMPARE(sharded.metrics.bytes_moved, plain.metrics.bytes_moved + away);
    }
}

void TestSharding::stage_three_accumulates_data() {
    QTest::addColumn<Algorithm>("algorithm");
    QTest::addColumn<OptimizerKind>("optimizer");
    QTest::addColumn<ClockKind>("clock");
    for (Algorithm a : {Algorithm::Ring, Algorithm::Tree, Algorithm::ParameterServer})
        for (OptimizerKind o : {OptimizerKind::Sgd, OptimizerKind::Adam})
            for (ClockKind c : {ClockKind::Modelled, ClockKind::Measured})
                QTest::addRow("%s/%s/%s", to_string(a).data(), to_string(o).data(),
                              to_string(c).data())
                    << a << o << c;
}

// Stage 3 with 3 micro-batches: each micro-batch gathers every layer twice, the layers' gradients
// add up at their whole size, and the last backward reduce-scatters their mean: the bits of the
// unsharded run that accumulates 3 micro-batches (with the ring, whose buckets hold a layer
// each), all-gathers 3 times the bytes, and holds a whole gradient's sum while it accumulates.
void TestSharding::stage_three_accumulates() {
    QFETCH(Algorithm, algorithm);
    QFETCH(OptimizerKind, optimizer);
    QFETCH(ClockKind, clock);
    Scenario plain = base(algorithm, optimizer, clock);
    plain.steps = 8;
    plain.gradients =
        GradientConfig{algorithm == Algorithm::Ring ? std::size_t{1} : std::size_t{0}, true, 3};
    Scenario sharded = base(algorithm, optimizer, clock);
    sharded.steps = 8;
    sharded.sharding = Sharding::Parameters;
    sharded.gradients = GradientConfig{0, true, 3};
    const Outcome reference = train(plain);
    const Outcome once = [&] {
        Scenario s = sharded;
        s.gradients.reset();
        return train(s);
    }();
    for (int threads : {1, 4}) {
        const Outcome o = train(sharded, threads);
        QVERIFY2(same_bits(o.parameters, reference.parameters),
                 qPrintable(QStringLiteral("%1 threads").arg(threads)));
        QCOMPARE(o.metrics.final_loss, reference.metrics.final_loss);
        QCOMPARE(o.metrics.samples, reference.metrics.samples);
        QCOMPARE(o.metrics.reduce_scatter_bytes, once.metrics.reduce_scatter_bytes);
        QCOMPARE(o.metrics.all_gather_bytes, 3 * once.metrics.all_gather_bytes);
        const std::int64_t sum = static_cast<std::int64_t>(
            sharded.model.parameter_count() * sizeof(double)); // the micro-batches' sum, whole
        for (std::size_t k = 0; k < o.metrics.memory.size(); ++k)
            QVERIFY(o.metrics.memory[k].peak >= once.metrics.memory[k].peak + sum);
    }
}

void TestSharding::refused_by_name() {
    const Scenario ok = [] {
        Scenario s = base(Algorithm::Ring, OptimizerKind::Sgd, ClockKind::Modelled);
        s.sharding = Sharding::Optimizer;
        return s;
    }();
    QVERIFY(refusal_of(ok).isEmpty());
    auto refused = [&](auto change, const char* words) {
        Scenario s = ok;
        change(s);
        const QString why = refusal_of(s);
        QVERIFY2(why.startsWith(QStringLiteral("sharding \"")), qPrintable(why));
        QVERIFY2(why.contains(QLatin1String(words)), qPrintable(why));
    };
    for (Sharding stage : {Sharding::Gradients, Sharding::Parameters}) {
        Scenario s = ok;
        s.sharding = stage;
        QVERIFY(refusal_of(s).isEmpty());
    }
    refused([](Scenario& s) { s.algorithm = Algorithm::None; }, "algorithm is none");
    refused(
        [](Scenario& s) {
            s.algorithm = Algorithm::ParameterServer;
            s.sync = SyncConfig{SyncMode::Ssp, 2, 4, false};
        },
        "sync.mode");
    refused([](Scenario& s) { s.gradients = GradientConfig{64, true, 1}; }, "gradients.bucket_kb");
    refused([](Scenario& s) { s.cost.communication_s_per_step = 0.01; },
            "cost.communication_s_per_step");
    // A pause, and accumulation in every stage, are fine (stage 3's, with the ring, is
    // stage_three_accumulates()).
    for (Sharding stage : {Sharding::Optimizer, Sharding::Gradients}) {
        Scenario paused = ok;
        paused.sharding = stage;
        paused.delays.pauses.push_back({1, 3, 0.01});
        paused.gradients = GradientConfig{0, true, 2};
        QVERIFY(refusal_of(paused).isEmpty());
        QVERIFY(same_bits(train(paused).parameters, [&] {
            Scenario plain = paused;
            plain.sharding = Sharding::None;
            return train(plain).parameters;
        }()));
    }
    Scenario paused = ok;
    paused.sharding = Sharding::Parameters;
    paused.delays.pauses.push_back({1, 3, 0.01});
    QVERIFY(same_bits(train(paused).parameters, [&] {
        Scenario plain = paused;
        plain.sharding = Sharding::None;
        plain.gradients = GradientConfig{1, true, 1};
        return train(plain).parameters;
    }()));
}

// A crash would lose the only copy of a shard's optimizer state, and a broadcast has no whole
// state to copy: both kinds say so for a sharded run, and not for the same run unsharded.
void TestSharding::crash_taken_broadcast_refused() {
    Scenario s = base(Algorithm::Ring, OptimizerKind::Sgd, ClockKind::Modelled);
    Intervention change;
    change.worker = 1;
    // A crash at the playhead recovers the shards (from a checkpoint, or from the start).
    s.sharding = Sharding::Parameters;
    change.kind = Intervention::Kind::Crash;
    QVERIFY(!fault_kind(Intervention::Kind::Crash).refusal(s, change));
    for (Intervention::Kind kind : {Intervention::Kind::Broadcast}) {
        change.kind = kind;
        s.sharding = Sharding::None;
        QVERIFY(!fault_kind(kind).refusal(s, change));
        s.sharding = Sharding::Optimizer;
        const Refusal no = fault_kind(kind).refusal(s, change);
        QVERIFY(no);
        QVERIFY(QString::fromLatin1(no.text).contains(QLatin1String("shard")));
    }
}

// Its optimizer state lies in the shards the collective laid out: the collective waits for a new
// run, while the learning rate may change mid-run as for any run.
void TestSharding::collective_fixed_for_the_run() {
    Scenario from = base(Algorithm::Ring, OptimizerKind::Sgd, ClockKind::Modelled);
    from.sharding = Sharding::Optimizer;
    Scenario to = from;
    to.algorithm = Algorithm::Tree;
    QCOMPARE(fixed_for_the_run(from, to).value_or(""), std::string("algorithm"));
    to = from;
    to.optimizer.learning_rate = 0.05;
    QVERIFY(!fixed_for_the_run(from, to));
    auto run = make_run(from, load_dataset(from), nullptr);
    run->step();
    to = from;
    to.algorithm = Algorithm::Tree;
    QVERIFY_THROWS_EXCEPTION(Error, run->retune(to));
    Scenario plain = from;
    plain.sharding = Sharding::None;
    to = plain;
    to.algorithm = Algorithm::Tree;
    QVERIFY(!fixed_for_the_run(plain, to)); // unsharded, the collective changes mid-run
}

void TestSharding::trace_names_the_halves_data() {
    QTest::addColumn<ClockKind>("clock");
    QTest::addColumn<Sharding>("sharding");
    for (ClockKind c : {ClockKind::Modelled, ClockKind::Measured}) {
        const char* clock = c == ClockKind::Modelled ? "modelled" : "measured";
        QTest::addRow("%s stage 2", clock) << c << Sharding::Gradients;
        QTest::addRow("%s stage 3", clock) << c << Sharding::Parameters;
    }
}

// Every message of a sharded step names the half it belongs to (the Memory view, the timeline
// and the cluster read it), stage 3 also the layer; and the memory samples of a stage-3 step
// show a layer gathered whole and freed again.
void TestSharding::trace_names_the_halves() {
    QFETCH(ClockKind, clock);
    QFETCH(Sharding, sharding);
    Scenario s = base(Algorithm::Ring, OptimizerKind::Adam, clock);
    s.sharding = sharding;
    s.steps = 2;
    Trace trace;
    auto run = make_run(s, load_dataset(s), &trace);
    run->run_to_end();
    int gathers = 0, scatters = 0;
    std::set<int> layers;
    for (const TraceEvent& e : trace.events()) {
        const bool message = e.kind == EventKind::Send || e.kind == EventKind::Receive;
        if (!message)
            continue;
        QVERIFY2(e.half != CollectiveHalf::None, "a sharded run's message without its half");
        (e.half == CollectiveHalf::AllGather ? gathers : scatters) += 1;
        if (sharding == Sharding::Parameters)
            layers.insert(e.layer);
        else
            QCOMPARE(e.layer, -1);
    }
    QVERIFY(gathers > 0 && scatters > 0);
    if (sharding == Sharding::Parameters) {
        QCOMPARE(layers, (std::set<int>{0, 1, 2})); // every layer, gathered and scattered
        // Stage 3 gathers twice as often as it scatters: before forward and before backward.
        QVERIFY(gathers > scatters);
    }
    QCOMPARE(trace.snapshots().size(), std::size_t{2});
    const std::vector<MemorySample>& samples = trace.snapshots().front().memory;
    QVERIFY(!samples.empty());
    std::int64_t least = INT64_MAX, most = 0;
    for (const MemorySample& m : samples)
        if (m.worker == 0) {
            least = std::min(least, m.parameters);
            most = std::max(most, m.parameters);
        }
    if (sharding == Sharding::Parameters) // 243 parameters: a layer gathered is more than a piece
        QVERIFY2(most > least, qPrintable(QStringLiteral("%1 %2").arg(most).arg(least)));
    else
        QCOMPARE(most, least); // the parameters stay whole in stage 2
}

namespace {

void add_stage_rows() {
    QTest::addColumn<Algorithm>("algorithm");
    QTest::addColumn<Sharding>("sharding");
    for (Algorithm a : {Algorithm::Ring, Algorithm::Tree})
        for (Sharding stage : {Sharding::Optimizer, Sharding::Gradients, Sharding::Parameters})
            QTest::addRow("%s %s", a == Algorithm::Ring ? "ring" : "tree",
                          std::string(to_string(stage)).c_str())
                << a << stage;
}

Scenario with_checkpoints(Algorithm algorithm, Sharding sharding) {
    Scenario s = base(algorithm, OptimizerKind::Adam, ClockKind::Modelled);
    s.sharding = sharding;
    s.checkpoint = CheckpointConfig{3, 1000, false, RestoreMode::Full};
    s.failures.heartbeat_s = 0.02;
    s.failures.restart_s = 0.05;
    return s;
}

struct Checkpointed {
    std::vector<double> parameters;
    std::vector<ReplicaState> replicas;
    std::vector<Recovery> recoveries;
};

Checkpointed run_in(const Scenario& s, const std::filesystem::path& dir) {
    const auto run = make_run(s, load_dataset(s), nullptr);
    run->set_checkpoint_directory(dir);
    run->run_to_end();
    return {run->parameters(), run->replicas(), run->recoveries()};
}

FailureSpec crash_at(int worker, std::int64_t step, CrashPhase phase = CrashPhase::Update) {
    FailureSpec f;
    f.kind = FailureKind::Crash;
    f.worker = worker;
    f.step = step;
    f.phase = phase;
    return f;
}

} // namespace

void TestSharding::checkpoints_hold_the_shards_data() {
    add_stage_rows();
}

// A sharded run's checkpoint: every worker's file holds its slice of the optimizer state (no file
// holds it whole), the files put together are the whole state, and a run restored from it
// continues to the uninterrupted run's bits, each worker holding its shard again.
void TestSharding::checkpoints_hold_the_shards() {
    QFETCH(Algorithm, algorithm);
    QFETCH(Sharding, sharding);
    QTemporaryDir dir;
    QVERIFY(dir.isValid());
    const Scenario s = with_checkpoints(algorithm, sharding);
    const Checkpointed whole = run_in(s, dir.path().toStdString());
    const std::filesystem::path step6 =
        std::filesystem::path(dir.path().toStdString()) / checkpoint_directory_name(6);
    const std::uint64_t n = s.model.parameter_count();
    for (int k = 0; k < s.workers; ++k) {
        const std::filesystem::path file = step6 / worker_file_name(k);
        std::ifstream in(file, std::ios::binary);
        const std::string bytes((std::istreambuf_iterator<char>(in)), {});
        const WorkerCheckpoint c = decode_worker_file(
            std::as_bytes(std::span(bytes.data(), bytes.size())), file.filename().string());
        QVERIFY(c.sharded_optimizer);
        const SliceRange want = optimizer_slice(n, k, s.workers);
        QCOMPARE(c.first_moment.begin, want.begin);
        QCOMPARE(c.first_moment.values.size(), want.end - want.begin);
        QCOMPARE(c.second_moment.values.size(), want.end - want.begin);
        QVERIFY(c.first_moment.values.size() < n);
        // Stage 3 keeps no whole model anywhere, and neither does its checkpoint.
        const bool pieces = sharding == Sharding::Parameters;
        QCOMPARE(c.sharded_parameters, pieces);
        if (pieces) {
            QVERIFY(c.parameters.empty());
            QCOMPARE(c.parameter_slice.begin, want.begin);
            QCOMPARE(c.parameter_slice.values.size(), want.end - want.begin);
        } else {
            QCOMPARE(c.parameters.size(), k == 0 ? n : 0); // replicated: worker 0 writes them
        }
    }
    const TrainingState saved = load_checkpoint(step6);
    QCOMPARE(saved.parameters.size(), n);
    QCOMPARE(saved.optimizer.first_moment.size(), n);

    const auto restored = make_run(s, load_dataset(s), nullptr);
    restored->restore_state(saved, RestoreMode::Full);
    std::size_t held = 0;
    for (const ReplicaState& r : restored->replicas()) {
        QVERIFY(r.optimizer.first_moment.size() < n); // a shard, not the whole
        held += r.optimizer.first_moment.size();
    }
    QCOMPARE(held, n);
    restored->run_to_end();
    QVERIFY(same_bits(restored->parameters(), whole.parameters));
}

void TestSharding::crash_recovers_bit_for_bit_data() {
    QTest::addColumn<Algorithm>("algorithm");
    QTest::addColumn<Sharding>("sharding");
    QTest::addColumn<CrashPhase>("phase");
    for (Algorithm a : {Algorithm::Ring, Algorithm::Tree})
        for (Sharding stage : {Sharding::Optimizer, Sharding::Gradients, Sharding::Parameters})
            for (CrashPhase phase :
                 {CrashPhase::Compute, CrashPhase::Communicate, CrashPhase::Update})
                QTest::addRow("%s %s %s", a == Algorithm::Ring ? "ring" : "tree",
                              std::string(to_string(stage)).c_str(),
                              std::string(to_string(phase)).c_str())
                    << a << stage << phase;
}

// A worker crashes in step 7 (computing, communicating or updating): the run goes back to the
// checkpoint of step 6, restores every worker's shard and ends with the bits of the run that
// never crashed.
void TestSharding::crash_recovers_bit_for_bit() {
    QFETCH(Algorithm, algorithm);
    QFETCH(Sharding, sharding);
    QFETCH(CrashPhase, phase);
    QTemporaryDir clean_dir, crash_dir;
    QVERIFY(clean_dir.isValid() && crash_dir.isValid());
    Scenario s = with_checkpoints(algorithm, sharding);
    const Checkpointed clean = run_in(s, clean_dir.path().toStdString());
    s.failures.policy = RecoveryPolicy::Restart;
    s.failures.events = {crash_at(2, 7, phase)};
    const Checkpointed crashed = run_in(s, crash_dir.path().toStdString());
    QCOMPARE(crashed.recoveries.size(), std::size_t{1});
    QCOMPARE(crashed.recoveries.front().restored_step, std::int64_t{6});
    QVERIFY(same_bits(crashed.parameters, clean.parameters));
}

void TestSharding::elastic_reshards_onto_fewer_data() {
    QTest::addColumn<Algorithm>("algorithm");
    QTest::addColumn<Sharding>("sharding");
    for (Algorithm a : {Algorithm::Tree, Algorithm::ParameterServer})
        for (Sharding stage : {Sharding::Optimizer, Sharding::Gradients, Sharding::Parameters})
            QTest::addRow("%s %s", std::string(to_string(a)).c_str(),
                          std::string(to_string(stage)).c_str())
                << a << stage;
}

// Elastic: worker 2 of 4 dies; the three left restore the checkpoint saved by four, re-sharded
// over three, and end with the bits of the unsharded elastic run (the tree and the parameter
// server add in the unsharded order at any worker count).
void TestSharding::elastic_reshards_onto_fewer() {
    QFETCH(Algorithm, algorithm);
    QFETCH(Sharding, sharding);
    QTemporaryDir plain_dir, sharded_dir;
    QVERIFY(plain_dir.isValid() && sharded_dir.isValid());
    Scenario s = with_checkpoints(algorithm, Sharding::None);
    s.failures.policy = RecoveryPolicy::Elastic;
    s.failures.events = {crash_at(2, 7)};
    const Checkpointed plain = run_in(s, plain_dir.path().toStdString());
    s.sharding = sharding;
    const Checkpointed sharded = run_in(s, sharded_dir.path().toStdString());
    QCOMPARE(sharded.recoveries.size(), std::size_t{1});
    QCOMPARE(sharded.recoveries.front().workers_after, 3);
    QCOMPARE(sharded.replicas.size(), std::size_t{3});
    std::size_t held = 0;
    for (const ReplicaState& r : sharded.replicas)
        held += r.optimizer.first_moment.size();
    QCOMPARE(held, static_cast<std::size_t>(s.model.parameter_count())); // three shards, all of it
    QVERIFY(same_bits(sharded.parameters, plain.parameters));
}

QTEST_GUILESS_MAIN(TestSharding)
#include "test_sharding.moc"
