#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QTemporaryDir>
#include <QtTest>

#include "cli_test_support.h"

#include <cmath>

using namespace lockstep::testing;

namespace {

const QString kPipeline = QStringLiteral(LOCKSTEP_SOURCE_DIR "/resources/scenarios/pipeline.json");

QJsonObject json_of(const CliResult& r) {
    return QJsonDocument::fromJson(r.out).object();
}

bool write_file(const QString& path, const QByteArray& bytes) {
    QFile file(path);
    return file.open(QIODevice::WriteOnly | QIODevice::Truncate) &&
           file.write(bytes) == bytes.size();
}

} // namespace

// Runs the real lockstep-cli for model parallelism: run --parallelism, moves, and their errors.
class TestParallelCli : public QObject {
    Q_OBJECT

private Q_SLOTS:
    void run_json_reports_the_pipeline_data() {
        QTest::addColumn<QString>("schedule");
        QTest::addColumn<int>("stages");
        QTest::addColumn<int>("microbatches");
        QTest::addColumn<int>("peak");
        QTest::newRow("fill-drain 4x8") << "fill-drain" << 4 << 8 << 8;
        QTest::newRow("1f1b 4x8") << "1f1b" << 4 << 8 << 4;
        QTest::newRow("1f1b 2x4") << "1f1b" << 2 << 4 << 2;
    }

    // Equal stages (every layer 2 wide) and free messages: the bubble is (P-1)/(M+P-1).
    void run_json_reports_the_pipeline() {
        QFETCH(QString, schedule);
        QFETCH(int, stages);
        QFETCH(int, microbatches);
        QFETCH(int, peak);
        QTemporaryDir dir;
        const QString scenario = dir.filePath("equal.json");
        QVERIFY(write_file(scenario, R"({"steps": 3, "batch": 16,
            "model": {"layers": [2, 2, 2, 2, 2]}, "dataset": {"name": "xor"},
            "cost": {"alpha_s": 0, "beta_s_per_byte": 0, "update_s": 0}})"));
        const QStringList args{"run",
                               scenario,
                               "--parallelism",
                               "pipeline",
                               "--stages",
                               QString::number(stages),
                               "--microbatches",
                               QString::number(microbatches),
                               "--schedule",
                               schedule,
                               "--json"};
        const CliResult r = run_cli(args);
        QVERIFY2(r.finished && r.exit_code == 0, qPrintable(describe(args, r)));
        const QJsonObject o = json_of(r);
        QCOMPARE(o["parallelism"].toString(), QString("pipeline"));
        QCOMPARE(o["schedule"].toString(), schedule);
        const double expected = double(stages - 1) / double(microbatches + stages - 1);
        QVERIFY2(std::fabs(o["bubble_fraction"].toDouble() - expected) < 1e-12,
                 qPrintable(describe(args, r)));
        QCOMPARE(o["peak_inflight_microbatches"].toInt(), peak);
        // 16 rows x 2 doubles at each of the P-1 boundaries, both ways, three steps.
        QCOMPARE(o["bytes_moved"].toInteger(), qint64(3 * 2 * (stages - 1) * 16 * 2 * 8));
        QCOMPARE(o["workers"].toInt(), stages);
    }

    void run_scenario_file_with_parallelism() {
        QTemporaryDir dir;
        const QString trace = dir.filePath("trace.json");
        const QStringList args{"run", kPipeline, "--steps", "5", "--trace", trace};
        const CliResult r = run_cli(args);
        QVERIFY2(r.finished && r.exit_code == 0, qPrintable(describe(args, r)));
        QVERIFY(r.out.contains("2 stages x 4 micro-batches (1f1b)"));
        QVERIFY(r.out.contains("layers 0-1 | layers 2-3"));
        QVERIFY(r.out.contains("at most 2 micro-batches"));
        QFile file(trace);
        QVERIFY(file.open(QIODevice::ReadOnly));
        const auto events = QJsonDocument::fromJson(file.readAll())["traceEvents"].toArray();
        int forwards = 0, bubbles = 0, transfers = 0;
        for (const auto& e : events) {
            const QJsonObject o = e.toObject();
            forwards += o["name"] == "forward" ? 1 : 0;
            bubbles += o["name"] == "bubble" ? 1 : 0;
            transfers += o["ph"] == "b" ? 1 : 0;
        }
        QCOMPARE(forwards, 5 * 2 * 4);
        QVERIFY(bubbles > 0);
        QCOMPARE(transfers, 5 * 2 * 4 * 2); // each micro-batch: send and receive, both ways
    }

