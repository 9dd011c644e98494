#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QProcess>
#include <QSet>
#include <QTemporaryDir>
#include <QtTest>

#include "cli_test_support.h"
#include "test_support.h"

#include <cmath>

using namespace lockstep::testing;

namespace {

constexpr int kTimeoutMs = lockstep::testing::kCliTimeoutMs;

const QString kWorkedExample =
    QStringLiteral(LOCKSTEP_SOURCE_DIR "/resources/scenarios/worked-example.json");

bool write_file(const QString& path, const QByteArray& bytes) {
    QFile file(path);
    if (!file.open(QIODevice::WriteOnly | QIODevice::Truncate))
        return false;
    return file.write(bytes) == bytes.size();
}

QByteArray read_file(const QString& path) {
    QFile file(path);
    return file.open(QIODevice::ReadOnly) ? file.readAll() : QByteArray();
}

// Runs `run` with a checkpoint every `every` steps in `dir`, takes the commit point away from the
// last one (step `steps`), resumes there, and compares the parameters it ends with to `whole`,
// the same run's uninterrupted.
void check_resume_gives_the_whole_run(const QStringList& run, const QString& dir, int every,
                                      int steps, const QString& whole) {
    const QStringList checkpointed =
        run + QStringList{"--checkpoint-dir", dir, "--checkpoint-every", QString::number(every)};
    const CliResult c = run_cli(checkpointed);
    QVERIFY2(c.finished && c.exit_code == 0, qPrintable(describe(checkpointed, c)));
    QVERIFY(QFile::remove(dir + QStringLiteral("/step-%1/MANIFEST").arg(steps, 9, 10, QChar('0'))));
    const QString resumed = dir + QStringLiteral(".resumed.json");
    const CliResult r = run_cli({"resume", dir, "--params-out", resumed});
    QVERIFY2(r.finished && r.exit_code == 0, r.err.constData());
    QCOMPARE(read_file(resumed), read_file(whole));
}

} // namespace

// Runs the real lockstep-cli: output formats, files it writes, and one-line errors for bad input.
class TestCli : public QObject {
    Q_OBJECT

private Q_SLOTS:
    void initTestCase();

    // A diverging run stops at the step that diverged, says why in one line, and fails.
    // --version names the vector path in use; LOCKSTEP_SIMD chooses one, and a wrong value is
    // named in a warning, never a failure; a run's numbers are the same on every path.
    void version_names_the_vector_path() {
        QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
        env.insert("LOCKSTEP_SIMD", "sse2");
        const CliResult forced = run_program(LOCKSTEP_CLI_PATH, {"--version"}, env);
        QCOMPARE(forced.exit_code, 0);
        QVERIFY2(forced.out.contains("vectors: sse2 (this processor: sse2"),
                 forced.out.constData());
        env.insert("LOCKSTEP_SIMD", "avx1024");
        const CliResult wrong = run_program(LOCKSTEP_CLI_PATH, {"--version"}, env);
        QCOMPARE(wrong.exit_code, 0);
        QVERIFY2(wrong.err.contains("LOCKSTEP_SIMD=avx1024 is not one of sse2, avx2, avx512"),
                 wrong.err.constData());
        QTemporaryDir dir;
        QByteArray first;
        for (const char* path : {"sse2", "avx2", "avx512"}) {
            env.insert("LOCKSTEP_SIMD", path);
            const QString out = dir.filePath(QStringLiteral("%1.json").arg(path));
            const QStringList run{"run",       "--layers", "2,33,17,3",    "--steps", "30",
                                  "--workers", "3",        "--params-out", out};
            const CliResult r = run_program(LOCKSTEP_CLI_PATH, run, env);
            QVERIFY2(r.exit_code == 0, qPrintable(describe(run, r)));
            QFile f(out);
            QVERIFY(f.open(QIODevice::ReadOnly));
            const QByteArray params = f.readAll(); // the shortest text of each double
            QVERIFY(params.size() > 1000);
            if (first.isEmpty())
                first = params;
            QVERIFY2(params == first, path);
        }
    }

