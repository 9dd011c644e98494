// lockstep-cli with failures: --fail specs on run, the recovery report, and compare.

#include <QDir>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QTemporaryDir>
#include <QtTest>

#include "cli_test_support.h"
#include "test_support.h"

using namespace lockstep::testing;

namespace {

QJsonObject json_of(const CliResult& r) {
    return QJsonDocument::fromJson(r.out).object();
}

const QString kScenarios = QStringLiteral(LOCKSTEP_SOURCE_DIR "/resources/scenarios/");

} // namespace

class TestFailureCli : public QObject {
    Q_OBJECT

private Q_SLOTS:
    void crash_and_recover_reports_everything();
    void full_restore_matches_the_clean_run();
    void bad_fail_flags_data();
    void bad_fail_flags();
    void another_runs_directory_is_refused_data();
    void another_runs_directory_is_refused();
    void compare_two_scenarios();
    void compare_counts_failures();
    void compare_bad_input_data();
    void compare_bad_input();
};

void TestFailureCli::crash_and_recover_reports_everything() {
    QTemporaryDir dir;
    const QStringList args{"run",
                           "--steps",
                           "40",
                           "--checkpoint-dir",
                           dir.path(),
                           "--checkpoint-every",
                           "10",
                           "--fail",
                           "corrupt:worker=1,step=20",
                           "--fail",
                           "crash:worker=2,step=25,phase=communicate",
                           "--json"};
    const CliResult r = run_cli(args);
    QVERIFY2(r.finished && r.exit_code == 0, qPrintable(describe(args, r)));
    const QJsonObject o = json_of(r);
    QCOMPARE(o["failures"].toInt(), 1);
    QCOMPARE(o["lost_steps"].toInt(), 16); // back to step 10: steps 10-25 again
    QVERIFY(o["detection_s"].toDouble() > 0);
    QVERIFY(o["energy_j"].toDouble() > 0);
    QVERIFY(o["goodput_samples_per_s"].toDouble() < o["throughput_samples_per_s"].toDouble());
    const QJsonObject rec = o["recoveries"].toArray().at(0).toObject();
    QCOMPARE(rec["failure"].toString(), QStringLiteral("crash:worker=2,step=25,phase=communicate"));
    QCOMPARE(rec["checkpoint"].toString(), QStringLiteral("step-000000010"));
    const QJsonObject skipped = rec["rejected"].toArray().at(0).toObject();
    QCOMPARE(skipped["directory"].toString(), QStringLiteral("step-000000020"));
    QCOMPARE(skipped["status"].toString(), QStringLiteral("corrupt"));
    QVERIFY(skipped["reason"].toString().contains("worker-1.ckpt"));

    // The text report says the same in words.
    QStringList text = args;
    text.removeLast();
    QTemporaryDir again;
    text[4] = again.path();
    const CliResult t = run_cli(text);
    QVERIFY2(t.exit_code == 0, qPrintable(describe(text, t)));
    const QString out = QString::fromUtf8(t.out);
    QVERIFY(out.contains("worker 2 crashed in step 25 (communicate)"));
    QVERIFY(out.contains("skipped step-000000020 (corrupt: worker-1.ckpt"));
    QVERIFY(out.contains("16 steps to redo"));
    QVERIFY(out.contains("energy (modelled)"));
}

void TestFailureCli::full_restore_matches_the_clean_run() {
    QTemporaryDir dir;
    const QString clean = dir.filePath("clean.json"), crashed = dir.filePath("crashed.json");
    const QStringList a{"run", "--steps", "30", "--params-out", clean};
    QCOMPARE(run_cli(a).exit_code, 0);
    const QStringList b{"run",
                        "--steps",
                        "30",
                        "--checkpoint-dir",
                        dir.filePath("ck"),
                        "--checkpoint-every",
                        "7",
                        "--fail",
                        "crash:worker=3,step=22,phase=after-fsync",
                        "--params-out",
                        crashed};
    const CliResult r = run_cli(b);
    QVERIFY2(r.exit_code == 0, qPrintable(describe(b, r)));
    QVERIFY(QString::fromUtf8(r.out).contains("skipped step-000000028 (partial"));
    QFile x(clean), y(crashed);
    QVERIFY(x.open(QIODevice::ReadOnly) && y.open(QIODevice::ReadOnly));
    QCOMPARE(y.readAll(), x.readAll());
}

