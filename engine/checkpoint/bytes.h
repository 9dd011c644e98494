#pragma once

// Little-endian fixed-width encoding shared by the checkpoint file readers and writers (engine
// internal). Reads are bounded: a length is checked against its limit and the bytes left before
// anything is allocated for it. Large arrays are never copied into a file image: the writer
// refers to them where they are, and a file reader reads them straight into their vectors.

#include "checkpoint/checkpoint.h"

#include <array>
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

// XXH64 (seed 0) over bytes given in any number of pieces; checkpoint_checksum() in one go.
class Xxh64 {
public:
    void update(std::span<const std::byte> bytes);
    std::uint64_t digest() const;

private:
    void stripe(const std::byte* p);

    static constexpr std::uint64_t prime1 = 0x9E3779B185EBCA87ULL;
    static constexpr std::uint64_t prime2 = 0xC2B2AE3D27D4EB4FULL;
    std::array<std::uint64_t, 4> lanes_{prime1 + prime2, prime2, 0, 0 - prime1};
    std::array<std::byte, 32> pending_{};
    std::size_t pending_size_ = 0;
    std::uint64_t total_ = 0;
};

// A file as a list of pieces: its own small fields, and the large arrays where they already are
// (on little-endian machines), so writing it copies nothing. Valid while those arrays live. The
// trailing checksum is not among the pieces: it is computed as they are written (or flattened).
// Moved, never copied: a copy's pieces would still point into the original's fields.
struct FileImage {
    FileImage() = default;
    FileImage(FileImage&&) = default;
    FileImage& operator=(FileImage&&) = default;
    FileImage(const FileImage&) = delete;
    FileImage& operator=(const FileImage&) = delete;

    std::vector<std::byte> fields;                  // the small fields, some pieces point here
    std::vector<std::span<const std::byte>> pieces; // in file order
    std::uint64_t size = 0;                         // of the whole file, checksum included
    bool checksummed = true; // false: the pieces are the whole file, written as they are

    std::uint64_t checksum() const;
    std::vector<std::byte> flatten() const;
};

// Appends fields to a growing file image.
class ByteWriter {
public:
    explicit ByteWriter(std::size_t expected_fields) { out_.reserve(expected_fields); }

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
            array(std::as_bytes(values));
        else
            for (const double v : values)
                u64(std::bit_cast<std::uint64_t>(v));
    }
    void u32s(std::span<const std::uint32_t> values) {
        if constexpr (std::endian::native == std::endian::little)
            array(std::as_bytes(values));
        else
            for (const std::uint32_t v : values)
                u32(v);
    }

    // Writes the final size (checksum included) into the header and returns the pieces.
    FileImage finish();

private:
    // An array already in its file layout: referred to, not copied, unless it is small.
    void array(std::span<const std::byte> bytes) {
        if (bytes.size() < 4096)
            return raw(bytes.data(), bytes.size());
        end_fields();
        arrays_.push_back({pieces_.size(), bytes});
        pieces_.push_back({0, 0});
    }
    void end_fields() {
        if (out_.size() > fields_begin_)
            pieces_.push_back({fields_begin_, out_.size() - fields_begin_});
        fields_begin_ = out_.size();
    }

    struct Array {
        std::size_t piece = 0;
        std::span<const std::byte> bytes;
    };
    std::vector<std::byte> out_;
    std::vector<std::pair<std::size_t, std::size_t>> pieces_; // offset and length in out_
    std::vector<Array> arrays_;
    std::size_t fields_begin_ = 0;
};

// Where a ByteReader's bytes come from: a file image in memory, or a file read as it is parsed.
class ByteSource {
public:
    virtual ~ByteSource() = default;
    virtual std::size_t remaining() const = 0;
    // Copies the next `n` bytes (at most remaining()) to `to`.
    virtual void read(std::byte* to, std::size_t n) = 0;
};

class SpanSource : public ByteSource {
public:
    explicit SpanSource(std::span<const std::byte> bytes)
        : bytes_(bytes) {}
    std::size_t remaining() const override { return bytes_.size(); }
    void read(std::byte* to, std::size_t n) override {
        if (n > 0)
            std::memcpy(to, bytes_.data(), n);
        bytes_ = bytes_.subspan(n);
    }

private:
    std::span<const std::byte> bytes_;
};

