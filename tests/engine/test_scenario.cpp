#include "core/error.h"
#include "runs/runs.h"
#include "scenario/scenario.h"
#include "test_support.h"

#include <QDir>
#include <QFile>
#include <QTemporaryDir>
#include <QtTest>

#include <string>

using namespace lockstep;

using namespace lockstep::testing;

namespace {

QString scenarios_dir() {
    return QStringLiteral(LOCKSTEP_SOURCE_DIR "/resources/scenarios");
}

bool write_file(const QString& path, const QByteArray& bytes) {
    QFile file(path);
    return file.open(QIODevice::WriteOnly) && file.write(bytes) == bytes.size();
}

// A scenario that sets every field away from its default, so a round trip that drops or
// confuses any of them shows.
const char* const kEveryField = R"({
  "name": "every field",
  "seed": 12345,
  "steps": 40,
  "workers": 3,
  "batch": 12,
  "worker_batch": [4, 8, 12],
  "shard_sizes": [100, 200, 300],
  "shuffle": false,
  "rule": "weighted-mean",
  "algorithm": "tree",
  "clock": "measured",
  "scaling": "weak",
  "model": {"layers": [2, 7, 5, 4], "activation": "relu", "loss": "cross-entropy",
            "init_params": "/abs/params.json"},
  "dataset": {"name": "clusters", "samples": 600, "noise": 0.25, "classes": 4},
  "optimizer": {"kind": "adam", "lr": 0.003, "momentum": 0.5, "beta1": 0.8, "beta2": 0.99,
                "eps": 1e-7},
  "cost": {"compute_s_per_sample": 0.002, "update_s": 0.01, "alpha_s": 3e-5,
           "beta_s_per_byte": 2e-9, "gamma_s_per_byte": 3e-10, "jitter": 0.2,
           "one_worker_compute_s": 12.5, "communication_s_per_step": 0.3},
  "delays": {"slowdown": [1, 2.5], "pauses": [{"worker": 2, "step": 39, "seconds": 1.5}],
             "straggler_probability": 0.05, "straggler_factor": 4}
})";

} // namespace

// Scenario files: the shipped ones load, bad ones are rejected with a message naming the field
// and its allowed range, and a scenario survives a trip through JSON unchanged.
class TestScenario : public QObject {
    Q_OBJECT

private Q_SLOTS:
    void shipped_scenarios_load_data();
    void shipped_scenarios_load();
    void worked_example_figures();

    void defaults_are_valid();
    void good_scenarios_data();
    void good_scenarios();
    void relative_paths_resolve();

    // Text after a NUL byte is read by some programs and not by others: refused, with where.
    void a_nul_byte_is_refused() {
        const std::string text("{\"steps\": 3}\0garbage", 21);
        LOCKSTEP_VERIFY_CONTAINS(
            testing::error_message([&] { (void)parse_scenario(text, "."); }),
            QStringLiteral("scenario: not valid JSON: a NUL byte at offset 12"));
    }
    void bad_scenarios_data();
    void bad_scenarios();

    void round_trip_every_field();
    void round_trip_shipped_data();
    void round_trip_shipped();

    void read_missing_file();
    void read_file_over_limit();
    void load_names_file_and_field();
};

void TestScenario::shipped_scenarios_load_data() {
    QTest::addColumn<QString>("path");
    const QDir dir(scenarios_dir());
    const auto files = dir.entryList({QStringLiteral("*.json")}, QDir::Files, QDir::Name);
    QVERIFY2(!files.isEmpty(), qPrintable(dir.path()));
    for (const auto& file : files)
        QTest::newRow(qPrintable(file)) << dir.filePath(file);
}

void TestScenario::shipped_scenarios_load() {
    QFETCH(QString, path);
    Scenario s;
    try {
        s = load_scenario(path.toStdString());
    } catch (const Error& e) {
        QFAIL(e.what());
    }
    // The file's name key is what the app shows; it must be set, and the scenario must be
    // runnable as loaded.
    QVERIFY(!s.name.empty());
    QVERIFY(s.workers >= 1);
    validate(s);
}

