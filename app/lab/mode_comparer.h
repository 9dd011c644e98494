#pragma once

#include "background.h"

#include "scenario/scenario.h"

#include <QList>
#include <QObject>
#include <QPointF>
#include <QString>

#include <cstdint>
#include <memory>
#include <vector>

namespace lockstep::app {

// Trains one scenario under several ways of agreeing (bsp, ssp, async, local), whole, as a
// BackgroundJob (background.h), for the Training view's one loss line per mode; a newer request
// wins over an older one still running, which stops between runs.
// Lives on the GUI thread; destroying it during a comparison is safe.
class ModeComparer : public QObject {
    Q_OBJECT

public:
    struct Line {
        SyncMode mode = SyncMode::Bsp;
        QString name;         // "async", "ssp, S = 2", "local, every 4 steps"
        QList<QPointF> loss;  // (step, loss after it)
        double total_s = 0.0; // the whole run on its clock
        double waiting_s = 0.0;
        double final_loss = 0.0;
    };

    explicit ModeComparer(QObject* parent = nullptr);
    ~ModeComparer() override;

    // Throws lockstep::Error naming a mode the scenario cannot train with, before anything runs.
    void request(const Scenario& scenario, const std::vector<SyncMode>& modes, int staleness,
                 int localSteps);
    bool isComputing() const { return job_->busy(); }
    const QList<Line>& lines() const { return lines_; }

Q_SIGNALS:
    void finished();
    void failed(const QString& message);

private:
    QList<Line> lines_;
    BackgroundJob* job_ = nullptr;
};

} // namespace lockstep::app
