#include "checkpoint_directory.h"

#include "options.h"

#include "checkpoint/checkpoint.h"

#include <cstdint>
#include <filesystem>
#include <memory>
#include <span>
#include <system_error>
#include <vector>

namespace lockstep::cli {

namespace {

// The scenario as a checkpoint directory keeps it, file paths made absolute so that it reads
// back the same from there.
std::string portable_scenario_json(lockstep::Scenario s) {
    namespace fs = std::filesystem;
    if (!s.dataset.csv.empty())
        s.dataset.csv = fs::absolute(s.dataset.csv).lexically_normal().string();
    if (!s.init_params.empty())
        s.init_params = fs::absolute(s.init_params).lexically_normal().string();
    return lockstep::scenario_to_json(s);
}

// A fresh run writes into an empty directory: one that holds another run's checkpoints or
// scenario file is refused, so that neither run uses or deletes the other's files.
void refuse_another_runs_directory(const std::string& dir, std::uint64_t hash) {
    namespace fs = std::filesystem;
    const lockstep::CheckpointOwners owners = lockstep::checkpoint_owners(dir, hash);
    std::vector<std::int64_t> steps = owners.this_scenario;
    steps.insert(steps.end(), owners.other_scenario.begin(), owners.other_scenario.end());
    steps.insert(steps.end(), owners.unknown.begin(), owners.unknown.end());
    std::error_code ec;
    const bool has_scenario = fs::exists(fs::path(dir) / kScenarioFile, ec);
    if (steps.empty() && !has_scenario)
        return;
    const QString what = steps.empty()
                             ? QString::fromLatin1(kScenarioFile)
                             : Cli::tr("checkpoints (%1)").arg(qs(lockstep::describe_steps(steps)));
    throw Error(utf8(Cli::tr("%1: holds another run's %2; give this run an empty directory, or "
                             "continue that run with lockstep-cli resume %1")
                         .arg(qs(dir), what)));
}

} // namespace

Error no_scenario_file(const std::string& dir) {
    return Error(utf8(Cli::tr("%1: no %2 (not a directory written by lockstep-cli run "
                              "--checkpoint-dir)")
                          .arg(qs(dir), QString::fromLatin1(kScenarioFile))));
}

std::unique_ptr<DirectoryLock> prepare_checkpoint_directory(const std::string& dir,
                                                            const Scenario& scenario) {
    namespace fs = std::filesystem;
    if (!scenario.checkpoint)
        throw Error(utf8(Cli::tr("--checkpoint-dir: needs a checkpoint policy (--checkpoint-every "
                                 "K, or checkpoint.every in the scenario)")));
    const std::uint64_t hash = lockstep::scenario_hash(scenario);
    refuse_another_runs_directory(dir, hash); // before anything is created in it
    std::error_code ec;
    fs::create_directories(dir, ec);
    if (ec || !fs::is_directory(dir))
        throw Error(utf8(Cli::tr("%1: cannot create the checkpoint directory").arg(qs(dir))));
    // Held from here to the run's end: a second run started at the same moment is refused by
    // the lock, one started after this one wrote its scenario by the check that follows.
    auto lock = std::make_unique<DirectoryLock>(dir);
    refuse_another_runs_directory(dir, hash);
    const std::string text = portable_scenario_json(scenario);
    lockstep::write_file_atomically(fs::path(dir) / kScenarioFile,
                                    std::as_bytes(std::span(text.data(), text.size())));
    return lock;
}

} // namespace lockstep::cli
