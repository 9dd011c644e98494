#pragma once

#include "data/data.h"
#include "model/model.h"

#include <cstddef>
#include <span>
#include <vector>

// One worker's gradient for a data-parallel step, as the threaded trainer and a rank in its own
// process both compute it (gradient.cpp).
namespace lockstep {

// What a worker reuses from step to step to compute its gradient: its batch's rows, their
// features and targets, one micro-batch's gradient, the model's workspace.
struct BatchScratch {
    std::vector<std::size_t> rows;
    std::vector<double> features, targets;
    std::vector<double> micro_gradient; // with accumulation
    std::vector<double> layer_deltas;   // sharded parameters: the deltas between two layers
    Workspace work;
};

// The gradient over `micro` micro-batches of `batch` rows each, the next ones of `cursor`: their
// mean gradients added up without communicating, then divided by `micro`, so that under the
// mean rule it is the mean gradient of all those rows (to rounding); the loss likewise. With
// `ready`, the last micro-batch hands each layer's final gradient to `ready(layer)` as backward
// finishes it (and `ready(layer_count())` as that backward begins): the same bits.
LossResult accumulated_gradient(const ModelShape& model, std::span<const double> parameters,
                                const Dataset& data, DataCursor& cursor, std::size_t batch,
                                std::size_t micro, std::span<double> gradient,
                                BatchScratch& scratch, const LayerDone* ready = nullptr);

} // namespace lockstep
