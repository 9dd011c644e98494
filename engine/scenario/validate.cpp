// validate(): every field against its limits and against the others (workers and shards, stages
// and layers, faults and policies), each error naming the field.
#include "scenario/scenario.h"

#include "collectives/buckets.h"
#include "core/error.h"
#include "data/data.h"
#include "scenario/json_reader.h"
#include "scenario/pipeline_plan.h"

#include <cmath>

namespace lockstep {

using namespace scenario_reading;

namespace {

// How many buckets a data-parallel run of `s` reduces its gradient in (0: no collective).
std::size_t bucket_count(const Scenario& s) {
    if (!s.gradients || s.workers < 2 || s.algorithm == Algorithm::None || s.model_parallel() ||
        s.sync_mode() != SyncMode::Bsp)
        return 0;
    std::vector<std::size_t> layers;
    for (std::size_t l = 0; l < s.model.layer_count(); ++l)
        layers.push_back(s.model.weight_offset(l + 1) - s.model.weight_offset(l));
    return make_buckets(layers, s.gradients->bucket_kb * std::size_t{1024}).size();
}

void validate_failures(const Scenario& s) {
    const FailureConfig& f = s.failures;
    check_finite("failures.heartbeat_s", f.heartbeat_s, 0.0, 3600.0);
    check_finite("failures.restart_s", f.restart_s, 0.0, 3600.0);
    check_range("failures.backup_workers", f.backup_workers, 0, s.workers - 1);
    if (f.policy == RecoveryPolicy::Backup && f.backup_workers < 1)
        throw Error("failures.policy: backup needs failures.backup_workers of at least 1");
    if (f.events.size() > ScenarioLimits::max_failures)
        throw Error("failures.events: at most " + std::to_string(ScenarioLimits::max_failures) +
                    " entries");
    int crashes = 0;
    for (std::size_t i = 0; i < f.events.size(); ++i) {
        const FailureSpec& e = f.events[i];
        const std::string at = "failures.events[" + std::to_string(i) + "] (" + to_text(e) + ")";
        if (e.worker < 0 || e.worker >= s.workers)
            throw Error(at + ": worker must be between 0 and " + std::to_string(s.workers - 1));
        check_range<std::int64_t>(at + ": step", e.step, 0, ScenarioLimits::max_steps);
        if ((e.during_checkpoint() || e.kind == FailureKind::Corrupt) && !s.checkpoint)
            throw Error(at + ": needs a checkpoint policy (checkpoint.every)");
        if (e.kind == FailureKind::Pause)
            check_finite(at + ": seconds", e.seconds, 0.0, 86400.0);
        if (e.kind == FailureKind::SlowLink)
            check_finite(at + ": factor", e.factor, 1.0, 1000.0);
        if (e.during_checkpoint() && f.policy == RecoveryPolicy::Backup)
            throw Error(at + ": with backup workers a crash is a gradient that never arrives; "
                             "give it a step phase (compute, communicate or update)");
        if (e.kind == FailureKind::BucketOrder && bucket_count(s) < 2)
            throw Error(at + ": needs the gradient in two buckets or more, reduced between "
                             "workers (gradients.bucket_kb smaller than the model's gradient, "
                             "two workers or more, an algorithm)");
        if (e.kind == FailureKind::Crash)
            ++crashes;
    }
    if (crashes > 0 && f.policy != RecoveryPolicy::Restart && crashes >= s.workers)
        throw Error("failures.policy: " + std::string(to_string(f.policy)) +
                    " goes on with the survivors, but every worker is set to crash");
    const EnergyConfig& e = s.energy;
    check_finite("energy.compute_w", e.compute_w, 0.0, 1e6);
    check_finite("energy.communicate_w", e.communicate_w, 0.0, 1e6);
    check_finite("energy.wait_w", e.wait_w, 0.0, 1e6);
    check_finite("energy.checkpoint_w", e.checkpoint_w, 0.0, 1e6);
    check_finite("energy.idle_w", e.idle_w, 0.0, 1e6);
}

} // namespace

// What the looser modes of agreement cannot be combined with yet, each said plainly.
static void validate_sync(const Scenario& s) {
    const SyncConfig& c = *s.sync;
    if (c.mode == SyncMode::Bsp)
        return;
    const std::string mode(to_string(c.mode));
    check_range("sync.staleness", c.staleness, 0, ScenarioLimits::max_staleness);
    check_range<std::int64_t>("sync.local_steps", c.local_steps, 1, ScenarioLimits::max_steps);
    if (s.model_parallel())
        throw Error("sync.mode: " + mode + " is for data parallelism; parallelism.mode is \"" +
                    std::string(to_string(s.parallelism->mode)) + "\"");
    if (c.mode == SyncMode::Ssp || c.mode == SyncMode::Async) {
        if (s.algorithm != Algorithm::ParameterServer)
            throw Error("sync.mode: " + mode +
                        " sends every gradient to a parameter server that holds the model; set "
                        "algorithm to parameter-server (got " +
                        std::string(to_string(s.algorithm)) + ")");
        if (s.checkpoint)
            throw Error("checkpoint: a " + mode +
                        " run has no step at which all workers "
                        "agree, so it cannot save one checkpoint; use sync mode bsp or local");
    }
    if (c.mode == SyncMode::Local) {
        if (s.algorithm == Algorithm::None)
            throw Error("sync.mode: local averages the replicas' parameters with the collective; "
                        "algorithm none never averages them");
        if (s.rule == ReductionRule::Sum)
            throw Error("sync.mode: local averages parameters, so rule must be mean or "
                        "weighted-mean (a sum of parameters is not a model)");
        if (s.checkpoint && s.checkpoint->every % c.local_steps != 0)
            throw Error("checkpoint.every: must be a multiple of sync.local_steps (" +
                        std::to_string(c.local_steps) +
                        "): only after an averaging do the replicas hold one model");
    }
    for (const FailureSpec& f : s.failures.events)
        if (f.kind == FailureKind::Crash || f.kind == FailureKind::Corrupt)
            throw Error("failures: crashes and corrupted checkpoints are studied with sync mode "
                        "bsp; a " +
                        mode + " run takes delays, pauses and slow links");
    if (s.failures.backup_workers > 0)
        throw Error("failures.backup_workers: backup workers are a bulk-synchronous remedy; a " +
                    mode + " run does not wait for the last gradient in the first place");
}

// Buckets and accumulation shape how a bulk-synchronous data-parallel worker hands over its
// gradient; elsewhere there is no such gradient to put in buckets.
static void validate_gradients(const Scenario& s) {
    const GradientConfig& g = *s.gradients;
    check_range<std::int64_t>("gradients.bucket_kb", static_cast<std::int64_t>(g.bucket_kb), 0,
                              static_cast<std::int64_t>(ScenarioLimits::max_bucket_kb));
    check_range("gradients.accumulate", g.accumulate, 1, ScenarioLimits::max_accumulate);
    if (s.model_parallel())
        throw Error("gradients: buckets and accumulation are for data parallelism; "
                    "parallelism.mode is \"" +
                    std::string(to_string(s.parallelism->mode)) + "\"");
    if (s.sync_mode() != SyncMode::Bsp)
        throw Error("gradients: buckets and accumulation are for sync mode bsp, which reduces "
                    "every step's gradients; sync.mode is " +
                    std::string(to_string(s.sync_mode())));
    if (g.bucket_kb > 0 && s.cost.communication_s_per_step)
        throw Error("gradients.bucket_kb: a fixed communication time per step "
                    "(cost.communication_s_per_step) has no messages to put in buckets");
    if (g.bucket_kb > 0 && s.failures.backup_workers > 0)
        throw Error("gradients.bucket_kb: backup workers drop late gradients as a whole; they "
                    "do not work with buckets yet");
    for (int w = 0; w < s.workers; ++w)
        if (s.batch_of(w) * static_cast<std::size_t>(g.accumulate) > ScenarioLimits::max_batch)
            throw Error("gradients.accumulate: worker " + std::to_string(w) + " would compute " +
                        std::to_string(s.batch_of(w) * static_cast<std::size_t>(g.accumulate)) +
                        " samples a step, more than " + std::to_string(ScenarioLimits::max_batch));
}

static void validate_parallelism(const Scenario& s) {
    const ParallelismConfig& p = *s.parallelism;
    check_range("parallelism.stages", p.stages, 1, ScenarioLimits::max_workers);
    check_range("parallelism.microbatches", p.microbatches, 1,
                static_cast<int>(ScenarioLimits::max_batch));
    check_range("parallelism.replicas", p.replicas, 1, ScenarioLimits::max_workers);
    if (p.lanes() > ScenarioLimits::max_workers)
        throw Error("parallelism: " + std::to_string(p.replicas) + " replicas x " +
                    std::to_string(p.stages) + " stages need " + std::to_string(p.lanes()) +
                    " workers, at most " + std::to_string(ScenarioLimits::max_workers));
    if (p.mode != Parallelism::Data &&
        (!s.failures.events.empty() || s.failures.backup_workers > 0))
        throw Error("failures: model-parallel runs take no injected faults or backup workers; "
                    "use data parallelism to study failures");
    if (p.mode == Parallelism::Pipeline || p.mode == Parallelism::Hybrid)
        (void)plan_pipeline(s.model, s.batch, p);
    if (p.mode == Parallelism::Tensor && s.algorithm == Algorithm::None)
        throw Error("algorithm: a tensor-parallel run adds its workers' parts of each layer's "
                    "input gradient with an all-reduce; choose parameter-server, ring or tree, "
                    "not none");
    if (p.mode == Parallelism::Tensor)
        for (std::size_t l = 1; l < s.model.layers.size(); ++l)
            if (s.model.layers[l] < p.stages)
                throw Error("parallelism.stages: " + std::to_string(p.stages) +
                            " workers cannot share layer " + std::to_string(l - 1) + "'s " +
                            std::to_string(s.model.layers[l]) +
                            " outputs (each needs at least one)");
}

// Gradients in a narrower format: the bulk-synchronous data-parallel all-reduce, whole or in
// buckets, sends them so; what sends anything else, or splits it, is refused by name.
static void validate_comm_precision(const Scenario& s) {
    const std::string what =
        "comm_precision \"" + std::string(to_string(s.comm_precision)) + "\": ";
    if (s.model_parallel())
        throw Error(what + "the data-parallel gradients travel in it; parallelism.mode is \"" +
                    std::string(to_string(s.parallelism->mode)) + "\"");
    if (s.sync_mode() != SyncMode::Bsp)
        throw Error(what +
                    "needs sync mode bsp, whose all-reduce sends every step's gradients; "
                    "sync.mode is " +
                    std::string(to_string(s.sync_mode())));
    if (s.algorithm == Algorithm::None)
        throw Error(what + "needs a collective to send the gradients; algorithm is none");
    if (s.sharding != Sharding::None)
        throw Error(what + "does not work with sharding yet; sharding is \"" +
                    std::string(to_string(s.sharding)) + "\"");
}

// A float32 model: the data-parallel trainers with every worker's step on the float kernels;
// what runs the layers piece by piece (model parallelism, sharded parameters) or keeps its own
// replicas apart (the loose sync modes) is refused by name.
static void validate_precision(const Scenario& s) {
    const std::string what = "precision \"float32\": ";
    if (s.model_parallel())
        throw Error(what + "trains data-parallel workers; parallelism.mode is \"" +
                    std::string(to_string(s.parallelism->mode)) + "\"");
    if (s.sync_mode() != SyncMode::Bsp)
        throw Error(what + "needs sync mode bsp; sync.mode is " +
                    std::string(to_string(s.sync_mode())));
    if (s.sharding != Sharding::None)
        throw Error(what + "does not work with sharding yet; sharding is \"" +
                    std::string(to_string(s.sharding)) + "\"");
}

// Sharding splits a bulk-synchronous data-parallel all-reduce in its halves; what does not have
// one, or keeps state whole that a shard would split, is refused by name.
static void validate_sharding(const Scenario& s) {
    const std::string stage = "sharding \"" + std::string(to_string(s.sharding)) + "\": ";
    if (s.model_parallel())
        throw Error(stage +
                    "sharding splits the replicas of data parallelism; parallelism.mode "
                    "is \"" +
                    std::string(to_string(s.parallelism->mode)) + "\"");
    if (s.sync_mode() != SyncMode::Bsp)
        throw Error(stage +
                    "needs sync mode bsp, which reduces every step's gradients; "
                    "sync.mode is " +
                    std::string(to_string(s.sync_mode())));
    if (s.algorithm == Algorithm::None)
        throw Error(stage + "needs a collective to split; algorithm is none");
    if (s.cost.communication_s_per_step)
        throw Error(stage + "a fixed communication time per step "
                            "(cost.communication_s_per_step) has no halves to split");
    if (s.gradients && s.gradients->bucket_kb > 0)
        throw Error(stage + "does not work with gradient buckets (gradients.bucket_kb) yet");
    if (s.failures.backup_workers > 0)
        throw Error(stage + "backup workers drop a late worker's gradient, and with it its "
                            "shard's update");
}

// A budget is checked against a worker's memory ledger, which only a data-parallel worker that
// holds a whole replica keeps (bsp or local); whether the run fits is found by running a step
// (check_memory_budget(), runs.h), not here.
static void validate_memory_budget(const Scenario& s) {
    check_range<std::int64_t>("memory_budget_bytes", *s.memory_budget_bytes, 1,
                              ScenarioLimits::max_memory_budget_bytes);
    if (s.model_parallel())
        throw Error("memory_budget_bytes: a budget is checked against a data-parallel worker's "
                    "memory ledger; parallelism.mode is \"" +
                    std::string(to_string(s.parallelism->mode)) +
                    "\", whose workers hold pieces of the model and keep no ledger");
    if (s.sync_mode() == SyncMode::Ssp || s.sync_mode() == SyncMode::Async)
        throw Error("memory_budget_bytes: a budget is checked against a data-parallel worker's "
                    "memory ledger, kept with sync mode bsp or local; sync.mode is " +
                    std::string(to_string(s.sync_mode())) +
                    ", whose workers go through a parameter server and keep no ledger");
}

void validate(const Scenario& s) {
    check_range("workers", s.workers, 1, ScenarioLimits::max_workers);
    check_range<std::int64_t>("steps", s.steps, 1, ScenarioLimits::max_steps);
    check_range<std::size_t>("batch", s.batch, 1, ScenarioLimits::max_batch);
    if (!s.worker_batch.empty() && s.worker_batch.size() != static_cast<std::size_t>(s.workers))
        throw Error("worker_batch: needs one entry per worker (" + std::to_string(s.workers) +
                    "), got " + std::to_string(s.worker_batch.size()));
    for (std::size_t i = 0; i < s.worker_batch.size(); ++i)
        check_range<std::size_t>("worker_batch[" + std::to_string(i) + "]", s.worker_batch[i], 1,
                                 ScenarioLimits::max_batch);
    // Strong scaling's one-worker reference trains on the whole global batch: it must fit too.
    if (s.scaling == Scaling::Strong && s.global_batch() > ScenarioLimits::max_batch)
        throw Error("batch: with strong scaling the one-worker reference trains on the global "
                    "batch, " +
                    std::to_string(s.global_batch()) +
                    " samples (every worker's batch together), over the limit of " +
                    std::to_string(ScenarioLimits::max_batch) +
                    "; use a smaller batch or fewer workers, or \"scaling\": \"weak\"");
    if (!s.shard_sizes.empty() && s.shard_sizes.size() != static_cast<std::size_t>(s.workers))
        throw Error("shard_sizes: needs one entry per worker (" + std::to_string(s.workers) +
                    "), got " + std::to_string(s.shard_sizes.size()));
    for (std::size_t i = 0; i < s.shard_sizes.size(); ++i)
        check_range<std::size_t>("shard_sizes[" + std::to_string(i) + "]", s.shard_sizes[i], 1,
                                 ScenarioLimits::max_samples);

    const auto& layers = s.model.layers;
    if (layers.size() < 2 || layers.size() > ScenarioLimits::max_layers + 1)
        throw Error("model.layers: needs 2 to " + std::to_string(ScenarioLimits::max_layers + 1) +
                    " sizes (inputs, hidden..., outputs), got " + std::to_string(layers.size()));
    for (std::size_t i = 0; i < layers.size(); ++i)
        check_range("model.layers[" + std::to_string(i) + "]", layers[i], 1,
                    ScenarioLimits::max_layer_width);
    if (s.model.parameter_count() > ScenarioLimits::max_parameters)
        throw Error("model.layers: " + std::to_string(s.model.parameter_count()) +
                    " parameters, more than the limit of " +
                    std::to_string(ScenarioLimits::max_parameters));
    if (s.model.loss == LossKind::SoftmaxCrossEntropy && s.model.outputs() < 2)
        throw Error("model.layers: cross-entropy needs at least 2 outputs (one per class)");

    check_finite("optimizer.lr", s.optimizer.learning_rate, 0.0, 100.0);
    check_finite("optimizer.momentum", s.optimizer.momentum, 0.0, 0.999999);

    if (s.dataset.csv.empty()) {
        if (!is_synthetic_dataset(s.dataset.name))
            throw Error("dataset.name: unknown dataset \"" + s.dataset.name + "\"");
        check_range<std::size_t>("dataset.samples", s.dataset.samples, 1,
                                 ScenarioLimits::max_samples);
        check_finite("dataset.noise", s.dataset.noise, 0.0, 10.0);
        const bool regression = s.dataset.name == "regression";
        if (regression && s.model.loss != LossKind::MeanSquaredError)
            throw Error("model.loss: the regression dataset needs \"mse\"");
        if (!regression && s.model.loss == LossKind::MeanSquaredError)
            throw Error("model.loss: dataset \"" + s.dataset.name +
                        "\" has class labels; use \"cross-entropy\"");
        if (s.model.inputs() != 2)
            throw Error("model.layers[0]: the built-in datasets have 2 input features, got " +
                        std::to_string(s.model.inputs()));
        if (!regression) {
            const int classes =
                (s.dataset.name == "xor" || s.dataset.name == "circles") ? 2 : s.dataset.classes;
            if (s.model.outputs() < classes)
                throw Error("model.layers: the last layer needs one output per class (" +
                            std::to_string(classes) + "), got " +
                            std::to_string(s.model.outputs()));
        }
        if (s.dataset.samples < static_cast<std::size_t>(s.workers))
            throw Error("dataset.samples: needs at least one sample per worker (" +
                        std::to_string(s.workers) + "), got " + std::to_string(s.dataset.samples));
    }

    check_finite("cost.compute_s_per_sample", s.cost.compute_s_per_sample, 0.0, 3600.0);
    check_finite("cost.jitter", s.cost.jitter, 0.0, 0.9);
    if (s.cost.one_worker_compute_s)
        check_finite("cost.one_worker_compute_s", *s.cost.one_worker_compute_s, 0.0, 1e7);
    if (s.cost.communication_s_per_step)
        check_finite("cost.communication_s_per_step", *s.cost.communication_s_per_step, 0.0, 1e5);

    if (s.delays.slowdown.size() > static_cast<std::size_t>(s.workers))
        throw Error("delays.slowdown: one entry per worker at most (" + std::to_string(s.workers) +
                    "), got " + std::to_string(s.delays.slowdown.size()));
    for (std::size_t i = 0; i < s.delays.slowdown.size(); ++i)
        check_finite("delays.slowdown[" + std::to_string(i) + "]", s.delays.slowdown[i], 1.0,
                     100.0);
    for (std::size_t i = 0; i < s.delays.pauses.size(); ++i) {
        const auto& p = s.delays.pauses[i];
        const std::string at = "delays.pauses[" + std::to_string(i) + "]";
        check_range(at + ".worker", p.worker, 0, s.workers - 1);
        check_range<std::int64_t>(at + ".step", p.step, 0, s.steps - 1);
        check_finite(at + ".seconds", p.seconds, 0.0, 86400.0);
    }
    check_finite("delays.straggler_probability", s.delays.straggler_probability, 0.0, 1.0);
    check_finite("delays.straggler_factor", s.delays.straggler_factor, 1.0, 100.0);

    check_finite("cost.checkpoint_s_per_byte", s.cost.checkpoint_s_per_byte, 0.0, 1.0);
    check_finite("cost.fsync_s", s.cost.fsync_s, 0.0, 3600.0);
    scenario_reading::validate_topology(s);
    if (s.parallelism)
        validate_parallelism(s);
    if (s.sync)
        validate_sync(s);
    if (s.gradients)
        validate_gradients(s);
    if (s.sharding != Sharding::None)
        validate_sharding(s);
    if (s.model.precision != Precision::Float64)
        validate_precision(s);
    if (s.comm_precision != WirePrecision::Float64)
        validate_comm_precision(s);
    if (s.compare_precision) {
        const std::string what = "compare_precision: ";
        if (s.model_parallel() || s.sync_mode() != SyncMode::Bsp || s.sharding != Sharding::None ||
            s.algorithm == Algorithm::None)
            throw Error(what + "compares the summed gradient of bulk-synchronous data "
                               "parallelism, with a collective and without sharding");
        if (s.failures.policy == RecoveryPolicy::Backup)
            throw Error(what + "does not work with backup workers yet");
    }
    if (s.loss_scale) {
        check_range("loss_scale.initial", s.loss_scale->initial, 1.0, max_loss_scale);
        if (std::exp2(std::round(std::log2(s.loss_scale->initial))) != s.loss_scale->initial)
            throw Error("loss_scale.initial: must be a power of two (1, 2, 4, ... 16777216), so "
                        "scaling and unscaling lose no bits; got " +
                        number_text(s.loss_scale->initial));
        check_range<std::int64_t>("loss_scale.growth_interval", s.loss_scale->growth_interval, 1,
                                  ScenarioLimits::max_steps);
        if (s.wire_precision() == WirePrecision::Float64)
            throw Error("loss_scale: scales the gradients before they are rounded to a narrower "
                        "format; comm_precision is float64");
    }
    if (s.memory_budget_bytes)
        validate_memory_budget(s);
    if (s.checkpoint) {
        check_range<std::int64_t>("checkpoint.every", s.checkpoint->every, 1,
                                  ScenarioLimits::max_steps);
        check_range("checkpoint.keep", s.checkpoint->keep, 1,
                    static_cast<int>(ScenarioLimits::max_checkpoints_kept));
    }
    validate_failures(s);
}

} // namespace lockstep