    void run_hybrid_and_tensor() {
        QStringList args{"run",    kPipeline,    "--steps", "4",     "--parallelism",
                         "hybrid", "--replicas", "2",       "--json"};
        CliResult r = run_cli(args);
        QVERIFY2(r.finished && r.exit_code == 0, qPrintable(describe(args, r)));
        QJsonObject o = json_of(r);
        QCOMPARE(o["workers"].toInt(), 4);
        QCOMPARE(o["replicas"].toInt(), 2);
        QVERIFY(o["replicas_aligned"].toBool());
        // Per step: activations both ways, 2 replicas x 32 rows x 32 doubles, plus each stage's
        // ring all-reduce over 2 replicas, 2 x its parameters.
        const qint64 parameters = (2 * 32 + 32) + (32 * 32 + 32) + (32 * 32 + 32) + (32 * 3 + 3);
        QCOMPARE(o["gradient_bytes"].toInteger(), qint64(4 * 2 * parameters * 8));
        QCOMPARE(o["activation_bytes"].toInteger(), qint64(4 * 2 * 32 * 32 * 8));

        args = QStringList{"run",    kPipeline,  "--steps", "4",     "--parallelism",
                           "tensor", "--stages", "3",       "--json"};
        r = run_cli(args);
        QVERIFY2(r.finished && r.exit_code == 0, qPrintable(describe(args, r)));
        o = json_of(r);
        QCOMPARE(o["parallelism"].toString(), QString("tensor"));
        QCOMPARE(o["workers"].toInt(), 3);
        QVERIFY(o["bytes_moved"].toInteger() > 0);
    }

    void moves_compares_the_strategies() {
        const QStringList args{"moves", kPipeline, "--json"};
        const CliResult r = run_cli(args);
        QVERIFY2(r.finished && r.exit_code == 0, qPrintable(describe(args, r)));
        const auto list = json_of(r)["strategies"].toArray();
        QCOMPARE(list.size(), 3);
        QCOMPARE(list[0]["strategy"].toString(), QString("data"));
        QCOMPARE(list[1]["strategy"].toString(), QString("pipeline"));
        QCOMPARE(list[2]["strategy"].toString(), QString("tensor"));
        const qint64 parameters = (2 * 32 + 32) + (32 * 32 + 32) + (32 * 32 + 32) + (32 * 3 + 3);
        // Two data-parallel replicas on a ring: each sends its whole gradient once.
        QCOMPARE(list[0]["bytes_per_step"].toInteger(), qint64(2 * parameters * 8));
        // Two stages: 32 rows x 32 activations forward, as many gradients back.
        QCOMPARE(list[1]["bytes_per_step"].toInteger(), qint64(2 * 32 * 32 * 8));
        const auto links = list[1]["links"].toArray();
        QCOMPARE(links.size(), 2);
        QCOMPARE(links[0]["bytes"].toInteger(), qint64(32 * 32 * 8));
        // Two workers share each layer: outputs gathered (1 x 32 rows x outputs), input
        // gradients all-reduced on a ring (2 x 32 rows x inputs, every layer but the first).
        QCOMPARE(list[2]["bytes_per_step"].toInteger(),
                 qint64(32 * (32 + 32 + 32 + 3) * 8 + 2 * 32 * (32 + 32 + 32) * 8));
        QVERIFY(list[1]["waiting_s"].toDouble() > list[0]["waiting_s"].toDouble());

        const CliResult text = run_cli({"moves", kPipeline});
        QCOMPARE(text.exit_code, 0);
        QVERIFY(text.out.contains("moves gradients"));
        QVERIFY(text.out.contains("moves activations and activation gradients"));
        QVERIFY(text.out.contains("0->1 8192"));
    }

