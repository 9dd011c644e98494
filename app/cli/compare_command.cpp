// lockstep-cli compare: two scenarios side by side, judged on the same terms. Both are run to
// their end; time and energy are read at the first step where each reaches the same target loss,
// and everything a run spent is counted, failed work included.

#include "commands.h"
#include "options.h"
#include "report.h"

#include "core/error.h"
#include "lockstep_lessons/study.h"
#include "model/model.h"
#include "runs/runs.h"
#include "scenario/scenario.h"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <filesystem>
#include <functional>
#include <iostream>
#include <optional>
#include <string>
#include <tuple>
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
    std::vector<Recovery> recoveries;
    // Worker 0's model at the end judged on fresh examples (none of the run's data), trained with
    // the scenario's seed and the next ones: mean and sample standard deviation over the seeds.
    // NaN for a CSV data set, which has no fresh examples to draw.
    int seeds = 0;
    double held_out_loss = std::nan(""), held_out_loss_sd = 0;
    double held_out_accuracy = std::nan(""), held_out_accuracy_sd = 0;
};

// One run of the scenario as the side trains it, its checkpoints in a directory of its own.
struct Trained {
    RunMetrics metrics;
    std::vector<ProgressPoint> progress;
    std::vector<Recovery> recoveries;
    std::vector<double> parameters;
};

Trained train(const Scenario& s) {
    const auto run = make_run(s, load_dataset(s));
    std::optional<ScratchDirectory> scratch;
    if (s.checkpoint) {
        scratch.emplace();
        run->set_checkpoint_directory(scratch->path());
    }
    RunResult r = finish_run(*run);
    return {r.metrics, std::move(r.progress), std::move(r.recoveries), std::move(r.parameters)};
}

Side run_side(const std::string& file, int seeds) {
    Side side{file, load_scenario(file), {}, {}, {}};
    Trained first = train(side.scenario);
    side.metrics = first.metrics;
    side.progress = std::move(first.progress);
    side.recoveries = std::move(first.recoveries);
    if (!side.scenario.dataset.csv.empty() || seeds < 1)
        return side;
    Scenario h = side.scenario;
    h.seed = lessons::held_out_seed(side.scenario);
    const std::shared_ptr<const Dataset> fresh = load_dataset(h);
    const BatchView all{fresh->features.data(), fresh->targets.data(), fresh->size()};
    std::vector<double> losses, accuracies;
    Workspace work;
    for (int k = 0; k < seeds; ++k) {
        Scenario s = side.scenario;
        s.seed += static_cast<std::uint64_t>(k);
        const std::vector<double> parameters = k == 0 ? first.parameters : train(s).parameters;
        const LossResult r = evaluate(s.model, parameters, all, work);
        losses.push_back(r.loss);
        accuracies.push_back(r.count ? static_cast<double>(r.correct) / static_cast<double>(r.count)
                                     : 0.0);
    }
    side.seeds = seeds;
    std::tie(side.held_out_loss, side.held_out_loss_sd) = lessons::mean_and_sd(losses);
    std::tie(side.held_out_accuracy, side.held_out_accuracy_sd) = lessons::mean_and_sd(accuracies);
    return side;
}

// The scenario trained with another way of agreeing: ssp and async through the parameter server
// (without a barrier), bsp and local in the data-parallel trainer.
Side run_mode(const std::string& file, Scenario s) {
    RunResult result = run_scenario(s);
    return {file, std::move(s), result.metrics, std::move(result.progress), {}};
}

// The first point, in the order the run did its steps, at or below the target loss.
const ProgressPoint* reached(const Side& side, double target) {
    for (const auto& p : side.progress)
        if (p.loss <= target)
            return &p;
    return nullptr;
}

// A value with `digits` significant digits (printf's %.4g), as the language writes numbers.
QString number(double v, int digits = 4) {
    const std::string format = "%." + std::to_string(digits) + "g";
    return decimal(format.c_str(), v);
}

// A table's row: the label in a column of 26 characters, then each value in one of `width`.
QString row(const QString& label, const std::vector<QString>& values, int width) {
    QString line = QStringLiteral("  ") + pad(label, -26);
    for (const QString& v : values)
        line += QLatin1Char(' ') + pad(v, -width);
    return line + QLatin1Char('\n');
}

