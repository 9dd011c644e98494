// Runs the real lockstep-cli: `memory` side by side agrees with `run --json`'s ledger for each
// stage, `run --shard optimizer` (and `parameters` with the tree) gives the unsharded run's loss,
// and bad stages are named.
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
        QCOMPARE(stages.size(), 4); // none, optimizer, gradients, parameters
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
            for (const char* kind : {"parameters", "gradients", "optimizer", "activations",
                                     "workspace", "peak", "parameters_peak"})
                QCOMPARE(stage.value(kind).toInteger(), most.value(kind).toInteger());
        }
        // 243 parameters: unsharded, Adam's two moments of every one; sharded, of 61 at most;
        // stage 3's pieces of the three layers (51, 162, 30 values) are 62 at most. Stage 2 keeps
        // a shard of the gradient, stage 3 of the parameters too, with one layer (162) gathered
        // at the most.
        const auto field = [&](int stage, const char* kind) {
            return stages.at(stage).toObject().value(kind).toInteger();
        };
        QCOMPARE(field(0, "optimizer"), 243 * 2 * 8);
        QCOMPARE(field(1, "optimizer"), 61 * 2 * 8);
        QCOMPARE(field(2, "optimizer"), 61 * 2 * 8);
        QCOMPARE(field(2, "gradients"), 61 * 8);
        QCOMPARE(field(3, "optimizer"), 62 * 2 * 8);
        QCOMPARE(field(3, "parameters"), 62 * 8);
        QCOMPARE(field(3, "parameters_peak"), (62 + 162) * 8);
        QCOMPARE(field(1, "parameters_peak"), 243 * 8);
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
        // By phase: unsharded, no halves; stage 1, the ring's two halves carry the same bytes.
        const auto phase = [](const QJsonObject& o, const char* half) {
            return o.value("bytes_moved_by_phase").toObject().value(half).toInteger(-1);
        };
        QCOMPARE(phase(a, "reduce_scatter"), 0);
        QCOMPARE(phase(a, "all_gather"), 0);
        QVERIFY(phase(b, "reduce_scatter") > 0);
        QCOMPARE(phase(b, "all_gather"), phase(b, "reduce_scatter"));
        QCOMPARE(phase(b, "reduce_scatter") + phase(b, "all_gather"),
                 b.value("bytes_moved").toInteger());
        const CliResult text = run_cli(args + QStringList{"--shard", "optimizer"});
        QVERIFY(text.out.contains("ZeRO stage 1"));
        QVERIFY2(text.out.contains(QByteArray("reduce-scatter ") +
                                   QByteArray::number(phase(b, "reduce_scatter"))),
                 text.out.constData());
        // Stage 3 gathers every layer twice and scatters its gradient once.
        const CliResult three = run_cli(args + QStringList{"--shard", "parameters", "--json"});
        const QJsonObject c = QJsonDocument::fromJson(three.out).object();
        QCOMPARE(phase(c, "all_gather"), 2 * phase(c, "reduce_scatter"));
        QCOMPARE(phase(c, "reduce_scatter") + phase(c, "all_gather"),
                 c.value("bytes_moved").toInteger());
        // Stage 3 with the tree adds every value in the unsharded order too: the same loss.
        args += QStringList{"--algorithm", "tree"};
        const CliResult tree = run_cli(args + QStringList{"--json"});
        const CliResult fsdp = run_cli(args + QStringList{"--shard", "parameters", "--json"});
        QVERIFY2(tree.exit_code == 0 && fsdp.exit_code == 0, fsdp.err.constData());
        QCOMPARE(QJsonDocument::fromJson(fsdp.out).object().value("final_loss").toDouble(),
                 QJsonDocument::fromJson(tree.out).object().value("final_loss").toDouble());
        QVERIFY(run_cli(args + QStringList{"--shard", "parameters"}).out.contains("ZeRO stage 3"));
    }

    void bad_stages_are_named() {
        const CliResult unknown = run_cli({"memory", "--shard", "none,zero"});
        QCOMPARE(unknown.exit_code, 1);
        QVERIFY2(unknown.err.contains("--shard") && unknown.err.contains("zero"),
                 unknown.err.constData());
        const CliResult later =
            run_cli({"run", "--shard", "parameters", "--bucket-kb", "1", "--steps", "2"});
        QCOMPARE(later.exit_code, 1);
        QVERIFY2(later.err.contains("sharding \"parameters\"") &&
                     later.err.contains("gradients.bucket_kb"),
                 later.err.constData());
        // A sharded run saves checkpoints: every worker's file, and the manifest that commits them.
        QTemporaryDir dir;
        const CliResult saved =
            run_cli({"run", "--workers", "4", "--shard", "parameters", "--checkpoint-every", "2",
                     "--steps", "2", "--checkpoint-dir", dir.path()});
        QCOMPARE(saved.exit_code, 0);
        const QDir step(dir.filePath(QStringLiteral("step-000000002")));
        QVERIFY2(step.exists(QStringLiteral("MANIFEST")), saved.err.constData());
        QVERIFY(step.exists(QStringLiteral("worker-3.ckpt")));
    }
};

QTEST_GUILESS_MAIN(TestMemoryCli)
#include "test_memory_cli.moc"
