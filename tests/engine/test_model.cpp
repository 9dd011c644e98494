#include "core/error.h"
#include "core/rng.h"
#include "model/kernels.h"
#include "model/model.h"
#include "model/optimizer.h"
#include "model/simd.h"

#include <QtTest>

#include <algorithm>
#include <bit>
#include <cmath>
#include <cstring>
#include <limits>
#include <vector>

using namespace lockstep;

Q_DECLARE_METATYPE(lockstep::Activation)
Q_DECLARE_METATYPE(lockstep::LossKind)

namespace {

// The message of the lockstep::Error that `f` throws, or an empty string if it throws none.
template <class F> QString error_of(F&& f) {
    try {
        f();
    } catch (const Error& e) {
        return QString::fromStdString(e.what());
    }
    return {};
}

ModelShape make_shape(const QList<int>& layers, Activation activation, LossKind loss) {
    ModelShape shape;
    shape.layers.assign(layers.begin(), layers.end());
    shape.activation = activation;
    shape.loss = loss;
    return shape;
}

// A batch with normal features and targets fitting the loss: class indices or normal values.
struct OwnedBatch {
    std::vector<double> features;
    std::vector<double> targets;
    BatchView view() const { return {features.data(), targets.data(), targets.size()}; }
};

OwnedBatch random_batch(const ModelShape& shape, std::size_t rows, Rng& rng) {
    OwnedBatch batch;
    batch.features.resize(rows * static_cast<std::size_t>(shape.inputs()));
    for (double& x : batch.features)
        x = rng.normal();
    batch.targets.resize(rows);
    for (double& t : batch.targets)
        t = shape.loss == LossKind::SoftmaxCrossEntropy
                ? static_cast<double>(rng.below(static_cast<std::size_t>(shape.outputs())))
                : rng.normal();
    return batch;
}

bool bitwise_equal(const std::vector<double>& a, const std::vector<double>& b) {
    return a.size() == b.size() && std::memcmp(a.data(), b.data(), a.size() * sizeof(double)) == 0;
}

// The 2-input, 2-output linear network used for hand-computed values:
// W = [[1, 2], [3, 4]], b = [0.5, -0.5].
std::vector<double> tiny_linear_parameters() {
    return {1.0, 2.0, 3.0, 4.0, 0.5, -0.5};
}

} // namespace

// The MLP (forward, backward, parameter files), the optimizers and the random-number generator.
class TestModel : public QObject {
    Q_OBJECT

private Q_SLOTS:
    void everySimdPathGivesTheSameProducts();
    void everySimdPathGivesTheSameElementwiseResults();
    void lossMatchesLibmOnEveryPath();
    void buffersStartOnACacheLine();
    void float32KernelsGiveOneSetOfBitsOnEveryPath();
    void float32PassIsAFloatPassCloseToFloat64();
    void bothFormsOfTheForwardProductGiveTheSameBits();
    void everySimdPathTrainsToTheSameBits_data();
    void everySimdPathTrainsToTheSameBits();
    void simdPathsAreNamed();
    void shapeOffsetsFollowTorchLayout();
    void gradientMatchesFiniteDifferences_data();
    void gradientMatchesFiniteDifferences();
    void tinyNetworkLossMatchesHandComputation_data();
    void tinyNetworkLossMatchesHandComputation();
    void tinyNetworkGradientMatchesHandComputation();
    void hiddenLayerLossMatchesHandComputation();
    void batchGradientIsMeanOfRowGradients();
    void evaluateMatchesLossAndGradient_data();
    void evaluateMatchesLossAndGradient();
    void repeatedCallsAreBitwiseEqualAndReuseWorkspace();
    void predictGivesLogits();
    void activationsMatchLibm_data();
    void activationsMatchLibm();
    void badInputsAreErrors_data();
    void badInputsAreErrors();
    void initParametersFollowTorchBounds();

    void sgdMomentumTwoStepsByHand();
    void adamFirstStepMovesByLearningRate_data();
    void adamFirstStepMovesByLearningRate();
    void adamSecondStepByHand();
    void optimizerRejectsBadConfigAndSizes_data();
    void optimizerRejectsBadConfigAndSizes();
    void namesRoundTrip();

    void parametersJsonRoundTripIsBitwise();
    void parametersJsonErrorsNameTheLayer_data();
    void parametersJsonErrorsNameTheLayer();
    void nonFiniteParametersAreNotSaved();

    void hashDiffersWhenOneBitFlips_data();
    void hashDiffersWhenOneBitFlips();
    void hashIsFnv1aOfTheWords();

    void rngMatchesReferenceXoshiro();
    void rngSameSeedSameSequence();
    void rngStreamsDiffer_data();
    void rngStreamsDiffer();
    void rngSetStateReplays();
    void rngBelowStaysInBounds_data();
    void rngBelowStaysInBounds();
    void rngUniformAndNormalMoments();
};

void TestModel::shapeOffsetsFollowTorchLayout() {
    ModelShape shape;
    shape.layers = {2, 64, 64, 2};
    QCOMPARE(shape.parameter_count(), std::size_t(2 * 64 + 64 + 64 * 64 + 64 + 64 * 2 + 2));
    QCOMPARE(shape.weight_offset(0), std::size_t(0));
    QCOMPARE(shape.bias_offset(0), std::size_t(128));
    QCOMPARE(shape.weight_offset(1), std::size_t(192));
    QCOMPARE(shape.bias_offset(1), std::size_t(192 + 4096));
    QCOMPARE(shape.weight_offset(2), std::size_t(192 + 4096 + 64));
    QCOMPARE(shape.widest(), std::size_t(64));
    QCOMPARE(shape.layer_count(), std::size_t(3));
}

void TestModel::gradientMatchesFiniteDifferences_data() {
    QTest::addColumn<QList<int>>("layers");
    QTest::addColumn<Activation>("activation");
    QTest::addColumn<LossKind>("loss");
    QTest::addColumn<int>("rows");

    const std::pair<const char*, Activation> activations[] = {{"tanh", Activation::Tanh},
                                                              {"relu", Activation::Relu},
                                                              {"sigmoid", Activation::Sigmoid},
                                                              {"linear", Activation::Linear}};
    for (const auto& [name, activation] : activations) {
        QTest::addRow("%s/cross-entropy 3,5,4,3", name)
            << QList<int>{3, 5, 4, 3} << activation << LossKind::SoftmaxCrossEntropy << 7;
        QTest::addRow("%s/mse 3,5,1", name)
            << QList<int>{3, 5, 1} << activation << LossKind::MeanSquaredError << 7;
        QTest::addRow("%s/mse 3,5,4,1", name)
            << QList<int>{3, 5, 4, 1} << activation << LossKind::MeanSquaredError << 7;
    }
    // Widths that use every block size of the matrix kernels (8, 2 and 1 columns).
    QTest::addRow("tanh/cross-entropy odd widths")
        << QList<int>{3, 11, 9, 3} << Activation::Tanh << LossKind::SoftmaxCrossEntropy << 7;
    // Several outputs under MSE: each output is compared with the row's one target.
    QTest::addRow("sigmoid/mse two outputs")
        << QList<int>{3, 6, 2} << Activation::Sigmoid << LossKind::MeanSquaredError << 5;
    // More rows than one internal chunk, so the gradient is summed across chunks.
    QTest::addRow("tanh/cross-entropy 300 rows")
        << QList<int>{2, 6, 3} << Activation::Tanh << LossKind::SoftmaxCrossEntropy << 300;
    QTest::addRow("relu/mse 300 rows")
        << QList<int>{2, 6, 1} << Activation::Relu << LossKind::MeanSquaredError << 300;
}

void TestModel::gradientMatchesFiniteDifferences() {
    QFETCH(QList<int>, layers);
    QFETCH(Activation, activation);
    QFETCH(LossKind, loss);
    QFETCH(int, rows);

    const ModelShape shape = make_shape(layers, activation, loss);
    Rng rng(2024);
    std::vector<double> params(shape.parameter_count());
    for (double& p : params)
        p = rng.uniform(-1.0, 1.0);
    const OwnedBatch batch = random_batch(shape, static_cast<std::size_t>(rows), rng);

    Workspace work;
    std::vector<double> gradient(params.size());
    const LossResult result = loss_and_gradient(shape, params, batch.view(), gradient, work);
    QVERIFY(std::isfinite(result.loss));
    QCOMPARE(result.count, std::size_t(rows));

    const double h = 1e-6;
    double largest = 0.0;
    for (std::size_t k = 0; k < params.size(); ++k) {
        std::vector<double> shifted = params;
        shifted[k] = params[k] + h;
        const double up = evaluate(shape, shifted, batch.view(), work).loss;
        shifted[k] = params[k] - h;
        const double down = evaluate(shape, shifted, batch.view(), work).loss;
        const double numeric = (up - down) / (2.0 * h);
        const double tolerance = 1e-7 + 1e-5 * std::fabs(numeric);
        QVERIFY2(std::fabs(gradient[k] - numeric) <= tolerance,
                 qPrintable(QStringLiteral("parameter %1: backward %2, finite difference %3")
                                .arg(k)
                                .arg(gradient[k], 0, 'g', 12)
                                .arg(numeric, 0, 'g', 12)));
        largest = std::max(largest, std::fabs(gradient[k]));
    }
    // A gradient of zeros would pass trivially against a flat loss; make sure it is not one.
    QVERIFY(largest > 1e-3);
}

