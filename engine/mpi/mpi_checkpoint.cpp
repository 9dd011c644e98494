// A checkpoint of a run over MPI: each rank writes its own file and makes it durable, then, once
// every rank's is, rank 0 writes the manifest that makes the checkpoint whole.
#include "mpi/mpi_checkpoint.h"

#include "checkpoint/checkpoint.h"
#include "core/error.h"
#include "mpi/mpi_run.h"
#include "mpi/mpi_world.h"

#include <system_error>

namespace lockstep::mpi {

using detail::gather;

std::int64_t write_checkpoint(RankWorker& worker, RankGroup& group,
                              const std::filesystem::path& dir, const CheckpointConfig& policy,
                              std::vector<std::int64_t>& own) {
    const int rank = worker.rank();
    // A sharded run's files hold slices of the state, as a threaded sharded run's do; the ranks
    // first put the whole state together from their shards.
    const TrainingState state = worker.state_for_files(group);
    const bool sliced = policy.sharded_optimizer || worker.scenario().sharding != Sharding::None;
    const std::filesystem::path step_dir = dir / checkpoint_directory_name(state.step);
    ManifestEntry mine;
    on_every_rank([&] {
        const Ticks start = worker.now();
        std::error_code ec;
        std::filesystem::create_directories(step_dir, ec);
        if (ec)
            throw Error(step_dir.string() + ": cannot create the checkpoint directory (" +
                        ec.message() + ")");
        const std::vector<std::byte> bytes =
            encode_worker_file(state, rank, sliced, worker.parameters_sharded());
        write_file_atomically(step_dir / worker_file_name(rank), bytes);
        std::uint64_t checksum = 0;
        for (int i = 7; i >= 0; --i)
            checksum = checksum << 8 | std::to_integer<std::uint64_t>(
                                           bytes[bytes.size() - 8 + static_cast<std::size_t>(i)]);
        mine = {worker_file_name(rank), bytes.size(), checksum};
        worker.add_event(checkpoint_event(rank, FileStage::Renamed, state.step, start, worker.now(),
                                          static_cast<std::int64_t>(bytes.size())));
    });
    // Every worker file is durable once each rank has got here.
    const std::vector<std::uint64_t> sizes = gather(std::vector<std::uint64_t>{mine.size});
    const std::vector<std::uint64_t> sums = gather(std::vector<std::uint64_t>{mine.checksum});
    std::int64_t written = 0;
    on_every_rank([&] {
        if (rank != 0)
            return;
        const Ticks start = worker.now();
        CheckpointManifest manifest{
            state.step, state.scenario_hash, worker.scenario().workers, sliced, {}};
        for (std::size_t k = 0; k < sizes.size(); ++k) {
            manifest.files.push_back({worker_file_name(static_cast<int>(k)), sizes[k], sums[k]});
            written += static_cast<std::int64_t>(sizes[k]);
        }
        const std::vector<std::byte> text = encode_manifest(manifest);
        write_file_atomically(step_dir / manifest_file_name, text);
        written += static_cast<std::int64_t>(text.size());
        worker.add_event(checkpoint_event(0, FileStage::Committed, state.step, start, worker.now(),
                                          static_cast<std::int64_t>(text.size())));
        own.push_back(state.step);
        (void)keep_last_checkpoints(dir, policy.keep, own);
    });
    return written;
}

} // namespace lockstep::mpi
