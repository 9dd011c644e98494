// The answers of the lesson "Sharing the model's memory": the scenario call's memory figures and
// bytes moved per step, each the engine's own (RunMetrics of the same run, asked directly); a
// set link's sharding; and the smallest_stage call, for budgets that every stage, only stage 3 or
// no stage fits, with the refusals of its check. Beside them, the set link's number formats and
// the scenario call's overflow and loss-scale figures, for a lesson on precision.
#include "test_support.h"

#include "lockstep_lessons/action.h"
#include "lockstep_lessons/engine_answers.h"
#include "lockstep_lessons/quiz.h"

#include "core/error.h"
#include "runs/runs.h"
#include "scenario/scenario.h"

#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QTemporaryDir>
#include <QtTest>

#include <algorithm>

using namespace lockstep;
using namespace lockstep::lessons;
using namespace lockstep::testing;

namespace {

// 4 workers, 133,123 parameters, Adam, ring, batch 16: unsharded a worker peaks at 6,554,640
// bytes, with stages 1 and 2 at 4,957,168 and with stage 3 at 3,400,608.
const char* const kScenario = R"({
  "name": "sharing memory", "workers": 4, "steps": 3, "batch": 16, "algorithm": "ring",
  "model": {"layers": [2, 256, 256, 256, 3]}, "optimizer": {"kind": "adam", "lr": 0.001}
})";

// The lesson "How many bits?"'s network, adding with the sum rule on slow links.
const char* const kFormats = R"({
  "name": "formats", "workers": 8, "steps": 12, "batch": 16, "algorithm": "ring", "rule": "sum",
  "model": {"layers": [2, 64, 64, 3]}, "optimizer": {"kind": "sgd", "lr": 0.01}
})";

const char* const kPipeline = R"({
  "name": "pipeline", "steps": 2, "batch": 8, "model": {"layers": [2, 16, 16, 3]},
  "parallelism": {"mode": "pipeline", "stages": 2, "microbatches": 2}
})";

const char* const kTensor = R"({
  "name": "tensor", "steps": 2, "batch": 8, "model": {"layers": [2, 16, 16, 3]},
  "parallelism": {"mode": "tensor", "stages": 2}
})";

EngineCall call(const char* json) {
    return {QJsonDocument::fromJson(QByteArray(json)).object()};
}

// The worker with the largest peak in RunMetrics::memory.
WorkerMemory largest(const RunMetrics& m) {
    return *std::max_element(
        m.memory.begin(), m.memory.end(),
        [](const WorkerMemory& a, const WorkerMemory& b) { return a.peak < b.peak; });
}

} // namespace

class TestShardingAnswers : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void initTestCase();
    void memory_metrics_are_the_runs_data();
    void memory_metrics_are_the_runs();
    void bytes_moved_per_step_is_the_runs();
    void memory_metrics_need_a_ledger_data();
    void memory_metrics_need_a_ledger();
    void set_sharding_names_a_bad_stage();
    void set_changes_the_number_formats();
    void number_format_is_the_engines_data();
    void number_format_is_the_engines();
    void number_format_refusals_data();
    void number_format_refusals();
    void a_rounded_value_that_overflows_is_named();
    void most_overflows_is_the_run_that_skips_most();
    void smallest_stage_data();
    void smallest_stage();
    void smallest_stage_takes_a_variable();
    void smallest_stage_refusals_data();
    void smallest_stage_refusals();
    void the_lessons_calls_check_in_a_bank();

private:
    QTemporaryDir dir_;
};

void TestShardingAnswers::initTestCase() {
    QVERIFY(dir_.isValid());
    for (const auto& [name, text] :
         {std::pair{"scenario.json", kScenario}, std::pair{"pipeline.json", kPipeline},
          std::pair{"tensor.json", kTensor}, std::pair{"formats.json", kFormats}}) {
        QFile f(dir_.filePath(QString::fromLatin1(name)));
        QVERIFY(f.open(QIODevice::WriteOnly));
        f.write(text);
    }
}

