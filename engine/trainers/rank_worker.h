#pragma once

#include "checkpoint/checkpoint.h"
#include "clocks/clock.h"
#include "collectives/schedule.h"
#include "collectives/transport.h"
#include "core/indirect.h"
#include "data/data.h"
#include "model/model.h"
#include "model/optimizer.h"
#include "reports/metrics.h"
#include "scenario/scenario.h"
#include "trace/trace.h"
#include "trainers/gradient.h"
#include "trainers/setup.h"

#include <cstdint>
#include <memory>
#include <optional>
#include <span>
#include <vector>

namespace lockstep {

// The other ranks of a data-parallel run, as one rank sees them: a process-based backend (Open
// MPI) implements this over its messages, a test over threads.
class RankGroup {
public:
    virtual ~RankGroup() = default;
    // Returns once every rank has called it.
    virtual void barrier() = 0;
    // Combines `gradient` with the other ranks' gradients so that every rank ends with their sum,
    // bitwise the same everywhere, and appends this rank's part of it to `events` (times on
    // `clock`, `step` the step it belongs to).
    virtual void all_reduce(std::span<double> gradient, const Clock& clock, std::int64_t step,
                            std::vector<TraceEvent>& events) = 0;
    // The same with `schedule`: a gradient bucket's, which touches only its range of `gradient`,
    // or one half of a sharded all-reduce (collectives/sharding.h), which leaves each rank its
    // shard of the sum (a reduce-scatter) or every rank every shard (an all-gather).
    virtual void all_reduce(const CommSchedule& schedule, std::span<double> gradient,
                            const Clock& clock, std::int64_t step,
                            std::vector<TraceEvent>& events) = 0;
    // Every rank's `mine`, one after another in rank order: on every rank when `everywhere`,
    // otherwise on rank 0 only (empty elsewhere). How ranks that each hold a shard put the whole
    // together, to hash it or to write a checkpoint: not part of training, so no events.
    virtual std::vector<double> gather_pieces(std::span<const double> mine, bool everywhere) = 0;
    // Whether another thread may call all_reduce(schedule, ...) while the rank's own thread
    // computes (the two never call the group at the same time): what lets a bucket leave during
    // backward. The same answer on every rank.
    virtual bool reduces_beside_compute() const { return false; }
};

// The all-reduce of a schedule on one rank: every round in order over `transport`, with a Send
// event for each of the round's messages that leave this rank and a Receive event for each that
// arrives, both spanning the rank's round.
void schedule_all_reduce(const CommSchedule& schedule, Transport& transport, int rank,
                         std::span<double> gradient, const Clock& clock, std::int64_t step,
                         std::vector<TraceEvent>& events);

// What one rank's step left behind, for rank 0 to gather: plain numbers, the same layout in
// every process.
// One sample of a rank's memory ledger, and the step it was taken in.
struct RankMemory {
    std::int64_t step = 0;
    MemorySample sample; // its worker the rank, its time on the rank's clock
};

struct RankStep {
    double loss = 0.0;          // this rank's batch loss
    std::uint64_t hash = 0;     // its parameters after the update
    std::uint64_t correct = 0;  // classification: right answers in its batch
    std::uint64_t count = 0;    // examples in its batch
    Ticks end = 0;              // the end of its update, on its clock
    std::uint64_t overflow = 0; // 1: the summed gradient overflowed comm_precision, not applied
    double loss_scale = 1.0;    // what its gradient was multiplied by before the wire format
};

// One worker of a data-parallel run, alone in its process: worker `rank`'s replica, optimizer,
// data cursor and generator, set up exactly as DataParallelTrainer sets up its worker `rank`, and
// the same step: compute the gradient of its own batch (of K micro-batches with accumulation),
// scale it by the rule's weight, all-reduce it with the other ranks (bucket after bucket, each
// during backward when the scenario's buckets overlap and the group allows it), update, hash.
// Sharded (scenario sharding), it keeps its shard only, as the threaded worker does: stages 1 and
// 2 reduce-scatter the gradient, update the rank's shard and all-gather the parameters; stage 3
// goes layer by layer, each layer gathered before its forward and backward pass and its gradient
// reduce-scattered after. So N ranks, one per process, end with the bits of DataParallelTrainer's
// N workers on threads. The
// clock is the measured one: the wall time of the real work on this rank, a slowdown and a pause
// realised as real sleeps. Injected faults, backups and fixed communication times belong to
// DataParallelTrainer; the constructor refuses a scenario that has them. Checkpoints are written by
// the ranks together (engine/mpi/): each writes its own worker file from state_for_files(), in the
// threaded run's format.
class RankWorker {
public:
    // Throws lockstep::Error when the scenario does not fit the data or a single rank, or `rank`
    // is not one of its workers.
    RankWorker(const Scenario& scenario, std::shared_ptr<const Dataset> data, int rank);

    // Time 0 of the run's clock is now: call on every rank just after a barrier.
    void start_clock() { clock_->resume_at(0); }
    // Keeps every event of the run, for a trace (the accounts are kept either way).
    void keep_events(bool keep) { keep_events_ = keep; }

    void step(RankGroup& group); // no-op once the scenario's steps are done
    bool finished() const { return step_ >= scenario_.steps; }
    std::int64_t steps_done() const { return step_; }