    // Gradients sent as float16: the report and its JSON say so, with a quarter of the bytes.
    void run_sends_gradients_as_asked() {
        const CliResult wide = run_cli({"run", "--steps", "5", "--json"});
        const CliResult half =
            run_cli({"run", "--steps", "5", "--json", "--comm-precision", "float16"});
        QCOMPARE(wide.exit_code, 0);
        QCOMPARE(half.exit_code, 0);
        const QJsonObject w = QJsonDocument::fromJson(wide.out).object();
        const QJsonObject h = QJsonDocument::fromJson(half.out).object();
        QCOMPARE(w.value("comm_precision").toString(), QStringLiteral("float64"));
        QCOMPARE(h.value("comm_precision").toString(), QStringLiteral("float16"));
        QCOMPARE(h.value("bytes_per_value").toInt(), 2);
        QCOMPARE(h.value("overflow_steps").toInt(), 0);
        QCOMPARE(h.value("bytes_moved").toDouble() * 4, w.value("bytes_moved").toDouble());
        const CliResult text = run_cli({"run", "--steps", "5", "--comm-precision", "bfloat16"});
        LOCKSTEP_VERIFY_CONTAINS(
            QString::fromUtf8(text.out),
            QStringLiteral("bfloat16, 2 bytes a value; 0 step(s) skipped because the summed "
                           "gradient overflowed"));
    }

    // --precision float32: the report says so, the parameters are floats, and a checkpoint of it
    // resumes to the uninterrupted run's bits but is refused, by name, by a float64 run.
    void a_float32_run_keeps_its_precision_through_checkpoints() {
        QTemporaryDir tmp;
        QVERIFY(tmp.isValid());
        const QString dir = tmp.filePath("ck");
        const QString whole = tmp.filePath("whole.json");
        const QStringList base{"run", "--steps", "8", "--precision", "float32", "--json"};
        const CliResult u = run_cli(base + QStringList{"--params-out", whole});
        QVERIFY2(u.finished && u.exit_code == 0, qPrintable(describe(base, u)));
        const QJsonObject report = QJsonDocument::fromJson(u.out).object();
        QCOMPARE(report.value("precision").toString(), QStringLiteral("float32"));
        QCOMPARE(report.value("comm_precision").toString(), QStringLiteral("float32"));
        QCOMPARE(report.value("bytes_per_value").toInt(), 4);
        const CliResult wide = run_cli({"run", "--steps", "8", "--json"});
        QCOMPARE(QJsonDocument::fromJson(wide.out).object().value("bytes_moved").toDouble(),
                 2 * report.value("bytes_moved").toDouble());
        const QJsonArray layers =
            QJsonDocument::fromJson(read_file(whole)).object().value("layers").toArray();
        int values = 0;
        for (const auto& layer : layers)
            for (const auto& row : layer.toObject().value("weight").toArray())
                for (const auto& v : row.toArray()) {
                    const double x = v.toDouble();
                    QCOMPARE(static_cast<double>(static_cast<float>(x)), x);
                    ++values;
                }
        QVERIFY(values > 100);

        check_resume_gives_the_whole_run(base, dir, 4, 8, whole);
        if (QTest::currentTestFailed())
            return;

        // The same checkpoint under the scenario's float64 twin.
        QJsonObject scenario = QJsonDocument::fromJson(read_file(dir + "/scenario.json")).object();
        QCOMPARE(scenario.value("precision").toString(), QStringLiteral("float32"));
        scenario.remove("precision");
        QVERIFY(write_file(dir + "/scenario.json", QJsonDocument(scenario).toJson()));
        const CliResult refused = run_cli({"resume", dir});
        QVERIFY(refused.finished);
        QVERIFY(refused.exit_code != 0);
        LOCKSTEP_VERIFY_CONTAINS(
            QString::fromUtf8(refused.err),
            QStringLiteral("the checkpoint holds a float32 model, this run trains in float64"));
    }

    // The loss scale is part of what a checkpoint keeps: resumed after its scale has moved, the
    // run gives the uninterrupted run's bits; the report names the scale's start and end.
    void the_loss_scale_resumes_from_its_checkpoint() {
        QTemporaryDir tmp;
        QVERIFY(tmp.isValid());
        const QString dir = tmp.filePath("ck");
        const QString whole = tmp.filePath("whole.json");
        const QStringList base{"run",     "--steps",      "10",       "--workers",
                               "8",       "--rule",       "sum",      "--comm-precision",
                               "float16", "--loss-scale", "16777216", "--loss-scale-growth",
                               "2"};
        const CliResult u = run_cli(base + QStringList{"--params-out", whole, "--json"});
        QVERIFY2(u.finished && u.exit_code == 0, qPrintable(describe(base, u)));
        const QJsonObject report = QJsonDocument::fromJson(u.out).object();
        QVERIFY(report.value("overflow_steps").toInt() > 0);
        QVERIFY(report.value("loss_scale").toDouble() < 16777216.0);
        const CliResult text = run_cli(base);
        LOCKSTEP_VERIFY_CONTAINS(QString::fromUtf8(text.out),
                                 QStringLiteral("started at 16777216, ended at %1")
                                     .arg(report.value("loss_scale").toDouble(), 0, 'f', 0));

        check_resume_gives_the_whole_run(base, dir, 5, 10, whole); // resumed from step 5
    }

