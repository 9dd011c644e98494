// Waiting less, agreeing less: bounded staleness (ssp), asynchronous updates (async) and local
// SGD (local) against the bulk-synchronous run they loosen, and the settings they refuse.

#include "core/error.h"
#include "runs/runs.h"
#include "scenario/scenario.h"
#include "trace/trace.h"
#include "trainers/run.h"

#include <oneapi/tbb/global_control.h>

#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QProcess>
#include <QtTest>

#include "sync_support.h"
#include "test_support.h"

#include <algorithm>
#include <cmath>
#include <cstring>
#include <tuple>

using namespace lockstep;
using namespace lockstep::testing;

namespace {

Scenario base_scenario() {
    Scenario s = sync_scenario(7, 40);
    return s;
}

struct Traced {
    Trace trace;
    RunMetrics metrics;
    std::vector<double> parameters;
    std::vector<AppliedGradient> applied;
};

Traced run(const Scenario& s) {
    Traced out;
    const auto data = load_dataset(s);
    auto r = make_run(s, data, &out.trace);
    while (!r->finished())
        r->step();
    out.metrics = r->metrics();
    out.parameters = r->parameters();
    out.applied = r->applied_gradients();
    return out;
}

bool same_bits(const std::vector<double>& a, const std::vector<double>& b) {
    return a.size() == b.size() && std::memcmp(a.data(), b.data(), a.size() * sizeof(double)) == 0;
}

} // namespace

class TestSyncModes : public QObject {
    Q_OBJECT

private Q_SLOTS:
    // SSP with S = 0: every worker waits for the whole previous clock, so it is the
    // bulk-synchronous run through the parameter server, bit for bit, step by step.
    void ssp_zero_is_bsp_bit_for_bit_data() {
        QTest::addColumn<int>("rule");
        QTest::addColumn<int>("optimizer");
        QTest::newRow("mean, sgd with momentum")
            << int(ReductionRule::Mean) << int(OptimizerKind::Sgd);
        QTest::newRow("weighted mean, adam")
            << int(ReductionRule::WeightedMean) << int(OptimizerKind::Adam);
        QTest::newRow("sum, sgd") << int(ReductionRule::Sum) << int(OptimizerKind::Sgd);
    }
    void ssp_zero_is_bsp_bit_for_bit() {
        QFETCH(int, rule);
        QFETCH(int, optimizer);
        Scenario s = base_scenario();
        s.rule = static_cast<ReductionRule>(rule);
        s.optimizer.kind = static_cast<OptimizerKind>(optimizer);
        s.optimizer.learning_rate = s.optimizer.kind == OptimizerKind::Adam ? 0.01 : 0.05;
        s.worker_batch = {16, 8, 24, 16};
        s.delays.slowdown = {1.0, 2.0, 1.0, 1.5};
        const Traced bsp = run(s);
        const Traced ssp = run(with_sync(s, SyncMode::Ssp, 0));
        QVERIFY(same_bits(bsp.parameters, ssp.parameters));
        QCOMPARE(ssp.trace.snapshots().size(), bsp.trace.snapshots().size());
        for (std::size_t i = 0; i < bsp.trace.snapshots().size(); ++i) {
            const auto& a = bsp.trace.snapshots()[i];
            const auto& b = ssp.trace.snapshots()[i];
            QCOMPARE(b.step, a.step);
            QVERIFY2(
                std::memcmp(&a.loss, &b.loss, sizeof(double)) == 0,
                qPrintable(
                    QStringLiteral("step %1: loss %2 against %3").arg(i).arg(b.loss).arg(a.loss)));
        }
        QCOMPARE(ssp.metrics.max_staleness, std::int64_t{0});
        QVERIFY(ssp.metrics.replicas_aligned);
        QCOMPARE(ssp.applied.size(), std::size_t(4 * 40));
    }