// The lesson's worked example: 40 s on one worker, four workers compute 10 s and talk 6 s:
// 16 s in all, a speedup of 2.5.
void TestScenario::worked_example_figures() {
    const Scenario s = load_scenario(scenarios_dir().toStdString() + "/worked-example.json");
    QCOMPARE(s.workers, 4);
    QVERIFY(s.cost.one_worker_compute_s.has_value());
    QCOMPARE(*s.cost.one_worker_compute_s, 40.0);
    const RunResult run = run_scenario(s);
    QCOMPARE(run.metrics.baseline_time_s, 40.0);
    QCOMPARE(run.metrics.compute_s, 10.0);
    QCOMPARE(run.metrics.communication_s, 6.0);
    QCOMPARE(run.metrics.total_time_s, 16.0);
    QCOMPARE(run.metrics.speedup, 2.5);
    QVERIFY(run.metrics.replicas_aligned);
}

void TestScenario::defaults_are_valid() {
    const Scenario s = parse_scenario("{}");
    const Scenario defaults;
    QCOMPARE(s.workers, defaults.workers);
    QCOMPARE(s.steps, defaults.steps);
    QCOMPARE(s.model.layers, defaults.model.layers);
    QCOMPARE(scenario_to_json(s), scenario_to_json(defaults));
    validate(defaults);
}

void TestScenario::good_scenarios_data() {
    QTest::addColumn<QString>("json");
    QTest::addColumn<int>("workers");
    QTest::addColumn<qlonglong>("steps");
    QTest::addColumn<QString>("rule");
    QTest::addColumn<QString>("algorithm");

    QTest::newRow("one worker, sum")
        << R"({"workers": 1, "rule": "sum", "steps": 1})" << 1 << 1LL << "sum"
        << "ring";
    QTest::newRow("weak scaling keeps one worker's batch")
        << R"({"workers": 2, "batch": 40000, "scaling": "weak"})" << 2 << 400LL << "mean"
        << "ring";
    QTest::newRow("256 workers")
        << R"({"workers": 256, "steps": 1000000, "dataset": {"samples": 256}})" << 256 << 1000000LL
        << "mean"
        << "ring";
    QTest::newRow("regression with mse")
        << R"({"model": {"layers": [2, 8, 1], "loss": "mse"}, "dataset": {"name": "regression"},
              "steps": 3, "algorithm": "parameter-server"})"
        << 4 << 3LL << "mean"
        << "parameter-server";
    QTest::newRow("xor needs only two outputs")
        << R"({"model": {"layers": [2, 4, 2]}, "dataset": {"name": "xor"}, "algorithm": "none",
              "steps": 20})"
        << 4 << 20LL << "mean"
        << "none";
    QTest::newRow("pause on the last step")
        << R"({"steps": 5, "workers": 2, "rule": "weighted-mean",
              "delays": {"pauses": [{"worker": 1, "step": 4, "seconds": 2}]}})"
        << 2 << 5LL << "weighted-mean"
        << "ring";
    QTest::newRow("null optional cost")
        << R"({"cost": {"one_worker_compute_s": null}, "algorithm": "tree", "steps": 7})" << 4
        << 7LL << "mean"
        << "tree";
}

void TestScenario::good_scenarios() {
    QFETCH(QString, json);
    QFETCH(int, workers);
    QFETCH(qlonglong, steps);
    QFETCH(QString, rule);
    QFETCH(QString, algorithm);
    Scenario s;
    try {
        s = parse_scenario(json.toStdString());
    } catch (const Error& e) {
        QFAIL(e.what());
    }
    QCOMPARE(s.workers, workers);
    QCOMPARE(s.steps, steps);
    QCOMPARE(QString::fromLatin1(to_string(s.rule).data(), qsizetype(to_string(s.rule).size())),
             rule);
    QCOMPARE(QString::fromLatin1(to_string(s.algorithm).data(),
                                 qsizetype(to_string(s.algorithm).size())),
             algorithm);
}

void TestScenario::relative_paths_resolve() {
    const Scenario s = parse_scenario(
        R"({"dataset": {"csv": "data/points.csv"}, "model": {"init_params": "p/start.json"}})",
        "/lessons/one");
    QCOMPARE(QString::fromStdString(s.dataset.csv), QStringLiteral("/lessons/one/data/points.csv"));
    QCOMPARE(QString::fromStdString(s.init_params), QStringLiteral("/lessons/one/p/start.json"));
    QVERIFY(s.dataset.name.empty());

    const Scenario absolute =
        parse_scenario(R"({"dataset": {"csv": "/data/points.csv"}})", "/lessons/one");
    QCOMPARE(QString::fromStdString(absolute.dataset.csv), QStringLiteral("/data/points.csv"));
}