    void run_compares_with_float64_when_asked() {
        const CliResult r = run_cli({"run", "--steps", "6", "--json", "--comm-precision",
                                     "bfloat16", "--compare-precision"});
        QCOMPARE(r.exit_code, 0);
        const QJsonArray gaps =
            QJsonDocument::fromJson(r.out).object().value("precision_gap").toArray();
        QCOMPARE(gaps.size(), 6);
        for (const auto& g : gaps)
            QVERIFY(g.toDouble() > 0.0 && g.toDouble() < 0.1);
        const CliResult text =
            run_cli({"run", "--steps", "6", "--comm-precision", "bfloat16", "--compare-precision"});
        LOCKSTEP_VERIFY_CONTAINS(QString::fromUtf8(text.out),
                                 QStringLiteral("from the float64 reference, at step"));
        const CliResult plain = run_cli({"run", "--steps", "6", "--json"});
        QVERIFY(QJsonDocument::fromJson(plain.out).object().value("precision_gap").isNull());
    }

    void a_diverging_run_fails_naming_the_step() {
        const CliResult r = run_cli({"run", "--lr", "100", "--steps", "200", "--dataset",
                                     "regression", "--activation", "relu", "--momentum", "0.99"});
        QVERIFY(r.finished);
        QCOMPARE(r.exit_code, 1);
        const QString err = QString::fromUtf8(r.err);
        LOCKSTEP_VERIFY_CONTAINS(err, QStringLiteral("lockstep-cli: training diverged in step "));
        LOCKSTEP_VERIFY_CONTAINS(err, QStringLiteral("of 200: the loss became"));
        LOCKSTEP_VERIFY_CONTAINS(err, QStringLiteral("Try a smaller one, such as 10."));
        QVERIFY(!r.out.contains("final loss"));
    }

    void reduce_prints_value_data();
    void reduce_prints_value();
    void run_json_worked_example();
    void run_writes_trace_metrics_and_parameters();
    void flags_override_scenario_data();
    void flags_override_scenario();
    void csv_dataset_without_shuffle();
    void sweep_json();
    void validate_good_file();
    void validate_bad_file_data();
    void validate_bad_file();
    void bench_allreduce_json();
    void bench_train_json();
    void checkpoints_lists_complete_ones();
    void resume_after_partial_checkpoint();
    void bad_invocation_data();
    void bad_invocation();

private:
    // Runs the CLI expecting success and its stdout to be one JSON document.
    QJsonDocument run_json(const QStringList& args);

    QTemporaryDir dir_;
    QString csv8_;
    QString ragged_csv_;
};

void TestCli::initTestCase() {
    QVERIFY(QFile::exists(QStringLiteral(LOCKSTEP_CLI_PATH)));
    QVERIFY(dir_.isValid());
    csv8_ = dir_.filePath("eight.csv");
    QVERIFY(write_file(csv8_, "x0,x1,label\n"
                              "0,0,0\n0,1,1\n1,0,1\n1,1,0\n"
                              "0.5,0.5,0\n0.2,0.9,1\n0.9,0.1,1\n0.7,0.8,0\n"));
    ragged_csv_ = dir_.filePath("ragged.csv");
    QVERIFY(write_file(ragged_csv_, "x0,x1,label\n0,0,0\n0,1\n1,0,1\n1,1,0\n"));
}

QJsonDocument TestCli::run_json(const QStringList& args) {
    const CliResult r = run_cli(args);
    if (!r.finished || r.exit_code != 0) {
        qWarning("%s", qPrintable(describe(args, r)));
        return {};
    }
    QJsonParseError error{};
    const QJsonDocument doc = QJsonDocument::fromJson(r.out, &error);
    if (error.error != QJsonParseError::NoError)
        qWarning("not JSON (%s): %s", qPrintable(error.errorString()), r.out.left(500).data());
    return doc;
}

void TestCli::reduce_prints_value_data() {
    QTest::addColumn<QStringList>("args");
    QTest::addColumn<QByteArray>("expected");
    QTest::newRow("mean") << QStringList{"reduce", "--rule", "mean", "--values", "2,4"}
                          << QByteArray("3\n");
    QTest::newRow("sum") << QStringList{"reduce", "--rule", "sum", "--values", "2,4"}
                         << QByteArray("6\n");
    QTest::newRow("weighted-mean")
        << QStringList{"reduce", "--rule", "weighted-mean", "--values", "2,4", "--weights", "30,10"}
        << QByteArray("2.5\n");
}

