// A data-parallel step's end: its snapshot handed on, and how far the replicas are apart.
#include "trainers/data_parallel.h"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <span>
#include <vector>

namespace lockstep {

void DataParallelTrainer::finish_step() {
    if (work_ == Work::Train && !last_snapshot_.replicas_aligned) {
        std::vector<std::span<const double>> replicas;
        for (const Worker& w : workers_)
            replicas.emplace_back(w.parameters);
        last_snapshot_.replica_distance = replica_distances(replicas);
        last_snapshot_.replica_spread = *std::max_element(last_snapshot_.replica_distance.begin(),
                                                          last_snapshot_.replica_distance.end());
    }
    aligned_ = last_snapshot_.replicas_aligned;
    note_memory();
    last_snapshot_.memory = std::move(scratch_.memory);
    scratch_.memory.clear();
    accounts_.applied += static_cast<std::int64_t>(workers_.size()); // each fresh: staleness 0
    if (!aligned_)
        ++accounts_.misaligned_steps;
    if (sink_)
        sink_->on_snapshot(last_snapshot_);
    if (work_ == Work::Train)
        accounts_.progress.push_back(
            {step_, to_seconds(last_snapshot_.time), last_snapshot_.loss, energy_so_far()});
    ++step_;
    ++steps_run_;
}

std::vector<double> replica_distances(std::span<const std::span<const double>> replicas) {
    if (replicas.size() < 2)
        return std::vector<double>(replicas.size(), 0.0);
    const std::size_t count = replicas.front().size();
    std::vector<double> mean(count, 0.0);
    for (const auto& r : replicas)
        for (std::size_t i = 0; i < count; ++i)
            mean[i] += r[i];
    for (double& x : mean)
        x /= static_cast<double>(replicas.size());
    std::vector<double> out;
    out.reserve(replicas.size());
    for (const auto& r : replicas) {
        double d = 0.0;
        for (std::size_t i = 0; i < count; ++i)
            d += (r[i] - mean[i]) * (r[i] - mean[i]);
        out.push_back(std::sqrt(d));
    }
    return out;
}

double replica_spread(std::span<const std::span<const double>> replicas) {
    const std::vector<double> d = replica_distances(replicas);
    return d.empty() ? 0.0 : *std::max_element(d.begin(), d.end());
}

} // namespace lockstep