json side_json(const Side& side, double target) {
    json out = metrics_json(side.scenario, side.metrics);
    out["file"] = side.file;
    out["recoveries"] = recoveries_json(side.recoveries);
    if (side.seeds > 0 && !std::isnan(side.held_out_loss))
        out["held_out"] = {{"seeds", side.seeds},
                           {"loss", side.held_out_loss},
                           {"loss_sd", side.held_out_loss_sd},
                           {"accuracy", side.held_out_accuracy},
                           {"accuracy_sd", side.held_out_accuracy_sd}};
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
        throw Error(
            utf8(Cli::tr("compare --sync takes one scenario file (or none: the built-in one)")));
    // "(built-in)" is the JSON's "file" too, so it stays as it is there.
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
                throw Error(utf8(Cli::tr("--sync: each must be one of bsp, ssp, async, local, "
                                         "got '%1'")
                                     .arg(qs(name))));
            if (std::find(modes.begin(), modes.end(), m) != modes.end())
                throw Error(utf8(Cli::tr("--sync: '%1' is named twice").arg(qs(name))));
            modes.push_back(m);
            at = comma + 1;
        }
        if (modes.size() < 2)
            throw Error(utf8(
                Cli::tr("--sync: name two to four modes to compare, e.g. bsp,ssp,async,local")));
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
    auto at_target = [&](const Side& s, bool energy) -> QString {
        const auto* p = reached(s, target);
        if (!p)
            return Cli::tr("not reached");
        return energy ? number(p->energy_j) + QStringLiteral(" J")
                      : number(p->time_s) + QStringLiteral(" s");
    };
    struct Row {
        QString label;
        std::function<QString(const Side&)> value;
    };
    const std::vector<Row> rows{
        {Cli::tr("time to target loss"), [&](const Side& s) { return at_target(s, false); }},
        {Cli::tr("energy to target loss"), [&](const Side& s) { return at_target(s, true); }},
        {Cli::tr("total time"),
         [](const Side& s) { return number(s.metrics.total_time_s) + QStringLiteral(" s"); }},
        {Cli::tr("final loss"), [](const Side& s) { return number(s.metrics.final_loss); }},
        {Cli::tr("waiting per worker"),
         [](const Side& s) { return number(s.metrics.waiting_s) + QStringLiteral(" s"); }},
        {Cli::tr("bytes moved"),
         [](const Side& s) { return QString::number(s.metrics.bytes_moved); }},
        {Cli::tr("energy (modelled)"),
         [](const Side& s) { return number(s.metrics.energy_j) + QStringLiteral(" J"); }},
        {Cli::tr("staleness (max, mean)"),
         [](const Side& s) {
             return QString::number(s.metrics.max_staleness) + QStringLiteral(", ") +
                    number(s.metrics.mean_staleness, 3);
         }},
        {Cli::tr("replicas agree at the end"),
         [](const Side& s) { return s.metrics.replicas_aligned ? Cli::tr("yes") : Cli::tr("no"); }},
    };
    print(Cli::tr("Ways of agreeing on %1 (\"%2\"), %3 workers, target loss %4\n"
                  "(ssp with staleness %5, local SGD averaging every %6 steps)\n\n")
              .arg(o.positional().empty() ? Cli::tr("(built-in)") : qs(file), qs(base.name),
                   QString::number(base.workers), number(target), QString::number(staleness),
                   QString::number(local_steps)));
    std::vector<QString> modes_row;
    for (const Side& side : sides)
        modes_row.push_back(qs(std::string(to_string(side.scenario.sync_mode()))));
    print(row(QString(), modes_row, 16));
    for (const Row& r : rows) {
        std::vector<QString> values;
        for (const Side& side : sides)
            values.push_back(r.value(side));
        print(row(r.label, values, 16));
    }
    print(Cli::tr("  Energy uses assumed power per state (see docs/SCENARIO.md), not a meter.\n"));
    return 0;
}