// Lesson 3's numbers, printed as the shortest exact text.
void TestCli::reduce_prints_value() {
    QFETCH(QStringList, args);
    QFETCH(QByteArray, expected);
    const CliResult r = run_cli(args);
    QVERIFY2(r.finished && r.exit_code == 0, qPrintable(describe(args, r)));
    QCOMPARE(r.out, expected);
    QCOMPARE(r.err, QByteArray());
}

void TestCli::run_json_worked_example() {
    const QJsonDocument doc = run_json({"run", kWorkedExample, "--json"});
    QVERIFY(doc.isObject());
    const QJsonObject o = doc.object();
    QVERIFY(o.value("total_time_s").toDouble() == 16.0);
    QVERIFY(o.value("speedup").toDouble() == 2.5);
    QVERIFY(o.value("baseline_time_s").toDouble() == 40.0);
    QCOMPARE(o.value("workers").toInt(), 4);
    QCOMPARE(o.value("replicas_aligned"), QJsonValue(true));
    for (const char* key :
         {"steps", "efficiency", "final_loss", "compute_s", "communication_s", "waiting_s"})
        QVERIFY2(o.value(key).isDouble(), key);
    QCOMPARE(o.value("steps").toInt(), 8);
    QVERIFY(o.value("efficiency").toDouble() == 0.625);
    QVERIFY(o.value("compute_s").toDouble() == 10.0);
    QVERIFY(o.value("communication_s").toDouble() == 6.0);
}

// A 3-worker run writes a Chrome trace with one lane per worker, one CSV line per step (plus the
// header) and a parameter file that a later run starts from.
void TestCli::run_writes_trace_metrics_and_parameters() {
    QTemporaryDir tmp;
    QVERIFY(tmp.isValid());
    const QString trace = tmp.filePath("T.json");
    const QString metrics = tmp.filePath("M.csv");
    const QString params = tmp.filePath("P.json");
    const QStringList args{"run", "--workers",     "3",     "--steps",      "5",   "--trace",
                           trace, "--metrics-csv", metrics, "--params-out", params};
    const CliResult r = run_cli(args);
    QVERIFY2(r.finished && r.exit_code == 0, qPrintable(describe(args, r)));
    QCOMPARE(r.err, QByteArray());

    const QJsonDocument doc = QJsonDocument::fromJson(read_file(trace));
    QVERIFY(doc.isObject());
    const QJsonArray events = doc.object().value("traceEvents").toArray();
    QSet<int> named_lanes, used_lanes;
    for (const auto& v : events) {
        const QJsonObject e = v.toObject();
        if (e.value("ph") == QJsonValue("M") && e.value("name") == QJsonValue("thread_name"))
            named_lanes.insert(e.value("tid").toInt());
        if (e.value("ph") == QJsonValue("X"))
            used_lanes.insert(e.value("tid").toInt());
    }
    QCOMPARE(named_lanes, (QSet<int>{0, 1, 2}));
    QCOMPARE(used_lanes, (QSet<int>{0, 1, 2}));

    const QByteArray csv = read_file(metrics);
    QCOMPARE(csv.count('\n'), 6);
    QVERIFY(csv.endsWith('\n'));
    QVERIFY(csv.startsWith("step,"));

    // With a learning rate of 0 a run started from P.json must write P.json back unchanged.
    const QString again = tmp.filePath("P2.json");
    const QStringList resume{"run", "--init-params", params, "--steps", "1", "--lr",
                             "0",   "--params-out",  again,  "--json"};
    const CliResult r2 = run_cli(resume);
    QVERIFY2(r2.finished && r2.exit_code == 0, qPrintable(describe(resume, r2)));
    QVERIFY(QJsonDocument::fromJson(r2.out).isObject());
    const QByteArray first = read_file(params);
    QVERIFY(!first.isEmpty());
    QCOMPARE(read_file(again), first);

    // Without --init-params the same run starts from the seed's parameters instead.
    const QString fresh = tmp.filePath("P3.json");
    const QStringList seeded{"run", "--steps", "1", "--lr", "0", "--params-out", fresh};
    const CliResult r3 = run_cli(seeded);
    QVERIFY2(r3.finished && r3.exit_code == 0, qPrintable(describe(seeded, r3)));
    QVERIFY(read_file(fresh) != first);
}