void TestModel::tinyNetworkLossMatchesHandComputation_data() {
    QTest::addColumn<LossKind>("loss");
    QTest::addColumn<double>("target0");
    QTest::addColumn<double>("target1");
    QTest::addColumn<double>("expected");
    QTest::addColumn<int>("correct");

    // Rows x = (1, -1) and (0.5, 0.25) give logits (-0.5, -1.5) and (1.5, 2.0).
    // Cross-entropy: row 0, label 0: log(1 + e^-1) = 0.31326168751822286;
    // row 1, label 1: log(1 + e^-0.5) = 0.4740769841801067; label 0: log(1 + e^0.5).
    QTest::newRow("cross-entropy, both right")
        << LossKind::SoftmaxCrossEntropy << 0.0 << 1.0
        << (0.31326168751822286 + 0.4740769841801067) / 2.0 << 2;
    QTest::newRow("cross-entropy, second wrong")
        << LossKind::SoftmaxCrossEntropy << 0.0 << 0.0
        << (0.31326168751822286 + 0.9740769841801067) / 2.0 << 1;
    // MSE over rows and outputs: ((-0.5)^2 + (-1.5)^2 + 0.5^2 + 1^2) / 4 = 3.75 / 4.
    QTest::newRow("mse") << LossKind::MeanSquaredError << 0.0 << 1.0 << 0.9375 << 0;
}

void TestModel::tinyNetworkLossMatchesHandComputation() {
    QFETCH(LossKind, loss);
    QFETCH(double, target0);
    QFETCH(double, target1);
    QFETCH(double, expected);
    QFETCH(int, correct);

    const ModelShape shape = make_shape({2, 2}, Activation::Tanh, loss);
    const std::vector<double> params = tiny_linear_parameters();
    const std::vector<double> features{1.0, -1.0, 0.5, 0.25};
    const std::vector<double> targets{target0, target1};
    Workspace work;
    const LossResult result = evaluate(shape, params, {features.data(), targets.data(), 2}, work);
    QVERIFY2(std::fabs(result.loss - expected) <= 1e-15,
             qPrintable(QString::number(result.loss, 'g', 17)));
    QCOMPARE(result.correct, std::size_t(correct));
    QCOMPARE(result.count, std::size_t(2));
}

void TestModel::tinyNetworkGradientMatchesHandComputation() {
    // MSE on the tiny network, targets 0 and 1: d(loss)/dz = 2 (z - t) / 4 per entry, so
    // dz = [[-0.25, -0.75], [0.25, 0.5]]; dW[o][i] = sum_b dz[b][o] x[b][i]; db[o] = sum_b
    // dz[b][o].
    const ModelShape shape = make_shape({2, 2}, Activation::Tanh, LossKind::MeanSquaredError);
    const std::vector<double> params = tiny_linear_parameters();
    const std::vector<double> features{1.0, -1.0, 0.5, 0.25};
    const std::vector<double> targets{0.0, 1.0};
    Workspace work;
    std::vector<double> gradient(params.size(), 99.0);
    loss_and_gradient(shape, params, {features.data(), targets.data(), 2}, gradient, work);
    const std::vector<double> expected{-0.25 + 0.125, 0.25 + 0.0625, // dW row 0
                                       -0.75 + 0.25,  0.75 + 0.125,  // dW row 1
                                       0.0,           -0.25};        // db
    QVERIFY(bitwise_equal(gradient, expected));
}

void TestModel::hiddenLayerLossMatchesHandComputation() {
    // 1 -> 1 (tanh) -> 1: w1 = 2, b1 = 0, w2 = 3, b2 = 1, x = 0.5: out = 1 + 3 tanh(1).
    const ModelShape shape = make_shape({1, 1, 1}, Activation::Tanh, LossKind::MeanSquaredError);
    const std::vector<double> params{2.0, 0.0, 3.0, 1.0};
    const double x = 0.5;
    const double target = 3.0;
    Workspace work;
    const LossResult result = evaluate(shape, params, {&x, &target, 1}, work);
    QVERIFY2(std::fabs(result.loss - 0.08110105400458666) <= 1e-15,
             qPrintable(QString::number(result.loss, 'g', 17)));
}

void TestModel::batchGradientIsMeanOfRowGradients() {
    // The reported gradient is of the mean loss: two rows give the mean of their gradients.
    const ModelShape shape =
        make_shape({3, 5, 4, 3}, Activation::Tanh, LossKind::SoftmaxCrossEntropy);
    Rng rng(5);
    const std::vector<double> params = init_parameters(shape, rng);
    const OwnedBatch batch = random_batch(shape, 2, rng);
    Workspace work;
    std::vector<double> both(params.size());
    std::vector<double> first(params.size());
    std::vector<double> second(params.size());
    loss_and_gradient(shape, params, batch.view(), both, work);
    loss_and_gradient(shape, params, {batch.features.data(), batch.targets.data(), 1}, first, work);
    loss_and_gradient(shape, params, {batch.features.data() + 3, batch.targets.data() + 1, 1},
                      second, work);
    for (std::size_t k = 0; k < params.size(); ++k)
        QVERIFY2(std::fabs(both[k] - (first[k] + second[k]) / 2.0) <= 1e-15,
                 qPrintable(QString::number(k)));
}

void TestModel::evaluateMatchesLossAndGradient_data() {
    QTest::addColumn<LossKind>("loss");
    QTest::addColumn<int>("rows");
    QTest::newRow("cross-entropy 32 rows") << LossKind::SoftmaxCrossEntropy << 32;
    QTest::newRow("cross-entropy 1000 rows") << LossKind::SoftmaxCrossEntropy << 1000;
    QTest::newRow("mse 257 rows") << LossKind::MeanSquaredError << 257;
}

void TestModel::evaluateMatchesLossAndGradient() {
    QFETCH(LossKind, loss);
    QFETCH(int, rows);
    const ModelShape shape = make_shape({2, 9, 3}, Activation::Tanh, loss);
    Rng rng(11);
    const std::vector<double> params = init_parameters(shape, rng);
    const OwnedBatch batch = random_batch(shape, static_cast<std::size_t>(rows), rng);
    Workspace work;
    std::vector<double> gradient(params.size());
    const LossResult full = loss_and_gradient(shape, params, batch.view(), gradient, work);
    const LossResult only = evaluate(shape, params, batch.view(), work);
    QCOMPARE(std::bit_cast<std::uint64_t>(only.loss), std::bit_cast<std::uint64_t>(full.loss));
    QCOMPARE(only.correct, full.correct);

    // Independent check of the loss and the count of correct rows, one row at a time.
    double sum = 0.0;
    std::size_t correct = 0;
    std::vector<double> logits(3);
    for (int b = 0; b < rows; ++b) {
        predict(shape, params, batch.features.data() + 2 * b, 1, logits, work);
        const double target = batch.targets[static_cast<std::size_t>(b)];
        if (loss == LossKind::SoftmaxCrossEntropy) {
            const double top = *std::max_element(logits.begin(), logits.end());
            double s = 0.0;
            for (double z : logits)
                s += std::exp(z - top);
            sum += std::log(s) + top - logits[static_cast<std::size_t>(target)];
            const auto arg = std::max_element(logits.begin(), logits.end()) - logits.begin();
            correct += arg == static_cast<long>(target) ? 1 : 0;
        } else {
            for (double z : logits)
                sum += (z - target) * (z - target) / 3.0;
        }
    }
    QVERIFY(std::fabs(full.loss - sum / rows) <= 1e-12);
    QCOMPARE(full.correct, correct);
    if (loss == LossKind::SoftmaxCrossEntropy)
        QVERIFY(correct > 0);
}

