#pragma once

// A checkpoint of a run over MPI, written by every rank together (inside lockstep_mpi only).

#include "scenario/scenario.h"
#include "trainers/rank_worker.h"

#include <cstdint>
#include <filesystem>
#include <vector>

namespace lockstep::mpi {

// The checkpoint after this rank's step: its own file written and made durable, then, once every
// rank's is, the manifest by rank 0, which drops the checkpoints beyond `policy.keep` of those in
// `own` (the steps this run wrote). Returns the bytes written (rank 0: every file's and the
// manifest's).
std::int64_t write_checkpoint(RankWorker& worker, RankGroup& group,
                              const std::filesystem::path& dir, const CheckpointConfig& policy,
                              std::vector<std::int64_t>& own);

} // namespace lockstep::mpi
