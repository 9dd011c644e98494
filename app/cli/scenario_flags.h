#pragma once

#include "options.h"

#include "scenario/scenario.h"

#include <string>
#include <vector>

namespace lockstep::cli {

// The scenario a command's flags describe: the file given (or the default scenario), with every
// flag of run and sweep applied over it (--workers, --rule, --sync, --fail, --checkpoint-every,
// ..., and the model-parallel ones), then validated once. Throws lockstep::Error naming the flag.
Scenario scenario_from(const Options& o);

// The flags that choose model parallelism, for `run` and `moves`.
const std::vector<std::string>& parallel_flags();
// Applies --parallelism, --stages, --microbatches, --schedule and --replicas over the scenario's
// "parallelism" object (the caller validates). Throws lockstep::Error naming the flag.
void apply_parallel_flags(const Options& options, Scenario& scenario);

} // namespace lockstep::cli