    // Local SGD with H = 1 and plain SGD: averaging the replicas after each own step is taking
    // the step with the mean gradient.
    void local_one_step_is_bsp() {
        for (Algorithm algorithm : {Algorithm::Ring, Algorithm::Tree, Algorithm::ParameterServer}) {
            Scenario s = base_scenario();
            s.algorithm = algorithm;
            s.optimizer.momentum = 0.0;
            const Traced bsp = run(s);
            const Traced local = run(with_sync(s, SyncMode::Local, 0, 1));
            double worst = 0.0;
            for (std::size_t i = 0; i < bsp.parameters.size(); ++i)
                worst = std::max(worst, std::abs(bsp.parameters[i] - local.parameters[i]));
            QVERIFY2(worst <= 1e-12, qPrintable(QString::number(worst)));
        }
    }

    // Between averagings the replicas disagree, and the snapshots say how far apart they are.
    void local_replicas_disagree_between_averagings() {
        const Traced local = run(with_sync(base_scenario(), SyncMode::Local, 0, 4));
        const auto& snaps = local.trace.snapshots();
        QCOMPARE(snaps.size(), std::size_t(40));
        for (const StepSnapshot& snap : snaps) {
            const bool averaged = (snap.step + 1) % 4 == 0;
            QCOMPARE(snap.replicas_aligned, averaged);
            if (averaged)
                QCOMPARE(snap.replica_spread, 0.0);
            else
                QVERIFY(snap.replica_spread > 0.0);
        }
        // Ten averagings of the parameters, against forty of the gradients.
        const Traced bsp = run(base_scenario());
        QCOMPARE(local.metrics.bytes_moved * 4, bsp.metrics.bytes_moved);
    }

    // One worker three times slower: under SSP with S = 2 the others run ahead instead of
    // waiting at every step, and no gradient is more than two versions old.
    void ssp_waits_less_within_its_bound() {
        Scenario s = base_scenario();
        s.delays.slowdown = {1.0, 1.0, 3.0, 1.0};
        const Traced bsp = run(s);
        const Traced ssp = run(with_sync(s, SyncMode::Ssp, 2));
        QVERIFY2(ssp.metrics.waiting_s < bsp.metrics.waiting_s,
                 qPrintable(QStringLiteral("%1 against %2")
                                .arg(ssp.metrics.waiting_s)
                                .arg(bsp.metrics.waiting_s)));
        QCOMPARE(ssp.metrics.max_staleness, std::int64_t{2});
        for (const auto& a : ssp.applied) {
            QVERIFY(a.staleness >= 0 && a.staleness <= 2);
            QCOMPARE(a.staleness, static_cast<int>(a.clock - a.version));
        }
        // Every push in the trace states its version and staleness.
        int pushes = 0;
        for (const TraceEvent& e : ssp.trace.events())
            if (e.kind == EventKind::Send) {
                ++pushes;
                QVERIFY(e.version >= 0 && e.staleness >= 0 && e.staleness <= 2);
            }
        QCOMPARE(pushes, 4 * 40);
        // The slow worker is never ahead: its own gradients are never stale.
        for (const auto& a : ssp.applied)
            if (a.worker == 2)
                QCOMPARE(a.staleness, 0);
    }

    // Asynchronous updates: with P equally fast workers taking turns, a gradient is about P - 1
    // updates old when it arrives; the run takes as many gradients as the bulk-synchronous one.
    void async_staleness_is_about_p_minus_one() {
        const Traced async = run(with_sync(base_scenario(), SyncMode::Async));
        QCOMPARE(async.applied.size(), std::size_t(4 * 40));
        QVERIFY2(std::abs(async.metrics.mean_staleness - 3.0) < 0.5,
                 qPrintable(QString::number(async.metrics.mean_staleness)));
        // Nobody waits for a slower worker; only, now and then, for the server to finish
        // applying someone else's gradient.
        QVERIFY2(async.metrics.waiting_s <= 4 * 40 * 1e-5,
                 qPrintable(QString::number(async.metrics.waiting_s)));
        QCOMPARE(async.metrics.samples, std::int64_t{4 * 40 * 16});
        // Applied in the order they arrived on the modelled clock.
        for (std::size_t i = 1; i < async.applied.size(); ++i)
            QVERIFY(async.applied[i].at >= async.applied[i - 1].at);
    }

