#include "checkpoint/checkpoint.h"

#include "checkpoint/bytes.h"
#include "checkpoint/io.h"
#include "core/atomic_file.h"

#include <algorithm>
#include <cerrno>
#include <fcntl.h>
#include <unistd.h>

namespace lockstep {

using checkpoint_io::FileHandle;
using checkpoint_io::throw_errno;
namespace fs = std::filesystem;

namespace {

using Moment = CrashPoint::Moment;

// Writes one file of a checkpoint through the commit protocol and tells the observer as each
// phase ends. Returns false when `crash` stops it first, leaving the files a crash would.
bool write_durably(const fs::path& step_dir, const std::string& name,
                   const checkpoint_bytes::FileImage& image, int worker,
                   std::optional<Moment> crash, const CheckpointObserver& observer,
                   std::uint64_t& checksum) {
    const fs::path temp = step_dir / (name + std::string(temp_suffix));
    const fs::path final_path = step_dir / name;
    const auto tell = [&](CheckpointPhase phase, const fs::path& file) {
        if (observer)
            observer(phase, worker, file.string());
    };

    // Never through a link: a link put in the temporary's place would have the run overwrite
    // whatever it points to, outside the directory.
    FileHandle fd(
        ::open(temp.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC | O_NOFOLLOW, 0644));
    if (fd.get() < 0 && errno == ELOOP)
        throw Error(temp.string() +
                    ": is a symbolic link; the run writes only files of its own, never through "
                    "a link: remove it and run again");
    if (fd.get() < 0)
        throw_errno("cannot create", temp);
    if (crash == Moment::BeforeFsync) {
        checkpoint_io::write_image(fd.get(), image, temp, image.size / 2);
        fd.close(temp);
        return false;
    }
    checksum = checkpoint_io::write_image(fd.get(), image, temp);
    tell(CheckpointPhase::WriteTemp, temp);

    if (::fsync(fd.get()) != 0)
        throw_errno("cannot fsync", temp);
    fd.close(temp);
    tell(CheckpointPhase::FsyncFile, temp);
    if (crash == Moment::AfterFsyncBeforeRename)
        return false;

    if (::rename(temp.c_str(), final_path.c_str()) != 0)
        throw_errno("cannot rename to " + name, temp);
    tell(CheckpointPhase::Rename, final_path);

    checkpoint_io::fsync_directory(step_dir);
    tell(CheckpointPhase::FsyncDir, final_path);
    return crash != Moment::AfterRenameBeforeManifest;
}

// Takes away a checkpoint's commit point (durably) before anything else of it is touched, so a
// crash halfway through replacing or deleting it never leaves a manifest over foreign files.
// A symbolic link in its place is only unlinked, never followed.
void uncommit_and_remove(const fs::path& step_dir) {
    std::error_code ec;
    const bool link = fs::is_symlink(fs::symlink_status(step_dir, ec));
    if (!link && fs::remove(step_dir / manifest_file_name, ec))
        checkpoint_io::fsync_directory(step_dir);
    fs::remove_all(step_dir, ec);
    if (ec)
        throw Error(step_dir.string() + ": cannot remove: " + ec.message());
}

// A file image of one piece, for files that are built whole.
checkpoint_bytes::FileImage whole(std::vector<std::byte> bytes) {
    checkpoint_bytes::FileImage image;
    image.size = bytes.size();
    image.fields = std::move(bytes);
    image.pieces.push_back(image.fields);
    image.checksummed = false;
    return image;
}

} // namespace

CheckpointWrite save_checkpoint(const fs::path& dir, const TrainingState& state,
                                const CheckpointOptions& options) {
    const MakingFiles making; // a signal's removal of a scratch directory waits for the save
    const int workers = state.workers();
    if (options.crash && (options.crash->worker < 0 || options.crash->worker >= workers))
        throw Error("checkpoint crash point: no worker " + std::to_string(options.crash->worker) +
                    " among " + std::to_string(workers));
    if (options.keep_last < 0)
        throw Error("checkpoint keep_last must be 0 (keep all) or more, got " +
                    std::to_string(options.keep_last));
    // Encoding worker 0's file checks the whole state before anything touches the disk. The
    // images refer to the state's arrays rather than copying them.
    checkpoint_bytes::FileImage image = checkpoint_bytes::encode_worker_image(
        state, 0, options.sharded_optimizer, options.sharded_parameters);

    CheckpointWrite result;
    result.directory = dir / checkpoint_directory_name(state.step);
    std::error_code ec;
    if (fs::create_directories(dir, ec))
        checkpoint_io::fsync_directory(dir.parent_path());
    if (ec)
        throw Error(dir.string() + ": cannot create the checkpoint directory: " + ec.message());
    if (const auto status = fs::symlink_status(result.directory, ec); fs::exists(status)) {
        // A checkpoint of this step is replaced (a run that went back); a file that is not one is
        // the user's, and the run does not remove what it did not write.
        if (!fs::is_directory(status) && !fs::is_symlink(status))
            throw Error(result.directory.string() +
                        ": a file that is not a checkpoint is in the way; the run does not remove "
                        "what it did not write: move it away and run again");
        uncommit_and_remove(result.directory);
    }
    if (!fs::create_directory(result.directory, ec))
        throw Error(result.directory.string() + ": cannot create: " + ec.message());
    checkpoint_io::fsync_directory(dir);

    // Every worker's file, each durable before the next one starts.
    for (int k = 0; k < workers; ++k) {
        if (k > 0)
            image = checkpoint_bytes::encode_worker_image(state, k, options.sharded_optimizer,
                                                          options.sharded_parameters);
        std::optional<Moment> crash;
        if (options.crash && options.crash->worker == k)
            crash = options.crash->moment;
        const std::string name = worker_file_name(k);
        std::uint64_t checksum = 0;
        const bool go_on =
            write_durably(result.directory, name, image, k, crash, options.observer, checksum);
        if (go_on || crash == Moment::AfterRenameBeforeManifest) {
            result.files.push_back({name, image.size, checksum});
            result.bytes += image.size;
        }
        if (!go_on) {
            result.crash = options.crash;
            return result;
        }
    }

    // Then the manifest, the commit point.
    CheckpointManifest manifest;
    manifest.step = state.step;
    manifest.scenario_hash = state.scenario_hash;
    manifest.workers = workers;
    manifest.sharded_optimizer = options.sharded_optimizer;
    manifest.files = result.files;
    image = whole(encode_manifest(manifest));
    std::uint64_t unused = 0;
    write_durably(result.directory, std::string(manifest_file_name), image, -1, std::nullopt,
                  options.observer, unused);
    result.bytes += image.size;
    result.committed = true;
    if (options.observer)
        options.observer(CheckpointPhase::Committed, -1, result.directory.string());

    if (options.keep_last > 0)
        result.pruned = keep_last_checkpoints(dir, options.keep_last);
    return result;
}

void write_file_atomically(const fs::path& file, std::span<const std::byte> bytes) {
    const MakingFiles making;
    const fs::path dir = file.has_parent_path() ? file.parent_path() : fs::path(".");
    std::uint64_t unused = 0;
    write_durably(dir, file.filename().string(), whole({bytes.begin(), bytes.end()}), -1,
                  std::nullopt, {}, unused);
}

namespace {

// Whether a step directory holds a checkpoint that recovery could restore: its manifest and every
// file it lists verify.
bool verifies(const fs::path& step_dir) {
    std::error_code ec;
    if (!fs::is_regular_file(step_dir / manifest_file_name, ec))
        return false;
    try {
        (void)load_checkpoint(step_dir);
        return true;
    } catch (const Error&) {
        return false;
    }
}

// Keeps the newest `keep` checkpoints among `steps` that verify, and removes those of them
// older than the oldest kept one; with fewer than `keep` that verify, removes nothing. A damaged
// checkpoint is never counted, so pruning never leaves recovery fewer than `keep` to go back to.
std::vector<fs::path> keep_newest(const fs::path& dir, int keep,
                                  const std::vector<std::pair<std::int64_t, fs::path>>& steps) {
    std::vector<fs::path> removed;
    // The oldest step to keep: the keep-th one that verifies, counting from the newest.
    std::optional<std::int64_t> oldest_kept;
    int good = 0;
    for (auto it = steps.rbegin(); it != steps.rend() && good < keep; ++it)
        if (verifies(it->second) && ++good == keep)
            oldest_kept = it->first;
    if (!oldest_kept)
        return removed;
    for (const auto& [step, path] : steps) {
        if (step >= *oldest_kept)
            break;
        uncommit_and_remove(path);
        removed.push_back(path);
    }
    if (!removed.empty())
        checkpoint_io::fsync_directory(dir);
    return removed;
}

bool keeps_all(int keep) {
    if (keep < 0)
        throw Error("checkpoint keep_last must be 0 (keep all) or more, got " +
                    std::to_string(keep));
    return keep == 0;
}

} // namespace

std::vector<fs::path> keep_last_checkpoints(const fs::path& dir, int keep) {
    if (keeps_all(keep))
        return {};
    return keep_newest(dir, keep, checkpoint_io::list_step_directories(dir));
}

std::vector<fs::path> keep_last_checkpoints(const fs::path& dir, int keep,
                                            std::span<const std::int64_t> own) {
    if (keeps_all(keep))
        return {};
    auto steps = checkpoint_io::list_step_directories(dir);
    std::erase_if(steps, [&](const auto& s) {
        return std::find(own.begin(), own.end(), s.first) == own.end();
    });
    return keep_newest(dir, keep, steps);
}

} // namespace lockstep
