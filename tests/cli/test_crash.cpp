#include <QDir>
#include <QElapsedTimer>
#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QProcess>
#include <QRandomGenerator>
#include <QTemporaryDir>
#include <QtTest>

#include "cli_test_support.h"

#include <csignal>
#include <sys/types.h>

using namespace lockstep::testing;

namespace {

constexpr int kTimeoutMs = lockstep::testing::kCliTimeoutMs;

// Long enough that a kill lands in training, in a checkpoint write or in an fsync, short enough
// for thirty crashes in a CI run: two workers, checkpoints every 2 steps.
const QStringList kScenario{"--workers", "2",  "--steps",     "30",   "--layers", "2,128,128,3",
                            "--batch",   "32", "--optimizer", "adam", "--lr",     "0.01"};

QByteArray read_file(const QString& path) {
    QFile file(path);
    return file.open(QIODevice::ReadOnly) ? file.readAll() : QByteArray();
}

// A process's state letter from /proc (R running, S sleeping, T stopped, Z ended, ...).
char process_state(pid_t pid) {
    const QByteArray stat = read_file(QStringLiteral("/proc/%1/stat").arg(pid));
    const int close = stat.lastIndexOf(')');
    return close >= 0 && close + 2 < stat.size() ? stat[close + 2] : '?';
}

int env_int(const char* name, int fallback) {
    bool ok = false;
    const int value = qEnvironmentVariableIntValue(name, &ok);
    return ok && value > 0 ? value : fallback;
}

} // namespace

// Real crashes: lockstep-cli run is killed with SIGKILL at random moments while it trains and
// checkpoints, then resumed. Every resume must succeed from the newest checkpoint that was
// complete on disk, and end with the parameters of a run that never stopped. Every third round
// instead freezes the run with SIGSTOP at a random moment, tries a resume of its directory
// meanwhile (refused: the frozen run holds it), and lets it go on with SIGCONT; every third starts
// two runs on one new directory at once (one owns it, the other is refused, nothing is lost).
// LOCKSTEP_CRASH_ITERATIONS and LOCKSTEP_CRASH_SEED set the number of rounds and the seed (see
// scripts/crash-soak.sh).
class TestCrash : public QObject {
    Q_OBJECT

private Q_SLOTS:
    void initTestCase();
    void kill_and_resume();

private:
    void kill_round(int i, QRandomGenerator& random);
    void stop_round(int i, QRandomGenerator& random);
    void race_round(int i);

    QTemporaryDir dir_;
    QByteArray expected_, expected_other_; // the uninterrupted runs' parameters (seeds 1 and 2)
    int run_ms_ = 0;                       // how long a checkpointing run takes here
    int killed_ = 0, unfinished_saves_ = 0, from_start_ = 0, stopped_ = 0, races_ = 0;
};

void TestCrash::initTestCase() {
    QVERIFY(dir_.isValid());
    const QString params = dir_.filePath("uninterrupted.json");
    const QStringList plain = QStringList{"run"} + kScenario + QStringList{"--params-out", params};
    const CliResult r = run_cli(plain);
    QVERIFY2(r.finished && r.exit_code == 0, qPrintable(describe(plain, r)));
    expected_ = read_file(params);
    QVERIFY(!expected_.isEmpty());
    const QStringList other = plain + QStringList{"--seed", "2"};
    const CliResult o = run_cli(other);
    QVERIFY2(o.finished && o.exit_code == 0, qPrintable(describe(other, o)));
    expected_other_ = read_file(params);
    QVERIFY(!expected_other_.isEmpty() && expected_other_ != expected_);

    const QStringList timed =
        QStringList{"run"} + kScenario +
        QStringList{"--checkpoint-dir", dir_.filePath("timed"), "--checkpoint-every", "2"};
    QElapsedTimer clock;
    clock.start();
    const CliResult t = run_cli(timed);
    run_ms_ = static_cast<int>(clock.elapsed());
    QVERIFY2(t.finished && t.exit_code == 0, qPrintable(describe(timed, t)));
}

