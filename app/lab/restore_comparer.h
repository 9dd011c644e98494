#pragma once

#include "background.h"

#include "runs/restore_comparison.h"
#include "scenario/scenario.h"

#include <QObject>
#include <QString>

namespace lockstep::app {

// Reruns a finished run's crashes both ways for the Checkpoints view: the same scenario without
// its crashes, with a full restore and with a weights-only restore (compare_restores, three real
// runs, checkpoints in a scratch directory removed afterwards).
//
// Thread contract: lives on the GUI thread; request() starts a BackgroundJob (background.h) and
// returns at once; the result comes back as ready() or failed() on the GUI thread. A new request,
// cancel() or the destructor raises the running job's stop flag (the engine stops between steps,
// so within milliseconds, and its scratch directory goes) and drops its result.
class RestoreComparer : public QObject {
    Q_OBJECT
public:
    explicit RestoreComparer(QObject* parent = nullptr);
    ~RestoreComparer() override;

    // Whether `scenario` (with the faults injected into it) has something to compare
    // (restore_comparison_refusal() is empty); `why` gets the engine's reason when not, with
    // what to do about it.
    static bool comparable(const Scenario& scenario, QString* why = nullptr);

    void request(const Scenario& scenario);
    void cancel();
    bool busy() const { return job_->busy(); }

    // The same work on the calling thread, for the headless screenshot. Throws lockstep::Error.
    static RestoreComparison compareNow(const Scenario& scenario);

Q_SIGNALS:
    void ready(const lockstep::RestoreComparison& comparison);
    void failed(const QString& message);

private:
    BackgroundJob* job_ = nullptr;
};

} // namespace lockstep::app
