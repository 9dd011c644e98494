#pragma once

#include "failures/failure.h"
#include "trace/trace.h"

#include <array>
#include <cstdint>
#include <span>
#include <vector>

namespace lockstep {

// What one data-parallel worker holds, in bytes, read off its own buffers (their capacity) at the
// end of each step: its parameters; its gradient (with accumulation, the micro-batch sum too);
// its optimizer's state (SGD's velocity, Adam's two moments); its activations (every layer's
// outputs and deltas for a chunk of rows, and its batch's rows); and the kernels' workspace (the
// transposed copies of the weights and of the gradient). `peak`: the largest total it reached.
struct WorkerMemory {
    std::int64_t parameters = 0, gradients = 0, optimizer = 0, activations = 0, workspace = 0;
    std::int64_t peak = 0;            // the most held at once, of all kinds together
    std::int64_t parameters_peak = 0; // the most parameters held at once (gathered ones too)
    std::int64_t total() const {
        return parameters + gradients + optimizer + activations + workspace;
    }
};

// Where one worker's time went, in seconds on the run's clock.
struct WorkerMetrics {
    double compute_s = 0.0;
    double communication_s = 0.0; // send, receive, reduce, fixed communication
    double waiting_s = 0.0;       // waiting for peers, plus injected pauses
    double update_s = 0.0;
    double checkpoint_s = 0.0; // writing, syncing and committing checkpoints
    double restore_s = 0.0;    // reading a checkpoint back after a failure
    double failed_s = 0.0;     // down: crashed, until replaced or the run's end
};

// The loss after one step, with the modelled (or measured) time and energy spent so far: what
// time to a target loss is read from.
struct ProgressPoint {
    std::int64_t step = 0;
    double time_s = 0.0;
    double loss = 0.0;
    double energy_j = 0.0; // spent so far, every lane at the scenario's power prices
};

// What a pipeline step moved and how long stages sat idle, over the run.
struct PipelineReport {
    double bubble_fraction = 0.0;       // idle stage-time / all stage-time
    int peak_inflight_microbatches = 0; // the most any stage held at once, as counted while running
    std::int64_t activation_bytes = 0;  // forward, stage to stage
    std::int64_t activation_gradient_bytes = 0; // backward, stage to stage
    std::int64_t gradient_bytes = 0;            // hybrid: each stage's all-reduce across replicas
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
    std::int64_t bytes_moved = 0;      // all bytes sent between workers (none when times only)
    std::int64_t bytes_inter_node = 0; // of those, from one machine to another (topology)
    // Of those, in a sharded run: the reduce-scatters' and the all-gathers' (none unsharded).
    std::int64_t reduce_scatter_bytes = 0, all_gather_bytes = 0;
    bool trained = true; // false for a times-only run: no loss, accuracy or hashes
    double final_loss = 0.0;
    double final_accuracy = 0.0;
    bool replicas_aligned = true; // after the last step; false when not checked (not trained)
    std::int64_t misaligned_steps = 0;
    std::vector<WorkerMetrics> per_worker; // one per worker the run started with
    std::vector<WorkerMemory> memory;      // data parallelism: one per worker it started with
    PipelineReport pipeline; // pipeline and hybrid runs: the bubble, what crossed the stages

    // Failures and what they cost. Lost work is what a rollback threw away and had to redo.
    int workers_at_end = 1;             // fewer than workers after an elastic shrink or a death
    std::int64_t failures = 0;          // crashes
    std::int64_t lost_steps = 0;        // steps done (or begun) again after rollbacks
    double lost_worker_s = 0.0;         // worker-seconds of the work thrown away
    double detection_s = 0.0;           // from each crash to its detection, summed
    double recovery_s = 0.0;            // from each detection until training went on, summed
    std::int64_t dropped_gradients = 0; // backup workers: late gradients left out (and those on
                                        // their way when a run changed its way of agreeing)
    std::int64_t averagings = 0;        // local SGD: times the replicas averaged their parameters
    std::int64_t abandoned_steps = 0;   // stopped at a bucket mismatch: nothing applied
    std::int64_t overflow_steps = 0;    // skipped: the summed gradient overflowed comm_precision
    double loss_scale = 1.0;            // the loss scale the run ended with (1: not scaled)
    // With compare_precision, per step run: the largest difference between the summed gradient
    // the step used and the float64 reference (infinity when the sum overflowed).
    std::vector<double> precision_gap;
    // How the gradient left each worker (data parallelism): its buckets (1: the whole gradient
    // after backward), the largest one's bytes, the micro-batches added up before each
    // reduction; and, per worker and averaged over them, the time its gradient collectives took
    // (waits inside them included) and the part not hidden behind its own computation.
    int buckets = 1;
    std::int64_t bucket_bytes = 0;
    int accumulation = 1;
    double collective_s = 0.0;
    double exposed_communication_s = 0.0;
    double overlap_fraction = 0.0;    // 1 - exposed / collective: the share hidden (0 without any)
    std::int64_t useful_samples = 0;  // samples whose gradients reached the final model
    double goodput = 0.0;             // useful samples per second of the run's time
    double energy_j = 0.0;            // every worker's lane, at the scenario's power prices
    double energy_per_sample_j = 0.0; // per useful sample

    // Loosely synchronised runs (sync ssp, async): the staleness of the applied gradients, in
    // updates between the version a gradient was computed on and the one it joined.
    std::int64_t max_staleness = 0;
    double mean_staleness = 0.0;

    // Filled by run_scenario() from the one-worker baseline.
    double baseline_time_s = 0.0;
    double speedup = 0.0;
    double efficiency = 0.0;
};

// One lane's time per bucket (TimeBucket::Compute .. Failed), in exact ticks while a run goes on.
struct LaneTotals {
    std::array<Ticks, 7> ticks{};
    void add(const TraceEvent& e); // overlapping kinds and instants add nothing
    void add(TimeBucket bucket, Ticks duration) {
        ticks[static_cast<std::size_t>(bucket)] += duration;
    }
    WorkerMetrics seconds() const;
};

// Adds up a trace's events per worker and kind.
std::vector<WorkerMetrics> worker_metrics(std::span<const TraceEvent> events, int workers);

// The run-wide figures every trainer reports the same way, from its lanes and its end time:
// per_worker, the means over workers, step time, throughput, goodput and energy. Needs
// m.samples, m.steps_run and m.useful_samples set first.
void summarise_lanes(RunMetrics& m, std::vector<WorkerMetrics> lanes, double total_time_s,
                     const EnergyConfig& power);

// Energy of lanes that run until `total_time_s`: each second in a state at that state's power,
// and every second not accounted for (finished early, failed) at idle power.
double energy_joules(std::span<const WorkerMetrics> lanes, double total_time_s,
                     const EnergyConfig& power);

} // namespace lockstep