void TestCrash::kill_and_resume() {
    const int iterations = env_int("LOCKSTEP_CRASH_ITERATIONS", 30);
    const auto seed = static_cast<quint32>(env_int("LOCKSTEP_CRASH_SEED", 20261130));
    QRandomGenerator random(seed);
    for (int i = 0; i < iterations; ++i) {
        if (i % 3 == 1)
            stop_round(i, random);
        else if (i % 3 == 2)
            race_round(i);
        else
            kill_round(i, random);
        if (QTest::currentTestFailed())
            return;
    }
    qInfo("%d rounds: %d runs killed (%d crash states on disk: partial checkpoints or temporary "
          "files; %d resumed from step 0), %d frozen and continued, %d races for one directory",
          iterations, killed_, unfinished_saves_, from_start_, stopped_, races_);
    QVERIFY(killed_ > 0);
}

void TestCrash::kill_round(int i, QRandomGenerator& random) {
    const QString dir = dir_.filePath(QStringLiteral("crash-%1").arg(i));
    const QStringList args = QStringList{"run"} + kScenario +
                             QStringList{"--checkpoint-dir", dir, "--checkpoint-every", "2"};
    QProcess process;
    process.start(QStringLiteral(LOCKSTEP_CLI_PATH), args);
    QVERIFY(process.waitForStarted(kTimeoutMs));
    // The kill's moment counts from when the run has written its scenario into DIR.
    while (process.state() == QProcess::Running && !QFile::exists(dir + "/scenario.json"))
        process.waitForFinished(1);
    const int delay = static_cast<int>(random.bounded(run_ms_ + 1));
    if (!process.waitForFinished(delay)) {
        process.kill(); // SIGKILL: no destructor, no flush, mid-write wherever it was
        process.waitForFinished(kTimeoutMs);
        ++killed_;
    }

    // What is on disk now, before the resume cleans up.
    const CliResult listed = run_cli(QStringList{"checkpoints", dir, "--json"});
    QVERIFY2(listed.finished && listed.exit_code == 0,
             qPrintable(describe({"checkpoints", dir}, listed)));
    const QJsonObject scan = QJsonDocument::fromJson(listed.out).object();
    int newest_complete = 0;
    for (const auto& c : scan.value("checkpoints").toArray()) {
        const QJsonObject o = c.toObject();
        if (o.value("status").toString() == QStringLiteral("complete"))
            newest_complete = std::max(newest_complete, o.value("step").toInt());
        else
            ++unfinished_saves_;
    }
    if (!scan.value("leftovers").toArray().isEmpty())
        ++unfinished_saves_;

    const QString params = dir + "/resumed-params.json";
    // Killed before its first checkpoint was complete, a resume starts again from step 0 over
    // the unfinished save: nothing of value is there.
    const QStringList resume{"resume", dir, "--json", "--params-out", params};
    const CliResult r = run_cli(resume);
    QVERIFY2(r.finished && r.exit_code == 0,
             qPrintable(QStringLiteral("iteration %1: ").arg(i) + describe(resume, r)));
    const int from = QJsonDocument::fromJson(r.out).object().value("resumed_from_step").toInt();
    // Resumed from the newest checkpoint that was complete, never from anything else.
    QCOMPARE(from, newest_complete);
    from_start_ += from == 0 ? 1 : 0;
    QVERIFY2(read_file(params) == expected_,
             qPrintable(QStringLiteral("iteration %1 (resumed from step %2): parameters differ "
                                       "from the uninterrupted run")
                            .arg(i)
                            .arg(from)));
    QDir(dir).removeRecursively();
}

