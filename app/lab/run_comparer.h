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

// Trains variants of one scenario whole, each on the modelled clock, as a BackgroundJob
// (background.h), for the Training view's one loss line per variant: the ways of agreeing (bsp,
// ssp, async, local), or the number formats of the model or of the gradients on the wire. A newer
// request wins over an older one still running, which stops between runs.
// Lives on the GUI thread; destroying it during a comparison is safe.
class RunComparer : public QObject {
    Q_OBJECT

public:
    struct Variant {
        QString name; // "async", "ssp, S = 2", "float16 on the wire"
        Scenario scenario;
    };
    struct Line {
        QString name;
        QList<QPointF> loss;  // (step, loss after it)
        double total_s = 0.0; // the whole run on its clock
        double waiting_s = 0.0;
        double final_loss = 0.0;
        double bytes_per_step = 0.0;    // sent between workers, per step run
        std::int64_t skipped_steps = 0; // the summed gradient overflowed its format
    };

    // The scenario under each way of agreeing named. Throws lockstep::Error naming a mode the
    // scenario cannot train with.
    static std::vector<Variant> ways(const Scenario& scenario, const std::vector<SyncMode>& modes,
                                     int staleness, int localSteps);
    // The scenario with its model in each precision, or its gradients in each wire format.
    // Throws lockstep::Error naming a format the scenario cannot train with.
    static std::vector<Variant> precisions(const Scenario& scenario,
                                           const std::vector<Precision>& formats);
    static std::vector<Variant> wireFormats(const Scenario& scenario,
                                            const std::vector<WirePrecision>& formats);

    explicit RunComparer(QObject* parent = nullptr);
    ~RunComparer() override;

    void request(std::vector<Variant> variants);
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
