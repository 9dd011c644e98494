#include "model_parallel.h"
#include "report.h"
#include "scenario_flags.h"

#include "core/error.h"
#include "reports/results.h"
#include "runs/moves.h"
#include "scenario/pipeline_plan.h"
#include "trace/trace.h"

#include <nlohmann/json.hpp>

#include <QStringList>

#include <cstdio>
#include <iostream>

namespace lockstep::cli {

namespace {

using nlohmann::json;

// "1 stage", "3 stages": `one` and `many` hold %1 for the number.
QString count(long long n, const QString& one, const QString& many) {
    return (n == 1 ? one : many).arg(QString::number(n));
}

QString layers_text(LayerRange range) {
    return range.end - range.first == 1
               ? Cli::tr("layer %1").arg(QString::number(range.first))
               : Cli::tr("layers %1-%2")
                     .arg(QString::number(range.first), QString::number(range.end - 1));
}

} // namespace

int report_model_parallel(const Options& o, const Scenario& s, const RunResult& result) {
    const auto& m = result.metrics;
    const auto& p = *s.parallelism;
    const bool piped = p.mode != Parallelism::Tensor;
    // A pipeline states its own figures: the bubble, the stages' layers.
    const PipelineReport& pipeline = m.pipeline;
    const std::vector<LayerRange> ranges =
        piped ? plan_pipeline(s.model, s.batch, p).ranges : std::vector<LayerRange>{};

    if (o.has("--json")) {
        // The same fields as a data-parallel run, then what only a split model has.
        json out = metrics_json(s, m);
        out["parallelism"] = std::string(to_string(p.mode));
        out["stages"] = p.stages;
        if (piped) {
            json stages = json::array();
            for (const auto& r : ranges)
                stages.push_back({{"first_layer", r.first}, {"end_layer", r.end}});
            out["microbatches"] = p.microbatches;
            out["schedule"] = std::string(to_string(p.schedule));
            out["replicas"] = p.mode == Parallelism::Hybrid ? p.replicas : 1;
            out["stage_layers"] = stages;
            out["bubble_fraction"] = pipeline.bubble_fraction;
            out["peak_inflight_microbatches"] = pipeline.peak_inflight_microbatches;
            out["activation_bytes"] = pipeline.activation_bytes;
            out["activation_gradient_bytes"] = pipeline.activation_gradient_bytes;
            out["gradient_bytes"] = pipeline.gradient_bytes;
            out["replicas_aligned"] = m.replicas_aligned;
        }
        std::cout << out.dump(2) << '\n';
        return 0;
    }
    if (piped) {
        QStringList layout;
        if (p.mode == Parallelism::Hybrid)
            layout << count(p.replicas, Cli::tr("%1 replica"), Cli::tr("%1 replicas"));
        layout << count(p.stages, Cli::tr("%1 stage"), Cli::tr("%1 stages"))
               << count(p.microbatches, Cli::tr("%1 micro-batch"), Cli::tr("%1 micro-batches")) +
                      QStringLiteral(" (") + qs(std::string(to_string(p.schedule))) +
                      QLatin1Char(')');
        print(Cli::tr("Lockstep run \"%1\": %2, %3, %4, %5 clock\n")
                  .arg(qs(s.name), qs(std::string(to_string(p.mode))),
                       layout.join(QStringLiteral(" x ")),
                       count(m.steps, Cli::tr("%1 step"), Cli::tr("%1 steps")),
                       qs(std::string(to_string(s.clock)))));
        QStringList stages;
        for (const LayerRange& range : ranges)
            stages << layers_text(range);
        print(report_line(Cli::tr("stages"), stages.join(QStringLiteral(" | "))));
    } else {
        print(Cli::tr("Lockstep run \"%1\": tensor, every layer split across %2 workers, %3 "
                      "steps, %4 clock\n")
                  .arg(qs(s.name), QString::number(p.stages), QString::number(m.steps),
                       qs(std::string(to_string(s.clock)))));
    }
    print(time_lines(m));
    if (piped) {
        const double formula = fill_drain_bubble(p.stages, p.microbatches).fraction;
        print(report_line(Cli::tr("bubble"),
                          Cli::tr("%1 % of stage time idle (equal stages, free messages: "
                                  "(P-1)/(M+P-1) = %2 %)")
                              .arg(decimal("%.1f", 100.0 * pipeline.bubble_fraction),
                                   decimal("%.1f", 100.0 * formula))));
        print(report_line(Cli::tr("in flight"),
                          Cli::tr("at most %1 micro-batches' activations held by one stage")
                              .arg(QString::number(pipeline.peak_inflight_microbatches))));
        print(report_line(Cli::tr("bytes moved"),
                          Cli::tr("%1 (activations %2, activation gradients %3, gradients %4)")
                              .arg(QString::number(m.bytes_moved),
                                   QString::number(pipeline.activation_bytes),
                                   QString::number(pipeline.activation_gradient_bytes),
                                   QString::number(pipeline.gradient_bytes))));
    } else {
        print(report_line(Cli::tr("bytes moved"),
                          Cli::tr("%1 (layer outputs gathered, input gradients all-reduced)")
                              .arg(QString::number(m.bytes_moved))));
    }
    print(report_line(Cli::tr("final loss"), Cli::tr("%1   accuracy %2 %")
                                                 .arg(decimal("%.4f", m.final_loss),
                                                      decimal("%.1f", 100.0 * m.final_accuracy))));
    return 0;
}

int command_moves(const std::vector<std::string>& args) {
    std::vector<std::string> valued{"--workers", "--batch", "--layers", "--steps", "--algorithm"};
    valued.insert(valued.end(), parallel_flags().begin(), parallel_flags().end());
    const Options o(args, valued, {"--json"});
    if (o.positional().size() > 1)
        throw Error(utf8(Cli::tr("moves takes at most one scenario file, got '%1' as well")
                             .arg(qs(o.positional()[1]))));
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
            throw Error(
                utf8(Cli::tr("--algorithm: must be one of parameter-server, ring, tree, got '%1'")
                         .arg(qs(*t))));
    apply_parallel_flags(o, s);
    validate(s);
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
    QStringList layers;
    for (int w : s.model.layers)
        layers << QString::number(w);
    print(Cli::tr("What moves in one training step of model %1, same batch for every strategy "
                  "(modelled clock, per worker means):\n\n")
              .arg(layers.join(QLatin1Char('-'))));
    const QString indent = pad(QString(), -9);
    for (const auto& m : strategies) {
        print(QStringLiteral("%1 %2\n").arg(pad(qs(std::string(to_string(m.strategy))), -9),
                                            qs(m.layout)));
        print(indent + QLatin1Char(' ') +
              Cli::tr("moves %1: %2 bytes per step\n")
                  .arg(qs(m.moved), QString::number(m.bytes_per_step)));
        print(indent + QLatin1Char(' ') +
              Cli::tr("step %1 s; per worker computing %2 s, waiting %3 s\n")
                  .arg(decimal("%.6g", m.step_time_s), decimal("%.6g", m.compute_s),
                       decimal("%.6g", m.waiting_s)));
    }
    print(Cli::tr("\nbytes per step on each link (from->to):\n"));
    for (const auto& m : strategies) {
        QString line;
        for (const auto& l : m.links)
            line +=
                QStringLiteral(" %1->%2 %3")
                    .arg(QString::number(l.from), QString::number(l.to), QString::number(l.bytes));
        if (line.isEmpty())
            line = QLatin1Char(' ') + Cli::tr("(nothing moves)");
        print(QStringLiteral("  ") + pad(qs(std::string(to_string(m.strategy))), -9) + line +
              QLatin1Char('\n'));
    }
    return 0;
}

} // namespace lockstep::cli
