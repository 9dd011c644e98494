// The Controls panel's fields and the scenario: filled from the run's, read back into a new one,
// what only a new run can take, and the fields a lesson locks.

#include "controls_panel.h"

#include "core/error.h"
#include "lockstep_views/names.h"
#include "runs/runs.h"

#include <QComboBox>
#include <QCoreApplication>
#include <QDoubleSpinBox>
#include <QLabel>
#include <QLineEdit>
#include <QPushButton>
#include <QSignalBlocker>
#include <QSpinBox>

#include <algorithm>
#include <cmath>

namespace lockstep::app {

namespace {

// "30, 10" -> {30, 10}; empty -> {}. Throws naming the control on anything else.
std::vector<double> parse_list(const QString& text, const QString& control) {
    std::vector<double> out;
    const QString trimmed = text.trimmed();
    if (trimmed.isEmpty())
        return out;
    for (const QString& part : trimmed.split(QLatin1Char(','))) {
        bool ok = false;
        const double value = part.trimmed().toDouble(&ok);
        if (!ok)
            throw Error(QCoreApplication::translate(
                            "lockstep::app::ControlsPanel",
                            "%1: '%2' is not a number (write numbers separated by commas)")
                            .arg(control, part.trimmed())
                            .toStdString());
        out.push_back(value);
    }
    return out;
}

// The workers a run has: a model-parallel run's lanes (its stages or slices), else its workers.
int shown_workers(const Scenario& s) {
    return s.model_parallel() ? s.parallelism->lanes() : s.workers;
}

} // namespace

QString ControlsPanel::pendingText() const {
    const Scenario& base = session_.scenario();
    QStringList changed;
    if (workers_->value() != shown_workers(base))
        changed << tr("workers %1").arg(workers_->value());
    QStringList shards;
    for (std::size_t v : base.shard_sizes)
        shards << QString::number(static_cast<double>(v));
    if (shards_->text().simplified().remove(QLatin1Char(' ')) != shards.join(QLatin1Char(',')))
        changed << tr("shard sizes");
    if (static_cast<ClockKind>(clock_->currentData().toInt()) != base.clock)
        changed << tr("clock");
    if (static_cast<std::uint64_t>(seed_->value()) !=
        std::min<std::uint64_t>(base.seed, 1'000'000'000))
        changed << tr("seed %1").arg(seed_->value());
    if (steps_->value() != base.steps)
        changed << tr("steps %1").arg(steps_->value());
    const GradientConfig g = base.gradients.value_or(GradientConfig{});
    if (static_cast<std::size_t>(bucket_kb_->value()) != g.bucket_kb)
        changed << tr("buckets");
    if (overlap_->currentData().toBool() != g.overlap)
        changed << tr("overlap");
    if (accumulate_->value() != g.accumulate)
        changed << tr("accumulation %1").arg(accumulate_->value());
    if (static_cast<Sharding>(sharding_->currentData().toInt()) != base.sharding)
        changed << tr("sharding");
    if (static_cast<Precision>(precision_->currentData().toInt()) != base.model.precision)
        changed << tr("precision");
    if (static_cast<WirePrecision>(wire_->currentData().toInt()) != base.comm_precision)
        changed << tr("wire format");
    if (changed.isEmpty())
        return {};
    return tr("Waiting for a new run: %1. Press Enter or Run to start it.")
        .arg(changed.join(QStringLiteral(", ")));
}

void ControlsPanel::updatePending() {
    const QString text = pendingText();
    pending_->setText(text);
    pending_->setVisible(!text.isEmpty());
    run_->setAccessibleDescription(text.isEmpty() ? tr("Start a new run with these settings")
                                                  : text);
}

void ControlsPanel::showScenario() {
    const Scenario& s = session_.scenario();
    const QSignalBlocker quiet(learning_rate_);
    learning_rate_->setValue(s.optimizer.learning_rate);
    workers_->setValue(shown_workers(s));
    algorithm_->setCurrentIndex(algorithm_->findData(static_cast<int>(s.algorithm)));
    rule_->setCurrentIndex(rule_->findData(static_cast<int>(s.rule)));
    auto join = [](const auto& values) {
        QStringList parts;
        for (auto v : values)
            parts << QString::number(static_cast<double>(v));
        return parts.join(QStringLiteral(", "));
    };
    shards_->setText(join(s.shard_sizes));
    slowdown_->setText(join(s.delays.slowdown));
    clock_->setCurrentIndex(clock_->findData(static_cast<int>(s.clock)));
    seed_->setValue(static_cast<int>(std::min<std::uint64_t>(s.seed, 1'000'000'000)));
    steps_->setValue(static_cast<int>(s.steps));
    sync_->setCurrentIndex(sync_->findData(static_cast<int>(s.sync_mode())));
    if (s.sync_mode() == SyncMode::Ssp)
        staleness_value_ = s.sync->staleness;
    if (s.sync_mode() == SyncMode::Local)
        local_steps_value_ = s.sync->local_steps;
    showSyncSettings();
    const GradientConfig g = s.gradients.value_or(GradientConfig{});
    bucket_kb_->setValue(static_cast<int>(g.bucket_kb));
    overlap_->setCurrentIndex(overlap_->findData(g.overlap));
    accumulate_->setValue(g.accumulate);
    sharding_->setCurrentIndex(sharding_->findData(static_cast<int>(s.sharding)));
    precision_->setCurrentIndex(precision_->findData(static_cast<int>(s.model.precision)));
    wire_->setCurrentIndex(wire_->findData(static_cast<int>(s.comm_precision)));
    updatePending();
}

void ControlsPanel::showSyncSettings() {
    const auto mode = static_cast<SyncMode>(sync_->currentData().toInt());
    const QSignalBlocker quiet(sync_setting_);
    nameSyncSetting();
    if (mode == SyncMode::Local) {
        sync_setting_->setRange(1, static_cast<int>(ScenarioLimits::max_steps));
        sync_setting_->setValue(local_steps_value_);
    } else {
        sync_setting_->setRange(0, ScenarioLimits::max_staleness);
        sync_setting_->setValue(staleness_value_);
    }
    sync_setting_->setEnabled((mode == SyncMode::Ssp || mode == SyncMode::Local) &&
                              sync_->isEnabled());
}

void ControlsPanel::nameSyncSetting() {
    const bool local = static_cast<SyncMode>(sync_->currentData().toInt()) == SyncMode::Local;
    sync_setting_label_->setText(local ? tr("Average ever&y") : tr("Stale&ness (S)"));
    sync_setting_->setSuffix(local ? tr(" steps") : QString());
    sync_setting_->setAccessibleName(sync_setting_label_->text().remove(QLatin1Char('&')));
}

Scenario ControlsPanel::scenario() const {
    const Scenario& base = session_.scenario();
    Scenario s = base;
    const int workers = workers_->value();
    if (workers != shown_workers(s))
        s = scenario_for_workers(s, workers); // per-worker settings for workers gone are dropped
    s.algorithm = static_cast<Algorithm>(algorithm_->currentData().toInt());
    s.rule = static_cast<ReductionRule>(rule_->currentData().toInt());
    // Only a value the user changed replaces the scenario's own (the box shows 4 decimals).
    if (std::abs(learning_rate_->value() - base.optimizer.learning_rate) > 0.5e-4)
        s.optimizer.learning_rate = learning_rate_->value();
    s.clock = static_cast<ClockKind>(clock_->currentData().toInt());
    s.seed = static_cast<std::uint64_t>(seed_->value());
    s.steps = steps_->value();
    s.sharding = static_cast<Sharding>(sharding_->currentData().toInt());
    s.model.precision = static_cast<Precision>(precision_->currentData().toInt());
    s.comm_precision = static_cast<WirePrecision>(wire_->currentData().toInt());
    s.shard_sizes.clear();
    for (double v : parse_list(shards_->text(), tr("Shard sizes"))) {
        if (v < 1 || v != static_cast<double>(static_cast<std::size_t>(v)))
            throw Error(
                tr("Shard sizes: each must be a whole number of rows, at least 1").toStdString());
        s.shard_sizes.push_back(static_cast<std::size_t>(v));
    }
    s.delays.slowdown = parse_list(slowdown_->text(), tr("Slowdown"));
    const auto mode = static_cast<SyncMode>(sync_->currentData().toInt());
    if (mode == SyncMode::Bsp) {
        s.sync.reset();
    } else {
        SyncConfig c = s.sync.value_or(SyncConfig{});
        c.mode = mode;
        c.staleness = mode == SyncMode::Ssp ? staleness_value_ : 0;
        c.local_steps = mode == SyncMode::Local ? local_steps_value_ : 1;
        if (mode != SyncMode::Async)
            c.staleness_aware_lr = false;
        s.sync = c;
    }
    // How the gradient leaves: written only when it differs from the plain step.
    const GradientConfig g{static_cast<std::size_t>(bucket_kb_->value()),
                           overlap_->currentData().toBool(), accumulate_->value()};
    if (g.bucket_kb != 0 || !g.overlap || g.accumulate != 1 || base.gradients)
        s.gradients = g;
    validate(s);
    return s;
}

// Run: the fields' scenario goes straight to the session (connected to
// LabSession::rerunWithChange), or the bad field is named.
void ControlsPanel::requestRun() {
    try {
        Q_EMIT runRequested(scenario());
    } catch (const Error& e) {
        Q_EMIT cannotRun(QString::fromStdString(e.what()));
    }
}

void ControlsPanel::setLocked(bool locked) {
    for (QWidget* w : {static_cast<QWidget*>(workers_), static_cast<QWidget*>(algorithm_),
                       static_cast<QWidget*>(rule_), static_cast<QWidget*>(learning_rate_),
                       static_cast<QWidget*>(shards_), static_cast<QWidget*>(slowdown_),
                       static_cast<QWidget*>(clock_), static_cast<QWidget*>(seed_),
                       static_cast<QWidget*>(steps_), static_cast<QWidget*>(sync_),
                       static_cast<QWidget*>(bucket_kb_), static_cast<QWidget*>(overlap_),
                       static_cast<QWidget*>(accumulate_), static_cast<QWidget*>(sharding_)})
        w->setEnabled(!locked);
    showSyncSettings();
}

void ControlsPanel::setLockedControls(const QStringList& names) {
    const std::pair<const char*, QWidget*> controls[] = {{"workers", workers_},
                                                         {"algorithm", algorithm_},
                                                         {"rule", rule_},
                                                         {"learning_rate", learning_rate_},
                                                         {"shards", shards_},
                                                         {"slowdown", slowdown_},
                                                         {"clock", clock_},
                                                         {"seed", seed_},
                                                         {"steps", steps_},
                                                         {"sync", sync_},
                                                         {"gradients", bucket_kb_},
                                                         {"gradients", overlap_},
                                                         {"gradients", accumulate_},
                                                         {"sharding", sharding_},
                                                         {"precision", precision_},
                                                         {"comm_precision", wire_}};
    for (const auto& [name, widget] : controls)
        widget->setEnabled(!names.contains(QLatin1String(name)));
    showSyncSettings();
}

} // namespace lockstep::app
