#pragma once

#include "options.h"

#include "scenario/scenario.h"

namespace lockstep::cli {

// The scenario a command's flags describe: the file given (or the default scenario), with every
// flag of run and sweep applied over it (--workers, --rule, --sync, --fail, --checkpoint-every,
// ...), then validated. Throws lockstep::Error naming the flag.
Scenario scenario_from(const Options& o);

} // namespace lockstep::cli
