#include "collectives/reduction.h"
#include "core/error.h"
#include "core/rng.h"
#include "test_support.h"

#include <QtTest>

#include <cmath>
#include <cstring>
#include <limits>
#include <vector>

using namespace lockstep;

Q_DECLARE_METATYPE(lockstep::ReductionRule)
Q_DECLARE_METATYPE(std::vector<double>)

using namespace lockstep::testing;

namespace {

std::vector<double> random_values(Rng& rng, std::size_t count) {
    std::vector<double> v(count);
    for (double& x : v)
        x = rng.uniform(-10.0, 10.0);
    return v;
}

} // namespace

// The reduction rules: the lesson's worked numbers, the weights each rule gives, the errors for
// unusable sample counts, and the vector reduction agreeing with the scalar one.
class TestReduction : public QObject {
    Q_OBJECT

private Q_SLOTS:
    void rule_names_data();
    void rule_names();
    void unknown_rule_name();

    void scalar_reduce_data();
    void scalar_reduce();
    void weighted_mean_differs_from_mean();

    void weights_data();
    void weights();
    void weights_sum_to_one_data();
    void weights_sum_to_one();

    void errors_data();
    void errors();

    void vector_matches_scalar_data();
    void vector_matches_scalar();
    void vector_length_mismatch_throws();

    void scale_then_accumulate_data();
    void scale_then_accumulate();
};

void TestReduction::rule_names_data() {
    QTest::addColumn<ReductionRule>("rule");
    QTest::addColumn<QString>("name");
    QTest::newRow("sum") << ReductionRule::Sum << "sum";
    QTest::newRow("mean") << ReductionRule::Mean << "mean";
    QTest::newRow("weighted-mean") << ReductionRule::WeightedMean << "weighted-mean";
}

void TestReduction::rule_names() {
    QFETCH(ReductionRule, rule);
    QFETCH(QString, name);
    QCOMPARE(QString::fromUtf8(to_string(rule).data(), qsizetype(to_string(rule).size())), name);
    // Start from a different rule so a parser that leaves `out` alone would be caught.
    ReductionRule parsed =
        rule == ReductionRule::Sum ? ReductionRule::WeightedMean : ReductionRule::Sum;
    QVERIFY(parse_reduction_rule(name.toStdString(), parsed));
    QCOMPARE(parsed, rule);
}

void TestReduction::unknown_rule_name() {
    ReductionRule out = ReductionRule::Sum;
    for (const char* text : {"median", "Mean", "", "weighted mean", "sum "}) {
        QVERIFY2(!parse_reduction_rule(text, out), text);
        QCOMPARE(out, ReductionRule::Sum);
    }
}

void TestReduction::scalar_reduce_data() {
    QTest::addColumn<ReductionRule>("rule");
    QTest::addColumn<std::vector<double>>("values");
    QTest::addColumn<std::vector<double>>("samples");
    QTest::addColumn<double>("expected");

    // The lesson's numbers: two equal workers with gradients 2 and 4.
    QTest::newRow("mean of 2 and 4")
        << ReductionRule::Mean << std::vector<double>{2, 4} << std::vector<double>{} << 3.0;
    QTest::newRow("sum of 2 and 4")
        << ReductionRule::Sum << std::vector<double>{2, 4} << std::vector<double>{} << 6.0;
    QTest::newRow("weighted-mean, equal samples")
        << ReductionRule::WeightedMean << std::vector<double>{2, 4} << std::vector<double>{10, 10}
        << 3.0;
    // Unequal shards: 30 samples with gradient 2, 10 samples with gradient 4.
    QTest::newRow("weighted-mean 30x2 and 10x4")
        << ReductionRule::WeightedMean << std::vector<double>{2, 4} << std::vector<double>{30, 10}
        << 2.5;
    QTest::newRow("mean ignores samples 30 and 10")
        << ReductionRule::Mean << std::vector<double>{2, 4} << std::vector<double>{30, 10} << 3.0;
    QTest::newRow("sum ignores samples 30 and 10")
        << ReductionRule::Sum << std::vector<double>{2, 4} << std::vector<double>{30, 10} << 6.0;
    QTest::newRow("one worker, mean")
        << ReductionRule::Mean << std::vector<double>{-7.5} << std::vector<double>{} << -7.5;
    QTest::newRow("one worker, sum")
        << ReductionRule::Sum << std::vector<double>{-7.5} << std::vector<double>{} << -7.5;
    QTest::newRow("one worker, weighted-mean")
        << ReductionRule::WeightedMean << std::vector<double>{-7.5} << std::vector<double>{3}
        << -7.5;
    QTest::newRow("four workers, sum")
        << ReductionRule::Sum << std::vector<double>{1, 2, 3, 4} << std::vector<double>{} << 10.0;
    QTest::newRow("four workers, mean")
        << ReductionRule::Mean << std::vector<double>{1, 2, 3, 4} << std::vector<double>{} << 2.5;
    QTest::newRow("four workers, weighted-mean")
        << ReductionRule::WeightedMean << std::vector<double>{1, 2, 3, 4}
        << std::vector<double>{1, 1, 1, 5} << 3.25; // (1 + 2 + 3 + 5 * 4) / 8
}

