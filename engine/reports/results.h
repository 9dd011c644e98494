#pragma once

#include "checkpoint/checkpoint.h"
#include "failures/failure.h"
#include "reports/metrics.h"
#include "trace/trace.h"

#include <cstdint>
#include <filesystem>
#include <vector>

namespace lockstep {

// One crash and what the run did about it, times on the run's clock.
struct Recovery {
    FailureSpec cause;
    int worker = 0; // the lane that crashed
    std::int64_t crashed_at_step = 0;
    Ticks crashed = 0, detected = 0, resumed = 0;
    RecoveryPolicy policy = RecoveryPolicy::Restart;
    bool rolled_back = false;                   // restart and elastic roll back; backup does not
    std::int64_t restored_step = 0;             // where training went on from
    std::filesystem::path checkpoint;           // empty: restarted from the start
    std::vector<CheckpointInfo> rejected;       // newer ones that did not verify
    std::vector<std::filesystem::path> cleaned; // leftover temporary files removed
    std::int64_t lost_steps = 0;
    int workers_after = 0;
};
// One gradient a parameter server applied, in a loosely synchronised run (ssp, async).
struct AppliedGradient {
    int worker = 0;
    std::int64_t clock = 0;   // the worker's iteration that computed it
    std::int64_t version = 0; // the model version it was computed on
    int staleness = 0;        // updates applied between that version and this one
    Ticks at = 0;             // when the server applied it
};

// A run trained to its end: its summary, its model and its loss along the way.
struct RunResult {
    RunMetrics metrics;
    std::vector<double> parameters; // replica 0's final parameters
    std::vector<ProgressPoint> progress;
    std::vector<Recovery> recoveries; // crashes and what the run did about them
};

// One run of a speedup sweep.
struct SweepPoint {
    int workers = 1;
    RunMetrics metrics;
};

} // namespace lockstep
