// Runs the real lockstep-cli: `memory` side by side agrees with `run --json`'s ledger for each
// stage, `run --shard optimizer` gives the unsharded run's loss, and bad stages are named.
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QtTest>

#include "cli_test_support.h"

using namespace lockstep::testing;

namespace {

const QStringList kScenario{"--workers", "4", "--layers",    "2,17,9,3", "--batch", "12",
                            "--steps",   "1", "--optimizer", "adam",     "--lr",    "0.01"};

QJsonObject largest(const QJsonArray& memory) {
    QJsonObject most;
    for (const QJsonValue& v : memory)
        if (v.toObject().value("peak").toInteger() > most.value("peak").toInteger())
            most = v.toObject();
    return most;
}

} // namespace

class TestMemoryCli : public QObject {
    Q_OBJECT

private Q_SLOTS:
    void memory_agrees_with_run() {
        const CliResult side = run_cli(QStringList{"memory"} + kScenario + QStringList{"--json"});
        QVERIFY2(side.finished && side.exit_code == 0, side.err.constData());
        const QJsonArray stages = QJsonDocument::fromJson(side.out).array();
        QCOMPARE(stages.size(), 2);
        for (const QJsonValue& v : stages) {
            const QJsonObject stage = v.toObject();
            const QString shard = stage.value("sharding").toString();
            const CliResult run =
                run_cli(QStringList{"run"} + kScenario + QStringList{"--shard", shard, "--json"});
            QVERIFY2(run.finished && run.exit_code == 0, run.err.constData());
            const QJsonObject report = QJsonDocument::fromJson(run.out).object();
            QCOMPARE(report.value("sharding").toString(), shard);
            const QJsonObject most = largest(report.value("memory").toArray());
            QCOMPARE(report.value("memory").toArray().size(), 4);
            for (const char* kind :
                 {"parameters", "gradients", "optimizer", "activations", "workspace", "peak"})
                QCOMPARE(stage.value(kind).toInteger(), most.value(kind).toInteger());
        }
        // 243 parameters: unsharded, Adam's two moments of every one; sharded, of 61 at most.
        QCOMPARE(stages.at(0).toObject().value("optimizer").toInteger(), 243 * 2 * 8);
        QCOMPARE(stages.at(1).toObject().value("optimizer").toInteger(), 61 * 2 * 8);
        // The text table names the kinds and the ratio to the first column.
        const CliResult text = run_cli(QStringList{"memory"} + kScenario);
        QVERIFY(text.out.contains("optimizer"));
        QVERIFY(text.out.contains("(0.25)"));
    }

    void sharded_run_trains_the_same() {
        QStringList args = QStringList{"run"} + kScenario;
        args[args.indexOf("1")] = "20";
        const CliResult plain = run_cli(args + QStringList{"--json"});
        const CliResult sharded = run_cli(args + QStringList{"--shard", "optimizer", "--json"});
        QVERIFY(plain.exit_code == 0 && sharded.exit_code == 0);
        const QJsonObject a = QJsonDocument::fromJson(plain.out).object();
        const QJsonObject b = QJsonDocument::fromJson(sharded.out).object();
        QCOMPARE(b.value("final_loss").toDouble(), a.value("final_loss").toDouble());
        QCOMPARE(b.value("bytes_moved").toInteger(), a.value("bytes_moved").toInteger());
        const CliResult text = run_cli(args + QStringList{"--shard", "optimizer"});
        QVERIFY(text.out.contains("ZeRO stage 1"));
    }

    void bad_stages_are_named() {
        const CliResult unknown = run_cli({"memory", "--shard", "none,zero"});
        QCOMPARE(unknown.exit_code, 1);
        QVERIFY2(unknown.err.contains("--shard") && unknown.err.contains("zero"),
                 unknown.err.constData());
        const CliResult later = run_cli({"run", "--shard", "parameters", "--steps", "2"});
        QCOMPARE(later.exit_code, 1);
        QVERIFY2(later.err.contains("sharding \"parameters\""), later.err.constData());
        const CliResult saved =
            run_cli({"run", "--shard", "optimizer", "--checkpoint-every", "2", "--steps", "2"});
        QCOMPARE(saved.exit_code, 1);
        QVERIFY2(saved.err.contains("checkpoints"), saved.err.constData());
    }
};

QTEST_GUILESS_MAIN(TestMemoryCli)
#include "test_memory_cli.moc"
