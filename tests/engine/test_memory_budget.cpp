// A worker's memory budget (memory_budget_bytes): a run that would not fit is refused before it
// trains, its message naming the ledger at the peak, the line at which the budget runs out and
// the least-sharded stage that would fit; bad budgets are refused by name; a budget survives a
// trip through JSON; and a run that fits trains exactly as without one.
#include "core/error.h"
#include "runs/runs.h"
#include "scenario/scenario.h"
#include "test_support.h"
#include "trainers/run.h"

#include <QtTest>

#include <algorithm>
#include <cstring>
#include <string>

using namespace lockstep;
using namespace lockstep::testing;

Q_DECLARE_METATYPE(lockstep::Sharding)

namespace {

// 4 workers, 133,123 parameters, Adam (two moments per parameter), ring, batch 16.
Scenario wide(std::int64_t steps = 3) {
    Scenario s;
    s.name = "budget";
    s.workers = 4;
    s.steps = steps;
    s.batch = 16;
    s.algorithm = Algorithm::Ring;
    s.model.layers = {2, 256, 256, 256, 3};
    s.optimizer.kind = OptimizerKind::Adam;
    s.optimizer.learning_rate = 0.001;
    return s;
}

// The largest worker's peak after one step with `stage`, read straight off RunMetrics::memory.
std::int64_t peak_of(Scenario s, Sharding stage) {
    s.steps = 1;
    s.sharding = stage;
    s.memory_budget_bytes.reset();
    const auto run = make_run(s, load_dataset(s));
    run->step();
    const RunMetrics m = run->metrics();
    std::int64_t peak = 0;
    for (const WorkerMemory& w : m.memory)
        peak = std::max(peak, w.peak);
    return peak;
}

QString refusal(const Scenario& s) {
    return error_message([&] { (void)make_run(s, load_dataset(s)); });
}

std::vector<double> trained(const Scenario& s) {
    const auto run = make_run(s, load_dataset(s));
    run->run_to_end();
    return run->parameters();
}

bool same_bits(const std::vector<double>& a, const std::vector<double>& b) {
    return a.size() == b.size() && std::memcmp(a.data(), b.data(), a.size() * sizeof(double)) == 0;
}

} // namespace

class TestMemoryBudget : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void stage_peaks_are_the_ledgers();
    void refusal_names_the_line_and_the_stage();
    void refusal_names_the_stage_that_fits_data();
    void refusal_names_the_stage_that_fits();
    void none_fits();
    void a_budget_that_fits_trains_the_same();
    void the_baseline_and_whole_runs_keep_to_it();
    void least_sharding_within_data();
    void least_sharding_within();
    void bad_budgets_are_named_data();
    void bad_budgets_are_named();
    void no_ledger_no_budget_data();
    void no_ledger_no_budget();
    void round_trip();
};

