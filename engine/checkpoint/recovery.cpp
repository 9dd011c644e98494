#include "checkpoint/checkpoint.h"

#include "checkpoint/bytes.h"
#include "checkpoint/io.h"

#include <algorithm>
#include <cstdio>

namespace lockstep {

namespace fs = std::filesystem;

namespace {

[[noreturn]] void reject(CheckpointFault fault, const std::string& message) {
    throw CheckpointError(fault, message);
}

std::string hex(std::uint64_t value) {
    char text[24];
    std::snprintf(text, sizeof text, "0x%016llx", static_cast<unsigned long long>(value));
    return text;
}

// The commit record of one step directory; its absence means the save never finished.
CheckpointManifest read_manifest(const fs::path& step_dir) {
    const std::string name(manifest_file_name);
    std::error_code ec;
    if (!fs::exists(fs::symlink_status(step_dir / name, ec)))
        reject(CheckpointFault::NoManifest, "no MANIFEST: the checkpoint was never committed");
    const auto bytes =
        checkpoint_io::read_file(step_dir / name, name, CheckpointLimits::max_manifest_bytes);
    CheckpointManifest manifest = decode_manifest(bytes, name);
    const auto dir_step = parse_checkpoint_directory_name(step_dir.filename().string());
    if (dir_step && *dir_step != manifest.step)
        reject(CheckpointFault::Unreadable, "MANIFEST: says step " + std::to_string(manifest.step) +
                                                ", the directory is " +
                                                step_dir.filename().string());
    return manifest;
}

// Reads one listed file and checks it against its manifest entry: size first (without reading),
// then the file's own checks, then that it is the very file the manifest committed.
WorkerCheckpoint read_listed_file(const fs::path& step_dir, const ManifestEntry& entry,
                                  const CheckpointManifest& manifest) {
    const fs::path path = step_dir / entry.name;
    std::error_code ec;
    const auto status = fs::symlink_status(path, ec);
    if (!fs::exists(status))
        reject(CheckpointFault::MissingFile, entry.name + ": missing (listed in MANIFEST)");
    if (fs::is_regular_file(status)) {
        const std::uint64_t size = fs::file_size(path, ec);
        if (!ec && size < entry.size)
            reject(CheckpointFault::SizeMismatch,
                   entry.name + ": truncated: " + std::to_string(size) + " bytes, expected " +
                       std::to_string(entry.size));
        if (!ec && size > entry.size)
            reject(CheckpointFault::SizeMismatch,
                   entry.name + ": size mismatch: " + std::to_string(size) +
                       " bytes, the manifest says " + std::to_string(entry.size));
    }
    std::uint64_t checksum = 0;
    WorkerCheckpoint file = checkpoint_io::read_worker_file(path, entry.name, entry.size, checksum);
    if (checksum != entry.checksum)
        reject(CheckpointFault::ChecksumMismatch,
               entry.name + ": checksum " + hex(checksum) + " differs from the manifest's " +
                   hex(entry.checksum) + " (not the file that was committed)");
    if (file.step != manifest.step || file.scenario_hash != manifest.scenario_hash ||
        file.workers != manifest.workers || file.sharded_optimizer != manifest.sharded_optimizer)
        reject(CheckpointFault::Unreadable,
               entry.name + ": its header (step " + std::to_string(file.step) + ", " +
                   std::to_string(file.workers) + " workers) does not match the manifest's");
    return file;
}

TrainingState read_files(const fs::path& step_dir, const CheckpointManifest& manifest) {
    std::vector<WorkerCheckpoint> files;
    files.reserve(manifest.files.size());
    for (const auto& entry : manifest.files)
        files.push_back(read_listed_file(step_dir, entry, manifest));
    return assemble_state(std::move(files));
}

// Loads one step directory into `info`: the state when it verifies, else the fault and reason.
std::optional<TrainingState> examine(std::int64_t step, const fs::path& step_dir,
                                     CheckpointInfo& info) {
    info.step = step;
    info.directory = step_dir;
    info.leftovers = checkpoint_io::temp_files_in(step_dir);
    try {
        info.manifest = read_manifest(step_dir);
        return read_files(step_dir, *info.manifest);
    } catch (const CheckpointError& e) {
        info.fault = e.fault();
        info.status = status_of(e.fault());
        info.reason = e.what();
    }
    return std::nullopt;
}

void require_directory(const fs::path& dir) {
    std::error_code ec;
    if (!fs::is_directory(dir, ec))
        throw Error(dir.string() + ": not a checkpoint directory (" +
                    (fs::exists(dir, ec) ? "not a directory" : "does not exist") + ")");
}

} // namespace

TrainingState load_checkpoint(const fs::path& step_dir) {
    return read_files(step_dir, read_manifest(step_dir));
}

CheckpointScan scan_checkpoints(const fs::path& dir) {
    require_directory(dir);
    CheckpointScan scan;
    scan.leftovers = checkpoint_io::temp_files_in(dir);
    for (const auto& [step, path] : checkpoint_io::list_step_directories(dir)) {
        CheckpointInfo& info = scan.checkpoints.emplace_back();
        examine(step, path, info);
        scan.leftovers.insert(scan.leftovers.end(), info.leftovers.begin(), info.leftovers.end());
    }
    return scan;
}

// Newest first; a checkpoint that verifies but belongs to another run, or does not fit this
// one, is rejected for that.
CheckpointRecovery load_newest_complete(const fs::path& dir, std::uint64_t scenario_hash,
                                        int workers) {
    RecoveryFilter filter;
    filter.scenario_hash = scenario_hash;
    filter.workers = workers;
    return load_newest_complete(dir, filter);
}

CheckpointRecovery load_newest_complete(const fs::path& dir, const RecoveryFilter& filter) {
    CheckpointRecovery recovery;
    std::error_code ec;
    if (!fs::exists(dir, ec))
        return recovery;
    require_directory(dir);
    const auto steps = checkpoint_io::list_step_directories(dir);
    for (auto it = steps.rbegin(); it != steps.rend(); ++it) {
        if (it->first > filter.newest_step)
            continue;
        if (filter.own && !std::binary_search(filter.own->begin(), filter.own->end(), it->first))
            continue;
        CheckpointInfo info;
        auto state = examine(it->first, it->second, info);
        std::optional<std::string> misfit;
        if (state && state->scenario_hash != filter.scenario_hash) {
            info.fault = CheckpointFault::WrongScenario;
            info.reason = "MANIFEST: scenario hash " + hex(state->scenario_hash) +
                          " differs from this run's " + hex(filter.scenario_hash);
        } else if (state && filter.workers > 0 && state->workers() != filter.workers) {
            info.fault = CheckpointFault::WrongWorkers;
            info.reason = "MANIFEST: written by " + std::to_string(state->workers()) +
                          " workers, this run has " + std::to_string(filter.workers);
        } else if (state && filter.fits && (misfit = filter.fits(*state))) {
            info.fault = CheckpointFault::DoesNotFit;
            info.reason = "does not fit this run: " + *misfit;
        } else if (state) {
            recovery.state = std::move(state);
            recovery.directory = it->second;
            return recovery;
        }
        recovery.rejected.push_back(std::move(info));
    }
    return recovery;
}

namespace {

void remove_files(const std::vector<fs::path>& removed) {
    for (const auto& file : removed) {
        std::error_code ec;
        fs::remove(file, ec);
        if (ec)
            throw Error(file.string() + ": cannot remove: " + ec.message());
    }
}

} // namespace

std::vector<fs::path> clean_leftovers(const fs::path& dir) {
    require_directory(dir);
    std::vector<fs::path> removed = checkpoint_io::temp_files_in(dir);
    for (const auto& [step, path] : checkpoint_io::list_step_directories(dir)) {
        const auto temps = checkpoint_io::temp_files_in(path);
        removed.insert(removed.end(), temps.begin(), temps.end());
    }
    remove_files(removed);
    return removed;
}

std::vector<fs::path> clean_leftovers(const fs::path& dir, std::span<const std::int64_t> own) {
    require_directory(dir);
    std::vector<fs::path> removed;
    for (const auto& [step, path] : checkpoint_io::list_step_directories(dir)) {
        if (std::find(own.begin(), own.end(), step) == own.end())
            continue;
        const auto temps = checkpoint_io::temp_files_in(path);
        removed.insert(removed.end(), temps.begin(), temps.end());
    }
    remove_files(removed);
    return removed;
}

} // namespace lockstep
