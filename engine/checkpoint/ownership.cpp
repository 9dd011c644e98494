// Whose checkpoints a directory holds: a run never uses or deletes another run's files.
#include "checkpoint/checkpoint.h"

#include "checkpoint/bytes.h"
#include "checkpoint/io.h"

#include <algorithm>
#include <cstring>
#include <fcntl.h>
#include <unistd.h>

namespace lockstep {

namespace fs = std::filesystem;

namespace {

// The scenario hash in the header of `file` (both file kinds keep it at offset 40), or nothing
// when the file is too short or is not a checkpoint file. Read, not verified.
std::optional<std::uint64_t> declared_hash(const fs::path& file) {
    checkpoint_io::FileHandle fd(::open(file.c_str(), O_RDONLY | O_CLOEXEC | O_NOFOLLOW));
    if (fd.get() < 0)
        return std::nullopt;
    std::byte header[checkpoint_bytes::header_size];
    std::size_t done = 0;
    while (done < sizeof header) {
        const ssize_t got = ::read(fd.get(), header + done, sizeof header - done);
        if (got <= 0)
            return std::nullopt;
        done += static_cast<std::size_t>(got);
    }
    if (std::memcmp(header, "LKSTMANI", 8) != 0 &&
        std::memcmp(header, checkpoint_bytes::worker_magic.data(), 8) != 0)
        return std::nullopt;
    return checkpoint_bytes::load_u64(header + 40);
}

// The hash a step directory declares: its MANIFEST's, else that of the first of its files
// (worker files and their temporary files) that has a header.
std::optional<std::uint64_t> owner_of(const fs::path& step_dir) {
    if (auto hash = declared_hash(step_dir / manifest_file_name))
        return hash;
    std::vector<fs::path> files;
    std::error_code ec;
    for (const auto& entry : fs::directory_iterator(step_dir, ec)) {
        std::error_code type_ec;
        if (entry.is_regular_file(type_ec) && !entry.is_symlink(type_ec))
            files.push_back(entry.path());
    }
    std::sort(files.begin(), files.end());
    for (const auto& file : files)
        if (auto hash = declared_hash(file))
            return hash;
    return std::nullopt;
}

} // namespace

CheckpointOwners checkpoint_owners(const fs::path& dir, std::uint64_t scenario_hash) {
    CheckpointOwners owners;
    std::error_code ec;
    if (!fs::is_directory(dir, ec))
        return owners;
    for (const auto& [step, path] : checkpoint_io::list_step_directories(dir)) {
        const auto hash = owner_of(path);
        if (!hash)
            owners.unknown.push_back(step);
        else if (*hash == scenario_hash)
            owners.this_scenario.push_back(step);
        else
            owners.other_scenario.push_back(step);
    }
    return owners;
}

std::string describe_steps(std::span<const std::int64_t> steps) {
    if (steps.empty())
        return "no checkpoints";
    if (steps.size() == 1)
        return checkpoint_directory_name(steps.front());
    const auto [lo, hi] = std::minmax_element(steps.begin(), steps.end());
    return std::to_string(steps.size()) + " checkpoints, " + checkpoint_directory_name(*lo) +
           " to " + checkpoint_directory_name(*hi);
}

} // namespace lockstep