    // The order comes from the modelled clock, never from the threads.
    void async_is_the_same_with_any_threads() {
        Scenario s = with_sync(base_scenario(), SyncMode::Async);
        s.delays.slowdown = {1.0, 1.7, 1.0, 2.5};
        s.cost.jitter = 0.3;
        s.sync->staleness_aware_lr = true;
        auto with_threads = [&](int threads) {
            tbb::global_control limit(tbb::global_control::max_allowed_parallelism,
                                      static_cast<std::size_t>(threads));
            return run(s);
        };
        const Traced one = with_threads(1);
        for (int threads : {2, 4}) {
            const Traced many = with_threads(threads);
            QVERIFY(same_bits(one.parameters, many.parameters));
            QCOMPARE(many.applied.size(), one.applied.size());
            for (std::size_t i = 0; i < one.applied.size(); ++i) {
                QCOMPARE(many.applied[i].worker, one.applied[i].worker);
                QCOMPARE(many.applied[i].staleness, one.applied[i].staleness);
                QCOMPARE(many.applied[i].at, one.applied[i].at);
            }
            QCOMPARE(many.trace.events().size(), one.trace.events().size());
            QVERIFY(many.metrics.total_time_s == one.metrics.total_time_s);
        }
    }

    // A scenario file says it the same way it reads back.
    void sync_settings_round_trip() {
        for (const Scenario& s : {with_sync(base_scenario(), SyncMode::Ssp, 3),
                                  with_sync(base_scenario(), SyncMode::Local, 0, 8)}) {
            const Scenario back = parse_scenario(scenario_to_json(s));
            QVERIFY(back.sync.has_value());
            QCOMPARE(back.sync->mode, s.sync->mode);
            QCOMPARE(back.sync->staleness, s.sync->staleness);
            QCOMPARE(back.sync->local_steps, s.sync->local_steps);
            QVERIFY(scenario_hash(back) == scenario_hash(s));
            QVERIFY(scenario_hash(back) != scenario_hash(base_scenario()));
        }
    }

