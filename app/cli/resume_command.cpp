// lockstep-cli resume and checkpoints: a run continued from the newest complete checkpoint of its
// directory, and what a checkpoint directory holds.
#include "checkpoint_directory.h"
#include "commands.h"
#include "run_outputs.h"
#include "run_report.h"

#include "checkpoint/checkpoint.h"
#include "core/error.h"
#include "runs/runs.h"
#include "scenario/scenario.h"

#include <nlohmann/json.hpp>

#include <cstdint>
#include <filesystem>
#include <iostream>
#include <string>
#include <vector>

namespace lockstep::cli {

using nlohmann::json;

int command_resume(const std::vector<std::string>& args) {
    const Options o(args,
                    {"--params-out", "--trace", "--trace-detail", "--metrics-csv", "--transport",
                     "--rank-timeout"},
                    {"--json", "--from-scratch"});
    if (o.positional().size() != 1)
        throw Error(utf8(Cli::tr("resume needs exactly one checkpoint directory")));
    const std::string transport = o.text("--transport").value_or("threads");
    if (transport != "threads" && transport != "mpi")
        throw not_one_of("--transport", "threads, mpi", transport);
    if (transport == "mpi")
        return run_over_mpi(o, false, o.positional().front());
    if (o.has("--rank-timeout"))
        throw Error(utf8(Cli::tr("--rank-timeout: bounds a wait between processes, so it needs "
                                 "--transport mpi")));
    namespace fs = std::filesystem;
    const fs::path dir = o.positional().front();
    if (!fs::is_directory(dir))
        throw Error(utf8(Cli::tr("%1: not a directory").arg(qs(dir.string()))));
    if (!fs::exists(dir / kScenarioFile))
        throw no_scenario_file(dir.string());
    const auto scenario = lockstep::load_scenario((dir / kScenarioFile).string());
    const lockstep::DirectoryLock lock(dir); // held until the run ends

    for (const auto& file : lockstep::clean_leftovers(dir))
        note(Cli::tr("note: removed the leftover temporary file %1").arg(qs(file.string())));
    lockstep::cli::RunOutputs outputs(o, scenario.name);
    const auto run = lockstep::make_run(scenario, lockstep::load_dataset(scenario), &outputs);
    lockstep::Run& trainer = *run;
    const lockstep::RestoreMode mode =
        scenario.checkpoint ? scenario.checkpoint->restore : lockstep::RestoreMode::Full;
    // The newest checkpoint that verifies and fits this run; an older one rather than none.
    lockstep::RecoveryFilter filter;
    filter.scenario_hash = lockstep::scenario_hash(scenario);
    filter.workers = scenario.workers;
    filter.fits = [&](const lockstep::TrainingState& state) { return trainer.misfit(state, mode); };
    const auto recovery = lockstep::load_newest_complete(dir, filter);
    for (const auto& rejected : recovery.rejected)
        note(Cli::tr("note: skipped %1 (%2: %3)")
                 .arg(qs(rejected.directory.filename().string()),
                      qs(std::string(lockstep::to_string(rejected.status))), qs(rejected.reason)));

    outputs.begin(scenario.workers);
    std::int64_t from = 0;
    if (recovery.state) {
        trainer.restore_state(*recovery.state, mode);
        from = recovery.state->step;
    } else {
        if (const auto aside =
                lockstep::start_again(dir, recovery.rejected, o.has("--from-scratch")))
            note(Cli::tr("note: set the checkpoints this run cannot use aside in %1")
                     .arg(qs(aside->string())));
        note(Cli::tr("note: no complete checkpoint in %1: starting from step 0")
                 .arg(qs(dir.string())));
    }
    if (scenario.checkpoint)
        trainer.set_checkpoint_directory(dir);
    const auto result = lockstep::finish_run(trainer);
    return report_run(o, scenario, result, outputs, from);
}

int command_checkpoints(const std::vector<std::string>& args) {
    const Options o(args, {}, {"--json"});
    if (o.positional().size() != 1)
        throw Error(utf8(Cli::tr("checkpoints needs exactly one checkpoint directory")));
    const auto scan = lockstep::scan_checkpoints(o.positional().front());
    if (o.has("--json")) {
        json list = json::array();
        for (const auto& c : scan.checkpoints)
            list.push_back({{"step", c.step},
                            {"directory", c.directory.filename().string()},
                            {"status", std::string(lockstep::to_string(c.status))},
                            {"fault", std::string(lockstep::to_string(c.fault))},
                            {"reason", c.reason}});
        json leftovers = json::array();
        for (const auto& f : scan.leftovers)
            leftovers.push_back(f.string());
        std::cout << json{{"checkpoints", list}, {"leftovers", leftovers}}.dump(2) << '\n';
        return 0;
    }
    if (scan.checkpoints.empty())
        print(Cli::tr("no checkpoints in %1\n").arg(qs(o.positional().front())));
    for (const auto& c : scan.checkpoints)
        print(Cli::tr("%1  step %2  %3  %4\n")
                  .arg(pad(qs(c.directory.filename().string()), -16),
                       pad(QString::number(c.step), -8),
                       pad(qs(std::string(lockstep::to_string(c.status))), -8), qs(c.reason)));
    for (const auto& f : scan.leftovers)
        print(Cli::tr("leftover temporary file: %1\n").arg(qs(f.string())));
    return 0;
}

} // namespace lockstep::cli
