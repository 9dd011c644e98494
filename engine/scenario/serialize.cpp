#include "scenario/scenario.h"

#include "core/error.h"
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

// A scenario written back out: the canonical JSON a run records, and the hash its checkpoints
// carry (of the contents of the files it names, too).

json scenario_reading::scenario_json(const Scenario& s) {
    json j;
    j["name"] = s.name;
    j["seed"] = s.seed;
    j["steps"] = s.steps;
    j["workers"] = s.workers;
    j["batch"] = s.batch;
    if (!s.worker_batch.empty())
        j["worker_batch"] = s.worker_batch;
    if (!s.shard_sizes.empty())
        j["shard_sizes"] = s.shard_sizes;
    j["shuffle"] = s.shuffle;
    j["rule"] = std::string(to_string(s.rule));
    j["algorithm"] = std::string(to_string(s.algorithm));
    j["clock"] = std::string(to_string(s.clock));
    j["scaling"] = std::string(to_string(s.scaling));
    j["model"] = {
        {"layers", s.model.layers},
        {"activation", std::string(to_string(s.model.activation))},
        {"loss", s.model.loss == LossKind::SoftmaxCrossEntropy ? "cross-entropy" : "mse"}};
    if (!s.init_params.empty())
        j["model"]["init_params"] = s.init_params;
    if (s.dataset.csv.empty())
        j["dataset"] = {{"name", s.dataset.name},
                        {"samples", s.dataset.samples},
                        {"noise", s.dataset.noise},
                        {"classes", s.dataset.classes}};
    else
        j["dataset"] = {{"csv", s.dataset.csv}};
    j["optimizer"] = {{"kind", std::string(to_string(s.optimizer.kind))},
                      {"lr", s.optimizer.learning_rate},
                      {"momentum", s.optimizer.momentum},
                      {"beta1", s.optimizer.beta1},
                      {"beta2", s.optimizer.beta2},
                      {"eps", s.optimizer.epsilon}};
    j["cost"] = {{"compute_s_per_sample", s.cost.compute_s_per_sample},
                 {"update_s", s.cost.update_s},
                 {"alpha_s", s.cost.alpha_s},
                 {"beta_s_per_byte", s.cost.beta_s_per_byte},
                 {"gamma_s_per_byte", s.cost.gamma_s_per_byte},
                 {"jitter", s.cost.jitter}};
    if (s.cost.one_worker_compute_s)
        j["cost"]["one_worker_compute_s"] = *s.cost.one_worker_compute_s;
    if (s.cost.communication_s_per_step)
        j["cost"]["communication_s_per_step"] = *s.cost.communication_s_per_step;
    json pauses = json::array();
    for (const auto& p : s.delays.pauses)
        pauses.push_back({{"worker", p.worker}, {"step", p.step}, {"seconds", p.seconds}});
    j["delays"] = {{"slowdown", s.delays.slowdown},
                   {"pauses", pauses},
                   {"straggler_probability", s.delays.straggler_probability},
                   {"straggler_factor", s.delays.straggler_factor}};
    j["cost"]["checkpoint_s_per_byte"] = s.cost.checkpoint_s_per_byte;
    j["cost"]["fsync_s"] = s.cost.fsync_s;
    if (s.cost.paced_links) // written only when set, so older scenarios keep their hashes
        j["cost"]["paced_links"] = true;
    if (s.cost.topology.machines()) // likewise
        j["topology"] = topology_json(s.cost.topology);
    if (s.checkpoint)
        j["checkpoint"] = {{"every", s.checkpoint->every},
                           {"keep", s.checkpoint->keep},
                           {"sharded_optimizer", s.checkpoint->sharded_optimizer},
                           {"restore", std::string(to_string(s.checkpoint->restore))}};
    // Written only when they differ from the defaults, so older scenarios keep their hashes.
    const FailureConfig plain;
    const FailureConfig& f = s.failures;
    if (!f.events.empty() || f.backup_workers != 0 || f.policy != plain.policy ||
        f.heartbeat_s != plain.heartbeat_s || f.restart_s != plain.restart_s) {
        json events = json::array();
        for (const auto& e : f.events)
            events.push_back(to_text(e));
        j["failures"] = {{"heartbeat_s", f.heartbeat_s},
                         {"restart_s", f.restart_s},
                         {"policy", std::string(to_string(f.policy))},
                         {"backup_workers", f.backup_workers},
                         {"events", events}};
    }
    const EnergyConfig& e = s.energy;
    const EnergyConfig assumed;
    if (e.compute_w != assumed.compute_w || e.communicate_w != assumed.communicate_w ||
        e.wait_w != assumed.wait_w || e.checkpoint_w != assumed.checkpoint_w ||
        e.idle_w != assumed.idle_w)
        j["energy"] = {{"compute_w", e.compute_w},
                       {"communicate_w", e.communicate_w},
                       {"wait_w", e.wait_w},
                       {"checkpoint_w", e.checkpoint_w},
                       {"idle_w", e.idle_w}};
    if (s.parallelism)
        j["parallelism"] = {{"mode", std::string(to_string(s.parallelism->mode))},
                            {"stages", s.parallelism->stages},
                            {"microbatches", s.parallelism->microbatches},
                            {"schedule", std::string(to_string(s.parallelism->schedule))},
                            {"replicas", s.parallelism->replicas}};
    if (s.sync && s.sync->mode != SyncMode::Bsp) {
        json sync = {{"mode", std::string(to_string(s.sync->mode))}};
        if (s.sync->mode == SyncMode::Ssp)
            sync["staleness"] = s.sync->staleness;
        if (s.sync->mode == SyncMode::Local)
            sync["local_steps"] = s.sync->local_steps;
        if (s.sync->mode == SyncMode::Async)
            sync["staleness_aware_lr"] = s.sync->staleness_aware_lr;
        j["sync"] = sync;
    }
    if (s.gradients)
        j["gradients"] = {{"bucket_kb", s.gradients->bucket_kb},
                          {"overlap", s.gradients->overlap},
                          {"accumulate", s.gradients->accumulate}};
    if (s.sharding != Sharding::None) // written only when set, so older scenarios keep their hashes
        j["sharding"] = std::string(to_string(s.sharding));
    if (s.model.precision != Precision::Float64) // likewise
        j["precision"] = std::string(to_string(s.model.precision));
    if (s.comm_precision != WirePrecision::Float64) // likewise
        j["comm_precision"] = std::string(to_string(s.comm_precision));
    if (s.compare_precision)
        j["compare_precision"] = true;
    if (s.loss_scale)
        j["loss_scale"] = {{"initial", s.loss_scale->initial},
                           {"growth_interval", s.loss_scale->growth_interval}};
    if (s.memory_budget_bytes) // likewise
        j["memory_budget_bytes"] = *s.memory_budget_bytes;
    return j;
}

