#include "lockstep_views/chart_style.h"
#include "lockstep_views/palette.h"
#include "lockstep_views/speedup_view.h"
#include "reports/amdahl.h"
#include "runs/runs.h"
#include "scenario/scenario.h"
#include "view_test_support.h"

#include <QChartView>
#include <QDir>
#include <QTemporaryDir>
#include <QValueAxis>
#include <QtTest>

#include "sweep_support.h"

#include <cmath>
#include <memory>

using namespace lockstep;
using namespace lockstep::views;
using namespace lockstep::testing;

class TestSpeedupView : public QObject {
    Q_OBJECT

private Q_SLOTS:
    void workedExampleSweepIsDrawn();
    void amdahlFitRecoversTheSerialFraction_data();
    void amdahlFitRecoversTheSerialFraction();
    void amdahlFitNeedsMoreThanOneWorker();
    void amdahlCurveIsTheEnginesFit();
    void measuredSeriesIsOptional();
    void screenshotsFollowThePalette();
    void aShortViewKeepsItsLegendApartAndFewerTicks();
};

void TestSpeedupView::workedExampleSweepIsDrawn() {
    const std::vector<int> counts{1, 2, 4, 8};
    const auto points = sweep(worked_example(), counts);

    SpeedupView view;
    QCOMPARE(view.accessibleName(), QStringLiteral("Speedup view"));
    view.setPoints(points);
    QCOMPARE(view.modelledPoints(), speedups(points));
    // The lesson's numbers: 40 s on one worker, 10 s + 6 s on four.
    QVERIFY(qFuzzyCompare(view.modelledPoints()[2].y(), 2.5));
    QCOMPARE(view.idealPoints(), (QList<QPointF>{{1, 1}, {2, 2}, {4, 4}, {8, 8}}));
    const QList<QPointF> efficiency = view.efficiencyPoints();
    QCOMPARE(efficiency.size(), qsizetype(4));
    QVERIFY(qFuzzyCompare(efficiency[2].y(), 62.5));

    const double s = view.amdahlSerialFraction();
    QVERIFY(s > 0.05 && s < 0.5);
    const QList<QPointF> curve = view.amdahlPoints();
    QVERIFY(curve.size() > 50);
    QCOMPARE(curve.front(), QPointF(1, 1));
    QCOMPARE(curve.back().x(), 8.0);
    QVERIFY(qFuzzyCompare(curve.back().y(), 1.0 / (s + (1 - s) / 8)));
    QVERIFY(view.amdahlLabel().startsWith(QStringLiteral("Amdahl fit, serial fraction ")));
    QVERIFY2(view.accessibleDescription().startsWith(
                 QStringLiteral("8 workers: speedup 3.6× of an ideal 8×, efficiency 45.5%")),
             qPrintable(view.accessibleDescription()));
    QVERIFY(view.accessibleDescription().contains(view.amdahlLabel()));
    // With the run in the lab on four workers, the headline is the page's worked example.
    view.setRunWorkers(4);
    QVERIFY2(view.accessibleDescription().startsWith(
                 QStringLiteral("4 workers: speedup 2.5× of an ideal 4×, efficiency 62.5%")),
             qPrintable(view.accessibleDescription()));
}

void TestSpeedupView::amdahlFitRecoversTheSerialFraction_data() {
    QTest::addColumn<double>("serial");
    QTest::addColumn<QString>("label");
    QTest::newRow("perfectly parallel") << 0.0 << "Amdahl fit, serial fraction 0%";
    QTest::newRow("a tenth serial") << 0.1 << "Amdahl fit, serial fraction 10%";
    QTest::newRow("a third serial") << 0.33 << "Amdahl fit, serial fraction 33%";
    QTest::newRow("mostly serial") << 0.9 << "Amdahl fit, serial fraction 90%";
}

void TestSpeedupView::amdahlFitRecoversTheSerialFraction() {
    QFETCH(double, serial);
    QFETCH(QString, label);
    SpeedupView view;
    view.setPoints(amdahl_points(serial, {1, 2, 4, 8, 16, 32}));
    QVERIFY2(std::abs(view.amdahlSerialFraction() - serial) < 0.01,
             qPrintable(QString::number(view.amdahlSerialFraction())));
    QCOMPARE(view.amdahlLabel(), label);
}

void TestSpeedupView::amdahlFitNeedsMoreThanOneWorker() {
    SpeedupView view;
    view.setPoints(amdahl_points(0.2, {1}));
    QVERIFY(std::isnan(view.amdahlSerialFraction()));
    QVERIFY(view.amdahlLabel().isEmpty());
    QVERIFY(view.amdahlPoints().isEmpty());
    view.setPoints({});
    QVERIFY(view.modelledPoints().isEmpty());
    QCOMPARE(view.accessibleDescription(), QStringLiteral("No speedup computed yet"));
}

// The view draws the engine's fit (reports/amdahl.h) point for point: of the modelled points,
// across every worker count on the chart, measured ones included.
void TestSpeedupView::amdahlCurveIsTheEnginesFit() {
    const auto modelled = amdahl_points(0.15, {1, 2, 4});
    SpeedupView view;
    view.setPoints(modelled);
    view.setMeasured(amdahl_points(0.3, {1, 2, 4, 8, 16}));
    std::vector<SpeedupPoint> points;
    for (const SweepPoint& p : modelled)
        points.push_back({static_cast<double>(p.workers), p.metrics.speedup});
    const AmdahlFit fit = fit_amdahl(points, 16.0);
    QCOMPARE(view.amdahlSerialFraction(), fit.serial_fraction);
    const QList<QPointF> curve = view.amdahlPoints();
    QCOMPARE(curve.size(), qsizetype(fit.curve.size()));
    for (qsizetype i = 0; i < curve.size(); ++i) {
        QCOMPARE(curve[i].x(), fit.curve[static_cast<std::size_t>(i)].workers);
        QCOMPARE(curve[i].y(), fit.curve[static_cast<std::size_t>(i)].speedup);
    }
}

