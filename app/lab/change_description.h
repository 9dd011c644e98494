#pragma once

#include "scenario/scenario.h"

#include <QString>

namespace lockstep::app {

// What a change of the mid-run settings says on the timeline's mark: "rule → sum, collective →
// tree". Empty when none of the rule, collective, learning rate and slowdowns differ.
QString describe_change(const Scenario& from, const Scenario& to);

// What a worker menu's action says on its mark: "worker 2 slowed 3×".
QString describe_worker_action(int worker, const QString& action);

} // namespace lockstep::app
