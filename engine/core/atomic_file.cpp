#include "core/atomic_file.h"

#include "core/error.h"

#include <algorithm>
#include <cerrno>
#include <csignal>
#include <cstdlib>
#include <cstring>
#include <fcntl.h>
#include <mutex>
#include <pthread.h>
#include <shared_mutex>
#include <string>
#include <sys/stat.h>
#include <thread>
#include <unistd.h>
#include <vector>

namespace lockstep {

namespace fs = std::filesystem;

namespace {

struct Doomed {
    std::mutex mutex;
    std::vector<fs::path> paths;
    std::shared_mutex making; // shared by MakingFiles; the removal on a signal takes it whole
    std::mutex removal;       // held by the waiter from the signal until the removal is done
};

Doomed& doomed() {
    static Doomed d;
    return d;
}

[[noreturn]] void fail(const fs::path& path, const std::string& what) {
    throw Error(path.string() + ": " + what + " (" + std::strerror(errno) + ")");
}

void fsync_path(const fs::path& path, int flags) {
    const int fd = ::open(path.c_str(), flags | O_CLOEXEC);
    if (fd < 0)
        fail(path, "cannot open to sync");
    const bool synced = ::fsync(fd) == 0;
    ::close(fd);
    if (!synced)
        fail(path, "cannot sync");
}

// Removes `path` while the program may still be writing into it: a folder is first renamed, so
// that nothing new is made in it by its name, then removed, again if a file was still arriving.
void remove_while_written(const fs::path& path) {
    std::error_code ec;
    fs::path doomed = path;
    if (fs::is_directory(fs::symlink_status(path, ec))) {
        const fs::path aside = path.string() + ".removing";
        if (::rename(path.c_str(), aside.c_str()) == 0)
            doomed = aside;
    }
    for (int attempt = 0; attempt < 10; ++attempt) {
        ec.clear();
        fs::remove_all(doomed, ec);
        if (!ec && !fs::exists(fs::symlink_status(doomed, ec)))
            return;
    }
}

} // namespace

AtomicFile::AtomicFile(fs::path path)
    : path_(std::move(path)) {
    const fs::path name = path_.filename();
    if (name.empty())
        throw Error(path_.string() + ": names a folder, not a file");
    // A terminal, a pipe or /dev/stdout cannot be replaced: written straight, as it comes.
    struct stat info {};
    if (::stat(path_.c_str(), &info) == 0 && !S_ISREG(info.st_mode)) {
        if (S_ISDIR(info.st_mode))
            throw Error(path_.string() + ": is a folder, not a file");
        direct_ = true;
        out_.open(path_, std::ios::binary);
        if (!out_)
            fail(path_, "cannot write");
        return;
    }
    const MakingFiles making;
    temp_ = path_;
    temp_.replace_filename(name.string() + "." + std::to_string(::getpid()) + ".tmp");
    const int fd =
        ::open(temp_.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0644);
    if (fd < 0)
        fail(path_, "cannot write");
    ::close(fd);
    remove_on_signal(temp_);
    out_.open(temp_, std::ios::binary | std::ios::trunc);
    if (!out_) {
        const int saved = errno;
        std::error_code ec;
        fs::remove(temp_, ec);
        keep_on_signal(temp_);
        errno = saved;
        fail(path_, "cannot write");
    }
}

AtomicFile::~AtomicFile() {
    if (committed_ || direct_)
        return;
    out_.close();
    std::error_code ec;
    fs::remove(temp_, ec);
    keep_on_signal(temp_);
}

void AtomicFile::check() const {
    if (!out_)
        fail(path_, "writing failed");
}

void AtomicFile::commit() {
    out_.flush();
    check();
    out_.close();
    if (out_.fail())
        fail(path_, "writing failed");
    if (direct_)
        return;
    const MakingFiles making;
    fsync_path(temp_, O_RDONLY);
    if (::rename(temp_.c_str(), path_.c_str()) != 0)
        fail(path_, "cannot put the file in place");
    committed_ = true;
    keep_on_signal(temp_);
    const fs::path dir = path_.has_parent_path() ? path_.parent_path() : fs::path(".");
    fsync_path(dir, O_RDONLY | O_DIRECTORY);
}

void save_file(const fs::path& path, std::string_view text) {
    AtomicFile file(path);
    file.stream().write(text.data(), static_cast<std::streamsize>(text.size()));
    file.commit();
}

void remove_on_signals() {
    static std::once_flag once;
    std::call_once(once, [] {
        sigset_t set;
        sigemptyset(&set);
        for (const int signal : {SIGINT, SIGTERM, SIGHUP})
            sigaddset(&set, signal);
        doomed(); // made before the exit handler below is registered, so destroyed after it runs
        // Every thread started from here on inherits the mask: only the waiter takes them.
        pthread_sigmask(SIG_BLOCK, &set, nullptr);
        std::thread([set] {
            int signal = 0;
            while (sigwait(&set, &signal) != 0) {
            }
            Doomed& d = doomed();
            {
                const std::lock_guard removing(d.removal);
                d.making.lock(); // never released: the process ends below
                const std::lock_guard lock(d.mutex);
                for (const fs::path& path : d.paths)
                    remove_while_written(path);
            }
            // End by the signal, as the process would have without this thread.
            std::signal(signal, SIG_DFL);
            sigset_t one;
            sigemptyset(&one);
            sigaddset(&one, signal);
            pthread_sigmask(SIG_UNBLOCK, &one, nullptr);
            ::raise(signal);
            ::_exit(128 + signal);
        }).detach();
        // A program that ends on its own meanwhile (a GUI whose display went away with the
        // session) waits for the removal to finish first.
        std::atexit([] { const std::lock_guard wait(doomed().removal); });
    });
}

MakingFiles::MakingFiles() {
    doomed().making.lock_shared();
}

MakingFiles::~MakingFiles() {
    doomed().making.unlock_shared();
}

void remove_on_signal(const fs::path& path) {
    Doomed& d = doomed();
    const std::lock_guard lock(d.mutex);
    d.paths.push_back(fs::absolute(path));
}

void keep_on_signal(const fs::path& path) {
    Doomed& d = doomed();
    const std::lock_guard lock(d.mutex);
    const fs::path absolute = fs::absolute(path);
    d.paths.erase(std::remove(d.paths.begin(), d.paths.end(), absolute), d.paths.end());
}

} // namespace lockstep
