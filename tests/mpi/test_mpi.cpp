// lockstep-cli over Open MPI, run for real through mpirun (LOCKSTEP_MPIEXEC): one process per
// worker, on this machine's cores (--oversubscribe), and compared with the same run on threads.

#include "checkpoint/checkpoint.h"
#include "collectives/schedule.h"
#include "lab/lab_session.h"
#include "trace/recording.h"

#include "cli_test_support.h"
#include "test_support.h"

#include <QDir>
#include <QElapsedTimer>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QProcess>
#include <QTemporaryDir>
#include <QtTest>

#include <csignal>
#include <sys/types.h>
#include <unistd.h>

#include <algorithm>
#include <map>
#include <set>
#include <tuple>
#include <utility>

using namespace lockstep;
using lockstep::testing::CliResult;

namespace {

// Open MPI's consent to run as root, and no busy polling that would starve the other ranks on a
// machine with fewer cores than ranks.
QProcessEnvironment mpi_environment() {
    QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
    env.insert(QStringLiteral("OMPI_ALLOW_RUN_AS_ROOT"), QStringLiteral("1"));
    env.insert(QStringLiteral("OMPI_ALLOW_RUN_AS_ROOT_CONFIRM"), QStringLiteral("1"));
    env.insert(QStringLiteral("OMPI_MCA_mpi_yield_when_idle"), QStringLiteral("1"));
    return env;
}

QStringList mpirun_args(int ranks, const QStringList& args) {
    return QStringList{QStringLiteral("--oversubscribe"), QStringLiteral("-np"),
                       QString::number(ranks), QStringLiteral(LOCKSTEP_CLI_PATH)} +
           args;
}

// mpirun -np N lockstep-cli ARGS.
CliResult mpirun(int ranks, const QStringList& args) {
    return testing::run_program(QStringLiteral(LOCKSTEP_MPIEXEC), mpirun_args(ranks, args),
                                mpi_environment());
}

QByteArray read(const QString& path) {
    QFile f(path);
    return f.open(QIODevice::ReadOnly) ? f.readAll() : QByteArray();
}

// A small scenario file: N workers, the rule's batches unequal so that weights matter.
QString scenario_file(const QTemporaryDir& dir, int workers, const QString& rule) {
    QJsonArray batches;
    for (int k = 0; k < workers; ++k)
        batches.append(4 + 3 * k);
    const QJsonObject s{{"name", "mpi"},
                        {"seed", 9},
                        {"steps", 12},
                        {"workers", workers},
                        {"batch", 8},
                        {"worker_batch", batches},
                        {"rule", rule},
                        {"model", QJsonObject{{"layers", QJsonArray{2, 9, 3}}}},
                        {"optimizer", QJsonObject{{"kind", "adam"}, {"lr", 0.03}}},
                        {"dataset", QJsonObject{{"name", "spiral"}, {"samples", 300}}}};
    const QString path = dir.filePath(QStringLiteral("s-%1-%2.json").arg(workers).arg(rule));
    QFile f(path);
    if (f.open(QIODevice::WriteOnly))
        f.write(QJsonDocument(s).toJson());
    return path;
}

std::vector<double> numbers(const QJsonValue& v) {
    std::vector<double> out;
    if (v.isArray())
        for (const auto& x : v.toArray()) {
            const auto more = numbers(x);
            out.insert(out.end(), more.begin(), more.end());
        }
    else if (v.isObject())
        for (const auto& x : v.toObject())
            for (double d : numbers(x))
                out.push_back(d);
    else if (v.isDouble())
        out.push_back(v.toDouble());
    return out;
}

// `run ARGS --json` on threads and through mpirun with N processes, each writing its parameters:
// both must succeed and write the same bytes. Returns the two reports (threads, then MPI).
std::pair<QJsonObject, QJsonObject> same_bytes_both_ways(const QTemporaryDir& dir, int ranks,
                                                         const QStringList& args) {
    const QString threads_params = dir.filePath(QStringLiteral("threads.json"));
    const QString mpi_params = dir.filePath(QStringLiteral("mpi.json"));
    const QStringList threads_args =
        QStringList{QStringLiteral("run")} + args +
        QStringList{QStringLiteral("--json"), QStringLiteral("--params-out"), threads_params};
    const CliResult threads = testing::run_cli(threads_args);
    [&] {
        QVERIFY2(threads.finished && threads.exit_code == 0,
                 qPrintable(testing::describe(threads_args, threads)));
    }();
    QStringList mpi_args = threads_args;
    mpi_args.last() = mpi_params;
    mpi_args << QStringLiteral("--transport") << QStringLiteral("mpi");
    const CliResult mpi = mpirun(ranks, mpi_args);
    [&] {
        QVERIFY2(mpi.finished && mpi.exit_code == 0, qPrintable(testing::describe(mpi_args, mpi)));
        QVERIFY(!read(threads_params).isEmpty());
        QCOMPARE(read(mpi_params), read(threads_params));
    }();
    return {QJsonDocument::fromJson(threads.out).object(),
            QJsonDocument::fromJson(mpi.out).object()};
}

// The process of mpirun job `job` that is rank `rank` (by the rank Open MPI gives it), or 0.
pid_t rank_process(const QProcess& job, int rank) {
    QProcess children;
    children.start(QStringLiteral("pgrep"),
                   {"-P", QString::number(job.processId()), "lockstep-cli"});
    children.waitForFinished();
    const QByteArray wanted = "OMPI_COMM_WORLD_RANK=" + QByteArray::number(rank);
    for (const QString& pid :
         QString::fromLatin1(children.readAllStandardOutput()).split('\n', Qt::SkipEmptyParts)) {
        QFile environ(QStringLiteral("/proc/%1/environ").arg(pid));
        if (environ.open(QIODevice::ReadOnly) && environ.readAll().split('\0').contains(wanted))
            return static_cast<pid_t>(pid.toInt());
    }
    return 0;
}

// The CPU time process `pid` has used so far, in seconds (user and system; 0 once it is gone).
double cpu_seconds(pid_t pid) {
    QFile f(QStringLiteral("/proc/%1/stat").arg(pid));
    if (!f.open(QIODevice::ReadOnly))
        return 0.0;
    const QByteArray stat = f.readAll();
    // After the command's name in parentheses: state is the 3rd field, utime the 14th, stime
    // the 15th.
    const QList<QByteArray> fields = stat.mid(stat.lastIndexOf(')') + 2).split(' ');
    if (fields.size() < 13)
        return 0.0;
    const double ticks = fields[11].toDouble() + fields[12].toDouble();
    return ticks / static_cast<double>(::sysconf(_SC_CLK_TCK));
}

} // namespace

