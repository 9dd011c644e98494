#pragma once

#include "model/optimizer.h"
#include "trainers/pipeline.h"

#include <vector>

namespace lockstep {

// One stage of one replica: its layers, their optimizer and gradient, and a buffer per
// micro-batch for what comes in (activations, activation gradients) and what it keeps for the
// backward pass. Neighbours write into these buffers; the schedule makes sure no two ops of a
// wave touch the same one.
struct PipelineTrainer::Lane {
    int id = 0;
    int replica = 0;
    int stage = 0;
    LayerRange range;
    std::vector<double> parameters; // the stage's slice of the model
    Optimizer optimizer{OptimizerConfig{}, 0};
    RangeGradient gradient;
    Workspace work;
    std::vector<std::vector<double>> input;        // per micro-batch: received activations
    std::vector<std::vector<double>> outputs;      // per micro-batch: kept for the backward pass
    std::vector<std::vector<double>> output_delta; // per micro-batch: received gradients
    double loss_total = 0.0;                       // last stage: summed over this step's rows
    std::size_t correct = 0;
    int held = 0; // micro-batches whose activations this stage holds now
    int peak = 0;
    Ticks clock = 0;
    std::uint64_t hash = 0;
};

} // namespace lockstep