void TestFailureCli::bad_fail_flags_data() {
    QTest::addColumn<QStringList>("args");
    QTest::addColumn<QString>("fragment");
    QTest::newRow("unknown kind") << QStringList{"run", "--fail", "meteor:worker=1,step=1"}
                                  << "--fail meteor:worker=1,step=1: the kind must be one of";
    QTest::newRow("worker too big") << QStringList{"run", "--fail", "crash:worker=7,step=1"}
                                    << "worker must be between 0 and 3";
    QTest::newRow("checkpoint crash without checkpoints")
        << QStringList{"run", "--fail", "crash:worker=1,step=1,phase=after-rename"}
        << "needs a checkpoint policy";
    QTest::newRow("bad policy") << QStringList{"run", "--policy", "hope"}
                                << "--policy: must be one of restart, elastic, backup";
    QTest::newRow("backup without backups")
        << QStringList{"run", "--policy", "backup"} << "backup needs failures.backup_workers";
    QTest::newRow("too many backups") << QStringList{"run", "--backup-workers", "4"}
                                      << "failures.backup_workers: must be between 0 and 3";
    QTest::newRow("negative heartbeat") << QStringList{"run", "--heartbeat", "-1"}
                                        << "--heartbeat: expected a number between 0 and 3600";
}

void TestFailureCli::bad_fail_flags() {
    QFETCH(QStringList, args);
    QFETCH(QString, fragment);
    const CliResult r = run_cli(args);
    QVERIFY2(r.finished, qPrintable(describe(args, r)));
    QCOMPARE(r.exit_code, 1);
    QVERIFY2(QString::fromUtf8(r.err).contains(fragment), qPrintable(describe(args, r)));
    QVERIFY(r.out.isEmpty());
}

void TestFailureCli::another_runs_directory_is_refused_data() {
    QTest::addColumn<QStringList>("second");
    QTest::newRow("another seed, crashing") << QStringList{
        "--steps", "30", "--seed", "7", "--fail", "crash:worker=2,step=15,phase=compute"};
    QTest::newRow("same scenario, fewer steps")
        << QStringList{"--steps", "20", "--fail", "crash:worker=2,step=15,phase=compute"};
    QTest::newRow("same scenario again") << QStringList{"--steps", "30"};
}

// A second run into a directory that holds the first one's checkpoints is refused with one line
// saying what is there and what to do; the first run's files stay as they were and still resume.
void TestFailureCli::another_runs_directory_is_refused() {
    QFETCH(QStringList, second);
    QTemporaryDir dir;
    const QStringList common{"--checkpoint-dir", dir.path(), "--checkpoint-every", "10"};
    const QStringList first = QStringList{"run", "--steps", "30"} + common;
    const CliResult a = run_cli(first);
    QVERIFY2(a.finished && a.exit_code == 0, qPrintable(describe(first, a)));
    QDir d(dir.path());
    const QStringList before = d.entryList(QDir::AllEntries | QDir::NoDotAndDotDot);

    const QStringList args = QStringList{"run"} + second + common;
    const CliResult b = run_cli(args);
    QVERIFY2(b.finished && b.exit_code == 1, qPrintable(describe(args, b)));
    const QString err = QString::fromUtf8(b.err);
    QCOMPARE(err.count('\n'), 1);
    QVERIFY(err.endsWith('\n'));
    LOCKSTEP_VERIFY_CONTAINS(err, "lockstep-cli: " + dir.path() +
                                      ": holds another run's checkpoints (3 checkpoints, "
                                      "step-000000010 to step-000000030); give this run an "
                                      "empty directory, or continue that run with lockstep-cli "
                                      "resume " +
                                      dir.path());
    QVERIFY(b.out.isEmpty());
    QCOMPARE(d.entryList(QDir::AllEntries | QDir::NoDotAndDotDot), before);
    const QStringList resume{"resume", dir.path(), "--json"};
    const CliResult r = run_cli(resume);
    QVERIFY2(r.finished && r.exit_code == 0, qPrintable(describe(resume, r)));
    QCOMPARE(json_of(r)["resumed_from_step"].toInt(), 30);

    // Into a directory of its own, the crashing run goes back to its own step 10.
    QTemporaryDir own;
    QStringList alone = args;
    alone[alone.indexOf(dir.path())] = own.path();
    const CliResult c = run_cli(alone + QStringList{"--json"});
    QVERIFY2(c.finished && c.exit_code == 0, qPrintable(describe(alone, c)));
    if (second.contains("--fail"))
        QCOMPARE(json_of(c)["lost_steps"].toInt(), 6);
}

