#pragma once

#include "lockstep_views/session_view.h"
#include "reports/metrics.h"

#include <QColor>
#include <QString>
#include <QWidget>

#include <cstddef>
#include <vector>

class QBarSet;
class QChart;
class QChartView;
class QLabel;

namespace lockstep::views {

// One finished run, as the comparison shows it.
struct ComparedRun {
    QString name; // "straggler, 4 workers, ring"
    RunMetrics metrics;
};

// One quantity of the comparison, with a value per run (in the order of the runs).
struct ComparisonMetric {
    QString title; // "Useful work"
    QString unit;  // of the bars as drawn: "samples/s", "ms per worker", ...
    QColor colour;
    std::vector<double> values; // in the engine's units (samples/s, s, worker-s, J)
    double scale = 1.0;         // bar = value x scale: milliseconds for small times
};

// Runs side by side, one small bar chart per quantity with one bar per run: useful work (goodput:
// samples per second that counted), synchronisation and waiting (seconds per worker), lost work
// (worker-seconds thrown away by rollbacks) and energy (joules, at the scenario's power prices).
// Each chart has its own axis and unit; the runs are numbered #1, #2, ... under the bars and named
// in the key. Reads finished runs' metrics only.
class ComparisonView : public QWidget, public SessionView {
    Q_OBJECT

public:
    static constexpr std::size_t kMaxRuns = 4;

    explicit ComparisonView(QWidget* parent = nullptr);

    // What the lab's session tells it (SessionView).
    QWidget* widget() override { return this; }
    void runStarted(const TraceIndex&, const Scenario&) override {}
    void traceChanged() override {}
    void playheadMoved(Ticks) override {}
    void runFinished(const FinishedRun& run) override {
        if (run.live)
            addRun({run.label, run.metrics});
    }

    // Adds a finished run; the oldest goes once there are more than kMaxRuns.
    void addRun(ComparedRun run);
    void clear();
    const std::vector<ComparedRun>& runs() const { return runs_; }

    // View-model: the quantities of these runs, in the order drawn.
    static std::vector<ComparisonMetric> metrics(const std::vector<ComparedRun>& runs);
    // The chart of the i-th quantity (for tests and screenshots).
    QChart* chart(std::size_t i) const;
    QString keyText() const;

protected:
    void changeEvent(QEvent* event) override;

private:
    void retranslate();
    void rebuild();
    void applyStyle();

    std::vector<ComparedRun> runs_;
    std::vector<QChartView*> views_;
    QLabel* key_ = nullptr;
};

} // namespace lockstep::views
