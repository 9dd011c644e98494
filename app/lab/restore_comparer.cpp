#include "restore_comparer.h"

#include "core/atomic_file.h"
#include "core/error.h"

#include <QCoreApplication>
#include <QDir>
#include <QTemporaryDir>

#include <optional>

namespace lockstep::app {

namespace {

// A folder made and put on the list of those a signal removes together.
struct Scratch {
    Scratch()
        : making(std::in_place)
        , dir(QDir::tempPath() + QStringLiteral("/lockstep-compare-XXXXXX"))
        , removed(dir.path().toStdString()) {
        making.reset();
    }
    std::optional<MakingFiles> making;
    QTemporaryDir dir;
    RemovedOnSignal removed;
};

RestoreComparison compare_in_scratch(const Scenario& scenario, const std::atomic<bool>* stop) {
    const Scratch made;
    const QTemporaryDir& scratch = made.dir;
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
