// A checkpoint directory and a run's outputs under abuse, with the real lockstep-cli: two runs
// started at once on one directory, two resumes of one run, checkpoints that verify but do not
// fit the run, a resume that would start over existing checkpoints, and runs stopped by signals
// while they write their files. Nothing is lost, and nothing the run did not write is touched.

#include "checkpoint/checkpoint.h"

#include "cli_test_support.h"
#include "test_support.h"

#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QJsonDocument>
#include <QJsonObject>
#include <QProcess>
#include <QTemporaryDir>
#include <QtTest>

#include <csignal>
#include <filesystem>
#include <sys/types.h>

using namespace lockstep;
using namespace lockstep::testing;
namespace fs = std::filesystem;

namespace {

QByteArray read_file(const QString& path) {
    QFile file(path);
    return file.open(QIODevice::ReadOnly) ? file.readAll() : QByteArray();
}

bool write_file(const QString& path, const QByteArray& bytes) {
    QFile file(path);
    return file.open(QIODevice::WriteOnly | QIODevice::Truncate) &&
           file.write(bytes) == bytes.size();
}

// A run long enough to be caught while it trains (a few seconds here), checkpointing often.
const QStringList kLong{"--workers", "2",  "--steps",     "400",  "--layers", "2,96,96,3",
                        "--batch",   "32", "--optimizer", "adam", "--lr",     "0.01"};
// A short one for the checks that need whole runs.
const QStringList kShort{"--workers", "3", "--steps", "20", "--optimizer", "adam", "--lr", "0.01"};

QString step_dir(const QString& dir, int step) {
    return dir + "/" + QString::fromStdString(checkpoint_directory_name(step));
}

// Waits until `path` exists or the process ends; true when it exists.
bool wait_for_file(QProcess& process, const QString& path) {
    return process.waitForStarted() &&
           QTest::qWaitFor(
               [&] { return QFile::exists(path) || process.state() != QProcess::Running; },
               60'000) &&
           QFile::exists(path);
}

} // namespace

class TestDirectoryAbuse : public QObject {
    Q_OBJECT

private Q_SLOTS:
    void two_runs_at_once_one_directory();
    void a_second_resume_is_refused_naming_the_holder();
    void unfitting_checkpoints_fall_back_to_an_older_one();
    void no_restart_over_checkpoints_without_from_scratch();
    void a_killed_run_leaves_its_old_outputs_whole();
    void a_terminated_run_removes_its_temporaries();
    void a_failed_run_replaces_no_output();
};

// Started together on one new directory: one run owns it, the other is refused by name; the
// owner's scenario is the one the directory keeps, and its checkpoints resume. Ten times over.
void TestDirectoryAbuse::two_runs_at_once_one_directory() {
    QTemporaryDir tmp;
    for (int trial = 0; trial < 10; ++trial) {
        const QString dir = tmp.filePath(QStringLiteral("race-%1").arg(trial));
        QProcess a, b;
        const QStringList common = QStringList{"run"} + kShort +
                                   QStringList{"--checkpoint-dir", dir, "--checkpoint-every", "5"};
        a.start(QStringLiteral(LOCKSTEP_CLI_PATH), common + QStringList{"--seed", "11"});
        b.start(QStringLiteral(LOCKSTEP_CLI_PATH), common + QStringList{"--seed", "22"});
        QVERIFY(a.waitForFinished(kCliTimeoutMs) && b.waitForFinished(kCliTimeoutMs));
        const bool a_won = a.exitCode() == 0;
        QVERIFY2(a_won != (b.exitCode() == 0), "exactly one run must own the directory");
        QProcess& loser = a_won ? b : a;
        const QString why = QString::fromUtf8(loser.readAllStandardError());
        QVERIFY2(why.contains(QStringLiteral("in use by another run (process ")) ||
                     why.contains(QStringLiteral("holds another run's")),
                 qPrintable(why));
        // The directory keeps the winner's scenario, and all of its checkpoints.
        const QJsonObject kept =
            QJsonDocument::fromJson(read_file(dir + "/scenario.json")).object();
        QCOMPARE(kept.value("seed").toInt(), a_won ? 11 : 22);
        for (int step = 10; step <= 20; step += 5) // the newest three, as --keep's default says
            QVERIFY2(QFile::exists(step_dir(dir, step) + "/MANIFEST"), qPrintable(dir));
        const CliResult again = run_cli({"resume", dir, "--json"});
        QVERIFY2(again.exit_code == 0, qPrintable(describe({"resume", dir}, again)));
        QCOMPARE(QJsonDocument::fromJson(again.out).object().value("resumed_from_step").toInt(),
                 20);
    }
}

// A resume while another resume of the same directory trains is refused at once, naming the
// process that holds it, and changes nothing; the first goes on to the uninterrupted result.
void TestDirectoryAbuse::a_second_resume_is_refused_naming_the_holder() {
    QTemporaryDir tmp;
    const QString dir = tmp.filePath(QStringLiteral("ck"));
    const QString whole = tmp.filePath(QStringLiteral("whole.json"));
    const CliResult u = run_cli(QStringList{"run"} + kLong + QStringList{"--params-out", whole});
    QVERIFY2(u.exit_code == 0, u.err.constData());

    // A run stopped early: its checkpoints and scenario, then a resume that trains on.
    QProcess first;
    first.start(QStringLiteral(LOCKSTEP_CLI_PATH),
                QStringList{"run"} + kLong +
                    QStringList{"--checkpoint-dir", dir, "--checkpoint-every", "20"});
    QVERIFY(wait_for_file(first, step_dir(dir, 20) + "/MANIFEST"));
    first.kill();
    first.waitForFinished();

    QProcess resume;
    const QString resumed = tmp.filePath(QStringLiteral("resumed.json"));
    resume.start(QStringLiteral(LOCKSTEP_CLI_PATH), {"resume", dir, "--params-out", resumed});
    QVERIFY(resume.waitForStarted());
    const QByteArray holder = QByteArray::number(resume.processId()) + '\n';
    QVERIFY(QTest::qWaitFor([&] { return read_file(dir + "/lockstep.lock") == holder; }, 30'000));
    QVERIFY(resume.state() == QProcess::Running);
    // Stopped, it still holds the directory.
    QCOMPARE(::kill(static_cast<pid_t>(resume.processId()), SIGSTOP), 0);
    const CliResult second = run_cli({"resume", dir});
    QCOMPARE(::kill(static_cast<pid_t>(resume.processId()), SIGCONT), 0);
    QCOMPARE(second.exit_code, 1);
    LOCKSTEP_VERIFY_CONTAINS(
        QString::fromUtf8(second.err),
        QStringLiteral("in use by another run (process %1)").arg(resume.processId()));
    QVERIFY(resume.waitForFinished(kCliTimeoutMs));
    QCOMPARE(resume.exitCode(), 0);
    QCOMPARE(read_file(resumed), read_file(whole));
}

// Checkpoints that verify but cannot be this run's (a step past its end, a data order that is
// not a permutation, a data position outside a worker's shard) are skipped with their reason, and
// the resume goes on from the newest one that fits, to the uninterrupted result.
void TestDirectoryAbuse::unfitting_checkpoints_fall_back_to_an_older_one() {
    QTemporaryDir tmp;
    const QString dir = tmp.filePath(QStringLiteral("ck"));
    const QString whole = tmp.filePath(QStringLiteral("whole.json"));
    const QStringList run = QStringList{"run"} + kShort + QStringList{"--shuffle", "on"};
    const CliResult u = run_cli(run + QStringList{"--params-out", whole});
    QVERIFY2(u.exit_code == 0, u.err.constData());
    const CliResult c =
        run_cli(run + QStringList{"--checkpoint-dir", dir, "--checkpoint-every", "5"});
    QVERIFY2(c.exit_code == 0, c.err.constData());

    // Steps 15 and 20 are replaced by forged ones, and one past the end is added.
    const TrainingState good = load_checkpoint(step_dir(dir, 10).toStdString());
    QVERIFY(QDir(step_dir(dir, 15)).removeRecursively());
    QVERIFY(QDir(step_dir(dir, 20)).removeRecursively());
    TrainingState outside = good;
    outside.step = 15;
    outside.cursors[1].position = 1'000'000;
    save_checkpoint(dir.toStdString(), outside);
    TrainingState shuffled = good;
    shuffled.step = 20;
    QVERIFY(!shuffled.cursors[2].order.empty());
    shuffled.cursors[2].order[0] = shuffled.cursors[2].order[1];
    save_checkpoint(dir.toStdString(), shuffled);
    TrainingState beyond = good;
    beyond.step = 25;
    save_checkpoint(dir.toStdString(), beyond);

    const QString resumed = tmp.filePath(QStringLiteral("resumed.json"));
    const CliResult r = run_cli({"resume", dir, "--json", "--params-out", resumed});
    QVERIFY2(r.exit_code == 0, qPrintable(describe({"resume", dir}, r)));
    QCOMPARE(QJsonDocument::fromJson(r.out).object().value("resumed_from_step").toInt(), 10);
    const QString notes = QString::fromUtf8(r.err);
    LOCKSTEP_VERIFY_CONTAINS(notes, QStringLiteral("step-000000025"));
    LOCKSTEP_VERIFY_CONTAINS(notes, QStringLiteral("is outside this run"));
    LOCKSTEP_VERIFY_CONTAINS(notes, QStringLiteral("order is not a permutation"));
    LOCKSTEP_VERIFY_CONTAINS(notes, QStringLiteral("is outside the shard"));
    QCOMPARE(read_file(resumed), read_file(whole));
}

// When every checkpoint is unusable, a resume would start again from step 0 over them: it is
// refused, and nothing changes. With --from-scratch they are set aside first, never overwritten.
void TestDirectoryAbuse::no_restart_over_checkpoints_without_from_scratch() {
    QTemporaryDir tmp;
    const QString dir = tmp.filePath(QStringLiteral("ck"));
    const QString whole = tmp.filePath(QStringLiteral("whole.json"));
    const CliResult u = run_cli(QStringList{"run"} + kShort + QStringList{"--params-out", whole});
    QVERIFY2(u.exit_code == 0, u.err.constData());
    const CliResult c = run_cli(QStringList{"run"} + kShort +
                                QStringList{"--checkpoint-dir", dir, "--checkpoint-every", "10"});
    QVERIFY2(c.exit_code == 0, c.err.constData());
    for (int step : {10, 20})
        flip_bit((step_dir(dir, step) + "/worker-0.ckpt").toStdString(), 100);
    const QByteArray damaged = read_file(step_dir(dir, 20) + "/worker-0.ckpt");

    const CliResult refused = run_cli({"resume", dir});
    QCOMPARE(refused.exit_code, 1);
    const QString why = QString::fromUtf8(refused.err);
    LOCKSTEP_VERIFY_CONTAINS(why, QStringLiteral("none of its checkpoints can be used"));
    LOCKSTEP_VERIFY_CONTAINS(why, QStringLiteral("--from-scratch"));
    QCOMPARE(read_file(step_dir(dir, 20) + "/worker-0.ckpt"), damaged);
    QVERIFY(!QFile::exists(dir + "/set-aside-1"));

    const QString params = tmp.filePath(QStringLiteral("again.json"));
    const CliResult again =
        run_cli({"resume", dir, "--from-scratch", "--json", "--params-out", params});
    QVERIFY2(again.exit_code == 0, qPrintable(describe({"resume", dir}, again)));
    QCOMPARE(QJsonDocument::fromJson(again.out).object().value("resumed_from_step").toInt(), 0);
    LOCKSTEP_VERIFY_CONTAINS(QString::fromUtf8(again.err), dir + "/set-aside-1");
    QCOMPARE(read_file(dir + "/set-aside-1/step-000000020/worker-0.ckpt"), damaged);
    QVERIFY(QFile::exists(step_dir(dir, 20) + "/MANIFEST")); // the new run's own
    QCOMPARE(read_file(params), read_file(whole));
}

// SIGKILL while the run writes its trace, metrics and parameters: the files under those names are
// still the old ones, whole, and nothing but the run's own temporaries is beside them.
void TestDirectoryAbuse::a_killed_run_leaves_its_old_outputs_whole() {
    QTemporaryDir tmp;
    const QString csv = tmp.filePath(QStringLiteral("metrics.csv"));
    const QString trace = tmp.filePath(QStringLiteral("trace.json"));
    const QString params = tmp.filePath(QStringLiteral("params.json"));
    for (const QString& file : {csv, trace, params})
        QVERIFY(write_file(file, "the old file\n"));
    QProcess run;
    run.start(QStringLiteral(LOCKSTEP_CLI_PATH),
              QStringList{"run"} + kLong +
                  QStringList{"--metrics-csv", csv, "--trace", trace, "--params-out", params});
    QVERIFY(run.waitForStarted());
    // Killed once the run is writing: its temporary CSV has grown past its header.
    const QString temp = csv + QStringLiteral(".%1.tmp").arg(run.processId());
    QVERIFY(QTest::qWaitFor([&] { return QFileInfo(temp).size() > 200; }, 60'000));
    run.kill();
    QVERIFY(run.waitForFinished());
    for (const QString& file : {csv, trace, params})
        QCOMPARE(read_file(file), QByteArray("the old file\n"));
}

// SIGTERM or SIGINT mid-run: the run's temporary files and its scratch checkpoint folder go with
// it; the outputs keep their old contents; the process ends by the signal.
void TestDirectoryAbuse::a_terminated_run_removes_its_temporaries() {
    QTemporaryDir tmp;
    const QString csv = tmp.filePath(QStringLiteral("metrics.csv"));
    QVERIFY(write_file(csv, "the old file\n"));
    // A scenario with a checkpoint policy, run without --checkpoint-dir: its checkpoints go to a
    // scratch folder.
    const QString scenario = tmp.filePath(QStringLiteral("s.json"));
    QVERIFY(write_file(scenario, R"({"name": "t", "workers": 2, "steps": 400, "batch": 32,
        "model": {"layers": [2, 96, 96, 3]}, "optimizer": {"kind": "adam", "lr": 0.01},
        "checkpoint": {"every": 10}})"));
    for (const int signal : {SIGTERM, SIGINT, SIGHUP}) {
        QProcess run;
        QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
        env.insert(QStringLiteral("TMPDIR"), tmp.path()); // the scratch folder goes here
        run.setProcessEnvironment(env);
        run.start(QStringLiteral(LOCKSTEP_CLI_PATH), {"run", scenario, "--metrics-csv", csv});
        QVERIFY(run.waitForStarted());
        const QString temp = csv + QStringLiteral(".%1.tmp").arg(run.processId());
        QVERIFY(QTest::qWaitFor([&] { return QFileInfo(temp).size() > 200; }, 60'000));
        const QStringList scratch =
            QDir(tmp.path()).entryList({QStringLiteral("lockstep-cli-*")}, QDir::Dirs);
        QCOMPARE(scratch.size(), 1);
        QCOMPARE(::kill(static_cast<pid_t>(run.processId()), signal), 0);
        QVERIFY(run.waitForFinished());
        QCOMPARE(run.exitStatus(), QProcess::CrashExit); // ended by the signal
        QVERIFY2(!QFile::exists(temp), qPrintable(temp));
        QVERIFY(
            QDir(tmp.path()).entryList({QStringLiteral("lockstep-cli-*")}, QDir::Dirs).isEmpty());
        QCOMPARE(read_file(csv), QByteArray("the old file\n"));
    }
}

// A run that fails (here it diverges) replaces none of its outputs and leaves no temporary.
void TestDirectoryAbuse::a_failed_run_replaces_no_output() {
    QTemporaryDir tmp;
    const QString csv = tmp.filePath(QStringLiteral("metrics.csv"));
    const QString params = tmp.filePath(QStringLiteral("params.json"));
    QVERIFY(write_file(csv, "the old file\n"));
    QVERIFY(write_file(params, "the old file\n"));
    const QStringList args{"run",  "--lr",         "100",        "--steps",
                           "200",  "--dataset",    "regression", "--activation",
                           "relu", "--momentum",   "0.99",       "--metrics-csv",
                           csv,    "--params-out", params};
    const CliResult r = run_cli(args);
    QCOMPARE(r.exit_code, 1);
    LOCKSTEP_VERIFY_CONTAINS(QString::fromUtf8(r.err), QStringLiteral("diverged"));
    QCOMPARE(read_file(csv), QByteArray("the old file\n"));
    QCOMPARE(read_file(params), QByteArray("the old file\n"));
    QCOMPARE(QDir(tmp.path()).entryList(QDir::Files).size(), 2);
}

QTEST_GUILESS_MAIN(TestDirectoryAbuse)
#include "test_directory_abuse.moc"
