#pragma once

#include "core/rng.h"
#include "data/data.h"
#include "model/optimizer.h"
#include "reports/metrics.h"
#include "trace/trace.h"

#include <cstdint>
#include <vector>

namespace lockstep {

// A data-parallel run as it stands between two steps, given to a run that agrees another way
// (bsp, ssp, async, local) and goes on from there: the same model, optimizer state, data
// positions, clock and accounts, so the switch costs only what it really costs.
//
// A run with replicas that differ (local SGD between two averagings) averages them first, with
// its collective, in the trace; a run through the parameter server lets its workers finish what
// they are computing, drops the gradients not yet applied, and has every worker pull the newest
// model. Each worker keeps worker 0's optimizer state (under local SGD each replica had its own).
struct Handover {
    std::int64_t steps_done = 0;
    std::int64_t ordinal = 0;
    std::vector<double> parameters; // the one model
    Optimizer optimizer{OptimizerConfig{}, 0};
    std::vector<DataCursor> cursors; // per lane
    std::vector<Ticks> free_at;      // per lane: when it may start its next computation
    std::vector<LaneTotals> spent;   // per lane, so far
    std::int64_t samples = 0;
    std::int64_t bytes_moved = 0;
    std::int64_t bytes_inter_node = 0;
    std::vector<ProgressPoint> progress;
    StepSnapshot last; // the last step's snapshot: the loss so far
    Rng run_rng{0};
    // The staleness of every gradient applied so far (none in a bulk-synchronous run).
    std::int64_t applied = 0, staleness_total = 0, max_staleness = 0;
    std::int64_t averagings = 0; // local SGD's, so far
    // Gradients computed and thrown away at the switch (and at switches before it).
    int dropped_gradients = 0;
};

} // namespace lockstep
