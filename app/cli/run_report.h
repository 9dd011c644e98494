#pragma once

#include "mpi_command.h"
#include "options.h"
#include "run_outputs.h"

#include "runs/runs.h"
#include "scenario/scenario.h"

#include <cstdint>

namespace lockstep::cli {

// Completes the files a run asked for and prints its summary (text or JSON), for run and resume.
// `resumed_from` is the step a resume started at, or -1 for a fresh run; `processes`: the run was
// one over Open MPI.
int report_run(const Options& o, const Scenario& scenario, const RunResult& result,
               RunOutputs& outputs, std::int64_t resumed_from,
               const ProcessRun* processes = nullptr);

} // namespace lockstep::cli
