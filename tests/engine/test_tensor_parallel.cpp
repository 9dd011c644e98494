#include "lockstep/collective.h"
#include "lockstep/error.h"
#include "lockstep/model.h"
#include "lockstep/rng.h"
#include "lockstep/tensor.h"

#include <QtTest>

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
