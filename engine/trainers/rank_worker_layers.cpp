// A rank's step a layer at a time: its gradient buckets leaving during backward, and a fully
// sharded (stage 3) rank gathering each layer when it needs it and reduce-scattering its gradient.
#include "trainers/rank_worker.h"

#include "collectives/reduction.h"
#include "core/error.h"
#include "trainers/overlap.h"
#include "trainers/setup.h"

#include <algorithm>
#include <cmath>
#include <string>

namespace lockstep {

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

} // namespace lockstep