class TestMpi : public QObject {
    Q_OBJECT

private Q_SLOTS:
    void same_bits_as_threads_data() {
        QTest::addColumn<QString>("algorithm");
        QTest::addColumn<int>("ranks");
        QTest::addColumn<QString>("rule");
        for (const char* a : {"parameter-server", "ring", "tree"})
            for (int n = 1; n <= 5; ++n)
                for (const char* r : {"sum", "mean", "weighted-mean"})
                    QTest::addRow("%s-%d-%s", a, n, r)
                        << QString::fromLatin1(a) << n << QString::fromLatin1(r);
    }

    // The final parameters of N processes are the bytes of N threads, and the report has every
    // key of the threaded run's, plus the transport, the ranks and the hosts.
    void same_bits_as_threads() {
        QFETCH(QString, algorithm);
        QFETCH(int, ranks);
        QFETCH(QString, rule);
        QTemporaryDir dir;
        const QString scenario = scenario_file(dir, ranks, rule);
        const auto [t, m] = same_bytes_both_ways(dir, ranks, {scenario, "--algorithm", algorithm});
        if (QTest::currentTestFailed())
            return;
        for (auto it = t.begin(); it != t.end(); ++it)
            QVERIFY2(m.contains(it.key()), qPrintable(it.key()));
        QCOMPARE(m.value("transport").toString(), QStringLiteral("mpi"));
        QCOMPARE(m.value("ranks").toInt(), ranks);
        QCOMPARE(m.value("hosts").toArray().size(), 1);
        QCOMPARE(m.value("clock").toString(), QStringLiteral("measured"));
        QCOMPARE(m.value("final_loss").toDouble(), t.value("final_loss").toDouble());
        QVERIFY(m.value("replicas_aligned").toBool());
        QCOMPARE(m.value("bytes_moved").toInteger(), t.value("bytes_moved").toInteger());
        QCOMPARE(m.value("per_worker").toArray().size(), ranks);
    }

    // Gradient buckets and accumulation over processes: the bytes of the threaded run, the same
    // buckets and bytes moved in the report.
    void buckets_and_accumulation_give_the_bits_of_threads_data() {
        QTest::addColumn<QString>("algorithm");
        QTest::addColumn<int>("ranks");
        for (const char* a : {"parameter-server", "ring", "tree"})
            for (int n : {2, 4})
                QTest::addRow("%s-%d", a, n) << QString::fromLatin1(a) << n;
    }
    void buckets_and_accumulation_give_the_bits_of_threads() {
        QFETCH(QString, algorithm);
        QFETCH(int, ranks);
        QTemporaryDir dir;
        const QString scenario = scenario_file(dir, ranks, QStringLiteral("weighted-mean"));
        const auto [t, m] =
            same_bytes_both_ways(dir, ranks,
                                 {scenario, "--algorithm", algorithm, "--layers", "2,16,16,3",
                                  "--bucket-kb", "1", "--accumulate", "2"});
        if (QTest::currentTestFailed())
            return;
        QCOMPARE(m.value("buckets").toInt(), 3);
        QCOMPARE(m.value("buckets").toInt(), t.value("buckets").toInt());
        QCOMPARE(m.value("accumulation").toInt(), 2);
        QCOMPARE(m.value("bucket_bytes").toInteger(), t.value("bucket_bytes").toInteger());
        QCOMPARE(m.value("bytes_moved").toInteger(), t.value("bytes_moved").toInteger());
    }

    void narrow_formats_give_the_bits_of_threads_data() {
        QTest::addColumn<QString>("algorithm");
        QTest::addColumn<QString>("format");
        QTest::addColumn<QString>("buckets");
        for (const char* a : {"parameter-server", "ring", "tree"})
            for (const char* f : {"float16", "bfloat16", "float32"})
                for (const char* b : {"0", "1"})
                    QTest::addRow("%s-%s-buckets-%s", a, f, b)
                        << QString::fromLatin1(a) << QString::fromLatin1(f)
                        << QString::fromLatin1(b);
    }

    // Gradients sent as float16, bfloat16 or float32 between processes (their bytes encoded on
    // the way): the bytes of the threaded run, a half or a quarter of float64's bytes moved.
    void narrow_formats_give_the_bits_of_threads() {
        QFETCH(QString, algorithm);
        QFETCH(QString, format);
        QFETCH(QString, buckets);
        QTemporaryDir dir;
        const QString scenario = scenario_file(dir, 3, QStringLiteral("mean"));
        const auto [t, m] =
            same_bytes_both_ways(dir, 3,
                                 {scenario, "--algorithm", algorithm, "--layers", "2,16,16,3",
                                  "--bucket-kb", buckets, "--comm-precision", format});
        if (QTest::currentTestFailed())
            return;
        QCOMPARE(m.value("comm_precision").toString(), format);
        QCOMPARE(m.value("bytes_per_value").toInt(), format == "float32" ? 4 : 2);
        QCOMPARE(m.value("bytes_moved").toInteger(), t.value("bytes_moved").toInteger());
        QCOMPARE(m.value("overflow_steps").toInteger(), t.value("overflow_steps").toInteger());
    }

    void float32_models_give_the_bits_of_threads_data() {
        QTest::addColumn<QString>("algorithm");
        QTest::addColumn<QString>("optimizer");
        for (const char* a : {"parameter-server", "ring", "tree"})
            for (const char* o : {"sgd", "adam"})
                QTest::addRow("%s-%s", a, o) << QString::fromLatin1(a) << QString::fromLatin1(o);
    }

    // A float32 model over processes: each rank's passes and updates on the float kernels, its
    // gradient sent as float32: the bytes of the threaded run, half of float64's bytes moved.
    void float32_models_give_the_bits_of_threads() {
        QFETCH(QString, algorithm);
        QFETCH(QString, optimizer);
        QTemporaryDir dir;
        const QString scenario = scenario_file(dir, 3, QStringLiteral("mean"));
        const auto [t, m] =
            same_bytes_both_ways(dir, 3,
                                 {scenario, "--algorithm", algorithm, "--layers", "2,16,16,3",
                                  "--optimizer", optimizer, "--precision", "float32"});
        if (QTest::currentTestFailed())
            return;
        QCOMPARE(m.value("precision").toString(), QStringLiteral("float32"));
        QCOMPARE(m.value("comm_precision").toString(), QStringLiteral("float32"));
        QCOMPARE(m.value("bytes_moved").toInteger(), t.value("bytes_moved").toInteger());
        QCOMPARE(m.value("final_loss").toDouble(), t.value("final_loss").toDouble());
    }

