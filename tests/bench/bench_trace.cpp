// The Chrome trace export at 256 workers: how fast the streaming writer writes, and how little
// memory it holds. Two steps of a 256-worker ring are recorded once; the writer then gets them
// step by step, again and again with later step numbers and times, as a run of LOCKSTEP_BENCH_STEPS
// steps (default 50) would hand them over, and writes to a file in the temporary directory.
// Beside it the old export (every event collected, one nlohmann::json document dumped) on the two
// recorded steps. Prints one JSON object per line: MB/s, bytes, and peak resident memory.

#include "chrome_trace_reference.h"

#include "runs/runs.h"
#include "scenario/scenario.h"
#include "trace/chrome_trace.h"
#include "trace/trace.h"

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

using namespace lockstep;

namespace {

// Peak resident memory of this process so far (VmHWM), in MiB.
double peak_rss_mib() {
    std::ifstream status("/proc/self/status");
    std::string line;
    while (std::getline(status, line))
        if (line.rfind("VmHWM:", 0) == 0)
            return std::stod(line.substr(6)) / 1024.0;
    return -1;
}

double seconds_since(std::chrono::steady_clock::time_point t0) {
    return std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
}

struct Step {
    std::vector<TraceEvent> events;
};

// Records each step's events apart.
class PerStep final : public TraceSink {
public:
    void on_events(std::span<const TraceEvent> events) override {
        steps.push_back({{events.begin(), events.end()}});
    }
    void on_snapshot(const StepSnapshot&) override {}
    std::vector<Step> steps;
};

void stream(const std::vector<Step>& recorded, std::int64_t steps, TraceDetail detail,
            const std::filesystem::path& path) {
    const Ticks span = recorded.back().events.back().end; // generous: the steps' length
    const auto t0 = std::chrono::steady_clock::now();
    std::int64_t bytes = 0;
    {
        std::ofstream out(path, std::ios::binary | std::ios::trunc);
        ChromeTraceWriter writer(out, 256, "bench", detail);
        std::vector<TraceEvent> step;
        for (std::int64_t k = 0; k < steps; ++k) {
            const Step& source = recorded[static_cast<std::size_t>(k) % recorded.size()];
            const std::int64_t lap = k / static_cast<std::int64_t>(recorded.size());
            step = source.events;
            for (auto& e : step) {
                e.step = k;
                e.ordinal = static_cast<int>(k);
                e.start += lap * span;
                e.end += lap * span;
            }
            writer.on_events(step);
        }
        writer.finish();
        bytes = writer.bytes_written();
    }
    const double s = seconds_since(t0);
    std::printf("{\"bench\":\"trace-export\",\"detail\":\"%s\",\"workers\":256,\"steps\":%lld,"
                "\"bytes\":%lld,\"seconds\":%.3f,\"MB_per_s\":%.1f,\"peak_rss_MiB\":%.1f}\n",
                std::string(to_string(detail)).c_str(), static_cast<long long>(steps),
                static_cast<long long>(bytes), s, static_cast<double>(bytes) / 1e6 / s,
                peak_rss_mib());
    std::fflush(stdout);
    std::filesystem::remove(path);
}

} // namespace

int main() {
    const char* env = std::getenv("LOCKSTEP_BENCH_STEPS");
    const std::int64_t steps = env ? std::max(1LL, std::atoll(env)) : 50;

    Scenario s;
    s.name = "bench";
    s.workers = 256;
    s.steps = 2;
    s.algorithm = Algorithm::Ring;
    s.clock = ClockKind::Modelled;
    validate(s);
    PerStep recorded;
    {
        const auto trainer = make_run(s, load_dataset(s), &recorded);
        trainer->run_to_end();
    }
    std::size_t events = 0;
    for (const auto& step : recorded.steps)
        events += step.events.size();
    std::printf("{\"bench\":\"trace-recorded\",\"workers\":256,\"steps\":2,\"events\":%zu,"
                "\"peak_rss_MiB\":%.1f}\n",
                events, peak_rss_mib());

    const auto dir = std::filesystem::temp_directory_path();
    stream(recorded.steps, steps, TraceDetail::Rounds, dir / "lockstep-bench-trace.json");
    stream(recorded.steps, steps, TraceDetail::Phases, dir / "lockstep-bench-trace.json");

    // The old export, on the two recorded steps only (it holds the whole document in memory).
    std::vector<TraceEvent> all;
    for (const auto& step : recorded.steps)
        all.insert(all.end(), step.events.begin(), step.events.end());
    const auto t0 = std::chrono::steady_clock::now();
    const std::string text = testing::reference_chrome_trace_json(all, 256, "bench");
    const double sec = seconds_since(t0);
    std::printf("{\"bench\":\"trace-export-whole-document\",\"workers\":256,\"steps\":2,"
                "\"bytes\":%zu,\"seconds\":%.3f,\"MB_per_s\":%.1f,\"peak_rss_MiB\":%.1f}\n",
                text.size(), sec, static_cast<double>(text.size()) / 1e6 / sec, peak_rss_mib());
    return 0;
}
