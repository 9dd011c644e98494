#include "lab/speedup_sweeper.h"
#include "lockstep_views/speedup_view.h"
#include "runs/runs.h"
#include "scenario/scenario.h"

#include <QSignalSpy>
#include <QThreadPool>
#include <QtTest>

#include "sweep_support.h"

using namespace lockstep;
using namespace lockstep::testing;
using namespace lockstep::app;
using lockstep::views::SpeedupView;

// The Speedup view's sweep, off the GUI thread: debounced, the newest request (or the view's own
// points) winning, errors reported, safe when the view goes away mid-sweep.
class TestSpeedupSweeper : public QObject {
    Q_OBJECT

private Q_SLOTS:
    void twoQuickRequestsGiveOneSweep();
    void aNewerRequestDropsTheRunningSweep();
    void setPointsWinsOverARunningSweep();
    void aBadScenarioReportsItsError();
    void destroyingTheViewDuringASweepIsSafe();
    void bucketsThatOverlapAlsoSweepWithoutOverlap();

    void cleanup() { QThreadPool::globalInstance()->waitForDone(); }
};

void TestSpeedupSweeper::twoQuickRequestsGiveOneSweep() {
    const Scenario scenario = worked_example();
    SpeedupView view;
    auto* sweeper = new SpeedupSweeper(&view);
    QSignalSpy started(sweeper, &SpeedupSweeper::started);
    QSignalSpy finished(sweeper, &SpeedupSweeper::finished);
    sweeper->request(scenario, {1, 2});
    sweeper->request(scenario, {1, 2, 4, 8});
    QVERIFY(view.isComputing());
    QVERIFY(view.accessibleDescription().endsWith(QStringLiteral("computing")));
    QCOMPARE(started.count(), 0); // debounced: nothing runs yet
    QTRY_COMPARE(finished.count(), 1);
    QVERIFY(!view.isComputing());
    QCOMPARE(started.count(), 1);

    const std::vector<int> counts{1, 2, 4, 8};
    QCOMPARE(view.modelledPoints(), speedups(sweep(scenario, counts)));
    QVERIFY(!view.accessibleDescription().contains(QStringLiteral("computing")));
}

void TestSpeedupSweeper::aNewerRequestDropsTheRunningSweep() {
    const Scenario scenario = worked_example();
    SpeedupView view;
    auto* sweeper = new SpeedupSweeper(&view);
    QSignalSpy finished(sweeper, &SpeedupSweeper::finished);
    // The second request arrives while the first sweep is already running on the pool.
    bool first = true;
    connect(sweeper, &SpeedupSweeper::started, &view, [&] {
        if (first) {
            first = false;
            sweeper->request(scenario, {1, 3, 5});
        }
    });
    sweeper->request(scenario, {1, 2});
    QTRY_VERIFY(!first);
    QTRY_VERIFY(!view.isComputing());
    QThreadPool::globalInstance()->waitForDone();
    QCoreApplication::processEvents();
    QCOMPARE(finished.count(), 1);
    const std::vector<int> counts{1, 3, 5};
    QCOMPARE(view.modelledPoints(), speedups(sweep(scenario, counts)));
}

void TestSpeedupSweeper::setPointsWinsOverARunningSweep() {
    SpeedupView view;
    auto* sweeper = new SpeedupSweeper(&view);
    QSignalSpy finished(sweeper, &SpeedupSweeper::finished);
    const auto manual = amdahl_points(0.25, {1, 2, 4});
    bool replaced = false;
    connect(sweeper, &SpeedupSweeper::started, &view, [&] {
        view.setPoints(manual);
        replaced = true;
    });
    sweeper->request(worked_example(), {1, 2, 4, 8});
    QTRY_VERIFY(replaced);
    QVERIFY(!view.isComputing());
    QThreadPool::globalInstance()->waitForDone();
    QCoreApplication::processEvents();
    QCOMPARE(finished.count(), 0);
    QCOMPARE(view.modelledPoints(), speedups(manual));
}

void TestSpeedupSweeper::aBadScenarioReportsItsError() {
    SpeedupView view;
    view.setPoints(amdahl_points(0.1, {1, 2}));
    auto* sweeper = new SpeedupSweeper(&view);
    QSignalSpy failed(sweeper, &SpeedupSweeper::failed);
    sweeper->request(worked_example(), {1, 300});
    QTRY_COMPARE(failed.count(), 1);
    QVERIFY2(view.errorText().contains(QStringLiteral("workers")), qPrintable(view.errorText()));
    QVERIFY(view.accessibleDescription().startsWith(QStringLiteral("Cannot compute")));
    QVERIFY(!view.isComputing());
    QCOMPARE(view.modelledPoints().size(), qsizetype(2)); // the old points stay
}

void TestSpeedupSweeper::destroyingTheViewDuringASweepIsSafe() {
    auto* view = new SpeedupView;
    auto* sweeper = new SpeedupSweeper(view); // the view's child: deleted with it
    QSignalSpy started(sweeper, &SpeedupSweeper::started);
    sweeper->request(worked_example(), {1, 2, 4, 8, 16});
    QTRY_COMPARE(started.count(), 1);
    delete view;
    QThreadPool::globalInstance()->waitForDone();
    QCoreApplication::processEvents(); // a result posted before the delete must not arrive
}

// A run whose buckets overlap backward: the view draws the engine's sweep with overlap and,
// beside it, the same sweep with the buckets waiting for backward, slower from two workers on;
// a run without buckets has no second curve.
void TestSpeedupSweeper::bucketsThatOverlapAlsoSweepWithoutOverlap() {
    Scenario scenario;
    scenario.model.layers = {2, 64, 64, 64, 3};
    scenario.gradients = GradientConfig{16, true, 1};
    const std::vector<int> counts{1, 2, 4};
    SpeedupView view;
    auto* sweeper = new SpeedupSweeper(&view);
    QSignalSpy finished(sweeper, &SpeedupSweeper::finished);
    sweeper->request(scenario, counts);
    QTRY_COMPARE(finished.count(), 1);
    QCOMPARE(view.modelledPoints(), speedups(sweep(scenario, counts, Work::TimesOnly)));
    Scenario plain = scenario;
    plain.gradients->overlap = false;
    const QList<QPointF> without = speedups(sweep(plain, counts, Work::TimesOnly));
    QCOMPARE(view.withoutOverlapPoints(), without);
    QVERIFY(without[2].y() < view.modelledPoints()[2].y());
    view.setRunWorkers(4);
    QVERIFY2(view.accessibleDescription().contains(QStringLiteral("without overlap ")),
             qPrintable(view.accessibleDescription()));

    scenario.gradients.reset();
    sweeper->request(scenario, counts);
    QTRY_COMPARE(finished.count(), 2);
    QVERIFY(view.withoutOverlapPoints().isEmpty());
    QVERIFY(!view.accessibleDescription().contains(QStringLiteral("without overlap")));
}

QTEST_MAIN(TestSpeedupSweeper)
#include "test_speedup_sweeper.moc"
