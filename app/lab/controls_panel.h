#pragma once

#include "lab_session.h"

#include "scenario/scenario.h"

#include <QWidget>

#include <utility>
#include <vector>

class QComboBox;
class QDoubleSpinBox;
class QEvent;
class QGridLayout;
class QLabel;
class QLineEdit;
class QPushButton;
class QSpinBox;

namespace lockstep::app {

// The knobs a teacher turns most: workers, collective, reduction rule, learning rate, shard
// sizes, per-worker slowdown, clock, seed and steps, the way of agreeing, and how a worker's
// gradient leaves (bucket size, overlap, accumulation), over the session's current scenario
// (LabSession::scenario()), which it edits and never copies; everything else comes from the
// scenario file. It never talks to the engine itself. The collective, the rule, the learning
// rate and the slowdowns can change while a run goes on: editing one asks for the change at once
// (changeRequested()); the others wait for Run, which starts a new run.
class ControlsPanel : public QWidget {
    Q_OBJECT
public:
    explicit ControlsPanel(const LabSession& session, QWidget* parent = nullptr);

    // Fills the fields from the session's scenario (when it changes, or a run starts).
    void showScenario();
    // The session's scenario with the fields' values applied: what Run or a change takes.
    // Throws lockstep::Error naming the control when a value is bad (e.g. a shard size that is
    // not a number).
    Scenario scenario() const;
    // Greys out the controls while `locked` (a lesson can fix its scenario).
    void setLocked(bool locked);
    // Greys out just these controls (workers, algorithm, rule, shards, slowdown, clock, seed,
    // steps, sync, gradients) and frees the others: what a teacher locks for a lesson.
    void setLockedControls(const QStringList& names);
    // Lays the fields out kWidePerRow to a row (for a dock under the views) or one to a row (beside
    // them).
    void setWide(bool wide);
    bool wide() const { return wide_; }
    // The height the fields take laid out wide, whatever the arrangement now: what the window
    // asks when it decides whether they fit under the views.
    int wideHeightHint() const;
    QSize sizeHint() const override;
    static constexpr int kWidePerRow = 3; // fields a row under the views
    QPushButton* runButton() const { return run_; }
    // The settings typed that only a new run can take (workers, shard sizes, clock, seed,
    // steps, buckets, overlap, accumulation), as the line under Run names them; empty when there
    // are none. Enter in one of those fields starts the new run, as Run does.
    QString pendingText() const;

Q_SIGNALS:
    // Run, or Enter in a field only a new run takes: the session's scenario with the fields'
    // values applied (scenario()), for the session to run.
    void runRequested(const lockstep::Scenario& scenario);
    // Run was asked for while a field's value is bad: the words naming it.
    void cannotRun(const QString& message);
    // The user changed a setting a run can take while it goes on (collective, rule, learning
    // rate, slowdown); scenario() has it.
    void changeRequested();

protected:
    void changeEvent(QEvent* event) override;
    bool eventFilter(QObject* watched, QEvent* event) override;

private:
    void requestRun();
    void retranslate();
    void arrange();
    void showSyncSettings(); // each mode's own setting enabled with that mode only
    void nameSyncSetting();  // its label and suffix, as the mode says
    void updatePending();    // the line under Run

    const LabSession& session_;
    QLabel* pending_ = nullptr;
    QSpinBox* workers_ = nullptr;
    QComboBox* algorithm_ = nullptr;
    QComboBox* rule_ = nullptr;
    QDoubleSpinBox* learning_rate_ = nullptr;
    QLineEdit* shards_ = nullptr;
    QLineEdit* slowdown_ = nullptr;
    QComboBox* clock_ = nullptr;
    QSpinBox* seed_ = nullptr;
    QSpinBox* steps_ = nullptr;
    QComboBox* sync_ = nullptr;        // how often the workers agree
    QSpinBox* sync_setting_ = nullptr; // ssp: the staleness bound S; local: the steps H
    QLabel* sync_setting_label_ = nullptr;
    QSpinBox* bucket_kb_ = nullptr;  // 0: the whole gradient in one bucket
    QComboBox* overlap_ = nullptr;   // the buckets start during backward, or after it
    QSpinBox* accumulate_ = nullptr; // micro-batches per reduction
    QComboBox* sharding_ = nullptr;  // ZeRO stage: what each worker keeps a shard of
    QComboBox* precision_ = nullptr; // the numbers the model trains in
    QComboBox* wire_ = nullptr;      // the format the gradients travel in
    int staleness_value_ = 2;
    int local_steps_value_ = 4;
    QPushButton* run_ = nullptr;
    std::vector<std::pair<QLabel*, QWidget*>> fields_; // label and field, in reading order
    QWidget* inner_ = nullptr;                         // the fields, inside a scroll area
    QGridLayout* grid_ = nullptr;
    bool wide_ = false;
};

} // namespace lockstep::app