void TestModel::repeatedCallsAreBitwiseEqualAndReuseWorkspace() {
    ModelShape shape;
    shape.layers = {2, 64, 64, 2};
    Rng rng(3);
    const std::vector<double> params = init_parameters(shape, rng);
    const OwnedBatch batch = random_batch(shape, 32, rng);
    Workspace work;
    std::vector<double> first(params.size());
    std::vector<double> second(params.size());
    loss_and_gradient(shape, params, batch.view(), first, work);
    const double* activations = work.activations.data();
    const double* deltas = work.deltas.data();
    const double* scratch = work.scratch.data();
    loss_and_gradient(shape, params, batch.view(), second, work);
    QVERIFY(bitwise_equal(first, second));
    // Same buffers: the second step allocated nothing.
    QCOMPARE(work.activations.data(), activations);
    QCOMPARE(work.deltas.data(), deltas);
    QCOMPARE(work.scratch.data(), scratch);
    // A fresh workspace gives the same bits too.
    Workspace other;
    loss_and_gradient(shape, params, batch.view(), second, other);
    QVERIFY(bitwise_equal(first, second));
}

void TestModel::predictGivesLogits() {
    const ModelShape shape = make_shape({2, 2}, Activation::Tanh, LossKind::SoftmaxCrossEntropy);
    const std::vector<double> params = tiny_linear_parameters();
    const std::vector<double> features{1.0, -1.0, 0.5, 0.25};
    std::vector<double> out(4);
    Workspace work;
    predict(shape, params, features.data(), 2, out, work);
    QVERIFY(bitwise_equal(out, {-0.5, -1.5, 1.5, 2.0}));
}

void TestModel::activationsMatchLibm_data() {
    QTest::addColumn<Activation>("activation");
    QTest::newRow("tanh") << Activation::Tanh;
    QTest::newRow("relu") << Activation::Relu;
    QTest::newRow("sigmoid") << Activation::Sigmoid;
    QTest::newRow("linear") << Activation::Linear;
}

void TestModel::activationsMatchLibm() {
    // 1 -> 1 -> 1 with unit weights and zero biases: the output is the activation itself.
    QFETCH(Activation, activation);
    const ModelShape shape = make_shape({1, 1, 1}, activation, LossKind::MeanSquaredError);
    const std::vector<double> params{1.0, 0.0, 1.0, 0.0};
    std::vector<double> xs{0.0,    -0.0,   1e-300, -1e-300, 1e-8, 0.1,    -0.25,
                           0.3465, 0.3466, 0.5,    -0.75,   1.0,  2.5,    -3.0,
                           7.0,    19.9,   -20.0,  20.5,    40.0, -700.0, 1e300};
    Rng rng(9);
    for (int k = 0; k < 2000; ++k)
        xs.push_back(rng.uniform(-1.0, 1.0) * std::pow(10.0, rng.uniform(-6.0, 1.5)));
    std::vector<double> out(xs.size());
    Workspace work;
    predict(shape, params, xs.data(), xs.size(), out, work);
    for (std::size_t k = 0; k < xs.size(); ++k) {
        const double x = xs[k];
        double expected = x;
        double ulps = 0.0;
        switch (activation) {
        case Activation::Tanh:
            expected = std::tanh(x);
            ulps = 4.0; // our vectorisable tanh is within a few ulp of libm's
            break;
        case Activation::Relu:
            expected = x > 0.0 ? x : 0.0;
            break;
        case Activation::Sigmoid:
            expected = 1.0 / (1.0 + std::exp(-x));
            break;
        case Activation::Linear:
            break;
        }
        const double ulp = std::nextafter(std::fabs(expected), HUGE_VAL) - std::fabs(expected);
        QVERIFY2(std::fabs(out[k] - expected) <= ulps * ulp,
                 qPrintable(QStringLiteral("x = %1: got %2, expected %3")
                                .arg(x, 0, 'g', 17)
                                .arg(out[k], 0, 'g', 17)
                                .arg(expected, 0, 'g', 17)));
        if (activation == Activation::Tanh && expected != 0.0)
            QCOMPARE(std::signbit(out[k]), std::signbit(expected));
    }
    if (activation == Activation::Tanh) {
        const double nan = std::numeric_limits<double>::quiet_NaN();
        predict(shape, params, &nan, 1, out, work);
        QVERIFY(std::isnan(out[0]));
    }
}

void TestModel::badInputsAreErrors_data() {
    QTest::addColumn<int>("which");
    QTest::addColumn<QString>("mentions");
    QTest::newRow("too few parameters") << 0 << "parameters";
    QTest::newRow("gradient of the wrong size") << 1 << "gradient";
    QTest::newRow("label out of range") << 2 << "row 1";
    QTest::newRow("fractional label") << 3 << "row 0";
    QTest::newRow("single layer width") << 4 << "input and an output";
    QTest::newRow("zero-width layer") << 5 << "layers[1]";
    QTest::newRow("empty batch") << 6 << "empty";
    QTest::newRow("prediction buffer too small") << 7 << "prediction buffer";
}

void TestModel::badInputsAreErrors() {
    QFETCH(int, which);
    QFETCH(QString, mentions);
    ModelShape shape = make_shape({2, 3, 3}, Activation::Tanh, LossKind::SoftmaxCrossEntropy);
    Rng rng(1);
    std::vector<double> params = init_parameters(shape, rng);
    std::vector<double> gradient(params.size());
    std::vector<double> features{0.1, 0.2, 0.3, 0.4};
    std::vector<double> targets{0.0, 2.0};
    std::vector<double> out(6);
    Workspace work;
    switch (which) {
    case 0:
        params.pop_back();
        break;
    case 1:
        gradient.push_back(0.0);
        break;
    case 2:
        targets[1] = 3.0;
        break;
    case 3:
        targets[0] = 1.5;
        break;
    case 4:
        shape.layers = {2};
        break;
    case 5:
        shape.layers = {2, 0, 3};
        break;
    case 6:
        targets.clear();
        break;
    case 7:
        out.resize(3);
        break;
    }
    const QString message = error_of([&] {
        const BatchView batch{features.data(), targets.data(), targets.size()};
        if (which == 7)
            predict(shape, params, features.data(), 2, out, work);
        else
            loss_and_gradient(shape, params, batch, gradient, work);
    });
    QVERIFY2(message.contains(mentions), qPrintable(message));
}

void TestModel::initParametersFollowTorchBounds() {
    ModelShape shape;
    shape.layers = {4, 16, 3};
    Rng rng(21);
    const std::vector<double> params = init_parameters(shape, rng);
    QCOMPARE(params.size(), shape.parameter_count());
    for (std::size_t l = 0; l < shape.layer_count(); ++l) {
        const double bound = 1.0 / std::sqrt(static_cast<double>(shape.layers[l]));
        const std::size_t end =
            l + 1 < shape.layer_count() ? shape.weight_offset(l + 1) : params.size();
        double largest = 0.0;
        for (std::size_t k = shape.weight_offset(l); k < end; ++k) {
            QVERIFY(std::fabs(params[k]) <= bound);
            largest = std::max(largest, std::fabs(params[k]));
        }
        QVERIFY(largest > 0.8 * bound); // spread over the range, not squeezed near zero
    }
    Rng again(21);
    QVERIFY(bitwise_equal(init_parameters(shape, again), params));
}

void TestModel::sgdMomentumTwoStepsByHand() {
    // lr 0.1, momentum 0.9. Parameter 0: g = 0.5 then -0.25: v = 0.5, p = 1 - 0.05 = 0.95;
    // v = 0.45 - 0.25 = 0.2, p = 0.95 - 0.02 = 0.93. Parameter 1: g = -1 twice from 2:
    // v = -1, p = 2.1; v = -1.9, p = 2.29.
    OptimizerConfig config;
    config.kind = OptimizerKind::Sgd;
    config.learning_rate = 0.1;
    config.momentum = 0.9;
    Optimizer optimizer(config, 2);
    QCOMPARE(optimizer.state().velocity.size(), std::size_t(2));
    QVERIFY(optimizer.state().first_moment.empty());
    std::vector<double> params{1.0, 2.0};
    optimizer.apply(params, std::vector<double>{0.5, -1.0});
    QVERIFY(std::fabs(params[0] - 0.95) <= 1e-15);
    QVERIFY(std::fabs(params[1] - 2.1) <= 1e-15);
    optimizer.apply(params, std::vector<double>{-0.25, -1.0});
    QVERIFY2(std::fabs(params[0] - 0.93) <= 1e-15, qPrintable(QString::number(params[0], 'g', 17)));
    QVERIFY2(std::fabs(params[1] - 2.29) <= 1e-15, qPrintable(QString::number(params[1], 'g', 17)));
    QVERIFY(std::fabs(optimizer.state().velocity[0] - 0.2) <= 1e-15);
    QVERIFY(std::fabs(optimizer.state().velocity[1] + 1.9) <= 1e-15);
    QCOMPARE(optimizer.state().step, std::int64_t(2));
}