    void bad_sync_settings_data() {
        QTest::addColumn<QString>("json");
        QTest::addColumn<QString>("message");
        const QString ps = QStringLiteral(R"("algorithm": "parameter-server", )");
        QTest::newRow("no mode") << QStringLiteral(R"({"sync": {}})")
                                 << QStringLiteral(
                                        "sync.mode: required, one of bsp, ssp, async, local");
        QTest::newRow("unknown mode")
            << QStringLiteral(R"({"sync": {"mode": "fast"}})") << QStringLiteral("sync.mode");
        QTest::newRow("not an object")
            << QStringLiteral(R"({"sync": "ssp"})") << QStringLiteral("sync");
        QTest::newRow("negative staleness")
            << QStringLiteral(R"({%1"sync": {"mode": "ssp", "staleness": -1}})").arg(ps)
            << QStringLiteral("sync.staleness");
        QTest::newRow("huge staleness")
            << QStringLiteral(R"({%1"sync": {"mode": "ssp", "staleness": 5000}})").arg(ps)
            << QStringLiteral("sync.staleness");
        QTest::newRow("staleness without ssp")
            << QStringLiteral(R"({"sync": {"mode": "bsp", "staleness": 2}})")
            << QStringLiteral("sync.staleness: only for mode ssp");
        QTest::newRow("local steps zero")
            << QStringLiteral(R"({"sync": {"mode": "local", "local_steps": 0}})")
            << QStringLiteral("sync.local_steps");
        QTest::newRow("local steps without local")
            << QStringLiteral(R"({%1"sync": {"mode": "async", "local_steps": 4}})").arg(ps)
            << QStringLiteral("sync.local_steps: only for mode local");
        QTest::newRow("unknown key")
            << QStringLiteral(R"({%1"sync": {"mode": "async", "colour": 1}})").arg(ps)
            << QStringLiteral("colour");
        QTest::newRow("ssp on a ring")
            << QStringLiteral(R"({"sync": {"mode": "ssp"}})")
            << QStringLiteral("set algorithm to parameter-server (got ring)");
        QTest::newRow("local without a collective")
            << QStringLiteral(R"({"algorithm": "none", "sync": {"mode": "local"}})")
            << QStringLiteral("algorithm none never averages them");
        QTest::newRow("local with a sum")
            << QStringLiteral(R"({"rule": "sum", "sync": {"mode": "local"}})")
            << QStringLiteral("rule must be mean or weighted-mean");
        QTest::newRow("async with checkpoints")
            << QStringLiteral(R"({%1"checkpoint": {"every": 5}, "sync": {"mode": "async"}})")
                   .arg(ps)
            << QStringLiteral("cannot save one checkpoint");
        QTest::newRow("local checkpoint between averagings")
            << QStringLiteral(
                   R"({"checkpoint": {"every": 6}, "sync": {"mode": "local", "local_steps": 4}})")
            << QStringLiteral("checkpoint.every: must be a multiple of sync.local_steps (4)");
        QTest::newRow("ssp with a crash")
            << QStringLiteral(
                   R"({%1"failures": {"events": [{"kind": "crash", "worker": 1, "step": 3}]}, "sync": {"mode": "ssp", "staleness": 1}})")
                   .arg(ps)
            << QStringLiteral("crashes and corrupted checkpoints are studied with sync mode bsp");
        QTest::newRow("async with backups")
            << QStringLiteral(
                   R"({%1"failures": {"policy": "backup", "backup_workers": 1}, "sync": {"mode": "async"}})")
                   .arg(ps)
            << QStringLiteral("backup workers are a bulk-synchronous remedy");
        QTest::newRow("ssp on a pipeline")
            << QStringLiteral(
                   R"({%1"parallelism": {"mode": "pipeline", "stages": 2}, "sync": {"mode": "ssp"}})")
                   .arg(ps)
            << QStringLiteral("ssp is for data parallelism");
    }
    void bad_sync_settings() {
        QFETCH(QString, json);
        QFETCH(QString, message);
        const QString got = error_message([&] { parse_scenario(json.toStdString()); });
        QVERIFY2(got.contains(message), qPrintable(got));
    }

