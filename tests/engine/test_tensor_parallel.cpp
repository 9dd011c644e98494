#include "collectives/schedule.h"
#include "core/error.h"
#include "core/rng.h"
#include "model/model.h"
#include "runs/runs.h"
#include "trace/trace.h"
#include "trainers/tensor.h"

#include <oneapi/tbb/global_control.h>

#include <QtTest>

#include "tensor_layer_reference.h"
#include "test_support.h"

#include <cmath>
#include <cstring>

using namespace lockstep;
using namespace lockstep::testing;

Q_DECLARE_METATYPE(lockstep::Algorithm)

namespace {

struct Layer {
    std::size_t rows = 5, in = 6, out = 7;
    std::vector<double> x, weight, bias;
};

Layer random_layer(std::size_t rows, std::size_t in, std::size_t out) {
    Layer l{rows, in, out, {}, {}, {}};
    Rng rng = Rng::stream(3, 9);
    for (std::size_t k = 0; k < rows * in; ++k)
        l.x.push_back(rng.uniform(-2.0, 2.0));
    for (std::size_t k = 0; k < out * in; ++k)
        l.weight.push_back(rng.uniform(-1.0, 1.0));
    for (std::size_t k = 0; k < out; ++k)
        l.bias.push_back(rng.uniform(-1.0, 1.0));
    return l;
}

std::vector<double> unsplit(const Layer& l) {
    std::vector<double> z(l.rows * l.out);
    linear_forward(l.x.data(), l.rows, l.in, l.out, l.weight.data(), l.bias.data(), z.data());
    return z;
}

Scenario tensor_scenario(int workers) {
    Scenario s;
    s.seed = 8;
    s.steps = 5;
    s.workers = 1;
    s.batch = 12;
    s.model = {{2, 8, 6, 5, 3}, Activation::Tanh, LossKind::SoftmaxCrossEntropy};
    s.dataset = {"spiral", "", 120, 0.05, 3};
    s.optimizer = {OptimizerKind::Sgd, 0.1, 0.9, 0.9, 0.999, 1e-8};
    s.parallelism =
        ParallelismConfig{Parallelism::Tensor, workers, 1, PipelineSchedule::FillDrain, 1};
    return s;
}

std::vector<double> unsplit_training(Scenario s) {
    s.parallelism.reset();
    const auto t = make_run(s, load_dataset(s));
    t->run_to_end();
    return t->parameters();
}

} // namespace

class TestTensorParallel : public QObject {
    Q_OBJECT

private Q_SLOTS:
    void unsplit_layer_is_the_textbook_product() {
        const Layer l = random_layer(3, 4, 2);
        const auto z = unsplit(l);
        for (std::size_t b = 0; b < l.rows; ++b)
            for (std::size_t o = 0; o < l.out; ++o) {
                double expected = l.bias[o];
                for (std::size_t i = 0; i < l.in; ++i)
                    expected += l.x[b * l.in + i] * l.weight[o * l.in + i];
                QCOMPARE(z[b * l.out + o], expected);
            }
    }

    void column_split_equals_the_unsplit_layer_data() {
        QTest::addColumn<int>("workers");
        for (int n : {1, 2, 3, 4, 7})
            QTest::newRow(qPrintable(QString("%1 workers").arg(n))) << n;
    }

    // Each output is computed whole by one worker, in the unsplit order: the same bits.
    void column_split_equals_the_unsplit_layer() {
        QFETCH(int, workers);
        const Layer l = random_layer(5, 6, 7);
        const auto expected = unsplit(l);
        const auto r = tensor_parallel_layer(TensorSplit::Columns, workers, Algorithm::Ring, l.x,
                                             l.rows, l.in, l.out, l.weight, l.bias);
        QCOMPARE(r.outputs.size(), std::size_t(workers));
        for (const auto& z : r.outputs)
            QVERIFY(std::memcmp(z.data(), expected.data(), z.size() * sizeof(double)) == 0);
        // Every worker receives every piece but its own: (N-1) x rows x out doubles in all.
        QCOMPARE(r.bytes_moved, std::int64_t((workers - 1) * 5 * 7 * 8));
        QCOMPARE(r.schedule.rounds.size(), std::size_t(workers - 1));
    }

