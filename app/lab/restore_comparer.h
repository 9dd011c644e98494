#pragma once

#include "runs/restore_comparison.h"
#include "scenario/scenario.h"

#include <QObject>
#include <QString>

#include <atomic>
#include <memory>
#include <optional>
#include <thread>

namespace lockstep::app {

// Reruns a finished run's crashes both ways for the Checkpoints view: the same scenario without
// its crashes, with a full restore and with a weights-only restore (compare_restores, three real
// runs, checkpoints in a scratch directory removed afterwards).
//
// Thread contract: lives on the GUI thread; request() starts one worker thread (niced, beside the
// GUI) and returns at once; the result comes back as ready() or failed(), emitted on the GUI
// thread by a queued call. A new request, cancel() or the destructor raises the running job's stop
// flag and joins its thread (the engine stops between steps, so within milliseconds).
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
    bool busy() const { return busy_; }

    // The same work on the calling thread, for the headless screenshot. Throws lockstep::Error.
    static RestoreComparison compareNow(const Scenario& scenario);

Q_SIGNALS:
    void ready(const lockstep::RestoreComparison& comparison);
    void failed(const QString& message);

private:
    std::thread worker_;
    std::shared_ptr<std::atomic<bool>> stop_;
    std::uint64_t generation_ = 0;
    bool busy_ = false;
};

} // namespace lockstep::app
