#include "scenario/pipeline_plan.h"
#include "core/error.h"

#include <algorithm>
#include <limits>
#include <string>

namespace lockstep {

std::string_view to_string(Parallelism mode) {
    switch (mode) {
    case Parallelism::Data:
        return "data";
    case Parallelism::Pipeline:
        return "pipeline";
    case Parallelism::Tensor:
        return "tensor";
    case Parallelism::Hybrid:
        return "hybrid";
    }
    return "data";
}

bool parse_parallelism(std::string_view text, Parallelism& out) {
    for (Parallelism m :
         {Parallelism::Data, Parallelism::Pipeline, Parallelism::Tensor, Parallelism::Hybrid})
        if (text == to_string(m)) {
            out = m;
            return true;
        }
    return false;
}

std::string_view to_string(PipelineSchedule schedule) {
    return schedule == PipelineSchedule::FillDrain ? "fill-drain" : "1f1b";
}

bool parse_pipeline_schedule(std::string_view text, PipelineSchedule& out) {
    if (text == "fill-drain")
        out = PipelineSchedule::FillDrain;
    else if (text == "1f1b")
        out = PipelineSchedule::OneFOneB;
    else
        return false;
    return true;
}

std::size_t range_cost(const ModelShape& shape, LayerRange range) {
    std::size_t cost = 0;
    for (std::size_t l = range.first; l < range.end; ++l) {
        const auto in = static_cast<std::size_t>(shape.layers[l]);
        const auto out = static_cast<std::size_t>(shape.layers[l + 1]);
        cost += in * out + out;
    }
    return cost;
}

std::vector<LayerRange> split_stages(const ModelShape& shape, int stages) {
    const std::size_t layers = shape.layer_count();
    if (stages < 1)
        throw Error("parallelism.stages: must be at least 1, got " + std::to_string(stages));
    if (static_cast<std::size_t>(stages) > layers)
        throw Error("parallelism.stages: " + std::to_string(stages) +
                    " stages need at least as many layers, the model has " +
                    std::to_string(layers) + " (model.layers lists " +
                    std::to_string(shape.layers.size()) + " widths)");
    const auto p = static_cast<std::size_t>(stages);
    // best[k][j]: the slowest stage's cost when the first j layers form k stages.
    constexpr std::size_t none = std::numeric_limits<std::size_t>::max();
    std::vector<std::vector<std::size_t>> best(p + 1, std::vector<std::size_t>(layers + 1, none));
    std::vector<std::vector<std::size_t>> cut(p + 1, std::vector<std::size_t>(layers + 1, 0));
    best[0][0] = 0;
    for (std::size_t k = 1; k <= p; ++k)
        for (std::size_t j = k; j <= layers; ++j)
            for (std::size_t i = k - 1; i < j; ++i) {
                if (best[k - 1][i] == none)
                    continue;
                const std::size_t slowest = std::max(best[k - 1][i], range_cost(shape, {i, j}));
                if (slowest < best[k][j]) {
                    best[k][j] = slowest;
                    cut[k][j] = i;
                }
            }
    std::vector<LayerRange> ranges(p);
    std::size_t end = layers;
    for (std::size_t k = p; k > 0; --k) {
        ranges[k - 1] = {cut[k][end], end};
        end = cut[k][end];
    }
    return ranges;
}

std::vector<PipelineOp> stage_program(PipelineSchedule schedule, int stage, int stages,
                                      int microbatches) {
    using K = PipelineOp::Kind;
    std::vector<PipelineOp> program;
    if (schedule == PipelineSchedule::FillDrain) {
        for (int i = 0; i < microbatches; ++i)
            program.push_back({K::Forward, i});
        for (int i = 0; i < microbatches; ++i)
            program.push_back({K::Backward, i});
        return program;
    }
    const int warmup = std::min(stages - 1 - stage, microbatches);
    int forwards = 0, backwards = 0;
    while (forwards < warmup)
        program.push_back({K::Forward, forwards++});
    while (forwards < microbatches) {
        program.push_back({K::Forward, forwards++});
        program.push_back({K::Backward, backwards++});
    }
    while (backwards < microbatches)
        program.push_back({K::Backward, backwards++});
    return program;
}

std::size_t PipelinePlan::first_row(int microbatch) const {
    std::size_t row = 0;
    for (int i = 0; i < microbatch; ++i)
        row += microbatch_rows[static_cast<std::size_t>(i)];
    return row;
}

PipelinePlan plan_pipeline(const ModelShape& shape, std::size_t batch,
                           const ParallelismConfig& config) {
    if (config.microbatches < 1)
        throw Error("parallelism.microbatches: must be at least 1, got " +
                    std::to_string(config.microbatches));
    if (config.replicas < 1)
        throw Error("parallelism.replicas: must be at least 1, got " +
                    std::to_string(config.replicas));
    if (static_cast<std::size_t>(config.microbatches) > batch)
        throw Error("parallelism.microbatches: " + std::to_string(config.microbatches) +
                    " micro-batches cannot be cut from a batch of " + std::to_string(batch) +
                    " rows (each needs at least one row)");
    PipelinePlan plan;
    plan.stages = config.stages;
    plan.microbatches = config.microbatches;
    plan.replicas = config.mode == Parallelism::Hybrid ? config.replicas : 1;
    plan.schedule = config.schedule;
    plan.ranges = split_stages(shape, config.stages);
    const auto m = static_cast<std::size_t>(config.microbatches);
    for (std::size_t i = 0; i < m; ++i)
        plan.microbatch_rows.push_back((i + 1) * batch / m - i * batch / m);
    for (int s = 0; s < config.stages; ++s) {
        auto program = stage_program(config.schedule, s, config.stages, config.microbatches);
        int held = 0, peak = 0;
        for (const auto& op : program) {
            held += op.kind == PipelineOp::Kind::Forward ? 1 : -1;
            peak = std::max(peak, held);
        }
        plan.programs.push_back(std::move(program));
        plan.peak_inflight.push_back(peak);
    }
    return plan;
}

FillDrainBubble fill_drain_bubble(int stages, int microbatches) {
    FillDrainBubble b;
    b.idle_slots = std::max(stages - 1, 0);
    b.slots = std::max(microbatches, 0) + b.idle_slots;
    b.fraction = b.slots > 0 ? static_cast<double>(b.idle_slots) / b.slots : 0.0;
    return b;
}

} // namespace lockstep
