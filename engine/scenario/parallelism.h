#pragma once

#include <string_view>

namespace lockstep {

// How one model's training is spread over workers.
//   Data:     every worker holds the whole model and its own share of the batch.
//   Pipeline: the model's layers cut into consecutive stages, one worker per stage; the batch
//             cut into micro-batches that flow through the stages.
//   Tensor:   every layer's weight cut across the workers; partial results are combined.
//   Hybrid:   `replicas` data-parallel copies of a `stages`-stage pipeline.
enum class Parallelism { Data, Pipeline, Tensor, Hybrid };

// The order in which a pipeline stage runs its micro-batches' forward and backward passes.
//   FillDrain: all forwards, then all backwards (GPipe).
//   OneFOneB:  after a warm-up of forwards, one forward then one backward (PipeDream-Flush,
//              Megatron-LM): the same bubble, but at most `stages` micro-batches held at once.
enum class PipelineSchedule { FillDrain, OneFOneB };

struct ParallelismConfig {
    Parallelism mode = Parallelism::Data;
    int stages = 1;       // pipeline stages (tensor: workers sharing each layer)
    int microbatches = 1; // pipeline and hybrid: micro-batches per replica's batch
    PipelineSchedule schedule = PipelineSchedule::FillDrain;
    int replicas = 1; // hybrid: data-parallel copies of the pipeline

    int lanes() const { return mode == Parallelism::Hybrid ? stages * replicas : stages; }
};

std::string_view to_string(Parallelism mode); // "data", "pipeline", "tensor", "hybrid"
bool parse_parallelism(std::string_view text, Parallelism& out);
std::string_view to_string(PipelineSchedule schedule); // "fill-drain", "1f1b"
bool parse_pipeline_schedule(std::string_view text, PipelineSchedule& out);

} // namespace lockstep