    void bad_combinations_data() {
        QTest::addColumn<QStringList>("args");
        QTest::addColumn<QString>("expected");
        QTest::newRow("more stages than layers")
            << QStringList{"run", kPipeline, "--stages", "5"}
            << "parallelism.stages: 5 stages need at least as many layers, the model has 4";
        QTest::newRow("no micro-batch") << QStringList{"run", kPipeline, "--microbatches", "0"}
                                        << "parallelism.microbatches: must be between 1";
        QTest::newRow("more micro-batches than rows")
            << QStringList{"run", kPipeline, "--microbatches", "33"}
            << "parallelism.microbatches: 33 micro-batches cannot be cut from a batch of 32";
        QTest::newRow("unknown schedule") << QStringList{"run", kPipeline, "--schedule", "zigzag"}
                                          << "--schedule: must be one of fill-drain, 1f1b";
        QTest::newRow("unknown parallelism") << QStringList{"run", "--parallelism", "model"}
                                             << "--parallelism: must be one of data, pipeline";
        QTest::newRow("stages without parallelism")
            << QStringList{"run", "--stages", "2"} << "--stages: needs --parallelism";
        QTest::newRow("replicas without hybrid")
            << QStringList{"run", kPipeline, "--replicas", "2"}
            << "--replicas: only a hybrid run has data-parallel replicas";
        QTest::newRow("measured clock") << QStringList{"run", kPipeline, "--clock", "measured"}
                                        << "clock: pipeline and hybrid runs use the modelled";
        QTest::newRow("checkpoints") << QStringList{"run", kPipeline,          "--checkpoint-every",
                                                    "2",   "--checkpoint-dir", "/tmp/none"}
                                     << "--checkpoint-dir: checkpoints are written by";
        QTest::newRow("sweep of a pipeline scenario")
            << QStringList{"sweep", kPipeline, "--workers", "1,2"}
            << "parallelism.mode: \"pipeline\" is trained by lockstep-cli run";
        QTest::newRow("tensor wider than a layer")
            << QStringList{"run", kPipeline, "--parallelism", "tensor", "--stages", "4"}
            << "parallelism.stages: 4 workers cannot share layer 3's 3 outputs";
    }

    void bad_combinations() {
        QFETCH(QStringList, args);
        QFETCH(QString, expected);
        const CliResult r = run_cli(args);
        QVERIFY2(r.finished && r.exit_code == 1, qPrintable(describe(args, r)));
        const QString err = QString::fromUtf8(r.err).trimmed();
        QVERIFY2(err.startsWith("lockstep-cli: " + expected), qPrintable(describe(args, r)));
        QCOMPARE(err.count('\n'), 0);
    }

    void scenario_file_errors_name_the_field() {
        QTemporaryDir dir;
        const QString path = dir.filePath("bad.json");
        QVERIFY(write_file(path, R"({"parallelism": {"mode": "pipeline", "stage": 2}})"));
        CliResult r = run_cli({"validate", path});
        QCOMPARE(r.exit_code, 1);
        QVERIFY2(r.err.contains("parallelism.stage: unknown key"), r.err.constData());
        QVERIFY(write_file(path, R"({"parallelism": {"mode": "pipe"}})"));
        r = run_cli({"validate", path});
        QVERIFY2(r.err.contains("parallelism.mode: must be one of data, pipeline, tensor, hybrid"),
                 r.err.constData());
        QVERIFY(write_file(path, R"({"parallelism": {"stages": 2}})"));
        r = run_cli({"validate", path});
        QVERIFY2(r.err.contains("parallelism.mode: required"), r.err.constData());
    }
};

QTEST_GUILESS_MAIN(TestParallelCli)
#include "test_parallel_cli.moc"