    void loss_scaling_gives_the_bits_of_threads_data() {
        QTest::addColumn<QString>("algorithm");
        for (const char* a : {"parameter-server", "ring", "tree"})
            QTest::addRow("%s", a) << QString::fromLatin1(a);
    }

    // Dynamic loss scaling over processes: each rank scales, skips the same overflowing steps
    // and moves its scale the same way: the threaded run's bytes, overflows and last scale.
    void loss_scaling_gives_the_bits_of_threads() {
        QFETCH(QString, algorithm);
        QTemporaryDir dir;
        const QString scenario = scenario_file(dir, 4, QStringLiteral("sum"));
        const auto [t, m] = same_bytes_both_ways(
            dir, 4,
            {scenario, "--algorithm", algorithm, "--layers", "2,16,3", "--comm-precision",
             "float16", "--loss-scale", "16777216", "--loss-scale-growth", "2"});
        if (QTest::currentTestFailed())
            return;
        QVERIFY(t.value("overflow_steps").toInteger() > 0);
        QCOMPARE(m.value("overflow_steps").toInteger(), t.value("overflow_steps").toInteger());
        QCOMPARE(m.value("loss_scale").toDouble(), t.value("loss_scale").toDouble());
    }

    // Sharded over processes: every ZeRO stage, collective and optimizer gives the bytes of the
    // sharded run on threads; the report has the same bytes moved, by half, and every rank's
    // memory ledger (read from its own buffers) is the threaded worker's.
    void sharded_ranks_give_the_bits_of_threads_data() {
        QTest::addColumn<QString>("stage");
        QTest::addColumn<QString>("algorithm");
        QTest::addColumn<QString>("optimizer");
        for (const char* z : {"optimizer", "gradients", "parameters"})
            for (const char* a : {"parameter-server", "ring", "tree"})
                for (const char* o : {"sgd", "adam"})
                    QTest::addRow("%s-%s-%s", z, a, o)
                        << QString::fromLatin1(z) << QString::fromLatin1(a)
                        << QString::fromLatin1(o);
    }
    void sharded_ranks_give_the_bits_of_threads() {
        QFETCH(QString, stage);
        QFETCH(QString, algorithm);
        QFETCH(QString, optimizer);
        QTemporaryDir dir;
        const QString scenario = scenario_file(dir, 4, QStringLiteral("weighted-mean"));
        // Adam's rows also accumulate two micro-batches.
        const QString micro =
            optimizer == QStringLiteral("adam") ? QStringLiteral("2") : QStringLiteral("1");
        const auto [t, m] = same_bytes_both_ways(
            dir, 4,
            {scenario, "--algorithm", algorithm, "--shard", stage, "--optimizer", optimizer,
             "--momentum", "0.5", "--layers", "2,9,9,3", "--accumulate", micro});
        if (QTest::currentTestFailed())
            return;
        QCOMPARE(m.value("final_loss").toDouble(), t.value("final_loss").toDouble());
        QVERIFY(m.value("replicas_aligned").toBool());
        QCOMPARE(m.value("bytes_moved").toInteger(), t.value("bytes_moved").toInteger());
        QCOMPARE(m.value("bytes_moved_by_phase"), t.value("bytes_moved_by_phase"));
        QVERIFY(m.value("bytes_moved_by_phase").toObject().value("all_gather").toInteger() > 0);
        QCOMPARE(m.value("memory").toArray().size(), 4);
        QCOMPARE(m.value("memory"), t.value("memory"));
    }

    // Two machines of two ranks: every algorithm (the hierarchical one also in buckets and
    // sharded) gives the bytes of threads, and the report the same bytes between machines.
    void machines_give_the_bits_of_threads_data() {
        QTest::addColumn<QString>("algorithm");
        QTest::addColumn<QStringList>("more");
        for (const char* a : {"parameter-server", "ring", "tree", "hierarchical"})
            QTest::addRow("%s", a) << QString::fromLatin1(a) << QStringList{};
        QTest::addRow("hierarchical-buckets")
            << QStringLiteral("hierarchical")
            << QStringList{"--bucket-kb", "1", "--layers", "2,16,16,3"};
        QTest::addRow("hierarchical-sharded")
            << QStringLiteral("hierarchical") << QStringList{"--shard", "gradients"};
    }
    void machines_give_the_bits_of_threads() {
        QFETCH(QString, algorithm);
        QFETCH(QStringList, more);
        QTemporaryDir dir;
        const QString scenario = scenario_file(dir, 4, QStringLiteral("weighted-mean"));
        const auto [t, m] = same_bytes_both_ways(
            dir, 4, QStringList{scenario, "--nodes", "2", "--algorithm", algorithm} + more);
        if (QTest::currentTestFailed())
            return;
        QVERIFY(t.value("bytes_inter_node").toInteger() > 0);
        QVERIFY(t.value("bytes_inter_node").toInteger() < t.value("bytes_moved").toInteger());
        QCOMPARE(m.value("bytes_inter_node").toInteger(), t.value("bytes_inter_node").toInteger());
        QCOMPARE(m.value("bytes_moved").toInteger(), t.value("bytes_moved").toInteger());
    }

    // A diverging run over processes stops at the same step as on threads, every rank together,
    // and says why once.
    void a_diverging_run_stops_on_every_rank() {
        const QStringList args{"run",     "--workers",  "2",         "--lr",       "100",
                               "--steps", "200",        "--dataset", "regression", "--activation",
                               "relu",    "--momentum", "0.99"};
        const CliResult threads = testing::run_cli(args);
        const CliResult mpi = mpirun(2, args + QStringList{"--transport", "mpi"});
        QVERIFY(mpi.finished && mpi.exit_code != 0);
        const QString err = QString::fromUtf8(mpi.err);
        QCOMPARE(err.count(QStringLiteral("lockstep-cli: training diverged in step")), 1);
        const QString said = QString::fromUtf8(threads.err).trimmed();
        QVERIFY(said.startsWith(QStringLiteral("lockstep-cli: training diverged in step")));
        LOCKSTEP_VERIFY_CONTAINS(err, said); // the same step, loss and advice
    }

