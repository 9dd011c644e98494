#pragma once

#include "lockstep/scenario.h"

#include <QWidget>

class QComboBox;
class QLineEdit;
class QPushButton;
class QSpinBox;

namespace lockstep::app {

// The knobs a teacher turns most: workers, collective, reduction rule, shard sizes, per-worker
// slowdown, clock, seed and steps. Everything else comes from the scenario file. Reads and writes
// a Scenario; never talks to the engine itself.
class ControlsPanel : public QWidget {
    Q_OBJECT
public:
    explicit ControlsPanel(QWidget* parent = nullptr);

    void setScenario(const Scenario& scenario);
    // The scenario last set, with the panel's values applied. Throws lockstep::Error naming the
    // control when a value is bad (e.g. a shard size that is not a number).
    Scenario scenario() const;
    // Greys out the controls while `locked` (a lesson can fix its scenario).
    void setLocked(bool locked);
    // Greys out just these controls (workers, algorithm, rule, shards, slowdown, clock, seed,
    // steps) and frees the others: what a teacher locks for a lesson.
    void setLockedControls(const QStringList& names);

Q_SIGNALS:
    void runRequested();

private:
    Scenario base_;
    QSpinBox* workers_ = nullptr;
    QComboBox* algorithm_ = nullptr;
    QComboBox* rule_ = nullptr;
    QLineEdit* shards_ = nullptr;
    QLineEdit* slowdown_ = nullptr;
    QComboBox* clock_ = nullptr;
    QSpinBox* seed_ = nullptr;
    QSpinBox* steps_ = nullptr;
    QPushButton* run_ = nullptr;
};

} // namespace lockstep::app
