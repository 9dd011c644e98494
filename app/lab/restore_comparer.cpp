#include "restore_comparer.h"

#include "background.h"
#include "core/error.h"

#include <QCoreApplication>
#include <QDir>
#include <QMetaObject>
#include <QTemporaryDir>

namespace lockstep::app {

namespace {

RestoreComparison compare_in_scratch(const Scenario& scenario, const std::atomic<bool>* stop) {
    QTemporaryDir scratch(QDir::tempPath() + QStringLiteral("/lockstep-compare-XXXXXX"));
    if (!scratch.isValid())
        throw Error(QCoreApplication::translate("lockstep::app::RestoreComparer",
                                                "compare restores: cannot create a scratch "
                                                "directory in %1")
                        .arg(QDir::tempPath())
                        .toStdString());
    return compare_restores(scenario, scratch.path().toStdString(), stop);
}

} // namespace

RestoreComparer::RestoreComparer(QObject* parent)
    : QObject(parent) {}

RestoreComparer::~RestoreComparer() {
    cancel();
}

bool RestoreComparer::comparable(const Scenario& scenario, QString* why) {
    const std::string refusal = restore_comparison_refusal(scenario);
    if (!refusal.empty() && why)
        *why = tr("No restores to compare: %1. Crash a worker (click it in the cluster view) in a "
                  "run that saves checkpoints to see both.")
                   .arg(QString::fromStdString(refusal));
    return refusal.empty();
}

void RestoreComparer::request(const Scenario& scenario) {
    cancel();
    const std::uint64_t generation = ++generation_;
    stop_ = std::make_shared<std::atomic<bool>>(false);
    busy_ = true;
    worker_ = std::thread([this, generation, scenario, stop = stop_] {
        std::optional<RestoreComparison> result;
        QString error;
        try {
            result = run_beside_the_gui([&] { return compare_in_scratch(scenario, stop.get()); });
        } catch (const std::exception& e) {
            error = QString::fromStdString(e.what());
        }
        if (stop->load())
            return; // cancelled: nobody is waiting for this one
        // The destructor joins this thread before `this` goes, so the call is posted to a live
        // object; a newer request makes it a no-op.
        QMetaObject::invokeMethod(
            this,
            [this, generation, result = std::move(result), error] {
                if (generation != generation_)
                    return;
                busy_ = false;
                if (result)
                    Q_EMIT ready(*result);
                else
                    Q_EMIT failed(error);
            },
            Qt::QueuedConnection);
    });
}

void RestoreComparer::cancel() {
    ++generation_; // a result already posted is stale now
    if (stop_)
        stop_->store(true);
    if (worker_.joinable())
        worker_.join();
    busy_ = false;
}

RestoreComparison RestoreComparer::compareNow(const Scenario& scenario) {
    return compare_in_scratch(scenario, nullptr);
}

} // namespace lockstep::app
