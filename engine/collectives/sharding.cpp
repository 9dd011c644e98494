#include "collectives/sharding.h"

#include "core/error.h"

#include <algorithm>
#include <string>

namespace lockstep {

namespace {

// Chunk c of `count` values split `workers` ways, as the ring cuts them.
std::pair<std::size_t, std::size_t> chunk(std::size_t c, std::size_t count, int workers) {
    const auto n = static_cast<std::size_t>(workers);
    return {c * count / n, (c + 1) * count / n};
}

CommSchedule empty_like(const CommSchedule& s) {
    CommSchedule half;
    half.algorithm = s.algorithm;
    half.workers = s.workers;
    half.count = s.count;
    return half;
}

// The ring and the hierarchical all-reduce: their own reduce-scatter and all-gather phases.
ShardedCollective split_phases(const CommSchedule& all) {
    ShardedCollective out{empty_like(all), empty_like(all), {}};
    for (const Round& round : all.rounds)
        (round.phase == "reduce-scatter" ? out.reduce_scatter : out.all_gather)
            .rounds.push_back(round);
    return out;
}

// The ring: worker k finishes chunk (k + 1) mod N.
ShardedCollective split_ring(const CommSchedule& all) {
    ShardedCollective out = split_phases(all);
    for (int k = 0; k < all.workers; ++k)
        out.shards.push_back(
            chunk(static_cast<std::size_t>((k + 1) % all.workers), all.count, all.workers));
    return out;
}

// Hierarchical: the worker at place j of machine i finishes piece (i + 1) mod M of the chunk
// (j + 1) mod K its machine's ring left it.
ShardedCollective split_hierarchical(const CommSchedule& all, int per_node) {
    ShardedCollective out = split_phases(all);
    const int machines = all.workers / per_node;
    for (int w = 0; w < all.workers; ++w) {
        const auto [begin, end] =
            chunk(static_cast<std::size_t>((w % per_node + 1) % per_node), all.count, per_node);
        const auto [from, to] =
            chunk(static_cast<std::size_t>((w / per_node + 1) % machines), end - begin, machines);
        out.shards.emplace_back(begin + from, begin + to);
    }
    return out;
}

// Reduce to the root, scatter the shards; gather them back to the root, send everything down.
ShardedCollective split_at_root(const CommSchedule& all, int root) {
    ShardedCollective out{empty_like(all), empty_like(all), {}};
    for (int k = 0; k < all.workers; ++k)
        out.shards.push_back(chunk(static_cast<std::size_t>(k), all.count, all.workers));
    Round scatter{"scatter", {}}, collect{"gather", {}};
    for (int k = 0; k < all.workers; ++k) {
        const auto [begin, end] = out.shards[static_cast<std::size_t>(k)];
        if (k == root || end == begin)
            continue;
        scatter.messages.push_back({root, k, begin, end - begin, Message::Op::Copy});
        collect.messages.push_back({k, root, begin, end - begin, Message::Op::Copy});
    }
    bool down = false; // the rounds after the reduce send the sum back down
    for (const Round& round : all.rounds) {
        if (!down && !round.messages.empty() && round.messages.front().op == Message::Op::Copy) {
            down = true;
            if (!scatter.messages.empty()) {
                out.reduce_scatter.rounds.push_back(std::move(scatter));
                out.all_gather.rounds.push_back(std::move(collect));
            }
        }
        (down ? out.all_gather : out.reduce_scatter).rounds.push_back(round);
    }
    return out;
}

} // namespace

std::size_t ShardedCollective::shard_size(int worker) const {
    const auto& [begin, end] = shards.at(static_cast<std::size_t>(worker));
    return end - begin;
}

ShardedCollective sharded_collective(Algorithm algorithm, int workers, std::size_t count,
                                     int per_node) {
    if (algorithm == Algorithm::None)
        throw Error("sharding needs a collective: with algorithm none nothing is reduced");
    const CommSchedule all = make_schedule(algorithm, workers, count, per_node);
    if (workers == 1) {
        ShardedCollective one{all, all, {{0, count}}};
        return one;
    }
    switch (algorithm) {
    case Algorithm::Ring:
        return split_ring(all);
    case Algorithm::Hierarchical:
        return split_hierarchical(all, per_node > 0 ? per_node : workers);
    default:
        return split_at_root(all, 0);
    }
}

std::vector<ShardedCollective> layer_collectives(Algorithm algorithm, int workers,
                                                 std::span<const std::size_t> layer_parameters,
                                                 int per_node) {
    std::vector<ShardedCollective> layers;
    for (const std::size_t count : layer_parameters)
        layers.push_back(sharded_collective(algorithm, workers, count, per_node));
    return layers;
}

std::vector<ValueRun> layer_pieces(std::span<const ShardedCollective> layers, int worker) {
    std::vector<ValueRun> runs;
    std::size_t layer_at = 0;
    for (const ShardedCollective& layer : layers) {
        const auto [begin, end] = layer.shards.at(static_cast<std::size_t>(worker));
        runs.emplace_back(layer_at + begin, end - begin);
        layer_at += layer.all_gather.count;
    }
    return runs;
}

std::size_t piece_offset(std::span<const ShardedCollective> layers, std::size_t layer, int worker) {
    std::size_t at = 0;
    for (std::size_t l = 0; l < layer; ++l)
        at += layers[l].shard_size(worker);
    return at;
}

AlignedBuffer cut_runs(std::span<const double> whole, std::span<const ValueRun> runs) {
    AlignedBuffer out;
    if (whole.empty())
        return out;
    std::size_t size = 0;
    for (const auto& run : runs)
        size += run.second;
    out.reserve(size);
    for (const auto& [at, length] : runs)
        out.insert(out.end(), whole.begin() + static_cast<std::ptrdiff_t>(at),
                   whole.begin() + static_cast<std::ptrdiff_t>(at + length));
    return out;
}

void place_runs(std::span<const double> pieces, std::span<const ValueRun> runs,
                std::span<double> whole) {
    std::size_t from = 0;
    for (const auto& [at, length] : runs) {
        std::copy_n(pieces.begin() + static_cast<std::ptrdiff_t>(from), length,
                    whole.begin() + static_cast<std::ptrdiff_t>(at));
        from += length;
    }
}

} // namespace lockstep
