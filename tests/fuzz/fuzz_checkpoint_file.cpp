// Feeds arbitrary bytes to both worker-K.ckpt readers: decode_worker_file (a file image in memory)
// and read_worker_file (the file on disk, read as it is decoded, as recovery does). Each must
// either reject them with a lockstep::Error or return a file, and the two must agree: the same
// fault and message, or the same contents. A one-worker file they accept must assemble into a
// state that encodes back to the very same bytes (the format has one spelling for each state).

#include "checkpoint/checkpoint.h"

#include "checkpoint/io.h"

#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <optional>
#include <span>
#include <string>
#include <unistd.h>

namespace {

struct Outcome {
    std::optional<lockstep::WorkerCheckpoint> file;
    lockstep::CheckpointFault fault = lockstep::CheckpointFault::None;
    std::string message;
};

template <typename Read> Outcome outcome_of(Read&& read) {
    Outcome o;
    try {
        o.file = read();
    } catch (const lockstep::CheckpointError& e) {
        o.fault = e.fault();
        o.message = e.what();
    }
    return o;
}

bool same_slice(const lockstep::OptimizerSlice& a, const lockstep::OptimizerSlice& b) {
    return a.total == b.total && a.begin == b.begin && a.values.size() == b.values.size() &&
           (a.values.empty() ||
            std::memcmp(a.values.data(), b.values.data(), a.values.size() * sizeof(double)) == 0);
}

bool same_file(const lockstep::WorkerCheckpoint& a, const lockstep::WorkerCheckpoint& b) {
    return a.worker == b.worker && a.workers == b.workers &&
           a.sharded_optimizer == b.sharded_optimizer && a.step == b.step &&
           a.scenario_hash == b.scenario_hash && a.has_shared == b.has_shared &&
           a.parameters.size() == b.parameters.size() &&
           (a.parameters.empty() || std::memcmp(a.parameters.data(), b.parameters.data(),
                                                a.parameters.size() * sizeof(double)) == 0) &&
           a.run_rng == b.run_rng && a.optimizer_step == b.optimizer_step &&
           a.has_optimizer == b.has_optimizer && same_slice(a.velocity, b.velocity) &&
           same_slice(a.first_moment, b.first_moment) &&
           same_slice(a.second_moment, b.second_moment) && a.cursor.position == b.cursor.position &&
           a.cursor.epoch == b.cursor.epoch && a.cursor.rng == b.cursor.rng &&
           a.cursor.order == b.cursor.order;
}

// One scratch file per fuzzing process, in memory when /dev/shm exists, removed at exit.
struct ScratchFile {
    std::filesystem::path path =
        (std::filesystem::is_directory("/dev/shm") ? std::filesystem::path("/dev/shm")
                                                   : std::filesystem::temp_directory_path()) /
        ("lockstep-fuzz-" + std::to_string(::getpid()) + ".ckpt");
    ~ScratchFile() {
        std::error_code ec;
        std::filesystem::remove(path, ec);
    }
};

const std::filesystem::path& scratch_file() {
    static const ScratchFile file;
    return file.path;
}

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    const std::span bytes(reinterpret_cast<const std::byte*>(data), size);
    const std::string name = "worker-0.ckpt";
    const Outcome in_memory = outcome_of([&] { return lockstep::decode_worker_file(bytes, name); });
    {
        std::ofstream out(scratch_file(), std::ios::binary | std::ios::trunc);
        out.write(reinterpret_cast<const char*>(data), static_cast<std::streamsize>(size));
        if (!out)
            std::abort();
    }
    std::uint64_t checksum = 0;
    const Outcome on_disk = outcome_of([&] {
        return lockstep::checkpoint_io::read_worker_file(
            scratch_file(), name, lockstep::CheckpointLimits::max_file_bytes, checksum);
    });
    if (in_memory.file.has_value() != on_disk.file.has_value() ||
        in_memory.fault != on_disk.fault || in_memory.message != on_disk.message)
        std::abort();
    if (!in_memory.file)
        return 0;
    if (!same_file(*in_memory.file, *on_disk.file))
        std::abort();

    try {
        std::vector<lockstep::WorkerCheckpoint> files{*in_memory.file};
        const bool sharded = files.front().sharded_optimizer;
        const lockstep::TrainingState state = lockstep::assemble_state(std::move(files));
        const std::vector<std::byte> again = lockstep::encode_worker_file(state, 0, sharded);
        if (again.size() != size || std::memcmp(again.data(), data, size) != 0)
            std::abort();
    } catch (const lockstep::Error&) {
    }
    return 0;
}
