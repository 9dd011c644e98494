#include "chrome_trace_reference.h"

#include "core/error.h"
#include "runs/runs.h"
#include "scenario/pipeline_plan.h"
#include "scenario/scenario.h"
#include "trace/chrome_trace.h"
#include "trace/trace.h"
#include "trainers/run.h"

#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QTemporaryDir>
#include <QtTest>

#include <cmath>
#include <fstream>
#include <map>
#include <memory>
#include <sstream>
#include <tuple>

using namespace lockstep;

Q_DECLARE_METATYPE(lockstep::Algorithm)

namespace {

// A run on the modelled clock, worker 1 at half speed and worker 0 paused once, so that the
// trace waits as well as works.
Scenario scenario(Algorithm algorithm, int workers, std::int64_t steps) {
    Scenario s;
    s.name = "chrome \"trace\" test";
    s.seed = 5;
    s.steps = steps;
    s.workers = workers;
    s.batch = 4;
    s.algorithm = algorithm;
    s.clock = ClockKind::Modelled;
    s.model = ModelShape{{2, 6, 2}, Activation::Tanh, LossKind::SoftmaxCrossEntropy};
    s.dataset = DatasetConfig{"spiral", "", 120, 0.1, 2};
    s.delays.slowdown.assign(static_cast<std::size_t>(workers), 1.0);
    s.delays.slowdown[1] = 2.0;
    s.delays.pauses = {PauseDelay{0, 1, 0.002}};
    return s;
}

// Hands every step to a recorder and to a streaming writer at once.
class Tee final : public TraceSink {
public:
    Tee(TraceSink& a, TraceSink& b)
        : a_(a)
        , b_(b) {}
    void on_events(std::span<const TraceEvent> events) override {
        a_.on_events(events);
        b_.on_events(events);
    }
    void on_snapshot(const StepSnapshot& snapshot) override {
        a_.on_snapshot(snapshot);
        b_.on_snapshot(snapshot);
    }

private:
    TraceSink& a_;
    TraceSink& b_;
};

QByteArray read_all(const QString& path) {
    QFile file(path);
    return file.open(QIODevice::ReadOnly) ? file.readAll() : QByteArray();
}

QJsonArray trace_events(const QByteArray& text) {
    QJsonParseError error{};
    const QJsonDocument doc = QJsonDocument::fromJson(text, &error);
    if (error.error != QJsonParseError::NoError)
        qWarning("not JSON: %s", qPrintable(error.errorString()));
    return doc.object().value("traceEvents").toArray();
}

Ticks ticks_of(const QJsonValue& microseconds) {
    return static_cast<Ticks>(std::llround(microseconds.toDouble() * 1e3));
}

bool round_kind(EventKind kind) {
    return kind == EventKind::Send || kind == EventKind::Receive || kind == EventKind::Reduce;
}

} // namespace

// The streamed Chrome trace: the same bytes as the whole-run export it replaced, valid JSON, and
// at the phases detail one slice per lane and collective.
class TestChromeTrace : public QObject {
    Q_OBJECT

private Q_SLOTS:
    void streamed_file_equals_whole_export_data();
    void streamed_file_equals_whole_export();
    void pipeline_streams_the_same();
    void phases_one_slice_per_collective_data();
    void phases_one_slice_per_collective();
    void trace_detail_names();
    void unwritable_stream_is_an_error();
};

void TestChromeTrace::streamed_file_equals_whole_export_data() {
    QTest::addColumn<Algorithm>("algorithm");
    QTest::addColumn<int>("workers");
    QTest::addColumn<int>("steps");
    QTest::newRow("ring, 3 workers") << Algorithm::Ring << 3 << 4;
    // 14 rounds a step for 30 steps: each lane's rounds fill several chunks of the spill file.
    QTest::newRow("ring, 8 workers, spilled") << Algorithm::Ring << 8 << 30;
    QTest::newRow("tree") << Algorithm::Tree << 5 << 6;
    QTest::newRow("parameter server") << Algorithm::ParameterServer << 4 << 6;
    QTest::newRow("no synchronisation") << Algorithm::None << 3 << 3;
}

// A file written step by step as the run goes holds exactly the bytes the old export built from
// the whole recorded trace; and it is one valid JSON document with every event in it.
void TestChromeTrace::streamed_file_equals_whole_export() {
    QFETCH(Algorithm, algorithm);
    QFETCH(int, workers);
    QFETCH(int, steps);
    const Scenario s = scenario(algorithm, workers, steps);
    QTemporaryDir dir;
    QVERIFY(dir.isValid());
    const QString path = dir.filePath("trace.json");
    Trace recorded;
    {
        std::ofstream out(path.toStdString(), std::ios::binary);
        ChromeTraceWriter writer(out, workers, s.name);
        Tee tee(recorded, writer);
        const auto trainer = make_run(s, load_dataset(s), &tee);
        trainer->run_to_end();
        writer.finish();
        QCOMPARE(writer.bytes_written(), static_cast<std::int64_t>(out.tellp()));
    }
    const std::string reference =
        testing::reference_chrome_trace_json(recorded.events(), workers, s.name);
    const QByteArray streamed = read_all(path);
    QCOMPARE(streamed.size(), static_cast<qsizetype>(reference.size()));
    QVERIFY(streamed == QByteArray::fromStdString(reference));
    QCOMPARE(to_chrome_trace_json(recorded.events(), workers, s.name), reference);

    const QJsonArray events = trace_events(streamed);
    QVERIFY(!events.isEmpty());
    QCOMPARE(events.first().toObject().value("args").toObject().value("name").toString(),
             QString::fromStdString(s.name));
}

