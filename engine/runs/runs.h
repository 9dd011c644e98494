#pragma once

// Whole runs built on the Run interface (trainers/run.h): a scenario trained to its end with the
// speedup it reached, and the same scenario over several worker counts. Nothing here names a
// trainer: make_run() picks it.

#include "reports/results.h"
#include "scenario/scenario.h"
#include "trace/trace.h"
#include "trainers/run.h"

#include <cstdint>
#include <memory>
#include <span>
#include <vector>

namespace lockstep {

// The one-worker run that a data-parallel run's speedup is measured against. Strong scaling:
// one worker, the same global batch, no injected delays. Weak scaling: one worker with one
// worker's batch.
Scenario baseline_scenario(const Scenario& scenario);

// The one-worker time of the steps from `from_step` to the scenario's end: the baseline run
// (timed without training on the modelled clock, trained on the measured one), or for a
// model-parallel run the whole model on one worker priced by the cost model.
double baseline_time_s(const Scenario& scenario, std::shared_ptr<const Dataset> data,
                       std::int64_t from_step = 0);

// The scenario trained to its end by the trainer it names (any parallelism and way of
// agreeing), with its speedup against the one-worker baseline and the loss after each step.
// `sink` sees the run. Work::TimesOnly is for the modelled clock only (a measured time needs the
// real work).
RunResult run_scenario(const Scenario& scenario, TraceSink* sink = nullptr,
                       Work work = Work::Train);

// Runs `run` (set up, restored or checkpointing as the caller wishes) to its scenario's end,
// then measures its speedup against the baseline of the steps it did.
RunResult finish_run(Run& run);

// The scenario with another number of workers: per-worker settings (batches, shards, slowdowns,
// pauses, faults) for workers that no longer exist are dropped, the rest kept.
Scenario scenario_for_workers(const Scenario& scenario, int workers);

// The same scenario over several worker counts, the runs executed in parallel with TBB. On the
// modelled clock, Work::TimesOnly gives the same times without training (no loss figures).
std::vector<SweepPoint> sweep(const Scenario& scenario, std::span<const int> worker_counts,
                              Work work = Work::Train);

} // namespace lockstep