void TestModel::adamFirstStepMovesByLearningRate_data() {
    QTest::addColumn<double>("gradient");
    QTest::newRow("0.5") << 0.5;
    QTest::newRow("-3") << -3.0;
    QTest::newRow("1e-3") << 1e-3;
    QTest::newRow("-1e3") << -1e3;
}

void TestModel::adamFirstStepMovesByLearningRate() {
    // Bias correction makes the first step lr * g / (|g| + eps): about lr against the sign of g,
    // whatever the gradient's size.
    QFETCH(double, gradient);
    OptimizerConfig config;
    config.kind = OptimizerKind::Adam;
    config.learning_rate = 0.01;
    Optimizer optimizer(config, 2);
    std::vector<double> params{1.0, -2.0};
    optimizer.apply(params, std::vector<double>{gradient, 0.0});
    const double moved = params[0] - 1.0;
    QVERIFY2(std::fabs(moved + 0.01 * (gradient > 0 ? 1.0 : -1.0)) <= 0.01 * 1e-4,
             qPrintable(QString::number(moved, 'g', 17)));
    QCOMPARE(params[1], -2.0); // a zero gradient does not move its parameter
    QCOMPARE(optimizer.state().step, std::int64_t(1));
    QCOMPARE(optimizer.state().second_moment.size(), std::size_t(2));
    QVERIFY(optimizer.state().velocity.empty());
}

void TestModel::adamSecondStepByHand() {
    // lr 0.1, beta1 0.9, beta2 0.999, eps 1e-8, p = 1, g = 0.5 then -0.25, worked in exact
    // decimals: step 1: m = 0.05, v = 0.00025, p = 1 - 0.1 * 0.5 / (0.5 + 1e-8) =
    // 0.900000001999999960... step 2: m = 0.02, v = 0.00031225, mhat = 0.02 / 0.19, vhat =
    // 0.00031225 / 0.001999,
    //         p = 0.873366298707846162...
    OptimizerConfig config;
    config.kind = OptimizerKind::Adam;
    config.learning_rate = 0.1;
    Optimizer optimizer(config, 1);
    std::vector<double> params{1.0};
    optimizer.apply(params, std::vector<double>{0.5});
    QVERIFY(std::fabs(params[0] - 0.90000000199999996) <= 1e-15);
    optimizer.apply(params, std::vector<double>{-0.25});
    QVERIFY2(std::fabs(params[0] - 0.87336629870784616) <= 1e-14,
             qPrintable(QString::number(params[0], 'g', 17)));
    QVERIFY(std::fabs(optimizer.state().first_moment[0] - 0.02) <= 1e-16);
    QVERIFY(std::fabs(optimizer.state().second_moment[0] - 0.00031225) <= 1e-18);
    QCOMPARE(optimizer.state().step, std::int64_t(2));
}

void TestModel::optimizerRejectsBadConfigAndSizes_data() {
    QTest::addColumn<int>("which");
    QTest::addColumn<QString>("mentions");
    QTest::newRow("beta1 = 1") << 0 << "beta1";
    QTest::newRow("negative learning rate") << 1 << "learning_rate";
    QTest::newRow("gradient size") << 2 << "gradient";
    QTest::newRow("restored state size") << 3 << "velocity";
    QTest::newRow("zero epsilon") << 4 << "epsilon";
}

void TestModel::optimizerRejectsBadConfigAndSizes() {
    QFETCH(int, which);
    QFETCH(QString, mentions);
    const QString message = error_of([&] {
        OptimizerConfig config;
        config.kind = which == 0 || which == 4 ? OptimizerKind::Adam : OptimizerKind::Sgd;
        if (which == 0)
            config.beta1 = 1.0;
        if (which == 1)
            config.learning_rate = -0.1;
        if (which == 4)
            config.epsilon = 0.0;
        Optimizer optimizer(config, 3);
        if (which == 3)
            optimizer.state().velocity.resize(2);
        std::vector<double> params(3, 1.0);
        optimizer.apply(params, std::vector<double>(which == 2 ? 4 : 3, 0.1));
    });
    QVERIFY2(message.contains(mentions), qPrintable(message));
}

void TestModel::namesRoundTrip() {
    for (Activation a :
         {Activation::Tanh, Activation::Relu, Activation::Sigmoid, Activation::Linear}) {
        Activation parsed = a == Activation::Tanh ? Activation::Relu : Activation::Tanh;
        QVERIFY(parse_activation(to_string(a), parsed));
        QCOMPARE(parsed, a);
    }
    Activation unused = Activation::Tanh;
    QVERIFY(!parse_activation("softplus", unused));
    QVERIFY(to_string(Activation::Relu) == "relu");
    QVERIFY(to_string(OptimizerKind::Adam) == "adam");
    OptimizerKind kind = OptimizerKind::Sgd;
    QVERIFY(parse_optimizer("adam", kind));
    QCOMPARE(kind, OptimizerKind::Adam);
    QVERIFY(parse_optimizer(to_string(OptimizerKind::Sgd), kind));
    QCOMPARE(kind, OptimizerKind::Sgd);
    QVERIFY(!parse_optimizer("rmsprop", kind));
}

void TestModel::parametersJsonRoundTripIsBitwise() {
    ModelShape shape;
    shape.layers = {3, 7, 2};
    Rng rng(77);
    std::vector<double> params = init_parameters(shape, rng);
    // Values that a lossy printer would damage.
    params[0] = 0.1;
    params[1] = 1.0 / 3.0;
    params[2] = -0.0;
    params[3] = 5e-324;
    params[4] = 1.7976931348623157e308;
    params[5] = -123456789.123456789;
    const std::string json = parameters_to_json(shape, params);
    QVERIFY(json.find("\"layers\"") != std::string::npos);
    const std::vector<double> back = parameters_from_json(shape, json);
    QVERIFY(bitwise_equal(back, params));
    QCOMPARE(hash_parameters(back), hash_parameters(params));
}

void TestModel::parametersJsonErrorsNameTheLayer_data() {
    // Shape 2,3,2: layers[0] has a 3x2 weight and 3 biases, layers[1] a 2x3 weight and 2 biases.
    QTest::addColumn<QString>("json");
    QTest::addColumn<QString>("mentions");
    const QString layer0 = R"({"weight":[[1,2],[3,4],[5,6]],"bias":[0,0,0]})";
    const QString layer1 = R"({"weight":[[1,2,3],[4,5,6]],"bias":[0,0]})";
    QTest::newRow("valid") << QString(R"({"layers":[%1,%2]})").arg(layer0, layer1) << QString();
    QTest::newRow("wrong layer count")
        << QString(R"({"layers":[%1]})").arg(layer0) << "\"layers\" has 1 layers, the model has 2";
    QTest::newRow("wrong row length")
        << QString(R"({"layers":[%1,{"weight":[[1,2,3],[4,5]],"bias":[0,0]}]})").arg(layer0)
        << "layers[1].weight[1] has 2 entries, expected 3";
    QTest::newRow("wrong row count")
        << QString(R"({"layers":[{"weight":[[1,2],[3,4]],"bias":[0,0,0]},%1]})").arg(layer1)
        << "layers[0].weight has 2 rows, expected 3";
    QTest::newRow("non-number weight")
        << QString(R"({"layers":[%1,{"weight":[[1,2,3],[4,"x",6]],"bias":[0,0]}]})").arg(layer0)
        << "layers[1].weight[1][1] is not a number";
    QTest::newRow("null bias")
        << QString(R"({"layers":[{"weight":[[1,2],[3,4],[5,6]],"bias":[0,null,0]},%1]})")
               .arg(layer1)
        << "layers[0].bias[1] is not a number";
    QTest::newRow("missing bias")
        << QString(R"({"layers":[%1,{"weight":[[1,2,3],[4,5,6]]}]})").arg(layer0)
        << "layers[1] needs both";
    QTest::newRow("unknown key")
        << QString(R"({"layers":[%1,{"weight":[[1,2,3],[4,5,6]],"bias":[0,0],"b":1}]})").arg(layer0)
        << "layers[1] has unknown key";
    QTest::newRow("not JSON") << "{\"layers\":["
                              << "not valid JSON";
    QTest::newRow("no layers") << "[1,2]"
                               << "\"layers\" array";
}