// Reads fields from a file's body; anything that runs past the end is a malformed file, reported
// with the file's name.
class ByteReader {
public:
    ByteReader(ByteSource& source, std::string name)
        : source_(source)
        , name_(std::move(name)) {}

    std::size_t remaining() const { return source_.remaining(); }

    std::uint32_t u32(const char* what) {
        std::byte p[4];
        take(p, 4, what);
        return load_u32(p);
    }
    std::uint64_t u64(const char* what) {
        std::byte p[8];
        take(p, 8, what);
        return load_u64(p);
    }
    std::int64_t i64(const char* what) { return static_cast<std::int64_t>(u64(what)); }
    Rng::State rng(const char* what) {
        Rng::State state{};
        for (auto& word : state)
            word = u64(what);
        // xoshiro never leaves the all-zero state (it would draw 0 for ever, and a shuffle would
        // never end); no generator of a run is ever in it, so such a file was not written by one.
        if (state == Rng::State{})
            fail(std::string(what) + " is all zero, a state no generator can be in");
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
        check(n * sizeof(double), what);
        out.resize(n);
        if constexpr (std::endian::native == std::endian::little) {
            take(reinterpret_cast<std::byte*>(out.data()), n * sizeof(double), what);
        } else {
            std::vector<std::byte> p(n * sizeof(double));
            take(p.data(), p.size(), what);
            for (std::uint64_t i = 0; i < n; ++i)
                out[i] = std::bit_cast<double>(load_u64(p.data() + 8 * i));
        }
    }
    void u32s(std::uint64_t n, std::vector<std::uint32_t>& out, const char* what) {
        check(n * sizeof(std::uint32_t), what);
        out.resize(n);
        if constexpr (std::endian::native == std::endian::little) {
            take(reinterpret_cast<std::byte*>(out.data()), n * sizeof(std::uint32_t), what);
        } else {
            std::vector<std::byte> p(n * sizeof(std::uint32_t));
            take(p.data(), p.size(), what);
            for (std::uint64_t i = 0; i < n; ++i)
                out[i] = load_u32(p.data() + 4 * i);
        }
    }
    std::string text(std::size_t n, const char* what) {
        check(n, what);
        std::string out(n, '\0');
        take(reinterpret_cast<std::byte*>(out.data()), n, what);
        return out;
    }

    [[noreturn]] void fail(const std::string& what) const {
        throw CheckpointError(CheckpointFault::Unreadable, name_ + ": " + what);
    }

private:
    void check(std::size_t n, const char* what) const {
        if (n > remaining())
            fail(std::string("ends inside ") + what);
    }
    void take(std::byte* to, std::size_t n, const char* what) {
        check(n, what);
        source_.read(to, n);
    }

    ByteSource& source_;
    std::string name_;
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

// Checks magic, version, and the declared size against `max_bytes` and the real `size`, in that
// order, from the file's first bytes (`start`: the first 48, or the whole file when shorter), and
// returns the header. Throws CheckpointError naming the file.
FileHeader check_header(std::span<const std::byte> start, std::uint64_t size,
                        const std::string& name, std::string_view magic, std::uint64_t max_bytes);

// The next check after check_header: the checksum of everything before the trailer.
void check_checksum(std::uint64_t computed, std::uint64_t stored, const std::string& name);

// check_header and check_checksum on a whole file image.
FileHeader read_header(std::span<const std::byte> bytes, const std::string& name,
                       std::string_view magic, std::uint64_t max_bytes);

inline constexpr std::string_view worker_magic = "LKSTCKPT";
inline constexpr std::string_view manifest_magic = "LKSTMANI";

// The body of a worker file whose header check_header accepted.
WorkerCheckpoint decode_worker_body(const FileHeader& header, ByteReader& in);

// encode_worker_file's pieces, referring to the state's arrays.
FileImage encode_worker_image(const TrainingState& state, int worker, bool sharded_optimizer,
                              bool sharded_parameters = false);

// The bytes between the header and the trailer of a file read_header accepted.
inline std::span<const std::byte> body_of(std::span<const std::byte> bytes) {
    return bytes.subspan(header_size, bytes.size() - header_size - trailer_size);
}

} // namespace lockstep::checkpoint_bytes
