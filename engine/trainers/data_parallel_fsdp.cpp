// Sharded parameters, ZeRO stage 3 (PyTorch's FSDP with one unit per layer): every worker keeps a
// piece of every layer's parameters, gradient and optimizer state, and nothing else of them,
// between steps. A step goes layer by layer. Forward: each layer is all-gathered from the pieces
// into a buffer on every worker, used and freed. Backward, from the last layer down: the layer is
// gathered again, its gradient computed and the parameters freed, then the gradient is
// reduce-scattered, each worker keeping the summed piece it owns. The optimizer then updates the
// pieces; nothing is gathered after it.
//
// The passes are the whole model's arithmetic cut at the layers (model/layer_range.cpp), in the
// same 128-row chunks, and each layer's reduce-scatter adds in the order of that layer's
// all-reduce: with the parameter server and the tree the bits of the unsharded run, with the ring
// those of the run whose gradient buckets hold one layer each.
#include "trainers/data_parallel.h"

#include "collectives/reduction.h"

#include <oneapi/tbb/parallel_for.h>

#include <algorithm>
#include <cmath>

namespace lockstep {

namespace {

// A worker's computation `cost` cut into the layers' passes: forward a third, backward two
// thirds, each layer's share that of its parameters; the pieces add up to `cost` exactly.
Ticks layer_cost(const ModelShape& model, Ticks cost, std::size_t layer, bool backward) {
    const Ticks pass = backward ? cost - cost / 3 : cost / 3;
    const double all = static_cast<double>(model.parameter_count());
    auto upto = [&](std::size_t l) {
        return static_cast<Ticks>(std::llround(static_cast<double>(pass) *
                                               static_cast<double>(model.weight_offset(l)) / all));
    };
    return upto(layer + 1) - upto(layer);
}

} // namespace

std::vector<double> DataParallelTrainer::parameters() const {
    return assembled_parameters();
}

std::vector<HeldValues> DataParallelTrainer::held() const {
    std::vector<HeldValues> held;
    for (const Worker& w : workers_) {
        const OptimizerState& o = w.optimizer.state();
        held.push_back({w.parameters.size(), w.gradient.size() + w.shard_gradient.size(),
                        o.velocity.size() + o.first_moment.size() + o.second_moment.size(),
                        w.gathered.capacity(), w.layer_gradient.gradient.capacity()});
    }
    return held;
}

void DataParallelTrainer::gather_layer(std::size_t layer) {
    const ShardedCollective& halves = collective_.layers[layer];
    const bool train = work_ == Work::Train;
    std::vector<std::span<double>> buffers;
    for (std::size_t k = 0; k < workers_.size(); ++k) {
        Worker& w = workers_[k];
        if (train) {
            w.gathered.assign(halves.all_gather.count, 0.0);
            const auto [begin, end] = halves.shards[k];
            const std::size_t at = piece_offset(collective_.layers, layer, static_cast<int>(k));
            std::copy_n(w.parameters.begin() + static_cast<std::ptrdiff_t>(at), end - begin,
                        w.gathered.begin() + static_cast<std::ptrdiff_t>(begin));
        }
        buffers.emplace_back(w.gathered);
    }
    run_half(halves.all_gather, CollectiveHalf::AllGather, buffers, static_cast<int>(layer));
    note_memory(); // the layer whole beside the pieces
}

void DataParallelTrainer::layer_pass(std::size_t layer, bool backward,
                                     std::span<const Ticks> cost) {
    const ModelShape& model = scenario_.model;
    const Clock& clock = *clock_;
    const auto n = workers_.size();
    std::vector<Ticks> started(n), ended(n);
    tbb::parallel_for(std::size_t{0}, work_ == Work::Train ? n : 0, [&](std::size_t k) {
        started[k] = clock.now();
        if (backward)
            backward_layer(model, workers_[k].scratch, workers_[k].gathered, layer,
                           workers_[k].layer_gradient);
        else
            forward_layer(model, workers_[k].scratch, workers_[k].gathered, layer,
                          workers_[k].last);
        ended[k] = clock.now();
    });
    Ticks latest = 0;
    for (std::size_t k = 0; k < n; ++k) {
        Worker& w = workers_[k];
        const int id = static_cast<int>(k);
        const Ticks start = clock.begins(w.clock, started[k]);
        const Ticks took = clock.took(layer_cost(model, cost[k], layer, backward), started[k],
                                      ended[k], scenario_.slowdown_of(id));
        emit({id, EventKind::Compute, step_, start, start + took});
        w.clock = start + took;
        latest = std::max(latest, w.clock);
    }
    clock.wait_until(latest, stop_);
}

void DataParallelTrainer::reduce_scatter_layer(std::size_t layer) {
    const ShardedCollective& halves = collective_.layers[layer];
    const bool train = work_ == Work::Train;
    std::vector<std::span<double>> buffers;
    for (std::size_t k = 0; k < workers_.size(); ++k) {
        Worker& w = workers_[k];
        if (train)
            scale_contribution(w.layer_gradient.gradient, collective_.weights[k]);
        buffers.emplace_back(w.layer_gradient.gradient);
    }
    run_half(halves.reduce_scatter, CollectiveHalf::ReduceScatter, buffers,
             static_cast<int>(layer));
    for (std::size_t k = 0; train && k < workers_.size(); ++k) {
        Worker& w = workers_[k];
        const auto [begin, end] = halves.shards[k];
        const std::size_t at = piece_offset(collective_.layers, layer, static_cast<int>(k));
        std::copy_n(w.layer_gradient.gradient.begin() + static_cast<std::ptrdiff_t>(begin),
                    end - begin, w.gradient.begin() + static_cast<std::ptrdiff_t>(at));
        release(w.layer_gradient.gradient);
        release(w.layer_gradient.transposed);
    }
    note_memory(); // the layer's gradient down to its piece
}

void DataParallelTrainer::compute_layer_by_layer(std::span<const Ticks> cost,
                                                 std::span<const Ticks> pause) {
    const ModelShape& model = scenario_.model;
    const auto n = workers_.size();
    const bool train = work_ == Work::Train;
    const Ticks now = clock_->now();
    Ticks latest = 0;
    scratch_.computed_from.assign(n, 0);
    scratch_.computed_took.assign(n, -1);
    for (std::size_t k = 0; k < n; ++k) {
        Worker& w = workers_[k];
        const int id = static_cast<int>(k);
        w.clock = clock_->begins(w.clock, now);
        if (pause[k] > 0) {
            emit({id, EventKind::Pause, step_, w.clock, w.clock + pause[k]});
            w.clock += pause[k];
        }
        scratch_.computed_from[k] = w.clock;
        latest = std::max(latest, w.clock);
        accounts_.samples += static_cast<std::int64_t>(samples_of(id));
    }
    clock_->wait_until(latest, stop_);
    if (faults_.crashing >= 0) {
        // A worker dies before its first layer is gathered: without its pieces nobody can go on,
        // and the step is abandoned (execute_step() recovers).
        return;
    }
    // With accumulation each micro-batch goes through every layer, gathered again each time;
    // the layers' gradients add up (at their whole size: nothing is reduced until the last) and
    // the last micro-batch's backward reduce-scatters each layer's mean.
    const auto micro = static_cast<std::size_t>(scenario_.accumulation());
    std::vector<LossResult> loss(n);
    std::vector<Ticks> share(n);
    for (std::size_t m = 0; m < micro; ++m) {
        const bool last = m + 1 == micro;
        for (std::size_t k = 0; k < n; ++k) // this micro-batch's part of the computation
            share[k] = cost[k] * static_cast<Ticks>(m + 1) / static_cast<Ticks>(micro) -
                       cost[k] * static_cast<Ticks>(m) / static_cast<Ticks>(micro);
        // Each worker's rows, and room for their activations and deltas.
        tbb::parallel_for(std::size_t{0}, train ? n : 0, [&](std::size_t k) {
            Worker& w = workers_[k];
            begin_layer_batch(model, *data_, w.cursor, scenario_.batch_of(static_cast<int>(k)),
                              w.scratch);
        });
        for (std::size_t l = 0; l < model.layer_count(); ++l) {
            gather_layer(l);
            layer_pass(l, false, share);
            for (Worker& w : workers_)
                release(w.gathered);
            note_memory(); // the layer freed again
        }
        for (std::size_t k = 0; train && k < n; ++k)
            add_micro_loss(loss[k], workers_[k].last, m, micro);
        for (std::size_t l = model.layer_count(); l-- > 0;) {
            gather_layer(l);
            layer_pass(l, true, share);
            note_memory(); // and its whole gradient too: the most a worker holds
            for (Worker& w : workers_) {
                release(w.gathered);
                if (train)
                    accumulate_layer(model, l, m, micro, w.layer_gradient.gradient, w.scratch);
            }
            note_memory();
            if (last) {
                reduce_scatter_layer(l);
                continue;
            }
            for (Worker& w : workers_) {
                release(w.layer_gradient.gradient);
                release(w.layer_gradient.transposed);
            }
            note_memory();
        }
    }
    for (std::size_t k = 0; train && k < n; ++k) {
        workers_[k].last = loss[k];
        if (micro > 1)
            release(workers_[k].scratch.micro_gradient);
    }
    for (std::size_t k = 0; k < n; ++k)
        scratch_.computed_took[k] = workers_[k].clock - scratch_.computed_from[k];
}

} // namespace lockstep
