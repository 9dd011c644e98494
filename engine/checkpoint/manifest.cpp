#include "checkpoint/checkpoint.h"

#include "checkpoint/bytes.h"

#include <charconv>
#include <cstdio>

namespace lockstep {

using namespace checkpoint_bytes;

namespace {

constexpr std::uint32_t flag_sharded = 1;

// A name as it can be printed in one line: control bytes (NUL included) as \xNN.
std::string printable(std::string_view name) {
    std::string out;
    for (const char c : name) {
        const auto u = static_cast<unsigned char>(c);
        if (u < 0x20 || u == 0x7F) {
            char hex[8];
            std::snprintf(hex, sizeof hex, "\\x%02X", u);
            out += hex;
        } else {
            out += c;
        }
    }
    return out;
}

} // namespace

bool is_plain_file_name(std::string_view name) {
    return !name.empty() && name.size() <= CheckpointLimits::max_name_length &&
           name.front() != '.' && name.find_first_of(std::string_view("/\\\0", 3)) == name.npos &&
           name.find("..") == name.npos;
}

std::string worker_file_name(int worker) {
    return "worker-" + std::to_string(worker) + ".ckpt";
}

std::string checkpoint_directory_name(std::int64_t step) {
    char name[32];
    std::snprintf(name, sizeof name, "step-%09lld", static_cast<long long>(step));
    return name;
}

std::optional<std::int64_t> parse_checkpoint_directory_name(std::string_view name) {
    constexpr std::string_view prefix = "step-";
    if (!name.starts_with(prefix))
        return std::nullopt;
    const std::string_view digits = name.substr(prefix.size());
    if (digits.empty() || digits.size() > 18 ||
        digits.find_first_not_of("0123456789") != digits.npos)
        return std::nullopt;
    std::int64_t step = 0;
    std::from_chars(digits.data(), digits.data() + digits.size(), step);
    return step;
}

std::vector<std::byte> encode_manifest(const CheckpointManifest& manifest) {
    std::size_t size = header_size + trailer_size;
    for (const auto& entry : manifest.files)
        size += 4 + entry.name.size() + 16;
    ByteWriter out(size);
    FileHeader header;
    header.flags = manifest.sharded_optimizer ? flag_sharded : 0;
    header.a = static_cast<std::uint32_t>(manifest.workers);
    header.b = static_cast<std::uint32_t>(manifest.files.size());
    header.step = manifest.step;
    header.scenario_hash = manifest.scenario_hash;
    write_header(out, manifest_magic, header);
    for (const auto& entry : manifest.files) {
        out.u32(static_cast<std::uint32_t>(entry.name.size()));
        out.raw(entry.name.data(), entry.name.size());
        out.u64(entry.size);
        out.u64(entry.checksum);
    }
    return out.finish().flatten();
}

// Reads the entries first and checks every name before anything else about them, so a hostile
// name is reported as such, never followed.
CheckpointManifest decode_manifest(std::span<const std::byte> bytes, const std::string& name) {
    const FileHeader header =
        read_header(bytes, name, manifest_magic, CheckpointLimits::max_manifest_bytes);
    SpanSource body(body_of(bytes));
    ByteReader in(body, name);
    if (header.flags & ~flag_sharded)
        in.fail("unknown flags " + std::to_string(header.flags));
    if (header.a < 1 || header.a > CheckpointLimits::max_workers)
        in.fail("worker count " + std::to_string(header.a) + " is not in 1..256");
    if (header.b > CheckpointLimits::max_workers)
        in.fail("file count " + std::to_string(header.b) + " is over the limit of 256");
    if (header.step < 0)
        in.fail("negative step " + std::to_string(header.step));

    CheckpointManifest manifest;
    manifest.step = header.step;
    manifest.scenario_hash = header.scenario_hash;
    manifest.workers = static_cast<int>(header.a);
    manifest.sharded_optimizer = (header.flags & flag_sharded) != 0;
    manifest.files.resize(header.b);
    for (auto& entry : manifest.files) {
        const std::uint32_t length = in.u32("entry name length");
        if (length > CheckpointLimits::max_name_length)
            in.fail("entry name length " + std::to_string(length) + " is over the limit of " +
                    std::to_string(CheckpointLimits::max_name_length));
        entry.name = in.text(length, "entry name");
        entry.size = in.u64("entry size");
        entry.checksum = in.u64("entry checksum");
    }
    if (in.remaining() != 0)
        in.fail(std::to_string(in.remaining()) + " unexpected bytes after the entries");

    for (const auto& entry : manifest.files)
        if (!is_plain_file_name(entry.name))
            throw CheckpointError(CheckpointFault::BadName,
                                  name + ": bad file name \"" + printable(entry.name) +
                                      "\" (entries must be plain names inside the checkpoint)");
    if (manifest.files.size() != static_cast<std::size_t>(manifest.workers))
        in.fail("lists " + std::to_string(manifest.files.size()) + " files for " +
                std::to_string(manifest.workers) + " workers");
    for (std::size_t k = 0; k < manifest.files.size(); ++k) {
        const auto& entry = manifest.files[k];
        const std::string expected = worker_file_name(static_cast<int>(k));
        if (entry.name != expected)
            in.fail("entry " + std::to_string(k) + " is \"" + entry.name + "\", expected \"" +
                    expected + "\"");
        if (entry.size > CheckpointLimits::max_file_bytes)
            in.fail(entry.name + " is listed with " + std::to_string(entry.size) +
                    " bytes, over the limit of " +
                    std::to_string(CheckpointLimits::max_file_bytes));
    }
    return manifest;
}

} // namespace lockstep
