#include "checkpoint/bytes.h"
#include "checkpoint/io.h"

#include <algorithm>
#include <array>
#include <cerrno>
#include <fcntl.h>
#include <memory>
#include <optional>
#include <unistd.h>

namespace lockstep::checkpoint_io {

using namespace checkpoint_bytes;

namespace {

// A worker file's body, read as it is parsed: small fields through a buffer, large arrays
// straight into their destination, a chunk at a time. Every byte handed out is hashed while it
// is still in the cache.
class FileSource : public ByteSource {
public:
    FileSource(int fd, std::uint64_t body_size, const std::string& name, Xxh64& hash)
        : fd_(fd)
        , name_(name)
        , hash_(hash)
        , left_(body_size)
        , unread_(body_size) {}

    std::size_t remaining() const override { return static_cast<std::size_t>(left_); }

    void read(std::byte* to, std::size_t n) override {
        left_ -= n;
        const std::size_t buffered = std::min(n, end_ - at_);
        if (buffered > 0) {
            hand_out(to, buffer_.data() + at_, buffered);
            at_ += buffered;
            to += buffered;
            n -= buffered;
        }
        while (n >= buffer_.size()) {
            const std::size_t chunk = std::min(n, direct_chunk);
            fill(to, chunk);
            hash_.update(std::span(to, chunk));
            to += chunk;
            n -= chunk;
        }
        if (n > 0) {
            refill();
            hand_out(to, buffer_.data(), n);
            at_ = n;
        }
    }

    // Hashes whatever the parser did not take, so the checksum can still be checked.
    void drain() {
        while (left_ > 0) {
            const std::size_t n = static_cast<std::size_t>(std::min<std::uint64_t>(left_, 4096));
            std::array<std::byte, 4096> scratch;
            read(scratch.data(), n);
        }
    }

private:
    static constexpr std::size_t direct_chunk = std::size_t{1} << 20;

    void fill(std::byte* to, std::size_t n) {
        read_exactly(fd_, to, n, name_);
        unread_ -= n;
    }
    void refill() {
        const auto n = static_cast<std::size_t>(std::min<std::uint64_t>(unread_, buffer_.size()));
        fill(buffer_.data(), n);
        at_ = 0;
        end_ = n;
    }
    void hand_out(std::byte* to, const std::byte* from, std::size_t n) {
        std::memcpy(to, from, n);
        hash_.update(std::span(from, n));
    }

    int fd_;
    const std::string& name_;
    Xxh64& hash_;
    std::uint64_t left_;   // not yet handed out
    std::uint64_t unread_; // not yet read from the file
    std::array<std::byte, 64 * 1024> buffer_;
    std::size_t at_ = 0;
    std::size_t end_ = 0;
};

} // namespace

WorkerCheckpoint read_worker_file(const std::filesystem::path& file, const std::string& name,
                                  std::uint64_t max_bytes, std::uint64_t& checksum) {
    std::uint64_t size = 0;
    FileHandle fd(open_for_reading(file, name, max_bytes, size));
    std::array<std::byte, header_size> start{};
    const auto head = static_cast<std::size_t>(std::min<std::uint64_t>(size, header_size));
    read_exactly(fd.get(), start.data(), head, name);
    const FileHeader header = check_header(std::span(start).first(head), size, name, worker_magic,
                                           CheckpointLimits::max_file_bytes);

    Xxh64 hash;
    hash.update(start);
    auto body =
        std::make_unique<FileSource>(fd.get(), size - header_size - trailer_size, name, hash);
    ByteReader in(*body, name);
    // A malformed body is reported only once the checksum is known to match, as when the whole
    // file is checked before it is decoded.
    std::optional<CheckpointError> malformed;
    WorkerCheckpoint decoded;
    try {
        decoded = decode_worker_body(header, in);
    } catch (const CheckpointError& e) {
        malformed = e;
    }
    body->drain();
    std::array<std::byte, trailer_size> trailer{};
    read_exactly(fd.get(), trailer.data(), trailer.size(), name);
    checksum = load_u64(trailer.data());
    check_checksum(hash.digest(), checksum, name);
    if (malformed)
        throw *malformed;
    return decoded;
}

namespace {

void write_all(int fd, std::span<const std::byte> bytes, const std::filesystem::path& file) {
    while (!bytes.empty()) {
        const ssize_t wrote = ::write(fd, bytes.data(), bytes.size());
        if (wrote < 0 && errno == EINTR)
            continue;
        if (wrote < 0)
            throw_errno("cannot write", file);
        bytes = bytes.subspan(static_cast<std::size_t>(wrote));
    }
}

} // namespace

std::uint64_t write_image(int fd, const FileImage& image, const std::filesystem::path& file,
                          std::uint64_t limit) {
    constexpr std::size_t chunk = std::size_t{1} << 20;
    constexpr std::uint64_t writeback_every = std::uint64_t{8} << 20;
    Xxh64 hash;
    std::uint64_t written = 0;
    std::uint64_t synced = 0;
    for (std::span<const std::byte> piece : image.pieces) {
        while (!piece.empty() && written < limit) {
            const auto n = static_cast<std::size_t>(
                std::min<std::uint64_t>({piece.size(), chunk, limit - written}));
            if (image.checksummed)
                hash.update(piece.first(n));
            write_all(fd, piece.first(n), file);
            piece = piece.subspan(n);
            written += n;
#ifdef __linux__
            // Only a hint: the fsync that follows is what makes the file durable.
            if (written - synced >= writeback_every) {
                ::sync_file_range(fd, static_cast<off_t>(synced),
                                  static_cast<off_t>(written - synced), SYNC_FILE_RANGE_WRITE);
                synced = written;
            }
#endif
        }
    }
    if (!image.checksummed || written >= limit)
        return 0;
    std::array<std::byte, trailer_size> trailer{};
    const std::uint64_t checksum = hash.digest();
    store_u64(trailer.data(), checksum);
    write_all(fd,
              std::span(trailer).first(
                  static_cast<std::size_t>(std::min<std::uint64_t>(trailer_size, limit - written))),
              file);
    return checksum;
}

} // namespace lockstep::checkpoint_io
