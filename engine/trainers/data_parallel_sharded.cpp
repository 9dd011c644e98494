// Sharded data parallelism, ZeRO stages 1 and 2: a worker keeps the optimizer state (1) and the
// summed gradient (2) of its own shard of the parameters only. The all-reduce runs as its two
// halves (collectives/sharding.h): the reduce-scatter leaves each worker the summed gradient of
// its shard (stage 2 keeps that and frees the rest), its optimizer updates that shard alone, and
// the all-gather hands every worker everyone's new parameters. The halves add in the all-reduce's
// order and every optimizer works value by value, so the parameters are the bits of the
// unsharded run. Stage 3 is data_parallel_fsdp.cpp.
#include "trainers/data_parallel.h"

#include "clocks/cost_model.h"
#include "trainers/setup.h"

#include <algorithm>
#include <span>
#include <utility>

namespace lockstep {

// One half over the workers' gradients (the reduce-scatter) or their parameters (the
// all-gather), priced on the modelled clock or timed on the measured one; all of it exposed, as
// nothing computes beside it.
void DataParallelTrainer::run_half(const CommSchedule& half, CollectiveHalf which,
                                   bool on_parameters) {
    std::vector<std::span<double>> buffers;
    for (auto& w : workers_)
        buffers.emplace_back(on_parameters ? w.parameters : w.gradient);
    run_half(half, which, buffers);
}

void DataParallelTrainer::run_half(const CommSchedule& half, CollectiveHalf which,
                                   std::span<const std::span<double>> buffers, int layer) {
    struct Naming { // the half's name on its events, for as long as it runs
        DataParallelTrainer& t;
        Naming(DataParallelTrainer& trainer, CollectiveHalf h, int l)
            : t(trainer) {
            t.half_ = h;
            t.half_layer_ = l;
        }
        ~Naming() {
            t.half_ = CollectiveHalf::None;
            t.half_layer_ = -1;
        }
    } naming(*this, which, layer);
    const auto n = workers_.size();
    const bool train = work_ == Work::Train;
    if (train) {
        count_moved(half.total_bytes(), inter_node_bytes(half));
        (which == CollectiveHalf::AllGather ? accounts_.all_gather_bytes
                                            : accounts_.reduce_scatter_bytes) += half.total_bytes();
    }
    if (clock_->kind() == ClockKind::Measured) {
        const std::vector<Ticks> before = communication_ticks();
        run_measured_collective(half, buffers, -1);
        account_measured_exposure(before);
        return;
    }
    std::vector<Ticks> began(n), spent(n);
    for (std::size_t k = 0; k < n; ++k)
        began[k] = workers_[k].clock;
    if (train)
        run_all_reduce(half, transport_, buffers);
    price_schedule(half);
    for (std::size_t k = 0; k < n; ++k)
        spent[k] = workers_[k].clock - began[k];
    account_exposure(began, spent);
}

// Stage 2 keeps the shard of the sum and frees the whole gradient (the next backward allocates
// it again): from here to the next step its gradient memory is its shard's.
void DataParallelTrainer::reduce_scatter_gradients() {
    const bool keep_shard = scenario_.sharding == Sharding::Gradients && work_ == Work::Train;
    if (keep_shard)
        note_memory(); // the peak: the whole gradient, at the end of backward
    run_half(collective_.sharded->reduce_scatter, CollectiveHalf::ReduceScatter, false);
    if (!keep_shard)
        return;
    for (std::size_t k = 0; k < workers_.size(); ++k) {
        Worker& w = workers_[k];
        const auto [begin, end] = collective_.sharded->shards[k];
        w.shard_gradient.assign(w.gradient.begin() + static_cast<std::ptrdiff_t>(begin),
                                w.gradient.begin() + static_cast<std::ptrdiff_t>(end));
        release(w.gradient);
        release(w.scratch.micro_gradient);
    }
    note_memory(); // the shard of the sum only, from here to the next backward
}

// Stage 2: the whole gradient again, for the backward pass that fills it.
void DataParallelTrainer::unshard_gradients() {
    if (scenario_.sharding != Sharding::Gradients || !collective_.sharded || work_ != Work::Train)
        return;
    for (Worker& w : workers_) {
        w.gradient.assign(collective_.sharded->reduce_scatter.count, 0.0);
        release(w.shard_gradient);
    }
    note_memory();
}

// After the update: every worker's shard of the new parameters to every other worker.
void DataParallelTrainer::gather_parameters() {
    run_half(collective_.sharded->all_gather, CollectiveHalf::AllGather, true);
}

void DataParallelTrainer::apply_to_shard(Worker& w, std::size_t k) {
    if (layer_sharded()) { // stage 3: the worker holds its pieces only, all of them updated
        w.optimizer.apply(w.parameters, w.gradient);
        return;
    }
    const auto [begin, end] = collective_.sharded->shards[k];
    const std::span<const double> gradient =
        scenario_.sharding == Sharding::Gradients
            ? std::span<const double>(w.shard_gradient)
            : std::span<const double>(w.gradient).subspan(begin, end - begin);
    w.optimizer.apply(std::span(w.parameters).subspan(begin, end - begin), gradient);
}

// Where worker k's values lie in the whole model, as runs of (offset, length) in the order the
// worker keeps them: its pieces of every layer in stage 3, its shard in stages 1 and 2 (of the
// optimizer state), everything without a layout.
std::vector<ValueRun> DataParallelTrainer::shard_runs(std::size_t k) const {
    if (layer_sharded())
        return layer_pieces(collective_.layers, static_cast<int>(k));
    if (collective_.sharded) {
        const auto [begin, end] = collective_.sharded->shards[k];
        return {{begin, end - begin}};
    }
    return {{0, scenario_.model.parameter_count()}};
}

// One whole vector of the model from every worker's pieces of it (`piece_of(k)`), each put back
// where shard_runs(k) says it lies.
template <class PieceOf> AlignedBuffer DataParallelTrainer::joined(PieceOf piece_of) const {
    AlignedBuffer whole(scenario_.model.parameter_count());
    for (std::size_t k = 0; k < workers_.size(); ++k)
        place_runs(piece_of(workers_[k]), shard_runs(k), whole);
    return whole;
}

std::vector<double> DataParallelTrainer::assembled_parameters() const {
    if (!layer_sharded())
        return {workers_.front().parameters.begin(), workers_.front().parameters.end()};
    const AlignedBuffer whole =
        joined([](const Worker& w) -> const AlignedBuffer& { return w.parameters; });
    return {whole.begin(), whole.end()};
}

// The optimizer state of the whole model, each worker's shard put back in its place.
OptimizerState DataParallelTrainer::assembled_optimizer_state() const {
    OptimizerState whole = workers_.front().optimizer.state();
    if (!layer_sharded() && !collective_.sharded)
        return whole;
    for (AlignedBuffer OptimizerState::*member :
         {&OptimizerState::velocity, &OptimizerState::first_moment, &OptimizerState::second_moment})
        if (!(whole.*member).empty())
            whole.*member = joined([member](const Worker& w) -> const AlignedBuffer& {
                return w.optimizer.state().*member;
            });
    return whole;
}

// After every worker was given the whole model and optimizer state (a restore, a fresh start):
// each keeps only its shard (the memory sharding saves is really not there; stage 2 keeps its
// shard's gradient, stage 3 its pieces of everything), in the layout of the workers there are now,
// so a state saved by more workers is re-sharded over fewer.
void DataParallelTrainer::shard_whole_state() {
    if (!layer_sharded() && !collective_.sharded)
        return;
    for (std::size_t k = 0; k < workers_.size(); ++k) {
        Worker& w = workers_[k];
        detail::keep_shard(scenario_, shard_runs(k), w.optimizer, w.parameters, w.gradient,
                           w.shard_gradient);
    }
}

} // namespace lockstep
