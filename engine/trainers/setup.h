#pragma once

#include "checkpoint/checkpoint.h"
#include "collectives/buckets.h"
#include "collectives/schedule.h"
#include "collectives/sharding.h"
#include "data/data.h"
#include "model/optimizer.h"
#include "reports/metrics.h"
#include "scenario/scenario.h"
#include "trace/trace.h"

#include <cstddef>
#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <vector>

// Set-up steps the trainers share (setup.cpp): data-parallel, pipeline and tensor runs start alike.
namespace lockstep::detail {

// The scenario's shards over `rows` examples: its shard_sizes, or equal shards.
std::vector<Shard> make_shards(const Scenario& s, std::size_t rows);
// Worker k's place in its shard at the start of a run: its own generator stream of the seed.
DataCursor fresh_cursor(const Scenario& s, int worker, Shard shard);
// The parameters a run starts from: the scenario's file, or drawn from the seed.
std::vector<double> initial_parameters(const Scenario& s);
// Throws lockstep::Error when the data does not fit the model (features, task, classes).
void check_model_fits(const Scenario& s, const Dataset& data);
// The same, and that there is data, at least a row per worker (data-parallel runs).
void check_data_fits(const Scenario& s, const Dataset* data);
// Why a verified checkpoint cannot be restored into a run of `s` (hash `hash`) whose workers
// read the shards `shards`, or nothing when it can: another scenario or worker count, another
// model, a step outside the run, and for a full restore an optimizer state of another kind or a
// worker's data position or order that does not fit its shard.
std::optional<std::string> state_misfit(const Scenario& s, std::uint64_t hash,
                                        std::span<const Shard> shards, const TrainingState& state,
                                        RestoreMode mode);

// Adds a step's events to each lane's account (the model-parallel trainers, which keep their
// step's events whether or not anyone listens).
void add_lane_time(std::vector<WorkerMetrics>& spent, std::span<const TraceEvent> events);
// Hands a step of a run that never rolls back to the sink (if any): its events in time order,
// each marked with its executed step, then its snapshot.
void hand_over_step(TraceSink* sink, std::vector<TraceEvent>& events, StepSnapshot& snapshot,
                    std::int64_t step);

// The workers in each of the scenario's machines, as the schedules take it (0: one machine).
int workers_per_node(const Scenario& s);
// The machine of each of the run's workers, worker k being trace lane `lanes[k]`.
std::vector<int> nodes_of(const Scenario& s, std::span<const int> lanes);
// The machine of each of the scenario's workers, worker k being lane k.
std::vector<int> nodes_of(const Scenario& s);

// The scenario's gradient buckets (gradients.bucket_kb) for its workers, each with its schedule,
// and the bytes they move, of them `inter_bytes` between machines (workers in machines `nodes`;
// none given: not counted); no buckets when the gradient leaves whole (no cap, one worker, no
// collective). Every model layer's parameter count either way.
struct BucketPlan {
    std::vector<Bucket> buckets;
    std::vector<CommSchedule> schedules;
    std::vector<std::size_t> layer_parameters;
    std::int64_t bytes = 0;
    std::int64_t inter_bytes = 0;
};
BucketPlan plan_buckets(const Scenario& s, std::span<const int> nodes = {});

// The scenario's sharded collective (scenario sharding): stages 1 and 2 split the whole
// gradient's all-reduce in its halves, stage 3 each layer's; and the bytes a step moves in each
// half (stage 3 gathers every layer twice per micro-batch: before forward and before backward).
// Nothing when the
// run is not sharded, has one worker or no collective.
struct ShardPlan {
    std::optional<ShardedCollective> whole; // stages 1 and 2
    std::vector<ShardedCollective> layers;  // stage 3, one per layer
    std::int64_t reduce_scatter_bytes = 0, all_gather_bytes = 0;
    std::int64_t inter_bytes = 0; // of both halves, between machines (when `nodes` are given)
};
ShardPlan plan_sharding(const Scenario& s, std::span<const int> nodes = {});
// Cuts a worker's whole state down to its shard, the values at `runs`: its optimizer state, and
// with sharded parameters its parameters; its gradient buffers then take its shard's room (its
// pieces' gradient in stage 3, the shard of the sum in stage 2).
void keep_shard(const Scenario& s, std::span<const ValueRun> runs, Optimizer& optimizer,
                AlignedBuffer& parameters, AlignedBuffer& gradient, AlignedBuffer& shard_gradient);

// A pause a worker takes while the run goes on, checked alike by every trainer that takes one:
// worker `worker` stalls `seconds` (0 to 86400). Throws lockstep::Error naming what is wrong.
void check_pause(const Scenario& s, int worker, double seconds);

} // namespace lockstep::detail
