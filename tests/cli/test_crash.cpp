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

int env_int(const char* name, int fallback) {
    bool ok = false;
    const int value = qEnvironmentVariableIntValue(name, &ok);
    return ok && value > 0 ? value : fallback;
}

} // namespace

// Real crashes: lockstep-cli run is killed with SIGKILL at random moments while it trains and
// checkpoints, then resumed. Every resume must succeed from the newest checkpoint that was
// complete on disk, and end with the parameters of a run that never stopped.
// LOCKSTEP_CRASH_ITERATIONS and LOCKSTEP_CRASH_SEED set the number of kills and the seed (see
// scripts/crash-soak.sh).
class TestCrash : public QObject {
    Q_OBJECT

private Q_SLOTS:
    void initTestCase();
    void kill_and_resume();

private:
    QTemporaryDir dir_;
    QByteArray expected_; // the uninterrupted run's parameters
    int run_ms_ = 0;      // how long a checkpointing run takes here
};

void TestCrash::initTestCase() {
    QVERIFY(dir_.isValid());
    const QString params = dir_.filePath("uninterrupted.json");
    const QStringList plain = QStringList{"run"} + kScenario + QStringList{"--params-out", params};
    const CliResult r = run_cli(plain);
    QVERIFY2(r.finished && r.exit_code == 0, qPrintable(describe(plain, r)));
    expected_ = read_file(params);
    QVERIFY(!expected_.isEmpty());

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
    int killed = 0, unfinished_saves = 0, from_start = 0;
    for (int i = 0; i < iterations; ++i) {
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
            ++killed;
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
                ++unfinished_saves;
        }
        if (!scan.value("leftovers").toArray().isEmpty())
            ++unfinished_saves;

        const QString params = dir + "/resumed-params.json";
        const QStringList resume{"resume", dir, "--json", "--params-out", params};
        const CliResult r = run_cli(resume);
        QVERIFY2(r.finished && r.exit_code == 0,
                 qPrintable(QStringLiteral("iteration %1: ").arg(i) + describe(resume, r)));
        const int from = QJsonDocument::fromJson(r.out).object().value("resumed_from_step").toInt();
        // Resumed from the newest checkpoint that was complete, never from anything else.
        QCOMPARE(from, newest_complete);
        from_start += from == 0 ? 1 : 0;
        QVERIFY2(read_file(params) == expected_,
                 qPrintable(QStringLiteral("iteration %1 (resumed from step %2): parameters differ "
                                           "from the uninterrupted run")
                                .arg(i)
                                .arg(from)));
        QDir(dir).removeRecursively();
    }
    qInfo("%d runs, %d killed, %d crash states on disk (partial checkpoints or temporary files), "
          "%d resumed from step 0",
          iterations, killed, unfinished_saves, from_start);
    QVERIFY(killed > 0);
}

QTEST_GUILESS_MAIN(TestCrash)
#include "test_crash.moc"
