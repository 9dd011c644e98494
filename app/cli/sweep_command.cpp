// lockstep-cli sweep: the same scenario for several worker counts, with each one's time, speedup
// and efficiency.
#include "commands.h"
#include "scenario_flags.h"

#include "core/error.h"
#include "runs/runs.h"
#include "scenario/scenario.h"

#include <nlohmann/json.hpp>

#include <iostream>
#include <string>
#include <vector>

namespace lockstep::cli {

using nlohmann::json;

namespace {

const std::vector<std::string> kScenarioFlags{
    "--steps",  "--seed",       "--clock",     "--rule",        "--algorithm",
    "--layers", "--activation", "--optimizer", "--lr",          "--momentum",
    "--batch",  "--dataset",    "--shuffle",   "--init-params", "--accumulate"};

// Without `flag` and its value.
std::vector<std::string> without(const std::vector<std::string>& args, const std::string& flag) {
    std::vector<std::string> rest;
    for (std::size_t i = 0; i < args.size(); ++i) {
        if (args[i] == flag) {
            ++i;
            continue;
        }
        if (args[i].rfind(flag + "=", 0) == 0)
            continue;
        rest.push_back(args[i]);
    }
    return rest;
}

double per_step(double seconds, const RunMetrics& m) {
    return m.steps_run > 0 ? seconds / static_cast<double>(m.steps_run) : 0.0;
}

// sweep --bucket-kb 1,4,16,...: the same run with buckets of each size, overlapping backward
// (with --no-overlap, waiting for it). Too small pays a message's latency per bucket; too large
// starts too late.
int sweep_buckets(const Options& o, const std::vector<std::string>& args) {
    const auto sizes =
        o.integer_list("--bucket-kb", 0, static_cast<std::int64_t>(ScenarioLimits::max_bucket_kb));
    std::vector<std::string> flags = kScenarioFlags;
    flags.push_back("--workers");
    const Options base(without(args, "--bucket-kb"), flags,
                       {"--json", "--no-overlap", "--paced-links"});
    const Scenario scenario = scenario_from(base);
    std::vector<RunMetrics> runs;
    for (const std::int64_t kb : *sizes) {
        Scenario s = scenario;
        GradientConfig g = s.gradients.value_or(GradientConfig{});
        g.bucket_kb = static_cast<std::size_t>(kb);
        g.overlap = !o.has("--no-overlap");
        s.gradients = g;
        lockstep::validate(s);
        const Work work = s.clock == ClockKind::Modelled ? Work::TimesOnly : Work::Train;
        runs.push_back(lockstep::run_scenario(s, nullptr, work).metrics);
    }
    if (o.has("--json")) {
        json out = json::array();
        for (std::size_t i = 0; i < runs.size(); ++i)
            out.push_back(
                {{"bucket_kb", (*sizes)[i]},
                 {"buckets", runs[i].buckets},
                 {"step_time_s", runs[i].step_time_s},
                 {"collective_s", runs[i].collective_s},
                 {"exposed_communication_s", runs[i].exposed_communication_s},
                 {"exposed_per_step_s", per_step(runs[i].exposed_communication_s, runs[i])},
                 {"overlap_fraction", runs[i].overlap_fraction}});
        std::cout << out.dump(2) << '\n';
        return 0;
    }
    print(pad(Cli::tr("bucket KB"), 10) + QStringLiteral("  ") + pad(Cli::tr("buckets"), 8) +
          QStringLiteral("  ") + pad(Cli::tr("step (s)"), 12) + QStringLiteral("  ") +
          pad(Cli::tr("exposed/step"), 12) + QStringLiteral("  ") + Cli::tr("hidden") +
          QLatin1Char('\n'));
    std::size_t best = 0;
    for (std::size_t i = 0; i < runs.size(); ++i) {
        if (runs[i].step_time_s < runs[best].step_time_s)
            best = i;
        print(QStringLiteral("%1  %2  %3  %4  %5%\n")
                  .arg(pad(QString::number((*sizes)[i]), 10),
                       pad(QString::number(runs[i].buckets), 8),
                       decimal("%12.6g", runs[i].step_time_s),
                       decimal("%12.6g", per_step(runs[i].exposed_communication_s, runs[i])),
                       decimal("%5.1f", 100.0 * runs[i].overlap_fraction)));
    }
    print(Cli::tr("fastest step: buckets of %1 KB\n").arg((*sizes)[best]));
    return 0;
}

} // namespace

int command_sweep(const std::vector<std::string>& args) {
    std::vector<std::string> flags = kScenarioFlags;
    flags.insert(flags.end(), {"--workers", "--bucket-kb"});
    const Options o(args, flags, {"--json", "--no-overlap", "--paced-links"});
    if (o.has("--bucket-kb"))
        return sweep_buckets(o, args);
    if (o.has("--no-overlap"))
        throw Error(utf8(Cli::tr("--no-overlap: goes with --bucket-kb (the bucket sweep)")));
    const auto counts64 = o.integer_list("--workers", 1, lockstep::ScenarioLimits::max_workers);
    if (!counts64)
        throw Error(utf8(Cli::tr("sweep needs --workers, e.g. --workers 1,2,4,8")));
    const Options base(without(args, "--workers"), kScenarioFlags, {"--json"});
    auto scenario = scenario_from(base);
    const std::vector<int> counts(counts64->begin(), counts64->end());
    for (int n : counts)
        lockstep::validate(lockstep::scenario_for_workers(scenario, n));
    const auto points = lockstep::sweep(scenario, counts);
    if (o.has("--json")) {
        json out = json::array();
        for (const auto& p : points)
            out.push_back({{"workers", p.workers},
                           {"time_s", p.metrics.total_time_s},
                           {"speedup", p.metrics.speedup},
                           {"efficiency", p.metrics.efficiency},
                           {"waiting_s", p.metrics.waiting_s},
                           {"communication_s", p.metrics.communication_s},
                           {"final_loss", p.metrics.final_loss}});
        std::cout << out.dump(2) << '\n';
        return 0;
    }
    print(pad(Cli::tr("workers"), 8) + QStringLiteral("  ") + pad(Cli::tr("time (s)"), 14) +
          QStringLiteral("  ") + pad(Cli::tr("speedup"), 8) + QStringLiteral("  ") +
          pad(Cli::tr("efficiency"), 10) + QLatin1Char('\n'));
    for (const auto& p : points)
        print(QStringLiteral("%1  %2  %3  %4%\n")
                  .arg(pad(QString::number(p.workers), 8),
                       decimal("%14.6g", p.metrics.total_time_s),
                       decimal("%8.3f", p.metrics.speedup),
                       decimal("%9.1f", 100.0 * p.metrics.efficiency)));
    return 0;
}

} // namespace lockstep::cli