void TestModel::parametersJsonErrorsNameTheLayer() {
    QFETCH(QString, json);
    QFETCH(QString, mentions);
    ModelShape shape;
    shape.layers = {2, 3, 2};
    const std::string text = json.toStdString();
    if (mentions.isEmpty()) {
        const std::vector<double> params = parameters_from_json(shape, text);
        QVERIFY(bitwise_equal(params, {1, 2, 3, 4, 5, 6, 0, 0, 0, 1, 2, 3, 4, 5, 6, 0, 0}));
        return;
    }
    const QString message = error_of([&] { parameters_from_json(shape, text); });
    QVERIFY2(message.contains(mentions), qPrintable(message));
    QVERIFY(!message.contains('\n'));
}

void TestModel::nonFiniteParametersAreNotSaved() {
    ModelShape shape;
    shape.layers = {2, 3, 2};
    std::vector<double> params(shape.parameter_count(), 0.5);
    params[shape.weight_offset(1) + 1] = std::numeric_limits<double>::quiet_NaN();
    const QString message = error_of([&] { parameters_to_json(shape, params); });
    QVERIFY2(message.contains("layers[1]"), qPrintable(message));
}

void TestModel::hashDiffersWhenOneBitFlips_data() {
    QTest::addColumn<int>("index");
    QTest::addColumn<int>("bit");
    QTest::newRow("first parameter, lowest mantissa bit") << 0 << 0;
    QTest::newRow("middle parameter, lowest exponent bit") << 50 << 52;
    QTest::newRow("last parameter, sign bit") << 99 << 63;
    QTest::newRow("last parameter, lowest bit") << 99 << 0;
}

void TestModel::hashDiffersWhenOneBitFlips() {
    QFETCH(int, index);
    QFETCH(int, bit);
    Rng rng(4);
    std::vector<double> params(100);
    for (double& p : params)
        p = rng.normal();
    const std::vector<double> copy = params;
    QCOMPARE(hash_parameters(copy), hash_parameters(params));
    auto& target = params[static_cast<std::size_t>(index)];
    target = std::bit_cast<double>(std::bit_cast<std::uint64_t>(target) ^ (1ULL << bit));
    QVERIFY(hash_parameters(params) != hash_parameters(copy));
}

void TestModel::hashIsFnv1aOfTheWords() {
    // FNV-1a over 64-bit words: the offset basis for no parameters; 0.0; 1.0 (0x3FF0...).
    QCOMPARE(hash_parameters({}), std::uint64_t(0xcbf29ce484222325ULL));
    const double zero = 0.0;
    QCOMPARE(hash_parameters({&zero, 1}), std::uint64_t(0xaf63bd4c8601b7dfULL));
    const double one = 1.0;
    QCOMPARE(hash_parameters({&one, 1}), std::uint64_t(0xc293bd4c8601b7dfULL));
}

void TestModel::rngMatchesReferenceXoshiro() {
    // splitmix64 from 0 gives 0xe220a8397b1dcdaf first; xoshiro256** from that state starts
    // 0x99ec5f36cb75f2b4 (reference implementations by Vigna).
    Rng rng(0);
    QCOMPARE(rng.state()[0], std::uint64_t(0xe220a8397b1dcdafULL));
    QCOMPARE(rng.next_u64(), std::uint64_t(0x99ec5f36cb75f2b4ULL));
    QCOMPARE(rng.next_u64(), std::uint64_t(0xbf6e1f784956452aULL));
    QCOMPARE(rng.next_u64(), std::uint64_t(0x1a5f849d4933e6e0ULL));
}

void TestModel::rngSameSeedSameSequence() {
    Rng a(42);
    Rng b(42);
    Rng c(43);
    int differ = 0;
    for (int k = 0; k < 1000; ++k) {
        const std::uint64_t x = a.next_u64();
        QCOMPARE(b.next_u64(), x);
        differ += c.next_u64() != x ? 1 : 0;
    }
    QCOMPARE(differ, 1000);
    QCOMPARE(Rng::stream(42, 3).state(), Rng::stream(42, 3).state());
}

void TestModel::rngStreamsDiffer_data() {
    QTest::addColumn<quint64>("seed_a");
    QTest::addColumn<quint64>("id_a");
    QTest::addColumn<quint64>("seed_b");
    QTest::addColumn<quint64>("id_b");
    QTest::newRow("streams 0 and 1 of seed 0")
        << quint64(0) << quint64(0) << quint64(0) << quint64(1);
    QTest::newRow("streams 1 and 2 of seed 1")
        << quint64(1) << quint64(1) << quint64(1) << quint64(2);
    QTest::newRow("worker 3 and worker 1000000")
        << quint64(7) << quint64(3) << quint64(7) << quint64(1000000);
    QTest::newRow("same id, seeds 1 and 2") << quint64(1) << quint64(5) << quint64(2) << quint64(5);
    QTest::newRow("seed and id swapped") << quint64(1) << quint64(2) << quint64(2) << quint64(1);
}

void TestModel::rngStreamsDiffer() {
    QFETCH(quint64, seed_a);
    QFETCH(quint64, id_a);
    QFETCH(quint64, seed_b);
    QFETCH(quint64, id_b);
    Rng a = Rng::stream(seed_a, id_a);
    Rng b = Rng::stream(seed_b, id_b);
    std::vector<std::uint64_t> xs;
    std::vector<std::uint64_t> ys;
    for (int k = 0; k < 64; ++k) {
        xs.push_back(a.next_u64());
        ys.push_back(b.next_u64());
    }
    // No value in common, even shifted: one stream is not the other a few steps later.
    std::sort(xs.begin(), xs.end());
    std::sort(ys.begin(), ys.end());
    std::vector<std::uint64_t> common;
    std::set_intersection(xs.begin(), xs.end(), ys.begin(), ys.end(), std::back_inserter(common));
    QVERIFY(common.empty());
    // A stream is also not the plain generator of its seed.
    Rng plain(seed_a);
    QVERIFY(plain.state() != Rng::stream(seed_a, id_a).state());
}

void TestModel::rngSetStateReplays() {
    Rng rng(123);
    for (int k = 0; k < 10; ++k)
        rng.next_u64();
    const Rng::State saved = rng.state();
    std::vector<double> first;
    for (int k = 0; k < 100; ++k) {
        first.push_back(rng.uniform());
        first.push_back(rng.normal());
        first.push_back(static_cast<double>(rng.below(1000)));
    }
    rng.set_state(saved);
    std::vector<double> again;
    for (int k = 0; k < 100; ++k) {
        again.push_back(rng.uniform());
        again.push_back(rng.normal());
        again.push_back(static_cast<double>(rng.below(1000)));
    }
    QVERIFY(bitwise_equal(first, again));
    Rng other(0);
    other.set_state(saved);
    QCOMPARE(other.uniform(), first[0]);
}

void TestModel::rngBelowStaysInBounds_data() {
    QTest::addColumn<quint64>("n");
    QTest::newRow("1") << quint64(1);
    QTest::newRow("2") << quint64(2);
    QTest::newRow("3") << quint64(3);
    QTest::newRow("10") << quint64(10);
    QTest::newRow("2^32 + 1") << quint64((1ULL << 32) + 1);
    QTest::newRow("2^63 + 1 (half the draws rejected)") << quint64((1ULL << 63) + 1);
    QTest::newRow("2^64 - 1") << quint64(~0ULL);
}

void TestModel::rngBelowStaysInBounds() {
    QFETCH(quint64, n);
    Rng rng(8);
    constexpr int draws = 20000;
    std::vector<int> counts(n <= 10 ? n : 0);
    std::uint64_t largest = 0;
    for (int k = 0; k < draws; ++k) {
        const std::uint64_t x = rng.below(n);
        QVERIFY(x < n);
        largest = std::max(largest, x);
        if (n <= 10)
            ++counts[x];
    }
    if (n <= 10) {
        // Every residue, each near draws / n (4 standard deviations).
        const double expected = static_cast<double>(draws) / static_cast<double>(n);
        for (int c : counts)
            QVERIFY2(std::fabs(c - expected) <= 4.0 * std::sqrt(expected) + 1e-9,
                     qPrintable(QString::number(c)));
    } else {
        QVERIFY(largest > n / 2); // the upper half of the range is reached
    }
    const QString message = error_of([&] { rng.below(0); });
    QVERIFY2(message.contains("n > 0"), qPrintable(message));
}