// Pipeline transfers (async slices) and the hybrid's all-reduce rounds stream the same too.
void TestChromeTrace::pipeline_streams_the_same() {
    Scenario s = scenario(Algorithm::Ring, 4, 4);
    s.model = ModelShape{{2, 6, 6, 2}, Activation::Tanh, LossKind::SoftmaxCrossEntropy};
    ParallelismConfig p;
    p.mode = Parallelism::Hybrid;
    p.stages = 2;
    p.microbatches = 2;
    p.replicas = 2;
    s.parallelism = p;
    s.delays.pauses.clear();
    validate(s);
    Trace recorded;
    std::ostringstream out;
    ChromeTraceWriter writer(out, 4, s.name);
    Tee tee(recorded, writer);
    const auto trainer = make_run(s, load_dataset(s), &tee);
    trainer->run_to_end();
    writer.finish();
    int transfers = 0;
    for (const auto& e : recorded.events())
        transfers += e.microbatch >= 0 && e.kind == EventKind::Send;
    QVERIFY(transfers > 0);
    QCOMPARE(out.str(), testing::reference_chrome_trace_json(recorded.events(), 4, s.name));
}

void TestChromeTrace::phases_one_slice_per_collective_data() {
    QTest::addColumn<Algorithm>("algorithm");
    QTest::addColumn<int>("workers");
    QTest::addColumn<int>("rounds"); // per step, on every lane
    QTest::newRow("ring, 6 workers") << Algorithm::Ring << 6 << 10;
    QTest::newRow("ring, 16 workers") << Algorithm::Ring << 16 << 30;
    QTest::newRow("tree, 8 workers") << Algorithm::Tree << 8 << -1;
}

// At the phases detail each lane has, per step, one "collective" slice from its first round's
// start to its last round's end, counting the bytes it sent and received and the waiting between
// its rounds; no per-round slice is left, and every other slice is still there.
void TestChromeTrace::phases_one_slice_per_collective() {
    QFETCH(Algorithm, algorithm);
    QFETCH(int, workers);
    QFETCH(int, rounds);
    const int steps = 3;
    const Scenario s = scenario(algorithm, workers, steps);
    Trace recorded;
    std::ostringstream out;
    ChromeTraceWriter writer(out, workers, s.name, TraceDetail::Phases);
    Tee tee(recorded, writer);
    const auto trainer = make_run(s, load_dataset(s), &tee);
    trainer->run_to_end();
    writer.finish();

    struct Expected {
        Ticks start = INT64_MAX, end = INT64_MIN;
        std::int64_t sent = 0, received = 0;
    };
    std::map<std::pair<int, std::int64_t>, Expected> expected; // (lane, step)
    std::map<QString, int> other; // slices besides rounds and waits, by name
    for (const auto& e : recorded.events()) {
        if (round_kind(e.kind)) {
            auto& x = expected[{e.worker, e.step}];
            x.start = std::min(x.start, e.start);
            x.end = std::max(x.end, e.end);
            x.sent += e.kind == EventKind::Send ? e.bytes : 0;
            x.received += e.kind == EventKind::Receive ? e.bytes : 0;
        } else if (e.kind != EventKind::Wait) {
            ++other[QString::fromLatin1(to_string(e.kind).data(),
                                        static_cast<qsizetype>(to_string(e.kind).size()))];
        }
    }
    QCOMPARE(expected.size(), static_cast<std::size_t>(workers * steps));

    const QJsonArray events = trace_events(QByteArray::fromStdString(out.str()));
    QVERIFY(!events.isEmpty());
    std::map<std::pair<int, std::int64_t>, int> seen;
    std::map<QString, int> exported_other;
    for (const auto& value : events) {
        const QJsonObject e = value.toObject();
        if (e.value("ph").toString() != "X")
            continue;
        const QString name = e.value("name").toString();
        QVERIFY2(name != "communicate", "a per-round slice at the phases detail");
        const QJsonObject args = e.value("args").toObject();
        const std::pair key{e.value("tid").toInt(), args.value("step").toInteger()};
        if (name != "collective") {
            if (name != "wait")
                ++exported_other[name];
            continue;
        }
        ++seen[key];
        QVERIFY(expected.count(key) == 1);
        const Expected& x = expected[key];
        const Ticks start = ticks_of(e.value("ts"));
        QCOMPARE(start, x.start);
        QCOMPARE(start + ticks_of(e.value("dur")), x.end);
        QCOMPARE(args.value("bytes_sent").toInteger(), x.sent);
        QCOMPARE(args.value("bytes_received").toInteger(), x.received);
        QVERIFY(args.value("waiting_us").toDouble() >= 0.0);
        QVERIFY(args.value("waiting_us").toDouble() * 1e3 <= double(x.end - x.start));
        if (rounds > 0)
            QCOMPARE(args.value("rounds").toInt(), rounds);
    }
    QCOMPARE(seen.size(), expected.size());
    for (const auto& [key, count] : seen)
        QCOMPARE(count, 1);
    QCOMPARE(exported_other, other);
}

void TestChromeTrace::trace_detail_names() {
    QCOMPARE(parse_trace_detail("rounds"), std::optional(TraceDetail::Rounds));
    QCOMPARE(parse_trace_detail("phases"), std::optional(TraceDetail::Phases));
    QVERIFY(!parse_trace_detail("messages"));
    QCOMPARE(to_string(TraceDetail::Phases), std::string_view("phases"));
}

// A stream that fails is a lockstep::Error, not a truncated file reported as written.
void TestChromeTrace::unwritable_stream_is_an_error() {
    std::ofstream closed; // never opened: every write fails
    ChromeTraceWriter writer(closed, 2, "x");
    QVERIFY_THROWS_EXCEPTION(Error, writer.finish());
}

QTEST_APPLESS_MAIN(TestChromeTrace)
#include "test_chrome_trace.moc"
