#pragma once

// Sharded data parallelism (ZeRO, FSDP) splits the all-reduce in its two halves: a
// reduce-scatter leaves each worker the finished sum of its own shard of the buffer only, and an
// all-gather later gives every worker every shard again. Between the two a worker can update its
// shard alone, so it needs the optimizer state (ZeRO 1), the gradient (2) and even the parameters
// (3) of its shard only.
//
// Each half is a schedule like any other (the transport moves it, the cost model prices it). Run
// one after the other they add in exactly the order of the algorithm's all-reduce, so a sharded
// run gives the same bits as an unsharded one.
//   - Ring: its all-reduce already is a reduce-scatter then an all-gather; the halves are its
//     two phases, and together they move exactly the all-reduce's bytes. Worker k's shard is the
//     chunk it finishes, (k + 1) mod N.
//   - Hierarchical: a reduce-scatter inside each machine and one across, then an all-gather
//     across and one inside. Worker (machine i, place j)'s shard is piece (i + 1) mod M of chunk
//     (j + 1) mod K, the piece its ring across machines finishes.
//   - Parameter server and tree: their all-reduce reduces to one root and sends the sum back
//     down. Sharded, the root scatters the shards after its reduce (shard k to worker k), and
//     before the all-gather the shards come back to the root, which then sends the whole buffer
//     down as before: 2(N-1)/N of the buffer more than their all-reduce, through the root.
#include "collectives/schedule.h"
#include "core/aligned_buffer.h"

#include <cstddef>
#include <span>
#include <utility>
#include <vector>

namespace lockstep {

struct ShardedCollective {
    CommSchedule reduce_scatter; // afterwards worker k's shard holds the sum of that range
    CommSchedule all_gather;     // afterwards every worker holds every worker's shard
    // Worker k's shard: [shards[k].first, shards[k].second). The shards cover the buffer once;
    // they may be empty when there are fewer values than workers.
    std::vector<std::pair<std::size_t, std::size_t>> shards;

    std::size_t shard_size(int worker) const;
};

// The two halves of `algorithm`'s all-reduce over `workers` buffers of `count` values. Throws
// lockstep::Error for Algorithm::None (nothing is reduced, so nothing can be sharded) or a worker
// count no schedule takes.
// `per_node`: the workers in each machine (the hierarchical all-reduce's; 0: one machine).
ShardedCollective sharded_collective(Algorithm algorithm, int workers, std::size_t count,
                                     int per_node = 0);

// Sharded parameters (ZeRO stage 3): each layer its own halves, layer l's over
// `layer_parameters[l]` values, the layers one after another in the model's vector.
std::vector<ShardedCollective> layer_collectives(Algorithm algorithm, int workers,
                                                 std::span<const std::size_t> layer_parameters,
                                                 int per_node = 0);

// A stretch of a vector of the whole model: (offset, length).
using ValueRun = std::pair<std::size_t, std::size_t>;
// Worker `worker`'s pieces of every layer, as stretches of the whole model, layer 0 first: the
// order the worker keeps them in.
std::vector<ValueRun> layer_pieces(std::span<const ShardedCollective> layers, int worker);
// Where the worker's piece of `layer` starts among its pieces: after its pieces of the layers
// below.
std::size_t piece_offset(std::span<const ShardedCollective> layers, std::size_t layer, int worker);
// A whole vector's values at `runs`, one after another; an empty vector stays empty. The result's
// capacity is exactly its size (memory ledgers read capacities).
AlignedBuffer cut_runs(std::span<const double> whole, std::span<const ValueRun> runs);
// The opposite: `pieces`, one after another, put back where `runs` say they lie in `whole`.
void place_runs(std::span<const double> pieces, std::span<const ValueRun> runs,
                std::span<double> whole);

} // namespace lockstep
