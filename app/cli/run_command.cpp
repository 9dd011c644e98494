// lockstep-cli run: trains a scenario to its end, on threads (data-parallel, loosely synchronised
// or model-parallel) or over Open MPI with one worker per process, and reports it.
#include "checkpoint_directory.h"
#include "commands.h"
#include "mpi_command.h"
#include "report.h"
#include "run_outputs.h"
#include "run_report.h"
#include "scenario_flags.h"

#include "core/error.h"
#include "runs/runs.h"
#include "scenario/scenario.h"
#include "trace/recording.h"
#include "trace/trace.h"
#include "trainers/run.h"

#include <filesystem>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <vector>

namespace lockstep::cli {

int run_over_mpi(const Options& o, bool mpi_allreduce, const std::string& resume_dir) {
    const lockstep::cli::MpiCommand mpi;
    lockstep::Scenario scenario;
    std::optional<lockstep::cli::RunOutputs> outputs;
    std::string checkpoint_dir = resume_dir;
    std::unique_ptr<lockstep::DirectoryLock> lock; // rank 0 holds the directory for the run
    lockstep::cli::on_every_rank([&] {
        namespace fs = std::filesystem;
        if (!resume_dir.empty()) {
            if (!fs::exists(fs::path(resume_dir) / kScenarioFile))
                throw no_scenario_file(resume_dir);
            scenario = lockstep::load_scenario((fs::path(resume_dir) / kScenarioFile).string());
            if (mpi.rank() == 0)
                lock = std::make_unique<lockstep::DirectoryLock>(resume_dir);
        } else {
            scenario = scenario_from(o);
        }
        // Between processes, time is what the ranks really took; the scenario a new checkpoint
        // directory keeps says so too. A directory being resumed keeps its own: the ranks
        // measure time either way, and its checkpoints name that scenario.
        if (resume_dir.empty())
            scenario.clock = lockstep::ClockKind::Measured;
        if (auto dir = o.text("--checkpoint-dir")) {
            if (!scenario.checkpoint)
                throw Error(utf8(Cli::tr("--checkpoint-dir: needs a checkpoint policy "
                                         "(--checkpoint-every K, or checkpoint.every in the "
                                         "scenario)")));
            checkpoint_dir = *dir;
            if (mpi.rank() == 0)
                lock = prepare_checkpoint_directory(*dir, scenario);
        } else if (o.has("--checkpoint-every")) {
            throw Error(utf8(Cli::tr("--checkpoint-every: needs --checkpoint-dir DIR")));
        } else if (scenario.checkpoint && resume_dir.empty()) {
            throw Error(utf8(Cli::tr("checkpoint: a run over processes checkpoints into a "
                                     "directory every computer reaches; name it with "
                                     "--checkpoint-dir DIR")));
        }
        if (mpi.rank() == 0)
            outputs.emplace(o, scenario.name);
    });
    lockstep::cli::ProcessOptions options;
    options.mpi_allreduce = mpi_allreduce;
    options.keep_events = o.has("--trace");
    options.checkpoint_dir = checkpoint_dir;
    options.resume = !resume_dir.empty();
    options.from_scratch = o.has("--from-scratch");
    if (o.has("--rank-timeout"))
        options.rank_timeout_s = *o.number("--rank-timeout", 0.1, 3600.0);
    lockstep::cli::ProcessRun run = lockstep::cli::run_processes(scenario, options);
    run.mpi_allreduce = mpi_allreduce;
    if (mpi.rank() != 0)
        return 0;
    scenario.clock = lockstep::ClockKind::Measured; // what the report and the recording say
    for (const std::string& skipped : run.skipped)
        note(Cli::tr("note: skipped %1").arg(qs(skipped)));
    if (!run.set_aside.empty())
        note(Cli::tr("note: set the checkpoints this run cannot use aside in %1")
                 .arg(qs(run.set_aside)));
    if (run.resumed_from == 0)
        note(Cli::tr("note: no complete checkpoint in %1: starting from step 0")
                 .arg(qs(resume_dir)));
    outputs->begin(run.ranks);
    // The merged trace and the snapshots, step by step, as a threaded run hands them over.
    std::size_t at = 0;
    for (const auto& snapshot : run.snapshots) {
        std::size_t end = at;
        while (end < run.events.size() && run.events[end].step == snapshot.step)
            ++end;
        outputs->on_events(std::span(run.events).subspan(at, end - at));
        outputs->on_snapshot(snapshot);
        at = end;
    }
    // The trace carries the whole run for the lab to play back (lockstep --replay).
    if (o.has("--trace")) {
        lockstep::Recording recording;
        recording.scenario = scenario;
        recording.ranks = run.ranks;
        recording.hosts = run.hosts;
        recording.events = run.events;
        recording.snapshots = run.snapshots;
        recording.parameters = run.result.parameters;
        outputs->set_trace_trailer(lockstep::recording_member(recording));
    }
    return report_run(o, scenario, run.result, *outputs, run.resumed_from, &run);
}

int command_run(const std::vector<std::string>& raw) {
    // Open MPI's own all-reduce is not one of the scenario's algorithms: taken out here.
    std::vector<std::string> args;
    bool mpi_allreduce = false;
    for (std::size_t i = 0; i < raw.size(); ++i) {
        if (raw[i] == "--algorithm=mpi-allreduce" ||
            (raw[i] == "--algorithm" && i + 1 < raw.size() && raw[i + 1] == "mpi-allreduce")) {
            mpi_allreduce = true;
            i += raw[i] == "--algorithm" ? 1 : 0;
            continue;
        }
        args.push_back(raw[i]);
    }
    const Options o(
        args, {"--workers",
               "--steps",
               "--seed",
               "--clock",
               "--rule",
               "--algorithm",
               "--layers",
               "--activation",
               "--optimizer",
               "--lr",
               "--momentum",
               "--batch",
               "--dataset",
               "--shuffle",
               "--init-params",
               "--params-out",
               "--trace",
               "--metrics-csv",
               "--checkpoint-dir",
               "--checkpoint-every",
               "--trace-detail",
               "--keep",
               "--restore",
               "--fail",
               "--policy",
               "--backup-workers",
               "--heartbeat",
               "--parallelism",
               "--stages",
               "--microbatches",
               "--schedule",
               "--replicas",
               "--transport",
               "--sync",
               "--staleness",
               "--local-steps",
               "--bucket-kb",
               "--accumulate",
               "--shard",
               "--rank-timeout",
               "--nodes",
               "--comm-precision",
               "--precision",
               "--loss-scale",
               "--loss-scale-growth"},
        {"--json", "--staleness-aware-lr", "--no-overlap", "--paced-links", "--compare-precision"});
    const std::string transport = o.text("--transport").value_or("threads");
    if (transport != "threads" && transport != "mpi")
        throw not_one_of("--transport", "threads, mpi", transport);
    if (transport == "mpi")
        return run_over_mpi(o, mpi_allreduce);
    if (mpi_allreduce)
        throw Error(utf8(Cli::tr("--algorithm: mpi-allreduce is Open MPI's own all-reduce, so it "
                                 "needs --transport mpi (under mpirun)")));
    if (o.has("--rank-timeout"))
        throw Error(utf8(Cli::tr("--rank-timeout: bounds a wait between processes, so it needs "
                                 "--transport mpi")));
    // One way for every run on threads: make_run() picks the trainer.
    const lockstep::Scenario scenario = scenario_from(o);
    lockstep::cli::RunOutputs outputs(o, scenario.name);
    const auto run = lockstep::make_run(scenario, lockstep::load_dataset(scenario), &outputs);
    if (!run->saves_checkpoints())
        for (const char* flag : {"--checkpoint-dir", "--checkpoint-every", "--keep", "--restore"})
            if (o.has(flag))
                throw Error(utf8(Cli::tr("%1: checkpoints are written by data-parallel runs only "
                                         "for now")
                                     .arg(QString::fromLatin1(flag))));
    std::optional<lockstep::cli::ScratchDirectory> scratch;
    std::unique_ptr<lockstep::DirectoryLock> lock;
    if (auto dir = o.text("--checkpoint-dir")) {
        lock = prepare_checkpoint_directory(*dir, scenario);
        run->set_checkpoint_directory(*dir);
    } else if (o.has("--checkpoint-every")) {
        throw Error(utf8(Cli::tr("--checkpoint-every: needs --checkpoint-dir DIR")));
    } else if (scenario.checkpoint && run->saves_checkpoints()) {
        // The scenario checkpoints (its failures recover from them): into a scratch directory.
        scratch.emplace();
        run->set_checkpoint_directory(scratch->path());
        if (!o.has("--json"))
            print(Cli::tr("(checkpoints go to a scratch directory, removed at the end; "
                          "--checkpoint-dir DIR keeps them)\n"));
    }
    outputs.begin(run->lanes());
    const auto result = lockstep::finish_run(*run);
    return report_run(o, scenario, result, outputs, -1);
}

} // namespace lockstep::cli
