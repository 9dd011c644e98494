#pragma once

#include "core/error.h"
#include "scenario/scenario.h"

#include <string>

// The checkpoint directory of a command-line run: its checkpoints, and the scenario they belong
// to in scenario.json, so that resume knows what it continues.
namespace lockstep::cli {

inline constexpr const char* kScenarioFile = "scenario.json";

// A directory that no run --checkpoint-dir wrote: it has no scenario.json.
Error no_scenario_file(const std::string& dir);

// Makes `dir` the checkpoint directory of a fresh run: refused when it holds another run's files,
// created, and given the effective scenario first, so that a resume knows what it continues.
void prepare_checkpoint_directory(const std::string& dir, const Scenario& scenario);

} // namespace lockstep::cli