    // Checkpoints a run on threads wrote on the modelled clock are the same run's: processes
    // resume them (they measure time, the numbers are the same) and end with the bytes of the
    // run that never stopped; the directory then still resumes on threads.
    void processes_resume_a_modelled_run_on_threads() {
        QTemporaryDir dir;
        const QString ck = dir.filePath(QStringLiteral("ck"));
        const QString reference = dir.filePath(QStringLiteral("reference.json"));
        const CliResult threads =
            testing::run_cli({"run", "--workers", "3", "--steps", "20", "--checkpoint-dir", ck,
                              "--checkpoint-every", "5", "--keep", "4", "--params-out", reference});
        QVERIFY2(threads.exit_code == 0, threads.err.constData());
        for (const char* step : {"step-000000015", "step-000000020"})
            QVERIFY(QDir(ck + '/' + QLatin1String(step)).removeRecursively());
        const QString resumed = dir.filePath(QStringLiteral("resumed.json"));
        const CliResult mpi =
            mpirun(3, {"resume", ck, "--transport", "mpi", "--json", "--params-out", resumed});
        QVERIFY2(mpi.exit_code == 0, mpi.err.constData());
        const QJsonObject report = QJsonDocument::fromJson(mpi.out).object();
        QCOMPARE(report.value("resumed_from_step").toInt(), 10);
        QCOMPARE(report.value("clock").toString(), QStringLiteral("measured"));
        QCOMPARE(read(resumed), read(reference));
        const CliResult again = testing::run_cli({"resume", ck, "--json"});
        QVERIFY2(again.exit_code == 0, again.err.constData());
        QCOMPARE(QJsonDocument::fromJson(again.out).object().value("resumed_from_step").toInt(),
                 20);
    }

    // The recording of a stage-3 run over processes names each message's half and layer, and
    // carries every rank's memory samples: what the lab's replay draws.
    void a_sharded_recording_keeps_halves_and_memory() {
        QTemporaryDir dir;
        const QString trace = dir.filePath(QStringLiteral("fsdp.json"));
        const CliResult r =
            mpirun(3, {"run", "--workers", "3", "--steps", "4", "--layers", "2,8,8,3", "--shard",
                       "parameters", "--transport", "mpi", "--trace", trace});
        QVERIFY2(r.exit_code == 0, r.err.constData());
        const Recording rec = read_recording(trace.toStdString());
        std::set<std::pair<int, int>> named; // (half, layer) of every message
        for (const TraceEvent& e : rec.events)
            if (e.kind == EventKind::Send || e.kind == EventKind::Receive) {
                QVERIFY(e.half != CollectiveHalf::None);
                named.insert({static_cast<int>(e.half), e.layer});
            }
        QCOMPARE(named.size(), std::size_t{6}); // both halves of each of the three layers
        QCOMPARE(rec.snapshots.size(), std::size_t{4});
        for (const StepSnapshot& snap : rec.snapshots) {
            std::set<int> workers;
            std::int64_t most = 0, least = INT64_MAX;
            for (const MemorySample& m : snap.memory) {
                workers.insert(m.worker);
                most = std::max(most, m.parameters);
                least = std::min(least, m.parameters);
            }
            QCOMPARE(workers, (std::set<int>{0, 1, 2}));
            QVERIFY(most > least); // a layer gathered, then freed
        }
    }

    // A sharded run's checkpoint written by processes is the threaded one's: each rank's file
    // its slice. Threads resume from what the processes wrote, and processes from what threads
    // wrote, both ending with the bytes of the run that never stopped.
    void sharded_checkpoints_cross_between_threads_and_processes_data() {
        QTest::addColumn<QString>("stage");
        for (const char* z : {"optimizer", "gradients", "parameters"})
            QTest::addRow("%s", z) << QString::fromLatin1(z);
    }
    void sharded_checkpoints_cross_between_threads_and_processes() {
        QFETCH(QString, stage);
        QTemporaryDir dir;
        const QString scenario = scenario_file(dir, 3, QStringLiteral("mean"));
        // On the measured clock, as processes run: the same scenario, so the same checkpoints.
        const QStringList run{"run",     scenario,      "--shard",
                              stage,     "--algorithm", "ring",
                              "--clock", "measured",    "--checkpoint-every",
                              "4",       "--keep",      "3"};
        const QString reference = dir.filePath(QStringLiteral("reference.json"));
        const QString by_threads = dir.filePath(QStringLiteral("by-threads"));
        const QString by_mpi = dir.filePath(QStringLiteral("by-mpi"));
        const CliResult threads = testing::run_cli(
            run + QStringList{"--checkpoint-dir", by_threads, "--params-out", reference});
        QVERIFY2(threads.exit_code == 0, threads.err.constData());
        const CliResult mpi =
            mpirun(3, run + QStringList{"--checkpoint-dir", by_mpi, "--transport", "mpi"});
        QVERIFY2(mpi.exit_code == 0, mpi.err.constData());
        // Every file the processes wrote is the byte-for-byte file the threads wrote.
        for (const QString& step :
             {QStringLiteral("step-000000004"), QStringLiteral("step-000000008")}) {
            const QStringList files = QDir(by_threads + '/' + step).entryList(QDir::Files);
            QCOMPARE(files.size(), 4); // three workers' files and the manifest
            for (const QString& name : files) {
                QVERIFY2(!read(by_threads + '/' + step + '/' + name).isEmpty(), qPrintable(name));
                QCOMPARE(read(by_mpi + '/' + step + '/' + name),
                         read(by_threads + '/' + step + '/' + name));
            }
        }
        // Step 12 gone from both: each resumes from step 8 on the other side.
        for (const QString& d : {by_threads, by_mpi})
            QVERIFY(QDir(d + QStringLiteral("/step-000000012")).removeRecursively());
        const QString a = dir.filePath(QStringLiteral("a.json"));
        const QString b = dir.filePath(QStringLiteral("b.json"));
        const CliResult on_mpi =
            mpirun(3, {"resume", by_threads, "--transport", "mpi", "--json", "--params-out", a});
        QVERIFY2(on_mpi.exit_code == 0, on_mpi.err.constData());
        QCOMPARE(QJsonDocument::fromJson(on_mpi.out).object().value("resumed_from_step").toInt(),
                 8);
        const CliResult on_threads = testing::run_cli({"resume", by_mpi, "--params-out", b});
        QVERIFY2(on_threads.exit_code == 0, on_threads.err.constData());
        QCOMPARE(read(a), read(reference));
        QCOMPARE(read(b), read(reference));
    }