void TestShardingAnswers::memory_metrics_are_the_runs_data() {
    QTest::addColumn<QString>("stage");
    QTest::addColumn<QString>("metric");
    for (const char* stage : {"none", "optimizer", "parameters"})
        for (const char* metric : {"peak_bytes", "parameters_peak_bytes", "parameter_bytes",
                                   "gradient_bytes", "optimizer_bytes", "activation_bytes"})
            QTest::addRow("%s %s", stage, metric)
                << QString::fromLatin1(stage) << QString::fromLatin1(metric);
}

// Each figure is the largest worker's in the RunMetrics of the same run, asked of the engine.
void TestShardingAnswers::memory_metrics_are_the_runs() {
    QFETCH(QString, stage);
    QFETCH(QString, metric);
    Scenario s = load_scenario(dir_.filePath(QStringLiteral("scenario.json")).toStdString());
    QVERIFY(parse_sharding(stage.toStdString(), s.sharding));
    const WorkerMemory w = largest(run_scenario(s).metrics);
    const std::int64_t expected = metric == QLatin1String("peak_bytes") ? w.peak
                                  : metric == QLatin1String("parameters_peak_bytes")
                                      ? w.parameters_peak
                                  : metric == QLatin1String("parameter_bytes") ? w.parameters
                                  : metric == QLatin1String("gradient_bytes")  ? w.gradients
                                  : metric == QLatin1String("optimizer_bytes") ? w.optimizer
                                                                               : w.activations;
    QVERIFY(expected > 0);
    QJsonObject spec{{QStringLiteral("engine"), QStringLiteral("scenario")},
                     {QStringLiteral("file"), QStringLiteral("scenario.json")},
                     {QStringLiteral("set"), QJsonObject{{QStringLiteral("sharding"), stage}}},
                     {QStringLiteral("metric"), metric}};
    const EngineCall c{spec};
    check_engine_call(c, {}, dir_.path());
    QCOMPARE(evaluate(c, {}, dir_.path()), static_cast<double>(expected));
    // The figures a student can check by hand: Adam's two moments of 133,123 parameters, whole
    // unsharded, a quarter (of the padded shards) with any stage.
    if (metric == QLatin1String("optimizer_bytes"))
        QCOMPARE(expected,
                 stage == QLatin1String("none") ? std::int64_t{2'129'968} : std::int64_t{532'496});
    if (metric == QLatin1String("peak_bytes") && stage != QLatin1String("optimizer"))
        QCOMPARE(expected, stage == QLatin1String("none") ? std::int64_t{6'554'640}
                                                          : std::int64_t{3'400'608});
}

void TestShardingAnswers::bytes_moved_per_step_is_the_runs() {
    for (const char* stage : {"none", "parameters"}) {
        Scenario s = load_scenario(dir_.filePath(QStringLiteral("scenario.json")).toStdString());
        QVERIFY(parse_sharding(stage, s.sharding));
        const RunMetrics m = run_scenario(s).metrics;
        QCOMPARE(m.steps_run, std::int64_t{3});
        QVERIFY(m.bytes_moved > 0);
        const EngineCall c{
            QJsonObject{{QStringLiteral("engine"), QStringLiteral("scenario")},
                        {QStringLiteral("file"), QStringLiteral("scenario.json")},
                        {QStringLiteral("set"),
                         QJsonObject{{QStringLiteral("sharding"), QString::fromLatin1(stage)}}},
                        {QStringLiteral("metric"), QStringLiteral("bytes_moved_per_step")}}};
        QCOMPARE(evaluate(c, {}, dir_.path()), static_cast<double>(m.bytes_moved) / 3.0);
    }
}

void TestShardingAnswers::memory_metrics_need_a_ledger_data() {
    QTest::addColumn<QString>("file");
    QTest::addColumn<QString>("metric");
    QTest::addColumn<QString>("fragment");
    QTest::newRow("pipeline") << QStringLiteral("pipeline.json") << QStringLiteral("peak_bytes")
                              << QStringLiteral("'peak_bytes' is not a pipeline's figure");
    QTest::newRow("tensor") << QStringLiteral("tensor.json") << QStringLiteral("optimizer_bytes")
                            << QStringLiteral("'optimizer_bytes' is read off a data-parallel "
                                              "worker's memory ledger");
}

void TestShardingAnswers::memory_metrics_need_a_ledger() {
    QFETCH(QString, file);
    QFETCH(QString, metric);
    QFETCH(QString, fragment);
    const EngineCall c{QJsonObject{{QStringLiteral("engine"), QStringLiteral("scenario")},
                                   {QStringLiteral("file"), file},
                                   {QStringLiteral("metric"), metric}}};
    LOCKSTEP_VERIFY_CONTAINS(error_message([&] { (void)evaluate(c, {}, dir_.path()); }), fragment);
    if (file == QLatin1String("tensor.json")) // the check says so before anything runs
        LOCKSTEP_VERIFY_CONTAINS(error_message([&] { check_engine_call(c, {}, dir_.path()); }),
                                 QStringLiteral("this scenario's workers keep none"));
}

void TestShardingAnswers::set_sharding_names_a_bad_stage() {
    const QString bad =
        error_message([] { (void)parse_action(QStringLiteral("lockstep:set?sharding=zero3")); });
    LOCKSTEP_VERIFY_CONTAINS(
        bad, QStringLiteral(
                 "sharding must be one of none, optimizer, gradients, parameters, got 'zero3'"));
    Scenario s = load_scenario(dir_.filePath(QStringLiteral("scenario.json")).toStdString());
    apply_set(parse_action(QStringLiteral("lockstep:set?sharding=gradients")), s);
    QCOMPARE(s.sharding, Sharding::Gradients);
    // A stage the scenario cannot take is refused with validate()'s reason.
    s.gradients = GradientConfig{64, true, 1}; // buckets: no stage takes them yet
    LOCKSTEP_VERIFY_CONTAINS(
        error_message([&] {
            apply_set(parse_action(QStringLiteral("lockstep:set?sharding=parameters")), s);
        }),
        QStringLiteral("the scenario it makes is not valid: sharding \"parameters\""));
}

void TestShardingAnswers::set_changes_the_number_formats() {
    LOCKSTEP_VERIFY_CONTAINS(
        error_message([] { (void)parse_action(QStringLiteral("lockstep:set?precision=float16")); }),
        QStringLiteral("float64, float32"));
    Scenario s = load_scenario(dir_.filePath(QStringLiteral("scenario.json")).toStdString());
    apply_set(parse_action(QStringLiteral(
                  "lockstep:set?precision=float32&comm_precision=float16&loss_scale=1024")),
              s);
    QVERIFY(s.model.precision == Precision::Float32);
    QVERIFY(s.comm_precision == WirePrecision::Float16);
    QVERIFY(s.loss_scale && s.loss_scale->initial == 1024.0);
    QCOMPARE(s.loss_scale->growth_interval, LossScaleConfig{}.growth_interval);
    apply_set(parse_action(QStringLiteral("lockstep:set?loss_scale_growth=10")), s);
    QVERIFY(s.loss_scale && s.loss_scale->initial == 1024.0);
    QCOMPARE(s.loss_scale->growth_interval, 10);
    apply_set(parse_action(QStringLiteral("lockstep:set?loss_scale=0")), s);
    QVERIFY(!s.loss_scale);
    LOCKSTEP_VERIFY_CONTAINS(
        error_message([&] {
            apply_set(parse_action(QStringLiteral("lockstep:set?loss_scale_growth=10")), s);
        }),
        QStringLiteral("loss_scale_growth needs a loss scale"));
    LOCKSTEP_VERIFY_CONTAINS(
        error_message(
            [&] { apply_set(parse_action(QStringLiteral("lockstep:set?loss_scale=3")), s); }),
        QStringLiteral("loss_scale.initial: must be a power of two"));

    // Eight workers' float16 sums from a scale of 2^24: the run's own overflows and last scale.
    const auto figure = [&](const char* metric) {
        const EngineCall c{
            QJsonObject{{QStringLiteral("engine"), QStringLiteral("scenario")},
                        {QStringLiteral("file"), QStringLiteral("scenario.json")},
                        {QStringLiteral("set"),
                         QJsonObject{{QStringLiteral("workers"), 8},
                                     {QStringLiteral("rule"), QStringLiteral("sum")},
                                     {QStringLiteral("comm_precision"), QStringLiteral("float16")},
                                     {QStringLiteral("loss_scale"), 16777216}}},
                        {QStringLiteral("metric"), QString::fromLatin1(metric)}}};
        check_engine_call(c, {}, dir_.path());
        return evaluate(c, {}, dir_.path());
    };
    Scenario eight = load_scenario(dir_.filePath(QStringLiteral("scenario.json")).toStdString());
    apply_set(parse_action(QStringLiteral(
                  "lockstep:set?workers=8&rule=sum&comm_precision=float16&loss_scale=16777216")),
              eight);
    const RunMetrics m = run_scenario(eight).metrics;
    QVERIFY(m.overflow_steps > 0);
    QCOMPARE(figure("overflow_steps"), static_cast<double>(m.overflow_steps));
    QCOMPARE(figure("loss_scale"), m.loss_scale);
    QVERIFY(m.loss_scale < 16777216.0);
}

void TestShardingAnswers::number_format_is_the_engines_data() {
    QTest::addColumn<QString>("format");
    QTest::addColumn<QString>("measure");
    QTest::addColumn<double>("expected");
    QTest::newRow("float16 largest") << "float16"
                                     << "largest" << 65504.0;
    QTest::newRow("bfloat16 largest") << "bfloat16"
                                      << "largest" << 0x1.fep127;
    QTest::newRow("float16 smallest normal") << "float16"
                                             << "smallest_normal" << 0x1p-14;
    QTest::newRow("float16 smallest subnormal") << "float16"
                                                << "smallest_subnormal" << 0x1p-24;
    QTest::newRow("bfloat16 spacing") << "bfloat16"
                                      << "spacing_at_one" << 0x1p-7;
    QTest::newRow("float32 spacing") << "float32"
                                     << "spacing_at_one" << 0x1p-23;
    QTest::newRow("float16 bytes") << "float16"
                                   << "bytes" << 2.0;
    QTest::newRow("float64 bytes") << "float64"
                                   << "bytes" << 8.0;
    QTest::newRow("bfloat16 fraction") << "bfloat16"
                                       << "fraction_bits" << 7.0;
    QTest::newRow("float16 exponent") << "float16"
                                      << "exponent_bits" << 5.0;
}

// Each measure is the engine's NumberFormat's; "rounded" is round_to() of the student's value.
void TestShardingAnswers::number_format_is_the_engines() {
    QFETCH(QString, format);
    QFETCH(QString, measure);
    QFETCH(double, expected);
    const EngineCall c{QJsonObject{{QStringLiteral("engine"), QStringLiteral("number_format")},
                                   {QStringLiteral("format"), format},
                                   {QStringLiteral("measure"), measure}}};
    check_engine_call(c, {}, dir_.path());
    QCOMPARE(evaluate(c, {}, dir_.path()), expected);

    const EngineCall rounded{
        QJsonObject{{QStringLiteral("engine"), QStringLiteral("number_format")},
                    {QStringLiteral("format"), format},
                    {QStringLiteral("measure"), QStringLiteral("rounded")},
                    {QStringLiteral("value"), QStringLiteral("x")}}};
    check_engine_call(rounded, {QStringLiteral("x")}, dir_.path());
    WirePrecision w{};
    QVERIFY(parse_wire_precision(format.toStdString(), w));
    for (double x : {0.1, 1.0 + 0x1p-9, 3.14159, 1000.3})
        QCOMPARE(evaluate(rounded, {{QStringLiteral("x"), x}}, dir_.path()), round_to(w, x));
}

void TestShardingAnswers::number_format_refusals_data() {
    QTest::addColumn<QString>("spec");
    QTest::addColumn<QString>("message");
    QTest::newRow("unknown format")
        << R"({"engine": "number_format", "format": "float8", "measure": "largest"})"
        << "answer.format: must be float64, float32, float16 or bfloat16, got 'float8'";
    QTest::newRow("unknown measure")
        << R"({"engine": "number_format", "format": "float16", "measure": "digits"})"
        << "answer.measure: must be one of largest";
    QTest::newRow("rounded without a value")
        << R"({"engine": "number_format", "format": "float16", "measure": "rounded"})"
        << "'rounded' needs the 'value' to round";
    QTest::newRow("a value it does not use")
        << R"({"engine": "number_format", "format": "float16", "measure": "largest", "value": 2})"
        << "answer.value: only 'rounded' takes a value";
    QTest::newRow("an unknown variable")
        << R"({"engine": "number_format", "format": "float16", "measure": "rounded", "value": "y"})"
        << "answer.value";
}

void TestShardingAnswers::number_format_refusals() {
    QFETCH(QString, spec);
    QFETCH(QString, message);
    const EngineCall c{QJsonDocument::fromJson(spec.toUtf8()).object()};
    LOCKSTEP_VERIFY_CONTAINS(error_message([&] { check_engine_call(c, {}, dir_.path()); }),
                             message);
}

// A value past the format's largest has no rounded value: named, not infinity.
void TestShardingAnswers::a_rounded_value_that_overflows_is_named() {
    const EngineCall big{QJsonObject{{QStringLiteral("engine"), QStringLiteral("number_format")},
                                     {QStringLiteral("format"), QStringLiteral("float16")},
                                     {QStringLiteral("measure"), QStringLiteral("rounded")},
                                     {QStringLiteral("value"), 70000}}};
    LOCKSTEP_VERIFY_CONTAINS(error_message([&] { evaluate(big, {}, dir_.path()); }),
                             QStringLiteral("70000 overflows float16"));
}

// The index of the run that skips the most steps, from the runs themselves; none overflowing, or
// runs that are not a list of settings, are named.
void TestShardingAnswers::most_overflows_is_the_run_that_skips_most() {
    const QString file = dir_.filePath(QStringLiteral("formats.json"));
    const QStringList links = {
        QStringLiteral("lockstep:set?comm_precision=float16"),
        QStringLiteral("lockstep:set?workers=1&comm_precision=float16&loss_scale=16777216"),
        QStringLiteral("lockstep:set?workers=16&comm_precision=float16&loss_scale=16777216"),
    };
    std::vector<std::int64_t> skipped;
    for (const QString& link : links) {
        Scenario s = load_scenario(file.toStdString());
        apply_set(parse_action(link), s);
        skipped.push_back(run_scenario(s).metrics.overflow_steps);
    }
    QCOMPARE(skipped[0], std::int64_t{0});
    QVERIFY2(skipped[1] > 0 && skipped[1] != skipped[2],
             qPrintable(QStringLiteral("%1 and %2 steps skipped").arg(skipped[1]).arg(skipped[2])));
    const auto most = std::max_element(skipped.begin(), skipped.end()) - skipped.begin();

    const auto run = [](int workers, double scale) {
        QJsonObject o{{QStringLiteral("workers"), workers},
                      {QStringLiteral("comm_precision"), QStringLiteral("float16")}};
        if (scale > 0)
            o.insert(QStringLiteral("loss_scale"), scale);
        return o;
    };
    const auto call = [](const QJsonValue& runs) {
        return EngineCall{QJsonObject{{QStringLiteral("engine"), QStringLiteral("most_overflows")},
                                      {QStringLiteral("file"), QStringLiteral("formats.json")},
                                      {QStringLiteral("runs"), runs}}};
    };
    const EngineCall c = call(QJsonArray{run(8, 0), run(1, 16777216), run(16, 16777216)});
    check_engine_call(c, {}, dir_.path());
    QCOMPARE(evaluate(c, {}, dir_.path()), static_cast<double>(most));

    const EngineCall none = call(QJsonArray{run(8, 0), run(4, 0)});
    check_engine_call(none, {}, dir_.path());
    LOCKSTEP_VERIFY_CONTAINS(error_message([&] { evaluate(none, {}, dir_.path()); }),
                             QStringLiteral("none of the runs skips a step"));
    LOCKSTEP_VERIFY_CONTAINS(
        error_message([&] { check_engine_call(call(QJsonArray{run(8, 0)}), {}, dir_.path()); }),
        QStringLiteral("at least two runs"));
    LOCKSTEP_VERIFY_CONTAINS(
        error_message([&] {
            check_engine_call(call(QJsonArray{run(8, 0), QStringLiteral("x")}), {}, dir_.path());
        }),
        QStringLiteral("each run is an object of lockstep:set settings"));
}

void TestShardingAnswers::smallest_stage_data() {
    QTest::addColumn<double>("budget");
    QTest::addColumn<double>("stage");
    QTest::newRow("every stage fits") << 7e6 << 0.0;
    QTest::newRow("the unsharded peak exactly") << 6554640.0 << 0.0;
    QTest::newRow("stages 1 to 3 fit") << 5e6 << 1.0;
    QTest::newRow("only stage 3 fits") << 4e6 << 3.0;
    QTest::newRow("stage 3's peak exactly, a fraction over") << 3400608.9 << 3.0;
    QTest::newRow("none fits") << 3400607.0 << 4.0;
    QTest::newRow("one byte") << 1.0 << 4.0;
}

void TestShardingAnswers::smallest_stage() {
    QFETCH(double, budget);
    QFETCH(double, stage);
    const EngineCall c{QJsonObject{{QStringLiteral("engine"), QStringLiteral("smallest_stage")},
                                   {QStringLiteral("file"), QStringLiteral("scenario.json")},
                                   {QStringLiteral("budget"), budget}}};
    check_engine_call(c, {}, dir_.path());
    QCOMPARE(evaluate(c, {}, dir_.path()), stage);
    // The engine's function behind it, asked directly.
    const Scenario s = load_scenario(dir_.filePath(QStringLiteral("scenario.json")).toStdString());
    const auto least = least_sharding_within(s, static_cast<std::int64_t>(budget));
    QCOMPARE(least ? static_cast<double>(*least) : 4.0, stage);
}

// The bank's own call: the budget a student's variable, described with the student's number.
void TestShardingAnswers::smallest_stage_takes_a_variable() {
    const EngineCall c =
        call(R"({"engine": "smallest_stage", "file": "scenario.json", "budget": "B"})");
    check_engine_call(c, {QStringLiteral("B")}, dir_.path());
    QCOMPARE(evaluate(c, {{QStringLiteral("B"), 4e6}}, dir_.path()), 3.0);
    QCOMPARE(evaluate(c, {{QStringLiteral("B"), 1e7}}, dir_.path()), 0.0);
    const QString working = describe_call(c, {{QStringLiteral("B"), 4e6}}, dir_.path());
    LOCKSTEP_VERIFY_CONTAINS(working, QStringLiteral("smallest_stage"));
    LOCKSTEP_VERIFY_CONTAINS(working, QStringLiteral("gives 3"));
    // A student's budget of nothing is refused, not answered.
    LOCKSTEP_VERIFY_CONTAINS(
        error_message([&] {
            (void)evaluate(c, {{QStringLiteral("B"), 0.0}}, dir_.path());
        }),
        QStringLiteral("answer.budget: a memory budget is a positive number of bytes, got 0"));
    // With a set link: the scenario's own sharding does not change the answer.
    const EngineCall sharded = call(R"({"engine": "smallest_stage", "file": "scenario.json",
                                        "budget": 4000000, "set": {"sharding": "parameters"}})");
    check_engine_call(sharded, {}, dir_.path());
    QCOMPARE(evaluate(sharded, {}, dir_.path()), 3.0);
}

void TestShardingAnswers::smallest_stage_refusals_data() {
    QTest::addColumn<QByteArray>("json");
    QTest::addColumn<QString>("fragment");
    QTest::addColumn<bool>("evaluated"); // evaluate() refuses it too (keys are the check's)
    QTest::newRow("zero budget")
        << QByteArray(R"({"engine": "smallest_stage", "file": "scenario.json", "budget": 0})")
        << QStringLiteral("answer.budget: a memory budget is a positive number of bytes, got 0")
        << true;
    QTest::newRow("negative budget")
        << QByteArray(R"({"engine": "smallest_stage", "file": "scenario.json", "budget": -5})")
        << QStringLiteral("answer.budget: a memory budget is a positive number of bytes, got -5")
        << true;
    QTest::newRow("unknown variable")
        << QByteArray(R"({"engine": "smallest_stage", "file": "scenario.json", "budget": "C"})")
        << QStringLiteral("answer.budget: expected a number or a variable name, got 'C'") << true;
    QTest::newRow("no budget") << QByteArray(
                                      R"({"engine": "smallest_stage", "file": "scenario.json"})")
                               << QStringLiteral("answer: 'smallest_stage' needs 'budget'")
                               << false;
    QTest::newRow("unknown key")
        << QByteArray(R"({"engine": "smallest_stage", "file": "scenario.json", "budget": 1,
                          "stages": [0, 3]})")
        << QStringLiteral("answer.stages: unknown key for 'smallest_stage'") << false;
    QTest::newRow("pipeline")
        << QByteArray(R"({"engine": "smallest_stage", "file": "pipeline.json", "budget": 1e6})")
        << QStringLiteral("answer.file: smallest_stage shards a data-parallel worker's memory; "
                          "this scenario's parallelism.mode is \"pipeline\"")
        << true;
    QTest::newRow("tensor")
        << QByteArray(R"({"engine": "smallest_stage", "file": "tensor.json", "budget": 1e6})")
        << QStringLiteral("parallelism.mode is \"tensor\"") << true;
    QTest::newRow("ssp")
        << QByteArray(R"({"engine": "smallest_stage", "file": "scenario.json", "budget": 1e6,
                          "set": {"sync": "ssp"}})")
        << QStringLiteral("this scenario's sync.mode is ssp, whose workers keep no memory ledger")
        << true;
    QTest::newRow("bad stage in set")
        << QByteArray(R"({"engine": "smallest_stage", "file": "scenario.json", "budget": 1e6,
                          "set": {"sharding": "all"}})")
        << QStringLiteral("sharding must be one of none, optimizer, gradients, parameters, got "
                          "'all'")
        << true;
}

