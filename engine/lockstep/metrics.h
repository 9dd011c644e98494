#pragma once

#include "lockstep/trace.h"

#include <cstdint>
#include <span>
#include <vector>

namespace lockstep {

// Where one worker's time went, in seconds on the run's clock.
struct WorkerMetrics {
    double compute_s = 0.0;
    double communication_s = 0.0; // send, receive, reduce, fixed communication
    double waiting_s = 0.0;       // waiting for peers, plus injected pauses
    double update_s = 0.0;
    double checkpoint_s = 0.0; // writing, syncing and committing checkpoints
};

// A run summarised. compute_s, communication_s and waiting_s are means over the workers, so for
// balanced runs they add up (with update_s) to total_time_s.
struct RunMetrics {
    int workers = 1;
    std::int64_t steps = 0;
    std::int64_t samples = 0;   // samples processed by all workers together
    double total_time_s = 0.0;  // end of the last worker's last step
    std::int64_t steps_run = 0; // by this run: fewer than steps after a restore
    double step_time_s = 0.0;   // total_time_s / steps_run
    double throughput = 0.0;    // samples per second
    double compute_s = 0.0;
    double communication_s = 0.0;
    double waiting_s = 0.0;
    double update_s = 0.0;
    double checkpoint_s = 0.0;
    std::int64_t checkpoints = 0;      // committed by this run
    std::int64_t checkpoint_bytes = 0; // written to storage, manifests included
    std::int64_t bytes_moved = 0;      // all bytes sent between workers
    bool trained = true;               // false for a times-only run: no loss, accuracy or hashes
    double final_loss = 0.0;
    double final_accuracy = 0.0;
    bool replicas_aligned = true; // after the last step
    std::int64_t misaligned_steps = 0;
    std::vector<WorkerMetrics> per_worker;

    // Filled by run_scenario() from the one-worker baseline.
    double baseline_time_s = 0.0;
    double speedup = 0.0;
    double efficiency = 0.0;
};

// Adds up a trace's events per worker and kind.
std::vector<WorkerMetrics> worker_metrics(std::span<const TraceEvent> events, int workers);

} // namespace lockstep