    void row_split_equals_the_unsplit_layer_data() {
        QTest::addColumn<int>("workers");
        QTest::addColumn<Algorithm>("algorithm");
        for (int n : {1, 2, 3, 6})
            for (auto a : {Algorithm::Ring, Algorithm::Tree, Algorithm::ParameterServer})
                QTest::newRow(qPrintable(
                    QString("%1 workers %2").arg(n).arg(QString::fromUtf8(to_string(a).data()))))
                    << n << a;
    }

    // Partial sums over each worker's inputs, added by the all-reduce: equal within rounding,
    // and bitwise equal on every worker.
    void row_split_equals_the_unsplit_layer() {
        QFETCH(int, workers);
        QFETCH(Algorithm, algorithm);
        const Layer l = random_layer(5, 6, 7);
        const auto expected = unsplit(l);
        const auto r = tensor_parallel_layer(TensorSplit::Rows, workers, algorithm, l.x, l.rows,
                                             l.in, l.out, l.weight, l.bias);
        for (const auto& z : r.outputs) {
            QVERIFY(std::memcmp(z.data(), r.outputs.front().data(), z.size() * sizeof(double)) ==
                    0);
            for (std::size_t k = 0; k < z.size(); ++k)
                QVERIFY2(
                    std::fabs(z[k] - expected[k]) < 1e-12,
                    qPrintable(QString("entry %1: %2 vs %3").arg(k).arg(z[k]).arg(expected[k])));
        }
        QCOMPARE(r.bytes_moved, make_schedule(algorithm, workers, 5 * 7).total_bytes());
        if (algorithm == Algorithm::Ring)
            QCOMPARE(r.bytes_moved, std::int64_t(2 * (workers - 1) * 5 * 7 * 8));
    }

    void tensor_training_equals_unsplit_training_data() {
        QTest::addColumn<int>("workers");
        for (int n : {1, 2, 3})
            QTest::newRow(qPrintable(QString("%1 workers").arg(n))) << n;
    }

    // One worker does exactly the unsplit arithmetic; more add the input gradients' partial
    // sums in another order, so equal within rounding.
    void tensor_training_equals_unsplit_training() {
        QFETCH(int, workers);
        const Scenario s = tensor_scenario(workers);
        const auto t = make_run(s, load_dataset(s));
        t->run_to_end();
        const auto expected = unsplit_training(s);
        const auto got = t->parameters();
        QCOMPARE(got.size(), expected.size());
        double worst = 0.0, moved = 0.0;
        const auto fresh = make_run(s, load_dataset(s));
        const auto start = fresh->parameters();
        for (std::size_t k = 0; k < got.size(); ++k) {
            worst = std::max(worst, std::fabs(got[k] - expected[k]));
            moved = std::max(moved, std::fabs(start[k] - expected[k]));
        }
        if (workers == 1)
            QCOMPARE(worst, 0.0);
        QVERIFY2(worst < 1e-12, qPrintable(QString::number(worst)));
        QVERIFY(moved > 1e-3);
    }

    // Per step: an all-gather of every layer's outputs, (N-1) x rows x out doubles, and a ring
    // all-reduce of every layer's input gradient but the first, 2 (N-1) x rows x in doubles.
    void tensor_training_moves_partial_results() {
        const Scenario s = tensor_scenario(2);
        Trace trace;
        const auto t = make_run(s, load_dataset(s), &trace);
        t->run_to_end();
        const std::int64_t per_step = 1 * 12 * (8 + 6 + 5 + 3) * 8 + 2 * 1 * 12 * (8 + 6 + 5) * 8;
        QCOMPARE(t->metrics().bytes_moved, 5 * per_step);
        std::int64_t sent = 0;
        for (const auto& e : trace.events())
            sent += e.kind == EventKind::Send ? e.bytes : 0;
        QCOMPARE(sent, t->metrics().bytes_moved);
        QCOMPARE(t->metrics().bytes_moved, t->metrics().bytes_moved);
    }

