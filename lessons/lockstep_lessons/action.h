#pragma once

#include "scenario/scenario.h"

#include <QMap>
#include <QString>
#include <QStringList>

#include <optional>

namespace lockstep::lessons {

// What a `lockstep:` link in a lesson page asks the live lab to do. The vocabulary is complete
// even where the app cannot perform an action yet (crash, restore, pipeline): a lesson can be
// written and checked now, and the app says plainly what it cannot do.
enum class ActionKind {
    Play,       // lockstep:play
    Pause,      // lockstep:pause (the playback; with a worker it is the fault "pause")
    Step,       // lockstep:step — to the next event
    Reset,      // lockstep:reset — playhead back to the start
    Run,        // lockstep:run — run the current scenario again
    Set,        // lockstep:set?workers=8&rule=sum — change the scenario, then run it
    Fault,      // lockstep:<id>?worker=N[&amount] — a change a click on a worker makes, named
                // by its kind's id (failures/intervention.h): lockstep:slow?worker=2&factor=3,
                // lockstep:pause?worker=1&seconds=5, lockstep:crash?worker=1[&step=5],
                // lockstep:broadcast (every replica takes worker 0's parameters)
    Checkpoint, // lockstep:checkpoint?every=2[&restore=full|weights-only]
    Restore,    // lockstep:restore?mode=full|weights-only
    Pipeline,   // lockstep:pipeline?stages=4&microbatches=8[&schedule=fill-drain|1f1b]
    View,       // lockstep:view?name=timeline — bring one view to the front
    Scenario,   // lockstep:scenario?file=other.json — load another scenario (lesson-relative)
    Replay,     // lockstep:replay?file=run.json — play back a recorded run (lesson-relative)
    Quiz,       // lockstep:quiz?bank=reductions&question=mean-two-workers
    Compare,    // lockstep:compare?sync=bsp,async[&staleness=2&local_steps=4], or
                // ?precision=float64,float32, or ?comm_precision=float64,float16 — one loss
                // line each
    Calculator, // lockstep:calculator — the worked-example calculator
    Study,      // lockstep:study — the lesson's model-size study
};

// One parsed link: its kind and its parameters, each already checked against the vocabulary.
struct Action {
    ActionKind kind = ActionKind::Play;
    QString url;
    QMap<QString, QString> params;
    QString fault; // Fault: its kind's id ("slow")

    bool has(const QString& key) const { return params.contains(key); }
    QString text(const QString& key, const QString& fallback = {}) const;
    double number(const QString& key, double fallback = 0.0) const;
    int integer(const QString& key, int fallback = 0) const;
};

// "play", "set", and for a fault its kind's id ("slow").
QString action_name(const Action& action);
// Every action with its parameters, one per line, for error messages and documentation.
QStringList action_vocabulary();

// Parses "lockstep:slow?worker=2&factor=3". Throws lockstep::Error naming the link and what is
// wrong: an unknown action, an unknown or missing parameter, a value of the wrong kind or out of
// range.
Action parse_action(const QString& url);
bool is_action_link(const QString& url);

// Applies a Set action's parameters to a scenario and validates the result (lockstep::Error
// naming the parameter on failure). `communication_s` is the whole run's communication time,
// spread over its steps, as in the worked example; `one_worker_s` the one-worker compute time.
void apply_set(const Action& action, Scenario& scenario);

// The worker an action names (a fault's, e.g. slow or crash), if any.
std::optional<int> action_worker(const Action& action);

} // namespace lockstep::lessons