void TestCli::flags_override_scenario_data() {
    QTest::addColumn<QStringList>("flags");
    QTest::addColumn<QString>("key");
    QTest::addColumn<QJsonValue>("expected");
    QTest::newRow("--workers 2") << QStringList{"--workers", "2"} << "workers" << QJsonValue(2);
    QTest::newRow("--steps 3") << QStringList{"--steps", "3"} << "steps" << QJsonValue(3);
    QTest::newRow("--algorithm tree")
        << QStringList{"--algorithm", "tree"} << "algorithm" << QJsonValue("tree");
    QTest::newRow("--rule sum") << QStringList{"--rule", "sum"} << "rule" << QJsonValue("sum");
    QTest::newRow("--clock=measured")
        << QStringList{"--clock=measured", "--steps", "2"} << "clock" << QJsonValue("measured");
}

void TestCli::flags_override_scenario() {
    QFETCH(QStringList, flags);
    QFETCH(QString, key);
    QFETCH(QJsonValue, expected);
    const QJsonDocument doc = run_json(QStringList{"run", kWorkedExample, "--json"} + flags);
    QVERIFY(doc.isObject());
    QCOMPARE(doc.object().value(key), expected);
    QCOMPARE(doc.object().value("scenario"), QJsonValue("worked-example"));
}

void TestCli::csv_dataset_without_shuffle() {
    const QJsonDocument doc = run_json({"run", "--dataset", csv8_, "--shuffle", "off", "--workers",
                                        "2", "--batch", "4", "--steps", "3", "--json"});
    QVERIFY(doc.isObject());
    const QJsonObject o = doc.object();
    QCOMPARE(o.value("workers").toInt(), 2);
    QCOMPARE(o.value("steps").toInt(), 3);
    QCOMPARE(o.value("samples").toInt(), 2 * 4 * 3);
    QCOMPARE(o.value("replicas_aligned"), QJsonValue(true));
    QVERIFY(o.value("final_loss").toDouble() > 0.0);
}

void TestCli::sweep_json() {
    const QJsonDocument doc = run_json({"sweep", "--workers", "1,2,4", "--steps", "10", "--json"});
    QVERIFY(doc.isArray());
    const QJsonArray points = doc.array();
    QCOMPARE(points.size(), 3);
    const int counts[] = {1, 2, 4};
    for (int i = 0; i < 3; ++i) {
        const QJsonObject p = points[i].toObject();
        for (const char* key : {"workers", "time_s", "speedup", "efficiency"})
            QVERIFY2(p.value(key).isDouble(), key);
        QCOMPARE(p.value("workers").toInt(), counts[i]);
        QVERIFY(p.value("time_s").toDouble() > 0.0);
        const double speedup = p.value("speedup").toDouble();
        QVERIFY(speedup > 0.0);
        QVERIFY(std::abs(p.value("efficiency").toDouble() - speedup / counts[i]) <= 1e-12);
    }
    QVERIFY(points[0].toObject().value("speedup").toDouble() == 1.0);
}

void TestCli::validate_good_file() {
    const QStringList args{"validate", kWorkedExample};
    const CliResult r = run_cli(args);
    QVERIFY2(r.finished && r.exit_code == 0, qPrintable(describe(args, r)));
    QVERIFY(r.out.contains("valid"));
    QCOMPARE(r.err, QByteArray());
}

void TestCli::validate_bad_file_data() {
    QTest::addColumn<QByteArray>("content");
    QTest::addColumn<QString>("fragment");
    QTest::newRow("workers 0") << QByteArray(R"({"workers": 0})") << "workers";
    QTest::newRow("unknown key") << QByteArray(R"({"wrokers": 4})") << "wrokers: unknown key";
    QTest::newRow("bad layer") << QByteArray(R"({"model": {"layers": [2, 0, 3]}})")
                               << "model.layers[1]";
    QTest::newRow("not JSON") << QByteArray("{\"workers\": 4,") << "not valid JSON";
}

void TestCli::validate_bad_file() {
    QFETCH(QByteArray, content);
    QFETCH(QString, fragment);
    const QString path = dir_.filePath("bad.json");
    QVERIFY(write_file(path, content));
    const QStringList args{"validate", path};
    const CliResult r = run_cli(args);
    QVERIFY2(r.finished && r.exit_code != 0, qPrintable(describe(args, r)));
    QCOMPARE(r.err.count('\n'), 1);
    QVERIFY(r.err.endsWith('\n'));
    QVERIFY2(QString::fromUtf8(r.err).contains(fragment), r.err.constData());
    QVERIFY(!r.out.contains("valid"));
}

