#include "restore_comparer.h"

#include "core/error.h"

#include "core/atomic_file.h"
#include <QCoreApplication>
#include <QDir>

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
    const RemovedOnSignal removed(scratch.path().toStdString());
    return compare_restores(scenario, scratch.path().toStdString(), stop);
}

} // namespace

RestoreComparer::RestoreComparer(QObject* parent)
    : QObject(parent)
    , job_(new BackgroundJob(this)) {}

RestoreComparer::~RestoreComparer() = default;

bool RestoreComparer::comparable(const Scenario& scenario, QString* why) {
    const std::string refusal = restore_comparison_refusal(scenario);
    if (!refusal.empty() && why)
        *why = tr("No restores to compare: %1. Crash a worker (click it in the cluster view) in a "
                  "run that saves checkpoints to see both.")
                   .arg(QString::fromStdString(refusal));
    return refusal.empty();
}

void RestoreComparer::request(const Scenario& scenario) {
    job_->start(
        [scenario](const std::atomic<bool>& stop) { return compare_in_scratch(scenario, &stop); },
        [this](const RestoreComparison& comparison) { Q_EMIT ready(comparison); },
        [this](const QString& error) { Q_EMIT failed(error); });
}

void RestoreComparer::cancel() {
    job_->cancel();
}

RestoreComparison RestoreComparer::compareNow(const Scenario& scenario) {
    return compare_in_scratch(scenario, nullptr);
}

} // namespace lockstep::app
