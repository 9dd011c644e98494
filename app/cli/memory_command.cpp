// lockstep-cli memory: what a data-parallel worker holds, kind by kind, with each way of sharding
// side by side: one real step of the scenario per stage, its buffers read off every worker.
#include "commands.h"
#include "report.h"
#include "scenario_flags.h"

#include "core/error.h"
#include "runs/runs.h"
#include "scenario/scenario.h"
#include "trainers/run.h"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <iostream>
#include <sstream>
#include <string>
#include <vector>

namespace lockstep::cli {

using nlohmann::json;

namespace {

std::vector<Sharding> stages_from(const Options& o) {
    std::vector<Sharding> stages{Sharding::None, Sharding::Optimizer, Sharding::Gradients,
                                 Sharding::Parameters};
    if (const auto list = o.text("--shard")) {
        stages.clear();
        std::stringstream words(*list);
        for (std::string word; std::getline(words, word, ',');) {
            Sharding s = Sharding::None;
            if (!parse_sharding(word, s))
                throw not_one_of("--shard", "none, optimizer, gradients, parameters", word);
            stages.push_back(s);
        }
    }
    return stages;
}

} // namespace

int command_memory(const std::vector<std::string>& args) {
    const std::vector<std::string> scenario_flags{
        "--workers",   "--steps", "--seed",     "--algorithm", "--layers",  "--activation",
        "--optimizer", "--lr",    "--momentum", "--batch",     "--dataset", "--accumulate"};
    std::vector<std::string> flags = scenario_flags;
    flags.push_back("--shard");
    const Options o(args, flags, {"--json"});
    // The scenario from the file and the flags, the stages aside: they are this command's own.
    std::vector<std::string> rest;
    for (std::size_t i = 0; i < args.size(); ++i) {
        if (args[i] == "--shard")
            ++i;
        else if (args[i].rfind("--shard=", 0) != 0)
            rest.push_back(args[i]);
    }
    Scenario scenario = scenario_from(Options(rest, scenario_flags, {"--json"}));
    scenario.steps = 1;
    std::vector<std::pair<Sharding, WorkerMemory>> columns;
    for (Sharding stage : stages_from(o)) {
        Scenario s = scenario;
        s.sharding = stage;
        lockstep::validate(s);
        columns.emplace_back(stage, lockstep::peak_after_one_step(s).worker);
    }
    if (o.has("--json")) {
        json out = json::array();
        for (const auto& [stage, w] : columns) {
            json column = memory_json(w);
            column["sharding"] = std::string(to_string(stage));
            out.push_back(std::move(column));
        }
        std::cout << out.dump(2) << '\n';
        return 0;
    }
    print(Cli::tr("Bytes held by the worker that holds the most, after one step of \"%1\" (%2 "
                  "workers, %3 parameters); in brackets, against the first column\n")
              .arg(qs(scenario.name))
              .arg(scenario.workers)
              .arg(scenario.model.parameter_count()));
    QString header = QString().leftJustified(12);
    for (const auto& [stage, w] : columns)
        header += QStringLiteral("  ") + pad(qs(std::string(to_string(stage))), 17);
    print(header + QLatin1Char('\n'));
    const std::pair<QString, std::int64_t WorkerMemory::*> kinds[] = {
        {Cli::tr("parameters"), &WorkerMemory::parameters},
        {Cli::tr("gradients"), &WorkerMemory::gradients},
        {Cli::tr("optimizer"), &WorkerMemory::optimizer},
        {Cli::tr("activations"), &WorkerMemory::activations},
        {Cli::tr("workspace"), &WorkerMemory::workspace},
        {Cli::tr("peak"), &WorkerMemory::peak},
        {Cli::tr("params peak"), &WorkerMemory::parameters_peak}};
    for (const auto& [label, field] : kinds) {
        QString line = label.leftJustified(12);
        const std::int64_t first = columns.front().second.*field;
        for (const auto& [stage, w] : columns) {
            const std::int64_t bytes = w.*field;
            const QString ratio =
                first > 0
                    ? decimal("(%.2f)", static_cast<double>(bytes) / static_cast<double>(first))
                    : QString();
            line +=
                QStringLiteral("  ") + pad(QString::number(bytes) + QLatin1Char(' ') + ratio, 17);
        }
        print(line + QLatin1Char('\n'));
    }
    return 0;
}

} // namespace lockstep::cli