void TestCli::bench_allreduce_json() {
    const QJsonDocument doc = run_json({"bench", "allreduce", "--algorithm", "ring", "--workers",
                                        "4", "--bytes", "1048576", "--json"});
    QVERIFY(doc.isObject());
    const QJsonObject o = doc.object();
    QCOMPARE(o.value("workers").toInt(), 4);
    QCOMPARE(o.value("algorithm"), QJsonValue("ring"));
    QVERIFY(o.value("algbw_gbps").toDouble() > 0.0);
    QVERIFY(o.value("busbw_gbps").toDouble() > 0.0);
    QVERIFY(o.value("memcpy_gbps").toDouble() > 0.0);
}

void TestCli::bench_train_json() {
    const QJsonDocument doc = run_json(
        {"bench", "train", "--layers", "2,8,2", "--batch", "8", "--steps", "20", "--json"});
    QVERIFY(doc.isObject());
    QVERIFY(doc.object().value("samples_per_s").toDouble() > 0.0);
}

void TestCli::checkpoints_lists_complete_ones() {
    QTemporaryDir tmp;
    QVERIFY(tmp.isValid());
    const QString dir = tmp.filePath("ck");
    const QStringList args{
        "run",    "--steps", "10",    "--checkpoint-dir", dir, "--checkpoint-every", "3",
        "--keep", "2",       "--json"};
    const CliResult r = run_cli(args);
    QVERIFY2(r.finished && r.exit_code == 0, qPrintable(describe(args, r)));
    const QJsonObject run = QJsonDocument::fromJson(r.out).object();
    QCOMPARE(run.value("checkpoints").toInt(), 3); // after steps 3, 6 and 9
    QVERIFY(run.value("checkpoint_s").toDouble() > 0.0);
    QVERIFY(run.value("per_worker").toArray().at(0).toObject().value("checkpoint_s").toDouble() >
            0.0);
    QVERIFY(QFile::exists(dir + "/scenario.json"));

    const QStringList list{"checkpoints", dir, "--json"};
    const CliResult l = run_cli(list);
    QVERIFY2(l.finished && l.exit_code == 0, qPrintable(describe(list, l)));
    const QJsonArray checkpoints =
        QJsonDocument::fromJson(l.out).object().value("checkpoints").toArray();
    QCOMPARE(checkpoints.size(), 2); // keep 2: step 3 pruned
    QCOMPARE(checkpoints.at(0).toObject().value("step").toInt(), 6);
    QCOMPARE(checkpoints.at(1).toObject().value("step").toInt(), 9);
    for (const auto& c : checkpoints)
        QCOMPARE(c.toObject().value("status").toString(), QStringLiteral("complete"));

    // A checkpoint without its manifest is listed as partial, with the reason.
    QVERIFY(QFile::remove(dir + "/step-000000009/MANIFEST"));
    const CliResult p = run_cli(QStringList{"checkpoints", dir});
    QVERIFY2(p.finished && p.exit_code == 0, qPrintable(describe(list, p)));
    QVERIFY2(p.out.contains("step-000000006") && p.out.contains("complete") &&
                 p.out.contains("partial") && p.out.contains("MANIFEST"),
             p.out.constData());
}

