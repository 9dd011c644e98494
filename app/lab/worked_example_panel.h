#pragma once

#include "scenario/scenario.h"

#include <QWidget>

class QChartView;
class QDoubleSpinBox;
class QEvent;
class QLabel;
class QLineSeries;
class QPushButton;
class QSpinBox;
class QValueAxis;

namespace lockstep::app {

// The worked-example calculator: one worker's time, the number of workers and the communication
// time go into the lesson's scenario, and the engine answers with the total time, the speedup and
// a speedup curve over 1 to 32 workers. Nothing here computes a speedup itself.
class WorkedExamplePanel : public QWidget {
    Q_OBJECT
public:
    explicit WorkedExamplePanel(QWidget* parent = nullptr);

    // The scenario the figures go into (the worked example's).
    void setScenario(const Scenario& scenario);
    void setFigures(double one_worker_s, int workers, double communication_s);
    QString resultText() const;

Q_SIGNALS:
    // "Show it in the lab": a lockstep:set link with these figures.
    void runRequested(const QString& link);

protected:
    void changeEvent(QEvent* event) override;

private:
    void retranslate();
    void recompute();

    Scenario scenario_;
    QDoubleSpinBox* one_worker_ = nullptr;
    QSpinBox* workers_ = nullptr;
    QDoubleSpinBox* communication_ = nullptr;
    QLabel* result_ = nullptr;
    QLineSeries* ideal_ = nullptr;
    QLineSeries* modelled_ = nullptr;
    QChartView* chart_ = nullptr;
    QValueAxis* x_ = nullptr;
    QValueAxis* y_ = nullptr;
    QLabel* one_worker_label_ = nullptr;
    QLabel* workers_label_ = nullptr;
    QLabel* communication_label_ = nullptr;
    QPushButton* run_ = nullptr;
};

} // namespace lockstep::app