    // lockstep-cli: a run's report and the modes side by side.
    void cli_runs_and_compares_the_modes() {
        auto cli = [](const QStringList& args) {
            QProcess p;
            p.start(QStringLiteral(LOCKSTEP_CLI_PATH), args);
            p.waitForFinished(120000);
            return std::pair{p.exitCode(), QString::fromUtf8(p.readAllStandardOutput() +
                                                             p.readAllStandardError())};
        };
        const QString straggler =
            QStringLiteral(LOCKSTEP_SOURCE_DIR "/resources/scenarios/straggler.json");
        auto [code, out] =
            cli({QStringLiteral("run"), straggler, QStringLiteral("--sync"), QStringLiteral("ssp"),
                 QStringLiteral("--staleness"), QStringLiteral("2"), QStringLiteral("--json")});
        QVERIFY2(code == 0, qPrintable(out));
        const QJsonObject run = QJsonDocument::fromJson(out.toUtf8()).object();
        QCOMPARE(run.value(QStringLiteral("sync")).toString(), QStringLiteral("ssp"));
        QCOMPARE(run.value(QStringLiteral("algorithm")).toString(),
                 QStringLiteral("parameter-server"));
        QCOMPARE(run.value(QStringLiteral("staleness_bound")).toInt(), 2);
        QCOMPARE(run.value(QStringLiteral("max_staleness")).toInt(), 2);
        const QJsonObject bsp = run.value(QStringLiteral("bsp")).toObject();
        QVERIFY(run.value(QStringLiteral("waiting_s")).toDouble() <
                bsp.value(QStringLiteral("waiting_s")).toDouble());

        std::tie(code, out) =
            cli({QStringLiteral("compare"), straggler, QStringLiteral("--sync"),
                 QStringLiteral("bsp,ssp,async,local"), QStringLiteral("--target-loss"),
                 QStringLiteral("0.8"), QStringLiteral("--json")});
        QVERIFY2(code == 0, qPrintable(out));
        const QJsonArray runs =
            QJsonDocument::fromJson(out.toUtf8()).object().value(QStringLiteral("runs")).toArray();
        QCOMPARE(runs.size(), 4);
        QStringList modes;
        for (const QJsonValue& r : runs)
            modes << r.toObject().value(QStringLiteral("sync")).toString();
        QCOMPARE(modes, (QStringList{QStringLiteral("bsp"), QStringLiteral("ssp"),
                                     QStringLiteral("async"), QStringLiteral("local")}));
        // With a worker three times slower, not waiting for it reaches the target first.
        const double bsp_time =
            runs[0].toObject().value(QStringLiteral("time_to_target_s")).toDouble();
        const double async_time =
            runs[2].toObject().value(QStringLiteral("time_to_target_s")).toDouble();
        QVERIFY2(async_time > 0 && async_time < bsp_time, qPrintable(out));
        QVERIFY(runs[3].toObject().value(QStringLiteral("bytes_moved")).toDouble() <
                runs[0].toObject().value(QStringLiteral("bytes_moved")).toDouble());

        std::tie(code, out) =
            cli({QStringLiteral("run"), QStringLiteral("--staleness"), QStringLiteral("2")});
        QCOMPARE(code, 1);
        QVERIFY2(out.contains(QStringLiteral("--staleness: goes with --sync ssp")),
                 qPrintable(out));
        std::tie(code, out) =
            cli({QStringLiteral("compare"), QStringLiteral("--sync"), QStringLiteral("bsp,slow")});
        QCOMPARE(code, 1);
        QVERIFY2(out.contains(QStringLiteral(
                     "--sync: each must be one of bsp, ssp, async, local, got 'slow'")),
                 qPrintable(out));
    }

    // On the measured clock the loose modes train too: each gradient lasts the real time its
    // computation took, a slowed worker's stretched, and the order of events follows.
    void loose_modes_run_on_the_measured_clock_data() {
        QTest::addColumn<int>("mode");
        QTest::newRow("ssp") << int(SyncMode::Ssp);
        QTest::newRow("async") << int(SyncMode::Async);
    }
    void loose_modes_run_on_the_measured_clock() {
        QFETCH(int, mode);
        Scenario s =
            with_sync(base_scenario(), SyncMode(mode), SyncMode(mode) == SyncMode::Ssp ? 2 : 0);
        s.clock = ClockKind::Measured;
        s.delays.slowdown = {1.0, 1.0, 3.0, 1.0};
        validate(s);
        const Traced t = run(s);
        QCOMPARE(t.metrics.steps, s.steps);
        QVERIFY(t.metrics.total_time_s > 0);
        QVERIFY(std::isfinite(t.metrics.final_loss));
        QVERIFY(t.metrics.max_staleness >= 1);
        if (SyncMode(mode) == SyncMode::Ssp)
            QVERIFY(t.metrics.max_staleness <= 2);
        // Worker 2's measured computations are stretched three times: the middle one lasts
        // longer than worker 0's (medians, so a preempted computation does not decide it).
        std::vector<double> slow, fast;
        for (const TraceEvent& e : t.trace.events())
            if (e.kind == EventKind::Compute && (e.worker == 2 || e.worker == 0))
                (e.worker == 2 ? slow : fast).push_back(static_cast<double>(e.end - e.start));
        QVERIFY(!slow.empty() && !fast.empty());
        auto median = [](std::vector<double> v) {
            std::nth_element(v.begin(), v.begin() + static_cast<std::ptrdiff_t>(v.size() / 2),
                             v.end());
            return v[v.size() / 2];
        };
        QVERIFY(median(slow) > 1.5 * median(fast));
    }
};

QTEST_APPLESS_MAIN(TestSyncModes)
#include "test_sync_modes.moc"
