#include "reports/amdahl.h"

#include <QtTest>

#include <cmath>
#include <vector>

using namespace lockstep;

// Amdahl's law and its fit to a sweep's speedups (engine/reports/amdahl.h).
class TestAmdahl : public QObject {
    Q_OBJECT

private Q_SLOTS:
    void law() {
        QCOMPARE(amdahl_speedup(0.0, 8.0), 8.0);
        QCOMPARE(amdahl_speedup(1.0, 8.0), 1.0);
        QCOMPARE(amdahl_speedup(0.2, 4.0), 2.5); // 1 / (0.2 + 0.8 / 4)
    }

    void fit_recovers_the_serial_fraction_data() {
        QTest::addColumn<double>("serial");
        QTest::newRow("none") << 0.0;
        QTest::newRow("4.5%") << 0.045;
        QTest::newRow("20%") << 0.2;
        QTest::newRow("70%") << 0.7;
        QTest::newRow("all") << 1.0;
    }

    void fit_recovers_the_serial_fraction() {
        QFETCH(double, serial);
        std::vector<SpeedupPoint> points;
        for (double n : {1.0, 2.0, 4.0, 8.0, 16.0, 32.0})
            points.push_back({n, amdahl_speedup(serial, n)});
        const double fitted = fit_amdahl_serial_fraction(points);
        QVERIFY2(std::abs(fitted - serial) < 1e-6, qPrintable(QString::number(fitted)));
    }

    // The worked example: 40 s on one worker, 16 s on four (speedup 2.5) is s = 0.2.
    void fit_of_one_point() {
        const std::vector<SpeedupPoint> points{{1.0, 1.0}, {4.0, 2.5}};
        QVERIFY(std::abs(fit_amdahl_serial_fraction(points) - 0.2) < 1e-6);
    }

    // One worker says nothing about s; points that are not speedups are left out.
    void fit_needs_more_than_one_worker() {
        const std::vector<SpeedupPoint> one{{1.0, 1.0}};
        QVERIFY(std::isnan(fit_amdahl_serial_fraction(one)));
        QVERIFY(std::isnan(fit_amdahl_serial_fraction({})));
        const std::vector<SpeedupPoint> junk{{1.0, 1.0}, {4.0, std::nan("")}, {8.0, -1.0}};
        QVERIFY(std::isnan(fit_amdahl_serial_fraction(junk)));
    }

    // The fit as a chart draws it: the serial fraction of the points, and the law's curve from
    // one worker to the last count in equal steps.
    void fit_draws_the_curve() {
        const std::vector<SpeedupPoint> points{{1.0, 1.0}, {4.0, 2.5}};
        const AmdahlFit fit = fit_amdahl(points, 8.0, 4);
        QCOMPARE(fit.serial_fraction, fit_amdahl_serial_fraction(points));
        QCOMPARE(fit.curve.size(), std::size_t{5});
        const double workers[] = {1.0, 2.75, 4.5, 6.25, 8.0};
        for (std::size_t i = 0; i < fit.curve.size(); ++i) {
            QCOMPARE(fit.curve[i].workers, workers[i]);
            QCOMPARE(fit.curve[i].speedup, amdahl_speedup(fit.serial_fraction, workers[i]));
        }
        QCOMPARE(fit.curve.front().speedup, 1.0);
        // s = 0.2 on eight workers: 1 / (0.2 + 0.8 / 8) = 10/3.
        QVERIFY(std::abs(fit.curve.back().speedup - 10.0 / 3.0) < 1e-5);
        QCOMPARE(fit_amdahl(points, 8.0).curve.size(), std::size_t{161});
    }

    void no_fit_draws_no_curve() {
        const std::vector<SpeedupPoint> one{{1.0, 1.0}};
        const AmdahlFit fit = fit_amdahl(one, 8.0);
        QVERIFY(std::isnan(fit.serial_fraction));
        QVERIFY(fit.curve.empty());
        const std::vector<SpeedupPoint> points{{1.0, 1.0}, {4.0, 2.5}};
        QVERIFY(fit_amdahl(points, 0.0).curve.empty());
    }
};

QTEST_MAIN(TestAmdahl)
#include "test_amdahl.moc"
