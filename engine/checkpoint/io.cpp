#include "checkpoint/io.h"

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <fcntl.h>
#include <fstream>
#include <string>
#include <string_view>
#include <sys/stat.h>
#include <unistd.h>

namespace lockstep {

namespace checkpoint_io {

void throw_errno(const std::string& what, const std::filesystem::path& file) {
    throw Error(file.string() + ": " + what + ": " + std::strerror(errno));
}

FileHandle::~FileHandle() {
    if (fd_ >= 0)
        ::close(fd_);
}

void FileHandle::close(const std::filesystem::path& file) {
    const int fd = std::exchange(fd_, -1);
    if (fd >= 0 && ::close(fd) != 0)
        throw_errno("cannot close", file);
}

std::vector<std::pair<std::int64_t, std::filesystem::path>>
list_step_directories(const std::filesystem::path& dir) {
    std::vector<std::pair<std::int64_t, std::filesystem::path>> out;
    std::error_code ec;
    for (const auto& entry : std::filesystem::directory_iterator(dir, ec)) {
        const auto step = parse_checkpoint_directory_name(entry.path().filename().string());
        std::error_code type_ec;
        if (step && entry.is_directory(type_ec) && !entry.is_symlink(type_ec))
            out.emplace_back(*step, entry.path());
    }
    if (ec)
        throw Error(dir.string() + ": cannot list the checkpoint directory: " + ec.message());
    std::sort(out.begin(), out.end());
    return out;
}

namespace {

// Whether `file` begins with `prefix` (an empty file does not).
bool begins_with(const std::filesystem::path& file, std::string_view prefix) {
    std::ifstream in(file, std::ios::binary);
    std::string head(prefix.size(), '\0');
    return in.read(head.data(), static_cast<std::streamsize>(head.size())) && head == prefix;
}

// Whether `file` is the temporary of a file Lockstep writes, by its name and first bytes.
bool ours(const std::filesystem::path& file) {
    const std::string name = file.filename().string();
    if (!name.ends_with(temp_suffix))
        return false;
    const std::string_view base =
        std::string_view(name).substr(0, name.size() - temp_suffix.size());
    if (base == "scenario.json")
        return begins_with(file, "{");
    if (base == manifest_file_name)
        return begins_with(file, checkpoint_bytes::manifest_magic);
    constexpr std::string_view worker = "worker-", ckpt = ".ckpt";
    if (!base.starts_with(worker) || !base.ends_with(ckpt) ||
        base.size() <= worker.size() + ckpt.size())
        return false;
    const std::string_view number =
        base.substr(worker.size(), base.size() - worker.size() - ckpt.size());
    return std::all_of(number.begin(), number.end(), [](char c) { return c >= '0' && c <= '9'; }) &&
           begins_with(file, checkpoint_bytes::worker_magic);
}

} // namespace

std::vector<std::filesystem::path> temp_files_in(const std::filesystem::path& dir) {
    std::vector<std::filesystem::path> out;
    std::error_code ec;
    for (const auto& entry : std::filesystem::directory_iterator(dir, ec)) {
        std::error_code type_ec;
        if (entry.is_regular_file(type_ec) && !entry.is_symlink(type_ec) && ours(entry.path()))
            out.push_back(entry.path());
    }
    std::sort(out.begin(), out.end());
    return out;
}

int open_for_reading(const std::filesystem::path& file, const std::string& name,
                     std::uint64_t max_bytes, std::uint64_t& size) {
    FileHandle fd(::open(file.c_str(), O_RDONLY | O_CLOEXEC | O_NOFOLLOW));
    if (fd.get() < 0) {
        if (errno == ENOENT)
            throw CheckpointError(CheckpointFault::MissingFile, name + ": missing");
        throw CheckpointError(CheckpointFault::Unreadable,
                              name + ": cannot open: " + std::strerror(errno));
    }
    struct stat info {};
    if (::fstat(fd.get(), &info) != 0 || !S_ISREG(info.st_mode))
        throw CheckpointError(CheckpointFault::Unreadable, name + ": not a regular file");
    size = static_cast<std::uint64_t>(info.st_size);
    if (size > max_bytes)
        throw CheckpointError(CheckpointFault::Unreadable, name + ": " + std::to_string(size) +
                                                               " bytes, over the limit of " +
                                                               std::to_string(max_bytes));
    return fd.release();
}

void read_exactly(int fd, std::byte* to, std::size_t n, const std::string& name) {
    std::size_t done = 0;
    while (done < n) {
        const ssize_t got = ::read(fd, to + done, n - done);
        if (got < 0 && errno == EINTR)
            continue;
        if (got < 0)
            throw CheckpointError(CheckpointFault::Unreadable,
                                  name + ": read error: " + std::strerror(errno));
        if (got == 0)
            throw CheckpointError(CheckpointFault::Unreadable, name + ": shrank while being read");
        done += static_cast<std::size_t>(got);
    }
}

std::vector<std::byte> read_file(const std::filesystem::path& file, const std::string& name,
                                 std::uint64_t max_bytes) {
    std::uint64_t size = 0;
    FileHandle fd(open_for_reading(file, name, max_bytes, size));
    std::vector<std::byte> bytes(size);
    read_exactly(fd.get(), bytes.data(), bytes.size(), name);
    return bytes;
}

void fsync_directory(const std::filesystem::path& dir) {
    const std::filesystem::path path = dir.empty() ? std::filesystem::path(".") : dir;
    FileHandle fd(::open(path.c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC));
    if (fd.get() < 0)
        throw_errno("cannot open directory", path);
    if (::fsync(fd.get()) != 0)
        throw_errno("cannot fsync directory", path);
    fd.close(path);
}

} // namespace checkpoint_io

void flip_bit(const std::filesystem::path& file, std::uint64_t offset, int bit) {
    if (bit < 0 || bit > 7)
        throw Error("flip_bit: bit " + std::to_string(bit) + " is not in 0..7");
    checkpoint_io::FileHandle fd(::open(file.c_str(), O_RDWR | O_CLOEXEC));
    if (fd.get() < 0)
        checkpoint_io::throw_errno("cannot open", file);
    struct stat info {};
    if (::fstat(fd.get(), &info) != 0)
        checkpoint_io::throw_errno("cannot stat", file);
    if (offset >= static_cast<std::uint64_t>(info.st_size))
        throw Error(file.string() + ": offset " + std::to_string(offset) +
                    " is past the end of its " + std::to_string(info.st_size) + " bytes");
    unsigned char byte = 0;
    const auto at = static_cast<off_t>(offset);
    if (::pread(fd.get(), &byte, 1, at) != 1)
        checkpoint_io::throw_errno("cannot read", file);
    byte ^= static_cast<unsigned char>(1u << bit);
    if (::pwrite(fd.get(), &byte, 1, at) != 1)
        checkpoint_io::throw_errno("cannot write", file);
    fd.close(file);
}

void truncate_file(const std::filesystem::path& file, std::uint64_t size) {
    if (::truncate(file.c_str(), static_cast<off_t>(size)) != 0)
        checkpoint_io::throw_errno("cannot truncate", file);
}

} // namespace lockstep
