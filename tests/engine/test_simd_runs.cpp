// Whole runs on every vector path (model/simd.h) and thread count: the same parameters, bit for
// bit, for every way of training Lockstep has. The paths' kernels are compared one by one in
// test_model; here they meet the trainers, the collectives' additions and the optimizers.
#include "model/simd.h"
#include "scenario/scenario.h"

#include <QtTest>

#include "run_support.h"

#include <vector>

using namespace lockstep;

Q_DECLARE_METATYPE(lockstep::Scenario)

namespace {

// Wide enough layers that every path's blocks, remainders and element-wise tails all run: 37 is
// odd, 64 a whole number of every vector; 16 rows make the forward pass run 37 -> 64 with its
// rows transposed and the other layers against transposed weights (model/kernels.h).
Scenario base() {
    Scenario s;
    s.workers = 4;
    s.steps = 8;
    s.batch = 16;
    s.model.layers = {2, 37, 64, 3};
    return s;
}

} // namespace

class TestSimdRuns : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void every_path_and_thread_count_trains_the_same_bits_data();
    void every_path_and_thread_count_trains_the_same_bits();
};

void TestSimdRuns::every_path_and_thread_count_trains_the_same_bits_data() {
    QTest::addColumn<Scenario>("scenario");
    for (Algorithm a : {Algorithm::Ring, Algorithm::ParameterServer, Algorithm::Tree}) {
        Scenario s = base();
        s.algorithm = a;
        QTest::addRow("%s", std::string(to_string(a)).c_str()) << s;
    }
    Scenario adam = base();
    adam.optimizer.kind = OptimizerKind::Adam;
    adam.optimizer.learning_rate = 0.01;
    adam.model.activation = Activation::Sigmoid;
    QTest::addRow("adam, sigmoid") << adam;
    Scenario relu = base();
    relu.model.activation = Activation::Relu;
    relu.rule = ReductionRule::Sum;
    QTest::addRow("relu, sum") << relu;
    Scenario buckets = base();
    buckets.gradients = GradientConfig{1, true, 2};
    QTest::addRow("buckets, accumulation") << buckets;
    for (Sharding z : {Sharding::Gradients, Sharding::Parameters}) {
        Scenario s = base();
        s.sharding = z;
        QTest::addRow("zero %s", std::string(to_string(z)).c_str()) << s;
    }
    Scenario float32 = base();
    float32.model.precision = Precision::Float32;
    QTest::addRow("float32") << float32;
    Scenario float32_adam = float32;
    float32_adam.algorithm = Algorithm::Tree;
    float32_adam.optimizer.kind = OptimizerKind::Adam;
    float32_adam.optimizer.learning_rate = 0.01;
    float32_adam.gradients = GradientConfig{1, true, 2};
    QTest::addRow("float32, adam, buckets, accumulation") << float32_adam;
    Scenario float32_half = float32;
    float32_half.comm_precision = WirePrecision::Float16;
    QTest::addRow("float32 with float16 on the wire") << float32_half;
    Scenario pipeline = base();
    pipeline.parallelism = ParallelismConfig{Parallelism::Pipeline, 3, 4};
    QTest::addRow("pipeline") << pipeline;
    Scenario tensor = base();
    tensor.parallelism = ParallelismConfig{Parallelism::Tensor, 2, 1};
    QTest::addRow("tensor") << tensor;
    Scenario ssp = base();
    ssp.algorithm = Algorithm::ParameterServer;
    ssp.sync = SyncConfig{SyncMode::Ssp, 2};
    QTest::addRow("ssp") << ssp;
}

// The reference is the SSE2 path on one thread; every other path on 1, 2 and 4 threads matches it.
void TestSimdRuns::every_path_and_thread_count_trains_the_same_bits() {
    QFETCH(Scenario, scenario);
    validate(scenario);
    const simd::Path before = simd::active();
    simd::use(simd::Path::Sse2);
    const std::vector<double> reference = lockstep::testing::train_run(scenario, 1).parameters;
    QVERIFY(!reference.empty());
    if (scenario.model.precision == Precision::Float32) // a float model's parameters are floats
        for (double v : reference)
            QCOMPARE(static_cast<double>(static_cast<float>(v)), v);
    int runs = 0;
    for (simd::Path path : simd::available())
        for (int threads : {1, 2, 4}) {
            simd::use(path);
            const std::vector<double> got =
                lockstep::testing::train_run(scenario, threads).parameters;
            simd::use(before);
            QVERIFY2(
                got == reference,
                qPrintable(QStringLiteral("%1 on %2 threads").arg(simd::name(path)).arg(threads)));
            ++runs;
        }
    QCOMPARE(runs, 3 * int(simd::available().size()));
    // The parameters moved: a run that trained nothing would match itself trivially.
    Scenario untrained = scenario;
    untrained.steps = 1;
    QVERIFY(lockstep::testing::train_run(untrained, 1).parameters != reference);
}

QTEST_APPLESS_MAIN(TestSimdRuns)
#include "test_simd_runs.moc"