void TestScenario::bad_scenarios_data() {
    QTest::addColumn<QString>("json");
    QTest::addColumn<QString>("fragment");

    // The one-worker reference of strong scaling trains on every worker's batch together.
    QTest::newRow("strong scaling's global batch over the limit")
        << R"({"workers": 2, "batch": 40000})"
        << "batch: with strong scaling the one-worker reference trains on the global batch, "
           "80000 samples";

    // Keys and types.
    QTest::newRow("unknown top-level key") << R"({"workers": 2, "foo": 1})"
                                           << "foo: unknown key";
    QTest::newRow("unknown nested key") << R"({"model": {"layers": [2, 8, 3], "bogus": true}})"
                                        << "model.bogus: unknown key";
    QTest::newRow("unknown key in a pause")
        << R"({"delays": {"pauses": [{"worker": 0, "step": 1, "when": 2}]}})"
        << "delays.pauses[0].when: unknown key";
    QTest::newRow("unknown key in cost") << R"({"cost": {"alpha": 1}})"
                                         << "cost.alpha: unknown key";
    QTest::newRow("model not an object") << R"({"model": [2, 8, 3]})"
                                         << "model: must be an object";
    QTest::newRow("steps as a string") << R"({"steps": "ten"})"
                                       << "steps: must be a whole number between 1 and 1000000";
    QTest::newRow("steps as a fraction") << R"({"steps": 2.5})"
                                         << "steps: must be a whole number between 1 and 1000000";
    QTest::newRow("shuffle as a string") << R"({"shuffle": "yes"})"
                                         << "shuffle: must be true or false";
    QTest::newRow("name not a string") << R"({"name": 7})"
                                       << "name: must be a string";

    // Ranges.
    QTest::newRow("workers 0") << R"({"workers": 0})"
                               << "workers: must be between 1 and 256, got 0";
    QTest::newRow("workers 300") << R"({"workers": 300})"
                                 << "workers: must be between 1 and 256, got 300";
    QTest::newRow("batch 0") << R"({"batch": 0})"
                             << "batch: must be between 1 and 65536, got 0";
    QTest::newRow("steps 0") << R"({"steps": 0})"
                             << "steps: must be between 1 and 1000000, got 0";
    QTest::newRow("negative seed") << R"({"seed": -1})"
                                   << "seed: must be between 0 and";
    QTest::newRow("seed past the int64 range")
        << R"({"seed": 18446744073709551615})"
        << "seed: must be between 0 and 9007199254740992, got 18446744073709551615";
    QTest::newRow("layer width past the int64 range")
        << R"({"model": {"layers": [2, 9223372036854775808, 3]}})"
        << "model.layers[1]: must be between 1 and 4096, got 9223372036854775808";
    QTest::newRow("negative lr") << R"({"optimizer": {"lr": -0.1}})"
                                 << "optimizer.lr: must be between 0 and 100, got -0.1";
    QTest::newRow("jitter too large") << R"({"cost": {"jitter": 0.95}})"
                                      << "cost.jitter: must be between 0 and 0.9, got 0.95";
    QTest::newRow("noise too large") << R"({"dataset": {"noise": 11}})"
                                     << "dataset.noise: must be between 0 and 10, got 11";
    // Values are reported as given, not rounded to six digits.
    QTest::newRow("samples over the limit")
        << R"({"dataset": {"samples": 1234567}})"
        << "dataset.samples: must be between 1 and 1000000, got 1234567";
    QTest::newRow("slowdown just below 1")
        << R"({"delays": {"slowdown": [0.9999999]}})"
        << "delays.slowdown[0]: must be between 1 and 100, got 0.9999999";
    QTest::newRow("beta2 of 1") << R"({"optimizer": {"beta2": 1}})"
                                << "optimizer.beta2: must be between 0 and 0.999999999, got 1";
    QTest::newRow("nine classes") << R"({"dataset": {"classes": 9}})"
                                  << "dataset.classes: must be between 1 and 8, got 9";

    // The model.
    QTest::newRow("layer of width 0") << R"({"model": {"layers": [2, 0, 3]}})"
                                      << "model.layers[1]: must be between 1 and 4096, got 0";
    QTest::newRow("layer too wide") << R"({"model": {"layers": [2, 5000, 3]}})"
                                    << "model.layers[1]: must be between 1 and 4096, got 5000";
    QTest::newRow("only one layer size") << R"({"model": {"layers": [2]}})"
                                         << "model.layers: needs 2 to 17 sizes";
    QTest::newRow("too many parameters") << R"({"model": {"layers": [2, 4096, 4096, 3]}})"
                                         << "parameters, more than the limit of 16000000";
    QTest::newRow("activation swish")
        << R"({"model": {"activation": "swish"}})"
        << "model.activation: must be one of tanh, relu, sigmoid, linear, got \"swish\"";
    QTest::newRow("cross-entropy with one output")
        << R"({"model": {"layers": [2, 8, 1], "loss": "cross-entropy"}})"
        << "model.layers: cross-entropy needs at least 2 outputs";
    QTest::newRow("regression dataset with cross-entropy")
        << R"({"model": {"layers": [2, 8, 2]}, "dataset": {"name": "regression"}})"
        << "model.loss: the regression dataset needs \"mse\"";
    QTest::newRow("class labels with mse")
        << R"({"model": {"layers": [2, 8, 1], "loss": "mse"}, "dataset": {"name": "spiral"}})"
        << "model.loss: dataset \"spiral\" has class labels";
    QTest::newRow("three inputs for a 2-D set") << R"({"model": {"layers": [3, 8, 3]}})"
                                                << "model.layers[0]: the built-in datasets have 2";
    QTest::newRow("fewer outputs than classes")
        << R"({"model": {"layers": [2, 8, 2]}, "dataset": {"classes": 3}})"
        << "model.layers: the last layer needs one output per class (3), got 2";

    // Choices.
    QTest::newRow("rule median") << R"({"rule": "median"})"
                                 << "rule: must be one of sum, mean, weighted-mean, got \"median\"";
    QTest::newRow("algorithm allgather") << R"({"algorithm": "allgather"})"
                                         << "algorithm: must be one of parameter-server, ring, "
                                            "tree, hierarchical, none, got \"allgather\"";
    QTest::newRow("clock as a number") << R"({"clock": 1})"
                                       << "clock: must be one of modelled, measured";
    QTest::newRow("optimizer kind") << R"({"optimizer": {"kind": "rmsprop"}})"
                                    << "optimizer.kind: must be one of sgd, adam";
    QTest::newRow("dataset mnist")
        << R"({"dataset": {"name": "mnist"}})"
        << "dataset.name: must be one of spiral, circles, xor, clusters, regression, got \"mnist\"";

    // Per-worker lists and delays.
    QTest::newRow("shard_sizes wrong length")
        << R"({"workers": 4, "shard_sizes": [100, 100]})"
        << "shard_sizes: needs one entry per worker (4), got 2";
    QTest::newRow("shard size 0") << R"({"workers": 2, "shard_sizes": [100, 0]})"
                                  << "shard_sizes[1]: must be between 1 and 1000000, got 0";
    QTest::newRow("worker_batch wrong length")
        << R"({"workers": 4, "worker_batch": [8, 8, 8]})"
        << "worker_batch: needs one entry per worker (4), got 3";
    QTest::newRow("slowdown below 1") << R"({"delays": {"slowdown": [1, 0.5]}})"
                                      << "delays.slowdown[1]: must be between 1 and 100, got 0.5";
    QTest::newRow("slowdown for too many workers")
        << R"({"workers": 2, "delays": {"slowdown": [1, 1, 1]}})"
        << "delays.slowdown: one entry per worker at most (2), got 3";
    QTest::newRow("pause beyond the last step")
        << R"({"steps": 5, "delays": {"pauses": [{"worker": 0, "step": 9, "seconds": 1}]}})"
        << "delays.pauses[0].step: must be between 0 and 4, got 9";
    QTest::newRow("pause of a missing worker")
        << R"({"workers": 2, "delays": {"pauses": [{"worker": 5, "step": 0, "seconds": 1}]}})"
        << "delays.pauses[0].worker: must be between 0 and 1, got 5";
    QTest::newRow("fewer samples than workers")
        << R"({"workers": 4, "dataset": {"samples": 3}})"
        << "dataset.samples: needs at least one sample per worker (4), got 3";

    // Not a scenario at all.
    QTest::newRow("invalid JSON") << R"({"workers": 4,)"
                                  << "scenario: not valid JSON";
    // Found by fuzz_scenario: the JSON reader's overflow error escaped as a foreign exception.
    QTest::newRow("number overflowing a double")
        << R"({"cost": {"alpha_s": 1e999}})"
        << "scenario: not valid JSON: number overflow parsing '1e999'";
    // A key twice keeps one value silently in most readers: refused, with where it is.
    QTest::newRow("a key twice")
        << R"({"steps": 3, "model": {"layers": [2, 4, 2], "layers": [2, 3, 2]}})"
        << "scenario: not valid JSON: the key \"layers\" is given twice (in model)";
    QTest::newRow("a key twice at the top")
        << R"({"steps": 3, "workers": 2, "steps": 4})"
        << "scenario: not valid JSON: the key \"steps\" is given twice (at the top level)";
    QTest::newRow("the same key in two objects is fine, a list's objects too")
        << R"({"delays": {"pauses": [{"worker": 9, "step": 0, "seconds": 1}, {"worker": 1, "step": 0, "seconds": 1}]}})"
        << "delays.pauses[0].worker: must be between 0 and 3, got 9";
    QTest::newRow("empty text") << ""
                                << "scenario: not valid JSON";
    QTest::newRow("top level a list") << "[1, 2]"
                                      << "scenario: must be an object";
    QTest::newRow("top level a number") << "42"
                                        << "scenario: must be an object";
}

