#pragma once

// POSIX file access for checkpoints (engine internal): whole-file reads bounded before they
// allocate, durable directory entries, and the listing of a checkpoint directory.

#include "lockstep/checkpoint.h"

#include <filesystem>
#include <utility>
#include <vector>

namespace lockstep::checkpoint_io {

// The step directories in `dir`, oldest first; symbolic links and other names are ignored.
std::vector<std::pair<std::int64_t, std::filesystem::path>>
list_step_directories(const std::filesystem::path& dir);

// Regular files in `dir` whose names end in ".tmp".
std::vector<std::filesystem::path> temp_files_in(const std::filesystem::path& dir);

// Reads a whole regular file, never through a symbolic link. Throws CheckpointError naming
// `name`: MissingFile when it does not exist, Unreadable when it is over `max_bytes` (checked
// before allocating) or cannot be read.
std::vector<std::byte> read_file(const std::filesystem::path& file, const std::string& name,
                                 std::uint64_t max_bytes);

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
    // Closes now and reports a failure (a deferred write error) instead of swallowing it.
    void close(const std::filesystem::path& file);

private:
    int fd_ = -1;
};

[[noreturn]] void throw_errno(const std::string& what, const std::filesystem::path& file);

} // namespace lockstep::checkpoint_io
