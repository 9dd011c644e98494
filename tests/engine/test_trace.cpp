#include "reports/metrics.h"
#include "runs/runs.h"
#include "scenario/scenario.h"
#include "trace/trace.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QtTest>

#include <algorithm>
#include <cmath>
#include <map>
#include <memory>
#include <set>
#include <tuple>
#include <vector>

using namespace lockstep;

Q_DECLARE_METATYPE(lockstep::Algorithm)

namespace {

constexpr int kWorkers = 3;
constexpr std::int64_t kSteps = 5;

// Three workers, five steps on the modelled clock. Worker 1 computes at half speed and worker 2
// is paused at step 2, so the trace has waiting as well as work.
Scenario small_scenario(Algorithm algorithm, bool textbook = false) {
    Scenario s;
    s.name = "trace test";
    s.seed = 3;
    s.steps = kSteps;
    s.workers = kWorkers;
    s.batch = 8;
    s.algorithm = algorithm;
    s.rule = ReductionRule::Mean;
    s.clock = ClockKind::Modelled;
    s.model = ModelShape{{2, 8, 3}, Activation::Tanh, LossKind::SoftmaxCrossEntropy};
    s.dataset = DatasetConfig{"spiral", "", 120, 0.1, 3};
    s.cost.update_s = 1e-4;
    s.delays.slowdown = {1.0, 2.0};
    s.delays.pauses = {PauseDelay{2, 2, 0.01}};
    if (textbook)
        s.cost.communication_s_per_step = 0.005;
    return s;
}

// A finished run: its trace and every worker's final clock.
struct Recorded {
    Trace trace;
    std::vector<Ticks> clocks;
    RunMetrics metrics;
};

std::unique_ptr<Recorded> run(const Scenario& s) {
    auto out = std::make_unique<Recorded>();
    const auto trainer = make_run(s, load_dataset(s), &out->trace);
    trainer->run_to_end();
    for (const auto& w : trainer->replicas())
        out->clocks.push_back(w.clock);
    out->metrics = trainer->metrics();
    return out;
}

bool full_duplex(EventKind kind) {
    return kind == EventKind::Send || kind == EventKind::Receive || kind == EventKind::Reduce;
}

QString describe(const TraceEvent& e) {
    return QStringLiteral("%1 on worker %2, step %3, [%4, %5)")
        .arg(QString::fromLatin1(to_string(e.kind).data(), qsizetype(to_string(e.kind).size())))
        .arg(e.worker)
        .arg(e.step)
        .arg(e.start)
        .arg(e.end);
}

// Microseconds in the Chrome trace back to integer nanoseconds.
Ticks ticks_of(const QJsonValue& microseconds) {
    return static_cast<Ticks>(std::llround(microseconds.toDouble() * 1e3));
}

void add_algorithm_rows() {
    QTest::addColumn<Algorithm>("algorithm");
    QTest::addColumn<bool>("textbook");
    QTest::newRow("ring") << Algorithm::Ring << false;
    QTest::newRow("parameter-server") << Algorithm::ParameterServer << false;
    QTest::newRow("tree") << Algorithm::Tree << false;
    QTest::newRow("ring, fixed communication cost") << Algorithm::Ring << true;
    QTest::newRow("no synchronisation") << Algorithm::None << false;
}

} // namespace

// The trace of a small modelled run: the Chrome export has one named lane per worker and
// well-formed slices, the metrics CSV one row per step, and on every lane the intervals tile the
// worker's clock exactly, overlapping only where sends, receives and reductions run together.
class TestTrace : public QObject {
    Q_OBJECT

private Q_SLOTS:
    void chrome_trace_lanes_data();
    void chrome_trace_lanes();
    void chrome_trace_slices_nest_data();
    void chrome_trace_slices_nest();
    void chrome_trace_bytes();
    void metrics_csv();
    void lanes_do_not_overlap_data();
    void lanes_do_not_overlap();
    void time_accounting_data();
    void time_accounting();
};

void TestTrace::chrome_trace_lanes_data() {
    add_algorithm_rows();
}

