#pragma once

#include "clocks/clock.h"
#include "collectives/schedule.h"
#include "core/rng.h"
#include "scenario/scenario.h"
#include "trace/trace.h"

#include <cstddef>
#include <cstdint>
#include <span>
#include <vector>

namespace lockstep {

// The modelled clock's prices, in one place. Data-parallel, pipeline, tensor and hybrid runs all
// ask these, so the same batch or the same schedule costs the same whichever trainer runs it.

// Seconds of compute per sample for the whole model, forward and backward together: the
// scenario's compute_s_per_sample or, in textbook mode (one_worker_compute_s), the one-worker
// job's time spread evenly over the samples it handles, `reference_batch` per step.
double compute_s_per_sample(const Scenario& scenario, std::size_t reference_batch);

// The one-worker time of `steps` steps of a model-parallel run: the whole global batch (every
// hybrid replica's) computed and applied by one worker holding the whole model. What a pipeline,
// tensor or hybrid run's speedup is measured against.
double model_parallel_baseline_time_s(const Scenario& scenario, std::int64_t steps);

// One worker's computation of `samples` samples on the modelled clock: `s_per_sample` each,
// times the worker's slowdown, with the scenario's jitter and random stragglers drawn from `rng`
// (drawn in the order the run meets its computations, so never in the threads' order).
Ticks compute_cost(const Scenario& scenario, double s_per_sample, int worker, std::size_t samples,
                   Rng& rng);

// A backward pass costs twice a forward one: a third of the compute forward, two thirds back.
struct PassCost {
    Ticks forward = 0;
    Ticks backward = 0;
};
PassCost split_passes(double seconds);

// A data-parallel worker's computation of `took`, pass by pass, for gradient buckets: the forward
// third, then backward layer by layer from the last, each layer's part of backward in proportion
// to its parameters (the products it does). `backward[l]` is layer l's; with the forward part
// they add up to `took` exactly (the rounding goes to layer 0, the last backward reaches).
struct LayerCosts {
    Ticks forward = 0;
    std::vector<Ticks> backward;
};
LayerCosts price_layers(std::span<const std::size_t> layer_parameters, Ticks took);

// One message: alpha + bytes * beta on the link, stretched by a slow link's factor, then
// bytes * gamma at the receiver when it adds the bytes in.
struct MessagePrice {
    Ticks transfer = 0;
    Ticks reduce = 0;
};
MessagePrice price_message(const CostConfig& cost, std::int64_t bytes, Message::Op op,
                           double slow = 1.0);

// The link between two trace lanes (workers): the scenario's one network, or with machines
// (cost.topology) the link inside a machine or the network between two.
struct LinkPrice {
    double alpha_s = 0.0;
    double beta_s_per_byte = 0.0;
    bool between_nodes = false;
};
LinkPrice link_between(const CostConfig& cost, int lane_a, int lane_b);
// A message on `link`: alpha + bytes * beta, stretched by `slow`, then bytes * gamma to add.
MessagePrice price_message(const CostConfig& cost, const LinkPrice& link, std::int64_t bytes,
                           Message::Op op, double slow = 1.0);

// Checkpoint storage, written or read: `bytes` at cost.checkpoint_s_per_byte, then `syncs`
// fsyncs at cost.fsync_s each (a worker's own storage: no link, no contention).
Ticks price_storage(const CostConfig& cost, std::uint64_t bytes, int syncs = 0);

// A worker's links' slowdown at `step` from the scenario's slow-link faults: the factor of the
// last one of that worker at or before `step` (a later step wins; 1 without any).
double slow_link_factor(const FailureConfig& failures, int worker, std::int64_t step);

// Who takes part in a collective: participant p of the schedule is trace lane `lanes[p]`, has
// reached `clocks[p]` on the run's clock, and has links slowed by `slow[p]` (empty: none).
struct Participants {
    std::span<const int> lanes;
    std::span<Ticks> clocks;
    std::span<const double> slow;
};

// Where the participants' time went in the collective, each entry per participant.
struct CollectiveTime {
    std::vector<Ticks> busy;    // sending, receiving or adding (the union of those intervals)
    std::vector<Ticks> waiting; // gaps before and between them
};

// Prices a collective's schedule on the modelled clock, round by round. A message is ready when
// both its ends have reached the round; a link (a sender's way out, a receiver's way in) serves
// its messages one at a time, the earliest ready first; it takes price_message() on the link
// between its lanes. With machines, a message from one machine to another also needs its
// machine's one way out and the other's one way in, each busy for the message's bytes (its
// latency is on the wire, not in the queue): the workers of a machine share the slow network,
// and that contention is priced. Every gap in a
// participant's round before its last activity is waiting. Advances the clocks to the end of the
// schedule and, when `events` is given, appends the Send, Receive, Reduce and Wait events with
// lanes as workers and rounds numbered from `first_round`. In textbook mode
// (cost.communication_s_per_step set) messages are not priced one by one: it changes nothing,
// and the step's communication is charge_fixed_communication()'s.
CollectiveTime price_schedule(const CommSchedule& schedule, const Participants& who,
                              const CostConfig& cost, std::int64_t step, int first_round,
                              std::vector<TraceEvent>* events);

// Textbook mode's communication, once per step: every lane waits for the slowest, then spends
// `seconds` communicating (`bytes` each). Appends Wait and Communicate events, advances the
// clocks.
void charge_fixed_communication(std::span<const int> lanes, std::span<Ticks> clocks, double seconds,
                                std::int64_t bytes, std::int64_t step,
                                std::vector<TraceEvent>& events);

} // namespace lockstep
