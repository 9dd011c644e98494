#pragma once

#include "lockstep/collective.h"

#include <cstdint>
#include <span>
#include <vector>

namespace lockstep {

// How one fully connected layer's weight (torch layout, [out][in]) is cut across workers.
//   Columns: each worker owns a run of output features (rows of the torch weight) and computes
//            those outputs in full; an all-gather puts the pieces together on every worker.
//   Rows:    each worker owns a run of input features and sees only those inputs; it computes a
//            partial sum of every output, and an all-reduce adds the partial sums.
// (Megatron-LM's column- and row-parallel linear layers, named after the [in][out] matrix.)
enum class TensorSplit { Columns, Rows };

// Worker k's share of `n` features: [floor(k*n/N), floor((k+1)*n/N)).
std::size_t tensor_share_begin(int worker, int workers, std::size_t n);

// An all-gather around the ring 0 -> 1 -> ... -> N-1 -> 0 of pieces that start at `offsets`
// (N + 1 entries, the last the buffer's length): in round r, worker k passes piece (k - r) mod N
// to k + 1, which stores it. After N-1 rounds every worker holds every piece.
CommSchedule ring_all_gather_schedule(std::span<const std::size_t> offsets);

struct TensorLayerResult {
    std::vector<std::vector<double>> outputs; // per worker: rows x out, after the collective
    CommSchedule schedule;                    // what moved the partial results
    std::int64_t bytes_moved = 0;
};

// One layer, z = x W^T + b for `rows` rows, computed by `workers` workers that each hold only
// their piece of W (and, split by rows, of x). The pieces really move between the workers'
// buffers through the engine's collectives (`algorithm` for the all-reduce of a row split).
// Split by columns every output is computed exactly as the unsplit layer computes it (the same
// bits); split by rows the partial sums are added in another order (equal within rounding).
// Throws lockstep::Error when there are more workers than features to share.
TensorLayerResult tensor_parallel_layer(TensorSplit split, int workers, Algorithm algorithm,
                                        std::span<const double> x, std::size_t rows, std::size_t in,
                                        std::size_t out, std::span<const double> weight,
                                        std::span<const double> bias);

} // namespace lockstep