void TestTrace::chrome_trace_lanes() {
    QFETCH(Algorithm, algorithm);
    QFETCH(bool, textbook);
    const auto r = run(small_scenario(algorithm, textbook));
    const std::string text = to_chrome_trace_json(r->trace.events(), kWorkers, "trace test");

    QJsonParseError error{};
    const QJsonDocument doc = QJsonDocument::fromJson(QByteArray::fromStdString(text), &error);
    QVERIFY2(error.error == QJsonParseError::NoError, qPrintable(error.errorString()));
    QVERIFY(doc.isObject());
    QVERIFY(doc.object().value("traceEvents").isArray());
    const QJsonArray events = doc.object().value("traceEvents").toArray();

    std::map<int, QStringList> lane_names;
    QStringList process_names;
    std::set<int> tids;
    std::set<std::pair<int, std::int64_t>> computed; // (worker, step) with a compute slice
    Ticks last_end = 0;
    int slices = 0;
    for (const auto& value : events) {
        const QJsonObject e = value.toObject();
        const QString ph = e.value("ph").toString();
        const QString name = e.value("name").toString();
        if (ph == "M") {
            if (name == "thread_name")
                lane_names[e.value("tid").toInt()].append(
                    e.value("args").toObject().value("name").toString());
            if (name == "process_name")
                process_names.append(e.value("args").toObject().value("name").toString());
            continue;
        }
        QCOMPARE(ph, QStringLiteral("X"));
        ++slices;
        QVERIFY(e.value("tid").isDouble());
        const int tid = e.value("tid").toInt(-1);
        QVERIFY2(tid >= 0 && tid < kWorkers, qPrintable(QString::number(tid)));
        QCOMPARE(e.value("pid").toInt(-1), 0);
        QVERIFY(e.value("ts").isDouble());
        QVERIFY(e.value("dur").isDouble());
        QVERIFY(e.value("ts").toDouble() >= 0.0);
        QVERIFY(e.value("dur").toDouble() >= 0.0);
        tids.insert(tid);
        last_end = std::max(last_end, ticks_of(e.value("ts")) + ticks_of(e.value("dur")));
        const auto step =
            static_cast<std::int64_t>(e.value("args").toObject().value("step").toInt(-1));
        QVERIFY2(step >= 0 && step < kSteps, qPrintable(name));
        if (name == "compute")
            computed.insert({tid, step});
    }

    QCOMPARE(process_names, QStringList{QStringLiteral("trace test")});
    QCOMPARE(static_cast<int>(lane_names.size()), kWorkers);
    for (int w = 0; w < kWorkers; ++w)
        QCOMPARE(lane_names[w], QStringList{QStringLiteral("worker %1").arg(w)});
    QCOMPARE(tids, (std::set<int>{0, 1, 2}));
    // One slice per event, except that a worker's sends, receives and reductions of one round
    // become one slice.
    int expected_slices = 0;
    std::set<std::tuple<int, std::int64_t, int>> rounds;
    for (const auto& e : r->trace.events()) {
        if (full_duplex(e.kind))
            rounds.insert({e.worker, e.step, e.round});
        else
            ++expected_slices;
    }
    expected_slices += static_cast<int>(rounds.size());
    QCOMPARE(slices, expected_slices);
    if (algorithm != Algorithm::None && !textbook)
        QVERIFY(!rounds.empty());
    for (int w = 0; w < kWorkers; ++w)
        for (std::int64_t step = 0; step < kSteps; ++step)
            QVERIFY2(
                computed.count({w, step}),
                qPrintable(QStringLiteral("no compute on worker %1 at step %2").arg(w).arg(step)));
    // The last slice ends where the slowest worker's clock ended.
    QCOMPARE(last_end, *std::max_element(r->clocks.begin(), r->clocks.end()));
}

void TestTrace::chrome_trace_slices_nest_data() {
    add_algorithm_rows();
}