void TestCrash::stop_round(int i, QRandomGenerator& random) {
    const QString dir = dir_.filePath(QStringLiteral("stop-%1").arg(i));
    const QString params = dir_.filePath(QStringLiteral("stop-%1.json").arg(i));
    const QStringList args =
        QStringList{"run"} + kScenario +
        QStringList{"--checkpoint-dir", dir, "--checkpoint-every", "2", "--params-out", params};
    QProcess process;
    process.start(QStringLiteral(LOCKSTEP_CLI_PATH), args);
    QVERIFY(process.waitForStarted(kTimeoutMs));
    while (process.state() == QProcess::Running && !QFile::exists(dir + "/scenario.json"))
        process.waitForFinished(1);
    if (!process.waitForFinished(static_cast<int>(random.bounded(run_ms_ + 1)))) {
        const auto pid = static_cast<pid_t>(process.processId());
        QCOMPARE(::kill(pid, SIGSTOP), 0); // frozen wherever it was, a write or an fsync too
        // Stopped once its system call (an fsync, say) returns; unless it ended just before, and
        // is no longer there to hold the directory.
        QVERIFY(QTest::qWaitFor(
            [&] {
                const char state = process_state(pid);
                return state == 'T' || state == 'Z' || state == '?';
            },
            30'000));
        if (process_state(pid) == 'T') {
            const CliResult r = run_cli({"resume", dir, "--json"});
            QTest::qWait(static_cast<int>(random.bounded(200)));
            QCOMPARE(::kill(pid, SIGCONT), 0);
            // Refused while the run trains; once its last checkpoint is written and its report
            // made, it lets the directory go, and a resume finds the run done.
            const bool refused = r.exit_code == 1 && r.err.contains("in use by another run "
                                                                    "(process " +
                                                                    QByteArray::number(pid) + ")");
            const bool done =
                r.exit_code == 0 &&
                QJsonDocument::fromJson(r.out).object().value("resumed_from_step").toInt() == 30;
            QVERIFY2(refused || done, qPrintable(describe({"resume", dir}, r)));
            ++stopped_;
        } else {
            ::kill(pid, SIGCONT);
        }
    }
    QVERIFY(process.state() == QProcess::NotRunning || process.waitForFinished(kTimeoutMs));
    QCOMPARE(process.exitCode(), 0);
    QVERIFY2(read_file(params) == expected_,
             qPrintable(QStringLiteral("iteration %1: frozen and continued, the parameters differ "
                                       "from the uninterrupted run")
                            .arg(i)));
    QDir(dir).removeRecursively();
}

void TestCrash::race_round(int i) {
    const QString dir = dir_.filePath(QStringLiteral("race-%1").arg(i));
    const QStringList args = QStringList{"run"} + kScenario +
                             QStringList{"--checkpoint-dir", dir, "--checkpoint-every", "2"};
    QProcess a, b;
    a.start(QStringLiteral(LOCKSTEP_CLI_PATH), args);
    b.start(QStringLiteral(LOCKSTEP_CLI_PATH), args + QStringList{"--seed", "2"});
    QVERIFY(a.waitForFinished(kTimeoutMs) && b.waitForFinished(kTimeoutMs));
    const bool a_won = a.exitCode() == 0;
    QVERIFY2(
        a_won != (b.exitCode() == 0),
        qPrintable(QStringLiteral("iteration %1: exactly one run must own %2").arg(i).arg(dir)));
    const QByteArray why = (a_won ? b : a).readAllStandardError();
    QVERIFY2(why.contains("in use by another run") || why.contains("holds another run's"),
             why.constData());
    // The directory is the winner's, whole: its resume finds the end and its parameters.
    const QString params = dir + "/params.json";
    const QStringList resume{"resume", dir, "--json", "--params-out", params};
    const CliResult r = run_cli(resume);
    QVERIFY2(r.exit_code == 0, qPrintable(describe(resume, r)));
    QCOMPARE(QJsonDocument::fromJson(r.out).object().value("resumed_from_step").toInt(), 30);
    QVERIFY(read_file(params) == (a_won ? expected_ : expected_other_));
    ++races_;
    QDir(dir).removeRecursively();
}

QTEST_GUILESS_MAIN(TestCrash)
#include "test_crash.moc"