int command_compare(const std::vector<std::string>& args) {
    const Options o(args, {"--target-loss", "--sync", "--staleness", "--local-steps", "--seeds"},
                    {"--json"});
    if (o.has("--sync"))
        return compare_sync_modes(o);
    for (const char* flag : {"--staleness", "--local-steps"})
        if (o.has(flag))
            throw Error(
                utf8(Cli::tr("%1: goes with --sync (compare SCENARIO --sync bsp,ssp,async,local)")
                         .arg(QString::fromLatin1(flag))));
    if (o.positional().size() != 2)
        throw Error(
            utf8(Cli::tr("compare needs exactly two scenario files, e.g. compare a.json b.json")));
    const std::optional<double> given = o.number("--target-loss", 0.0, 1e9);
    const int seeds = static_cast<int>(o.integer("--seeds", 1, 10).value_or(3));
    const Side a = run_side(o.positional()[0], seeds);
    const Side b = run_side(o.positional()[1], seeds);
    if (a.progress.empty() || b.progress.empty())
        throw Error(utf8(Cli::tr("compare: both runs must train (no steps were run)")));

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
        QString label;
        QString va, vb;
    };
    auto at_target = [&](const Side& s, bool energy) -> QString {
        const auto* p = reached(s, target);
        if (!p)
            return Cli::tr("not reached");
        return energy ? number(p->energy_j) + QStringLiteral(" J")
                      : Cli::tr("%1 s (step %2)").arg(number(p->time_s), QString::number(p->step));
    };
    std::vector<Row> rows;
    auto add = [&](const QString& label, auto f) { rows.push_back({label, f(a), f(b)}); };
    add(Cli::tr("workers (at the end)"), [](const Side& s) {
        return s.metrics.workers_at_end != s.metrics.workers
                   ? QStringLiteral("%1 (%2)").arg(s.metrics.workers).arg(s.metrics.workers_at_end)
                   : QString::number(s.metrics.workers);
    });
    add(Cli::tr("time to target loss"), [&](const Side& s) { return at_target(s, false); });
    add(Cli::tr("energy to target loss"), [&](const Side& s) { return at_target(s, true); });
    add(Cli::tr("total time"),
        [](const Side& s) { return number(s.metrics.total_time_s) + QStringLiteral(" s"); });
    add(Cli::tr("final training loss"), [](const Side& s) { return number(s.metrics.final_loss); });
    add(Cli::tr("held-out loss"), [](const Side& s) {
        return std::isnan(s.held_out_loss)
                   ? Cli::tr("no fresh data")
                   : Cli::tr("%1 ± %2 (seeds: %3)")
                         .arg(number(s.held_out_loss), number(s.held_out_loss_sd),
                              QString::number(s.seeds));
    });
    add(Cli::tr("held-out accuracy"), [](const Side& s) {
        return std::isnan(s.held_out_accuracy)
                   ? Cli::tr("no fresh data")
                   : Cli::tr("%1 ± %2 %")
                         .arg(decimal("%.1f", 100 * s.held_out_accuracy),
                              decimal("%.1f", 100 * s.held_out_accuracy_sd));
    });
    add(Cli::tr("useful samples"), [](const Side& s) {
        return Cli::tr("%1 of %2")
            .arg(QString::number(s.metrics.useful_samples), QString::number(s.metrics.samples));
    });
    add(Cli::tr("goodput"),
        [](const Side& s) { return Cli::tr("%1 samples/s").arg(number(s.metrics.goodput)); });
    add(Cli::tr("synchronisation"), [](const Side& s) {
        return Cli::tr("%1 s per worker").arg(number(s.metrics.communication_s));
    });
    add(Cli::tr("waiting", "time spent"),
        [](const Side& s) { return Cli::tr("%1 s per worker").arg(number(s.metrics.waiting_s)); });
    add(Cli::tr("checkpointing"), [](const Side& s) {
        return Cli::tr("%1 s per worker").arg(number(s.metrics.checkpoint_s));
    });
    add(Cli::tr("failures"), [](const Side& s) { return QString::number(s.metrics.failures); });
    add(Cli::tr("lost work"), [](const Side& s) {
        return Cli::tr("%1 steps, %2 worker-s")
            .arg(QString::number(s.metrics.lost_steps), number(s.metrics.lost_worker_s));
    });
    add(Cli::tr("dropped gradients"),
        [](const Side& s) { return QString::number(s.metrics.dropped_gradients); });
    add(Cli::tr("energy (modelled)"),
        [](const Side& s) { return number(s.metrics.energy_j) + QStringLiteral(" J"); });
    add(Cli::tr("energy per useful sample"),
        [](const Side& s) { return number(s.metrics.energy_per_sample_j) + QStringLiteral(" J"); });

    print(
        Cli::tr("Comparing A: %1 (\"%2\")\n      and B: %3 (\"%4\"), target loss %5\n\n")
            .arg(qs(a.file), qs(a.scenario.name), qs(b.file), qs(b.scenario.name), number(target)));
    print(row(QString(), {QStringLiteral("A"), QStringLiteral("B")}, 28));
    for (const auto& r : rows)
        print(row(r.label, {r.va, r.vb}, 28));
    const auto* pa = reached(a, target);
    const auto* pb = reached(b, target);
    if (pa && pb && pa->time_s > 0 && pa->energy_j > 0)
        print(Cli::tr("\n  To reach loss %1, B takes %2x the time and %3x the energy of A.\n")
                  .arg(number(target), decimal("%.2f", pb->time_s / pa->time_s),
                       decimal("%.2f", pb->energy_j / pa->energy_j)));
    print(Cli::tr("  Energy uses assumed power per state (see docs/SCENARIO.md), not a meter.\n"));
    return 0;
}

} // namespace lockstep::cli