    // Open MPI's own all-reduce adds in its own order: the same model within 1e-12, and the
    // report names it.
    void mpi_allreduce_agrees_with_ours() {
        QTemporaryDir dir;
        const QString scenario = scenario_file(dir, 4, QStringLiteral("mean"));
        const QString ours = dir.filePath(QStringLiteral("ours.json"));
        const QString theirs = dir.filePath(QStringLiteral("theirs.json"));
        const CliResult a =
            mpirun(4, {"run", scenario, "--transport", "mpi", "--params-out", ours});
        const CliResult b = mpirun(4, {"run", scenario, "--transport", "mpi", "--algorithm",
                                       "mpi-allreduce", "--json", "--params-out", theirs});
        QVERIFY2(a.exit_code == 0 && b.exit_code == 0, a.err.constData());
        QCOMPARE(QJsonDocument::fromJson(b.out).object().value("algorithm").toString(),
                 QStringLiteral("mpi-allreduce"));
        const auto x = numbers(QJsonDocument::fromJson(read(ours)).object());
        const auto y = numbers(QJsonDocument::fromJson(read(theirs)).object());
        QVERIFY(!x.empty());
        QCOMPARE(x.size(), y.size());
        for (std::size_t i = 0; i < x.size(); ++i)
            QVERIFY2(std::abs(x[i] - y[i]) <= 1e-12, qPrintable(QString::number(x[i] - y[i])));
    }

    // Three processes for a four-worker scenario: one clear error, from rank 0 only, and every
    // process exits non-zero without hanging.
    void a_mismatched_np_is_refused() {
        const CliResult r =
            mpirun(3, {"run", "--workers", "4", "--steps", "5", "--transport", "mpi"});
        QVERIFY2(r.finished, "mpirun hung or crashed");
        QVERIFY(r.exit_code != 0);
        const QString err = QString::fromUtf8(r.err);
        LOCKSTEP_VERIFY_CONTAINS(err, QStringLiteral("the scenario has 4 workers but mpirun "
                                                     "started 3 processes"));
        QCOMPARE(err.count(QStringLiteral("lockstep-cli:")), 1);
        QVERIFY(r.out.isEmpty());
    }

    // What processes cannot do yet is refused by name, once.
    void refuses_what_only_threads_do() {
        const CliResult crash = mpirun(2, {"run", "--workers", "2", "--steps", "5", "--transport",
                                           "mpi", "--fail", "crash:worker=1,step=2"});
        QVERIFY(crash.finished && crash.exit_code != 0);
        LOCKSTEP_VERIFY_CONTAINS(QString::fromUtf8(crash.err),
                                 QStringLiteral("a crash fault is injected into threads only"));
        QCOMPARE(QString::fromUtf8(crash.err).count(QStringLiteral("lockstep-cli:")), 1);
        // Local SGD, ssp and async are not run over processes: refused, never run as bsp.
        for (const char* mode : {"local", "ssp", "async"}) {
            const CliResult loose = mpirun(
                2, {"run", "--workers", "2", "--steps", "5", "--transport", "mpi", "--sync", mode});
            QVERIFY(loose.finished && loose.exit_code != 0);
            LOCKSTEP_VERIFY_CONTAINS(QString::fromUtf8(loose.err),
                                     QStringLiteral("sync.mode: \"%1\": processes agree every "
                                                    "step (bsp)")
                                         .arg(QLatin1String(mode)));
            QVERIFY(loose.out.isEmpty());
        }
        const CliResult narrow =
            mpirun(2, {"run", "--workers", "2", "--steps", "5", "--transport", "mpi", "--algorithm",
                       "mpi-allreduce", "--comm-precision", "float16"});
        QVERIFY(narrow.finished && narrow.exit_code != 0);
        LOCKSTEP_VERIFY_CONTAINS(QString::fromUtf8(narrow.err),
                                 QStringLiteral("comm_precision: Open MPI's own all-reduce adds "
                                                "in float64; float16 needs one of Lockstep's"));
        const CliResult single =
            mpirun(2, {"run", "--workers", "2", "--steps", "5", "--transport", "mpi", "--algorithm",
                       "mpi-allreduce", "--precision", "float32"});
        QVERIFY(single.finished && single.exit_code != 0);
        LOCKSTEP_VERIFY_CONTAINS(
            QString::fromUtf8(single.err),
            QStringLiteral("precision float32: its gradients are added in float32: Open MPI's own "
                           "all-reduce adds in float64; float32 needs one of Lockstep's"));
        const CliResult wrong = testing::run_cli({"run", "--transport", "carrier-pigeon"});
        QCOMPARE(wrong.exit_code, 1);
        LOCKSTEP_VERIFY_CONTAINS(QString::fromUtf8(wrong.err),
                                 QStringLiteral("--transport: must be one of threads, mpi"));
        const CliResult alone = testing::run_cli({"run", "--algorithm", "mpi-allreduce"});
        QCOMPARE(alone.exit_code, 1);
        LOCKSTEP_VERIFY_CONTAINS(QString::fromUtf8(alone.err), QStringLiteral("--transport mpi"));
    }