// The figures the other tests rest on, read off the engine: the unsharded worker holds more
// than 4,000,000 bytes, and so do stages 1 and 2 (the whole gradient at the end of backward);
// stage 3 holds less.
void TestMemoryBudget::stage_peaks_are_the_ledgers() {
    const Scenario s = wide();
    const std::int64_t none = peak_of(s, Sharding::None);
    QCOMPARE(none, std::int64_t{6'554'640});
    QCOMPARE(peak_of(s, Sharding::Optimizer), std::int64_t{4'957'168});
    QCOMPARE(peak_of(s, Sharding::Gradients), std::int64_t{4'957'168});
    QCOMPARE(peak_of(s, Sharding::Parameters), std::int64_t{3'400'608});
    // peak_after_one_step: the same worker, its lines at the peak adding up to it.
    const PeakMemory p = peak_after_one_step(s);
    QCOMPARE(p.worker.peak, none);
    QCOMPARE(p.at_peak.total(), none);
    QCOMPARE(p.at_peak.optimizer, std::int64_t{2 * 133'123 * 8}); // Adam: two moments
    Scenario three = s;
    three.sharding = Sharding::Parameters;
    const PeakMemory q = peak_after_one_step(three);
    QCOMPARE(q.at_peak.total(), q.worker.peak); // mid-step, a layer gathered beside the pieces
    QVERIFY(q.at_peak.parameters > q.worker.parameters);
}

void TestMemoryBudget::refusal_names_the_line_and_the_stage() {
    Scenario s = wide();
    s.memory_budget_bytes = 4'000'000;
    Trace trace;
    const QString message = error_message([&] { (void)make_run(s, load_dataset(s), &trace); });
    QCOMPARE(message,
             QStringLiteral(
                 "memory_budget_bytes 4000000: with sharding \"none\" over 4 workers, a worker's "
                 "peak would be 6554640 bytes (parameters 1064984, gradients 1064984, optimizer "
                 "2129968, activations 164736, workspace 2129968), over by 2554640; added up in "
                 "that order, the budget runs out at the optimizer line; sharding \"parameters\" "
                 "would fit (peak 3400608)"));
    QVERIFY(trace.events().empty()); // refused before it trained
    QVERIFY(trace.snapshots().empty());
    // run_scenario and validate's check say the same.
    QCOMPARE(error_message([&] { (void)run_scenario(s); }), message);
    QCOMPARE(error_message([&] { check_memory_budget(s); }), message);
}

void TestMemoryBudget::refusal_names_the_stage_that_fits_data() {
    QTest::addColumn<Sharding>("stage");
    QTest::addColumn<qint64>("budget");
    QTest::addColumn<QString>("line");
    QTest::addColumn<QString>("names");
    QTest::newRow("stage 1 fits 5 MB")
        << Sharding::None << qint64{5'000'000} << QStringLiteral("the workspace line")
        << QStringLiteral("sharding \"optimizer\" would fit "
                          "(peak 4957168)");
    QTest::newRow("from stage 1, stage 3 fits")
        << Sharding::Optimizer << qint64{4'000'000} << QStringLiteral("the workspace line")
        << QStringLiteral("sharding \"parameters\" would "
                          "fit (peak 3400608)");
    QTest::newRow("from stage 3, none fits")
        << Sharding::Parameters << qint64{3'000'000} << QStringLiteral("the workspace line")
        << QStringLiteral("no way of sharding fits: the least a worker would hold is 3400608 "
                          "bytes, with sharding \"parameters\"");
}

void TestMemoryBudget::refusal_names_the_stage_that_fits() {
    QFETCH(Sharding, stage);
    QFETCH(qint64, budget);
    QFETCH(QString, line);
    QFETCH(QString, names);
    Scenario s = wide();
    s.sharding = stage;
    s.memory_budget_bytes = budget;
    const QString message = refusal(s);
    const std::int64_t peak = peak_of(s, stage);
    LOCKSTEP_VERIFY_CONTAINS(message,
                             QStringLiteral("memory_budget_bytes %1: with sharding \"%2\"")
                                 .arg(budget)
                                 .arg(QString::fromStdString(std::string(to_string(stage)))));
    LOCKSTEP_VERIFY_CONTAINS(message,
                             QStringLiteral("a worker's peak would be %1 bytes").arg(peak));
    LOCKSTEP_VERIFY_CONTAINS(message, QStringLiteral("over by %1").arg(peak - budget));
    LOCKSTEP_VERIFY_CONTAINS(message, line);
    LOCKSTEP_VERIFY_CONTAINS(message, names);
}

// A budget below every stage's peak: the refusal says so, with the least any stage holds.
void TestMemoryBudget::none_fits() {
    Scenario s = wide();
    s.memory_budget_bytes = 1'000'000;
    const QString message = refusal(s);
    LOCKSTEP_VERIFY_CONTAINS(message, QStringLiteral("over by 5554640"));
    // Parameters alone already pass a budget smaller than them.
    LOCKSTEP_VERIFY_CONTAINS(message, QStringLiteral("the budget runs out at the parameters line"));
    LOCKSTEP_VERIFY_CONTAINS(message,
                             QStringLiteral("no way of sharding fits: the least a worker would "
                                            "hold is 3400608 bytes, with sharding \"parameters\""));
    QVERIFY(!message.contains(QStringLiteral("would fit")));
    // A stage the scenario cannot take is not offered, and the refusal says why.
    Scenario bucketed = s; // gradient buckets: no stage takes them yet
    bucketed.gradients = GradientConfig{64, true, 1};
    const QString unsharded = refusal(bucketed);
    LOCKSTEP_VERIFY_CONTAINS(unsharded, QStringLiteral("no way of sharding fits"));
    QVERIFY(!unsharded.contains(QStringLiteral("with sharding \"parameters\"")));
    LOCKSTEP_VERIFY_CONTAINS(unsharded,
                             QStringLiteral("sharding \"parameters\": does not work with gradient "
                                            "buckets"));
}

// A budget the run fits changes nothing: the same bits as the run without it, for the unsharded
// run and for stage 3.
void TestMemoryBudget::a_budget_that_fits_trains_the_same() {
    for (Sharding stage : {Sharding::None, Sharding::Parameters}) {
        Scenario free = wide(4);
        free.sharding = stage;
        Scenario budgeted = free;
        budgeted.memory_budget_bytes = 7'000'000;
        validate(budgeted);
        const std::vector<double> a = trained(free);
        const std::vector<double> b = trained(budgeted);
        QVERIFY(!a.empty());
        QVERIFY(same_bits(a, b));
    }
    // A budget of exactly the peak fits.
    Scenario exact = wide(2);
    exact.memory_budget_bytes = peak_of(exact, Sharding::None);
    QVERIFY(same_bits(trained(exact), trained(wide(2))));
    exact.memory_budget_bytes = *exact.memory_budget_bytes - 1;
    LOCKSTEP_VERIFY_CONTAINS(refusal(exact), QStringLiteral("over by 1;"));
}

// The one-worker reference holds the whole batch and is not what the budget is for: a whole run
// that fits finishes with its speedup. A sweep checks every worker count against the budget: one
// worker holds every shard.
void TestMemoryBudget::the_baseline_and_whole_runs_keep_to_it() {
    Scenario s = wide(3);
    s.memory_budget_bytes = 6'600'000;
    const RunResult r = run_scenario(s);
    QCOMPARE(r.metrics.steps, std::int64_t{3});
    QVERIFY(r.metrics.speedup > 0.0);
    QVERIFY(peak_of(baseline_scenario(s), Sharding::None) > 6'600'000); // it would not fit
    QVERIFY(!baseline_scenario(s).memory_budget_bytes);
    Scenario sharded = wide(2);
    sharded.sharding = Sharding::Parameters;
    sharded.memory_budget_bytes = 3'500'000;
    const int counts[] = {4, 1};
    LOCKSTEP_VERIFY_CONTAINS(error_message([&] { (void)sweep(sharded, counts, Work::TimesOnly); }),
                             QStringLiteral("with sharding \"parameters\" over 1 worker, "));
}

void TestMemoryBudget::least_sharding_within_data() {
    QTest::addColumn<qint64>("budget");
    QTest::addColumn<int>("stage"); // 4: none fits
    QTest::newRow("all fit") << qint64{7'000'000} << 0;
    QTest::newRow("the unsharded peak exactly") << qint64{6'554'640} << 0;
    QTest::newRow("one byte less") << qint64{6'554'639} << 1;
    QTest::newRow("stage 3 only") << qint64{4'000'000} << 3;
    QTest::newRow("none") << qint64{3'400'607} << 4;
}

void TestMemoryBudget::least_sharding_within() {
    QFETCH(qint64, budget);
    QFETCH(int, stage);
    const auto least = lockstep::least_sharding_within(wide(), budget);
    QCOMPARE(least ? static_cast<int>(*least) : 4, stage);
}

void TestMemoryBudget::bad_budgets_are_named_data() {
    QTest::addColumn<QByteArray>("value");
    QTest::addColumn<QString>("fragment");
    const QString range = QStringLiteral("between 1 and 1099511627776");
    QTest::newRow("zero") << QByteArray("0") << range + QStringLiteral(", got 0");
    QTest::newRow("negative") << QByteArray("-5") << range + QStringLiteral(", got -5");
    QTest::newRow("over 1 TiB") << QByteArray("1099511627777")
                                << range + QStringLiteral(", got 1099511627777");
    QTest::newRow("past int64") << QByteArray("18446744073709551615")
                                << range + QStringLiteral(", got 18446744073709551615");
    QTest::newRow("fraction") << QByteArray("4000000.5")
                              << QStringLiteral("must be a whole number of bytes");
    QTest::newRow("exponent") << QByteArray("4e6") << QStringLiteral("must be a whole number");
    QTest::newRow("text") << QByteArray("\"4 MB\"")
                          << QStringLiteral("must be a whole number of bytes between 1 and "
                                            "1099511627776, got \"4 MB\"");
    QTest::newRow("null") << QByteArray("null") << QStringLiteral("got null");
}

void TestMemoryBudget::bad_budgets_are_named() {
    QFETCH(QByteArray, value);
    QFETCH(QString, fragment);
    const std::string text = "{\"memory_budget_bytes\": " + value.toStdString() + "}";
    const QString message = error_message([&] { (void)parse_scenario(text); });
    QVERIFY2(message.startsWith(QStringLiteral("memory_budget_bytes: ")), qPrintable(message));
    LOCKSTEP_VERIFY_CONTAINS(message, fragment);
    // Set in code past validate's range, it is refused too.
    Scenario s = wide();
    s.memory_budget_bytes = 0;
    LOCKSTEP_VERIFY_CONTAINS(error_message([&] { validate(s); }),
                             QStringLiteral("memory_budget_bytes: must be between 1 and"));
}

void TestMemoryBudget::no_ledger_no_budget_data() {
    QTest::addColumn<QByteArray>("settings");
    QTest::addColumn<QString>("fragment");
    QTest::newRow("pipeline") << QByteArray(R"("parallelism": {"mode": "pipeline", "stages": 2})")
                              << QStringLiteral("parallelism.mode is \"pipeline\"");
    QTest::newRow("tensor") << QByteArray(R"("parallelism": {"mode": "tensor", "stages": 2})")
                            << QStringLiteral("parallelism.mode is \"tensor\"");
    QTest::newRow("ssp") << QByteArray(R"("algorithm": "parameter-server",
                                          "sync": {"mode": "ssp", "staleness": 2})")
                         << QStringLiteral("sync.mode is ssp");
    QTest::newRow("async") << QByteArray(R"("algorithm": "parameter-server",
                                            "sync": {"mode": "async"})")
                           << QStringLiteral("sync.mode is async");
}

void TestMemoryBudget::no_ledger_no_budget() {
    QFETCH(QByteArray, settings);
    QFETCH(QString, fragment);
    const std::string text =
        "{\"memory_budget_bytes\": 4000000, \"model\": {\"layers\": [2, 8, 8, 3]}, " +
        settings.toStdString() + "}";
    const QString message = error_message([&] { (void)parse_scenario(text); });
    QVERIFY2(message.startsWith(QStringLiteral("memory_budget_bytes: a budget is checked against "
                                               "a data-parallel worker's memory ledger")),
             qPrintable(message));
    LOCKSTEP_VERIFY_CONTAINS(message, fragment);
    // Local SGD keeps a replica per worker, and its ledger.
    Scenario local = wide(2);
    local.sync = SyncConfig{SyncMode::Local, 0, 2, false};
    local.memory_budget_bytes = 7'000'000;
    validate(local);
    QVERIFY(make_run(local, load_dataset(local)) != nullptr);
}

// Written back only when set, so a scenario without one keeps its JSON and its hash; with one, it
// survives the trip. It is not part of the hash: a run that fits trains the same bits.
void TestMemoryBudget::round_trip() {
    Scenario s = wide();
    const std::string plain = scenario_to_json(s);
    QVERIFY(plain.find("memory_budget_bytes") == std::string::npos);
    s.memory_budget_bytes = 4'000'000;
    const std::string text = scenario_to_json(s);
    QVERIFY(text.find("\"memory_budget_bytes\": 4000000") != std::string::npos);
    const Scenario back = parse_scenario(text);
    QCOMPARE(back.memory_budget_bytes.value_or(-1), std::int64_t{4'000'000});
    QCOMPARE(scenario_to_json(back), text);
    QCOMPARE(scenario_hash(back), scenario_hash(wide()));
    QVERIFY(!parse_scenario(plain).memory_budget_bytes);
    // A change of budget is a new run: the lab cannot take it between two steps.
    QCOMPARE(QString::fromStdString(fixed_for_the_run(wide(), back).value_or("nothing")),
             QStringLiteral("memory_budget_bytes"));
}

QTEST_APPLESS_MAIN(TestMemoryBudget)
#include "test_memory_budget.moc"
