// One data-parallel worker alone in its process: its step, its shard, its files (the step a layer
// at a time in rank_worker_layers.cpp).
#include "trainers/rank_worker.h"

#include "collectives/reduction.h"
#include "core/error.h"
#include "trainers/overlap.h"
#include "trainers/setup.h"

#include <algorithm>
#include <cmath>
#include <string>

namespace lockstep {

namespace {

// What a rank in a process of its own cannot do yet, named by the scenario's field.
void refuse_what_a_rank_cannot_do(const Scenario& s) {
    if (s.compare_precision)
        throw Error("compare_precision: works on threads only; run without --transport mpi to "
                    "compare with float64");
    if (s.model_parallel())
        throw Error("parallelism.mode: \"" + std::string(to_string(s.parallelism->mode)) +
                    "\": processes train data-parallel runs only");
    for (const FailureSpec& f : s.failures.events)
        if (f.kind != FailureKind::Pause)
            throw Error("failures: a " + std::string(to_string(f.kind)) +
                        " fault is injected into threads only; run without --transport mpi to "
                        "inject one");
    if (s.sync_mode() != SyncMode::Bsp)
        throw Error("sync.mode: \"" + std::string(to_string(s.sync_mode())) +
                    "\": processes agree every step (bsp) in this version; run without "
                    "--transport mpi for local SGD, ssp or async");
    if (s.failures.backup_workers > 0)
        throw Error("failures.backup_workers: backup workers run on threads only");
    if (s.checkpoint && s.checkpoint->restore != RestoreMode::Full)
        throw Error("checkpoint.restore: a run over processes restores the full state only");
    if (s.cost.communication_s_per_step)
        throw Error("cost.communication_s_per_step: a fixed communication time is for the "
                    "modelled clock; between processes the messages take what they really take");
}

} // namespace

RankWorker::RankWorker(const Scenario& scenario, std::shared_ptr<const Dataset> data, int rank)
    : scenario_(scenario)
    , data_(std::move(data))
    , rank_(rank)
    , run_rng_(Rng::stream(scenario.seed, 1))
    , optimizer_(scenario.optimizer, 0, scenario.model.precision) {
    validate(scenario_);
    refuse_what_a_rank_cannot_do(scenario_);
    detail::check_data_fits(scenario_, data_.get());
    if (rank < 0 || rank >= scenario_.workers)
        throw Error("rank " + std::to_string(rank) + " is not one of the scenario's " +
                    std::to_string(scenario_.workers) + " workers");
    // The pauses the scenario lists as faults are delays like any other.
    for (const FailureSpec& f : scenario_.failures.events)
        scenario_.delays.pauses.push_back({f.worker, f.step, f.seconds});
    scenario_.failures.events.clear();

    // Worker `rank` exactly as DataParallelTrainer builds it.
    const auto shards = detail::make_shards(scenario_, data_->size());
    const std::vector<double> initial = detail::initial_parameters(scenario_);
    parameters_.assign(initial.begin(), initial.end());
    optimizer_ = Optimizer(scenario_.optimizer, parameters_.size(), scenario_.model.precision);
    cursor_ = detail::fresh_cursor(scenario_, rank, shards[static_cast<std::size_t>(rank)]);
    gradient_.assign(parameters_.size(), 0.0);
    buckets_ = detail::plan_buckets(scenario_);
    shards_ = detail::plan_sharding(scenario_);
    if (!shards_.layers.empty() && rank_ == 0)
        whole_ = parameters_;
    keep_own_shard();
    std::vector<double> samples;
    for (int i = 0; i < scenario_.workers; ++i)
        samples.push_back(static_cast<double>(scenario_.batch_of(i)));
    weight_ = reduction_weights(scenario_.rule, scenario_.workers,
                                samples)[static_cast<std::size_t>(rank)];
    hash_ = lockstep::scenario_hash(scenario);
    if (scenario_.loss_scale)
        loss_scale_.scale = scenario_.loss_scale->initial;
}

std::vector<ValueRun> RankWorker::runs_of(int rank) const {
    if (!shards_.layers.empty())
        return layer_pieces(shards_.layers, rank);
    if (shards_.whole) {
        const auto [begin, end] = shards_.whole->shards[static_cast<std::size_t>(rank)];
        return {{begin, end - begin}};
    }
    return {{0, scenario_.model.parameter_count()}};
}

void RankWorker::keep_own_shard() {
    if (!shards_.whole && shards_.layers.empty())
        return;
    detail::keep_shard(scenario_, runs_of(rank_), optimizer_, parameters_, gradient_,
                       shard_gradient_);
}

AlignedBuffer RankWorker::joined(RankGroup& group, std::span<const double> mine, bool everywhere) {
    const std::vector<double> pieces = group.gather_pieces(mine, everywhere);
    if (pieces.empty())
        return {};
    AlignedBuffer whole(scenario_.model.parameter_count());
    std::size_t from = 0;
    for (int k = 0; k < scenario_.workers; ++k) {
        const std::vector<ValueRun> runs = runs_of(k);
        std::size_t size = 0;
        for (const auto& run : runs)
            size += run.second;
        place_runs(std::span(pieces).subspan(from, size), runs, whole);
        from += size;
    }
    return whole;
}

TrainingState RankWorker::state_for_files(RankGroup& group) {
    TrainingState state;
    state.step = step_;
    state.scenario_hash = hash_;
    state.precision = scenario_.model.precision;
    if (scenario_.loss_scale)
        state.loss_scale = loss_scale_;
    state.parameters.assign(parameters_.begin(), parameters_.end());
    state.optimizer = optimizer_.state();
    state.run_rng = run_rng_.state();
    state.cursors.assign(static_cast<std::size_t>(scenario_.workers), cursor_->state());
    if (!shards_.whole && shards_.layers.empty())
        return state;
    // The shards, put together on every rank. Which vectors the optimizer keeps follows from its
    // kind, the same on every rank (a rank's shard may be empty).
    const OptimizerState kept = Optimizer(scenario_.optimizer, 1).state();
    for (AlignedBuffer OptimizerState::*member :
         {&OptimizerState::velocity, &OptimizerState::first_moment, &OptimizerState::second_moment})
        if (!(kept.*member).empty())
            state.optimizer.*member = joined(group, optimizer_.state().*member, true);
    if (!shards_.layers.empty()) {
        const AlignedBuffer whole = joined(group, parameters_, true);
        state.parameters.assign(whole.begin(), whole.end());
    }
    return state;
}

std::optional<std::string> RankWorker::misfit(const TrainingState& state) const {
    return detail::state_misfit(scenario_, hash_, detail::make_shards(scenario_, data_->size()),
                                state, RestoreMode::Full);
}

void RankWorker::restore(const TrainingState& state) {
    if (const auto why = misfit(state))
        throw Error("restore: " + *why);
    DataCursor cursor = *cursor_;
    cursor.set_state(state.cursors[static_cast<std::size_t>(rank_)]);
    Optimizer optimizer(scenario_.optimizer, state.parameters.size(), scenario_.model.precision);
    optimizer.state() = state.optimizer;
    cursor_ = std::move(cursor);
    optimizer_ = std::move(optimizer);
    parameters_.assign(state.parameters.begin(), state.parameters.end());
    gradient_.assign(parameters_.size(), 0.0);
    if (!shards_.layers.empty() && rank_ == 0)
        whole_ = parameters_;
    keep_own_shard();
    run_rng_.set_state(state.run_rng);
    if (state.loss_scale)
        loss_scale_ = *state.loss_scale;
    step_ = state.step;
}

void RankWorker::record_outside(const TraceEvent& event) {
    spent_.add(event);
    if (keep_events_) {
        events_.push_back(event);
        events_.back().ordinal = static_cast<int>(event.step);
    }
}

void RankWorker::record(const TraceEvent& event) {
    spent_.add(event);
    step_events_.push_back(event);
}

void RankWorker::step(RankGroup& group) {
    if (finished())
        return;
    const Clock& clock = *clock_;
    step_events_.clear();
    if (!started_)
        note_memory(); // what it holds before it trains
    started_ = true;
    // The threaded trainer draws each worker's jitter and straggler chance from the run's
    // generator every step, whatever the clock: drawn alike here, a checkpoint's generator is
    // the one the threads would save.
    for (int k = 0; k < scenario_.workers; ++k) {
        if (scenario_.cost.jitter > 0.0)
            (void)run_rng_.uniform(-1.0, 1.0);
        if (scenario_.delays.straggler_probability > 0.0)
            (void)run_rng_.uniform();
    }

    // 1. An injected pause stalls this rank before it computes: a real sleep.
    Ticks paused = 0;
    for (const auto& p : scenario_.delays.pauses)
        if (p.worker == rank_ && p.step == step_)
            paused += to_ticks(p.seconds);
    if (paused > 0) {
        const Ticks from = clock.now();
        clock.wait_until(from + paused, nullptr);
        record({rank_, EventKind::Pause, step_, from, clock.now()});
    }

    const std::size_t batch = scenario_.batch_of(rank_);
    const auto micro = static_cast<std::size_t>(scenario_.accumulation());
    if (!shards_.layers.empty()) { // stage 3: nothing whole, layer by layer
        const LossResult last = compute_layer_by_layer(group);
        samples_ += static_cast<std::int64_t>(batch * micro);
        return finish_step(group, last);
    }
    if (scenario_.sharding == Sharding::Gradients && shards_.whole) {
        // The whole gradient again, for the backward pass that fills it.
        gradient_.assign(parameters_.size(), 0.0);
        release(shard_gradient_);
        note_memory();
    }
    const bool live = !buckets_.buckets.empty() && scenario_.gradients->overlap &&
                      scenario_.workers > 1 && group.reduces_beside_compute();
    if (live) {
        const LossResult last = compute_and_reduce_live(group);
        samples_ += static_cast<std::int64_t>(batch * micro);
        return finish_step(group, last);
    }

    // 2. The gradient of its own batch (K micro-batches of it with accumulation); a slowed
    // worker takes longer for real.
    const Ticks started = clock.now();
    const LossResult last = accumulated_gradient(scenario_.model, parameters_, *data_, *cursor_,
                                                 batch, micro, gradient_, scratch_);
    const Ticks computed =
        started + clock.took(0, started, clock.now(), scenario_.slowdown_of(rank_));
    clock.wait_until(computed, nullptr);
    record({rank_, EventKind::Compute, step_, started, computed, 0, -1, -1, gradient_[0]});
    samples_ += static_cast<std::int64_t>(batch * micro);

    // 3. Scaled by the rule's weight and combined with every other rank's.
    if (scenario_.algorithm != Algorithm::None) {
        scale_contribution(gradient_, weight_ * loss_scale_.scale);
        round_to(scenario_.wire_precision(), gradient_); // as it leaves the rank
        if (scenario_.workers > 1) {
            const Ticks arrived = clock.now();
            group.barrier(); // waiting for the slowest rank's gradient
            const Ticks everyone = clock.now();
            if (everyone > arrived)
                record({rank_, EventKind::Wait, step_, arrived, everyone});
            if (shards_.whole) {
                // The reduce-scatter: this rank's shard of the sum. Stage 2 keeps that and frees
                // the whole gradient.
                if (scenario_.sharding == Sharding::Gradients)
                    note_memory(); // the peak: the whole gradient, at the end of backward
                run_half(group, shards_.whole->reduce_scatter, gradient_,
                         CollectiveHalf::ReduceScatter);
                if (scenario_.sharding == Sharding::Gradients) {
                    const auto [begin, end] =
                        shards_.whole->shards[static_cast<std::size_t>(rank_)];
                    shard_gradient_ =
                        cut_runs(gradient_, std::vector<ValueRun>{{begin, end - begin}});
                    release(gradient_);
                    release(scratch_.micro_gradient);
                    note_memory(); // the shard of the sum only, from here to the next backward
                }
                return finish_step(group, last);
            }
            if (buckets_.buckets.empty())
                group.all_reduce(gradient_, clock, step_, step_events_);
            // Bucket after bucket, last layers first; each message names its bucket.
            for (std::size_t b = 0; b < buckets_.buckets.size(); ++b) {
                const std::size_t from = step_events_.size();
                group.all_reduce(buckets_.schedules[b], gradient_, clock, step_, step_events_);
                name_bucket(std::span(step_events_).subspan(from), buckets_.buckets[b]);
            }
            // The rank's time in the collective, rounds one after another (its Send and Receive
            // events overlap within a round, so they are not added one by one).
            spent_.add(TimeBucket::Communication, clock.now() - everyone);
        }
    }

    finish_step(group, last);
}

// 4-5. The same update on every replica, then its hash; the step's events kept. A sharded rank
// updates its shard: in stages 1 and 2 everyone's new parameters are then all-gathered; in stage
// 3 nothing is, and rank 0 puts the model together only to hash it, as the threaded run does.
void RankWorker::finish_step(RankGroup& group, const LossResult& last) {
    const Clock& clock = *clock_;
    const Ticks update_from = clock.now();
    // A sum past the wire format's range (never sharded: validate() refuses the two together):
    // every rank holds the same one, so every rank skips the update, and lowers its loss scale.
    const bool overflow =
        scenario_.wire_precision() != WirePrecision::Float64 && overflowed(gradient_);
    const double scaled_by = loss_scale_.scale;
    if (scenario_.loss_scale) {
        if (!overflow)
            scale_contribution(gradient_, 1.0 / scaled_by); // exactly: a power of two
        loss_scale_ = after_step(loss_scale_, overflow, scenario_.loss_scale->growth_interval);
    }
    if (shards_.whole) {
        const auto [begin, end] = shards_.whole->shards[static_cast<std::size_t>(rank_)];
        optimizer_.apply(std::span(parameters_).subspan(begin, end - begin),
                         scenario_.sharding == Sharding::Gradients
                             ? std::span<const double>(shard_gradient_)
                             : std::span<const double>(gradient_).subspan(begin, end - begin));
    } else if (!overflow) {
        optimizer_.apply(parameters_, gradient_);
    }
    Ticks updated = clock.now();
    if (!overflow) // a skipped step has no update, as on threads
        record({rank_, EventKind::Update, step_, update_from, updated, 0, -1, -1,
                gradient_.empty() ? 0.0 : gradient_[0]});
    std::uint64_t hash = 0;
    if (shards_.whole) {
        run_half(group, shards_.whole->all_gather, parameters_, CollectiveHalf::AllGather);
        updated = clock.now();
        hash = hash_parameters(parameters_);
    } else if (!shards_.layers.empty()) {
        whole_ = joined(group, parameters_, false);
        hash = whole_.empty() ? 0 : hash_parameters(whole_);
    } else {
        hash = hash_parameters(parameters_);
    }

    history_.push_back(
        {last.loss, hash, last.correct, last.count, updated, overflow ? 1u : 0u, scaled_by});
    note_memory();
    if (keep_events_) {
        for (TraceEvent& e : step_events_)
            e.ordinal = static_cast<int>(step_);
        events_.insert(events_.end(), step_events_.begin(), step_events_.end());
    }
    ++step_;
}

void RankWorker::note_memory() {
    WorkerMemory& m = memory_;
    note_resident({parameters_, gathered_, gradient_, shard_gradient_, layer_gradient_,
                   optimizer_.state(), scratch_},
                  m);
    if (keep_events_)
        memory_samples_.push_back({step_,
                                   {rank_, clock_->now(), m.parameters, m.gradients, m.optimizer,
                                    m.activations, m.workspace}});
}

void schedule_all_reduce(const CommSchedule& schedule, Transport& transport, int rank,
                         std::span<double> gradient, const Clock& clock, std::int64_t step,
                         std::vector<TraceEvent>& events) {
    if (rank < 0 || rank >= schedule.workers)
        throw Error("all-reduce: rank " + std::to_string(rank) + " is not in a group of " +
                    std::to_string(schedule.workers));
    if (gradient.size() != schedule.count)
        throw Error("all-reduce: every buffer must hold the schedule's element count");
    for (std::size_t r = 0; r < schedule.rounds.size(); ++r) {
        const Round& round = schedule.rounds[r];
        const Ticks start = clock.now();
        transport.execute(round, rank, gradient);
        const Ticks end = clock.now();
        const int ri = static_cast<int>(r);
        for (const Message& m : round.messages) {
            if (m.src == rank)
                events.push_back({rank, EventKind::Send, step, start, end, m.bytes(), m.dst, ri});
            if (m.dst == rank)
                events.push_back(
                    {rank, EventKind::Receive, step, start, end, m.bytes(), m.src, ri});
        }
    }
}

} // namespace lockstep