void TestModel::rngUniformAndNormalMoments() {
    Rng rng(99);
    constexpr int draws = 200000;
    double sum_u = 0.0;
    double sum_n = 0.0;
    double sum_n2 = 0.0;
    double lo = 1.0;
    double hi = 0.0;
    for (int k = 0; k < draws; ++k) {
        const double u = rng.uniform();
        QVERIFY(u >= 0.0 && u < 1.0);
        lo = std::min(lo, u);
        hi = std::max(hi, u);
        sum_u += u;
        const double z = rng.normal();
        QVERIFY(std::isfinite(z));
        sum_n += z;
        sum_n2 += z * z;
    }
    QVERIFY(std::fabs(sum_u / draws - 0.5) < 0.005);
    QVERIFY(lo < 1e-3 && hi > 1.0 - 1e-3);
    QVERIFY(std::fabs(sum_n / draws) < 0.01);
    QVERIFY(std::fabs(sum_n2 / draws - 1.0) < 0.02);
    const double v = rng.uniform(-3.0, -2.0);
    QVERIFY(v >= -3.0 && v < -2.0);
}

// Every vector width the processor has gives the two-lane reference's bits, for odd and even
// shapes, both layouts of A, and C starting from something.
namespace {

// The wider sets of vector kernels next to the SSE2 reference, each for every path this processor
// runs.
std::vector<std::pair<simd::Path, const kernels::VectorKernels*>> wider_kernels() {
    std::vector<std::pair<simd::Path, const kernels::VectorKernels*>> paths;
    for (simd::Path p : simd::available()) {
        if (p == simd::Path::Avx2)
            paths.emplace_back(p, &kernels::avx2_kernels);
        if (p == simd::Path::Avx512)
            paths.emplace_back(p, &kernels::avx512_kernels);
    }
    return paths;
}

// Puts the path in use back however a test ends.
struct KeepSimdPath {
    simd::Path path = simd::active();
    ~KeepSimdPath() { simd::use(path); }
};

} // namespace

void TestModel::everySimdPathGivesTheSameProducts() {
    const auto paths = wider_kernels();
    if (paths.empty())
        QSKIP("this processor has only the two-lane path");
    Rng rng(7);
    int compared = 0;
    for (std::size_t rows : {1, 2, 3, 5, 7, 32})
        for (std::size_t cols : {1, 3, 17, 33, 64, 256})
            for (std::size_t depth : {1, 3, 17, 64})
                for (bool transposed : {false, true}) {
                    std::vector<double> a(rows * depth), b(depth * cols), c(rows * cols);
                    for (double& x : a)
                        x = rng.normal();
                    for (double& x : b)
                        x = rng.normal();
                    for (double& x : c)
                        x = rng.normal();
                    const std::size_t a_row = transposed ? 1 : depth;
                    const std::size_t a_k = transposed ? rows : 1;
                    std::vector<double> reference = c;
                    kernels::sse2_kernels.multiply_add(rows, cols, depth, a.data(), a_row, a_k,
                                                       b.data(), cols, reference.data(), cols);
                    for (const auto& [path, set] : paths) {
                        std::vector<double> wide = c;
                        set->multiply_add(rows, cols, depth, a.data(), a_row, a_k, b.data(), cols,
                                          wide.data(), cols);
                        QVERIFY2(bitwise_equal(wide, reference),
                                 qPrintable(QStringLiteral("%1: %2x%3x%4")
                                                .arg(simd::name(path))
                                                .arg(rows)
                                                .arg(cols)
                                                .arg(depth)));
                        ++compared;
                    }
                }
    QVERIFY(compared >= 288);
}

// Every element-wise kernel (activations and their derivatives, bias sums, the collectives'
// additions and scaling, both optimizers) gives the reference's bits on every path, for lengths
// that leave every kind of remainder, on values that reach tanh's clamp, zero and the signs.
void TestModel::everySimdPathGivesTheSameElementwiseResults() {
    const auto paths = wider_kernels();
    if (paths.empty())
        QSKIP("this processor has only the two-lane path");
    Rng rng(9);
    int compared = 0;
    for (std::size_t n : {1, 3, 7, 8, 17, 64, 257}) {
        std::vector<double> x(n), y(n), z(n);
        for (double& v : x)
            v = 12.0 * rng.normal();
        for (double& v : y)
            v = rng.normal();
        for (double& v : z)
            v = std::fabs(rng.normal());
        x[0] = -0.0;
        // Runs one kernel on copies of x, y, z with the reference set and with each wider one.
        const auto same = [&](const char* what, const auto& kernel) {
            std::vector<double> rx = x, ry = y, rz = z;
            kernel(kernels::sse2_kernels, rx, ry, rz);
            for (const auto& [path, set] : paths) {
                std::vector<double> wx = x, wy = y, wz = z;
                kernel(*set, wx, wy, wz);
                QVERIFY2(
                    bitwise_equal(wx, rx) && bitwise_equal(wy, ry) && bitwise_equal(wz, rz),
                    qPrintable(
                        QStringLiteral("%1 on %2, n = %3").arg(what, simd::name(path)).arg(n)));
                ++compared;
            }
        };
        using V = std::vector<double>;
        for (Activation a :
             {Activation::Tanh, Activation::Relu, Activation::Sigmoid, Activation::Linear}) {
            same("activate", [a](const kernels::VectorKernels& k, V& p, V&, V&) {
                k.activate(a, p.data(), p.size());
            });
            same("activation_backward", [a](const kernels::VectorKernels& k, V& p, V& d, V&) {
                k.activate(a, p.data(), p.size());
                k.activation_backward(a, p.data(), d.data(), d.size());
            });
        }
        same("add_rows", [](const kernels::VectorKernels& k, V& p, V& s, V&) {
            k.add_rows(p.data(), 1, p.size(), s.data());
        });
        same("add", [](const kernels::VectorKernels& k, V& p, V& q, V&) {
            k.add(p.data(), q.data(), p.size());
        });
        same("scale", [](const kernels::VectorKernels& k, V& p, V&, V&) {
            k.scale(p.data(), 0.3, p.size());
        });
        same("sgd", [](const kernels::VectorKernels& k, V& p, V& g, V& v) {
            for (int step = 0; step < 3; ++step)
                k.sgd(p.data(), g.data(), v.data(), p.size(), 0.05, 0.9);
        });
        same("adam", [](const kernels::VectorKernels& k, V& p, V& g, V& m) {
            std::vector<double> v(p.size(), 0.0);
            for (int step = 1; step <= 3; ++step)
                k.adam(p.data(), g.data(), m.data(), v.data(), p.size(),
                       {0.01, 0.9, 0.999, 1e-8, 1.0 - std::pow(0.9, step),
                        1.0 - std::pow(0.999, step)});
            g = v; // g is only read: the second moment is compared in its place
        });
    }
    QCOMPARE(compared, 7 * 13 * int(paths.size()));
}

// The loss kernel on every path: the reference's bits (losses, deltas, right answers), and within
// a few ulp of the cross-entropy written with libm's exp and log. A logit 800 below its row's
// largest gives exactly what std::exp gives (0); equal logits count the first as the answer.
void TestModel::lossMatchesLibmOnEveryPath() {
    std::vector<std::pair<simd::Path, const kernels::VectorKernels*>> sets{
        {simd::Path::Sse2, &kernels::sse2_kernels}};
    for (const auto& wider : wider_kernels())
        sets.push_back(wider);
    Rng rng(4);
    int compared = 0;
    for (std::size_t m : {1, 2, 3, 10}) {
        for (std::size_t rows : {1, 7, 32}) {
            std::vector<double> z(rows * m), targets(rows);
            for (double& v : z)
                v = 8.0 * rng.normal();
            for (std::size_t b = 0; b < rows; ++b)
                targets[b] = double((b + 1) % m);
            z[0] = -800.0;
            if (rows > 1)
                std::fill_n(z.begin() + std::ptrdiff_t(m), m, 0.25); // a row of ties
            const double scale = 1.0 / double(rows);

            // The cross-entropy as written with libm.
            double libm_total = 0.0;
            std::size_t libm_correct = 0;
            std::vector<double> libm_delta(rows * m);
            for (std::size_t b = 0; b < rows; ++b) {
                const double* row = z.data() + b * m;
                const std::size_t arg = std::size_t(std::max_element(row, row + m) - row);
                const auto label = std::size_t(targets[b]);
                double sum = 0.0;
                for (std::size_t o = 0; o < m; ++o)
                    sum += libm_delta[b * m + o] = std::exp(row[o] - row[arg]);
                libm_total += std::log(sum) - (row[label] - row[arg]);
                libm_correct += arg == label ? 1 : 0;
                for (std::size_t o = 0; o < m; ++o)
                    libm_delta[b * m + o] = libm_delta[b * m + o] / sum * scale;
                libm_delta[b * m + label] -= scale;
            }

            for (LossKind loss : {LossKind::SoftmaxCrossEntropy, LossKind::MeanSquaredError}) {
                std::vector<double> first_delta;
                double first_total = 0.0;
                std::size_t first_correct = 0;
                for (const auto& [path, set] : sets) {
                    const QString where =
                        QStringLiteral("%1, %2 rows of %3").arg(simd::name(path)).arg(rows).arg(m);
                    std::vector<double> delta(rows * m);
                    double total = 0.0;
                    std::size_t correct = 0;
                    set->output_loss(loss, z.data(), targets.data(), rows, m, scale, delta.data(),
                                     total, correct);
                    if (first_delta.empty()) {
                        first_delta = delta;
                        first_total = total;
                        first_correct = correct;
                    }
                    QVERIFY2(bitwise_equal(delta, first_delta) &&
                                 std::bit_cast<std::uint64_t>(total) ==
                                     std::bit_cast<std::uint64_t>(first_total) &&
                                 correct == first_correct,
                             qPrintable(where));
                    ++compared;
                    if (loss != LossKind::SoftmaxCrossEntropy)
                        continue;
                    QCOMPARE(correct, libm_correct);
                    const double eps = std::numeric_limits<double>::epsilon();
                    QVERIFY2(std::fabs(total - libm_total) <= 8.0 * eps * std::fabs(libm_total),
                             qPrintable(where));
                    for (std::size_t i = 0; i < delta.size(); ++i)
                        QVERIFY2(std::fabs(delta[i] - libm_delta[i]) <= 4.0 * eps * scale,
                                 qPrintable(where + QStringLiteral(", delta %1").arg(i)));
                    QCOMPARE(delta[0], libm_delta[0]); // e^-800 is 0 in both
                }
            }
        }
    }
    QCOMPARE(compared, 4 * 3 * 2 * int(sets.size()));
}