void TestReduction::scalar_reduce() {
    QFETCH(ReductionRule, rule);
    QFETCH(std::vector<double>, values);
    QFETCH(std::vector<double>, samples);
    QFETCH(double, expected);
    QCOMPARE(reduce(rule, values, samples), expected);
}

void TestReduction::weighted_mean_differs_from_mean() {
    const std::vector<double> values{2, 4};
    const std::vector<double> samples{30, 10};
    const double weighted = reduce(ReductionRule::WeightedMean, values, samples);
    const double equal = reduce(ReductionRule::Mean, values, samples);
    QCOMPARE(weighted, 2.5);
    QCOMPARE(equal, 3.0);
    QVERIFY(weighted != equal);
}

void TestReduction::weights_data() {
    QTest::addColumn<ReductionRule>("rule");
    QTest::addColumn<int>("workers");
    QTest::addColumn<std::vector<double>>("samples");
    QTest::addColumn<std::vector<double>>("expected");

    QTest::newRow("sum, 3 workers")
        << ReductionRule::Sum << 3 << std::vector<double>{} << std::vector<double>{1, 1, 1};
    QTest::newRow("mean, 4 workers") << ReductionRule::Mean << 4 << std::vector<double>{}
                                     << std::vector<double>{0.25, 0.25, 0.25, 0.25};
    QTest::newRow("weighted-mean 30 and 10")
        << ReductionRule::WeightedMean << 2 << std::vector<double>{30, 10}
        << std::vector<double>{0.75, 0.25};
    QTest::newRow("weighted-mean 1, 2, 5")
        << ReductionRule::WeightedMean << 3 << std::vector<double>{1, 2, 5}
        << std::vector<double>{1.0 / 8.0, 2.0 / 8.0, 5.0 / 8.0};
    QTest::newRow("weighted-mean fractional")
        << ReductionRule::WeightedMean << 2 << std::vector<double>{0.5, 1.5}
        << std::vector<double>{0.25, 0.75};
}

void TestReduction::weights() {
    QFETCH(ReductionRule, rule);
    QFETCH(int, workers);
    QFETCH(std::vector<double>, samples);
    QFETCH(std::vector<double>, expected);
    const auto w = reduction_weights(rule, workers, samples);
    QCOMPARE(w.size(), expected.size());
    for (std::size_t k = 0; k < w.size(); ++k)
        QCOMPARE(w[k], expected[k]);
}

void TestReduction::weights_sum_to_one_data() {
    QTest::addColumn<ReductionRule>("rule");
    QTest::addColumn<int>("workers");
    for (auto rule : {ReductionRule::Mean, ReductionRule::WeightedMean}) {
        for (int n : {1, 2, 3, 5, 7, 16, 100, 256}) {
            const QString name =
                QString::fromUtf8(to_string(rule).data(), qsizetype(to_string(rule).size()));
            QTest::addRow("%s, %d workers", qPrintable(name), n) << rule << n;
        }
    }
}

