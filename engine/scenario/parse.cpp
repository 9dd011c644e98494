#include "scenario/scenario.h"

#include "core/error.h"
#include "core/json_text.h"
#include "data/data.h"
#include "scenario/json_reader.h"
#include "scenario/parallelism.h"

#include <nlohmann/json.hpp>

#include <cctype>
#include <cmath>
#include <filesystem>
#include <fstream>
#include <functional>
#include <map>
#include <set>
#include <sstream>
#include <type_traits>

namespace lockstep {

using nlohmann::json;
using namespace scenario_reading;

// A scenario file read field by field, in the order the format lists them.

namespace {

void parse_model(ObjectReader& root, Scenario& s) {
    const json* v = root.find("model");
    if (!v)
        return;
    ObjectReader r(*v, "model");
    if (const json* layers = r.find("layers")) {
        auto sizes = read_size_list(*layers, "model.layers", ScenarioLimits::max_layers + 1, 1,
                                    ScenarioLimits::max_layer_width);
        s.model.layers.assign(sizes.begin(), sizes.end());
    }
    r.read_choice<Activation>("activation", s.model.activation,
                              {"tanh", "relu", "sigmoid", "linear"}, parse_activation);
    r.read_choice<LossKind>("loss", s.model.loss, {"cross-entropy", "mse"},
                            [](std::string_view t, LossKind& out) {
                                if (t == "cross-entropy")
                                    out = LossKind::SoftmaxCrossEntropy;
                                else if (t == "mse")
                                    out = LossKind::MeanSquaredError;
                                else
                                    return false;
                                return true;
                            });
    r.read_string("init_params", s.init_params);
    r.reject_unknown();
}

void parse_dataset(ObjectReader& root, Scenario& s) {
    const json* v = root.find("dataset");
    if (!v)
        return;
    ObjectReader r(*v, "dataset");
    std::string name = s.dataset.name;
    r.read_string("name", name, 64);
    std::string csv;
    r.read_string("csv", csv);
    if (!csv.empty()) {
        s.dataset.csv = csv;
        s.dataset.name.clear();
    } else if (r.find("name")) {
        if (!is_synthetic_dataset(name)) {
            std::string known;
            for (const auto& n : synthetic_dataset_names())
                known += (known.empty() ? "" : ", ") + n;
            throw Error("dataset.name: must be one of " + known + ", got \"" + name + "\"");
        }
        s.dataset.name = name;
        s.dataset.csv.clear();
    }
    r.read_count("samples", s.dataset.samples, 1,
                 static_cast<std::int64_t>(ScenarioLimits::max_samples));
    r.read_number("noise", s.dataset.noise, 0.0, 10.0);
    r.read_count("classes", s.dataset.classes, 1, 8);
    r.reject_unknown();
}

void parse_optimizer_config(ObjectReader& root, Scenario& s) {
    const json* v = root.find("optimizer");
    if (!v)
        return;
    ObjectReader r(*v, "optimizer");
    r.read_choice<OptimizerKind>("kind", s.optimizer.kind, {"sgd", "adam"}, parse_optimizer);
    r.read_number("lr", s.optimizer.learning_rate, 0.0, 100.0);
    r.read_number("momentum", s.optimizer.momentum, 0.0, 0.999999);
    r.read_number("beta1", s.optimizer.beta1, 0.0, 0.999999);
    r.read_number("beta2", s.optimizer.beta2, 0.0, 0.999999999);
    r.read_number("eps", s.optimizer.epsilon, 1e-300, 1.0);
    r.reject_unknown();
}

void parse_cost(ObjectReader& root, Scenario& s) {
    const json* v = root.find("cost");
    if (!v)
        return;
    ObjectReader r(*v, "cost");
    r.read_number("compute_s_per_sample", s.cost.compute_s_per_sample, 0.0, 3600.0);
    r.read_number("update_s", s.cost.update_s, 0.0, 3600.0);
    r.read_number("alpha_s", s.cost.alpha_s, 0.0, 3600.0);
    r.read_number("beta_s_per_byte", s.cost.beta_s_per_byte, 0.0, 1.0);
    r.read_number("gamma_s_per_byte", s.cost.gamma_s_per_byte, 0.0, 1.0);
    r.read_number("jitter", s.cost.jitter, 0.0, 0.9);
    r.read_optional_number("one_worker_compute_s", s.cost.one_worker_compute_s, 0.0, 1e7);
    r.read_optional_number("communication_s_per_step", s.cost.communication_s_per_step, 0.0, 1e5);
    r.read_number("checkpoint_s_per_byte", s.cost.checkpoint_s_per_byte, 0.0, 1.0);
    r.read_number("fsync_s", s.cost.fsync_s, 0.0, 3600.0);
    r.read_bool("paced_links", s.cost.paced_links);
    r.reject_unknown();
}

void parse_checkpoint(ObjectReader& root, Scenario& s) {
    const json* v = root.find("checkpoint");
    if (!v)
        return;
    ObjectReader r(*v, "checkpoint");
    CheckpointConfig c;
    if (!r.find("every"))
        throw Error("checkpoint.every: required, a whole number between 1 and " +
                    std::to_string(ScenarioLimits::max_steps));
    r.read_int("every", c.every, 1, ScenarioLimits::max_steps);
    r.read_count("keep", c.keep, 1, ScenarioLimits::max_checkpoints_kept);
    r.read_bool("sharded_optimizer", c.sharded_optimizer);
    r.read_choice<RestoreMode>("restore", c.restore, {"full", "weights-only"}, parse_restore_mode);
    r.reject_unknown();
    s.checkpoint = c;
}

void parse_parallelism_config(ObjectReader& root, Scenario& s) {
    const json* v = root.find("parallelism");
    if (!v)
        return;
    ObjectReader r(*v, "parallelism");
    ParallelismConfig c;
    if (!r.find("mode"))
        throw Error("parallelism.mode: required, one of data, pipeline, tensor, hybrid");
    r.read_choice<Parallelism>("mode", c.mode, {"data", "pipeline", "tensor", "hybrid"},
                               parse_parallelism);
    r.read_count("stages", c.stages, 1, ScenarioLimits::max_workers);
    r.read_count("microbatches", c.microbatches, 1,
                 static_cast<std::int64_t>(ScenarioLimits::max_batch));
    r.read_choice<PipelineSchedule>("schedule", c.schedule, {"fill-drain", "1f1b"},
                                    parse_pipeline_schedule);
    r.read_count("replicas", c.replicas, 1, ScenarioLimits::max_workers);
    r.reject_unknown();
    s.parallelism = c;
}

void parse_sync_config(ObjectReader& root, Scenario& s) {
    const json* v = root.find("sync");
    if (!v)
        return;
    ObjectReader r(*v, "sync");
    SyncConfig c;
    if (!r.find("mode"))
        throw Error("sync.mode: required, one of bsp, ssp, async, local");
    r.read_choice<SyncMode>("mode", c.mode, {"bsp", "ssp", "async", "local"}, parse_sync_mode);
    if (r.find("staleness") && c.mode != SyncMode::Ssp)
        throw Error("sync.staleness: only for mode ssp (the bound on how far a worker runs ahead)");
    if (r.find("local_steps") && c.mode != SyncMode::Local)
        throw Error("sync.local_steps: only for mode local (the steps between two averagings)");
    if (r.find("staleness_aware_lr") && c.mode != SyncMode::Async)
        throw Error("sync.staleness_aware_lr: only for mode async");
    r.read_count("staleness", c.staleness, 0, ScenarioLimits::max_staleness);
    r.read_count("local_steps", c.local_steps, 1, ScenarioLimits::max_steps);
    r.read_bool("staleness_aware_lr", c.staleness_aware_lr);
    r.reject_unknown();
    s.sync = c;
}

void parse_gradients(ObjectReader& root, Scenario& s) {
    const json* v = root.find("gradients");
    if (!v)
        return;
    ObjectReader r(*v, "gradients");
    GradientConfig c;
    r.read_count("bucket_kb", c.bucket_kb, 0, ScenarioLimits::max_bucket_kb);
    r.read_bool("overlap", c.overlap);
    r.read_count("accumulate", c.accumulate, 1, ScenarioLimits::max_accumulate);
    r.reject_unknown();
    s.gradients = c;
}

void parse_loss_scale(ObjectReader& root, Scenario& s) {
    const json* v = root.find("loss_scale");
    if (!v)
        return;
    ObjectReader r(*v, "loss_scale");
    LossScaleConfig c;
    r.read_number("initial", c.initial, 1.0, max_loss_scale);
    r.read_count("growth_interval", c.growth_interval, 1, ScenarioLimits::max_steps);
    r.reject_unknown();
    s.loss_scale = c;
}

void parse_delays(ObjectReader& root, Scenario& s) {
    const json* v = root.find("delays");
    if (!v)
        return;
    ObjectReader r(*v, "delays");
    if (const json* list = r.find("slowdown")) {
        expect_array(*list, "delays.slowdown", ScenarioLimits::max_workers);
        s.delays.slowdown.clear();
        for (std::size_t i = 0; i < list->size(); ++i) {
            const std::string item = "delays.slowdown[" + std::to_string(i) + "]";
            if (!(*list)[i].is_number())
                throw Error(item + ": must be a number between 1 and 100");
            const double f = (*list)[i].get<double>();
            check_finite(item, f, 1.0, 100.0);
            s.delays.slowdown.push_back(f);
        }
    }
    if (const json* list = r.find("pauses")) {
        expect_array(*list, "delays.pauses", 1024);
        s.delays.pauses.clear();
        for (std::size_t i = 0; i < list->size(); ++i) {
            ObjectReader p((*list)[i], "delays.pauses[" + std::to_string(i) + "]");
            PauseDelay pause;
            p.read_count("worker", pause.worker, 0, ScenarioLimits::max_workers - 1);
            p.read_int("step", pause.step, 0, ScenarioLimits::max_steps);
            p.read_number("seconds", pause.seconds, 0.0, 86400.0);
            p.reject_unknown();
            s.delays.pauses.push_back(pause);
        }
    }
    r.read_number("straggler_probability", s.delays.straggler_probability, 0.0, 1.0);
    r.read_number("straggler_factor", s.delays.straggler_factor, 1.0, 100.0);
    r.reject_unknown();
}

FailureSpec read_failure(const json& v, const std::string& path) {
    if (v.is_string()) {
        try {
            return parse_failure_spec(v.get<std::string>());
        } catch (const Error& e) {
            throw Error(path + ": " + e.what());
        }
    }
    ObjectReader r(v, path);
    FailureSpec f;
    if (!r.find("kind"))
        throw Error(path + ".kind: required, one of crash, pause, slow-link, corrupt");
    r.read_choice<FailureKind>("kind", f.kind, {"crash", "pause", "slow-link", "corrupt"},
                               parse_failure_kind);
    r.read_count("worker", f.worker, 0, ScenarioLimits::max_workers - 1);
    r.read_int("step", f.step, 0, ScenarioLimits::max_steps);
    if (f.kind == FailureKind::Crash)
        r.read_choice<CrashPhase>(
            "phase", f.phase,
            {"compute", "communicate", "update", "before-fsync", "after-fsync", "after-rename"},
            parse_crash_phase);
    if (f.kind == FailureKind::Pause)
        r.read_number("seconds", f.seconds, 0.0, 86400.0);
    if (f.kind == FailureKind::SlowLink)
        r.read_number("factor", f.factor, 1.0, 1000.0);
    if (f.kind == FailureKind::Corrupt)
        r.read_choice<Corruption>("how", f.corruption, {"bit-flip", "truncate"}, parse_corruption);
    r.reject_unknown();
    return f;
}

void parse_failures(ObjectReader& root, Scenario& s) {
    const json* v = root.find("failures");
    if (!v)
        return;
    ObjectReader r(*v, "failures");
    FailureConfig& f = s.failures;
    r.read_number("heartbeat_s", f.heartbeat_s, 0.0, 3600.0);
    r.read_number("restart_s", f.restart_s, 0.0, 3600.0);
    r.read_choice<RecoveryPolicy>("policy", f.policy, {"restart", "elastic", "backup"},
                                  parse_recovery_policy);
    r.read_count("backup_workers", f.backup_workers, 0, ScenarioLimits::max_workers - 1);
    if (const json* list = r.find("events")) {
        expect_array(*list, "failures.events", ScenarioLimits::max_failures);
        f.events.clear();
        for (std::size_t i = 0; i < list->size(); ++i)
            f.events.push_back(
                read_failure((*list)[i], "failures.events[" + std::to_string(i) + "]"));
    }
    r.reject_unknown();
}

void parse_energy(ObjectReader& root, Scenario& s) {
    const json* v = root.find("energy");
    if (!v)
        return;
    ObjectReader r(*v, "energy");
    r.read_number("compute_w", s.energy.compute_w, 0.0, 1e6);
    r.read_number("communicate_w", s.energy.communicate_w, 0.0, 1e6);
    r.read_number("wait_w", s.energy.wait_w, 0.0, 1e6);
    r.read_number("checkpoint_w", s.energy.checkpoint_w, 0.0, 1e6);
    r.read_number("idle_w", s.energy.idle_w, 0.0, 1e6);
    r.reject_unknown();
}

} // namespace

Scenario parse_scenario(std::string_view json_text, const std::string& base_dir) {
    json doc;
    try {
        // A syntax error, a number too large for a double (1e999), a NUL byte, a key twice.
        doc = parse_json_strictly(json_text);
    } catch (const JsonTextError& e) {
        throw Error("scenario: not valid JSON: " + std::string(e.what()));
    }

    Scenario s;
    ObjectReader r(doc, "");
    r.read_string("name", s.name, 200);
    std::int64_t seed = static_cast<std::int64_t>(s.seed);
    r.read_int("seed", seed, 0, std::int64_t{1} << 53);
    s.seed = static_cast<std::uint64_t>(seed);
    r.read_int("steps", s.steps, 1, ScenarioLimits::max_steps);
    r.read_count("workers", s.workers, 1, ScenarioLimits::max_workers);
    r.read_count("batch", s.batch, 1, static_cast<std::int64_t>(ScenarioLimits::max_batch));
    if (const json* v = r.find("worker_batch"))
        s.worker_batch = read_size_list(*v, "worker_batch", ScenarioLimits::max_workers, 1,
                                        static_cast<std::int64_t>(ScenarioLimits::max_batch));
    if (const json* v = r.find("shard_sizes"))
        s.shard_sizes = read_size_list(*v, "shard_sizes", ScenarioLimits::max_workers, 1,
                                       static_cast<std::int64_t>(ScenarioLimits::max_samples));
    r.read_bool("shuffle", s.shuffle);
    r.read_choice<ReductionRule>("rule", s.rule, {"sum", "mean", "weighted-mean"},
                                 parse_reduction_rule);
    r.read_choice<Algorithm>("algorithm", s.algorithm,
                             {"parameter-server", "ring", "tree", "hierarchical", "none"},
                             parse_algorithm);
    r.read_choice<ClockKind>("clock", s.clock, {"modelled", "measured"},
                             [](std::string_view t, ClockKind& out) {
                                 if (t == "modelled")
                                     out = ClockKind::Modelled;
                                 else if (t == "measured")
                                     out = ClockKind::Measured;
                                 else
                                     return false;
                                 return true;
                             });
    r.read_choice<Scaling>("scaling", s.scaling, {"strong", "weak"},
                           [](std::string_view t, Scaling& out) {
                               if (t == "strong")
                                   out = Scaling::Strong;
                               else if (t == "weak")
                                   out = Scaling::Weak;
                               else
                                   return false;
                               return true;
                           });
    parse_model(r, s);
    parse_dataset(r, s);
    parse_optimizer_config(r, s);
    parse_cost(r, s);
    parse_topology(r, s);
    parse_delays(r, s);
    parse_checkpoint(r, s);
    parse_failures(r, s);
    parse_energy(r, s);
    parse_parallelism_config(r, s);
    parse_sync_config(r, s);
    parse_gradients(r, s);
    r.read_choice<Sharding>("sharding", s.sharding,
                            {"none", "optimizer", "gradients", "parameters"}, parse_sharding);
    r.read_choice<Precision>("precision", s.model.precision, {"float64", "float32"},
                             parse_precision);
    r.read_choice<WirePrecision>("comm_precision", s.comm_precision,
                                 {"float64", "float32", "float16", "bfloat16"},
                                 parse_wire_precision);
    parse_loss_scale(r, s);
    r.read_bool("compare_precision", s.compare_precision);
    if (const json* v = r.find("memory_budget_bytes")) {
        // A whole number of bytes: 4000000, not 4e6 or "4 MB".
        if (!v->is_number_integer())
            throw Error("memory_budget_bytes: must be a whole number of bytes between 1 and " +
                        std::to_string(ScenarioLimits::max_memory_budget_bytes) + ", got " +
                        v->dump());
        s.memory_budget_bytes =
            whole_number(*v, "memory_budget_bytes", 1, ScenarioLimits::max_memory_budget_bytes);
    }
    r.reject_unknown();

    namespace fs = std::filesystem;
    auto resolve = [&](std::string& path) {
        if (!path.empty() && fs::path(path).is_relative())
            path = (fs::path(base_dir) / path).lexically_normal().string();
    };
    resolve(s.dataset.csv);
    resolve(s.init_params);
    validate(s);
    return s;
}

} // namespace lockstep
