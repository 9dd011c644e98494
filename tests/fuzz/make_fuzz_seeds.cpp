// Writes the seeds of the checkpoint fuzz corpora from real checkpoint directories (each the
// --checkpoint-dir of a lockstep-cli run):
//   make_fuzz_seeds CORPUS_DIR CHECKPOINT_DIR...
// The newest checkpoint of each, verified whole, gives its worker files and MANIFEST as valid
// seeds, named after the directory; from the first one (at least two workers), files
// are derived that are truncated, carry the wrong magic or version, declare huge sizes and
// lengths (resealed, so only the length is wrong), or list names that leave the directory.

#include "checkpoint/checkpoint.h"

#include <cstdio>
#include <cstring>
#include <exception>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <string>
#include <vector>

namespace fs = std::filesystem;
using Bytes = std::vector<std::byte>;

namespace {

Bytes read_bytes(const fs::path& file) {
    std::ifstream in(file, std::ios::binary);
    if (!in)
        throw lockstep::Error(file.string() + ": cannot open");
    const std::vector<char> chars((std::istreambuf_iterator<char>(in)),
                                  std::istreambuf_iterator<char>());
    Bytes out(chars.size());
    std::memcpy(out.data(), chars.data(), chars.size());
    return out;
}

void write_bytes(const fs::path& file, const Bytes& bytes) {
    std::ofstream out(file, std::ios::binary | std::ios::trunc);
    out.write(reinterpret_cast<const char*>(bytes.data()),
              static_cast<std::streamsize>(bytes.size()));
    if (!out)
        throw lockstep::Error(file.string() + ": cannot write");
}

void put(Bytes& bytes, std::size_t at, std::uint64_t value, int width) {
    for (int i = 0; i < width; ++i)
        bytes.at(at + static_cast<std::size_t>(i)) = static_cast<std::byte>(value >> (8 * i));
}

// Makes an edited file pass its own size and checksum checks, as a hostile one would.
Bytes resealed(Bytes bytes) {
    put(bytes, 16, bytes.size(), 8);
    put(bytes, bytes.size() - 8,
        lockstep::checkpoint_checksum(std::span(bytes).first(bytes.size() - 8)), 8);
    return bytes;
}

Bytes patched(Bytes bytes, std::size_t at, std::uint64_t value, int width) {
    put(bytes, at, value, width);
    return resealed(std::move(bytes));
}

void worker_seeds(const fs::path& out, const Bytes& worker0, const Bytes& worker1) {
    const auto half = [](const Bytes& b) { return Bytes(b.begin(), b.begin() + b.size() / 2); };
    write_bytes(out / "truncated-half.ckpt", half(worker0));
    write_bytes(out / "truncated-header.ckpt", Bytes(worker0.begin(), worker0.begin() + 20));
    write_bytes(out / "empty.ckpt", {});
    Bytes magic = worker0;
    std::memcpy(magic.data(), "LKSTMANI", 8);
    write_bytes(out / "manifest-magic.ckpt", resealed(magic));
    write_bytes(out / "version-2.ckpt", patched(worker0, 8, 2, 4));
    write_bytes(out / "declared-size-2p40.ckpt", [&] {
        Bytes b = resealed(worker0);
        put(b, 16, 1ULL << 40, 8);
        return b;
    }());
    Bytes flipped = worker0;
    flipped[flipped.size() / 2] ^= std::byte{0x10};
    write_bytes(out / "checksum-mismatch.ckpt", flipped);
    Bytes grown = worker0;
    grown.insert(grown.end() - 8, 16, std::byte{0xAB});
    write_bytes(out / "trailing-bytes.ckpt", resealed(grown));
    write_bytes(out / "parameter-count-2p60.ckpt", patched(worker0, 88, 1ULL << 60, 8));
    write_bytes(out / "worker-count-1000.ckpt", patched(worker1, 28, 1000, 4));
    write_bytes(out / "worker-past-count.ckpt", patched(worker1, 24, 7, 4));
    write_bytes(out / "unknown-flag.ckpt", patched(worker1, 12, 64, 4));
    // worker 1's order length follows its cursor's position, epoch and generator when it holds
    // no optimizer part (an unsharded checkpoint)
    write_bytes(out / "order-length-2p63.ckpt", patched(worker1, 48 + 48, 1ULL << 63, 8));
}

void manifest_seeds(const fs::path& out, const lockstep::CheckpointManifest& real) {
    const auto write = [&](const char* name, const lockstep::CheckpointManifest& m) {
        write_bytes(out / name, lockstep::encode_manifest(m));
    };
    const auto renamed = [&](std::string first) {
        lockstep::CheckpointManifest m = real;
        m.files.front().name = std::move(first);
        return m;
    };
    write("dotdot-name", renamed("../worker-0.ckpt"));
    write("absolute-name", renamed("/etc/passwd"));
    write("parent-name", renamed(".."));
    write("hidden-name", renamed(".worker-0.ckpt"));
    write("nested-name", renamed("sub/worker-0.ckpt"));
    write("backslash-name", renamed("..\\worker-0.ckpt"));
    write("nul-name", renamed(std::string("worker-0.ckpt\0x", 15)));
    write("long-name", renamed(std::string(300, 'w')));
    write("wrong-name", renamed("worker-9.ckpt"));
    lockstep::CheckpointManifest big = real;
    big.files.front().size = 1ULL << 40;
    write("huge-entry-size", big);
    lockstep::CheckpointManifest missing = real;
    missing.files.pop_back();
    write("too-few-entries", missing);
    const Bytes bytes = lockstep::encode_manifest(real);
    write_bytes(out / "truncated", Bytes(bytes.begin(), bytes.begin() + bytes.size() / 2));
    Bytes magic = bytes;
    std::memcpy(magic.data(), "LKSTCKPT", 8);
    write_bytes(out / "worker-magic", resealed(magic));
    write_bytes(out / "file-count-100000", patched(bytes, 28, 100000, 4));
    write_bytes(out / "name-length-2p31", patched(bytes, 48, 1ULL << 31, 4));
    write_bytes(out / "worker-count-0", patched(bytes, 24, 0, 4));
}

} // namespace