// Trace viewers need the slices of one lane to be disjoint or nested, never half-overlapping.
void TestTrace::chrome_trace_slices_nest() {
    QFETCH(Algorithm, algorithm);
    QFETCH(bool, textbook);
    const auto r = run(small_scenario(algorithm, textbook));
    const QJsonArray events =
        QJsonDocument::fromJson(
            QByteArray::fromStdString(to_chrome_trace_json(r->trace.events(), kWorkers)))
            .object()
            .value("traceEvents")
            .toArray();

    struct Slice {
        Ticks start, end;
        QString name;
    };
    std::vector<std::vector<Slice>> lanes(kWorkers);
    for (const auto& value : events) {
        const QJsonObject e = value.toObject();
        if (e.value("ph").toString() != "X")
            continue;
        const Ticks start = ticks_of(e.value("ts"));
        lanes[static_cast<std::size_t>(e.value("tid").toInt())].push_back(
            {start, start + ticks_of(e.value("dur")), e.value("name").toString()});
    }
    for (auto& lane : lanes) {
        std::sort(lane.begin(), lane.end(), [](const Slice& a, const Slice& b) {
            return a.start != b.start ? a.start < b.start : a.end > b.end;
        });
        std::vector<Slice> open;
        for (const auto& slice : lane) {
            while (!open.empty() && open.back().end <= slice.start)
                open.pop_back();
            if (!open.empty())
                QVERIFY2(slice.end <= open.back().end,
                         qPrintable(QStringLiteral("%1 [%2, %3) half-overlaps %4 [%5, %6)")
                                        .arg(slice.name)
                                        .arg(slice.start)
                                        .arg(slice.end)
                                        .arg(open.back().name)
                                        .arg(open.back().start)
                                        .arg(open.back().end)));
            open.push_back(slice);
        }
    }
}

// The bytes in the exported communicate slices are the bytes the collective sent.
void TestTrace::chrome_trace_bytes() {
    const auto r = run(small_scenario(Algorithm::Ring));
    std::int64_t sent = 0, received = 0;
    for (const auto& e : r->trace.events()) {
        if (e.kind == EventKind::Send)
            sent += e.bytes;
        if (e.kind == EventKind::Receive)
            received += e.bytes;
    }
    QVERIFY(sent > 0);
    QCOMPARE(sent, r->metrics.bytes_moved);
    QCOMPARE(received, sent);

    const QJsonArray events =
        QJsonDocument::fromJson(
            QByteArray::fromStdString(to_chrome_trace_json(r->trace.events(), kWorkers)))
            .object()
            .value("traceEvents")
            .toArray();
    double exported_sent = 0, exported_received = 0;
    for (const auto& value : events) {
        const QJsonObject args = value.toObject().value("args").toObject();
        exported_sent += args.value("bytes_sent").toDouble();
        exported_received += args.value("bytes_received").toDouble();
    }
    QCOMPARE(exported_sent, static_cast<double>(sent));
    QCOMPARE(exported_received, static_cast<double>(received));
}

void TestTrace::metrics_csv() {
    const auto r = run(small_scenario(Algorithm::Ring));
    QCOMPARE(r->trace.snapshots().size(), static_cast<std::size_t>(kSteps));
    const QString csv = QString::fromStdString(to_metrics_csv(r->trace.snapshots()));
    QVERIFY(csv.endsWith('\n'));
    const QStringList lines = csv.trimmed().split('\n');
    QCOMPARE(lines.size(), static_cast<qsizetype>(kSteps + 1));

    const QStringList header = lines[0].split(',');
    QCOMPARE(header,
             (QStringList{"step", "time_s", "loss", "accuracy", "replicas_aligned", "loss_w0",
                          "loss_w1", "loss_w2", "hash_w0", "hash_w1", "hash_w2"}));

    QString previous_hash;
    for (qsizetype row = 1; row < lines.size(); ++row) {
        const QStringList f = lines[row].split(',');
        QCOMPARE(f.size(), header.size());
        QCOMPARE(f[0].toLongLong(), static_cast<qlonglong>(row - 1));
        // Synchronised replicas: aligned, every worker the same hash.
        QCOMPARE(f[4], QStringLiteral("1"));
        QCOMPARE(f[9], f[8]);
        QCOMPARE(f[10], f[8]);
        QCOMPARE(f[8].size(), 16);
        QVERIFY2(f[8] != previous_hash, "the parameters did not change between steps");
        previous_hash = f[8];
        // The loss is the mean of the workers' losses.
        const double mean = (f[5].toDouble() + f[6].toDouble() + f[7].toDouble()) / 3.0;
        QVERIFY(std::abs(f[2].toDouble() - mean) <= 1e-12 * std::max(1.0, std::abs(mean)));
        const auto& snap = r->trace.snapshots()[static_cast<std::size_t>(row - 1)];
        QCOMPARE(f[1].toDouble(), to_seconds(snap.time));
    }
    // The last row's time is the end of the run.
    const QStringList last = lines.back().split(',');
    QCOMPARE(last[1].toDouble(), to_seconds(*std::max_element(r->clocks.begin(), r->clocks.end())));
}

