#pragma once

#include "options.h"

#include "scenario/scenario.h"

#include <string>
#include <vector>

namespace lockstep::cli {

// The flags that choose model parallelism, for `run` and `moves`.
const std::vector<std::string>& parallel_flags();

// Applies --parallelism, --stages, --microbatches, --schedule and --replicas over the scenario's
// "parallelism" object, then validates. Throws lockstep::Error naming the flag.
void apply_parallel_flags(const Options& options, Scenario& scenario);

// `run` for a model-parallel scenario: trains it and prints the summary (text or --json), with
// the bubble, the most micro-batches in flight and the bytes moved; writes --trace,
// --metrics-csv and --params-out like a data-parallel run.
int run_model_parallel(const Options& options, const Scenario& scenario);

// `moves [SCENARIO] [--json]`: for the same model and batch, the bytes each strategy moves per
// step (per link) and the time its workers spend waiting.
int command_moves(const std::vector<std::string>& args);

} // namespace lockstep::cli
