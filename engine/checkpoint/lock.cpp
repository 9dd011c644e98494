// A run's hold on its checkpoint directory, and setting aside what a fresh start would overwrite.
#include "checkpoint/checkpoint.h"

#include "checkpoint/io.h"

#include <cerrno>
#include <cstring>
#include <fcntl.h>
#include <optional>
#include <string>
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>
#include <vector>

namespace lockstep {

namespace fs = std::filesystem;

namespace {

// What a lock file holds: nothing yet (a new file, or a holder between flock() and writing its
// PID), the holder's PID and a newline, or something Lockstep never writes.
struct LockContents {
    bool well_formed = false;
    std::optional<long> pid;
};

LockContents read_lock(int fd) {
    char text[32] = {};
    const ssize_t got = ::pread(fd, text, sizeof text - 1, 0);
    if (got <= 0)
        return {.well_formed = got == 0, .pid = std::nullopt};
    char* end = nullptr;
    errno = 0;
    const long pid = std::strtol(text, &end, 10);
    if (errno != 0 || pid <= 0 || end == text || *end != '\n' || end[1] != '\0')
        return {};
    return {.well_formed = true, .pid = pid};
}

// The holder writes its PID right after it takes the lock; a run refused in between waits up to a
// second for it, so the refusal can name the holder.
std::optional<long> holder_of(int fd) {
    for (int tries = 0; tries < 200; ++tries) {
        const LockContents contents = read_lock(fd);
        if (contents.pid || !contents.well_formed)
            return contents.pid;
        ::usleep(5'000);
    }
    return std::nullopt;
}

} // namespace

DirectoryLock::DirectoryLock(const fs::path& dir) {
    const fs::path file = dir / lock_file_name;
    checkpoint_io::FileHandle fd(
        ::open(file.c_str(), O_RDWR | O_CREAT | O_CLOEXEC | O_NOFOLLOW | O_NONBLOCK, 0644));
    if (fd.get() < 0) {
        if (errno == ELOOP)
            throw Error(file.string() + ": is a symbolic link, not a lock Lockstep made; remove it "
                                        "or give the run another directory");
        checkpoint_io::throw_errno("cannot create the lock", file);
    }
    struct stat info {};
    if (::fstat(fd.get(), &info) != 0)
        checkpoint_io::throw_errno("cannot read the lock", file);
    if (!S_ISREG(info.st_mode))
        throw Error(file.string() + ": is not a regular file, not a lock Lockstep made; remove it "
                                    "or give the run another directory");
    if (::flock(fd.get(), LOCK_EX | LOCK_NB) != 0) {
        if (errno != EWOULDBLOCK)
            checkpoint_io::throw_errno("cannot lock", file);
        const auto pid = holder_of(fd.get());
        throw Error(dir.string() + ": in use by another run" +
                    (pid ? " (process " + std::to_string(*pid) + ")" : std::string()) +
                    "; wait for it to end, or give this run another directory");
    }
    if (!read_lock(fd.get()).well_formed)
        throw Error(file.string() + ": holds something other than a process ID, not a lock "
                                    "Lockstep made; remove it or give the run another directory");
    const std::string pid = std::to_string(::getpid()) + "\n";
    if (::ftruncate(fd.get(), 0) != 0 ||
        ::pwrite(fd.get(), pid.data(), pid.size(), 0) != static_cast<ssize_t>(pid.size()))
        checkpoint_io::throw_errno("cannot write the lock", file);
    fd_ = fd.release();
}

DirectoryLock::~DirectoryLock() {
    if (fd_ >= 0)
        ::close(fd_); // releases the lock; the file stays for the next holder
}

fs::path set_aside(const fs::path& dir, std::span<const std::int64_t> steps) {
    fs::path aside;
    for (int k = 1;; ++k) {
        aside = dir / ("set-aside-" + std::to_string(k));
        if (::mkdir(aside.c_str(), 0755) == 0)
            break;
        if (errno != EEXIST)
            checkpoint_io::throw_errno("cannot create", aside);
    }
    for (const std::int64_t step : steps) {
        const std::string name = checkpoint_directory_name(step);
        if (::rename((dir / name).c_str(), (aside / name).c_str()) != 0)
            checkpoint_io::throw_errno("cannot move " + name + " to", aside);
    }
    checkpoint_io::fsync_directory(aside);
    checkpoint_io::fsync_directory(dir);
    return aside;
}

std::optional<fs::path> start_again(const fs::path& dir, std::span<const CheckpointInfo> rejected,
                                    bool from_scratch) {
    // A save that never committed (no MANIFEST) is a crashed run's own unfinished work: nothing
    // of value to lose, the new run's save of that step replaces it. Committed ones are kept.
    std::vector<std::int64_t> steps;
    for (const CheckpointInfo& info : rejected)
        if (info.fault != CheckpointFault::NoManifest)
            steps.push_back(info.step);
    if (steps.empty())
        return std::nullopt;
    if (!from_scratch)
        throw Error(dir.string() + ": none of its checkpoints can be used (" +
                    describe_steps(steps) +
                    "; the notes above say why), and starting again from step 0 would write "
                    "over them; resume with --from-scratch to set them aside in " +
                    (dir / "set-aside-N").string() + " and start again");
    return set_aside(dir, steps);
}

} // namespace lockstep