void TestScenario::bad_scenarios() {
    QFETCH(QString, json);
    QFETCH(QString, fragment);
    const QString message = error_message([&] { parse_scenario(json.toStdString()); });
    LOCKSTEP_VERIFY_CONTAINS(message, fragment);
}

void TestScenario::round_trip_every_field() {
    const Scenario a = parse_scenario(kEveryField);
    // The parse really read every field (the defaults differ from all of these).
    QCOMPARE(QString::fromStdString(a.name), QStringLiteral("every field"));
    QCOMPARE(a.seed, std::uint64_t{12345});
    QCOMPARE(a.worker_batch, (std::vector<std::size_t>{4, 8, 12}));
    QCOMPARE(a.rule, ReductionRule::WeightedMean);
    QCOMPARE(a.clock, ClockKind::Measured);
    QCOMPARE(a.scaling, Scaling::Weak);
    QCOMPARE(a.model.activation, Activation::Relu);
    QCOMPARE(a.optimizer.kind, OptimizerKind::Adam);
    QCOMPARE(a.delays.pauses.size(), std::size_t{1});

    const std::string text = scenario_to_json(a);
    const Scenario b = parse_scenario(text);
    QCOMPARE(b.name, a.name);
    QCOMPARE(b.seed, a.seed);
    QCOMPARE(b.steps, a.steps);
    QCOMPARE(b.workers, a.workers);
    QCOMPARE(b.batch, a.batch);
    QCOMPARE(b.worker_batch, a.worker_batch);
    QCOMPARE(b.shard_sizes, a.shard_sizes);
    QCOMPARE(b.shuffle, a.shuffle);
    QCOMPARE(b.rule, a.rule);
    QCOMPARE(b.algorithm, a.algorithm);
    QCOMPARE(b.clock, a.clock);
    QCOMPARE(b.scaling, a.scaling);
    QCOMPARE(b.model.layers, a.model.layers);
    QCOMPARE(b.model.activation, a.model.activation);
    QCOMPARE(b.model.loss, a.model.loss);
    QCOMPARE(b.init_params, a.init_params);
    QCOMPARE(b.dataset.name, a.dataset.name);
    QCOMPARE(b.dataset.samples, a.dataset.samples);
    QCOMPARE(b.dataset.noise, a.dataset.noise);
    QCOMPARE(b.dataset.classes, a.dataset.classes);
    QCOMPARE(b.optimizer.kind, a.optimizer.kind);
    QCOMPARE(b.optimizer.learning_rate, a.optimizer.learning_rate);
    QCOMPARE(b.optimizer.momentum, a.optimizer.momentum);
    QCOMPARE(b.optimizer.beta1, a.optimizer.beta1);
    QCOMPARE(b.optimizer.beta2, a.optimizer.beta2);
    QCOMPARE(b.optimizer.epsilon, a.optimizer.epsilon);
    QCOMPARE(b.cost.compute_s_per_sample, a.cost.compute_s_per_sample);
    QCOMPARE(b.cost.update_s, a.cost.update_s);
    QCOMPARE(b.cost.alpha_s, a.cost.alpha_s);
    QCOMPARE(b.cost.beta_s_per_byte, a.cost.beta_s_per_byte);
    QCOMPARE(b.cost.gamma_s_per_byte, a.cost.gamma_s_per_byte);
    QCOMPARE(b.cost.jitter, a.cost.jitter);
    QCOMPARE(b.cost.one_worker_compute_s, a.cost.one_worker_compute_s);
    QCOMPARE(b.cost.communication_s_per_step, a.cost.communication_s_per_step);
    QCOMPARE(b.delays.slowdown, a.delays.slowdown);
    QCOMPARE(b.delays.pauses.size(), a.delays.pauses.size());
    QCOMPARE(b.delays.pauses[0].worker, 2);
    QCOMPARE(b.delays.pauses[0].step, std::int64_t{39});
    QCOMPARE(b.delays.pauses[0].seconds, 1.5);
    QCOMPARE(b.delays.straggler_probability, a.delays.straggler_probability);
    QCOMPARE(b.delays.straggler_factor, a.delays.straggler_factor);
    QCOMPARE(scenario_to_json(b), text);
}