void TestTrace::lanes_do_not_overlap_data() {
    add_algorithm_rows();
}

// On one worker's lane only sends, receives and reductions may run at the same time (the links
// are full duplex); computing, waiting, updating, communicating and pausing exclude everything.
void TestTrace::lanes_do_not_overlap() {
    QFETCH(Algorithm, algorithm);
    QFETCH(bool, textbook);
    const auto r = run(small_scenario(algorithm, textbook));
    std::vector<std::vector<TraceEvent>> lanes(kWorkers);
    for (const auto& e : r->trace.events()) {
        QVERIFY(e.worker >= 0 && e.worker < kWorkers);
        QVERIFY2(e.end >= e.start, qPrintable(describe(e)));
        lanes[static_cast<std::size_t>(e.worker)].push_back(e);
    }
    for (const auto& lane : lanes) {
        for (std::size_t i = 0; i < lane.size(); ++i) {
            for (std::size_t j = i + 1; j < lane.size(); ++j) {
                const auto& a = lane[i];
                const auto& b = lane[j];
                const bool overlap = a.start < b.end && b.start < a.end;
                if (overlap && !(full_duplex(a.kind) && full_duplex(b.kind)))
                    QFAIL(qPrintable(describe(a) + " overlaps " + describe(b)));
            }
        }
    }
}

void TestTrace::time_accounting_data() {
    add_algorithm_rows();
}

// Every nanosecond of a worker's clock is compute, communication, waiting or update, exactly once.
void TestTrace::time_accounting() {
    QFETCH(Algorithm, algorithm);
    QFETCH(bool, textbook);
    const auto r = run(small_scenario(algorithm, textbook));

    const auto from_trace = worker_metrics(r->trace.events(), kWorkers);
    QCOMPARE(r->metrics.per_worker.size(), static_cast<std::size_t>(kWorkers));
    std::vector<int> events_on(kWorkers, 0);
    for (const auto& e : r->trace.events())
        ++events_on[static_cast<std::size_t>(e.worker)];

    double total_waiting = 0.0;
    for (std::size_t w = 0; w < kWorkers; ++w) {
        const double clock = to_seconds(r->clocks[w]);
        const double tolerance = 1e-9 * events_on[w];
        QVERIFY(clock > 0.0);
        const WorkerMetrics* sources[] = {&from_trace[w], &r->metrics.per_worker[w]};
        for (const WorkerMetrics* m : sources) {
            const double sum = m->compute_s + m->communication_s + m->waiting_s + m->update_s;
            QVERIFY2(std::abs(sum - clock) <= tolerance,
                     qPrintable(QStringLiteral("worker %1: %2 s accounted, clock %3 s")
                                    .arg(w)
                                    .arg(sum, 0, 'g', 17)
                                    .arg(clock, 0, 'g', 17)));
            QVERIFY(m->compute_s > 0.0);
            QVERIFY(m->update_s > 0.0);
            if (algorithm != Algorithm::None)
                QVERIFY(m->communication_s > 0.0);
            else
                QCOMPARE(m->communication_s, 0.0);
        }
        total_waiting += from_trace[w].waiting_s;
    }
    // The pause alone is 10 ms of waiting; synchronised workers also wait for the slow one.
    QVERIFY(total_waiting >= 0.01 - 1e-9);
    const auto waits = std::count_if(r->trace.events().begin(), r->trace.events().end(),
                                     [](const TraceEvent& e) { return e.kind == EventKind::Wait; });
    if (algorithm == Algorithm::None)
        QCOMPARE(waits, 0);
    else
        QVERIFY(waits >= kSteps);

    // The steps follow each other: each step's events come after the previous step's.
    std::int64_t step = 0;
    for (const auto& e : r->trace.events()) {
        QVERIFY(e.step == step || e.step == step + 1);
        step = e.step;
    }
    QCOMPARE(step, kSteps - 1);
}

QTEST_APPLESS_MAIN(TestTrace)
#include "test_trace.moc"
