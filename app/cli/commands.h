#pragma once

#include "options.h"

#include <string>
#include <vector>

// lockstep-cli's commands, one file each (the lessons, quiz, class and moves commands have
// headers of their own). Each takes the arguments after its name, prints what it found and
// returns the exit code; a wrong argument throws lockstep::Error naming it.
namespace lockstep::cli {

int command_run(const std::vector<std::string>& args);         // run_command.cpp
int command_resume(const std::vector<std::string>& args);      // resume_command.cpp
int command_checkpoints(const std::vector<std::string>& args); // resume_command.cpp
int command_sweep(const std::vector<std::string>& args);       // sweep_command.cpp
int command_compare(const std::vector<std::string>& args);     // compare_command.cpp
int command_reduce(const std::vector<std::string>& args);      // reduce_command.cpp
int command_validate(const std::vector<std::string>& args);    // validate_command.cpp
int command_bench(const std::vector<std::string>& args);       // bench_command.cpp
int command_memory(const std::vector<std::string>& args);      // memory_command.cpp

// A data-parallel run with one worker per process that mpirun started: every rank trains its
// worker, rank 0 reports for all of them. `resume_dir`: continue the run checkpointed there
// (run_command.cpp; resume --transport mpi comes here too).
int run_over_mpi(const Options& o, bool mpi_allreduce, const std::string& resume_dir = {});

} // namespace lockstep::cli
