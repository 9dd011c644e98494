#pragma once

#include "scenario/scenario.h"
#include "trainers/data_parallel.h"

#include <QList>
#include <QPointF>
#include <QString>
#include <QTimer>
#include <QWidget>

#include <cstdint>
#include <memory>
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
// sweep, optionally the speedup measured on this computer, the efficiency (right axis, percent)
// and Amdahl's law fitted to the modelled points (engine/reports/amdahl.h), with its serial
// fraction in the legend.
// requestSweep() recomputes the modelled points off the GUI thread, debounced, so a slider can
// drive it; the GUI thread never waits for a sweep.
class SpeedupView : public QWidget {
    Q_OBJECT

public:
    // requestSweep() waits this long for the requests to stop before it starts a sweep.
    static constexpr int kDebounceMs = 150;

    explicit SpeedupView(QWidget* parent = nullptr);
    ~SpeedupView() override;

    // Shows these points now. The newest of setPoints() and requestSweep() wins: a sweep still
    // running from an earlier request is dropped when it finishes.
    void setPoints(const std::vector<SweepPoint>& modelled);
    // Speedups measured on this computer; an empty list hides the series.
    void setMeasured(const std::vector<SweepPoint>& measured);
    double amdahlSerialFraction() const { return serialFraction_; }

    // Sweeps `scenario` over `workerCounts` on a pool thread once no newer request has come for
    // kDebounceMs, then shows the result and emits sweepFinished().
    void requestSweep(const Scenario& scenario, std::vector<int> workerCounts);
    // True from a request until its points are shown (or it fails).
    bool isComputing() const { return awaiting_; }

    // View-model, for tests and assistive technology.
    QList<QPointF> modelledPoints() const;
    QList<QPointF> idealPoints() const;
    QList<QPointF> measuredPoints() const;
    QList<QPointF> efficiencyPoints() const; // percent
    QList<QPointF> amdahlPoints() const;
    QString amdahlLabel() const; // "Amdahl fit, serial fraction 12%"; empty without a fit
    QString summary() const;
    QString errorText() const { return error_; } // the last failed sweep's message

Q_SIGNALS:
    void sweepStarted();
    void sweepFinished();
    void sweepFailed(const QString& message);

protected:
    void changeEvent(QEvent* event) override;

private:
    struct Mailbox;

    void startSweep();
    void deliverSweep(std::uint64_t generation, const std::vector<SweepPoint>& points,
                      const QString& error);
    void showPoints(const std::vector<SweepPoint>& modelled);
    void updateAxes();
    void updateValueLabels();
    void updateTexts();
    void applyStyle();

    std::vector<SweepPoint> modelled_;
    std::vector<SweepPoint> measured_;
    double serialFraction_;
    QString error_;

    QTimer debounce_;
    Scenario pendingScenario_;
    std::vector<int> pendingCounts_;
    std::uint64_t generation_ = 0; // the request whose result may be shown
    bool awaiting_ = false;
    std::shared_ptr<Mailbox> mailbox_;

    QChart* chart_ = nullptr;
    QChartView* chartView_ = nullptr;
    QValueAxis* workersAxis_ = nullptr;
    QValueAxis* speedupAxis_ = nullptr;
    QValueAxis* efficiencyAxis_ = nullptr;
    QLineSeries* ideal_ = nullptr;
    QLineSeries* amdahl_ = nullptr;
    QLineSeries* efficiency_ = nullptr;
    QLineSeries* measuredSeries_ = nullptr;
    QLineSeries* modelledSeries_ = nullptr;
    QList<QGraphicsSimpleTextItem*> valueLabels_; // "2.5×" beside each modelled point
    QLabel* header_ = nullptr;
    QLabel* computing_ = nullptr;
    SeriesLegend* legend_ = nullptr;
};

} // namespace lockstep::views