    // The merged trace, on rank 0's clock: every message of the schedule is received after it
    // began to be sent, and every rank's slices follow one another.
    void the_merged_trace_is_causal() {
        QTemporaryDir dir;
        const QString trace = dir.filePath(QStringLiteral("t.json"));
        const QString params = dir.filePath(QStringLiteral("p.json"));
        const CliResult r =
            mpirun(4, {"run", "--workers", "4", "--steps", "6", "--algorithm", "ring", "--layers",
                       "2,16,3", "--transport", "mpi", "--trace", trace, "--params-out", params});
        QVERIFY2(r.exit_code == 0, r.err.constData());
        const QJsonArray events =
            QJsonDocument::fromJson(read(trace)).object().value("traceEvents").toArray();
        // (step, round, lane) -> the lane's slice of that round: [start, end] in microseconds.
        std::map<std::tuple<int, int, int>, std::pair<double, double>> slices;
        int computes = 0;
        for (const auto& v : events) {
            const QJsonObject e = v.toObject();
            if (e.value("ph").toString() != QStringLiteral("X"))
                continue;
            const QJsonObject args = e.value("args").toObject();
            const double ts = e.value("ts").toDouble(), dur = e.value("dur").toDouble();
            QVERIFY(dur >= 0.0);
            QVERIFY(ts >= 0.0);
            computes += e.value("name").toString() == QStringLiteral("compute");
            if (args.contains("round"))
                slices[{args.value("step").toInt(), args.value("round").toInt(),
                        e.value("tid").toInt()}] = {ts, ts + dur};
        }
        QCOMPARE(computes, 4 * 6);
        const std::size_t count = numbers(QJsonDocument::fromJson(read(params)).object()).size();
        const CommSchedule schedule = ring_schedule(4, count);
        int checked = 0;
        for (int step = 0; step < 6; ++step)
            for (std::size_t round = 0; round < schedule.rounds.size(); ++round)
                for (const Message& m : schedule.rounds[round].messages) {
                    const auto send = slices.find({step, static_cast<int>(round), m.src});
                    const auto receive = slices.find({step, static_cast<int>(round), m.dst});
                    QVERIFY(send != slices.end() && receive != slices.end());
                    QVERIFY2(receive->second.second >= send->second.first,
                             qPrintable(QStringLiteral("step %1 round %2: %3 -> %4")
                                            .arg(step)
                                            .arg(round)
                                            .arg(m.src)
                                            .arg(m.dst)));
                    ++checked;
                }
        QCOMPARE(checked, 6 * 6 * 4); // a 4-rank ring: 6 rounds of 4 messages
    }

