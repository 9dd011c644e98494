// Checkpoint throughput against the disk's own: a 4-worker SGD-with-momentum state of 64 MiB
// (4 Mi parameters and their velocities) saved with save_checkpoint (encode, checksum, write,
// fsync, rename, directory fsync, manifest) and restored with load_checkpoint (read, verify,
// decode, assemble), against plain write+fsync and read of the same number of bytes, in the same
// directory and the same run, round after round, each first in every other round and each write
// after a syncfs. Both reads come from the page cache, where the engine's own work shows most.
// Prints one JSON object per line.
//   bench_checkpoint [--rounds N] [--dir DIR]   (default 9 rounds, a new directory in $TMPDIR)

#include "checkpoint/checkpoint.h"
#include "core/rng.h"

#include <algorithm>
#include <cerrno>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fcntl.h>
#include <filesystem>
#include <memory>
#include <optional>
#include <string>
#include <unistd.h>
#include <vector>

namespace fs = std::filesystem;
using Clock = std::chrono::steady_clock;

namespace {

constexpr std::size_t parameters = std::size_t{4} << 20; // 32 MiB, and as much of velocity
constexpr int workers = 4;

double seconds_since(Clock::time_point start) {
    return std::chrono::duration<double>(Clock::now() - start).count();
}

double median(std::vector<double> values) {
    std::sort(values.begin(), values.end());
    return values[values.size() / 2];
}

[[noreturn]] void die(const std::string& what) {
    std::fprintf(stderr, "bench_checkpoint: %s: %s\n", what.c_str(), std::strerror(errno));
    std::exit(1);
}

lockstep::TrainingState make_state() {
    lockstep::Rng rng(42);
    lockstep::TrainingState s;
    s.step = 1000;
    s.scenario_hash = rng.next_u64();
    s.parameters.resize(parameters);
    s.optimizer.velocity.resize(parameters);
    for (std::size_t i = 0; i < parameters; ++i) {
        s.parameters[i] = rng.normal();
        s.optimizer.velocity[i] = 1e-3 * rng.normal();
    }
    s.optimizer.step = 1000;
    s.run_rng = {rng.next_u64(), rng.next_u64(), rng.next_u64(), rng.next_u64()};
    for (int k = 0; k < workers; ++k) {
        lockstep::DataCursor::State c;
        c.position = 17;
        c.epoch = 3;
        c.rng = {rng.next_u64(), rng.next_u64(), rng.next_u64(), rng.next_u64()};
        c.order.resize(4096);
        for (std::size_t i = 0; i < c.order.size(); ++i)
            c.order[i] = static_cast<std::uint32_t>(i);
        s.cursors.push_back(std::move(c));
    }
    return s;
}

// The yardstick: one sequential write of `bytes` bytes and an fsync, then a close.
void plain_write(const fs::path& file, const std::byte* data, std::size_t bytes) {
    const int fd = ::open(file.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
    if (fd < 0)
        die("cannot create " + file.string());
    for (std::size_t done = 0; done < bytes;) {
        const ssize_t n = ::write(fd, data + done, bytes - done);
        if (n < 0 && errno != EINTR)
            die("cannot write " + file.string());
        done += n > 0 ? static_cast<std::size_t>(n) : 0;
    }
    if (::fsync(fd) != 0 || ::close(fd) != 0)
        die("cannot fsync " + file.string());
}

// And one sequential read of the whole file into a new buffer, as a plain loader would.
std::unique_ptr<std::byte[]> plain_read(const fs::path& file, std::size_t bytes) {
    auto buffer = std::make_unique_for_overwrite<std::byte[]>(bytes);
    const int fd = ::open(file.c_str(), O_RDONLY | O_CLOEXEC);
    if (fd < 0)
        die("cannot open " + file.string());
    for (std::size_t done = 0; done < bytes;) {
        const ssize_t n = ::read(fd, buffer.get() + done, bytes - done);
        if (n == 0 || (n < 0 && errno != EINTR))
            die("cannot read " + file.string());
        done += n > 0 ? static_cast<std::size_t>(n) : 0;
    }
    ::close(fd);
    return buffer;
}

// MB/s from the median times; the ratio is the median of each round's ratio, the engine and the
// yardstick having run back to back, which keeps a busy machine's swings out of it.
// Flushes everything still dirty on the file system (the removal of the last round's files,
// other programs' writes), so that the next timed fsync waits for its own bytes only.
void settle(const fs::path& dir) {
    const int fd = ::open(dir.c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC);
    if (fd < 0 || ::syncfs(fd) != 0)
        die("cannot sync " + dir.string());
    ::close(fd);
}

void print(const char* phase, double bytes, const std::vector<double>& engine_s,
           const std::vector<double>& plain_s) {
    std::vector<double> ratios;
    for (std::size_t i = 0; i < engine_s.size(); ++i)
        ratios.push_back(plain_s[i] / engine_s[i]);
    std::printf("{\"bench\":\"checkpoint\",\"phase\":\"%s\",\"mib\":%.1f,\"workers\":%d,"
                "\"rounds\":%zu,\"engine_mb_per_s\":%.0f,\"plain_mb_per_s\":%.0f,"
                "\"engine_over_plain\":%.3f,\"target\":0.8}\n",
                phase, bytes / (1 << 20), workers, engine_s.size(), bytes / median(engine_s) / 1e6,
                bytes / median(plain_s) / 1e6, median(ratios));
}

} // namespace

int main(int argc, char** argv) {
    int rounds = 9;
    fs::path base = fs::temp_directory_path();
    for (int i = 1; i + 1 < argc; i += 2) {
        const std::string flag = argv[i];
        if (flag == "--rounds")
            rounds = std::max(1, std::atoi(argv[i + 1]));
        else if (flag == "--dir")
            base = argv[i + 1];
    }
    const fs::path dir = base / ("lockstep-bench-checkpoint-" + std::to_string(::getpid()));
    fs::create_directories(dir);

    const lockstep::TrainingState state = make_state();
    std::vector<double> engine_write, plain_write_s, engine_read, plain_read_s;
    std::vector<double> first_file; // start of a save to worker-0.ckpt's fsync (the bulk)
    std::vector<std::byte> image;   // the plain writer's bytes, as many as the checkpoint's
    std::optional<lockstep::CheckpointWrite> write;
    try {
        for (int round = 0; round < rounds; ++round) {
            fs::remove_all(dir / "engine");
            fs::remove(dir / "plain.bin");
            const auto engine_save = [&] {
                settle(dir);
                lockstep::CheckpointOptions options;
                const auto start = Clock::now();
                options.observer = [&](lockstep::CheckpointPhase phase, int worker,
                                       const std::string&) {
                    if (phase == lockstep::CheckpointPhase::FsyncFile && worker == 0)
                        first_file.push_back(seconds_since(start));
                };
                write = lockstep::save_checkpoint(dir / "engine", state, options);
                engine_write.push_back(seconds_since(start));
                image.resize(write->bytes, std::byte{0x5A});
            };
            const auto plain_save = [&] {
                settle(dir);
                const auto start = Clock::now();
                plain_write(dir / "plain.bin", image.data(), image.size());
                plain_write_s.push_back(seconds_since(start));
            };
            const auto engine_load = [&] {
                const auto start = Clock::now();
                const lockstep::TrainingState back = lockstep::load_checkpoint(write->directory);
                engine_read.push_back(seconds_since(start));
                if (!(back == state))
                    throw lockstep::Error("the restored state differs from the saved one");
            };
            const auto plain_load = [&] {
                const auto start = Clock::now();
                plain_read(dir / "plain.bin", image.size());
                plain_read_s.push_back(seconds_since(start));
            };
            // Each goes first every other round (the engine in the first, which sizes the plain
            // writer's bytes), so neither always meets what the other left.
            if (round == 0 || round % 2 == 1) {
                engine_save();
                plain_save();
                engine_load();
                plain_load();
            } else {
                plain_save();
                engine_save();
                plain_load();
                engine_load();
            }
        }
    } catch (const lockstep::Error& e) {
        std::fprintf(stderr, "bench_checkpoint: %s\n", e.what());
        fs::remove_all(dir);
        return 1;
    }
    fs::remove_all(dir);
    const auto bytes = static_cast<double>(image.size());
    print("write", bytes, engine_write, plain_write_s);
    // What the commit protocol adds to one big write and fsync: creating the step directory,
    // three small workers' files and the manifest, each with its fsync, rename and directory fsync.
    std::printf("{\"bench\":\"checkpoint\",\"phase\":\"write-breakdown\",\"worker0_file_ms\":%.1f,"
                "\"rest_of_commit_ms\":%.1f}\n",
                median(first_file) * 1e3, (median(engine_write) - median(first_file)) * 1e3);
    print("read", bytes, engine_read, plain_read_s);
    return 0;
}
