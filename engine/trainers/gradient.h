#pragma once

#include "data/data.h"
#include "model/model.h"
#include "model/optimizer.h"
#include "reports/metrics.h"

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

// A data-parallel worker's buffers (the threaded trainer's and a rank's alike): `gathered` and
// `layer_gradient` are used with sharded parameters only, `shard_gradient` with sharded
// gradients only.
struct WorkerBuffers {
    const AlignedBuffer& parameters;
    const AlignedBuffer& gathered;
    const AlignedBuffer& gradient;
    const AlignedBuffer& shard_gradient;
    const RangeGradient& layer_gradient;
    const OptimizerState& optimizer;
    const BatchScratch& scratch;
};
// Puts what the buffers hold now into `ledger`, by kind, and raises its peaks: their capacities,
// what is allocated rather than what is used.
void note_resident(const WorkerBuffers& buffers, WorkerMemory& ledger);

// Sharded parameters (ZeRO stage 3) train a batch one layer at a time, each layer's parameters
// there only for its pass: the whole model's arithmetic cut at the layers (model/layer_range),
// in the same 128-row chunks. begin_layer_batch() takes the next `batch` rows of `cursor` and
// makes room for their activations and deltas; forward_layer() runs them through layer `layer`
// with its parameters `layer_parameters` (after the last layer, their loss goes to `last`);
// backward_layer() computes the layer's gradient into `gradient` and the delta for the layer below,
// layers from the last down.
void begin_layer_batch(const ModelShape& model, const Dataset& data, DataCursor& cursor,
                       std::size_t batch, BatchScratch& scratch);
void forward_layer(const ModelShape& model, BatchScratch& scratch,
                   std::span<const double> layer_parameters, std::size_t layer, LossResult& last);
void backward_layer(const ModelShape& model, BatchScratch& scratch,
                    std::span<const double> layer_parameters, std::size_t layer,
                    RangeGradient& gradient);
// Stage 3 with `micro` micro-batches (gradient accumulation): layer `layer`'s gradient of
// micro-batch `m` (in `gradient`) joins those of the earlier ones, kept in `scratch`'s
// micro_gradient at the layer's place in the whole model. After the last, `gradient` holds their
// mean, added up and divided as accumulated_gradient() does it, so the bits are the same.
void accumulate_layer(const ModelShape& model, std::size_t layer, std::size_t m, std::size_t micro,
                      std::vector<double>& gradient, BatchScratch& scratch);
// The loss of `micro` micro-batches from each one's: added up, the loss divided by `micro` as
// accumulated_gradient() does.
void add_micro_loss(LossResult& total, const LossResult& part, std::size_t m, std::size_t micro);

} // namespace lockstep