int main(int argc, char** argv) {
    if (argc < 3) {
        std::fprintf(stderr, "usage: make_fuzz_seeds CORPUS_DIR CHECKPOINT_DIR...\n");
        return 2;
    }
    try {
        const fs::path corpus = argv[1];
        const fs::path workers_out = corpus / "fuzz_checkpoint_file";
        const fs::path manifests_out = corpus / "fuzz_manifest";
        fs::create_directories(workers_out);
        fs::create_directories(manifests_out);
        for (int i = 2; i < argc; ++i) {
            const fs::path dir = fs::path(argv[i]).lexically_normal();
            const std::string label = dir.filename().string();
            const lockstep::CheckpointScan scan = lockstep::scan_checkpoints(dir);
            if (scan.checkpoints.empty() ||
                scan.checkpoints.back().status != lockstep::CheckpointStatus::Complete)
                throw lockstep::Error(dir.string() + ": its newest checkpoint is not complete");
            const fs::path step_dir = scan.checkpoints.back().directory;
            const lockstep::CheckpointManifest& m = *scan.checkpoints.back().manifest;
            fs::copy_file(step_dir / "MANIFEST", manifests_out / ("valid-" + label),
                          fs::copy_options::overwrite_existing);
            for (const auto& entry : m.files)
                fs::copy_file(step_dir / entry.name,
                              workers_out / ("valid-" + label + "-" + entry.name),
                              fs::copy_options::overwrite_existing);
            if (i == 2 && m.files.size() >= 2) {
                worker_seeds(workers_out, read_bytes(step_dir / m.files[0].name),
                             read_bytes(step_dir / m.files[1].name));
                manifest_seeds(manifests_out, m);
            }
        }
    } catch (const std::exception& e) {
        std::fprintf(stderr, "make_fuzz_seeds: %s\n", e.what());
        return 1;
    }
    return 0;
}
