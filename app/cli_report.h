#pragma once

#include "lockstep/metrics.h"
#include "lockstep/scenario.h"
#include "lockstep/trainer.h"

#include <nlohmann/json.hpp>

#include <span>
#include <string>

// What lockstep-cli prints about a run, shared by run, resume and compare.
namespace lockstep::cli {

nlohmann::json metrics_json(const Scenario& s, const RunMetrics& m);
nlohmann::json recoveries_json(std::span<const DataParallelTrainer::Recovery> recoveries);

// One line per crash: what happened, how long it went unnoticed, where the run went back to.
std::string describe(const DataParallelTrainer::Recovery& r);
// Lost work, goodput and energy, as lines for the text report (empty without failures, backup
// workers or energy worth reporting).
std::string failure_summary(const RunMetrics& m,
                            std::span<const DataParallelTrainer::Recovery> recoveries);

} // namespace lockstep::cli
