#pragma once

#include "runs/runs.h"
#include "scenario/scenario.h"
#include "trace/trace.h"

#include <cstdint>
#include <exception>
#include <functional>
#include <memory>
#include <string>
#include <vector>

// lockstep-cli over Open MPI (mpi_command.cpp): the same commands with one process per worker.
// Built without Open MPI, each of these throws lockstep::Error saying so.
namespace lockstep::cli {

// Whether this lockstep-cli was built with the Open MPI backend.
bool built_with_mpi();

// Open MPI for one command; MPI_Finalize when it ends.
class MpiCommand {
public:
    MpiCommand();
    ~MpiCommand();
    MpiCommand(const MpiCommand&) = delete;
    MpiCommand& operator=(const MpiCommand&) = delete;
    int rank() const;
    int size() const;

private:
    struct Impl;
    std::unique_ptr<Impl> impl_;
};

// A data-parallel run over the world's ranks, one worker each (see engine/mpi/mpi_run.h). On
// rank 0 it holds the run; elsewhere it is empty. `mpi_allreduce`: Open MPI's MPI_Allreduce in
// place of the scenario's schedule.
struct ProcessRun {
    RunResult result;
    std::vector<StepSnapshot> snapshots;
    std::vector<TraceEvent> events;
    std::vector<std::string> hosts;
    int ranks = 0;
    bool mpi_allreduce = false;
    std::int64_t resumed_from = -1;
    std::vector<std::string> skipped; // checkpoints a resume skipped, and why
    std::string set_aside;            // where a resume --from-scratch put them (empty: nowhere)
};
// How the ranks run: `checkpoint_dir`, checkpoints by the scenario's policy go there (empty:
// none); `resume`, continue from its newest complete checkpoint that fits, and with
// `from_scratch` set aside the ones none of which fits; `rank_timeout_s`, how long a rank waits
// for another before the job ends naming the silent one.
struct ProcessOptions {
    bool mpi_allreduce = false;
    bool keep_events = false;
    std::string checkpoint_dir;
    bool resume = false;
    bool from_scratch = false;
    double rank_timeout_s = 30.0;
};
ProcessRun run_processes(const Scenario& scenario, const ProcessOptions& options);

// `bench allreduce --transport mpi`: prints (text or JSON) on rank 0.
int bench_processes(Algorithm algorithm, std::int64_t bytes, int iterations, bool json);
// `bench link` (under mpirun): the link between rank 0 and the last rank, printed on rank 0.
int bench_link_processes(std::int64_t bytes, int iterations, bool json);

// Runs `setup` on every rank and agrees on the outcome (see engine/mpi/mpi_run.h): when it throws
// lockstep::Error anywhere, the lowest such rank rethrows it and the others throw an error that
// reported_by_another_rank() knows, so every rank exits and none waits for the others.
void on_every_rank(const std::function<void()>& setup);

// True for an error another rank has already printed: this rank only exits non-zero.
bool reported_by_another_rank(const std::exception& e);

} // namespace lockstep::cli
