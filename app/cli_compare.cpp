// lockstep-cli compare: two scenarios side by side, judged on the same terms. Both are run to
// their end; time and energy are read at the first step where each reaches the same target loss,
// and everything a run spent is counted, failed work included.

#include "cli_options.h"
#include "cli_report.h"

#include "core/error.h"
#include "scenario/scenario.h"
#include "trainers/data_parallel.h"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <filesystem>
#include <functional>
#include <iostream>
#include <optional>
#include <string>
#include <vector>

namespace lockstep::cli {

namespace {

using nlohmann::json;
namespace fs = std::filesystem;

struct Side {
    std::string file;
    Scenario scenario;
    RunMetrics metrics;
    std::vector<ProgressPoint> progress;
    std::vector<DataParallelTrainer::Recovery> recoveries;
};

Side run_side(const std::string& file) {
    Side side{file, load_scenario(file), {}, {}, {}};
    DataParallelTrainer trainer(side.scenario, load_dataset(side.scenario));
    std::optional<ScratchDirectory> scratch;
    if (side.scenario.checkpoint) {
        scratch.emplace();
        trainer.set_checkpoint_directory(scratch->path());
    }
    side.metrics = finish_run(trainer).metrics;
    side.progress = trainer.progress();
    side.recoveries = trainer.recoveries();
    return side;
}

// The scenario trained with another way of agreeing: ssp and async through the parameter server
// (without a barrier), bsp and local in the data-parallel trainer.
Side run_mode(const std::string& file, Scenario s) {
    RunResult result = run_to_end(s);
    return {file, std::move(s), result.metrics, std::move(result.progress), {}};
}

// The first point, in the order the run did its steps, at or below the target loss.
const ProgressPoint* reached(const Side& side, double target) {
    for (const auto& p : side.progress)
        if (p.loss <= target)
            return &p;
    return nullptr;
}

std::string number(double v, int digits = 4) {
    char buffer[64];
    std::snprintf(buffer, sizeof buffer, "%.*g", digits, v);
    return buffer;
}

json side_json(const Side& side, double target) {
    json out = metrics_json(side.scenario, side.metrics);
    out["file"] = side.file;
    out["recoveries"] = recoveries_json(side.recoveries);
    if (const auto* p = reached(side, target)) {
        out["time_to_target_s"] = p->time_s;
        out["energy_to_target_j"] = p->energy_j;
        out["step_at_target"] = p->step;
    } else {
        out["time_to_target_s"] = nullptr;
        out["energy_to_target_j"] = nullptr;
        out["step_at_target"] = nullptr;
    }
    return out;
}

} // namespace

// compare [SCENARIO] --sync bsp,ssp,async,local: one scenario, each way of agreeing.
int compare_sync_modes(const Options& o) {
    if (o.positional().size() > 1)
        throw Error("compare --sync takes one scenario file (or none: the built-in one)");
    const std::string file = o.positional().empty() ? std::string("(built-in)") : o.positional()[0];
    const Scenario base = o.positional().empty() ? Scenario{} : load_scenario(file);
    std::vector<SyncMode> modes;
    {
        const std::string list = *o.text("--sync");
        std::size_t at = 0;
        while (at <= list.size()) {
            const std::size_t comma = std::min(list.find(',', at), list.size());
            const std::string name = list.substr(at, comma - at);
            SyncMode m{};
            if (!parse_sync_mode(name, m))
                throw Error("--sync: each must be one of bsp, ssp, async, local, got '" + name +
                            "'");
            if (std::find(modes.begin(), modes.end(), m) != modes.end())
                throw Error("--sync: '" + name + "' is named twice");
            modes.push_back(m);
            at = comma + 1;
        }
        if (modes.size() < 2)
            throw Error("--sync: name two to four modes to compare, e.g. bsp,ssp,async,local");
    }
    const int staleness =
        static_cast<int>(o.integer("--staleness", 0, ScenarioLimits::max_staleness).value_or(2));
    const int local_steps =
        static_cast<int>(o.integer("--local-steps", 1, ScenarioLimits::max_steps).value_or(4));
    std::vector<Side> sides;
    for (SyncMode m : modes) {
        Scenario s;
        try {
            s = with_sync(base, {m, staleness, local_steps, false});
        } catch (const Error& e) {
            throw Error(std::string(to_string(m)) + ": " + e.what());
        }
        sides.push_back(run_mode(file, s));
    }
    double target = 0.0;
    for (const Side& side : sides)
        target = std::max(target, side.metrics.final_loss);
    if (auto given = o.number("--target-loss", 0.0, 1e9))
        target = *given;

    if (o.has("--json")) {
        json runs = json::array();
        for (const Side& side : sides)
            runs.push_back(side_json(side, target));
        std::cout << json{{"target_loss", target}, {"runs", runs}}.dump(2) << '\n';
        return 0;
    }
    auto at_target = [&](const Side& s, bool energy) -> std::string {
        const auto* p = reached(s, target);
        if (!p)
            return "not reached";
        return energy ? number(p->energy_j) + " J" : number(p->time_s) + " s";
    };
    struct Row {
        const char* label;
        std::function<std::string(const Side&)> value;
    };
    const std::vector<Row> rows{
        {"time to target loss", [&](const Side& s) { return at_target(s, false); }},
        {"energy to target loss", [&](const Side& s) { return at_target(s, true); }},
        {"total time", [](const Side& s) { return number(s.metrics.total_time_s) + " s"; }},
        {"final loss", [](const Side& s) { return number(s.metrics.final_loss); }},
        {"waiting per worker", [](const Side& s) { return number(s.metrics.waiting_s) + " s"; }},
        {"bytes moved", [](const Side& s) { return std::to_string(s.metrics.bytes_moved); }},
        {"energy (modelled)", [](const Side& s) { return number(s.metrics.energy_j) + " J"; }},
        {"staleness (max, mean)",
         [](const Side& s) {
             return std::to_string(s.metrics.max_staleness) + ", " +
                    number(s.metrics.mean_staleness, 3);
         }},
        {"replicas agree at the end",
         [](const Side& s) { return std::string(s.metrics.replicas_aligned ? "yes" : "no"); }},
    };
    std::printf("Ways of agreeing on %s (\"%s\"), %d workers, target loss %s\n"
                "(ssp with staleness %d, local SGD averaging every %d steps)\n\n",
                file.c_str(), base.name.c_str(), base.workers, number(target).c_str(), staleness,
                local_steps);
    std::printf("  %-26s", "");
    for (const Side& side : sides)
        std::printf(" %-16s", std::string(to_string(side.scenario.sync_mode())).c_str());
    std::printf("\n");
    for (const Row& r : rows) {
        std::printf("  %-26s", r.label);
        for (const Side& side : sides)
            std::printf(" %-16s", r.value(side).c_str());
        std::printf("\n");
    }
    std::printf("  Energy uses assumed power per state (see docs/SCENARIO.md), not a meter.\n");
    return 0;
}

int command_compare(const std::vector<std::string>& args) {
    const Options o(args, {"--target-loss", "--sync", "--staleness", "--local-steps"}, {"--json"});
    if (o.has("--sync"))
        return compare_sync_modes(o);
    for (const char* flag : {"--staleness", "--local-steps"})
        if (o.has(flag))
            throw Error(std::string(flag) + ": goes with --sync (compare SCENARIO --sync "
                                            "bsp,ssp,async,local)");
    if (o.positional().size() != 2)
        throw Error("compare needs exactly two scenario files, e.g. compare a.json b.json");
    const std::optional<double> given = o.number("--target-loss", 0.0, 1e9);
    const Side a = run_side(o.positional()[0]);
    const Side b = run_side(o.positional()[1]);
    if (a.progress.empty() || b.progress.empty())
        throw Error("compare: both runs must train (no steps were run)");

    // By default the target is the worse of the two final losses: both runs reach it, and the
    // question is what each spent to get there.
    double target = std::max(a.metrics.final_loss, b.metrics.final_loss);
    if (given)
        target = *given;

    if (o.has("--json")) {
        std::cout << json{{"target_loss", target},
                          {"a", side_json(a, target)},
                          {"b", side_json(b, target)}}
                         .dump(2)
                  << '\n';
        return 0;
    }

    struct Row {
        const char* label;
        std::string va, vb;
    };
    auto at_target = [&](const Side& s, bool energy) -> std::string {
        const auto* p = reached(s, target);
        if (!p)
            return "not reached";
        return energy ? number(p->energy_j) + " J"
                      : number(p->time_s) + " s (step " + std::to_string(p->step) + ")";
    };
    auto both = [&](auto f) { return std::pair{f(a), f(b)}; };
    std::vector<Row> rows;
    auto add = [&](const char* label, auto f) {
        auto [x, y] = both(f);
        rows.push_back({label, x, y});
    };
    add("workers (at the end)", [](const Side& s) {
        return std::to_string(s.metrics.workers) +
               (s.metrics.workers_at_end != s.metrics.workers
                    ? " (" + std::to_string(s.metrics.workers_at_end) + ")"
                    : "");
    });
    add("time to target loss", [&](const Side& s) { return at_target(s, false); });
    add("energy to target loss", [&](const Side& s) { return at_target(s, true); });
    add("total time", [](const Side& s) { return number(s.metrics.total_time_s) + " s"; });
    add("final loss", [](const Side& s) { return number(s.metrics.final_loss); });
    add("useful samples", [](const Side& s) {
        return std::to_string(s.metrics.useful_samples) + " of " +
               std::to_string(s.metrics.samples);
    });
    add("goodput", [](const Side& s) { return number(s.metrics.goodput) + " samples/s"; });
    add("synchronisation",
        [](const Side& s) { return number(s.metrics.communication_s) + " s per worker"; });
    add("waiting", [](const Side& s) { return number(s.metrics.waiting_s) + " s per worker"; });
    add("checkpointing",
        [](const Side& s) { return number(s.metrics.checkpoint_s) + " s per worker"; });
    add("failures", [](const Side& s) { return std::to_string(s.metrics.failures); });
    add("lost work", [](const Side& s) {
        return std::to_string(s.metrics.lost_steps) + " steps, " + number(s.metrics.lost_worker_s) +
               " worker-s";
    });
    add("dropped gradients",
        [](const Side& s) { return std::to_string(s.metrics.dropped_gradients); });
    add("energy (modelled)", [](const Side& s) { return number(s.metrics.energy_j) + " J"; });
    add("energy per useful sample",
        [](const Side& s) { return number(s.metrics.energy_per_sample_j) + " J"; });

    std::printf("Comparing A: %s (\"%s\")\n      and B: %s (\"%s\"), target loss %s\n\n",
                a.file.c_str(), a.scenario.name.c_str(), b.file.c_str(), b.scenario.name.c_str(),
                number(target).c_str());
    std::printf("  %-26s %-28s %-28s\n", "", "A", "B");
    for (const auto& r : rows)
        std::printf("  %-26s %-28s %-28s\n", r.label, r.va.c_str(), r.vb.c_str());
    const auto* pa = reached(a, target);
    const auto* pb = reached(b, target);
    if (pa && pb && pa->time_s > 0 && pa->energy_j > 0)
        std::printf("\n  To reach loss %s, B takes %.2fx the time and %.2fx the energy of A.\n",
                    number(target).c_str(), pb->time_s / pa->time_s, pb->energy_j / pa->energy_j);
    std::printf("  Energy uses assumed power per state (see docs/SCENARIO.md), not a meter.\n");
    return 0;
}

} // namespace lockstep::cli
