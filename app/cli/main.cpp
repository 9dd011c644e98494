// lockstep-cli: run, sweep and inspect Lockstep scenarios from a terminal. Every command goes
// through the same engine calls as the GUI; errors print one line on stderr and exit non-zero.

#include "class_command.h"
#include "help.h"
#include "lessons_commands.h"
#include "model_parallel.h"
#include "mpi_command.h"
#include "options.h"
#include "report.h"
#include "run_outputs.h"

#include "checkpoint/checkpoint.h"
#include "collectives/bench.h"
#include "collectives/reduction.h"
#include "core/error.h"
#include "runs/runs.h"
#include "runs/train_bench.h"
#include "scenario/scenario.h"
#include "trace/recording.h"
#include "trace/trace.h"

#include "lockstep_lessons/language.h"

#include <nlohmann/json.hpp>

#include <QCoreApplication>
#include <QGuiApplication>
#include <QStringList>

namespace lockstep::cli {
int command_compare(const std::vector<std::string>& args); // compare_command.cpp
}

#include <clocale>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <memory>
#include <optional>
#include <string>
#include <vector>

using lockstep::Error;
using lockstep::cli::Cli;
using lockstep::cli::decimal;
using lockstep::cli::format_number;
using lockstep::cli::metrics_json;
using lockstep::cli::Options;
using lockstep::cli::pad;
using lockstep::cli::print;
using lockstep::cli::print_error;
using lockstep::cli::qs;
using lockstep::cli::report_line;
using lockstep::cli::utf8;
using nlohmann::json;