void TestScenario::round_trip_shipped_data() {
    shipped_scenarios_load_data();
}

void TestScenario::round_trip_shipped() {
    QFETCH(QString, path);
    const Scenario a = load_scenario(path.toStdString());
    const std::string text = scenario_to_json(a);
    const Scenario b = parse_scenario(text);
    QCOMPARE(b.name, a.name);
    QCOMPARE(b.workers, a.workers);
    QCOMPARE(b.steps, a.steps);
    QCOMPARE(b.rule, a.rule);
    QCOMPARE(b.algorithm, a.algorithm);
    QCOMPARE(b.model.layers, a.model.layers);
    QCOMPARE(b.cost.one_worker_compute_s, a.cost.one_worker_compute_s);
    QCOMPARE(scenario_to_json(b), text);
}

void TestScenario::read_missing_file() {
    const std::string path = "/nonexistent-lockstep-dir/no-such-scenario.json";
    const QString read = error_message([&] { read_text_file(path); });
    QVERIFY2(read.contains(QString::fromStdString(path)), qPrintable(read));
    QVERIFY2(read.contains("cannot read"), qPrintable(read));
    const QString load = error_message([&] { load_scenario(path); });
    QVERIFY2(load.contains(QString::fromStdString(path)), qPrintable(load));
}

void TestScenario::read_file_over_limit() {
    QTemporaryDir dir;
    QVERIFY(dir.isValid());
    const QString path = dir.filePath(QStringLiteral("big.json"));
    QVERIFY(write_file(path, QByteArray(100, ' ')));
    QCOMPARE(read_text_file(path.toStdString(), 100).size(), std::size_t{100});
    const QString message = error_message([&] { read_text_file(path.toStdString(), 99); });
    QVERIFY2(message.contains(path), qPrintable(message));
    QVERIFY2(message.contains("100 bytes, more than the limit of 99"), qPrintable(message));
}

void TestScenario::load_names_file_and_field() {
    QTemporaryDir dir;
    QVERIFY(dir.isValid());
    const QString path = dir.filePath(QStringLiteral("bad.json"));
    QVERIFY(write_file(path, R"({"workers": 2, "rule": "median"})"));
    const QString message = error_message([&] { load_scenario(path.toStdString()); });
    QVERIFY2(message.startsWith(path + QStringLiteral(": rule: must be one of")),
             qPrintable(message));
}

QTEST_APPLESS_MAIN(TestScenario)
#include "test_scenario.moc"