void TestCli::resume_after_partial_checkpoint() {
    QTemporaryDir tmp;
    QVERIFY(tmp.isValid());
    const QString dir = tmp.filePath("ck");
    const QString whole = tmp.filePath("whole.json");
    const QString resumed = tmp.filePath("resumed.json");
    const QStringList uninterrupted{"run",  "--steps", "12",           "--optimizer", "adam",
                                    "--lr", "0.01",    "--params-out", whole};
    const CliResult u = run_cli(uninterrupted);
    QVERIFY2(u.finished && u.exit_code == 0, qPrintable(describe(uninterrupted, u)));

    const QStringList checkpointed{
        "run",  "--steps",          "12", "--optimizer",        "adam", "--lr",
        "0.01", "--checkpoint-dir", dir,  "--checkpoint-every", "4"};
    const CliResult c = run_cli(checkpointed);
    QVERIFY2(c.finished && c.exit_code == 0, qPrintable(describe(checkpointed, c)));
    // The newest checkpoint (step 12) loses its commit point; a leftover temporary file too.
    QVERIFY(QFile::remove(dir + "/step-000000012/MANIFEST"));
    QVERIFY(write_file(dir + "/step-000000012/worker-1.ckpt.tmp", "LKSTCKPT and half a file"));
    // A file of the user's with a temporary's name is not the run's to remove.
    QVERIFY(write_file(dir + "/notes.tmp", "mine"));

    const QStringList resume{"resume", dir, "--json", "--params-out", resumed};
    const CliResult r = run_cli(resume);
    QVERIFY2(r.finished && r.exit_code == 0, qPrintable(describe(resume, r)));
    const QJsonObject out = QJsonDocument::fromJson(r.out).object();
    QCOMPARE(out.value("resumed_from_step").toInt(), 8);
    QCOMPARE(out.value("steps").toInt(), 12);
    QCOMPARE(out.value("restore").toString(), QStringLiteral("full"));
    QCOMPARE(out.value("steps_run").toInt(), 4); // steps 9 to 12
    QVERIFY(out.value("baseline_time_s").toDouble() > 0.0);
    const QString err = QString::fromUtf8(r.err);
    QVERIFY2(err.contains("step-000000012") && err.contains("partial"), qPrintable(err));
    QVERIFY2(err.contains("worker-1.ckpt.tmp"), qPrintable(err));
    QVERIFY(!QFile::exists(dir + "/step-000000012/worker-1.ckpt.tmp"));
    QCOMPARE(read_file(dir + "/notes.tmp"), QByteArray("mine"));
    QVERIFY(!read_file(whole).isEmpty());
    QCOMPARE(read_file(resumed), read_file(whole));

    // A weights-only restore from the same checkpoint continues differently.
    const QString weights = tmp.filePath("weights.json");
    const QStringList again{"run",
                            "--steps",
                            "12",
                            "--optimizer",
                            "adam",
                            "--lr",
                            "0.01",
                            "--checkpoint-dir",
                            tmp.filePath("w"),
                            "--checkpoint-every",
                            "4",
                            "--restore",
                            "weights-only"};
    const CliResult w = run_cli(again);
    QVERIFY2(w.finished && w.exit_code == 0, qPrintable(describe(again, w)));
    QVERIFY(QFile::remove(tmp.filePath("w/step-000000012/MANIFEST")));
    const QStringList resume_weights{"resume", tmp.filePath("w"), "--json", "--params-out",
                                     weights};
    const CliResult rw = run_cli(resume_weights);
    QVERIFY2(rw.finished && rw.exit_code == 0, qPrintable(describe(resume_weights, rw)));
    const QJsonObject wout = QJsonDocument::fromJson(rw.out).object();
    QCOMPARE(wout.value("resumed_from_step").toInt(), 8);
    QCOMPARE(wout.value("restore").toString(), QStringLiteral("weights-only"));
    QVERIFY(!read_file(weights).isEmpty());
    QVERIFY(read_file(weights) != read_file(whole));

    // The resume checkpointed step 12 again, complete this time.
    const CliResult l = run_cli(QStringList{"checkpoints", dir, "--json"});
    const QJsonArray list = QJsonDocument::fromJson(l.out).object().value("checkpoints").toArray();
    QCOMPARE(list.last().toObject().value("step").toInt(), 12);
    QCOMPARE(list.last().toObject().value("status").toString(), QStringLiteral("complete"));
}

