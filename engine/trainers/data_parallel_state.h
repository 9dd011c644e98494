#pragma once

// A data-parallel run's state, in parts that DataParallelTrainer (data_parallel.h) keeps: its
// collective, its accounts, its failures, its checkpoints, and what one step fills in.

#include "collectives/buckets.h"
#include "collectives/schedule.h"
#include "collectives/sharding.h"
#include "collectives/transport.h"
#include "data/data.h"
#include "failures/failure.h"
#include "reports/metrics.h"
#include "reports/results.h"
#include "trace/trace.h"
#include "trainers/gradient.h"

#include <cstdint>
#include <filesystem>
#include <optional>
#include <utility>
#include <vector>

namespace lockstep {

// The collective for the workers there are (build_collective()): its schedule, the bytes it
// moves, and each worker's weight under the reduction rule.
struct DataParallelCollective {
    CommSchedule schedule;
    std::int64_t bytes = 0;
    std::int64_t inter_bytes = 0; // of those, between machines
    std::vector<int> nodes;       // per worker: its machine
    std::vector<double> weights;
    // Gradient buckets (scenario gradients.bucket_kb): each with its own schedule, reduced
    // in this order. Empty: the whole gradient in one collective once backward ends.
    std::vector<Bucket> buckets;
    std::vector<CommSchedule> bucket_schedules;
    std::vector<std::size_t> layer_parameters; // per layer of the model
    // Sharded (scenario sharding): the all-reduce's two halves and each worker's shard.
    std::optional<ShardedCollective> sharded;
    // Sharded parameters (ZeRO 3, FSDP): each layer's own halves over that layer's
    // parameters, every worker holding a piece of every layer.
    std::vector<ShardedCollective> layers;
};
// What the run did and what it cost, added up as it goes: what metrics() reports
// (data_parallel_accounts.cpp).
struct DataParallelAccounts {
    std::int64_t samples = 0; // computed, lost and dropped ones included
    std::int64_t bytes_moved = 0;
    std::int64_t bytes_inter_node = 0;                           // of those, between machines
    std::int64_t reduce_scatter_bytes = 0, all_gather_bytes = 0; // sharded: by half
    std::int64_t misaligned_steps = 0;
    std::int64_t checkpoints = 0; // committed
    std::int64_t checkpoint_bytes = 0;
    std::int64_t lost_steps = 0, lost_samples = 0;           // redone after a rollback
    std::int64_t dropped_gradients = 0, dropped_samples = 0; // late, with backup workers
    Ticks lost_lane_time = 0, detection = 0, recovery = 0;
    std::vector<LaneTotals> spent;    // per lane, whole run
    std::vector<WorkerMemory> memory; // per lane, as of the last step, with its peak
    // Gradients applied so far with their staleness (a loosely synchronised run's, before a
    // switch to this one).
    std::int64_t applied = 0, staleness_total = 0, max_staleness = 0;
    std::int64_t averagings = 0;                             // local SGD's parameter averagings
    std::int64_t abandoned_steps = 0, abandoned_samples = 0; // stopped at a bucket mismatch
    std::int64_t overflow_steps = 0;   // skipped: the summed gradient overflowed its format
    std::vector<double> precision_gap; // compare_precision: per step
    std::vector<ProgressPoint> progress;
    // Per lane, whole run: the time its gradient collectives took (their rounds, waits
    // inside them included), and the part of it not hidden behind its own computation.
    std::vector<Ticks> collective, exposed;
};
// Failures: what is still to happen, which lanes are left, what happened, and where each step
// began, to count what a rollback loses (data_parallel_failures.cpp).
struct DataParallelFaults {
    std::vector<FailureSpec> pending; // crashes, corruptions, slow links not yet due
    std::vector<int> lane_of;         // worker index -> trace lane
    // Lanes gone for good, how far each is drawn failed, and whether its crash is drawn yet.
    struct DeadLane {
        int lane = -1;
        Ticks drawn = 0;
        bool crash_drawn = false;
    };
    std::vector<DeadLane> dead;
    std::vector<double> link_factor;          // per lane: slow-link factor on its messages
    std::vector<Ticks> step_started;          // per step: when it began (for lost work)
    std::vector<std::int64_t> samples_before; // per step: samples processed before it
    std::vector<Recovery> recoveries;
    int crashing = -1;        // worker index crashing in this step's compute phase
    int misordering = -1;     // worker index reducing its buckets out of order this step
    bool rolled_back = false; // a crash during this step's checkpoint rolled the run back
};
// Where the run saves its checkpoints, and which of those there are its own
// (data_parallel_checkpoints.cpp).
struct DataParallelCheckpoints {
    std::filesystem::path directory; // empty: no checkpoints
    std::vector<std::int64_t> own;   // steps of this run's checkpoints there, sorted
};
// What one step or one collective round fills in and the next clears.
struct DataParallelScratch {
    std::vector<TraceEvent> events;     // this step's events (only when a sink listens)
    std::vector<MemorySample> memory;   // this step's memory samples (only with a sink)
    std::vector<char> chosen;           // per worker, this step: its gradient is aggregated
    std::vector<double> chosen_weights; // per worker, this step: the rule's weight among them
    // compare_precision: each worker's data cursor as the step began, and what its float64
    // gradient takes.
    std::vector<DataCursor> reference_cursors;
    std::vector<BatchScratch> reference_scratch;
    std::vector<std::vector<double>> reference_gradients;
    std::vector<std::vector<std::pair<Ticks, Ticks>>> busy; // per worker, this round
    std::vector<int> touched;                               // workers busy this round
    std::vector<Ticks> round_start; // where each lane began a measured round
    std::vector<TraceEvent> priced; // a collective's events from the cost model
    // Per worker, this step: where its computation began and how long it took (-1: it did
    // not compute to the end), for the buckets' ready times.
    std::vector<Ticks> computed_from, computed_took;
    // On the measured clock with overlap: the buckets' collectives ran on a communication
    // thread during backward (data_parallel_live.cpp). Per worker: when the last rows'
    // backward began and each layer's gradient was done; then the rounds' events, and per
    // worker where its lane ended, its time in rounds and the rounds themselves.
    struct Live {
        bool ran = false;
        std::vector<Ticks> backward_from;
        std::vector<std::vector<Ticks>> layer_done;
        std::vector<TraceEvent> events;
        std::vector<Ticks> lane_end, busy;
        std::vector<std::vector<std::pair<Ticks, Ticks>>> rounds; // per worker, its rounds
    } live;
};

} // namespace lockstep