    // The run's whole state between steps as this rank knows it: the parameters, the optimizer
    // and the run's generator (the same on every rank), and its own data cursor, standing in for
    // every worker's. encode_worker_file(state, rank(), ...) then writes this rank's file. A
    // sharded rank holds a shard of the parameters or the optimizer state: every rank must call
    // this together, and the shards are gathered from all of them.
    TrainingState state_for_files(RankGroup& group);
    // Why a saved state cannot be restored into this run (every rank's part of it checked, so
    // that all ranks agree), or nothing.
    std::optional<std::string> misfit(const TrainingState& state) const;
    // Puts this rank's part of a saved state back (its cursor, the shared rest) between steps.
    // Throws lockstep::Error when the state does not fit the run, changing nothing.
    void restore(const TrainingState& state);
    // An event of work done for this rank outside the step (writing its checkpoint file).
    void add_event(const TraceEvent& event) { record_outside(event); }
    std::uint64_t scenario_hash() const { return hash_; }
    Ticks now() const { return clock_->now(); } // on this rank's clock

    int rank() const { return rank_; }
    const Scenario& scenario() const { return scenario_; }
    // Its parameters: the whole model, or with sharded parameters (stage 3) its pieces of it.
    const AlignedBuffer& parameters() const { return parameters_; }
    // The whole model after the last step: its replica, or with sharded parameters the pieces
    // put together on rank 0 (empty on the others).
    const AlignedBuffer& model_parameters() const {
        return shards_.layers.empty() ? parameters_ : whole_;
    }
    // Whether each rank holds pieces of the parameters only (sharded parameters, stage 3).
    bool parameters_sharded() const { return !shards_.layers.empty(); }
    double loss_scale() const { return loss_scale_.scale; } // this rank's, for the next step
    // The run's bytes per step in each half of a sharded all-reduce (none unsharded).
    std::int64_t reduce_scatter_bytes() const { return shards_.reduce_scatter_bytes; }
    std::int64_t all_gather_bytes() const { return shards_.all_gather_bytes; }
    const std::vector<RankStep>& history() const { return history_; }
    const std::vector<TraceEvent>& events() const { return events_; }
    WorkerMetrics spent() const { return spent_.seconds(); }
    // What its buffers held, by kind, and the most they held: the threaded worker's ledger.
    const WorkerMemory& memory() const { return memory_; }
    // Every sample of that ledger, as the threaded trainer hands them to the Memory view: kept
    // with the events (keep_events()).
    const std::vector<RankMemory>& memory_samples() const { return memory_samples_; }
    std::int64_t samples() const { return samples_; }

private:
    void record(const TraceEvent& event);
    void record_outside(const TraceEvent& event);
    // Steps 2-3 with the buckets leaving during backward: a communication thread reduces each
    // bucket as soon as this rank's backward has finished its layers. Returns the loss.
    LossResult compute_and_reduce_live(RankGroup& group);
    void finish_step(RankGroup& group, const LossResult& last); // 4-5: update, hash, record
    // Sharded runs: one half of an all-reduce on `buffer`, its events named after it.
    void run_half(RankGroup& group, const CommSchedule& half, std::span<double> buffer,
                  CollectiveHalf which, int layer = -1);
    // Stage 3: the step's passes layer by layer. Returns the loss.
    LossResult compute_layer_by_layer(RankGroup& group);
    void gather_layer(RankGroup& group, std::size_t layer);
    void reduce_scatter_layer(RankGroup& group, std::size_t layer);
    // Cuts the whole parameters and optimizer state this rank holds down to its shard (a
    // sharded run; a no-op otherwise).
    void keep_own_shard();
    void note_memory();
    // Where this rank's values lie in the whole model; every rank's, for putting them together.
    std::vector<ValueRun> runs_of(int rank) const;
    // The whole of one vector from every rank's pieces of it, on every rank or rank 0 only.
    AlignedBuffer joined(RankGroup& group, std::span<const double> mine, bool everywhere);

    Scenario scenario_;
    std::shared_ptr<const Dataset> data_;
    int rank_ = 0;
    std::uint64_t hash_ = 0;    // the scenario's, as checkpoints carry it
    Rng run_rng_;               // the run's generator, drawn as the threaded trainer draws it
    double weight_ = 1.0;       // the rule's weight of this rank's gradient
    LossScaleState loss_scale_; // its scale before a narrower wire format (1: not scaled)
    AlignedBuffer parameters_;
    Optimizer optimizer_;
    std::optional<DataCursor> cursor_; // set once the scenario is checked
    AlignedBuffer gradient_;
    BatchScratch scratch_;
    detail::BucketPlan buckets_;   // the scenario's gradient buckets, if any
    detail::ShardPlan shards_;     // the scenario's sharded collective, if any
    AlignedBuffer shard_gradient_; // stage 2: its shard of the summed gradient
    AlignedBuffer gathered_;       // stage 3: the layer a pass needs, while it needs it
    RangeGradient layer_gradient_; // stage 3: that layer's gradient until reduce-scattered
    AlignedBuffer whole_;          // stage 3, rank 0: the whole model after the last step
    WorkerMemory memory_;
    std::vector<RankMemory> memory_samples_;
    bool started_ = false; // noted what it holds before its first step
    Indirect<Clock> clock_{make_clock(ClockKind::Measured)};
    std::int64_t step_ = 0;
    std::int64_t samples_ = 0;
    bool keep_events_ = false;
    std::vector<TraceEvent> step_events_; // scratch: this step's events
    std::vector<TraceEvent> events_;
    std::vector<RankStep> history_;
    LaneTotals spent_;
};

} // namespace lockstep
