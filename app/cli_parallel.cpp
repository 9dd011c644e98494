#include "cli_parallel.h"
#include "cli_outputs.h"
#include "cli_report.h"

#include "core/error.h"
#include "reports/moves.h"
#include "trace/trace.h"
#include "trainers/data_parallel.h"
#include "trainers/pipeline.h"
#include "trainers/run.h"

#include <nlohmann/json.hpp>

#include <cstdio>
#include <fstream>
#include <iostream>

namespace lockstep::cli {

namespace {

using nlohmann::json;

void write_text(const std::string& path, const std::string& text) {
    std::ofstream out(path, std::ios::binary | std::ios::trunc);
    out << text;
    out.close();
    if (!out)
        throw Error(path + ": cannot write the file");
}

// "1 stage", "3 stages".
std::string count(long long n, const char* one, const char* many) {
    return std::to_string(n) + " " + (n == 1 ? one : many);
}

std::string layers_text(LayerRange range) {
    return range.end - range.first == 1
               ? "layer " + std::to_string(range.first)
               : "layers " + std::to_string(range.first) + "-" + std::to_string(range.end - 1);
}

// Everything a model-parallel run reports, whichever trainer ran it.
struct ParallelRun {
    RunMetrics metrics;
    std::vector<double> parameters;
    PipelineReport pipeline; // pipeline and hybrid
    std::vector<LayerRange> ranges;
};

ParallelRun train(const Scenario& s, RunOutputs& outputs) {
    ParallelRun out;
    const std::unique_ptr<Run> run = make_run(s, load_dataset(s), &outputs);
    outputs.begin(run->lanes());
    while (!run->finished())
        run->step();
    out.metrics = run->metrics();
    out.parameters = run->parameters();
    // A pipeline also states its own figures: the bubble, the stages' layers.
    if (const auto* pipeline = dynamic_cast<const PipelineTrainer*>(run.get())) {
        out.pipeline = pipeline->report();
        out.ranges = pipeline->plan().ranges;
    }
    return out;
}

} // namespace

const std::vector<std::string>& parallel_flags() {
    static const std::vector<std::string> flags{"--parallelism", "--stages", "--microbatches",
                                                "--schedule", "--replicas"};
    return flags;
}

void apply_parallel_flags(const Options& o, Scenario& s) {
    using L = ScenarioLimits;
    if (auto t = o.text("--parallelism")) {
        Parallelism mode = Parallelism::Data;
        if (!parse_parallelism(*t, mode))
            throw Error("--parallelism: must be one of data, pipeline, tensor, hybrid, got '" + *t +
                        "'");
        if (mode == Parallelism::Data) {
            s.parallelism.reset();
        } else {
            ParallelismConfig c = s.parallelism.value_or(ParallelismConfig{});
            if (!s.parallelism) { // defaults for a scenario without a "parallelism" object
                c.stages = 2;
                c.microbatches = 4;
                c.replicas = 2;
            }
            c.mode = mode;
            s.parallelism = c;
        }
    }
    for (const auto& flag : parallel_flags())
        if (flag != "--parallelism" && o.has(flag) && !s.parallelism)
            throw Error(flag + ": needs --parallelism pipeline, tensor or hybrid (or a "
                               "\"parallelism\" object in the scenario)");
    if (s.parallelism) {
        auto& c = *s.parallelism;
        if (auto v = o.integer("--stages", 0, L::max_workers))
            c.stages = static_cast<int>(*v);
        if (auto v = o.integer("--microbatches", 0, static_cast<std::int64_t>(L::max_batch)))
            c.microbatches = static_cast<int>(*v);
        if (auto v = o.integer("--replicas", 0, L::max_workers))
            c.replicas = static_cast<int>(*v);
        if (auto t = o.text("--schedule"))
            if (!parse_pipeline_schedule(*t, c.schedule))
                throw Error("--schedule: must be one of fill-drain, 1f1b, got '" + *t + "'");
        if (o.has("--replicas") && c.mode != Parallelism::Hybrid)
            throw Error("--replicas: only a hybrid run has data-parallel replicas of its "
                        "pipeline (--parallelism hybrid)");
    }
    validate(s);
}

bool is_model_parallel(const Scenario& s) {
    return s.parallelism && s.parallelism->mode != Parallelism::Data;
}

int run_model_parallel(const Options& o, const Scenario& s) {
    for (const char* flag : {"--checkpoint-dir", "--checkpoint-every", "--keep", "--restore"})
        if (o.has(flag))
            throw Error(std::string(flag) +
                        ": checkpoints are written by data-parallel runs only for now");
    RunOutputs outputs(o, s.name);
    const ParallelRun run = train(s, outputs);
    outputs.finish();
    const auto& m = run.metrics;
    const auto& p = *s.parallelism;
    if (auto path = o.text("--params-out"))
        write_text(*path, parameters_to_json(s.model, run.parameters));
    const bool piped = p.mode != Parallelism::Tensor;

    if (o.has("--json")) {
        // The same fields as a data-parallel run, then what only a split model has.
        json out = metrics_json(s, m);
        out["parallelism"] = std::string(to_string(p.mode));
        out["stages"] = p.stages;
        if (piped) {
            json stages = json::array();
            for (const auto& r : run.ranges)
                stages.push_back({{"first_layer", r.first}, {"end_layer", r.end}});
            out["microbatches"] = p.microbatches;
            out["schedule"] = std::string(to_string(p.schedule));
            out["replicas"] = p.mode == Parallelism::Hybrid ? p.replicas : 1;
            out["stage_layers"] = stages;
            out["bubble_fraction"] = run.pipeline.bubble_fraction;
            out["peak_inflight_microbatches"] = run.pipeline.peak_inflight_microbatches;
            out["activation_bytes"] = run.pipeline.activation_bytes;
            out["activation_gradient_bytes"] = run.pipeline.activation_gradient_bytes;
            out["gradient_bytes"] = run.pipeline.gradient_bytes;
            out["replicas_aligned"] = m.replicas_aligned;
        }
        std::cout << out.dump(2) << '\n';
        return 0;
    }
    if (piped) {
        std::string layout;
        if (p.mode == Parallelism::Hybrid)
            layout = count(p.replicas, "replica", "replicas") + " x ";
        layout += count(p.stages, "stage", "stages") + " x " +
                  count(p.microbatches, "micro-batch", "micro-batches") + " (" +
                  std::string(to_string(p.schedule)) + ")";
        std::printf("Lockstep run \"%s\": %s, %s, %s, %s clock\n", s.name.c_str(),
                    std::string(to_string(p.mode)).c_str(), layout.c_str(),
                    count(m.steps, "step", "steps").c_str(),
                    std::string(to_string(s.clock)).c_str());
        std::string stages;
        for (std::size_t k = 0; k < run.ranges.size(); ++k)
            stages.append(k ? " | " : "").append(layers_text(run.ranges[k]));
        std::printf("  stages            %s\n", stages.c_str());
    } else {
        std::printf("Lockstep run \"%s\": tensor, every layer split across %d workers, %lld "
                    "steps, %s clock\n",
                    s.name.c_str(), p.stages, static_cast<long long>(m.steps),
                    std::string(to_string(s.clock)).c_str());
    }
    std::printf("  total time        %s s  (one worker, same work: %s s)\n",
                format_number(m.total_time_s).c_str(), format_number(m.baseline_time_s).c_str());
    std::printf("  speedup           %.3f   efficiency %.1f %%\n", m.speedup, 100.0 * m.efficiency);
    std::printf("  per worker        compute %.4g s, communication %.4g s, waiting %.4g s\n",
                m.compute_s, m.communication_s, m.waiting_s);
    if (piped) {
        const double formula =
            static_cast<double>(p.stages - 1) / static_cast<double>(p.microbatches + p.stages - 1);
        std::printf("  bubble            %.1f %% of stage time idle (equal stages, free "
                    "messages: (P-1)/(M+P-1) = %.1f %%)\n",
                    100.0 * run.pipeline.bubble_fraction, 100.0 * formula);
        std::printf("  in flight         at most %d micro-batches' activations held by one "
                    "stage\n",
                    run.pipeline.peak_inflight_microbatches);
        std::printf("  bytes moved       %lld (activations %lld, activation gradients %lld, "
                    "gradients %lld)\n",
                    static_cast<long long>(m.bytes_moved),
                    static_cast<long long>(run.pipeline.activation_bytes),
                    static_cast<long long>(run.pipeline.activation_gradient_bytes),
                    static_cast<long long>(run.pipeline.gradient_bytes));
    } else {
        std::printf("  bytes moved       %lld (layer outputs gathered, input gradients "
                    "all-reduced)\n",
                    static_cast<long long>(m.bytes_moved));
    }
    std::printf("  final loss        %.4f   accuracy %.1f %%\n", m.final_loss,
                100.0 * m.final_accuracy);
    return 0;
}

int command_moves(const std::vector<std::string>& args) {
    std::vector<std::string> valued{"--workers", "--batch", "--layers", "--steps", "--algorithm"};
    valued.insert(valued.end(), parallel_flags().begin(), parallel_flags().end());
    const Options o(args, valued, {"--json"});
    if (o.positional().size() > 1)
        throw Error("moves takes at most one scenario file, got '" + o.positional()[1] +
                    "' as well");
    Scenario s = o.positional().empty() ? Scenario{} : load_scenario(o.positional().front());
    using L = ScenarioLimits;
    if (auto v = o.integer("--workers", 1, L::max_workers))
        s.workers = static_cast<int>(*v);
    if (auto v = o.integer("--batch", 1, static_cast<std::int64_t>(L::max_batch))) {
        s.batch = static_cast<std::size_t>(*v);
        s.worker_batch.clear();
    }
    if (auto v = o.integer_list("--layers", 1, L::max_layer_width))
        s.model.layers.assign(v->begin(), v->end());
    if (auto v = o.integer("--steps", 1, L::max_steps))
        s.steps = *v;
    if (auto t = o.text("--algorithm"))
        if (!parse_algorithm(*t, s.algorithm))
            throw Error("--algorithm: must be one of parameter-server, ring, tree, got '" + *t +
                        "'");
    apply_parallel_flags(o, s);
    const auto strategies = compare_moves(s);

    if (o.has("--json")) {
        json list = json::array();
        for (const auto& m : strategies) {
            json links = json::array();
            for (const auto& l : m.links)
                links.push_back({{"from", l.from}, {"to", l.to}, {"bytes", l.bytes}});
            list.push_back({{"strategy", std::string(to_string(m.strategy))},
                            {"workers", m.workers},
                            {"layout", m.layout},
                            {"moves", m.moved},
                            {"bytes_per_step", m.bytes_per_step},
                            {"step_time_s", m.step_time_s},
                            {"compute_s", m.compute_s},
                            {"waiting_s", m.waiting_s},
                            {"links", links}});
        }
        std::cout
            << json{{"scenario", s.name}, {"layers", s.model.layers}, {"strategies", list}}.dump(2)
            << '\n';
        return 0;
    }
    std::string layers;
    for (int w : s.model.layers)
        layers.append(layers.empty() ? "" : "-").append(std::to_string(w));
    std::printf("What moves in one training step of model %s, same batch for every strategy "
                "(modelled clock, per worker means):\n\n",
                layers.c_str());
    for (const auto& m : strategies) {
        std::printf("%-9s %s\n", std::string(to_string(m.strategy)).c_str(), m.layout.c_str());
        std::printf("%-9s moves %s: %lld bytes per step\n", "", m.moved.c_str(),
                    static_cast<long long>(m.bytes_per_step));
        std::printf("%-9s step %.6g s; per worker computing %.6g s, waiting %.6g s\n", "",
                    m.step_time_s, m.compute_s, m.waiting_s);
    }
    std::printf("\nbytes per step on each link (from->to):\n");
    for (const auto& m : strategies) {
        std::string line;
        for (const auto& l : m.links)
            line.append(" ")
                .append(std::to_string(l.from))
                .append("->")
                .append(std::to_string(l.to))
                .append(" ")
                .append(std::to_string(l.bytes));
        std::printf("  %-9s%s\n", std::string(to_string(m.strategy)).c_str(),
                    line.empty() ? " (nothing moves)" : line.c_str());
    }
    return 0;
}

} // namespace lockstep::cli
