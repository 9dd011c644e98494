#include "runs/moves.h"

#include "clocks/cost_model.h"
#include "core/error.h"
#include "trace/trace.h"
#include "trainers/run.h"

#include <algorithm>
#include <map>

namespace lockstep {

namespace {

constexpr std::int64_t kSteps = 2;

// "1 stage", "3 stages".
std::string count(int n, const char* one, const char* many) {
    return std::to_string(n) + " " + (n == 1 ? one : many);
} // every step moves the same bytes; two show it is per step

// What a run left in its trace, per step.
StrategyMoves summarise(const Trace& trace, const RunMetrics& m, int workers) {
    StrategyMoves out;
    out.workers = workers;
    std::map<std::pair<int, int>, std::int64_t> links;
    for (const auto& e : trace.events())
        if (e.kind == EventKind::Send)
            links[{e.worker, e.peer}] += e.bytes;
    for (const auto& [link, bytes] : links) {
        out.links.push_back({link.first, link.second, bytes / kSteps});
        out.bytes_per_step += bytes / kSteps;
    }
    out.step_time_s = m.total_time_s / static_cast<double>(kSteps);
    out.compute_s = m.compute_s / static_cast<double>(kSteps);
    out.waiting_s = m.waiting_s / static_cast<double>(kSteps);
    return out;
}

} // namespace

std::vector<StrategyMoves> compare_moves(const Scenario& scenario) {
    validate(scenario);
    const auto data = load_dataset(scenario);
    Scenario base = scenario;
    const std::optional<ParallelismConfig> asked = scenario.parallelism;
    const bool hybrid = asked && asked->mode == Parallelism::Hybrid;
    const int replicas = hybrid ? asked->replicas : 1;
    const std::size_t batch =
        asked ? scenario.batch * static_cast<std::size_t>(replicas) : scenario.global_batch();
    const int workers = asked ? asked->lanes() : scenario.workers;
    // Prices per sample and per message only, the same for every strategy.
    base.cost.compute_s_per_sample = compute_s_per_sample(scenario, batch);
    base.cost.one_worker_compute_s.reset();
    base.cost.communication_s_per_step.reset();
    base.delays = {};
    base.clock = ClockKind::Modelled;
    base.steps = kSteps;
    base.checkpoint.reset();
    base.memory_budget_bytes.reset(); // a data-parallel worker's budget; the others hold pieces
    base.shard_sizes.clear();
    base.worker_batch.clear();
    // Machines are priced for data parallelism alone: the strategies compare on one network.
    base.cost.topology = Topology{};
    if (base.algorithm == Algorithm::None || base.algorithm == Algorithm::Hierarchical)
        base.algorithm = Algorithm::Ring;
    const int microbatches =
        asked ? asked->microbatches : static_cast<int>(std::min<std::size_t>(batch, 4));
    const PipelineSchedule schedule = asked ? asked->schedule : PipelineSchedule::OneFOneB;

    std::vector<StrategyMoves> out;
    { // Data parallel: N replicas, the batch shared out, gradients all-reduced.
        if (batch < static_cast<std::size_t>(workers))
            throw Error("batch: " + std::to_string(batch) + " rows cannot be shared by " +
                        std::to_string(workers) + " data-parallel workers");
        Scenario s = base;
        s.parallelism.reset();
        s.workers = workers;
        const auto n = static_cast<std::size_t>(workers);
        for (std::size_t k = 0; k < n; ++k)
            s.worker_batch.push_back((k + 1) * batch / n - k * batch / n);
        s.batch = s.worker_batch.front();
        Trace trace;
        const auto t = make_run(s, data, &trace);
        t->run_to_end();
        auto m = summarise(trace, t->metrics(), workers);
        m.strategy = Parallelism::Data;
        m.layout = count(workers, "replica", "replicas") + ", " +
                   std::string(to_string(s.algorithm)) + " all-reduce";
        m.moved = "gradients";
        out.push_back(std::move(m));
    }
    { // Pipeline: consecutive layers per stage, micro-batches through them.
        Scenario s = base;
        const int stages =
            std::min(hybrid ? asked->stages : workers, static_cast<int>(s.model.layer_count()));
        s.batch = batch;
        s.parallelism =
            ParallelismConfig{Parallelism::Pipeline, stages,
                              std::min(microbatches, static_cast<int>(batch)), schedule, 1};
        Trace trace;
        const auto t = make_run(s, data, &trace);
        t->run_to_end();
        auto m = summarise(trace, t->metrics(), stages);
        m.strategy = Parallelism::Pipeline;
        m.layout = count(stages, "stage", "stages") + " x " +
                   count(s.parallelism->microbatches, "micro-batch", "micro-batches") + " (" +
                   std::string(to_string(schedule)) + ")";
        m.moved = "activations and activation gradients";
        out.push_back(std::move(m));
    }
    { // Tensor: every layer split by output features.
        Scenario s = base;
        int narrowest = s.model.layers[1];
        for (std::size_t l = 1; l < s.model.layers.size(); ++l)
            narrowest = std::min(narrowest, s.model.layers[l]);
        const int split = std::min(workers, narrowest);
        s.batch = batch;
        s.parallelism =
            ParallelismConfig{Parallelism::Tensor, split, 1, PipelineSchedule::FillDrain, 1};
        Trace trace;
        const auto t = make_run(s, data, &trace);
        t->run_to_end();
        auto m = summarise(trace, t->metrics(), split);
        m.strategy = Parallelism::Tensor;
        m.layout = split == 1 ? "1 worker holds every layer"
                              : std::to_string(split) + " workers share every layer";
        m.moved = "partial results (layer outputs, input gradients)";
        out.push_back(std::move(m));
    }
    if (hybrid) {
        Scenario s = base;
        s.parallelism = asked;
        Trace trace;
        const auto t = make_run(s, data, &trace);
        t->run_to_end();
        auto m = summarise(trace, t->metrics(), asked->lanes());
        m.strategy = Parallelism::Hybrid;
        m.layout = count(asked->replicas, "replica", "replicas") + " x " +
                   count(asked->stages, "stage", "stages");
        m.moved = "activations, activation gradients and each stage's gradients";
        out.push_back(std::move(m));
    }
    return out;
}

} // namespace lockstep
