#pragma once

// validate()'s parts that live in files of their own (scenario.h's validate() calls them).

#include "scenario/scenario.h"

namespace lockstep {

// The failure events against the workers, the steps and the checkpoint policy; the recovery
// policy and the energy prices. Throws lockstep::Error naming the field.
void validate_failures(const Scenario& s);

} // namespace lockstep
