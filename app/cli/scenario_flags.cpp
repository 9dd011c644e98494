#include "scenario_flags.h"

#include "collectives/reduction.h"
#include "core/error.h"
#include "data/data.h"

#include <QStringList>

#include <cstdint>

namespace lockstep::cli {

using lockstep::Parallelism;
using lockstep::ParallelismConfig;
using lockstep::ScenarioLimits;

Scenario scenario_from(const Options& o) {
    if (o.positional().size() > 1)
        throw Error(utf8(Cli::tr("expected at most one scenario file, got '%1' as well")
                             .arg(qs(o.positional()[1]))));
    lockstep::Scenario s = o.positional().empty() ? lockstep::Scenario{}
                                                  : lockstep::load_scenario(o.positional().front());
    using L = lockstep::ScenarioLimits;
    if (auto v = o.integer("--workers", 1, L::max_workers))
        s.workers = static_cast<int>(*v);
    if (auto v = o.integer("--steps", 1, L::max_steps))
        s.steps = *v;
    if (auto v = o.integer("--seed", 0, std::int64_t{1} << 53))
        s.seed = static_cast<std::uint64_t>(*v);
    if (auto v = o.integer("--batch", 1, static_cast<std::int64_t>(L::max_batch))) {
        s.batch = static_cast<std::size_t>(*v);
        s.worker_batch.clear();
    }
    if (auto t = o.text("--clock")) {
        if (*t == "modelled")
            s.clock = lockstep::ClockKind::Modelled;
        else if (*t == "measured")
            s.clock = lockstep::ClockKind::Measured;
        else
            throw not_one_of("--clock", "modelled, measured", *t);
    }
    choose(o, "--rule", s.rule, lockstep::parse_reduction_rule, "sum, mean, weighted-mean");
    choose(o, "--algorithm", s.algorithm, lockstep::parse_algorithm,
           "parameter-server, ring, tree, hierarchical, none");
    choose(o, "--activation", s.model.activation, lockstep::parse_activation,
           "tanh, relu, sigmoid, linear");
    choose(o, "--optimizer", s.optimizer.kind, lockstep::parse_optimizer, "sgd, adam");
    if (auto v = o.integer_list("--layers", 1, L::max_layer_width))
        s.model.layers.assign(v->begin(), v->end());
    if (auto v = o.number("--lr", 0.0, 100.0))
        s.optimizer.learning_rate = *v;
    if (auto v = o.number("--momentum", 0.0, 0.999999))
        s.optimizer.momentum = *v;
    if (auto t = o.text("--dataset")) {
        if (lockstep::is_synthetic_dataset(*t)) {
            s.dataset.name = *t;
            s.dataset.csv.clear();
            s.model.loss = *t == "regression" ? lockstep::LossKind::MeanSquaredError
                                              : lockstep::LossKind::SoftmaxCrossEntropy;
        } else if (t->size() > 4 && t->substr(t->size() - 4) == ".csv") {
            s.dataset.csv = *t;
            s.dataset.name.clear();
        } else {
            QStringList known;
            for (const auto& n : lockstep::synthetic_dataset_names())
                known << qs(n);
            throw Error(utf8(Cli::tr("--dataset: must be one of %1, or a file ending in .csv, got "
                                     "'%2'")
                                 .arg(known.join(QStringLiteral(", ")), qs(*t))));
        }
    }
    if (auto t = o.text("--shuffle")) {
        if (*t != "on" && *t != "off")
            throw Error(utf8(Cli::tr("--shuffle: must be on or off, got '%1'").arg(qs(*t))));
        s.shuffle = *t == "on";
    }
    if (auto t = o.text("--init-params"))
        s.init_params = *t;
    if (auto t = o.text("--sync")) {
        lockstep::SyncConfig c;
        if (!lockstep::parse_sync_mode(*t, c.mode))
            throw not_one_of("--sync", "bsp, ssp, async, local", *t);
        s.sync = c;
        // Both send every gradient to a parameter server: the one they need, unless named.
        if ((c.mode == lockstep::SyncMode::Ssp || c.mode == lockstep::SyncMode::Async) &&
            !o.has("--algorithm"))
            s.algorithm = lockstep::Algorithm::ParameterServer;
    }
    auto sync_flag = [&](const char* flag, lockstep::SyncMode needs) {
        if (o.has(flag) && s.sync_mode() != needs)
            throw Error(utf8(
                Cli::tr("%1: goes with --sync %2")
                    .arg(QString::fromLatin1(flag), qs(std::string(lockstep::to_string(needs))))));
    };
    sync_flag("--staleness", lockstep::SyncMode::Ssp);
    sync_flag("--local-steps", lockstep::SyncMode::Local);
    sync_flag("--staleness-aware-lr", lockstep::SyncMode::Async);
    if (auto v = o.integer("--staleness", 0, L::max_staleness))
        s.sync->staleness = static_cast<int>(*v);
    if (auto v = o.integer("--local-steps", 1, L::max_steps))
        s.sync->local_steps = static_cast<int>(*v);
    if (o.has("--staleness-aware-lr"))
        s.sync->staleness_aware_lr = true;
    for (const auto& spec : o.texts("--fail"))
        s.failures.events.push_back(lockstep::parse_failure_spec(spec));
    choose(o, "--policy", s.failures.policy, lockstep::parse_recovery_policy,
           "restart, elastic, backup");
    if (auto v = o.integer("--backup-workers", 0, L::max_workers - 1))
        s.failures.backup_workers = static_cast<int>(*v);
    if (auto v = o.number("--heartbeat", 0.0, 3600.0))
        s.failures.heartbeat_s = *v;
    if (auto v = o.integer("--checkpoint-every", 1, L::max_steps)) {
        s.checkpoint = s.checkpoint.value_or(lockstep::CheckpointConfig{});
        s.checkpoint->every = *v;
    }
    if (o.has("--keep") || o.has("--restore")) {
        if (!s.checkpoint)
            throw Error(
                utf8(Cli::tr("%1: needs a checkpoint policy (--checkpoint-every K)")
                         .arg(QString::fromLatin1(o.has("--keep") ? "--keep" : "--restore"))));
        if (auto v = o.integer("--keep", 1, L::max_checkpoints_kept))
            s.checkpoint->keep = static_cast<int>(*v);
        choose(o, "--restore", s.checkpoint->restore, lockstep::parse_restore_mode,
               "full, weights-only");
    }
    if (auto v = o.integer("--nodes", 1, L::max_workers)) {
        // M machines of K = workers / M, with the default links: a fast machine, a school network.
        if (s.workers % *v != 0)
            throw Error(utf8(Cli::tr("--nodes: %1 workers cannot be shared evenly among %2 "
                                     "machines; give a number of machines that divides the "
                                     "workers")
                                 .arg(s.workers)
                                 .arg(*v)));
        s.cost.topology.nodes = static_cast<int>(*v);
        s.cost.topology.workers_per_node = s.workers / static_cast<int>(*v);
    }
    if (o.has("--paced-links"))
        s.cost.paced_links = true;
    if (o.has("--bucket-kb") || o.has("--accumulate") || o.has("--no-overlap")) {
        lockstep::GradientConfig g = s.gradients.value_or(lockstep::GradientConfig{});
        if (auto v = o.integer("--bucket-kb", 0, static_cast<std::int64_t>(L::max_bucket_kb)))
            g.bucket_kb = static_cast<std::size_t>(*v);
        if (auto v = o.integer("--accumulate", 1, L::max_accumulate))
            g.accumulate = static_cast<int>(*v);
        if (o.has("--no-overlap"))
            g.overlap = false;
        s.gradients = g;
    }
    choose(o, "--shard", s.sharding, lockstep::parse_sharding,
           "none, optimizer, gradients, parameters");
    choose(o, "--comm-precision", s.comm_precision, lockstep::parse_wire_precision,
           "float64, float32, float16, bfloat16");
    choose(o, "--precision", s.model.precision, lockstep::parse_precision, "float64, float32");
    if (o.has("--compare-precision"))
        s.compare_precision = true;
    if (o.has("--loss-scale") || o.has("--loss-scale-growth")) {
        lockstep::LossScaleConfig c = s.loss_scale.value_or(lockstep::LossScaleConfig{});
        if (auto v = o.number("--loss-scale", 1.0, lockstep::max_loss_scale))
            c.initial = *v;
        if (auto v = o.integer("--loss-scale-growth", 1, L::max_steps))
            c.growth_interval = static_cast<int>(*v);
        s.loss_scale = c;
    }
    apply_parallel_flags(o, s);
    lockstep::validate(s); // once, the file and every flag together
    return s;
}

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
            throw Error(utf8(
                Cli::tr("--parallelism: must be one of data, pipeline, tensor, hybrid, got '%1'")
                    .arg(qs(*t))));
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
            throw Error(utf8(Cli::tr("%1: needs --parallelism pipeline, tensor or hybrid (or a "
                                     "\"parallelism\" object in the scenario)")
                                 .arg(qs(flag))));
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
                throw Error(utf8(
                    Cli::tr("--schedule: must be one of fill-drain, 1f1b, got '%1'").arg(qs(*t))));
        if (o.has("--replicas") && c.mode != Parallelism::Hybrid)
            throw Error(utf8(Cli::tr("--replicas: only a hybrid run has data-parallel replicas of "
                                     "its pipeline (--parallelism hybrid)")));
    }
}

} // namespace lockstep::cli