// What the kernels run over starts on a 64-byte line, whatever its size: the aligned buffers, the
// optimizer's state of both kinds and a pass's workspace.
void TestModel::buffersStartOnACacheLine() {
    const auto on_line = [](const double* p) {
        return p && reinterpret_cast<std::uintptr_t>(p) % 64 == 0;
    };
    std::vector<AlignedBuffer> held; // kept alive, so each new one lands somewhere else
    for (std::size_t n = 1; n <= 70; ++n) {
        held.emplace_back(n, 1.0);
        QVERIFY(on_line(held.back().data()));
        OptimizerConfig config;
        config.momentum = 0.9;
        QVERIFY(on_line(Optimizer(config, n).state().velocity.data()));
        config.kind = OptimizerKind::Adam;
        const Optimizer adam(config, n);
        QVERIFY(on_line(adam.state().first_moment.data()));
        QVERIFY(on_line(adam.state().second_moment.data()));
    }
    const ModelShape shape = make_shape({3, 17, 5}, Activation::Tanh, LossKind::MeanSquaredError);
    Rng rng(2);
    const std::vector<double> params = init_parameters(shape, rng);
    const OwnedBatch data = random_batch(shape, 7, rng);
    std::vector<double> gradient(params.size());
    Workspace work;
    loss_and_gradient(shape, params, data.view(), gradient, work);
    QVERIFY(on_line(work.activations.data()) && on_line(work.deltas.data()) &&
            on_line(work.scratch.data()));
}

// A batch of 32 rows runs the 256 -> 256 layer as z' = W x' (its rows transposed); one row at a
// time runs it against the weights transposed. Every logit is the same, bit for bit, on every path.
void TestModel::bothFormsOfTheForwardProductGiveTheSameBits() {
    const ModelShape shape =
        make_shape({2, 256, 256, 3}, Activation::Tanh, LossKind::SoftmaxCrossEntropy);
    QVERIFY(kernels::transposes_rows(32, 256, 256));
    QVERIFY(!kernels::transposes_rows(1, 256, 256));
    QVERIFY(!kernels::transposes_rows(32, 2, 256));
    Rng rng(3);
    const std::vector<double> params = init_parameters(shape, rng);
    std::vector<double> features(32 * 2);
    for (double& x : features)
        x = rng.normal();
    const KeepSimdPath keep;
    for (simd::Path path : simd::available()) {
        simd::use(path);
        Workspace work;
        std::vector<double> together(32 * 3), alone(32 * 3);
        predict(shape, params, features.data(), 32, together, work);
        for (std::size_t row = 0; row < 32; ++row)
            predict(shape, params, features.data() + 2 * row, 1,
                    std::span(alone).subspan(3 * row, 3), work);
        QVERIFY2(bitwise_equal(together, alone), simd::name(path));
    }
}

void TestModel::everySimdPathTrainsToTheSameBits_data() {
    QTest::addColumn<QList<int>>("layers");
    QTest::addColumn<Activation>("activation");
    QTest::addColumn<LossKind>("loss");
    QTest::addColumn<int>("optimizer");
    QTest::addColumn<int>("batch");
    const QList<QList<int>> shapes{{2, 1, 2}, {3, 17, 3}, {2, 64, 64, 2}, {2, 256, 256, 3}};
    for (const QList<int>& layers : shapes)
        for (Activation activation :
             {Activation::Tanh, Activation::Relu, Activation::Sigmoid, Activation::Linear})
            for (int optimizer : {int(OptimizerKind::Sgd), int(OptimizerKind::Adam)})
                for (int batch : {1, 7, 32}) {
                    const LossKind loss = layers.back() >= 2 ? LossKind::SoftmaxCrossEntropy
                                                             : LossKind::MeanSquaredError;
                    QString name;
                    for (int w : layers)
                        name += QString::number(w) + QLatin1Char(',');
                    QTest::addRow("%s %s %s batch %d", qPrintable(name),
                                  to_string(activation).data(),
                                  optimizer == int(OptimizerKind::Sgd) ? "sgd" : "adam", batch)
                        << layers << activation << loss << optimizer << batch;
                }
}

// Twenty steps of training (forward, backward, update) on every path give the same gradients at
// every step and the same parameters, bit for bit.
void TestModel::everySimdPathTrainsToTheSameBits() {
    QFETCH(QList<int>, layers);
    QFETCH(Activation, activation);
    QFETCH(LossKind, loss);
    QFETCH(int, optimizer);
    QFETCH(int, batch);
    const ModelShape shape = make_shape(layers, activation, loss);
    const KeepSimdPath keep;
    std::vector<std::vector<double>> finals;
    std::vector<std::vector<double>> gradients; // every step's, one after another
    for (simd::Path path : simd::available()) {
        simd::use(path);
        Rng rng(11);
        std::vector<double> params = init_parameters(shape, rng);
        OptimizerConfig config;
        config.kind = OptimizerKind(optimizer);
        config.learning_rate = optimizer == int(OptimizerKind::Sgd) ? 0.05 : 0.01;
        config.momentum = 0.9;
        Optimizer opt(config, params.size());
        Workspace work;
        std::vector<double> gradient(params.size());
        std::vector<double> all_gradients;
        for (int step = 0; step < 20; ++step) {
            const OwnedBatch data = random_batch(shape, std::size_t(batch), rng);
            loss_and_gradient(shape, params, data.view(), gradient, work);
            all_gradients.insert(all_gradients.end(), gradient.begin(), gradient.end());
            opt.apply(params, gradient);
        }
        finals.push_back(std::move(params));
        gradients.push_back(std::move(all_gradients));
    }
    Rng fresh(11);
    QVERIFY(finals[0] != init_parameters(shape, fresh)); // the steps did train
    for (std::size_t i = 1; i < finals.size(); ++i) {
        QVERIFY2(bitwise_equal(gradients[i], gradients[0]), simd::name(simd::available()[i]));
        QVERIFY2(bitwise_equal(finals[i], finals[0]), simd::name(simd::available()[i]));
    }
}

void TestModel::simdPathsAreNamed() {
    for (simd::Path p : {simd::Path::Sse2, simd::Path::Avx2, simd::Path::Avx512})
        QCOMPARE(simd::parse(simd::name(p)), std::optional<simd::Path>(p));
    QVERIFY(!simd::parse("avx1024"));
    QCOMPARE(simd::available().front(), simd::Path::Sse2);
    // Without LOCKSTEP_SIMD the widest the processor has is in use.
    if (qEnvironmentVariableIsEmpty("LOCKSTEP_SIMD"))
        QCOMPARE(simd::active(), simd::available().back());
    const auto all = simd::available();
    if (std::find(all.begin(), all.end(), simd::Path::Avx512) == all.end())
        QVERIFY(!error_of([] { simd::use(simd::Path::Avx512); }).isEmpty());
}

