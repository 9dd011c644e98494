#include "scenario/scenario.h"

#include "core/error.h"
#include "scenario/json_reader.h"

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
using scenario_reading::scenario_json;

std::size_t Scenario::batch_of(int worker) const {
    const auto w = static_cast<std::size_t>(worker);
    return w < worker_batch.size() ? worker_batch[w] : batch;
}

std::size_t Scenario::global_batch() const {
    std::size_t total = 0;
    for (int w = 0; w < workers; ++w)
        total += batch_of(w);
    return total;
}

double Scenario::slowdown_of(int worker) const {
    const auto w = static_cast<std::size_t>(worker);
    return w < delays.slowdown.size() ? delays.slowdown[w] : 1.0;
}

std::string_view to_string(ClockKind clock) {
    return clock == ClockKind::Modelled ? "modelled" : "measured";
}

std::string_view to_string(Scaling scaling) {
    return scaling == Scaling::Strong ? "strong" : "weak";
}

std::string_view to_string(Sharding sharding) {
    switch (sharding) {
    case Sharding::Optimizer:
        return "optimizer";
    case Sharding::Gradients:
        return "gradients";
    case Sharding::Parameters:
        return "parameters";
    case Sharding::None:
        break;
    }
    return "none";
}

bool parse_sharding(std::string_view text, Sharding& out) {
    for (Sharding s :
         {Sharding::None, Sharding::Optimizer, Sharding::Gradients, Sharding::Parameters})
        if (text == to_string(s)) {
            out = s;
            return true;
        }
    return false;
}

std::string_view to_string(RestoreMode mode) {
    return mode == RestoreMode::Full ? "full" : "weights-only";
}

bool parse_restore_mode(std::string_view text, RestoreMode& out) {
    if (text == "full")
        out = RestoreMode::Full;
    else if (text == "weights-only")
        out = RestoreMode::WeightsOnly;
    else
        return false;
    return true;
}

std::string read_text_file(const std::string& path, std::size_t max_bytes) {
    std::error_code ec;
    const auto size = std::filesystem::file_size(path, ec);
    if (ec)
        throw Error(path + ": cannot read the file (" + ec.message() + ")");
    if (size > max_bytes)
        throw Error(path + ": the file is " + std::to_string(size) +
                    " bytes, more than the limit of " + std::to_string(max_bytes));
    std::ifstream in(path, std::ios::binary);
    if (!in)
        throw Error(path + ": cannot open the file");
    std::ostringstream text;
    text << in.rdbuf();
    return text.str();
}

Scenario load_scenario(const std::string& path) {
    const std::string text = read_text_file(path, 16u << 20);
    const auto base = std::filesystem::path(path).parent_path().string();
    try {
        return parse_scenario(text, base.empty() ? "." : base);
    } catch (const Error& e) {
        throw Error(path + ": " + e.what());
    }
}

void take_mid_run_settings(Scenario& into, const Scenario& from) {
    into.rule = from.rule;
    into.algorithm = from.algorithm;
    const OptimizerKind kind = into.optimizer.kind;
    into.optimizer = from.optimizer;
    into.optimizer.kind = kind;
    into.delays.slowdown = from.delays.slowdown;
    into.delays.straggler_probability = from.delays.straggler_probability;
    into.delays.straggler_factor = from.delays.straggler_factor;
    // The links' prices, not the machines: which worker sits in which machine stays the run's.
    const Topology machines = into.cost.topology;
    into.cost = from.cost;
    into.cost.topology.nodes = machines.nodes;
    into.cost.topology.workers_per_node = machines.workers_per_node;
    if (into.checkpoint && from.checkpoint)
        into.checkpoint->restore = from.checkpoint->restore;
    into.sync = from.sync; // a switch of mode takes another trainer: see continue_run()
}

Scenario with_sync(Scenario s, const SyncConfig& c) {
    if (c.mode == SyncMode::Bsp) {
        s.sync.reset();
    } else {
        s.sync = c;
        if (c.mode != SyncMode::Ssp)
            s.sync->staleness = 0;
        if (c.mode != SyncMode::Local)
            s.sync->local_steps = 1;
        if (c.mode != SyncMode::Async)
            s.sync->staleness_aware_lr = false;
    }
    if (c.mode == SyncMode::Ssp || c.mode == SyncMode::Async)
        s.algorithm = Algorithm::ParameterServer;
    validate(s);
    return s;
}

std::optional<std::string> fixed_for_the_run(const Scenario& from, const Scenario& to) {
    // `to` with every field a running trainer can take put back as in `from`: what is left to
    // differ must wait for a new run.
    Scenario same = to;
    same.name = from.name;
    take_mid_run_settings(same, from);
    if (from.sharding != Sharding::None) { // its optimizer state lies in the collective's shards
        same.algorithm = to.algorithm;
        same.sync = to.sync;
    }
    const json a = scenario_json(from);
    const json b = scenario_json(same);
    if (a == b)
        return std::nullopt;
    const json patch = json::diff(a, b);
    // "/model/layers/2" names the field "model.layers".
    std::string field;
    std::string path = patch.empty() ? std::string() : patch.front().value("path", std::string());
    std::size_t at = 1;
    while (at <= path.size()) {
        const std::size_t next = std::min(path.find('/', at), path.size());
        const std::string part = path.substr(at, next - at);
        if (part.empty() || std::isdigit(static_cast<unsigned char>(part.front())))
            break;
        field += (field.empty() ? "" : ".") + part;
        at = next + 1;
    }
    return field.empty() ? std::string("scenario") : field;
}

} // namespace lockstep
