#include "lockstep_views/comparison_view.h"
#include "lockstep_views/palette.h"
#include "runs/runs.h"
#include "scenario/pipeline_plan.h"
#include "scenario/scenario.h"
#include "trainers/run.h"
#include "view_test_support.h"

#include <QBarSeries>
#include <QBarSet>
#include <QChart>
#include <QtTest>

using namespace lockstep;
using lockstep::views::ComparedRun;
using lockstep::views::ComparisonView;

namespace {

Scenario shipped(const char* name, std::int64_t steps) {
    auto s = load_scenario(std::string(LOCKSTEP_SOURCE_DIR "/resources/scenarios/") + name);
    s.steps = steps;
    return s;
}

RunMetrics data_parallel(const Scenario& s) {
    const auto t = make_run(s, load_dataset(s));
    t->run_to_end();
    return t->metrics();
}

// The bar values of the i-th chart.
std::vector<double> bars(const ComparisonView& view, std::size_t i) {
    std::vector<double> out;
    const auto series = view.chart(i)->series();
    if (series.isEmpty())
        return out;
    const QBarSet* set = static_cast<QBarSeries*>(series.front())->barSets().front();
    for (int k = 0; k < set->count(); ++k)
        out.push_back(set->at(k));
    return out;
}

} // namespace

class TestComparisonView : public QObject {
    Q_OBJECT

private Q_SLOTS:
    // Real runs: the straggler run waits where the even one does not, the crash run loses work,
    // and each bar is the engine's number.
    void bars_are_the_runs_metrics() {
        Scenario even = shipped("straggler.json", 20);
        even.delays.slowdown.assign(static_cast<std::size_t>(even.workers), 1.0);
        const RunMetrics a = data_parallel(even);
        const RunMetrics b = data_parallel(shipped("straggler.json", 20));
        const Scenario crash_s = shipped("crash-recovery.json", 40);
        const auto crash_t = make_run(crash_s, load_dataset(crash_s));
        QTemporaryDir dir;
        if (crash_s.checkpoint)
            crash_t->set_checkpoint_directory(dir.path().toStdString());
        crash_t->run_to_end();
        const RunMetrics c = crash_t->metrics();
        const Scenario pipe = shipped("pipeline.json", 10);
        const auto pipe_t = make_run(pipe, load_dataset(pipe));
        pipe_t->run_to_end();
        const RunMetrics d = pipe_t->metrics();

        ComparisonView view;
        view.resize(1200, 700);
        view.addRun({QStringLiteral("even: straggler with its slowdown removed"), a});
        view.addRun({QStringLiteral("straggler: worker 2 three times slower"), b});
        view.addRun({QStringLiteral("crash-recovery: a crash, then a rollback"), c});
        view.addRun({QStringLiteral("pipeline: 2 stages, 4 micro-batches, 1F1B"), d});
        QCOMPARE(view.runs().size(), std::size_t(4));
        const auto q = ComparisonView::metrics(view.runs());
        QCOMPARE(q.size(), std::size_t(5));
        QCOMPARE(q[2].title, QStringLiteral("Waiting"));
        QVERIFY(q[2].values[1] > q[2].values[0] + 1e-6); // the straggler makes the others wait
        QCOMPARE(q[1].values[0], a.communication_s);
        QCOMPARE(q[4].values[1], b.energy_j);
        QVERIFY(b.energy_j > 0.0);
        QVERIFY(c.failures > 0);
        QCOMPARE(q[3].values[2], c.lost_worker_s);
        QVERIFY(q[3].values[2] > 0.0 && q[3].values[0] == 0.0);
        QCOMPARE(q[0].values[2], c.goodput);
        QCOMPARE(q[0].values[3], d.throughput); // nothing fails in a pipeline: all of it counts
        for (std::size_t i = 0; i < q.size(); ++i) {
            std::vector<double> drawn = q[i].values;
            for (double& v : drawn)
                v *= q[i].scale;
            QCOMPARE(bars(view, i), drawn);
        }
        QCOMPARE(q[2].unit, QStringLiteral("ms per worker")); // waiting well under a second
        QVERIFY(view.keyText().contains(QStringLiteral("#2</b> straggler")));
        // The bars are drawn in their quantity's colour.
        QFont large = view.font(); // as in presentation mode
        large.setPointSizeF(large.pointSizeF() * 1.4);
        view.setFont(large);
        const QImage image = lockstep::testing::settled_grab(view);
        QVERIFY(image.save(lockstep::testing::screenshot_path("comparison_view.png")));
        QVERIFY(lockstep::testing::count_near(image, views::okabe_ito::vermillion, 10) > 200);
        QVERIFY(lockstep::testing::count_near(image, views::okabe_ito::bluish_green, 10) > 200);
        // A fifth run pushes the oldest out.
        view.addRun({QStringLiteral("again"), a});
        QCOMPARE(view.runs().size(), ComparisonView::kMaxRuns);
        QVERIFY(view.runs().front().name.startsWith(QStringLiteral("straggler")));
        QCOMPARE(bars(view, 2).front(), b.waiting_s * 1e3);
        QVERIFY(!view.keyText().contains(QStringLiteral("even:")));
        view.clear();
        QVERIFY(bars(view, 0).empty());
        QVERIFY(view.keyText().contains(QStringLiteral("None yet")));
    }
};

QTEST_MAIN(TestComparisonView)
#include "test_comparison_view.moc"
