#pragma once

#include "lockstep_lessons/lesson.h"
#include "lockstep_lessons/study.h"

#include <QWidget>

class QChartView;
class QComboBox;
class QEvent;
class QLabel;
class QPushButton;
class QTableWidget;

namespace lockstep::app {

class BackgroundJob;

// The discussion lesson's study: several model sizes trained for real on the same data, shown
// as loss against modelled energy, with a table of the final figures. The training is a
// BackgroundJob (background.h); the results arrive queued, so the window never waits for it.
class StudyPanel : public QWidget {
    Q_OBJECT
public:
    explicit StudyPanel(QWidget* parent = nullptr);
    ~StudyPanel() override;

    void setStudy(const Scenario& scenario, const lessons::StudyConfig& study);
    void start();
    bool running() const;
    const std::vector<lessons::StudyPoint>& results() const { return results_; }

Q_SIGNALS:
    void finished();

protected:
    void changeEvent(QEvent* event) override;

private:
    void retranslate();
    void showResults(std::vector<lessons::StudyPoint> points, const QString& error);
    void showStatus(); // what the study is doing, or what it found
    void plot();       // loss against energy or compute, as the axis box says

    Scenario scenario_;
    lessons::StudyConfig study_;
    std::vector<lessons::StudyPoint> results_;
    BackgroundJob* job_ = nullptr;
    QString error_; // why the last study stopped
    QPushButton* run_ = nullptr;
    QLabel* status_ = nullptr;
    QChartView* chart_ = nullptr;
    QComboBox* axis_ = nullptr;
    QTableWidget* table_ = nullptr;
};

} // namespace lockstep::app
