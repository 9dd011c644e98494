#pragma once

#include "lockstep_views/session_view.h"
#include "reports/results.h"
#include "scenario/scenario.h"

#include <QList>
#include <QPointF>
#include <QString>
#include <QWidget>

#include <cstdint>
#include <vector>

class QChart;
class QChartView;
class QGraphicsSimpleTextItem;
class QLabel;
class QLineSeries;
class QValueAxis;

namespace lockstep::views {

class SeriesLegend;

// Speedup against the number of workers: the ideal line (speedup = N), the modelled speedup of a
// sweep, optionally the speedup measured on this computer and, for a run whose gradient buckets
// overlap backward, the same sweep without overlap, the efficiency (right axis, percent)
// and Amdahl's law fitted to the modelled points (engine/reports/amdahl.h), with its serial
// fraction in the legend. It draws the points it is given; the sweep that makes them runs in the
// app (app/lab/speedup_sweeper.h), which tells it while one is computing.
class SpeedupView : public QWidget, public SessionView {
    Q_OBJECT

public:
    explicit SpeedupView(QWidget* parent = nullptr);

    // What the lab's session tells it (SessionView).
    QWidget* widget() override { return this; }
    // Its points come from a sweep the lab computes (SpeedupSweeper); the session says only
    // which worker count the run has.
    void runStarted(const TraceIndex&, const Scenario& scenario) override {
        setRunWorkers(scenario.workers);
    }
    void traceChanged() override {}
    void playheadMoved(Ticks) override {}
    void runRetuned(const Scenario& running) override { setRunWorkers(running.workers); }
    ~SpeedupView() override;

    // Shows these points now, ending any "computing" state and any error. `withoutOverlap`: the
    // same sweep with the buckets waiting for backward (empty: the run has no overlap to lose).
    void setPoints(const std::vector<SweepPoint>& modelled,
                   const std::vector<SweepPoint>& withoutOverlap = {});
    // Changes with every setPoints(): whoever computes points for the view can tell whether
    // someone else has shown newer ones meanwhile.
    std::uint64_t pointsRevision() const { return revision_; }
    // Speedups measured on this computer; an empty list hides the series.
    void setMeasured(const std::vector<SweepPoint>& measured);
    double amdahlSerialFraction() const { return serialFraction_; }

    // The workers of the run in the lab: the headline names that point of the sweep (the
    // largest one when it is not among them, or with 0).
    void setRunWorkers(int workers);

    // A sweep for this view is under way (the points shown stay until it ends).
    void setComputing(bool computing);
    bool isComputing() const { return awaiting_; }
    // A sweep failed: its message replaces the headline; the points shown stay.
    void showSweepError(const QString& message);

    // View-model, for tests and assistive technology.
    QList<QPointF> modelledPoints() const;
    QList<QPointF> idealPoints() const;
    QList<QPointF> measuredPoints() const;
    QList<QPointF> withoutOverlapPoints() const;
    QList<QPointF> efficiencyPoints() const; // percent
    QList<QPointF> amdahlPoints() const;
    QString amdahlLabel() const; // "Amdahl fit, serial fraction 12%"; empty without a fit
    QString summary() const;
    QString errorText() const { return error_; } // the last failed sweep's message

protected:
    void changeEvent(QEvent* event) override;
    void resizeEvent(QResizeEvent* event) override;

private:
    static constexpr int kMarkerSize = 16; // the points' markers, in pixels
    void retranslate();
    void showPoints(const std::vector<SweepPoint>& modelled);
    void updateAxes();
    void updateValueLabels();
    void updateTexts();
    void applyStyle();

    std::vector<SweepPoint> modelled_;
    std::vector<SweepPoint> measured_;
    std::vector<SweepPoint> withoutOverlap_;
    double serialFraction_;
    QString error_;

    std::uint64_t revision_ = 0;
    bool awaiting_ = false;
    int runWorkers_ = 0;

    QChart* chart_ = nullptr;
    QChartView* chartView_ = nullptr;
    QValueAxis* workersAxis_ = nullptr;
    QValueAxis* speedupAxis_ = nullptr;
    QValueAxis* efficiencyAxis_ = nullptr;
    QLineSeries* ideal_ = nullptr;
    QLineSeries* amdahl_ = nullptr;
    QLineSeries* efficiency_ = nullptr;
    QLineSeries* measuredSeries_ = nullptr;
    QLineSeries* withoutOverlapSeries_ = nullptr;
    QLineSeries* modelledSeries_ = nullptr;
    QList<QGraphicsSimpleTextItem*> valueLabels_; // "2.5×" beside each modelled point
    QLabel* header_ = nullptr;
    QLabel* computing_ = nullptr;
    SeriesLegend* legend_ = nullptr;
};

} // namespace lockstep::views
