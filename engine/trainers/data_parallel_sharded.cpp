// Sharded data parallelism, ZeRO stage 1: a worker keeps the optimizer state of its own shard of
// the parameters only. The all-reduce runs as its two halves (collectives/sharding.h): the
// reduce-scatter leaves each worker the summed gradient of its shard, its optimizer updates that
// shard alone, and the all-gather hands every worker everyone's new parameters. The halves add
// in the all-reduce's order and every optimizer works value by value, so the parameters are the
// bits of the unsharded run.
#include "trainers/data_parallel.h"

#include "clocks/cost_model.h"

namespace lockstep {

// Each worker's optimizer state sized to its shard: the memory sharding saves is really not there.
void DataParallelTrainer::shard_optimizers() {
    if (!collective_.sharded)
        return;
    for (std::size_t k = 0; k < workers_.size(); ++k)
        workers_[k].optimizer =
            Optimizer(scenario_.optimizer, collective_.sharded->shard_size(static_cast<int>(k)));
}

// One half over the workers' gradients (the reduce-scatter) or their parameters (the
// all-gather), priced on the modelled clock or timed on the measured one; all of it exposed, as
// nothing computes beside it.
void DataParallelTrainer::run_half(const CommSchedule& half, bool on_parameters) {
    const auto n = workers_.size();
    const bool train = work_ == Work::Train;
    if (train)
        accounts_.bytes_moved += half.total_bytes();
    if (clock_->kind() == ClockKind::Measured) {
        const std::vector<Ticks> before = communication_ticks();
        run_measured_collective(half, -1, on_parameters);
        account_measured_exposure(before);
        return;
    }
    std::vector<Ticks> began(n), spent(n);
    for (std::size_t k = 0; k < n; ++k)
        began[k] = workers_[k].clock;
    if (train) {
        std::vector<std::span<double>> buffers;
        for (auto& w : workers_)
            buffers.emplace_back(on_parameters ? w.parameters : w.gradient);
        run_all_reduce(half, transport_, buffers);
    }
    price_schedule(half);
    for (std::size_t k = 0; k < n; ++k)
        spent[k] = workers_[k].clock - began[k];
    account_exposure(began, spent);
}

void DataParallelTrainer::reduce_scatter_gradients() {
    run_half(collective_.sharded->reduce_scatter, false);
}

// After the update: every worker's shard of the new parameters to every other worker.
void DataParallelTrainer::gather_parameters() {
    run_half(collective_.sharded->all_gather, true);
}

void DataParallelTrainer::apply_to_shard(Worker& w, std::size_t k) {
    const auto [begin, end] = collective_.sharded->shards[k];
    w.optimizer.apply(std::span(w.parameters).subspan(begin, end - begin),
                      std::span<const double>(w.gradient).subspan(begin, end - begin));
}

} // namespace lockstep
