#pragma once

// POSIX file access for checkpoints (engine internal): whole-file reads bounded before they
// allocate, durable directory entries, and the listing of a checkpoint directory.

#include "checkpoint/checkpoint.h"

#include "checkpoint/bytes.h"

#include <filesystem>
#include <limits>
#include <span>
#include <utility>
#include <vector>

namespace lockstep::checkpoint_io {

// The step directories in `dir`, oldest first; symbolic links and other names are ignored.
std::vector<std::pair<std::int64_t, std::filesystem::path>>
list_step_directories(const std::filesystem::path& dir);

// The temporary files a crash left in `dir`: regular files (not links) with the temporary name of
// a file Lockstep writes (worker-K.ckpt.tmp, MANIFEST.tmp, scenario.json.tmp) whose contents
// begin as that file's do. Anything else, a user's notes.tmp among them, is not ours to remove.
std::vector<std::filesystem::path> temp_files_in(const std::filesystem::path& dir);

// Reads a whole regular file, never through a symbolic link. Throws CheckpointError naming
// `name`: MissingFile when it does not exist, Unreadable when it is over `max_bytes` (checked
// before allocating) or cannot be read.
std::vector<std::byte> read_file(const std::filesystem::path& file, const std::string& name,
                                 std::uint64_t max_bytes);

// Opens a regular file for reading, never through a symbolic link, and gives its size; the same
// errors as read_file. Returns the descriptor.
int open_for_reading(const std::filesystem::path& file, const std::string& name,
                     std::uint64_t max_bytes, std::uint64_t& size);

// Reads exactly `n` bytes; a file that ends first "shrank while being read".
void read_exactly(int fd, std::byte* to, std::size_t n, const std::string& name);

// Reads a worker file and decodes it as it arrives: its arrays go straight into their vectors
// and every byte is hashed as it passes, so the file is read once and never held whole. The
// checks, their order and their messages are those of read_file then decode_worker_file: a
// file whose checksum does not match is reported as such even when its contents are also
// malformed. `checksum` gets the checksum stored in its trailer.
WorkerCheckpoint read_worker_file(const std::filesystem::path& file, const std::string& name,
                                  std::uint64_t max_bytes, std::uint64_t& checksum);

// Writes a file image: its pieces a chunk at a time, each hashed just before it is written
// (while it is in the cache), then the checksum; asks the kernel to start writing each few
// megabytes back to the disk at once, so that the fsync to come has less left to wait for.
// With `limit`, writes only the first `limit` bytes. Returns the checksum written (0 when none).
// Throws lockstep::Error.
std::uint64_t write_image(int fd, const checkpoint_bytes::FileImage& image,
                          const std::filesystem::path& file,
                          std::uint64_t limit = std::numeric_limits<std::uint64_t>::max());

// Makes the entries of `dir` (a new name, a rename, a removal) durable.
void fsync_directory(const std::filesystem::path& dir);

// An open file descriptor, closed when it goes out of scope.
class FileHandle {
public:
    explicit FileHandle(int fd)
        : fd_(fd) {}
    FileHandle(const FileHandle&) = delete;
    FileHandle& operator=(const FileHandle&) = delete;
    ~FileHandle();

    int get() const { return fd_; }
    int release() { return std::exchange(fd_, -1); }
    // Closes now and reports a failure (a deferred write error) instead of swallowing it.
    void close(const std::filesystem::path& file);

private:
    int fd_ = -1;
};

[[noreturn]] void throw_errno(const std::string& what, const std::filesystem::path& file);

} // namespace lockstep::checkpoint_io