namespace {

bool is_float(double v) {
    return static_cast<double>(static_cast<float>(v)) == v;
}

} // namespace

// The float kernels: every path gives the reference set's bits (products, activations, the loss,
// both optimizers, whose results stay floats), and their tanh and loss are float-accurate.
void TestModel::float32KernelsGiveOneSetOfBitsOnEveryPath() {
    using F = kernels::VectorKernelsOf<float>;
    std::vector<std::pair<simd::Path, const F*>> sets{{simd::Path::Sse2, &kernels::sse2_kernels32}};
    for (simd::Path p : simd::available()) {
        if (p == simd::Path::Avx2)
            sets.emplace_back(p, &kernels::avx2_kernels32);
        if (p == simd::Path::Avx512)
            sets.emplace_back(p, &kernels::avx512_kernels32);
    }
    Rng rng(12);
    const auto floats = [&](std::size_t n, float spread) {
        std::vector<float> v(n);
        for (float& x : v)
            x = spread * static_cast<float>(rng.normal());
        return v;
    };
    const auto same_floats = [](const std::vector<float>& a, const std::vector<float>& b) {
        return a.size() == b.size() && std::memcmp(a.data(), b.data(), a.size() * 4) == 0;
    };
    int compared = 0;
    for (std::size_t rows : {1, 5, 32})
        for (std::size_t cols : {3, 17, 64, 259})
            for (std::size_t depth : {1, 17, 64}) {
                const std::vector<float> a = floats(rows * depth, 1), b = floats(depth * cols, 1),
                                         c = floats(rows * cols, 1);
                std::vector<float> reference;
                for (const auto& [path, set] : sets) {
                    std::vector<float> out = c;
                    set->multiply_add(rows, cols, depth, a.data(), depth, 1, b.data(), cols,
                                      out.data(), cols);
                    if (reference.empty())
                        reference = out;
                    QVERIFY2(same_floats(out, reference), simd::name(path));
                    ++compared;
                }
            }
    for (std::size_t n : {1, 7, 16, 33, 257}) {
        const std::vector<float> x = floats(n, 12);
        const std::vector<float> d = floats(n, 1);
        for (Activation act :
             {Activation::Tanh, Activation::Relu, Activation::Sigmoid, Activation::Linear}) {
            std::vector<float> ref_a, ref_d;
            for (const auto& [path, set] : sets) {
                std::vector<float> a = x, dd = d;
                set->activate(act, a.data(), n);
                set->activation_backward(act, a.data(), dd.data(), n);
                if (ref_a.empty()) {
                    ref_a = a;
                    ref_d = dd;
                }
                QVERIFY2(same_floats(a, ref_a) && same_floats(dd, ref_d), simd::name(path));
                ++compared;
                if (act != Activation::Tanh)
                    continue;
                for (std::size_t i = 0; i < n; ++i) // within 3 float ulp of the double tanh
                    QVERIFY2(std::fabs(a[i] - std::tanh(double(x[i]))) <=
                                 3.0 * std::numeric_limits<float>::epsilon() * std::fabs(a[i]) +
                                     1e-45,
                             qPrintable(QStringLiteral("tanh(%1) = %2").arg(x[i]).arg(a[i])));
            }
        }
        // The optimizers on double storage: the same bits everywhere, every value a float.
        const auto start = [&] {
            std::vector<double> v(n);
            for (double& e : v)
                e = static_cast<float>(rng.normal());
            return v;
        };
        const std::vector<double> p0 = start(), g = start();
        std::vector<double> ref_sgd, ref_adam;
        for (const auto& [path, set] : sets) {
            std::vector<double> p = p0, v(n, 0.0), q = p0, m(n, 0.0), w(n, 0.0);
            for (int step = 1; step <= 3; ++step) {
                set->sgd(p.data(), g.data(), v.data(), n, 0.05, 0.9);
                set->adam(q.data(), g.data(), m.data(), w.data(), n,
                          {0.01, 0.9, 0.999, 1e-8, 1.0 - std::pow(0.9, step),
                           1.0 - std::pow(0.999, step)});
            }
            if (ref_sgd.empty()) {
                ref_sgd = p;
                ref_adam = q;
            }
            QVERIFY2(bitwise_equal(p, ref_sgd) && bitwise_equal(q, ref_adam), simd::name(path));
            QVERIFY(std::all_of(p.begin(), p.end(), is_float) &&
                    std::all_of(v.begin(), v.end(), is_float) &&
                    std::all_of(q.begin(), q.end(), is_float) &&
                    std::all_of(w.begin(), w.end(), is_float));
            QVERIFY(!bitwise_equal(p, p0));
            ++compared;
        }
    }
    // The loss: one set of bits, and the cross-entropy within float accuracy of libm's.
    const std::size_t rows = 9, m = 4;
    const std::vector<float> z = floats(rows * m, 6);
    std::vector<double> targets(rows);
    for (std::size_t b = 0; b < rows; ++b)
        targets[b] = double(b % m);
    double libm_total = 0.0;
    for (std::size_t b = 0; b < rows; ++b) {
        const float* row = z.data() + b * m;
        const double top = *std::max_element(row, row + m);
        double sum = 0.0;
        for (std::size_t o = 0; o < m; ++o)
            sum += std::exp(double(row[o]) - top);
        libm_total += std::log(sum) - (row[std::size_t(targets[b])] - top);
    }
    std::vector<float> ref_delta;
    double ref_total = 0.0;
    for (const auto& [path, set] : sets) {
        std::vector<float> delta(rows * m);
        double total = 0.0;
        std::size_t correct = 0;
        set->output_loss(LossKind::SoftmaxCrossEntropy, z.data(), targets.data(), rows, m,
                         1.0 / rows, delta.data(), total, correct);
        if (ref_delta.empty()) {
            ref_delta = delta;
            ref_total = total;
        }
        QVERIFY2(same_floats(delta, ref_delta) && total == ref_total, simd::name(path));
        QVERIFY2(std::fabs(total - libm_total) <= 1e-5 * std::fabs(libm_total),
                 qPrintable(QStringLiteral("%1 against %2").arg(total).arg(libm_total)));
        ++compared;
    }
    QCOMPARE(compared, int(sets.size()) * (36 + 5 * 4 + 5 + 1));
}

// A float32 model's pass: its gradient is all floats, the same on every path and with the
// layer-by-layer hand-over, close to the float64 pass's at the same parameters, and not equal to
// it.
void TestModel::float32PassIsAFloatPassCloseToFloat64() {
    KeepSimdPath keep;
    ModelShape shape = make_shape({2, 37, 64, 3}, Activation::Tanh, LossKind::SoftmaxCrossEntropy);
    shape.precision = Precision::Float32;
    Rng rng(5);
    const std::vector<double> params = init_parameters(shape, rng);
    QVERIFY(std::all_of(params.begin(), params.end(), is_float));
    const OwnedBatch data = random_batch(shape, 16, rng);
    ModelShape wide = shape;
    wide.precision = Precision::Float64;
    std::vector<double> reference(params.size());
    Workspace work;
    const LossResult exact = loss_and_gradient(wide, params, data.view(), reference, work);
    std::vector<double> first;
    for (simd::Path path : simd::available()) {
        simd::use(path);
        std::vector<double> gradient(params.size()), handed(params.size());
        const LossResult loss = loss_and_gradient(shape, params, data.view(), gradient, work);
        std::vector<std::size_t> order;
        loss_and_gradient(shape, params, data.view(), handed, work,
                          [&](std::size_t l) { order.push_back(l); });
        QVERIFY(bitwise_equal(handed, gradient));
        QCOMPARE(order, (std::vector<std::size_t>{3, 2, 1, 0}));
        if (first.empty())
            first = gradient;
        QVERIFY2(bitwise_equal(gradient, first), simd::name(path));
        QVERIFY(std::all_of(gradient.begin(), gradient.end(), is_float));
        QVERIFY(!bitwise_equal(gradient, reference));
        double largest = 0.0, gap = 0.0;
        for (std::size_t i = 0; i < gradient.size(); ++i) {
            largest = std::max(largest, std::fabs(reference[i]));
            gap = std::max(gap, std::fabs(gradient[i] - reference[i]));
        }
        QVERIFY2(gap <= 1e-5 * largest,
                 qPrintable(QStringLiteral("%1 of %2").arg(gap).arg(largest)));
        QVERIFY(std::fabs(loss.loss - exact.loss) <= 1e-5 * exact.loss);
        QCOMPARE(loss.correct, exact.correct);
    }
}

QTEST_APPLESS_MAIN(TestModel)
#include "test_model.moc"
