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
#include <optional>
#include <span>
#include <string>
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
// What a student reads when training diverged (Run::divergence()): the step, the loss, and the
// likely cause, the scenario's learning rate, with a smaller one to try.
std::string divergence_message(const Scenario& scenario, const Run::Divergence& divergence);

// The scenario with another number of workers: per-worker settings (batches, shards, slowdowns,
// pauses, faults) for workers that no longer exist are dropped, the rest kept.
Scenario scenario_for_workers(const Scenario& scenario, int workers);

// The same scenario over several worker counts, the runs executed in parallel with TBB. On the
// modelled clock, Work::TimesOnly gives the same times without training (no loss figures).
std::vector<SweepPoint> sweep(const Scenario& scenario, std::span<const int> worker_counts,
                              Work work = Work::Train);

// Memory budgets (memory_budget.cpp). What the worker that holds the most holds after one real
// step of a data-parallel scenario: its ledger as RunMetrics::memory has it, and its lines at the
// moment of its peak (they add up to `worker.peak`).
struct PeakMemory {
    WorkerMemory worker;
    MemorySample at_peak;
};

// One step of `scenario` (its budget, faults, pauses and checkpoints left aside: a step as it
// normally goes), trained for real, on `data` (nullptr: the scenario's own). Throws
// lockstep::Error naming why for a run that keeps no memory ledger (model parallelism, sync mode
// ssp or async).
PeakMemory peak_after_one_step(const Scenario& scenario,
                               std::shared_ptr<const Dataset> data = nullptr);

// The least-sharded stage (none, optimizer, gradients, parameters, in that order) whose worker
// holds at most `budget_bytes` at its peak after one step of `scenario`; nothing when none does.
// A stage the scenario cannot take (validate() refuses it) does not fit.
std::optional<Sharding> least_sharding_within(const Scenario& scenario, std::int64_t budget_bytes,
                                              std::shared_ptr<const Dataset> data = nullptr);

// Refuses a run whose worker would hold more than `scenario.memory_budget_bytes` at its peak,
// before it trains: throws lockstep::Error with the ledger at the peak, the line at which the
// budget runs out, and the least-sharded stage that would fit (or that none does). Nothing
// happens without a budget. make_run() calls it, so every run keeps to its budget.
void check_memory_budget(const Scenario& scenario, std::shared_ptr<const Dataset> data = nullptr);

} // namespace lockstep
