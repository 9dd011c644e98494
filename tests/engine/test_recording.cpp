// The recording a trace of a run over processes carries (trace/recording.h): what it writes reads
// back the same, and a damaged or forged one is refused with the field that is wrong.

#include "scenario/scenario.h"
#include "trace/recording.h"

#include "test_support.h"

#include <QtTest>

#include <nlohmann/json.hpp>

#include <string>

using namespace lockstep;
using nlohmann::json;

namespace {

Recording small() {
    Recording r;
    r.scenario.workers = 2;
    r.scenario.steps = 3;
    r.scenario.model.layers = {2, 3, 3};
    r.ranks = 2;
    r.hosts = {"pc01", "pc02"};
    for (std::int64_t step = 0; step < 2; ++step) {
        for (int w = 0; w < 2; ++w) {
            r.events.push_back({w, EventKind::Compute, step, 100 * step, 100 * step + 40 + w});
            r.events.push_back(
                {w, EventKind::Send, step, 100 * step + 50, 100 * step + 60, 48, 1 - w, 0});
        }
        StepSnapshot s;
        s.step = s.ordinal = step;
        s.time = 100 * step + 90;
        s.loss = 0.5 - 0.1 * static_cast<double>(step);
        s.accuracy = 0.75;
        s.worker_loss = {0.4, 0.6};
        s.parameter_hash = {0xfedcba9876543210ull, 0xfedcba9876543210ull};
        r.snapshots.push_back(s);
    }
    r.parameters.assign(r.scenario.model.parameter_count(), 0.25);
    return r;
}

// The document a trace file holds around the recording.
std::string document(const Recording& r) {
    return "{\"traceEvents\": [],\n " + recording_member(r) + "\n}";
}

// The same document with one change made to its recording.
template <typename Change> std::string changed(Change&& change) {
    json doc = json::parse(document(small()));
    change(doc["lockstep_recording"]);
    return doc.dump();
}

QString refusal(const std::string& text) {
    return testing::error_message([&] { (void)parse_recording(text, "run.json"); });
}

} // namespace

class TestRecording : public QObject {
    Q_OBJECT

private Q_SLOTS:
    void reads_back_what_it_wrote() {
        const Recording r = small();
        const Recording back = parse_recording(document(r), "run.json");
        QCOMPARE(back.ranks, 2);
        QVERIFY(back.hosts == r.hosts);
        QCOMPARE(back.events.size(), r.events.size());
        for (std::size_t i = 0; i < r.events.size(); ++i) {
            QCOMPARE(back.events[i].worker, r.events[i].worker);
            QCOMPARE(back.events[i].kind, r.events[i].kind);
            QCOMPARE(back.events[i].start, r.events[i].start);
            QCOMPARE(back.events[i].end, r.events[i].end);
            QCOMPARE(back.events[i].bytes, r.events[i].bytes);
            QCOMPARE(back.events[i].peer, r.events[i].peer);
        }
        QCOMPARE(back.snapshots.size(), r.snapshots.size());
        QCOMPARE(back.snapshots[1].loss, r.snapshots[1].loss);
        QVERIFY(back.snapshots[1].parameter_hash == r.snapshots[1].parameter_hash);
        QVERIFY(back.parameters == r.parameters);
        QCOMPARE(scenario_to_json(back.scenario), scenario_to_json(r.scenario));
    }

    // A run with gradient buckets: a backward's layer and a collective's bucket and layers come
    // back; a row of another length is refused.
    void keeps_layers_and_buckets() {
        Recording r = small();
        r.events[0].kind = EventKind::Backward;
        r.events[0].layer = 1;
        r.events[1].bucket = 0;
        r.events[1].layer = 0;
        r.events[1].layer_end = 2;
        const Recording back = parse_recording(document(r), "run.json");
        QCOMPARE(back.events[0].kind, EventKind::Backward);
        QCOMPARE(back.events[0].layer, 1);
        QCOMPARE(back.events[0].bucket, -1);
        QCOMPARE(back.events[1].bucket, 0);
        QCOMPARE(back.events[1].layer, 0);
        QCOMPARE(back.events[1].layer_end, 2);
        QCOMPARE(back.events[2].layer, -1); // rows without them read as before
        const std::string thirteen = changed([](json& rec) { rec["events"][0].push_back(1); });
        QVERIFY(refusal(thirteen).contains(QLatin1String("15 with gradient buckets")));
    }

