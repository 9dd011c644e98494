// The CSV reader under hostile files: what it keeps in memory while it reads. Each case runs in a
// child process of its own, so its peak resident memory (getrusage) is its alone; it is printed
// beside the reader's own bound (CsvLimits::memory_bound_bytes()). One JSON object per line.
//   bench_csv [DIR]   (the files go to DIR, default the system's temporary folder)

#include "core/error.h"
#include "data/data.h"

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <functional>
#include <string>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

namespace fs = std::filesystem;

namespace {

// Writes `path` by calling `chunk` until it returns false.
void write_file(const fs::path& path, const std::function<bool(std::string&)>& chunk) {
    std::ofstream out(path, std::ios::binary | std::ios::trunc);
    std::string piece;
    while (chunk(piece)) {
        out.write(piece.data(), static_cast<std::streamsize>(piece.size()));
        piece.clear();
    }
}

// Loads `path` in a child and prints the outcome, the time and the child's peak RSS.
void measure(const char* name, const fs::path& path) {
    int pipe_fds[2];
    if (pipe(pipe_fds) != 0)
        std::exit(2);
    const pid_t child = fork();
    if (child == 0) {
        close(pipe_fds[0]);
        const auto start = std::chrono::steady_clock::now();
        std::string outcome;
        try {
            const lockstep::Dataset d = lockstep::load_csv(path.string());
            outcome = "accepted " + std::to_string(d.size()) + " rows";
        } catch (const lockstep::Error& e) {
            outcome = std::string("refused: ") + e.what();
        }
        const double seconds =
            std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
        rusage usage{};
        getrusage(RUSAGE_SELF, &usage);
        const std::string line =
            "{\"case\": \"" + std::string(name) +
            "\", \"file_mb\": " + std::to_string(fs::file_size(path) / 1'000'000) +
            ", \"seconds\": " + std::to_string(seconds) +
            ", \"peak_rss_mb\": " + std::to_string(usage.ru_maxrss / 1024) +
            ", \"bound_mb\": " + std::to_string(lockstep::CsvLimits{}.memory_bound_bytes() >> 20) +
            ", \"outcome\": \"" + outcome + "\"}\n";
        if (write(pipe_fds[1], line.data(), line.size()) < 0)
            _exit(2);
        _exit(0);
    }
    close(pipe_fds[1]);
    char buffer[4096];
    ssize_t got = 0;
    while ((got = read(pipe_fds[0], buffer, sizeof buffer)) > 0)
        std::fwrite(buffer, 1, static_cast<std::size_t>(got), stdout);
    close(pipe_fds[0]);
    int status = 0;
    waitpid(child, &status, 0);
    std::fflush(stdout);
}

} // namespace

int main(int argc, char** argv) {
    const fs::path dir = argc > 1 ? fs::path(argv[1]) : fs::temp_directory_path();
    const fs::path file = dir / "bench-csv.csv";

    // 2 rows, then 200 MB of newlines.
    int left = 200;
    write_file(file, [&](std::string& piece) {
        if (left == 200)
            piece = "x,y\n1,0\n2,1\n";
        if (left-- == 0)
            return false;
        piece.append(1'000'000, '\n');
        return true;
    });
    measure("2 rows then 200 MB of newlines", file);

    // 10^7 rows of two columns.
    long rows = 0;
    write_file(file, [&](std::string& piece) {
        if (rows >= 10'000'000)
            return false;
        for (int i = 0; i < 100'000; ++i, ++rows)
            piece += "0.5,1\n";
        return true;
    });
    measure("10^7 rows", file);

    // The largest file it accepts: 1,000,000 rows of 16 columns (the values limit).
    rows = 0;
    write_file(file, [&](std::string& piece) {
        if (rows >= 1'000'000)
            return false;
        for (int i = 0; i < 10'000; ++i, ++rows)
            piece += "0.25,1.5,-2,3.125,0.5,7,8,9,10,11,12,13,14,15,16,3\n";
        return true;
    });
    measure("1,000,000 rows of 16 columns", file);

    // One line of 200 MB.
    left = 200;
    write_file(file, [&](std::string& piece) {
        if (left-- == 0)
            return false;
        piece.append(1'000'000, '7');
        return true;
    });
    measure("one line of 200 MB", file);
    fs::remove(file);
    return 0;
}
