#pragma once

// Little-endian fixed-width encoding shared by the checkpoint file readers and writers (engine
// internal). Reads are bounded: a length is checked against its limit and the bytes left before
// anything is allocated for it.

#include "lockstep/checkpoint.h"

#include <bit>
#include <cstring>
#include <string>
#include <utility>
#include <vector>

namespace lockstep::checkpoint_bytes {

inline constexpr std::size_t header_size = 48;
inline constexpr std::size_t trailer_size = 8;
inline constexpr std::size_t size_offset = 16;

inline std::uint64_t load_u64(const std::byte* p) {
    std::uint64_t v = 0;
    if constexpr (std::endian::native == std::endian::little)
        std::memcpy(&v, p, sizeof v);
    else
        for (int i = 7; i >= 0; --i)
            v = (v << 8) | std::to_integer<std::uint64_t>(p[i]);
    return v;
}

inline std::uint32_t load_u32(const std::byte* p) {
    std::uint32_t v = 0;
    if constexpr (std::endian::native == std::endian::little)
        std::memcpy(&v, p, sizeof v);
    else
        for (int i = 3; i >= 0; --i)
            v = (v << 8) | std::to_integer<std::uint32_t>(p[i]);
    return v;
}

inline void store_u64(std::byte* p, std::uint64_t v) {
    for (int i = 0; i < 8; ++i)
        p[i] = static_cast<std::byte>(v >> (8 * i));
}

// Appends fields to a growing file image.
class ByteWriter {
public:
    explicit ByteWriter(std::size_t expected_size) { out_.reserve(expected_size); }

    void raw(const void* data, std::size_t size) {
        const auto* p = static_cast<const std::byte*>(data);
        out_.insert(out_.end(), p, p + size);
    }
    void u32(std::uint32_t v) {
        for (int i = 0; i < 4; ++i)
            out_.push_back(static_cast<std::byte>(v >> (8 * i)));
    }
    void u64(std::uint64_t v) {
        for (int i = 0; i < 8; ++i)
            out_.push_back(static_cast<std::byte>(v >> (8 * i)));
    }
    void i64(std::int64_t v) { u64(static_cast<std::uint64_t>(v)); }
    void rng(const Rng::State& state) {
        for (const std::uint64_t word : state)
            u64(word);
    }
    void doubles(std::span<const double> values) {
        if constexpr (std::endian::native == std::endian::little)
            raw(values.data(), values.size() * sizeof(double));
        else
            for (const double v : values)
                u64(std::bit_cast<std::uint64_t>(v));
    }
    void u32s(std::span<const std::uint32_t> values) {
        if constexpr (std::endian::native == std::endian::little)
            raw(values.data(), values.size() * sizeof(std::uint32_t));
        else
            for (const std::uint32_t v : values)
                u32(v);
    }

    // Writes the final size into the header and appends the checksum of everything before it.
    std::vector<std::byte> finish() {
        store_u64(out_.data() + size_offset, out_.size() + trailer_size);
        u64(checkpoint_checksum(out_));
        return std::move(out_);
    }

private:
    std::vector<std::byte> out_;
};

// Reads fields from a file image whose size and checksum are already verified; anything that
// runs past the end is a malformed file, reported with the file's name.
class ByteReader {
public:
    ByteReader(std::span<const std::byte> bytes, std::string name)
        : bytes_(bytes)
        , name_(std::move(name)) {}

    std::size_t remaining() const { return bytes_.size() - at_; }
    std::size_t position() const { return at_; }

    std::uint32_t u32(const char* what) { return load_u32(take(4, what)); }
    std::uint64_t u64(const char* what) { return load_u64(take(8, what)); }
    std::int64_t i64(const char* what) { return static_cast<std::int64_t>(u64(what)); }
    Rng::State rng(const char* what) {
        Rng::State state{};
        for (auto& word : state)
            word = u64(what);
        return state;
    }

    // A length field: checked against `limit` and against the bytes left for its `element`-byte
    // entries, so a hostile length never reaches an allocation.
    std::uint64_t length(const char* what, std::uint64_t limit, std::size_t element) {
        const std::uint64_t n = u64(what);
        if (n > limit)
            fail(std::string(what) + " " + std::to_string(n) + " is over the limit of " +
                 std::to_string(limit));
        if (n > remaining() / element)
            fail(std::string(what) + " " + std::to_string(n) + " needs " +
                 std::to_string(n * element) + " bytes, only " + std::to_string(remaining()) +
                 " remain");
        return n;
    }

    void doubles(std::uint64_t n, std::vector<double>& out, const char* what) {
        const std::byte* p = take(n * sizeof(double), what);
        out.resize(n);
        if (n == 0)
            return;
        if constexpr (std::endian::native == std::endian::little)
            std::memcpy(out.data(), p, n * sizeof(double));
        else
            for (std::uint64_t i = 0; i < n; ++i)
                out[i] = std::bit_cast<double>(load_u64(p + 8 * i));
    }
    void u32s(std::uint64_t n, std::vector<std::uint32_t>& out, const char* what) {
        const std::byte* p = take(n * sizeof(std::uint32_t), what);
        out.resize(n);
        for (std::uint64_t i = 0; i < n; ++i)
            out[i] = load_u32(p + 4 * i);
    }
    std::string text(std::size_t n, const char* what) {
        const std::byte* p = take(n, what);
        return std::string(reinterpret_cast<const char*>(p), n);
    }

    [[noreturn]] void fail(const std::string& what) const {
        throw CheckpointError(CheckpointFault::Unreadable, name_ + ": " + what);
    }

private:
    const std::byte* take(std::size_t n, const char* what) {
        if (n > remaining())
            fail(std::string("ends inside ") + what);
        const std::byte* p = bytes_.data() + at_;
        at_ += n;
        return p;
    }

    std::span<const std::byte> bytes_;
    std::string name_;
    std::size_t at_ = 0;
};

// The fixed header both file kinds share. `a` and `b` are (worker, workers) in a worker file
// and (workers, files) in a manifest.
struct FileHeader {
    std::uint32_t flags = 0;
    std::uint32_t a = 0;
    std::uint32_t b = 0;
    std::int64_t step = 0;
    std::uint64_t scenario_hash = 0;
};

void write_header(ByteWriter& out, std::string_view magic, const FileHeader& header);

// Checks magic, version, declared size against `max_bytes` and the real size, and the
// checksum, in that order. Throws CheckpointError naming the file.
FileHeader read_header(std::span<const std::byte> bytes, const std::string& name,
                       std::string_view magic, std::uint64_t max_bytes);

// The bytes between the header and the trailer of a file read_header accepted.
inline std::span<const std::byte> body_of(std::span<const std::byte> bytes) {
    return bytes.subspan(header_size, bytes.size() - header_size - trailer_size);
}

} // namespace lockstep::checkpoint_bytes