    // A sharded run: a collective's half (and its layer) and the ranks' memory samples come
    // back; a half or a sample that cannot be is refused with its place.
    void keeps_halves_and_memory() {
        Recording r = small();
        r.events[1].half = CollectiveHalf::AllGather;
        r.events[1].layer = 1;
        r.events[3].half = CollectiveHalf::ReduceScatter;
        r.snapshots[1].memory.push_back({1, 150, 800, 400, 1600, 320, 64});
        const Recording back = parse_recording(document(r), "run.json");
        QCOMPARE(back.events[1].half, CollectiveHalf::AllGather);
        QCOMPARE(back.events[1].layer, 1);
        QCOMPARE(back.events[3].half, CollectiveHalf::ReduceScatter);
        QCOMPARE(back.events[3].layer, -1);
        QCOMPARE(back.events[0].half, CollectiveHalf::None);
        QVERIFY(back.snapshots[0].memory.empty());
        QCOMPARE(back.snapshots[1].memory.size(), std::size_t{1});
        const MemorySample& m = back.snapshots[1].memory.front();
        QCOMPARE(m.worker, 1);
        QCOMPARE(m.at, Ticks{150});
        QCOMPARE(m.total(), std::int64_t{800 + 400 + 1600 + 320 + 64});
        QCOMPARE(m.optimizer, std::int64_t{1600});
        const std::string text = document(r);
        auto with = [&](auto&& change) {
            json doc = json::parse(text);
            change(doc["lockstep_recording"]);
            return refusal(doc.dump());
        };
        LOCKSTEP_VERIFY_CONTAINS(with([](json& rec) { rec["events"][1][15] = 3; }),
                                 QStringLiteral("events[1][15] (half)"));
        LOCKSTEP_VERIFY_CONTAINS(
            with([](json& rec) { rec["snapshots"][1]["memory"][0].erase(6); }),
            QStringLiteral("snapshots[1].memory[0]: must be a row of 7 values"));
        LOCKSTEP_VERIFY_CONTAINS(with([](json& rec) { rec["snapshots"][1]["memory"][0][0] = 5; }),
                                 QStringLiteral("snapshots[1].memory[0][0] (worker)"));
        LOCKSTEP_VERIFY_CONTAINS(with([](json& rec) { rec["snapshots"][1]["memory"][0][3] = -4; }),
                                 QStringLiteral("snapshots[1].memory[0][3] (bytes)"));
    }

    void refuses_what_is_not_a_recording_data() {
        QTest::addColumn<QString>("text");
        QTest::addColumn<QString>("expected");
        auto row = [](const char* name, const std::string& text, const char* expected) {
            QTest::newRow(name) << QString::fromStdString(text) << QString::fromUtf8(expected);
        };
        row("not json", "{\"traceEvents\": [", "run.json: not a JSON document");
        row("a threaded trace", "{\"traceEvents\": []}", "holds no recording");
        row("a list", "[1, 2]", "holds no recording");
        row("version", changed([](json& r) { r["version"] = 2; }), "lockstep_recording.version");
        row("no events", changed([](json& r) { r.erase("events"); }),
            "lockstep_recording.events: missing");
        row("ranks", changed([](json& r) { r["ranks"] = 3; }),
            "lockstep_recording.ranks: must equal the scenario's workers (2)");
        row("hosts", changed([](json& r) { r["hosts"] = json::array(); }),
            "lockstep_recording.hosts");
        row("worker", changed([](json& r) { r["events"][0][0] = 2; }),
            "lockstep_recording.events[0][0] (worker): must be between 0 and 1");
        row("kind", changed([](json& r) { r["events"][1][1] = 99; }),
            "lockstep_recording.events[1][1] (kind)");
        row("end before start", changed([](json& r) { r["events"][0][4] = -1; }),
            "lockstep_recording.events[0][4] (end)");
        row("step outside the run", changed([](json& r) { r["events"][0][2] = 3; }),
            "lockstep_recording.events[0][2] (step): must be between 0 and 2");
        row("huge time", changed([](json& r) { r["events"][0][3] = 18446744073709551615ull; }),
            "lockstep_recording.events[0][3] (start)");
        row("short row", changed([](json& r) { r["events"][0].erase(11); }),
            "must be a row of 12 values");
        row("out of order", changed([](json& r) { std::swap(r["events"][0], r["events"][4]); }),
            "events must come step by step");
        row("snapshot order",
            changed([](json& r) { std::swap(r["snapshots"][0], r["snapshots"][1]); }),
            "snapshots must come step by step");
        row("worker losses", changed([](json& r) { r["snapshots"][0]["worker_loss"] = {1.0}; }),
            "lockstep_recording.snapshots[0].worker_loss: must hold one loss per rank");
        row("aligned", changed([](json& r) { r["snapshots"][1]["replicas_aligned"] = "yes"; }),
            "lockstep_recording.snapshots[1].replicas_aligned");
        row("parameters", changed([](json& r) { r["parameters"].erase(0); }),
            "lockstep_recording.parameters: must hold the model's 21 parameters");
        row("scenario", changed([](json& r) { r["scenario"]["workers"] = 0; }),
            "lockstep_recording.scenario");
    }

    void refuses_what_is_not_a_recording() {
        QFETCH(QString, text);
        QFETCH(QString, expected);
        LOCKSTEP_VERIFY_CONTAINS(refusal(text.toStdString()), expected);
    }

    void a_missing_file_is_named() {
        LOCKSTEP_VERIFY_CONTAINS(
            testing::error_message([] { (void)read_recording("/nonexistent/run.json"); }),
            QStringLiteral("/nonexistent/run.json"));
    }
};

QTEST_GUILESS_MAIN(TestRecording)
#include "test_recording.moc"