    // Checkpoints across processes, with real SIGKILLs: a rank killed mid-run ends the job; a
    // resume over processes goes on from the newest complete checkpoint and ends with the
    // uninterrupted run's parameters, byte for byte. Three kills, at different points.
    void killed_ranks_resume_bitwise() {
        QTemporaryDir dir;
        // Worker 1 is 40 times slower (a real sleep), so the run lasts long enough to be killed.
        const QJsonObject s{{"name", "kill"},
                            {"seed", 4},
                            {"steps", 240},
                            {"workers", 3},
                            {"batch", 16},
                            {"model", QJsonObject{{"layers", QJsonArray{2, 32, 32, 3}}}},
                            {"optimizer", QJsonObject{{"kind", "adam"}, {"lr", 0.01}}},
                            {"delays", QJsonObject{{"slowdown", QJsonArray{1, 40, 1}}}},
                            {"checkpoint", QJsonObject{{"every", 8}, {"keep", 2}}}};
        const QString scenario = dir.filePath(QStringLiteral("kill.json"));
        {
            QFile f(scenario);
            QVERIFY(f.open(QIODevice::WriteOnly));
            f.write(QJsonDocument(s).toJson());
        }
        const QString reference = dir.filePath(QStringLiteral("reference.json"));
        const CliResult whole =
            testing::run_cli({"run", scenario, "--checkpoint-dir", dir.filePath("threads"),
                              "--params-out", reference});
        QVERIFY2(whole.exit_code == 0, whole.err.constData());

        for (int kill = 0; kill < 3; ++kill) {
            const QString ck = dir.filePath(QStringLiteral("ck-%1").arg(kill));
            QProcess job;
            job.setProcessEnvironment(mpi_environment());
            job.start(
                QStringLiteral(LOCKSTEP_MPIEXEC),
                mpirun_args(3, {"run", scenario, "--transport", "mpi", "--checkpoint-dir", ck}));
            QVERIFY(job.waitForStarted());
            // Wait for a committed checkpoint (later ones for later kills), then kill a rank.
            const QString wanted =
                ck + QStringLiteral("/step-%1/MANIFEST").arg(16 + 24 * kill, 9, 10, QChar('0'));
            // Polled every 10 ms (QTRY_* polls every 50): the MANIFEST lives only until the
            // checkpoint two later is committed, a few fast steps on.
            QVERIFY(QTest::qWaitFor(
                [&] { return QFile::exists(wanted) || job.state() != QProcess::Running; }, 60'000));
            QVERIFY2(QFile::exists(wanted), qPrintable(wanted));
            QProcess children;
            children.start(QStringLiteral("pgrep"),
                           {"-P", QString::number(job.processId()), "lockstep-cli"});
            QVERIFY(children.waitForFinished());
            const QStringList pids = QString::fromLatin1(children.readAllStandardOutput())
                                         .split('\n', Qt::SkipEmptyParts);
            QCOMPARE(pids.size(), 3);
            const pid_t victim = static_cast<pid_t>(pids[kill % 3].toInt());
            QCOMPARE(::kill(victim, SIGKILL), 0);
            QVERIFY(job.waitForFinished(60'000));
            QVERIFY(job.exitCode() != 0); // Open MPI ended the job

            const QString resumed = dir.filePath(QStringLiteral("resumed-%1.json").arg(kill));
            const CliResult again =
                mpirun(3, {"resume", ck, "--transport", "mpi", "--json", "--params-out", resumed});
            QVERIFY2(again.exit_code == 0, again.err.constData());
            QVERIFY(
                QJsonDocument::fromJson(again.out).object().value("resumed_from_step").toInt() >=
                16 + 24 * kill);
            QCOMPARE(read(resumed), read(reference));
        }
    }

    // One rank frozen with SIGSTOP mid-run: the others' heartbeat finds it silent within the rank
    // timeout and its grace, and the job ends naming it, instead of hanging.
    void a_frozen_rank_ends_the_job_naming_it() {
        QProcess job;
        job.setProcessEnvironment(mpi_environment());
        job.start(QStringLiteral(LOCKSTEP_MPIEXEC),
                  mpirun_args(3, {"run", "--workers", "3", "--steps", "1000000", "--transport",
                                  "mpi", "--rank-timeout", "2"}));
        QVERIFY(job.waitForStarted());
        pid_t frozen = 0;
        QVERIFY(QTest::qWaitFor([&] { return (frozen = rank_process(job, 1)) != 0; }, 30'000));
        // Training by now: it has computed for half a second.
        QTRY_VERIFY_WITH_TIMEOUT(cpu_seconds(frozen) >= 0.5, 30'000);
        QVERIFY(job.state() == QProcess::Running);
        QCOMPARE(::kill(frozen, SIGSTOP), 0);
        QElapsedTimer waited;
        waited.start();
        const bool ended = job.waitForFinished(60'000);
        ::kill(frozen, SIGKILL); // whatever happened, nothing is left behind
        QVERIFY2(ended, "the job hung with a frozen rank");
        QVERIFY(job.exitCode() != 0);
        QVERIFY2(waited.elapsed() < 30'000, qPrintable(QString::number(waited.elapsed())));
        const QString err = QString::fromUtf8(job.readAllStandardError());
        LOCKSTEP_VERIFY_CONTAINS(err, QStringLiteral("rank 1 (on %1) did not answer the heartbeat")
                                          .arg(QSysInfo::machineHostName()));
        QCOMPARE(err.count(QStringLiteral("did not answer the heartbeat")), 1);
        // A scripted pause longer than the timeout is not a silence: the run ends well.
        const CliResult paused =
            mpirun(2, {"run", "--workers", "2", "--steps", "8", "--transport", "mpi", "--fail",
                       "pause:worker=1,step=3,seconds=3", "--rank-timeout", "1"});
        QVERIFY2(paused.exit_code == 0, paused.err.constData());
        // A rank timeout belongs to processes.
        const CliResult threads = testing::run_cli({"run", "--rank-timeout", "5"});
        QCOMPARE(threads.exit_code, 1);
        LOCKSTEP_VERIFY_CONTAINS(QString::fromUtf8(threads.err), QStringLiteral("--transport mpi"));
    }

    // A resume over processes falls back past checkpoints that verify but do not fit, like one on
    // threads; when none can be used it refuses to start again over them unless told
    // --from-scratch, which sets them aside. A second run on a held directory is refused.
    void a_resume_over_processes_falls_back_and_never_over() {
        QTemporaryDir dir;
        const QString ck = dir.filePath(QStringLiteral("ck"));
        const QString reference = dir.filePath(QStringLiteral("reference.json"));
        const CliResult threads = testing::run_cli(
            {"run", "--workers", "3", "--steps", "20", "--shuffle", "on", "--checkpoint-dir", ck,
             "--checkpoint-every", "5", "--keep", "4", "--params-out", reference});
        QVERIFY2(threads.exit_code == 0, threads.err.constData());
        const QString step15 = ck + QStringLiteral("/step-000000015");
        const TrainingState good = load_checkpoint((ck + "/step-000000010").toStdString());
        QVERIFY(QDir(step15).removeRecursively());
        QVERIFY(QDir(ck + QStringLiteral("/step-000000020")).removeRecursively());
        TrainingState forged = good;
        forged.step = 15;
        forged.cursors[2].position = 1'000'000; // outside rank 2's shard
        save_checkpoint(ck.toStdString(), forged);

        const QString resumed = dir.filePath(QStringLiteral("resumed.json"));
        const CliResult mpi =
            mpirun(3, {"resume", ck, "--transport", "mpi", "--json", "--params-out", resumed});
        QVERIFY2(mpi.exit_code == 0, mpi.err.constData());
        QCOMPARE(QJsonDocument::fromJson(mpi.out).object().value("resumed_from_step").toInt(), 10);
        LOCKSTEP_VERIFY_CONTAINS(QString::fromUtf8(mpi.err),
                                 QStringLiteral("is outside the shard"));
        QCOMPARE(read(resumed), read(reference));

        for (int step : {5, 10, 15, 20})
            flip_bit((ck + QStringLiteral("/step-%1/worker-1.ckpt").arg(step, 9, 10, QChar('0')))
                         .toStdString(),
                     120);
        const CliResult refused = mpirun(3, {"resume", ck, "--transport", "mpi"});
        QVERIFY(refused.exit_code != 0);
        LOCKSTEP_VERIFY_CONTAINS(QString::fromUtf8(refused.err), QStringLiteral("--from-scratch"));
        QVERIFY(!QFile::exists(ck + QStringLiteral("/set-aside-1")));
        const CliResult again = mpirun(3, {"resume", ck, "--transport", "mpi", "--from-scratch",
                                           "--json", "--params-out", resumed});
        QVERIFY2(again.exit_code == 0, again.err.constData());
        QCOMPARE(QJsonDocument::fromJson(again.out).object().value("resumed_from_step").toInt(), 0);
        QVERIFY(QFile::exists(ck + QStringLiteral("/set-aside-1/step-000000020/MANIFEST")));
        QCOMPARE(read(resumed), read(reference));
    }

    // Every --sync, --restore and --policy over processes either runs as it does on threads (the
    // same bits) or is refused by name, never run as something else.
    void every_mode_over_processes_is_real_or_refused() {
        QTemporaryDir dir;
        const QStringList base{"--workers", "2", "--steps", "8"};
        (void)same_bytes_both_ways(dir, 2, base + QStringList{"--sync", "bsp"});
        for (const char* policy : {"restart", "elastic"})
            (void)same_bytes_both_ways(dir, 2, base + QStringList{"--policy", policy});
        // A full restore: a resume over processes continues as one on threads.
        const QString ck = dir.filePath(QStringLiteral("full"));
        const QString reference = dir.filePath(QStringLiteral("reference.json"));
        const CliResult full =
            testing::run_cli(QStringList{"run"} + base +
                             QStringList{"--checkpoint-dir", ck, "--checkpoint-every", "4",
                                         "--restore", "full", "--params-out", reference});
        QVERIFY2(full.exit_code == 0, full.err.constData());
        QVERIFY(QDir(ck + QStringLiteral("/step-000000008")).removeRecursively());
        const QString resumed = dir.filePath(QStringLiteral("resumed.json"));
        const CliResult mpi =
            mpirun(2, {"resume", ck, "--transport", "mpi", "--params-out", resumed});
        QVERIFY2(mpi.exit_code == 0, mpi.err.constData());
        QCOMPARE(read(resumed), read(reference));
        // What processes do not do is refused, naming the field.
        const std::pair<QStringList, const char*> refused[] = {
            {{"--sync", "local"}, "sync.mode"},
            {{"--sync", "ssp"}, "sync.mode"},
            {{"--sync", "async"}, "sync.mode"},
            {{"--restore", "weights-only", "--checkpoint-dir", dir.filePath("w"),
              "--checkpoint-every", "4"},
             "checkpoint.restore"},
            {{"--policy", "backup", "--backup-workers", "1"}, "backup"},
        };
        for (const auto& [flags, field] : refused) {
            const CliResult r =
                mpirun(2, QStringList{"run"} + base + flags + QStringList{"--transport", "mpi"});
            QVERIFY2(r.exit_code != 0 && r.err.contains(field),
                     qPrintable(flags.join(' ') + ": " + QString::fromUtf8(r.err)));
            QVERIFY(r.out.isEmpty());
        }
    }

    // lockstep --replay: the lab plays back the merged trace of a real run, and its trace index
    // holds exactly the file's events and snapshots. The recording cannot be changed; a trace
    // of a run on threads is refused with a clear message.
    void the_replay_shows_the_file() {
        QTemporaryDir dir;
        const QString trace = dir.filePath(QStringLiteral("mpi.json"));
        const CliResult r = mpirun(3, {"run", "--workers", "3", "--steps", "5", "--algorithm",
                                       "tree", "--transport", "mpi", "--trace", trace});
        QVERIFY2(r.exit_code == 0, r.err.constData());
        const Recording file = read_recording(trace.toStdString());
        QCOMPARE(file.ranks, 3);
        QCOMPARE(file.hosts.size(), std::size_t{1});
        QCOMPARE(file.snapshots.size(), std::size_t{5});
        QVERIFY(file.events.size() > 5 * 3 * 3); // compute, wait and update at least, per rank

        app::LabSession session;
        QString error;
        QVERIFY2(session.openRecording(trace, &error), qPrintable(error));
        QVERIFY(session.runComplete());
        LOCKSTEP_VERIFY_CONTAINS(session.recordingNote(), QStringLiteral("3 processes"));
        LOCKSTEP_VERIFY_CONTAINS(session.recordingNote(), QStringLiteral("measured"));
        auto key = [](const TraceEvent& e) {
            return std::tuple(e.step, e.start, e.worker, static_cast<int>(e.kind), e.end, e.bytes,
                              e.peer, e.round);
        };
        auto sorted = [&](std::vector<TraceEvent> v) {
            std::sort(v.begin(), v.end(),
                      [&](const auto& a, const auto& b) { return key(a) < key(b); });
            return v;
        };
        const auto& held = session.traceIndex().events();
        const auto shown = sorted({held.begin(), held.end()});
        const auto recorded = sorted(file.events);
        QCOMPARE(shown.size(), recorded.size());
        for (std::size_t i = 0; i < shown.size(); ++i)
            QVERIFY2(key(shown[i]) == key(recorded[i]), qPrintable(QString::number(i)));
        const auto& snapshots = session.traceIndex().snapshots();
        QCOMPARE(snapshots.size(), file.snapshots.size());
        for (std::size_t i = 0; i < snapshots.size(); ++i) {
            QCOMPARE(snapshots[i].loss, file.snapshots[i].loss);
            QCOMPARE(snapshots[i].time, file.snapshots[i].time);
            QVERIFY(snapshots[i].parameter_hash == file.snapshots[i].parameter_hash);
        }

        Intervention change;
        change.kind = Intervention::Kind::Slow;
        change.worker = 1;
        change.amount = 3.0;
        QString why;
        QVERIFY(!session.intervene(change, QStringLiteral("slow"), &why));
        LOCKSTEP_VERIFY_CONTAINS(why, QStringLiteral("cannot be changed"));

        const QString threads = dir.filePath(QStringLiteral("threads.json"));
        QCOMPARE(testing::run_cli({"run", "--steps", "3", "--trace", threads}).exit_code, 0);
        QVERIFY(!session.openRecording(threads, &error));
        LOCKSTEP_VERIFY_CONTAINS(error, QStringLiteral("holds no recording"));
        QVERIFY(!session.openRecording(dir.filePath(QStringLiteral("none.json")), &error));
    }

    // The benchmark: our ring and Open MPI's MPI_Allreduce on the same buffers, both measured.
    // The link between two ranks by ping-pong: latency and bandwidth follow from the two round
    // trips as documented (no figure is asserted: the times are this machine's, under whatever
    // else it runs), and the scenario's "inter" object carries them. One process has no link.
    void the_link_benchmark_measures_latency_and_bandwidth() {
        const CliResult r =
            mpirun(2, {"bench", "link", "--bytes", "262144", "--iterations", "5", "--json"});
        QVERIFY2(r.exit_code == 0, r.err.constData());
        const QJsonObject b = QJsonDocument::fromJson(r.out).object();
        QCOMPARE(b.value("ranks").toInt(), 2);
        QCOMPARE(b.value("bytes").toInteger(), 262144);
        QCOMPARE(b.value("iterations").toInt(), 5);
        QCOMPARE(b.value("from_host").toString(), QSysInfo::machineHostName());
        const double small = b.value("small_round_trip_s").toDouble();
        const double large = b.value("large_round_trip_s").toDouble();
        QVERIFY(small > 0.0 && large > 0.0);
        QCOMPARE(b.value("latency_us").toDouble(), small / 2.0 * 1e6);
        const double bandwidth =
            large > small ? (262144.0 - 8.0) * 8.0 / ((large - small) / 2.0) / 1e6 : 0.0;
        QVERIFY(qAbs(b.value("bandwidth_mbit_s").toDouble() - bandwidth) <= 1e-9 * bandwidth);
        const QJsonObject inter = b.value("inter").toObject();
        QVERIFY(qAbs(inter.value("latency_us").toDouble() - b.value("latency_us").toDouble()) <=
                0.05);
        QVERIFY(qAbs(inter.value("bandwidth_mbit_s").toDouble() - bandwidth) <= 0.05);
        const CliResult alone = mpirun(1, {"bench", "link"});
        QVERIFY(alone.exit_code != 0);
        LOCKSTEP_VERIFY_CONTAINS(QString::fromUtf8(alone.err),
                                 QStringLiteral("start at least two"));
    }

    void the_benchmark_reports_both() {
        const CliResult r = mpirun(2, {"bench", "allreduce", "--transport", "mpi", "--algorithm",
                                       "ring", "--bytes", "1048576", "--json"});
        QVERIFY2(r.exit_code == 0, r.err.constData());
        const QJsonObject b = QJsonDocument::fromJson(r.out).object();
        QCOMPARE(b.value("ranks").toInt(), 2);
        QVERIFY(b.value("algbw_gbps").toDouble() > 0.0);
        QVERIFY(b.value("busbw_gbps").toDouble() > 0.0);
        QVERIFY(b.value("mpi_allreduce_busbw_gbps").toDouble() > 0.0);
        QVERIFY(b.value("max_difference").toDouble() <= 1e-12);
    }
};

QTEST_MAIN(TestMpi)
#include "test_mpi.moc"