void TestFailureCli::compare_two_scenarios() {
    // The worked example against the same job on one worker: a fair comparison at equal loss.
    QTemporaryDir dir;
    const QString one = dir.filePath("one.json");
    QFile in(kScenarios + "worked-example.json");
    QVERIFY(in.open(QIODevice::ReadOnly));
    QJsonObject s = QJsonDocument::fromJson(in.readAll()).object();
    s["workers"] = 1;
    s["name"] = "one worker";
    s.remove("shard_sizes");
    s.remove("worker_batch");
    QFile out(one);
    QVERIFY(out.open(QIODevice::WriteOnly));
    out.write(QJsonDocument(s).toJson());
    out.close();

    const QStringList args{"compare", kScenarios + "worked-example.json", one, "--json"};
    const CliResult r = run_cli(args);
    QVERIFY2(r.exit_code == 0, qPrintable(describe(args, r)));
    const QJsonObject o = json_of(r);
    const QJsonObject a = o["a"].toObject(), b = o["b"].toObject();
    QCOMPARE(a["total_time_s"].toDouble(), 16.0);
    QCOMPARE(b["total_time_s"].toDouble(), 40.0);
    const double target = o["target_loss"].toDouble();
    QCOMPARE(target, std::max(a["final_loss"].toDouble(), b["final_loss"].toDouble()));
    QVERIFY(a["time_to_target_s"].toDouble() <= a["total_time_s"].toDouble());
    QVERIFY(b["time_to_target_s"].toDouble() <= b["total_time_s"].toDouble());
    QVERIFY(a["energy_to_target_j"].toDouble() > 0);
    // Four workers for 16 s against one for 40 s: more power at once.
    QVERIFY(a["energy_j"].toDouble() > b["energy_j"].toDouble());

    const QStringList text{"compare", kScenarios + "worked-example.json", one};
    const CliResult t = run_cli(text);
    QVERIFY2(t.exit_code == 0, qPrintable(describe(text, t)));
    for (const char* row :
         {"time to target loss", "energy to target loss", "useful samples", "synchronisation",
          "waiting", "lost work", "failures", "energy per useful sample", "final training loss",
          "held-out loss", "held-out accuracy"})
        QVERIFY2(QString::fromUtf8(t.out).contains(row), row);

    // The loss on fresh examples, over seeds: one seed has no spread, three do, and the first
    // seed's model is the same whatever the number of seeds.
    const QString straggler = kScenarios + "straggler.json";
    const QString drift = kScenarios + "drift.json";
    auto held_out = [&](const QString& seeds) {
        const QStringList call{"compare", straggler, drift, "--seeds", seeds, "--json"};
        const CliResult c = run_cli(call);
        [&] { QVERIFY2(c.exit_code == 0, qPrintable(describe(call, c))); }();
        return json_of(c)["a"].toObject()["held_out"].toObject();
    };
    const QJsonObject one_seed = held_out("1"), three = held_out("3");
    QCOMPARE(one_seed["seeds"].toInt(), 1);
    QCOMPARE(one_seed["loss_sd"].toDouble(), 0.0);
    QCOMPARE(three["seeds"].toInt(), 3);
    QVERIFY(three["loss_sd"].toDouble() > 0);
    QVERIFY(one_seed["loss"].toDouble() > 0 && three["loss"].toDouble() > 0);
    QVERIFY(one_seed["accuracy"].toDouble() > 0.3 && one_seed["accuracy"].toDouble() <= 1.0);
}

