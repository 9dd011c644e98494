// A lockstep:set link applied to a scenario: the same change in the lab, in an exercise's
// engine call and in a lesson's check.
#include "lockstep_lessons/action.h"

#include "collectives/reduction.h"
#include "collectives/schedule.h"
#include "core/error.h"

#include <vector>

namespace lockstep::lessons {

namespace {

// A list parse_action() has already checked against the parameter's type and range, so it
// converts without checking again.
std::vector<double> number_list(const QString& text) {
    std::vector<double> out;
    for (const QString& part : text.split(','))
        out.push_back(part.trimmed().toDouble());
    return out;
}

} // namespace

void apply_set(const Action& a, Scenario& s) {
    if (a.kind != ActionKind::Set)
        throw Error(a.url.toStdString() + ": not a 'set' action");
    if (a.has(QStringLiteral("workers"))) {
        const int workers = a.integer(QStringLiteral("workers"));
        if (workers != s.workers) {
            // Per-worker lists written for another worker count no longer apply.
            s.worker_batch.clear();
            s.shard_sizes.clear();
            if (s.delays.slowdown.size() > static_cast<std::size_t>(workers))
                s.delays.slowdown.resize(static_cast<std::size_t>(workers));
            std::erase_if(s.delays.pauses,
                          [&](const PauseDelay& p) { return p.worker >= workers; });
        }
        s.workers = workers;
        fit_machines(s); // K workers to a machine, as many machines as they fill
    }
    if (a.has(QStringLiteral("nodes"))) {
        // The workers in M machines, shared out evenly, with the links the scenario names (or
        // the defaults: a fast machine, a school's network).
        const int nodes = a.integer(QStringLiteral("nodes"));
        if (s.workers % nodes != 0)
            throw Error(a.url.toStdString() + ": " + std::to_string(s.workers) +
                        " workers cannot be shared evenly among " + std::to_string(nodes) +
                        " machines");
        s.cost.topology.nodes = nodes;
        s.cost.topology.workers_per_node = s.workers / nodes;
    }
    if (a.has(QStringLiteral("inter_mbit_s")) || a.has(QStringLiteral("inter_latency_us"))) {
        if (!s.cost.topology.machines())
            throw Error(a.url.toStdString() +
                        ": the network between machines needs machines (nodes, or a scenario "
                        "with a topology)");
        if (a.has(QStringLiteral("inter_mbit_s")))
            s.cost.topology.inter.bandwidth_mbit_s = a.number(QStringLiteral("inter_mbit_s"));
        if (a.has(QStringLiteral("inter_latency_us")))
            s.cost.topology.inter.latency_us = a.number(QStringLiteral("inter_latency_us"));
    }
    if (a.has(QStringLiteral("steps"))) {
        // The worked example's communication is a whole-run figure: keep it when steps change.
        const double total_comm =
            s.cost.communication_s_per_step.value_or(0.0) * static_cast<double>(s.steps);
        s.steps = a.integer(QStringLiteral("steps"));
        if (s.cost.communication_s_per_step)
            s.cost.communication_s_per_step = total_comm / static_cast<double>(s.steps);
    }
    if (a.has(QStringLiteral("batch"))) {
        s.batch = static_cast<std::size_t>(a.integer(QStringLiteral("batch")));
        s.worker_batch.clear();
    }
    if (a.has(QStringLiteral("seed")))
        s.seed = static_cast<std::uint64_t>(a.number(QStringLiteral("seed")));
    if (a.has(QStringLiteral("rule")))
        parse_reduction_rule(a.text(QStringLiteral("rule")).toStdString(), s.rule);
    if (a.has(QStringLiteral("algorithm")))
        parse_algorithm(a.text(QStringLiteral("algorithm")).toStdString(), s.algorithm);
    if (a.has(QStringLiteral("learning_rate")))
        s.optimizer.learning_rate = a.number(QStringLiteral("learning_rate"));
    if (a.has(QStringLiteral("clock")))
        s.clock = a.text(QStringLiteral("clock")) == QLatin1String("measured")
                      ? ClockKind::Measured
                      : ClockKind::Modelled;
    if (a.has(QStringLiteral("paced_links")))
        s.cost.paced_links = a.text(QStringLiteral("paced_links")) == QLatin1String("on");
    if (a.has(QStringLiteral("slowdown")))
        s.delays.slowdown = number_list(a.text(QStringLiteral("slowdown")));
    if (a.has(QStringLiteral("shards"))) {
        s.shard_sizes.clear();
        for (double v : number_list(a.text(QStringLiteral("shards"))))
            s.shard_sizes.push_back(static_cast<std::size_t>(v));
    }
    if (a.has(QStringLiteral("worker_batch"))) {
        s.worker_batch.clear();
        for (double v : number_list(a.text(QStringLiteral("worker_batch"))))
            s.worker_batch.push_back(static_cast<std::size_t>(v));
    }
    if (a.has(QStringLiteral("layers"))) {
        s.model.layers.clear();
        for (double v : number_list(a.text(QStringLiteral("layers"))))
            s.model.layers.push_back(static_cast<int>(v));
    }
    if (a.has(QStringLiteral("one_worker_s")))
        s.cost.one_worker_compute_s = a.number(QStringLiteral("one_worker_s"));
    if (a.has(QStringLiteral("communication_s")))
        s.cost.communication_s_per_step =
            a.number(QStringLiteral("communication_s")) / static_cast<double>(s.steps);
    if (a.has(QStringLiteral("jitter")))
        s.cost.jitter = a.number(QStringLiteral("jitter"));
    if (a.has(QStringLiteral("straggler_probability")))
        s.delays.straggler_probability = a.number(QStringLiteral("straggler_probability"));
    if (a.has(QStringLiteral("sync"))) {
        // A way of agreeing comes with its own setting; ssp and async need the parameter server.
        SyncConfig c;
        parse_sync_mode(a.text(QStringLiteral("sync")).toStdString(), c.mode);
        if (c.mode == SyncMode::Ssp || c.mode == SyncMode::Async)
            s.algorithm = Algorithm::ParameterServer;
        if (c.mode == SyncMode::Bsp)
            s.sync.reset();
        else
            s.sync = c;
    }
    if (a.has(QStringLiteral("staleness"))) {
        if (s.sync_mode() != SyncMode::Ssp)
            throw Error(a.url.toStdString() + ": staleness goes with sync=ssp");
        s.sync->staleness = a.integer(QStringLiteral("staleness"));
    }
    if (a.has(QStringLiteral("local_steps"))) {
        if (s.sync_mode() != SyncMode::Local)
            throw Error(a.url.toStdString() + ": local_steps goes with sync=local");
        s.sync->local_steps = a.integer(QStringLiteral("local_steps"));
    }
    if (a.has(QStringLiteral("bucket_kb")) || a.has(QStringLiteral("overlap")) ||
        a.has(QStringLiteral("accumulate"))) {
        GradientConfig g = s.gradients.value_or(GradientConfig{});
        if (a.has(QStringLiteral("bucket_kb")))
            g.bucket_kb = static_cast<std::size_t>(a.integer(QStringLiteral("bucket_kb")));
        if (a.has(QStringLiteral("overlap")))
            g.overlap = a.text(QStringLiteral("overlap")) == QLatin1String("on");
        if (a.has(QStringLiteral("accumulate")))
            g.accumulate = a.integer(QStringLiteral("accumulate"));
        s.gradients = g;
    }
    if (a.has(QStringLiteral("sharding"))) {
        const QString stage = a.text(QStringLiteral("sharding"));
        if (!parse_sharding(stage.toStdString(), s.sharding))
            throw Error(a.url.toStdString() +
                        ": sharding must be one of none, optimizer, gradients, parameters, got '" +
                        stage.toStdString() + "'");
    }
    // The formats: parse_action() has checked each is one of its names.
    if (a.has(QStringLiteral("precision")))
        parse_precision(a.text(QStringLiteral("precision")).toStdString(), s.model.precision);
    if (a.has(QStringLiteral("comm_precision")))
        parse_wire_precision(a.text(QStringLiteral("comm_precision")).toStdString(),
                             s.comm_precision);
    if (a.has(QStringLiteral("loss_scale"))) { // 0: no loss scaling
        const double scale = a.number(QStringLiteral("loss_scale"));
        if (scale == 0.0) {
            s.loss_scale.reset();
        } else {
            LossScaleConfig c = s.loss_scale.value_or(LossScaleConfig{});
            c.initial = scale;
            s.loss_scale = c;
        }
    }
    if (a.has(QStringLiteral("loss_scale_growth"))) {
        if (!s.loss_scale)
            throw Error(a.url.toStdString() +
                        ": loss_scale_growth needs a loss scale (loss_scale=65536, say)");
        s.loss_scale->growth_interval = a.integer(QStringLiteral("loss_scale_growth"));
    }
    try {
        validate(s);
    } catch (const Error& e) {
        throw Error(a.url.toStdString() + ": the scenario it makes is not valid: " + e.what());
    }
}

} // namespace lockstep::lessons
