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

int command_sweep(const std::vector<std::string>& args) {
    const Options o(args,
                    {"--workers", "--steps", "--seed", "--clock", "--rule", "--algorithm",
                     "--layers", "--activation", "--optimizer", "--lr", "--momentum", "--batch",
                     "--dataset", "--shuffle", "--init-params"},
                    {"--json"});
    const auto counts64 = o.integer_list("--workers", 1, lockstep::ScenarioLimits::max_workers);
    if (!counts64)
        throw Error(utf8(Cli::tr("sweep needs --workers, e.g. --workers 1,2,4,8")));
    std::vector<std::string> rest;
    for (std::size_t i = 0; i < args.size(); ++i) {
        if (args[i] == "--workers") {
            ++i;
            continue;
        }
        if (args[i].rfind("--workers=", 0) == 0)
            continue;
        rest.push_back(args[i]);
    }
    const Options base(rest,
                       {"--steps", "--seed", "--clock", "--rule", "--algorithm", "--layers",
                        "--activation", "--optimizer", "--lr", "--momentum", "--batch", "--dataset",
                        "--shuffle", "--init-params"},
                       {"--json"});
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