void TestSpeedupView::measuredSeriesIsOptional() {
    SpeedupView view;
    view.setPoints(amdahl_points(0.1, {1, 2, 4}));
    QVERIFY(view.measuredPoints().isEmpty());
    const auto measured = amdahl_points(0.3, {1, 2, 4, 8});
    view.setMeasured(measured);
    QCOMPARE(view.measuredPoints(), speedups(measured));
    // The ideal line covers every worker count on the chart.
    QCOMPARE(view.idealPoints().back(), QPointF(8, 8));
    // The fit is to the modelled points only.
    QVERIFY(std::abs(view.amdahlSerialFraction() - 0.1) < 0.01);
    view.setMeasured({});
    QVERIFY(view.measuredPoints().isEmpty());
    QCOMPARE(view.idealPoints().back(), QPointF(4, 4));
}

void TestSpeedupView::screenshotsFollowThePalette() {
    const std::vector<int> counts{1, 2, 4, 8, 16};
    const auto points = sweep(worked_example(), counts);
    // Stand-in "measured" points, only to see the optional series on screen.
    auto measured = points;
    for (SweepPoint& p : measured)
        p.metrics.speedup = std::max(1.0, p.metrics.speedup * 0.8);

    QFont projector = QApplication::font();
    projector.setPointSize(15);
    SpeedupView view;
    view.setFont(projector);
    view.resize(1100, 720);
    view.setPoints(points);
    view.setMeasured(measured);
    view.show();
    QVERIFY(QTest::qWaitForWindowExposed(&view));
    const QImage light = settled_grab(view);
    QVERIFY(light.save(screenshot_path(QStringLiteral("speedup-view-light.png"))));
    QVERIFY(count_near(light, okabe_ito::blue, 12) > 400);           // modelled
    QVERIFY(count_near(light, okabe_ito::reddish_purple, 12) > 150); // Amdahl fit
    QVERIFY(count_near(light, okabe_ito::orange, 12) > 150);         // measured

    QPalette dark;
    dark.setColor(QPalette::Window, QColor(0x1e, 0x1f, 0x22));
    dark.setColor(QPalette::WindowText, QColor(0xe8, 0xe8, 0xe8));
    view.setPalette(dark);
    view.setMeasured({});
    view.setComputing(true); // as the app's sweeper says while it sweeps
    const QImage computing = settled_grab(view);
    QVERIFY(computing.save(screenshot_path(QStringLiteral("speedup-view-dark-computing.png"))));
    view.setPoints(points);
    const QImage darkImage = settled_grab(view);
    QVERIFY(darkImage.save(screenshot_path(QStringLiteral("speedup-view-dark.png"))));
    int darkPixels = 0;
    for (int y = 0; y < darkImage.height(); y += 4)
        for (int x = 0; x < darkImage.width(); x += 4)
            darkPixels += darkImage.pixelColor(x, y).lightnessF() < 0.3 ? 1 : 0;
    QVERIFY(darkPixels > (darkImage.width() / 4) * (darkImage.height() / 4) / 2);
    QVERIFY(count_near(darkImage, okabe_ito::orange, 12) < 20); // measured series hidden
}

// On a projector at 1024x768 the speedup tab is short: the legend stays below the chart, not over
// it, and the speedup axis takes fewer ticks rather than eliding every label.
void TestSpeedupView::aShortViewKeepsItsLegendApartAndFewerTicks() {
    const std::vector<int> counts{1, 2, 4, 8};
    const auto points = sweep(worked_example(), counts);
    auto speedup_tick = [](SpeedupView& view) {
        const auto* chart = view.findChild<QChartView*>();
        for (QAbstractAxis* axis : chart->chart()->axes(Qt::Vertical))
            if (axis->titleText() == QStringLiteral("speedup (×)"))
                return static_cast<QValueAxis*>(axis)->tickInterval();
        return 0.0;
    };
    SpeedupView tall;
    tall.resize(740, 600);
    tall.setPoints(points);
    tall.show();
    QVERIFY(QTest::qWaitForWindowExposed(&tall));
    QTRY_COMPARE(speedup_tick(tall), 1.0);

    SpeedupView view;
    view.resize(740, 250);
    view.setPoints(points);
    view.show();
    QVERIFY(QTest::qWaitForWindowExposed(&view));
    QTRY_VERIFY(speedup_tick(view) >= 2.0);
    const auto* chart = view.findChild<QChartView*>();
    const auto* legend = view.findChild<SeriesLegend*>();
    QVERIFY(chart && legend);
    // Resized through every height a dragged splitter passes, it stays whole.
    for (int h = 120; h <= 640; h += 13) {
        view.resize(740, h);
        QCoreApplication::processEvents();
    }
    view.resize(740, 250);
    QTRY_VERIFY(speedup_tick(view) >= 2.0);
    QVERIFY2(legend->geometry().top() > chart->geometry().bottom(),
             qPrintable(QStringLiteral("legend at %1, chart down to %2")
                            .arg(legend->geometry().top())
                            .arg(chart->geometry().bottom())));
}

QTEST_MAIN(TestSpeedupView)
#include "test_speedup_view.moc"
