#pragma once

#include "options.h"

#include "reports/results.h"
#include "scenario/scenario.h"

#include <string>
#include <vector>

namespace lockstep::cli {

// `run`'s summary of a model-parallel run (text or --json): the data-parallel figures, then the
// stages' layers, the bubble, the most micro-batches in flight and the bytes moved.
int report_model_parallel(const Options& options, const Scenario& scenario,
                          const RunResult& result);

// `moves [SCENARIO] [--json]`: for the same model and batch, the bytes each strategy moves per
// step (per link) and the time its workers spend waiting.
int command_moves(const std::vector<std::string>& args);

} // namespace lockstep::cli
