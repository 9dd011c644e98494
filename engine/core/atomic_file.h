#pragma once

#include <filesystem>
#include <fstream>
#include <string_view>
#include <utility>

// Output files that are whole or absent, and temporaries that go when the program is told to stop.
namespace lockstep {

// A file written so that a kill, a full disk or an error never leaves a truncated or half-old
// file under its name: the bytes go to NAME.PID.tmp beside it (created new, never through a
// link), and commit() flushes and fsyncs that, renames it over NAME and fsyncs the directory. A
// file dropped before commit() removes its temporary, and so does SIGINT, SIGTERM or SIGHUP
// (see remove_on_signal()). A path that is not a regular file (a pipe, a terminal, /dev/stdout)
// is written straight, as it comes. Throws lockstep::Error naming the file.
class AtomicFile {
public:
    explicit AtomicFile(std::filesystem::path path);
    ~AtomicFile();
    AtomicFile(const AtomicFile&) = delete;
    AtomicFile& operator=(const AtomicFile&) = delete;

    std::ostream& stream() { return out_; }
    // Throws lockstep::Error when anything written so far failed (a full disk, say).
    void check() const;
    void commit();
    const std::filesystem::path& path() const { return path_; }

private:
    std::filesystem::path path_, temp_;
    std::ofstream out_;
    bool committed_ = false;
    bool direct_ = false; // not a regular file: no temporary
};

// The whole of `text` as `path`, by way of an AtomicFile.
void save_file(const std::filesystem::path& path, std::string_view text);

// Removes the files and folders named with remove_on_signal() when the process gets SIGINT,
// SIGTERM or SIGHUP, then ends by that signal as it would have. Call it first in main(), before
// any thread starts: the signals are taken by a thread of its own, so the removal runs as plain
// code, not in a signal handler.
void remove_on_signals();
// Names a temporary file or folder to remove on those signals; keep_on_signal() forgets it.
void remove_on_signal(const std::filesystem::path& path);
void keep_on_signal(const std::filesystem::path& path);

// Held while a file or folder is being made (a checkpoint saved, a temporary created or put in
// place): the removal on a signal waits for every holder, and no new one starts after it, so
// nothing it removes is made again behind it.
class MakingFiles {
public:
    MakingFiles();
    ~MakingFiles();
    MakingFiles(const MakingFiles&) = delete;
    MakingFiles& operator=(const MakingFiles&) = delete;
};

// A temporary file or folder on that list for as long as this object lives.
class RemovedOnSignal {
public:
    explicit RemovedOnSignal(std::filesystem::path path)
        : path_(std::move(path)) {
        remove_on_signal(path_);
    }
    ~RemovedOnSignal() { keep_on_signal(path_); }
    RemovedOnSignal(const RemovedOnSignal&) = delete;
    RemovedOnSignal& operator=(const RemovedOnSignal&) = delete;

private:
    std::filesystem::path path_;
};

} // namespace lockstep