void TestReduction::weights_sum_to_one() {
    QFETCH(ReductionRule, rule);
    QFETCH(int, workers);
    Rng rng(static_cast<std::uint64_t>(workers));
    std::vector<double> samples(static_cast<std::size_t>(workers));
    for (double& s : samples)
        s = static_cast<double>(1 + rng.below(1000));
    const auto w = reduction_weights(rule, workers, samples);
    QCOMPARE(w.size(), static_cast<std::size_t>(workers));
    double total = 0.0;
    for (std::size_t k = 0; k < w.size(); ++k) {
        QVERIFY(w[k] > 0.0);
        total += w[k];
        if (rule == ReductionRule::WeightedMean) // every sample counts the same
            QVERIFY(std::abs(w[k] / samples[k] - w[0] / samples[0]) <= 1e-15);
        else
            QCOMPARE(w[k], 1.0 / workers);
    }
    QVERIFY2(std::abs(total - 1.0) <= 1e-12, qPrintable(QString::number(total, 'g', 17)));
}

void TestReduction::errors_data() {
    QTest::addColumn<ReductionRule>("rule");
    QTest::addColumn<std::vector<double>>("values");
    QTest::addColumn<std::vector<double>>("samples");
    QTest::addColumn<QString>("fragment");

    const std::vector<double> two{2, 4};
    QTest::newRow("weighted-mean without samples")
        << ReductionRule::WeightedMean << two << std::vector<double>{}
        << "one sample count (weight) per value: got 0 for 2 values";
    QTest::newRow("weighted-mean with too few samples")
        << ReductionRule::WeightedMean << two << std::vector<double>{30} << "got 1 for 2 values";
    QTest::newRow("weighted-mean with too many samples")
        << ReductionRule::WeightedMean << two << std::vector<double>{1, 2, 3}
        << "got 3 for 2 values";
    QTest::newRow("weighted-mean with a zero sample count")
        << ReductionRule::WeightedMean << two << std::vector<double>{30, 0}
        << "positive sample counts";
    QTest::newRow("weighted-mean with a negative sample count")
        << ReductionRule::WeightedMean << two << std::vector<double>{-1, 10}
        << "positive sample counts";
    QTest::newRow("weighted-mean with a NaN sample count")
        << ReductionRule::WeightedMean << two
        << std::vector<double>{std::numeric_limits<double>::quiet_NaN(), 10}
        << "positive sample counts";
    QTest::newRow("sum of no values") << ReductionRule::Sum << std::vector<double>{}
                                      << std::vector<double>{} << "at least one worker";
    QTest::newRow("mean of no values") << ReductionRule::Mean << std::vector<double>{}
                                       << std::vector<double>{} << "at least one worker";
}

void TestReduction::errors() {
    QFETCH(ReductionRule, rule);
    QFETCH(std::vector<double>, values);
    QFETCH(std::vector<double>, samples);
    QFETCH(QString, fragment);

    const QString scalar = error_message([&] { reduce(rule, values, samples); });
    QVERIFY2(scalar.contains(fragment), qPrintable(scalar));
    const QString weights =
        error_message([&] { reduction_weights(rule, static_cast<int>(values.size()), samples); });
    QVERIFY2(weights.contains(fragment), qPrintable(weights));

    std::vector<std::span<const double>> inputs;
    std::vector<std::vector<double>> storage(values.size(), std::vector<double>(3, 1.0));
    for (const auto& v : storage)
        inputs.emplace_back(v);
    std::vector<double> out(3);
    const QString vector = error_message([&] { reduce(rule, inputs, samples, out); });
    QVERIFY2(vector.contains(fragment), qPrintable(vector));
}