void TestShardingAnswers::smallest_stage_refusals() {
    QFETCH(QByteArray, json);
    QFETCH(QString, fragment);
    QFETCH(bool, evaluated);
    const EngineCall c{QJsonDocument::fromJson(json).object()};
    QVERIFY(!c.spec.isEmpty());
    LOCKSTEP_VERIFY_CONTAINS(error_message([&] { check_engine_call(c, {}, dir_.path()); }),
                             fragment);
    if (evaluated)
        LOCKSTEP_VERIFY_CONTAINS(error_message([&] { (void)evaluate(c, {}, dir_.path()); }),
                                 fragment);
}

// The two calls the lesson's quiz bank makes, exactly as it writes them, in a bank that loads
// (every question's call checked) and answers.
void TestShardingAnswers::the_lessons_calls_check_in_a_bank() {
    const QByteArray bank = R"({"id": "memory", "title": "t", "questions": [
      {"id": "optimizer", "type": "numeric", "text": "?", "explanation": "It is {answer}.",
       "answer": {"engine": "scenario", "file": "scenario.json", "set": {"sharding": "parameters"},
                  "metric": "optimizer_bytes"}},
      {"id": "stage", "type": "numeric", "text": "?", "explanation": "It is {answer}.",
       "variables": [{"name": "B", "min": 3500000, "max": 4500000}],
       "answer": {"engine": "smallest_stage", "file": "scenario.json", "budget": "B"}}]})";
    const QuizBank b = parse_bank(bank, QStringLiteral("inline.json"), dir_.path());
    QCOMPARE(evaluate(*b.find(QStringLiteral("optimizer"))->answer, {}, dir_.path()), 532496.0);
    QCOMPARE(evaluate(*b.find(QStringLiteral("stage"))->answer, {{QStringLiteral("B"), 3.6e6}},
                      dir_.path()),
             3.0);
    QVERIFY(engine_functions().contains(QStringLiteral("smallest_stage")));
}

QTEST_GUILESS_MAIN(TestShardingAnswers)
#include "test_sharding_answers.moc"
