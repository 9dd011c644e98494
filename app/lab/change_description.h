#pragma once

#include "scenario/scenario.h"

#include <QString>

namespace lockstep::app {

// What a change of the mid-run settings says on the timeline's mark: "rule → sum, collective →
// tree". Empty when none of the rule, collective, learning rate and slowdowns differ.
QString describe_change(const Scenario& from, const Scenario& to);

} // namespace lockstep::app