void TestCli::bad_invocation_data() {
    QTest::addColumn<QStringList>("args");
    QTest::addColumn<QStringList>("fragments");
    QTest::newRow("unknown command")
        << QStringList{"frobnicate"} << QStringList{"unknown command", "frobnicate"};
    QTest::newRow("unknown flag") << QStringList{"run", "--bogus", "1"}
                                  << QStringList{"unknown option", "--bogus"};
    QTest::newRow("--workers abc")
        << QStringList{"run", "--workers", "abc"} << QStringList{"--workers", "'abc'"};
    QTest::newRow("--workers 0") << QStringList{"run", "--workers", "0"}
                                 << QStringList{"--workers", "between 1 and 256"};
    QTest::newRow("--rule median") << QStringList{"reduce", "--rule", "median", "--values", "2,4"}
                                   << QStringList{"--rule", "weighted-mean", "'median'"};
    QTest::newRow("--algorithm x")
        << QStringList{"run", "--algorithm", "x"} << QStringList{"--algorithm", "ring", "'x'"};
    QTest::newRow("--layers 2,0,2")
        << QStringList{"run", "--layers", "2,0,2"} << QStringList{"--layers", "'0'"};
    QTest::newRow("--dataset nope")
        << QStringList{"run", "--dataset", "nope"} << QStringList{"--dataset", "spiral", "'nope'"};
    QTest::newRow("missing scenario file") << QStringList{"run", dir_.filePath("missing.json")}
                                           << QStringList{"missing.json", "cannot read"};
    QTest::newRow("reduce, mismatched weights")
        << QStringList{"reduce", "--rule", "weighted-mean", "--values", "2,4", "--weights", "1"}
        << QStringList{"--weights", "one weight per value"};
    QTest::newRow("weighted-mean without weights")
        << QStringList{"reduce", "--rule", "weighted-mean", "--values", "2,4"}
        << QStringList{"weighted-mean", "--weights"};
    QTest::newRow("--shuffle maybe")
        << QStringList{"run", "--shuffle", "maybe"} << QStringList{"--shuffle", "'maybe'"};
    QTest::newRow("--comm-precision float8")
        << QStringList{"run", "--comm-precision", "float8"}
        << QStringList{"--comm-precision", "float16", "bfloat16", "'float8'"};
    QTest::newRow("--comm-precision without an all-reduce")
        << QStringList{"run", "--comm-precision", "float16", "--sync", "async"}
        << QStringList{"comm_precision \"float16\"", "needs sync mode bsp", "async"};
    QTest::newRow("--precision float16")
        << QStringList{"run", "--precision", "float16"}
        << QStringList{"--precision", "float64", "float32", "'float16'"};
    QTest::newRow("--precision float32 in a pipeline")
        << QStringList{"run", "--precision", "float32", "--parallelism", "pipeline"}
        << QStringList{"precision \"float32\"", "data-parallel", "pipeline"};
    QTest::newRow("--precision float32 sharded")
        << QStringList{"run", "--precision", "float32", "--shard", "parameters"}
        << QStringList{"precision \"float32\"", "sharding", "parameters"};
    QTest::newRow("--loss-scale 3")
        << QStringList{"run", "--comm-precision", "float16", "--loss-scale", "3"}
        << QStringList{"loss_scale.initial", "power of two", "3"};
    QTest::newRow("--loss-scale without a narrow format")
        << QStringList{"run", "--loss-scale", "1024"}
        << QStringList{"loss_scale", "comm_precision is float64"};
    QTest::newRow("--compare-precision with async")
        << QStringList{"run", "--compare-precision", "--sync", "async"}
        << QStringList{"compare_precision", "bulk-synchronous"};
    QTest::newRow("--checkpoint-dir without a policy")
        << QStringList{"run", "--checkpoint-dir", dir_.filePath("ck")}
        << QStringList{"--checkpoint-dir", "--checkpoint-every"};
    QTest::newRow("--checkpoint-every without a directory")
        << QStringList{"run", "--checkpoint-every", "2"}
        << QStringList{"--checkpoint-every", "--checkpoint-dir"};
    QTest::newRow("--restore half")
        << QStringList{"run", "--checkpoint-every", "2", "--restore", "half"}
        << QStringList{"--restore", "weights-only", "'half'"};
    QTest::newRow("--keep 0") << QStringList{"run", "--checkpoint-every", "2", "--keep", "0"}
                              << QStringList{"--keep", "between 1 and 1000"};
    QTest::newRow("resume a missing directory") << QStringList{"resume", dir_.filePath("nowhere")}
                                                << QStringList{"nowhere", "not a directory"};
    QTest::newRow("resume without scenario.json")
        << QStringList{"resume", dir_.path()} << QStringList{"scenario.json", "--checkpoint-dir"};
    QTest::newRow("checkpoints of a missing directory")
        << QStringList{"checkpoints", dir_.filePath("nowhere")} << QStringList{"nowhere"};
    QTest::newRow("ragged CSV") << QStringList{"run", "--dataset", ragged_csv_, "--steps", "1"}
                                << QStringList{"ragged.csv:3", "fields"};
}

// Every mistake exits non-zero with one line on stderr that names what was wrong.
void TestCli::bad_invocation() {
    QFETCH(QStringList, args);
    QFETCH(QStringList, fragments);
    const CliResult r = run_cli(args);
    QVERIFY2(r.finished, qPrintable(describe(args, r)));
    QVERIFY2(r.exit_code != 0, qPrintable(describe(args, r)));
    QCOMPARE(r.out, QByteArray());
    QVERIFY2(r.err.count('\n') == 1 && r.err.endsWith('\n'), qPrintable(describe(args, r)));
    for (const QString& fragment : fragments)
        QVERIFY2(QString::fromUtf8(r.err).contains(fragment),
                 qPrintable(fragment + " missing from " + describe(args, r)));
}

QTEST_GUILESS_MAIN(TestCli)
#include "test_cli.moc"
