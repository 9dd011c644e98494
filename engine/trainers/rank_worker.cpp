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

// The buckets leave during backward. The model hands each layer's gradient over as backward
// finishes it (the same bits); this thread scales it by the rule's weight and, when a bucket's
// first layer is done, lets the communication thread have it. That thread reduces the buckets
// in order with the other ranks, whose messages say when they are ready too: no barrier. A
// slowed rank sleeps after each layer in proportion to it, so its buckets leave late too.
LossResult RankWorker::compute_and_reduce_live(RankGroup& group) {
    const Clock& clock = *clock_;
    const ModelShape& model = scenario_.model;
    const std::size_t layers = model.layer_count();
    std::vector<TraceEvent> sent; // the communication thread's events
    Ticks in_rounds = 0;
    auto reduce = [&](std::size_t b) {
        const std::size_t from = sent.size();
        const Ticks start = clock.now();
        group.all_reduce(buckets_.schedules[b], gradient_, clock, step_, sent);
        in_rounds += clock.now() - start;
        name_bucket(std::span(sent).subspan(from), buckets_.buckets[b]);
    };

    BucketGate gate(buckets_.buckets, layers, 1);
    const double slowdown = scenario_.slowdown_of(rank_);
    const Ticks started = clock.now();
    Ticks backward_from = started, mark = started;
    std::vector<Ticks> done(layers, 0);
    const LayerDone hand_over = [&](std::size_t l) {
        if (slowdown != 1.0) // the layer's real time, stretched for real
            clock.wait_until(
                clock.now() +
                    static_cast<Ticks>(static_cast<double>(clock.now() - mark) * (slowdown - 1.0)),
                nullptr);
        mark = clock.now();
        if (l == layers) {
            backward_from = mark;
            return;
        }
        const std::size_t first = model.weight_offset(l);
        const std::span<double> layer =
            std::span(gradient_).subspan(first, model.weight_offset(l + 1) - first);
        scale_contribution(layer, weight_ * loss_scale_.scale);
        round_to(scenario_.wire_precision(), layer);
        done[l] = clock.now();
        gate.layer_done(l);
    };
    LossResult last;
    Ticks computed = 0;
    auto compute = [&] {
        last = accumulated_gradient(model, parameters_, *data_, *cursor_, scenario_.batch_of(rank_),
                                    static_cast<std::size_t>(scenario_.accumulation()), gradient_,
                                    scratch_, &hand_over);
        computed = clock.now();
    };
    reduce_beside(gate, buckets_.buckets.size(), compute, reduce);

    for (const TraceEvent& e :
         computation_events(rank_, step_, started, backward_from, done, computed, gradient_[0]))
        record(e);
    for (const TraceEvent& e : sent)
        record(e);
    // Its time in the buckets' rounds (Send and Receive overlap within a round).
    spent_.add(TimeBucket::Communication, in_rounds);
    return last;
}

void RankWorker::run_half(RankGroup& group, const CommSchedule& half, std::span<double> buffer,
                          CollectiveHalf which, int layer) {
    const Clock& clock = *clock_;
    const std::size_t from = step_events_.size();
    const Ticks start = clock.now();
    group.all_reduce(half, buffer, clock, step_, step_events_);
    // Its rounds one after another (Send and Receive overlap within a round).
    spent_.add(TimeBucket::Communication, clock.now() - start);
    for (TraceEvent& e : std::span(step_events_).subspan(from)) {
        e.half = which;
        e.layer = layer;
    }
}

// Stage 3: every layer gathered for its forward pass and freed; then from the last layer down,
// gathered again for its backward pass, freed, and its gradient reduce-scattered. The layers'
// arithmetic and the halves are the threaded worker's (data_parallel_fsdp.cpp). A slowed rank
// sleeps after each pass in proportion to it.
LossResult RankWorker::compute_layer_by_layer(RankGroup& group) {
    const Clock& clock = *clock_;
    const ModelShape& model = scenario_.model;
    const double slowdown = scenario_.slowdown_of(rank_);
    const auto micro = static_cast<std::size_t>(scenario_.accumulation());
    LossResult loss, part;
    auto pass = [&](std::size_t layer, bool backward) {
        const Ticks start = clock.now();
        if (backward)
            backward_layer(model, scratch_, gathered_, layer, layer_gradient_);
        else
            forward_layer(model, scratch_, gathered_, layer, part);
        const Ticks end = start + clock.took(0, start, clock.now(), slowdown);
        clock.wait_until(end, nullptr);
        record({rank_, EventKind::Compute, step_, start, end});
    };
    // The ledger noted where the threaded worker's is: the same buffers, the same peaks. With
    // accumulation every micro-batch gathers every layer again, and only the last one's backward
    // reduce-scatters the layers' mean gradients.
    for (std::size_t m = 0; m < micro; ++m) {
        begin_layer_batch(model, *data_, *cursor_, scenario_.batch_of(rank_), scratch_);
        for (std::size_t l = 0; l < model.layer_count(); ++l) {
            gather_layer(group, l);
            pass(l, false);
            release(gathered_);
            note_memory(); // the layer freed again
        }
        add_micro_loss(loss, part, m, micro);
        for (std::size_t l = model.layer_count(); l-- > 0;) {
            gather_layer(group, l);
            pass(l, true);
            note_memory(); // and its whole gradient too: the most a worker holds
            release(gathered_);
            accumulate_layer(model, l, m, micro, layer_gradient_.gradient, scratch_);
            note_memory();
            if (m + 1 == micro) {
                reduce_scatter_layer(group, l);
                continue;
            }
            release(layer_gradient_.gradient);
            release(layer_gradient_.transposed);
            note_memory();
        }
    }
    if (micro > 1)
        release(scratch_.micro_gradient);
    return loss;
}

void RankWorker::gather_layer(RankGroup& group, std::size_t layer) {
    const ShardedCollective& halves = shards_.layers[layer];
    gathered_.assign(halves.all_gather.count, 0.0);
    const auto [begin, end] = halves.shards[static_cast<std::size_t>(rank_)];
    std::copy_n(parameters_.begin() +
                    static_cast<std::ptrdiff_t>(piece_offset(shards_.layers, layer, rank_)),
                end - begin, gathered_.begin() + static_cast<std::ptrdiff_t>(begin));
    run_half(group, halves.all_gather, gathered_, CollectiveHalf::AllGather,
             static_cast<int>(layer));
    note_memory(); // the layer whole beside the pieces
}

void RankWorker::reduce_scatter_layer(RankGroup& group, std::size_t layer) {
    const ShardedCollective& halves = shards_.layers[layer];
    scale_contribution(layer_gradient_.gradient, weight_);
    run_half(group, halves.reduce_scatter, layer_gradient_.gradient, CollectiveHalf::ReduceScatter,
             static_cast<int>(layer));
    const auto [begin, end] = halves.shards[static_cast<std::size_t>(rank_)];
    std::copy_n(layer_gradient_.gradient.begin() + static_cast<std::ptrdiff_t>(begin), end - begin,
                gradient_.begin() +
                    static_cast<std::ptrdiff_t>(piece_offset(shards_.layers, layer, rank_)));
    release(layer_gradient_.gradient);
    release(layer_gradient_.transposed);
    note_memory(); // the layer's gradient down to its piece
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