namespace {

std::uint64_t fnv1a(std::string_view bytes, std::uint64_t hash = 0xcbf29ce484222325ULL) {
    for (unsigned char c : bytes) {
        hash ^= c;
        hash *= 0x100000001b3ULL;
    }
    return hash;
}

// What a file given by path contributes to the hash: its contents, so that the same path with
// other rows or other parameters is another scenario. A file that cannot be read (no run could
// start from it) counts as such.
json file_contents_hash(const std::string& path) {
    try {
        return fnv1a(read_text_file(path));
    } catch (const Error&) {
        return "unreadable";
    }
}

} // namespace

std::uint64_t scenario_hash(const Scenario& scenario) {
    // The canonical form without what a resume may change (see the header).
    json j = scenario_json(scenario);
    // Files count by their contents, not where they are.
    if (!scenario.dataset.csv.empty())
        j["dataset"]["csv"] = file_contents_hash(scenario.dataset.csv);
    if (!scenario.init_params.empty())
        j["model"]["init_params"] = file_contents_hash(scenario.init_params);
    j.erase("steps");
    j.erase("checkpoint");
    j["cost"].erase("checkpoint_s_per_byte");
    j["cost"].erase("fsync_s");
    j["cost"].erase("paced_links"); // how the measured clock's links take time, not training
    // Faults and the energy prices change neither the training nor its state at a given step;
    // backup workers do (each step drops the late gradients).
    j.erase("failures");
    j.erase("energy");
    j.erase("memory_budget_bytes"); // a run either fits it and trains the same, or never starts
    j.erase("precision"); // a checkpoint says its own, so a resume in the other is refused by name
    j.erase("compare_precision"); // a report only
    if (scenario.failures.backup_workers > 0)
        j["backup_workers"] = scenario.failures.backup_workers;
    return fnv1a(j.dump()); // FNV-1a over the canonical JSON's bytes
}

std::string scenario_to_json(const Scenario& s) {
    return scenario_json(s).dump(2) + "\n";
}

} // namespace lockstep
