#pragma once

#include "model/model.h"
#include "scenario/parallelism.h"

#include <cstddef>
#include <vector>

namespace lockstep {

// One entry of a stage's program: the forward or backward pass of one micro-batch.
struct PipelineOp {
    enum class Kind { Forward, Backward };
    Kind kind = Kind::Forward;
    int microbatch = 0;
    bool operator==(const PipelineOp&) const = default;
};

// Everything about a pipeline that follows from the model, the batch and the options: which
// layers each stage owns, how many rows each micro-batch has, each stage's program, and the
// most micro-batches whose activations a stage holds at once under that program.
struct PipelinePlan {
    int stages = 1;
    int microbatches = 1;
    int replicas = 1;
    PipelineSchedule schedule = PipelineSchedule::FillDrain;
    std::vector<LayerRange> ranges;                // per stage
    std::vector<std::size_t> microbatch_rows;      // per micro-batch of one replica's batch
    std::vector<std::vector<PipelineOp>> programs; // per stage
    std::vector<int> peak_inflight;                // per stage

    std::size_t first_row(int microbatch) const; // of the micro-batch inside the replica's batch
};

// Consecutive layers per stage, cut so that the slowest stage (multiply-adds per sample) is as
// fast as possible; ties go to the earliest cut. Throws lockstep::Error naming the field when
// there are more stages than layers.
std::vector<LayerRange> split_stages(const ModelShape& shape, int stages);

// A stage's program under a schedule. FillDrain: F0..F(M-1), B0..B(M-1). OneFOneB: min(P-1-s, M)
// forwards to warm up, then alternately one forward and one backward, then the last backwards.
// Backwards run in micro-batch order in both, so gradients add up in the order of an unsplit
// batch and the results are bitwise those of unsplit training.
std::vector<PipelineOp> stage_program(PipelineSchedule schedule, int stage, int stages,
                                      int microbatches);

// Validates the combination (stages, micro-batches, replicas against the model and the batch)
// and builds the plan. `batch` is one replica's batch. Throws lockstep::Error naming the field.
PipelinePlan plan_pipeline(const ModelShape& shape, std::size_t batch,
                           const ParallelismConfig& config);

// The bubble of a pipeline of `stages` equal stages over `microbatches` micro-batches when messages
// cost nothing: the step lasts M + P - 1 slots (one micro-batch's pass through one stage), of
// which each stage is busy M and idle P - 1, so (P-1)/(M+P-1) of the stage-time is idle. The same
// for fill-drain and 1F1B, which saves memory, not time.
struct FillDrainBubble {
    int idle_slots = 0; // P - 1
    int slots = 0;      // M + P - 1
    double fraction = 0.0;
};
FillDrainBubble fill_drain_bubble(int stages, int microbatches);

// Multiply-adds per sample of a layer range's forward pass (weights plus biases).
std::size_t range_cost(const ModelShape& shape, LayerRange range);

} // namespace lockstep