namespace {

void write_file(const std::string& path, const std::string& text) {
    std::ofstream out(path, std::ios::binary | std::ios::trunc);
    if (!out)
        throw Error(utf8(Cli::tr("%1: cannot write the file").arg(qs(path))));
    out << text;
    out.close();
    if (!out)
        throw Error(utf8(Cli::tr("%1: writing the file failed").arg(qs(path))));
}

// "--rule: must be one of sum, mean, weighted-mean, got 'median'".
Error not_one_of(const std::string& flag, const char* allowed, const std::string& got) {
    return Error(utf8(Cli::tr("%1: must be one of %2, got '%3'")
                          .arg(qs(flag), QString::fromUtf8(allowed), qs(got))));
}

// A note on stderr: something the command did or skipped, and why.
void note(const QString& text) {
    print_error(QStringLiteral("lockstep-cli: ") + text + QLatin1Char('\n'));
}

template <typename E>
void choose(const Options& o, const std::string& flag, E& out, bool (*parse)(std::string_view, E&),
            const char* allowed) {
    if (auto t = o.text(flag)) {
        if (!parse(*t, out))
            throw not_one_of(flag, allowed, *t);
    }
}

lockstep::Scenario scenario_from(const Options& o) {
    if (o.positional().size() > 1)
        throw Error(utf8(Cli::tr("expected at most one scenario file, got '%1' as well")
                             .arg(qs(o.positional()[1]))));
    lockstep::Scenario s = o.positional().empty() ? lockstep::Scenario{}
                                                  : lockstep::load_scenario(o.positional().front());
    using L = lockstep::ScenarioLimits;
    if (auto v = o.integer("--workers", 1, L::max_workers))
        s.workers = static_cast<int>(*v);
    if (auto v = o.integer("--steps", 1, L::max_steps))
        s.steps = *v;
    if (auto v = o.integer("--seed", 0, std::int64_t{1} << 53))
        s.seed = static_cast<std::uint64_t>(*v);
    if (auto v = o.integer("--batch", 1, static_cast<std::int64_t>(L::max_batch))) {
        s.batch = static_cast<std::size_t>(*v);
        s.worker_batch.clear();
    }
    if (auto t = o.text("--clock")) {
        if (*t == "modelled")
            s.clock = lockstep::ClockKind::Modelled;
        else if (*t == "measured")
            s.clock = lockstep::ClockKind::Measured;
        else
            throw not_one_of("--clock", "modelled, measured", *t);
    }
    choose(o, "--rule", s.rule, lockstep::parse_reduction_rule, "sum, mean, weighted-mean");
    choose(o, "--algorithm", s.algorithm, lockstep::parse_algorithm,
           "parameter-server, ring, tree, none");
    choose(o, "--activation", s.model.activation, lockstep::parse_activation,
           "tanh, relu, sigmoid, linear");
    choose(o, "--optimizer", s.optimizer.kind, lockstep::parse_optimizer, "sgd, adam");
    if (auto v = o.integer_list("--layers", 1, L::max_layer_width))
        s.model.layers.assign(v->begin(), v->end());
    if (auto v = o.number("--lr", 0.0, 100.0))
        s.optimizer.learning_rate = *v;
    if (auto v = o.number("--momentum", 0.0, 0.999999))
        s.optimizer.momentum = *v;
    if (auto t = o.text("--dataset")) {
        if (lockstep::is_synthetic_dataset(*t)) {
            s.dataset.name = *t;
            s.dataset.csv.clear();
            s.model.loss = *t == "regression" ? lockstep::LossKind::MeanSquaredError
                                              : lockstep::LossKind::SoftmaxCrossEntropy;
        } else if (t->size() > 4 && t->substr(t->size() - 4) == ".csv") {
            s.dataset.csv = *t;
            s.dataset.name.clear();
        } else {
            QStringList known;
            for (const auto& n : lockstep::synthetic_dataset_names())
                known << qs(n);
            throw Error(utf8(Cli::tr("--dataset: must be one of %1, or a file ending in .csv, got "
                                     "'%2'")
                                 .arg(known.join(QStringLiteral(", ")), qs(*t))));
        }
    }
    if (auto t = o.text("--shuffle")) {
        if (*t != "on" && *t != "off")
            throw Error(utf8(Cli::tr("--shuffle: must be on or off, got '%1'").arg(qs(*t))));
        s.shuffle = *t == "on";
    }
    if (auto t = o.text("--init-params"))
        s.init_params = *t;
    if (auto t = o.text("--sync")) {
        lockstep::SyncConfig c;
        if (!lockstep::parse_sync_mode(*t, c.mode))
            throw not_one_of("--sync", "bsp, ssp, async, local", *t);
        s.sync = c;
        // Both send every gradient to a parameter server: the one they need, unless named.
        if ((c.mode == lockstep::SyncMode::Ssp || c.mode == lockstep::SyncMode::Async) &&
            !o.has("--algorithm"))
            s.algorithm = lockstep::Algorithm::ParameterServer;
    }
    auto sync_flag = [&](const char* flag, lockstep::SyncMode needs) {
        if (o.has(flag) && s.sync_mode() != needs)
            throw Error(utf8(
                Cli::tr("%1: goes with --sync %2")
                    .arg(QString::fromLatin1(flag), qs(std::string(lockstep::to_string(needs))))));
    };
    sync_flag("--staleness", lockstep::SyncMode::Ssp);
    sync_flag("--local-steps", lockstep::SyncMode::Local);
    sync_flag("--staleness-aware-lr", lockstep::SyncMode::Async);
    if (auto v = o.integer("--staleness", 0, L::max_staleness))
        s.sync->staleness = static_cast<int>(*v);
    if (auto v = o.integer("--local-steps", 1, L::max_steps))
        s.sync->local_steps = static_cast<int>(*v);
    if (o.has("--staleness-aware-lr"))
        s.sync->staleness_aware_lr = true;
    for (const auto& spec : o.texts("--fail"))
        s.failures.events.push_back(lockstep::parse_failure_spec(spec));
    choose(o, "--policy", s.failures.policy, lockstep::parse_recovery_policy,
           "restart, elastic, backup");
    if (auto v = o.integer("--backup-workers", 0, L::max_workers - 1))
        s.failures.backup_workers = static_cast<int>(*v);
    if (auto v = o.number("--heartbeat", 0.0, 3600.0))
        s.failures.heartbeat_s = *v;
    if (auto v = o.integer("--checkpoint-every", 1, L::max_steps)) {
        s.checkpoint = s.checkpoint.value_or(lockstep::CheckpointConfig{});
        s.checkpoint->every = *v;
    }
    if (o.has("--keep") || o.has("--restore")) {
        if (!s.checkpoint)
            throw Error(
                utf8(Cli::tr("%1: needs a checkpoint policy (--checkpoint-every K)")
                         .arg(QString::fromLatin1(o.has("--keep") ? "--keep" : "--restore"))));
        if (auto v = o.integer("--keep", 1, L::max_checkpoints_kept))
            s.checkpoint->keep = static_cast<int>(*v);
        choose(o, "--restore", s.checkpoint->restore, lockstep::parse_restore_mode,
               "full, weights-only");
    }
    lockstep::validate(s);
    return s;
}

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

constexpr const char* kScenarioFile = "scenario.json";

// A directory that no run --checkpoint-dir wrote: it has no scenario.json.
Error no_scenario_file(const std::string& dir) {
    return Error(utf8(Cli::tr("%1: no %2 (not a directory written by lockstep-cli run "
                              "--checkpoint-dir)")
                          .arg(qs(dir), QString::fromLatin1(kScenarioFile))));
}

// A small text chart of the loss, one character per column: how training went at a glance.
std::string loss_sparkline(const std::vector<double>& losses, std::size_t width = 60) {
    if (losses.empty())
        return "";
    static const char* bars[] = {"▁", "▂", "▃", "▄", "▅", "▆", "▇", "█"};
    const auto [low, high] = std::minmax_element(losses.begin(), losses.end());
    const double lo = *low, hi = *high;
    std::string line;
    const std::size_t columns = std::min(width, losses.size());
    for (std::size_t c = 0; c < columns; ++c) {
        const double loss = losses[c * losses.size() / columns];
        const int level = hi > lo ? static_cast<int>((loss - lo) / (hi - lo) * 7.0 + 0.5) : 0;
        line += bars[std::clamp(level, 0, 7)];
    }
    return line;
}

// Completes the files a run asked for and prints its summary (text or JSON). `resumed_from` is
// the step a resume started at, or -1 for a fresh run.
int report_run(const Options& o, const lockstep::Scenario& scenario,
               const lockstep::RunResult& result, lockstep::cli::RunOutputs& outputs,
               std::int64_t resumed_from, const lockstep::cli::ProcessRun* processes = nullptr) {
    const auto& m = result.metrics;
    outputs.finish();
    if (auto path = o.text("--params-out"))
        write_file(*path, lockstep::parameters_to_json(scenario.model, result.parameters));

    if (o.has("--json")) {
        json out = metrics_json(scenario, m);
        if (scenario.sync_mode() != lockstep::SyncMode::Bsp) {
            const lockstep::RunMetrics bsp = lockstep::cli::bsp_reference(scenario);
            out["bsp"] = {{"total_time_s", bsp.total_time_s}, {"waiting_s", bsp.waiting_s}};
        }
        out["recoveries"] = lockstep::cli::recoveries_json(result.recoveries);
        if (resumed_from >= 0) {
            out["resumed_from_step"] = resumed_from;
            out["restore"] = std::string(lockstep::to_string(
                scenario.checkpoint ? scenario.checkpoint->restore : lockstep::RestoreMode::Full));
        }
        out["transport"] = processes ? "mpi" : "threads";
        if (processes && processes->mpi_allreduce)
            out["algorithm"] = "mpi-allreduce";
        if (processes) {
            out["ranks"] = processes->ranks;
            out["hosts"] = processes->hosts;
        }
        std::cout << out.dump(2) << '\n';
        return 0;
    }
    print(Cli::tr("Lockstep run \"%1\": %2 workers, %3 steps, %4 all-reduce, %5 of gradients, %6 "
                  "clock\n")
              .arg(qs(scenario.name), QString::number(m.workers), QString::number(m.steps),
                   processes && processes->mpi_allreduce
                       ? Cli::tr("Open MPI's MPI_Allreduce")
                       : qs(std::string(lockstep::to_string(scenario.algorithm))),
                   qs(std::string(lockstep::to_string(scenario.rule))),
                   qs(std::string(lockstep::to_string(scenario.clock)))));
    if (scenario.sync_mode() != lockstep::SyncMode::Bsp)
        print(lockstep::cli::sync_summary(scenario, m));
    if (processes) {
        const QString ranks = QString::number(processes->ranks);
        const QString hosts = QString::number(processes->hosts.size());
        const QString first = processes->hosts.empty() ? QString() : qs(processes->hosts.front());
        print(report_line(Cli::tr("processes"),
                          processes->hosts.size() == 1
                              ? Cli::tr("%1 over Open MPI, on %2 host (%3); times measured")
                                    .arg(ranks, hosts, first)
                              : Cli::tr("%1 over Open MPI, on %2 hosts (%3); times measured")
                                    .arg(ranks, hosts, first)));
    }
    if (resumed_from >= 0)
        print(report_line(Cli::tr("resumed from"),
                          Cli::tr("step %1 (%2 restore)")
                              .arg(QString::number(resumed_from),
                                   qs(std::string(lockstep::to_string(
                                       scenario.checkpoint ? scenario.checkpoint->restore
                                                           : lockstep::RestoreMode::Full))))));
    print(lockstep::cli::time_lines(m));
    if (m.checkpoints > 0)
        print(report_line(Cli::tr("checkpoints"), Cli::tr("%1 committed, %2 bytes, %3 s per worker")
                                                      .arg(QString::number(m.checkpoints),
                                                           QString::number(m.checkpoint_bytes),
                                                           decimal("%.4g", m.checkpoint_s))));
    if (processes && m.bytes_moved == 0 && m.workers > 1 &&
        scenario.algorithm != lockstep::Algorithm::None)
        print(report_line(Cli::tr("bytes moved"),
                          Cli::tr("not known (inside Open MPI's MPI_Allreduce)")));
    else
        print(report_line(Cli::tr("bytes moved"), QString::number(m.bytes_moved)));
    print(lockstep::cli::failure_summary(m, result.recoveries));
    print(report_line(Cli::tr("final loss"), Cli::tr("%1   accuracy %2 %")
                                                 .arg(decimal("%.4f", m.final_loss),
                                                      decimal("%.1f", 100.0 * m.final_accuracy))));
    print(report_line(Cli::tr("loss by step"), qs(loss_sparkline(outputs.losses()))));
    print(report_line(Cli::tr("replicas aligned"),
                      !m.trained ? Cli::tr("not checked (times only: no parameters were trained)")
                      : m.replicas_aligned
                          ? Cli::tr("yes (every replica's parameters hash the same)")
                          : Cli::tr("NO: the replicas have drifted apart")));
    return 0;
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

// Makes `dir` the checkpoint directory of a fresh run: refused when it holds another run's files,
// created, and given the effective scenario first, so that a resume knows what it continues.
void prepare_checkpoint_directory(const std::string& dir, const lockstep::Scenario& scenario) {
    namespace fs = std::filesystem;
    if (!scenario.checkpoint)
        throw Error(utf8(Cli::tr("--checkpoint-dir: needs a checkpoint policy (--checkpoint-every "
                                 "K, or checkpoint.every in the scenario)")));
    refuse_another_runs_directory(dir, lockstep::scenario_hash(scenario));
    std::error_code ec;
    fs::create_directories(dir, ec);
    if (ec || !fs::is_directory(dir))
        throw Error(utf8(Cli::tr("%1: cannot create the checkpoint directory").arg(qs(dir))));
    const std::string text = portable_scenario_json(scenario);
    lockstep::write_file_atomically(fs::path(dir) / kScenarioFile,
                                    std::as_bytes(std::span(text.data(), text.size())));
}

// A data-parallel run with one worker per process that mpirun started: every rank trains its
// worker, rank 0 reports for all of them. `resume_dir`: continue the run checkpointed there.
int run_processes(const Options& o, bool mpi_allreduce, const std::string& resume_dir = {}) {
    const lockstep::cli::MpiCommand mpi;
    lockstep::Scenario scenario;
    std::optional<lockstep::cli::RunOutputs> outputs;
    std::string checkpoint_dir = resume_dir;
    lockstep::cli::on_every_rank([&] {
        namespace fs = std::filesystem;
        if (!resume_dir.empty()) {
            if (!fs::exists(fs::path(resume_dir) / kScenarioFile))
                throw no_scenario_file(resume_dir);
            scenario = lockstep::load_scenario((fs::path(resume_dir) / kScenarioFile).string());
        } else {
            scenario = scenario_from(o);
            lockstep::cli::apply_parallel_flags(o, scenario);
        }
        // Between processes, time is what the ranks really took; the scenario a checkpoint
        // directory keeps says so too.
        scenario.clock = lockstep::ClockKind::Measured;
        if (auto dir = o.text("--checkpoint-dir")) {
            if (!scenario.checkpoint)
                throw Error(utf8(Cli::tr("--checkpoint-dir: needs a checkpoint policy "
                                         "(--checkpoint-every K, or checkpoint.every in the "
                                         "scenario)")));
            checkpoint_dir = *dir;
            if (mpi.rank() == 0)
                prepare_checkpoint_directory(*dir, scenario);
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
    lockstep::cli::ProcessRun run = lockstep::cli::run_processes(
        scenario, mpi_allreduce, o.has("--trace"), checkpoint_dir, !resume_dir.empty());
    run.mpi_allreduce = mpi_allreduce;
    if (mpi.rank() != 0)
        return 0;
    for (const std::string& skipped : run.skipped)
        note(Cli::tr("note: skipped %1").arg(qs(skipped)));
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
    const Options o(args, {"--workers",        "--steps",
                           "--seed",           "--clock",
                           "--rule",           "--algorithm",
                           "--layers",         "--activation",
                           "--optimizer",      "--lr",
                           "--momentum",       "--batch",
                           "--dataset",        "--shuffle",
                           "--init-params",    "--params-out",
                           "--trace",          "--metrics-csv",
                           "--checkpoint-dir", "--checkpoint-every",
                           "--trace-detail",   "--keep",
                           "--restore",        "--fail",
                           "--policy",         "--backup-workers",
                           "--heartbeat",      "--parallelism",
                           "--stages",         "--microbatches",
                           "--schedule",       "--replicas",
                           "--transport",      "--sync",
                           "--staleness",      "--local-steps"},
                    {"--json", "--staleness-aware-lr"});
    const std::string transport = o.text("--transport").value_or("threads");
    if (transport != "threads" && transport != "mpi")
        throw not_one_of("--transport", "threads, mpi", transport);
    if (transport == "mpi")
        return run_processes(o, mpi_allreduce);
    if (mpi_allreduce)
        throw Error(utf8(Cli::tr("--algorithm: mpi-allreduce is Open MPI's own all-reduce, so it "
                                 "needs --transport mpi (under mpirun)")));
    auto scenario = scenario_from(o);
    lockstep::cli::apply_parallel_flags(o, scenario);
    if (scenario.model_parallel())
        return lockstep::cli::run_model_parallel(o, scenario);
    if (scenario.sync_mode() == lockstep::SyncMode::Ssp ||
        scenario.sync_mode() == lockstep::SyncMode::Async) {
        // Through the parameter server without a barrier: make_run's loosely synchronised run.
        for (const char* flag : {"--checkpoint-dir", "--checkpoint-every", "--keep", "--restore"})
            if (o.has(flag))
                throw Error(
                    utf8(Cli::tr("%1: a %2 run has no step at which all workers agree, "
                                 "so it saves no checkpoints")
                             .arg(QString::fromLatin1(flag),
                                  qs(std::string(lockstep::to_string(scenario.sync_mode()))))));
        lockstep::cli::RunOutputs outputs(o, scenario.name);
        outputs.begin(scenario.workers); // a lane per worker
        const lockstep::RunResult result = lockstep::run_scenario(scenario, &outputs);
        return report_run(o, scenario, result, outputs, -1);
    }
    lockstep::cli::RunOutputs outputs(o, scenario.name);
    const auto run = lockstep::make_run(scenario, lockstep::load_dataset(scenario), &outputs);
    lockstep::Run& trainer = *run;
    std::optional<lockstep::cli::ScratchDirectory> scratch;
    if (auto dir = o.text("--checkpoint-dir")) {
        prepare_checkpoint_directory(*dir, scenario);
        trainer.set_checkpoint_directory(*dir);
    } else if (o.has("--checkpoint-every")) {
        throw Error(utf8(Cli::tr("--checkpoint-every: needs --checkpoint-dir DIR")));
    } else if (scenario.checkpoint) {
        // The scenario checkpoints (its failures recover from them): into a scratch directory.
        scratch.emplace();
        trainer.set_checkpoint_directory(scratch->path());
        if (!o.has("--json"))
            print(Cli::tr("(checkpoints go to a scratch directory, removed at the end; "
                          "--checkpoint-dir DIR keeps them)\n"));
    }
    outputs.begin(scenario.workers);
    const auto result = lockstep::finish_run(trainer);
    return report_run(o, scenario, result, outputs, -1);
}

int command_resume(const std::vector<std::string>& args) {
    const Options o(args,
                    {"--params-out", "--trace", "--trace-detail", "--metrics-csv", "--transport"},
                    {"--json"});
    if (o.positional().size() != 1)
        throw Error(utf8(Cli::tr("resume needs exactly one checkpoint directory")));
    const std::string transport = o.text("--transport").value_or("threads");
    if (transport != "threads" && transport != "mpi")
        throw not_one_of("--transport", "threads, mpi", transport);
    if (transport == "mpi")
        return run_processes(o, false, o.positional().front());
    namespace fs = std::filesystem;
    const fs::path dir = o.positional().front();
    if (!fs::is_directory(dir))
        throw Error(utf8(Cli::tr("%1: not a directory").arg(qs(dir.string()))));
    if (!fs::exists(dir / kScenarioFile))
        throw no_scenario_file(dir.string());
    const auto scenario = lockstep::load_scenario((dir / kScenarioFile).string());

    for (const auto& file : lockstep::clean_leftovers(dir))
        note(Cli::tr("note: removed the leftover temporary file %1").arg(qs(file.string())));
    const auto recovery =
        lockstep::load_newest_complete(dir, lockstep::scenario_hash(scenario), scenario.workers);
    for (const auto& rejected : recovery.rejected)
        note(Cli::tr("note: skipped %1 (%2: %3)")
                 .arg(qs(rejected.directory.filename().string()),
                      qs(std::string(lockstep::to_string(rejected.status))), qs(rejected.reason)));

    lockstep::cli::RunOutputs outputs(o, scenario.name);
    const auto run = lockstep::make_run(scenario, lockstep::load_dataset(scenario), &outputs);
    lockstep::Run& trainer = *run;
    outputs.begin(scenario.workers);
    std::int64_t from = 0;
    if (recovery.state) {
        trainer.restore_state(*recovery.state, scenario.checkpoint ? scenario.checkpoint->restore
                                                                   : lockstep::RestoreMode::Full);
        from = recovery.state->step;
    } else {
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

int command_reduce(const std::vector<std::string>& args) {
    const Options o(args, {"--rule", "--values", "--weights"}, {});
    if (!o.positional().empty())
        throw Error(
            utf8(Cli::tr("reduce takes no file; unexpected '%1'").arg(qs(o.positional().front()))));
    lockstep::ReductionRule rule = lockstep::ReductionRule::Mean;
    choose(o, "--rule", rule, lockstep::parse_reduction_rule, "sum, mean, weighted-mean");
    const auto values = o.number_list("--values");
    if (!values)
        throw Error(utf8(Cli::tr("reduce needs --values, e.g. --values 2,4")));
    const auto weights = o.number_list("--weights");
    if (rule == lockstep::ReductionRule::WeightedMean && !weights)
        throw Error(utf8(Cli::tr("--rule weighted-mean needs --weights (the samples behind each "
                                 "value), e.g. --weights 30,10")));
    if (weights && weights->size() != values->size())
        throw Error(
            utf8(Cli::tr("--weights: needs one weight per value (%1), got %2")
                     .arg(QString::number(values->size()), QString::number(weights->size()))));
    const std::vector<double> samples = weights ? *weights : std::vector<double>{};
    std::cout << format_number(lockstep::reduce(rule, *values, samples)) << '\n';
    return 0;
}

int command_validate(const std::vector<std::string>& args) {
    const Options o(args, {}, {});
    if (o.positional().size() != 1)
        throw Error(utf8(Cli::tr("validate needs exactly one scenario file")));
    const auto s = lockstep::load_scenario(o.positional().front());
    if (!s.dataset.csv.empty())
        (void)lockstep::load_dataset(s);
    if (!s.init_params.empty())
        (void)lockstep::parameters_from_json(s.model, lockstep::read_text_file(s.init_params));
    print(Cli::tr("%1: valid\n").arg(qs(o.positional().front())));
    return 0;
}

int command_bench(const std::vector<std::string>& args) {
    if (args.empty())
        throw Error(utf8(Cli::tr("bench needs a kind: allreduce or train")));
    const std::vector<std::string> rest(args.begin() + 1, args.end());
    if (args.front() == "allreduce") {
        const Options o(rest,
                        {"--algorithm", "--workers", "--bytes", "--iterations", "--transport"},
                        {"--json"});
        const std::string transport = o.text("--transport").value_or("threads");
        if (transport != "threads" && transport != "mpi")
            throw not_one_of("--transport", "threads, mpi", transport);
        lockstep::Algorithm algorithm = lockstep::Algorithm::Ring;
        choose(o, "--algorithm", algorithm, lockstep::parse_algorithm,
               "parameter-server, ring, tree");
        const int workers = static_cast<int>(o.integer("--workers", 1, 256).value_or(4));
        const auto bytes =
            o.integer("--bytes", 8, std::int64_t{1} << 30).value_or(std::int64_t{16} << 20);
        const int iterations = static_cast<int>(o.integer("--iterations", 1, 100000).value_or(0));
        if (transport == "mpi") {
            if (o.has("--workers"))
                throw Error(utf8(Cli::tr("--workers: over Open MPI every process is one worker; "
                                         "start as many as you want with mpirun -np N")));
            const lockstep::cli::MpiCommand mpi;
            int code = 0;
            lockstep::cli::on_every_rank([&] {}); // every rank has started
            code = lockstep::cli::bench_processes(algorithm, bytes, iterations, o.has("--json"));
            return code;
        }
        const auto r = lockstep::bench_all_reduce(algorithm, workers, bytes, iterations);
        if (o.has("--json")) {
            std::cout << json{{"algorithm", std::string(lockstep::to_string(r.algorithm))},
                              {"workers", r.workers},
                              {"bytes", r.bytes},
                              {"iterations", r.iterations},
                              {"time_s", r.seconds},
                              {"algbw_gbps", r.algbw_gbps},
                              {"busbw_gbps", r.busbw_gbps},
                              {"memcpy_gbps", r.memcpy_gbps}}
                             .dump(2)
                      << '\n';
        } else {
            print(Cli::tr("%1 all-reduce, %2 workers, %3 bytes: %4 ms, algbw %5 GB/s, busbw %6 "
                          "GB/s, memcpy %7 GB/s\n")
                      .arg(qs(std::string(lockstep::to_string(r.algorithm))),
                           QString::number(r.workers), QString::number(r.bytes),
                           decimal("%.3f", r.seconds * 1e3), decimal("%.2f", r.algbw_gbps),
                           decimal("%.2f", r.busbw_gbps), decimal("%.2f", r.memcpy_gbps)));
        }
        return 0;
    }
    if (args.front() == "train") {
        const Options o(rest, {"--layers", "--batch", "--steps", "--workers", "--threads"},
                        {"--json"});
        const auto layers64 =
            o.integer_list("--layers", 1, lockstep::ScenarioLimits::max_layer_width)
                .value_or(std::vector<std::int64_t>{2, 64, 64, 2});
        const std::vector<int> layers(layers64.begin(), layers64.end());
        const auto batch = static_cast<std::size_t>(o.integer("--batch", 1, 65536).value_or(32));
        const auto steps = o.integer("--steps", 2, 10'000'000).value_or(2000);
        const int workers = static_cast<int>(o.integer("--workers", 1, 256).value_or(1));
        const int threads = static_cast<int>(o.integer("--threads", 1, 1024).value_or(0));
        const auto r = lockstep::bench_train(layers, batch, steps, workers, threads);
        if (o.has("--json")) {
            std::cout << json{{"layers", r.layers},
                              {"batch", r.batch},
                              {"steps", r.steps},
                              {"workers", r.workers},
                              {"threads", r.threads},
                              {"seconds", r.seconds},
                              {"samples_per_s", r.samples_per_s}}
                             .dump(2)
                      << '\n';
        } else {
            print(Cli::tr("training: %1 samples/s (%2 steps of %3 samples x %4 workers in %5 "
                          "s)\n")
                      .arg(decimal("%.0f", r.samples_per_s), QString::number(r.steps),
                           QString::number(r.batch), QString::number(r.workers),
                           decimal("%.3f", r.seconds)));
        }
        return 0;
    }
    throw Error(
        utf8(Cli::tr("bench: unknown kind '%1' (allreduce or train)").arg(qs(args.front()))));
}

// Takes every --language VALUE and --language=VALUE out of the arguments, before or after the
// command, so that the command never sees it; the last one counts. `missing`: a --language at
// the end, without its value.
std::optional<std::string> take_language(std::vector<std::string>& args, bool& missing) {
    std::optional<std::string> language;
    std::vector<std::string> rest;
    for (std::size_t i = 0; i < args.size(); ++i) {
        if (args[i] == "--language") {
            if (i + 1 >= args.size()) {
                missing = true;
                break;
            }
            language = args[++i];
        } else if (args[i].rfind("--language=", 0) == 0) {
            language = args[i].substr(11);
        } else {
            rest.push_back(args[i]);
        }
    }
    args = std::move(rest);
    return language;
}

// quiz worksheet writes PDFs, whose text Qt lays out with the fonts of a GUI application.
bool draws_pages(const std::vector<std::string>& all) {
    return all.size() >= 2 && all[0] == "quiz" && all[1] == "worksheet" &&
           !lockstep::cli::asks_for_help(all);
}

} // namespace

int main(int argc, char** argv) {
    std::vector<std::string> all(argv + 1, argv + argc);
    bool language_missing = false;
    const std::optional<std::string> language = take_language(all, language_missing);
    // The application first: the translators go into it. A worksheet's is a GUI application,
    // offscreen (no display is needed); every other command's a core one.
    std::unique_ptr<QCoreApplication> app;
    if (draws_pages(all)) {
        if (qEnvironmentVariableIsEmpty("QT_QPA_PLATFORM"))
            qputenv("QT_QPA_PLATFORM", "offscreen");
        app = std::make_unique<QGuiApplication>(argc, argv);
    } else {
        app = std::make_unique<QCoreApplication>(argc, argv);
    }
    // Qt took the C library's locale from the environment; the engine's printf and strtod and
    // the machine output keep the C one ("2.5", never "2,5").
    std::setlocale(LC_ALL, "C");

    // The language: --language, else the environment's (LANGUAGE, LC_ALL, LC_MESSAGES, LANG),
    // else English.
    if (language_missing) {
        print_error(QStringLiteral("lockstep-cli: --language: ") +
                    Cli::tr("needs a value (%1)")
                        .arg(lockstep::lessons::languages().join(QStringLiteral(", "))) +
                    QLatin1Char('\n'));
        return 2;
    }
    if (language) {
        QString error;
        if (!lockstep::lessons::set_language(qs(*language), &error)) {
            print_error(QStringLiteral("lockstep-cli: --language: ") + error + QLatin1Char('\n'));
            return 2;
        }
    } else if (!lockstep::lessons::set_language(lockstep::lessons::language_from_environment())) {
        lockstep::lessons::set_language(QStringLiteral("en"));
    }

    if (all.empty() || all.front() == "--help" || all.front() == "-h" || all.front() == "help") {
        if (all.empty())
            print_error(lockstep::cli::overview_help());
        else
            print(lockstep::cli::overview_help());
        return all.empty() ? 2 : 0;
    }
    if (all.front() == "--version" || all.front() == "version") {
        print(lockstep::cli::version_text());
        return 0;
    }
    const std::string command = all.front();
    const std::vector<std::string> args(all.begin() + 1, all.end());
    // Every command answers --help with its own page, before any of its flags are read.
    if (lockstep::cli::asks_for_help(args)) {
        const QString page = lockstep::cli::command_help(all);
        if (!page.isEmpty()) {
            print(page);
            return 0;
        }
    }
    try {
        if (command == "run")
            return command_run(args);
        if (command == "sweep")
            return command_sweep(args);
        if (command == "resume")
            return command_resume(args);
        if (command == "checkpoints")
            return command_checkpoints(args);
        if (command == "reduce")
            return command_reduce(args);
        if (command == "validate")
            return command_validate(args);
        if (command == "bench")
            return command_bench(args);
        if (command == "compare")
            return lockstep::cli::command_compare(args);
        if (command == "lessons")
            return lockstep::cli::command_lessons(args);
        if (command == "quiz")
            return lockstep::cli::command_quiz(args);
        if (command == "class")
            return lockstep::cli::command_class(args);
        if (command == "moves")
            return lockstep::cli::command_moves(args);
        throw Error(
            utf8(Cli::tr("unknown command '%1' (try lockstep-cli --help)").arg(qs(command))));
    } catch (const Error& e) {
        if (!lockstep::cli::reported_by_another_rank(e))
            std::fprintf(stderr, "lockstep-cli: %s\n", e.what());
        return 1;
    } catch (const std::exception& e) {
        std::fprintf(stderr, "lockstep-cli: %s\n", e.what());
        return 1;
    }
}