    void tensor_training_is_the_same_at_any_thread_count() {
        const Scenario s = tensor_scenario(3);
        auto with_threads = [&](int threads) {
            tbb::global_control limit(tbb::global_control::max_allowed_parallelism,
                                      static_cast<std::size_t>(threads));
            const auto t = make_run(s, load_dataset(s));
            t->run_to_end();
            return t->parameters();
        };
        const auto one = with_threads(1);
        for (int threads : {2, 4}) {
            const auto many = with_threads(threads);
            QVERIFY(std::memcmp(one.data(), many.data(), one.size() * sizeof(double)) == 0);
        }
    }

    // Textbook mode: the collectives are free, and every step has one fixed communication
    // time on every lane after a barrier. The arithmetic is the same.
    void tensor_training_honours_fixed_communication() {
        const Scenario priced = tensor_scenario(3);
        Scenario textbook = priced;
        textbook.cost.communication_s_per_step = 0.25;
        Trace trace;
        const auto t = make_run(textbook, load_dataset(textbook), &trace);
        t->run_to_end();
        const auto reference = make_run(priced, load_dataset(priced));
        reference->run_to_end();
        const auto a = t->parameters(), b = reference->parameters();
        QVERIFY(std::memcmp(a.data(), b.data(), a.size() * sizeof(double)) == 0);
        std::vector<int> per_lane(3, 0);
        for (const auto& e : trace.events()) {
            if (e.kind == EventKind::Communicate) {
                QCOMPARE(e.end - e.start, to_ticks(0.25));
                ++per_lane[static_cast<std::size_t>(e.worker)];
            }
            if (e.kind == EventKind::Send || e.kind == EventKind::Receive)
                QCOMPARE(e.end, e.start);
        }
        QCOMPARE(per_lane, std::vector<int>(3, 5));
        QCOMPARE(t->metrics().bytes_moved, reference->metrics().bytes_moved);
        QVERIFY(t->metrics().total_time_s >= 5 * 0.25);
        QVERIFY(t->metrics().communication_s >= 5 * 0.25);
    }

    // Each layer's input gradient needs an all-reduce: none is refused by name, not replaced.
    void tensor_training_refuses_no_all_reduce() {
        Scenario s = tensor_scenario(2);
        s.algorithm = Algorithm::None;
        LOCKSTEP_VERIFY_CONTAINS(error_message([&] { validate(s); }),
                                 QStringLiteral("algorithm: a tensor-parallel run"));
        LOCKSTEP_VERIFY_CONTAINS(
            error_message([&] { const auto t = make_run(s, load_dataset(s)); }),
            QStringLiteral("not none"));
    }

    void too_many_workers_is_an_error() {
        const Layer l = random_layer(2, 3, 4);
        QCOMPARE(error_message([&] {
                     tensor_parallel_layer(TensorSplit::Columns, 5, Algorithm::Ring, l.x, l.rows,
                                           l.in, l.out, l.weight, l.bias);
                 }),
                 QString("tensor parallelism: 5 workers cannot share 4 output features (each "
                         "needs at least one)"));
        QVERIFY(error_message([&] {
                    tensor_parallel_layer(TensorSplit::Rows, 4, Algorithm::Ring, l.x, l.rows, l.in,
                                          l.out, l.weight, l.bias);
                }).contains("3 input features"));
        QVERIFY(error_message([&] {
                    tensor_parallel_layer(TensorSplit::Rows, 0, Algorithm::Ring, l.x, l.rows, l.in,
                                          l.out, l.weight, l.bias);
                }).contains("at least 1 worker"));
    }
};

QTEST_APPLESS_MAIN(TestTensorParallel)
#include "test_tensor_parallel.moc"
