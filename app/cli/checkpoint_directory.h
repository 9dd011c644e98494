#pragma once

#include "checkpoint/checkpoint.h"
#include "core/error.h"
#include "scenario/scenario.h"

#include <memory>
#include <string>

// The checkpoint directory of a command-line run: its checkpoints, and the scenario they belong
// to in scenario.json, so that resume knows what it continues.
namespace lockstep::cli {

inline constexpr const char* kScenarioFile = "scenario.json";

// A directory that no run --checkpoint-dir wrote: it has no scenario.json.
Error no_scenario_file(const std::string& dir);

// Makes `dir` the checkpoint directory of a fresh run: refused when it holds another run's files
// or another run holds it, created, locked, and given the effective scenario first, so that a
// resume knows what it continues. The run owns the directory while it keeps the lock returned.
std::unique_ptr<DirectoryLock> prepare_checkpoint_directory(const std::string& dir,
                                                            const Scenario& scenario);

} // namespace lockstep::cli
