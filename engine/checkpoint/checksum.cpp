#include "checkpoint/checkpoint.h"

#include "checkpoint/bytes.h"

namespace lockstep {

using namespace checkpoint_bytes;

namespace {

constexpr std::uint64_t xxh_p1 = 0x9E3779B185EBCA87ULL;
constexpr std::uint64_t xxh_p2 = 0xC2B2AE3D27D4EB4FULL;
constexpr std::uint64_t xxh_p3 = 0x165667B19E3779F9ULL;
constexpr std::uint64_t xxh_p4 = 0x85EBCA77C2B2AE63ULL;
constexpr std::uint64_t xxh_p5 = 0x27D4EB2F165667C5ULL;

std::uint64_t xxh_round(std::uint64_t acc, std::uint64_t input) {
    acc += input * xxh_p2;
    return std::rotl(acc, 31) * xxh_p1;
}

std::uint64_t xxh_merge(std::uint64_t h, std::uint64_t lane) {
    h ^= xxh_round(0, lane);
    return h * xxh_p1 + xxh_p4;
}

} // namespace

std::uint64_t checkpoint_checksum(std::span<const std::byte> bytes) {
    Xxh64 hash;
    hash.update(bytes);
    return hash.digest();
}

namespace checkpoint_bytes {

// XXH64: four lanes over 32-byte stripes, then the tail, then the final avalanche. Bytes that do
// not fill a stripe wait in `pending_` for the next update or for the digest.
void Xxh64::stripe(const std::byte* p) {
    for (std::size_t i = 0; i < 4; ++i)
        lanes_[i] = xxh_round(lanes_[i], load_u64(p + 8 * i));
}

void Xxh64::update(std::span<const std::byte> bytes) {
    total_ += bytes.size();
    const std::byte* p = bytes.data();
    const std::byte* const end = p + bytes.size();
    if (pending_size_ > 0) {
        const std::size_t fill = std::min<std::size_t>(32 - pending_size_, bytes.size());
        std::memcpy(pending_.data() + pending_size_, p, fill);
        pending_size_ += fill;
        p += fill;
        if (pending_size_ < 32)
            return;
        stripe(pending_.data());
        pending_size_ = 0;
    }
    for (; end - p >= 32; p += 32)
        stripe(p);
    pending_size_ = static_cast<std::size_t>(end - p);
    if (pending_size_ > 0)
        std::memcpy(pending_.data(), p, pending_size_);
}

std::uint64_t Xxh64::digest() const {
    std::uint64_t h = 0;
    if (total_ >= 32) {
        const auto [v1, v2, v3, v4] = lanes_;
        h = std::rotl(v1, 1) + std::rotl(v2, 7) + std::rotl(v3, 12) + std::rotl(v4, 18);
        h = xxh_merge(xxh_merge(xxh_merge(xxh_merge(h, v1), v2), v3), v4);
    } else {
        h = xxh_p5;
    }
    h += total_;
    const std::byte* p = pending_.data();
    const std::byte* const end = p + pending_size_;
    for (; end - p >= 8; p += 8)
        h = std::rotl(h ^ xxh_round(0, load_u64(p)), 27) * xxh_p1 + xxh_p4;
    if (end - p >= 4) {
        h = std::rotl(h ^ (std::uint64_t{load_u32(p)} * xxh_p1), 23) * xxh_p2 + xxh_p3;
        p += 4;
    }
    for (; p < end; ++p)
        h = std::rotl(h ^ (std::to_integer<std::uint64_t>(*p) * xxh_p5), 11) * xxh_p1;
    h ^= h >> 33;
    h *= xxh_p2;
    h ^= h >> 29;
    h *= xxh_p3;
    return h ^ (h >> 32);
}

std::uint64_t FileImage::checksum() const {
    Xxh64 hash;
    for (const auto piece : pieces)
        hash.update(piece);
    return hash.digest();
}

std::vector<std::byte> FileImage::flatten() const {
    std::vector<std::byte> out;
    out.reserve(size);
    for (const auto piece : pieces)
        out.insert(out.end(), piece.begin(), piece.end());
    if (checksummed) {
        out.resize(out.size() + trailer_size);
        store_u64(out.data() + out.size() - trailer_size, checksum());
    }
    return out;
}

FileImage ByteWriter::finish() {
    end_fields();
    FileImage image;
    image.size = trailer_size;
    for (const auto& [offset, length] : pieces_)
        image.size += length;
    for (const auto& a : arrays_)
        image.size += a.bytes.size();
    store_u64(out_.data() + size_offset, image.size);

    image.fields = std::move(out_);
    auto next_array = arrays_.begin();
    for (std::size_t i = 0; i < pieces_.size(); ++i) {
        if (next_array != arrays_.end() && next_array->piece == i)
            image.pieces.push_back((next_array++)->bytes);
        else
            image.pieces.push_back(
                std::span(image.fields).subspan(pieces_[i].first, pieces_[i].second));
    }
    return image;
}

} // namespace checkpoint_bytes

} // namespace lockstep
