#pragma once

// One tensor-parallel layer computed on its own, outside any run: the oracle the tests hold the
// tensor-parallel trainer's layers against.

#include "collectives/transport.h"
#include "core/error.h"
#include "model/model.h"
#include "trainers/tensor.h"

#include <oneapi/tbb/parallel_for.h>

#include <string>

namespace lockstep::testing {

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
inline TensorLayerResult tensor_parallel_layer(TensorSplit split, int workers, Algorithm algorithm,
                                               std::span<const double> x, std::size_t rows,
                                               std::size_t in, std::size_t out,
                                               std::span<const double> weight,
                                               std::span<const double> bias) {
    const std::size_t shared = split == TensorSplit::Columns ? out : in;
    const char* what = split == TensorSplit::Columns ? "output" : "input";
    if (workers < 1)
        throw Error("tensor parallelism: needs at least 1 worker, got " + std::to_string(workers));
    if (static_cast<std::size_t>(workers) > shared)
        throw Error("tensor parallelism: " + std::to_string(workers) + " workers cannot share " +
                    std::to_string(shared) + " " + what + " features (each needs at least one)");
    if (x.size() != rows * in || weight.size() != out * in || bias.size() != out)
        throw Error("tensor parallelism: the input, weight or bias does not fit a " +
                    std::to_string(in) + "-to-" + std::to_string(out) + " layer over " +
                    std::to_string(rows) + " rows");
    if (split == TensorSplit::Rows && algorithm == Algorithm::None)
        throw Error("tensor parallelism: a row split needs an all-reduce (parameter-server, "
                    "ring or tree)");
    const auto n = static_cast<std::size_t>(workers);
    TensorLayerResult result;
    result.outputs.assign(n, std::vector<double>(rows * out, 0.0));
    std::vector<std::span<double>> buffers(result.outputs.begin(), result.outputs.end());

    if (split == TensorSplit::Columns) {
        // Worker k computes outputs [c_k, c_k+1) for every row into its piece of the buffer
        // (rows x its width, starting at rows * c_k); the all-gather fills in the others' pieces.
        std::vector<std::size_t> offsets(n + 1);
        for (int k = 0; k <= workers; ++k)
            offsets[static_cast<std::size_t>(k)] = rows * tensor_share_begin(k, workers, out);
        tbb::parallel_for(std::size_t{0}, n, [&](std::size_t k) {
            const std::size_t c0 = tensor_share_begin(static_cast<int>(k), workers, out);
            const std::size_t c1 = tensor_share_begin(static_cast<int>(k) + 1, workers, out);
            linear_forward(x.data(), rows, in, c1 - c0, weight.data() + c0 * in, bias.data() + c0,
                           result.outputs[k].data() + offsets[k]);
        });
        result.schedule = ring_all_gather_schedule(offsets);
        InProcessTransport transport;
        run_all_reduce(result.schedule, transport, buffers);
        // Every worker now has every piece: lay them out row by row as [rows][out].
        tbb::parallel_for(std::size_t{0}, n, [&](std::size_t k) {
            std::vector<double> pieces = result.outputs[k];
            for (int p = 0; p < workers; ++p) {
                const std::size_t c0 = tensor_share_begin(p, workers, out);
                const std::size_t c1 = tensor_share_begin(p + 1, workers, out);
                const double* piece = pieces.data() + offsets[static_cast<std::size_t>(p)];
                for (std::size_t b = 0; b < rows; ++b)
                    for (std::size_t c = c0; c < c1; ++c)
                        result.outputs[k][b * out + c] = piece[b * (c1 - c0) + (c - c0)];
            }
        });
    } else {
        // Worker k sees inputs [i_k, i_k+1) and the matching weight columns: a partial sum of
        // every output. The all-reduce adds them; the bias goes in once, afterwards.
        tbb::parallel_for(std::size_t{0}, n, [&](std::size_t k) {
            const std::size_t i0 = tensor_share_begin(static_cast<int>(k), workers, in);
            const std::size_t i1 = tensor_share_begin(static_cast<int>(k) + 1, workers, in);
            const std::size_t width = i1 - i0;
            std::vector<double> xs(rows * width), ws(out * width);
            for (std::size_t b = 0; b < rows; ++b)
                for (std::size_t i = 0; i < width; ++i)
                    xs[b * width + i] = x[b * in + i0 + i];
            for (std::size_t o = 0; o < out; ++o)
                for (std::size_t i = 0; i < width; ++i)
                    ws[o * width + i] = weight[o * in + i0 + i];
            linear_forward(xs.data(), rows, width, out, ws.data(), nullptr,
                           result.outputs[k].data());
        });
        result.schedule = make_schedule(algorithm, workers, rows * out);
        InProcessTransport transport;
        run_all_reduce(result.schedule, transport, buffers);
        tbb::parallel_for(std::size_t{0}, n, [&](std::size_t k) {
            for (std::size_t b = 0; b < rows; ++b)
                for (std::size_t o = 0; o < out; ++o)
                    result.outputs[k][b * out + o] += bias[o];
        });
    }
    result.bytes_moved = result.schedule.total_bytes();
    return result;
}

} // namespace lockstep::testing
