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
    // The same with `schedule` (a gradient bucket's, which touches only its range of `gradient`).
    virtual void all_reduce(const CommSchedule& schedule, std::span<double> gradient,
                            const Clock& clock, std::int64_t step,
                            std::vector<TraceEvent>& events) = 0;
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
struct RankStep {
    double loss = 0.0;         // this rank's batch loss
    std::uint64_t hash = 0;    // its parameters after the update
    std::uint64_t correct = 0; // classification: right answers in its batch
    std::uint64_t count = 0;   // examples in its batch
    Ticks end = 0;             // the end of its update, on its clock
};

// One worker of a data-parallel run, alone in its process: worker `rank`'s replica, optimizer,
// data cursor and generator, set up exactly as DataParallelTrainer sets up its worker `rank`, and
// the same step: compute the gradient of its own batch (of K micro-batches with accumulation),
// scale it by the rule's weight, all-reduce it with the other ranks (bucket after bucket, each
// during backward when the scenario's buckets overlap and the group allows it), update, hash. So N
// ranks, one per process, end with the bits of DataParallelTrainer's N workers on threads. The
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
    // every worker's. encode_worker_file(state, rank(), ...) then writes this rank's file.
    TrainingState state_for_files() const;
    // Puts this rank's part of a saved state back (its cursor, the shared rest) between steps.
    // Throws lockstep::Error when the state does not fit the run, changing nothing.
    void restore(const TrainingState& state);
    // An event of work done for this rank outside the step (writing its checkpoint file).
    void add_event(const TraceEvent& event) { record_outside(event); }
    std::uint64_t scenario_hash() const { return hash_; }
    Ticks now() const { return clock_->now(); } // on this rank's clock

    int rank() const { return rank_; }
    const Scenario& scenario() const { return scenario_; }
    const std::vector<double>& parameters() const { return parameters_; }
    const std::vector<RankStep>& history() const { return history_; }
    const std::vector<TraceEvent>& events() const { return events_; }
    WorkerMetrics spent() const { return spent_.seconds(); }
    std::int64_t samples() const { return samples_; }

private:
    void record(const TraceEvent& event);
    void record_outside(const TraceEvent& event);
    // Steps 2-3 with the buckets leaving during backward: a communication thread reduces each
    // bucket as soon as this rank's backward has finished its layers. Returns the loss.
    LossResult compute_and_reduce_live(RankGroup& group);
    void finish_step(const LossResult& last); // 4-5: update, hash, the step's record

    Scenario scenario_;
    std::shared_ptr<const Dataset> data_;
    int rank_ = 0;
    std::uint64_t hash_ = 0; // the scenario's, as checkpoints carry it
    Rng run_rng_;            // the run's generator, drawn as the threaded trainer draws it
    double weight_ = 1.0;    // the rule's weight of this rank's gradient
    std::vector<double> parameters_;
    Optimizer optimizer_;
    std::optional<DataCursor> cursor_; // set once the scenario is checked
    std::vector<double> gradient_;
    BatchScratch scratch_;
    detail::BucketPlan buckets_; // the scenario's gradient buckets, if any
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
