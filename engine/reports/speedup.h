#pragma once

#include "reports/metrics.h"
#include "scenario/scenario.h"

namespace lockstep {

// Fills baseline_time_s, speedup and efficiency of a run of `scenario` from the one-worker
// baseline's time: the one place the formula is written. Strong scaling (and every
// model-parallel run) does the same work as the baseline, so speedup is the ratio of times; weak
// scaling does N times the work, so it is the ratio of throughputs. Efficiency is speedup per
// worker.
void set_speedup(RunMetrics& m, const Scenario& scenario, double baseline_time_s);

} // namespace lockstep