void TestReduction::vector_matches_scalar_data() {
    QTest::addColumn<ReductionRule>("rule");
    QTest::addColumn<int>("workers");
    QTest::addColumn<int>("length");
    for (auto rule : {ReductionRule::Sum, ReductionRule::Mean, ReductionRule::WeightedMean}) {
        const QString name =
            QString::fromUtf8(to_string(rule).data(), qsizetype(to_string(rule).size()));
        for (int n : {1, 2, 3, 8, 17}) {
            for (int length : {1, 7, 100})
                QTest::addRow("%s, %d workers, length %d", qPrintable(name), n, length)
                    << rule << n << length;
        }
    }
}

void TestReduction::vector_matches_scalar() {
    QFETCH(ReductionRule, rule);
    QFETCH(int, workers);
    QFETCH(int, length);
    Rng rng(static_cast<std::uint64_t>(workers * 1000 + length));
    const auto n = static_cast<std::size_t>(workers);
    const auto len = static_cast<std::size_t>(length);

    std::vector<std::vector<double>> storage;
    std::vector<std::span<const double>> inputs;
    for (std::size_t k = 0; k < n; ++k)
        storage.push_back(random_values(rng, len));
    for (const auto& v : storage)
        inputs.emplace_back(v);
    std::vector<double> samples(n);
    for (std::size_t k = 0; k < n; ++k)
        samples[k] = static_cast<double>(k + 1);

    std::vector<double> out(len, std::numeric_limits<double>::quiet_NaN());
    reduce(rule, inputs, samples, out);

    const auto weights = reduction_weights(rule, workers, samples);
    std::vector<double> column(n);
    for (std::size_t i = 0; i < len; ++i) {
        double by_hand = 0.0;
        for (std::size_t k = 0; k < n; ++k) {
            column[k] = storage[k][i];
            by_hand += weights[k] * storage[k][i];
        }
        const double scalar = reduce(rule, column, samples);
        // Same rule, same order of additions: bit for bit.
        if (std::memcmp(&out[i], &scalar, sizeof(double)) != 0)
            QFAIL(qPrintable(QStringLiteral("entry %1: %2 vs %3")
                                 .arg(i)
                                 .arg(out[i], 0, 'g', 17)
                                 .arg(scalar, 0, 'g', 17)));
        QCOMPARE(out[i], by_hand);
    }
}

void TestReduction::vector_length_mismatch_throws() {
    const std::vector<double> a{1, 2, 3};
    const std::vector<double> b{1, 2};
    const std::vector<std::span<const double>> inputs{a, b};
    std::vector<double> out(3);
    const QString msg = error_message([&] { reduce(ReductionRule::Sum, inputs, {}, out); });
    QVERIFY2(msg.contains("every input must have the output's length"), qPrintable(msg));
}

void TestReduction::scale_then_accumulate_data() {
    QTest::addColumn<ReductionRule>("rule");
    QTest::newRow("sum") << ReductionRule::Sum;
    QTest::newRow("mean") << ReductionRule::Mean;
    QTest::newRow("weighted-mean") << ReductionRule::WeightedMean;
}

// The two halves a collective uses (scale, then add in worker order) give the reference exactly.
void TestReduction::scale_then_accumulate() {
    QFETCH(ReductionRule, rule);
    Rng rng(99);
    const std::vector<double> samples{30, 10, 5, 1};
    std::vector<std::vector<double>> storage;
    std::vector<std::span<const double>> inputs;
    for (int k = 0; k < 4; ++k)
        storage.push_back(random_values(rng, 33));
    for (const auto& v : storage)
        inputs.emplace_back(v);
    std::vector<double> reference(33);
    reduce(rule, inputs, samples, reference);

    const auto weights = reduction_weights(rule, 4, samples);
    std::vector<std::vector<double>> scaled = storage;
    for (std::size_t k = 0; k < 4; ++k)
        scale_contribution(scaled[k], weights[k]);
    for (std::size_t k = 1; k < 4; ++k)
        accumulate(scaled[0], scaled[k]);
    QVERIFY(std::memcmp(scaled[0].data(), reference.data(), 33 * sizeof(double)) == 0);
    if (rule != ReductionRule::Sum)
        QVERIFY(scaled[1] != storage[1]); // scaling really changed the buffer
}

QTEST_APPLESS_MAIN(TestReduction)
#include "test_reduction.moc"
