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

// Where worker k's piece of `layer` starts among its pieces: after its pieces of the layers below.
std::size_t piece_at(const std::vector<ShardedCollective>& layers, std::size_t layer, int k) {
    std::size_t at = 0;
    for (std::size_t l = 0; l < layer; ++l)
        at += layers[l].shard_size(k);
    return at;
}

template <class Buffer> void release(Buffer& buffer) {
    Buffer().swap(buffer);
}

// Where layer l's outputs for all `rows` start in a worker's stored activations.
std::size_t outputs_at(const ModelShape& model, std::size_t layer, std::size_t rows) {
    std::size_t at = 0;
    for (std::size_t l = 0; l < layer; ++l)
        at += static_cast<std::size_t>(model.layers[l + 1]);
    return at * rows;
}

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

// The rows' forward pass through one layer, chunk by chunk as the whole model's pass goes; after
// the last layer the loss and its delta.
void forward_layer(const ModelShape& model, Worker& w, std::size_t layer) {
    BatchScratch& s = w.scratch;
    const std::size_t rows = s.rows.size();
    const auto in = static_cast<std::size_t>(model.layers[layer]);
    const auto out = static_cast<std::size_t>(model.layers[layer + 1]);
    double* acts = s.work.activations.data();
    const double* input =
        layer == 0 ? s.features.data() : acts + outputs_at(model, layer - 1, rows);
    double* output = acts + outputs_at(model, layer, rows);
    const std::size_t chunk = std::min(rows, pass_rows);
    for (std::size_t first = 0; first < rows; first += chunk) {
        const std::size_t r = std::min(chunk, rows - first);
        forward_range(model, {layer, layer + 1}, w.gathered, input + first * in, r,
                      std::span(output + first * out, r * out), s.work);
    }
    if (layer + 1 < model.layer_count())
        return;
    const double scale = loss_scale(model, rows);
    double total = 0.0;
    LossResult result;
    result.count = rows;
    for (std::size_t first = 0; first < rows; first += chunk) {
        const std::size_t r = std::min(chunk, rows - first);
        output_loss_delta(model, output + first * out, s.targets.data() + first, r, first, scale,
                          s.layer_deltas.data() + first * out, total, result.correct);
    }
    result.loss = total * scale;
    w.last = result;
}

// The rows' backward pass through one layer: its gradient into `layer_gradient`, and the delta
// of its input for the layer below. The deltas take turns in the two halves of `layer_deltas`.
void backward_layer(const ModelShape& model, Worker& w, std::size_t layer) {
    BatchScratch& s = w.scratch;
    const std::size_t rows = s.rows.size();
    const auto in = static_cast<std::size_t>(model.layers[layer]);
    const auto out = static_cast<std::size_t>(model.layers[layer + 1]);
    const double* acts = s.work.activations.data();
    const double* input =
        layer == 0 ? s.features.data() : acts + outputs_at(model, layer - 1, rows);
    const double* output = acts + outputs_at(model, layer, rows);
    const std::size_t half = rows * model.widest();
    const std::size_t turn = (model.layer_count() - 1 - layer) % 2;
    const double* delta = s.layer_deltas.data() + turn * half;
    double* below = s.layer_deltas.data() + (1 - turn) * half;
    start_range_gradient(model, {layer, layer + 1}, w.layer_gradient);
    const std::size_t chunk = std::min(rows, pass_rows);
    for (std::size_t first = 0; first < rows; first += chunk) {
        const std::size_t r = std::min(chunk, rows - first);
        backward_range(model, {layer, layer + 1}, w.gathered, input + first * in,
                       std::span(output + first * out, r * out), r, delta + first * out,
                       w.layer_gradient, layer > 0 ? below + first * in : nullptr, s.work);
    }
    finish_range_gradient(model, {layer, layer + 1}, w.layer_gradient);
}

} // namespace

std::vector<double> DataParallelTrainer::parameters() const {
    return assembled_parameters();
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
            const std::size_t at = piece_at(collective_.layers, layer, static_cast<int>(k));
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
            backward_layer(model, workers_[k], layer);
        else
            forward_layer(model, workers_[k], layer);
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
        const std::size_t at = piece_at(collective_.layers, layer, static_cast<int>(k));
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
    // Each worker's batch, and room for its rows' activations and deltas.
    tbb::parallel_for(std::size_t{0}, train ? n : 0, [&](std::size_t k) {
        Worker& w = workers_[k];
        BatchScratch& s = w.scratch;
        w.cursor.next_batch(scenario_.batch_of(static_cast<int>(k)), s.rows);
        gather_rows(*data_, s.rows, s.features, s.targets);
        s.work.activations.resize(outputs_at(model, model.layer_count(), s.rows.size()));
        s.layer_deltas.resize(2 * s.rows.size() * model.widest());
    });
    for (std::size_t l = 0; l < model.layer_count(); ++l) {
        gather_layer(l);
        layer_pass(l, false, cost);
        for (Worker& w : workers_)
            release(w.gathered);
        note_memory(); // the layer freed again
    }
    for (std::size_t l = model.layer_count(); l-- > 0;) {
        gather_layer(l);
        layer_pass(l, true, cost);
        note_memory(); // and its whole gradient too: the most a worker holds
        for (Worker& w : workers_)
            release(w.gathered);
        note_memory();
        reduce_scatter_layer(l);
    }
    for (std::size_t k = 0; k < n; ++k)
        scratch_.computed_took[k] = workers_[k].clock - scratch_.computed_from[k];
}

} // namespace lockstep