void TestFailureCli::compare_counts_failures() {
    QTemporaryDir dir;
    auto write = [&](const QString& name, const QByteArray& json) {
        QFile f(dir.filePath(name));
        QVERIFY(f.open(QIODevice::WriteOnly));
        f.write(json);
    };
    write("calm.json", R"({"name": "calm", "steps": 40, "checkpoint": {"every": 10}})");
    write("stormy.json", R"({"name": "stormy", "steps": 40, "checkpoint": {"every": 10},
        "failures": {"events": ["crash:worker=1,step=35,phase=compute"]}})");
    const QStringList args{
        "compare", dir.filePath("calm.json"), dir.filePath("stormy.json"), "--target-loss", "1e9",
        "--json"};
    const CliResult r = run_cli(args);
    QVERIFY2(r.exit_code == 0, qPrintable(describe(args, r)));
    const QJsonObject o = json_of(r);
    const QJsonObject a = o["a"].toObject(), b = o["b"].toObject();
    QCOMPARE(a["failures"].toInt(), 0);
    QCOMPARE(b["failures"].toInt(), 1);
    QCOMPARE(b["lost_steps"].toInt(), 6);
    QVERIFY(b["energy_j"].toDouble() > a["energy_j"].toDouble());
    QCOMPARE(a["final_loss"].toDouble(), b["final_loss"].toDouble()); // full restore: same model
    // A target every run meets at once is met after the first step.
    QCOMPARE(a["step_at_target"].toInt(), 0);
    // Scratch checkpoint directories are removed afterwards.
    QVERIFY(QDir(QDir::tempPath()).entryList({"lockstep-cli-*"}, QDir::Dirs).isEmpty());
}

void TestFailureCli::compare_bad_input_data() {
    QTest::addColumn<QStringList>("args");
    QTest::addColumn<QString>("fragment");
    QTest::newRow("one file") << QStringList{"compare", kScenarios + "straggler.json"}
                              << "compare needs exactly two scenario files";
    QTest::newRow("missing file") << QStringList{"compare", kScenarios + "straggler.json",
                                                 "/nonexistent/x.json"}
                                  << "/nonexistent/x.json";
    QTest::newRow("bad target") << QStringList{"compare", kScenarios + "straggler.json",
                                               kScenarios + "drift.json", "--target-loss", "x"}
                                << "--target-loss: expected a number";
    QTest::newRow("no seeds") << QStringList{"compare", kScenarios + "straggler.json",
                                             kScenarios + "drift.json", "--seeds", "0"}
                              << "--seeds";
    QTest::newRow("seeds not a number") << QStringList{"compare", kScenarios + "straggler.json",
                                                       kScenarios + "drift.json", "--seeds", "a"}
                                        << "--seeds";
}

void TestFailureCli::compare_bad_input() {
    QFETCH(QStringList, args);
    QFETCH(QString, fragment);
    const CliResult r = run_cli(args);
    QVERIFY2(r.finished && r.exit_code == 1, qPrintable(describe(args, r)));
    QVERIFY2(QString::fromUtf8(r.err).contains(fragment), qPrintable(describe(args, r)));
}

QTEST_GUILESS_MAIN(TestFailureCli)
#include "test_failure_cli.moc"
