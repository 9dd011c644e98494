#include "cli_report.h"

#include "cli_options.h"

#include <atomic>
#include <cstdio>
#include <unistd.h>

namespace lockstep::cli {

using nlohmann::json;

RunMetrics bsp_reference(const Scenario& s) {
    Scenario bsp = s;
    bsp.sync.reset();
    const Work work = bsp.clock == ClockKind::Modelled ? Work::TimesOnly : Work::Train;
    return run_scenario(bsp, nullptr, work).metrics;
}

std::string sync_summary(const Scenario& s, const RunMetrics& m) {
    char line[512];
    std::string out;
    switch (s.sync_mode()) {
    case SyncMode::Ssp:
        std::snprintf(line, sizeof line,
                      "  agreement         ssp: a worker runs at most %d clock(s) ahead of the "
                      "slowest\n  staleness         at most %lld, mean %.2f updates behind\n",
                      s.sync->staleness, static_cast<long long>(m.max_staleness), m.mean_staleness);
        break;
    case SyncMode::Async:
        std::snprintf(line, sizeof line,
                      "  agreement         async: every gradient applied as it arrives%s\n"
                      "  staleness         at most %lld, mean %.2f updates behind\n",
                      s.sync->staleness_aware_lr ? ", at lr / staleness" : "",
                      static_cast<long long>(m.max_staleness), m.mean_staleness);
        break;
    case SyncMode::Local:
        std::snprintf(line, sizeof line,
                      "  agreement         local SGD: %d step(s) on their own, then the replicas "
                      "average their parameters\n",
                      s.sync->local_steps);
        break;
    case SyncMode::Bsp:
        return {};
    }
    out = line;
    const RunMetrics bsp = bsp_reference(s);
    std::snprintf(line, sizeof line,
                  "  against bsp       waiting %.4g s instead of %.4g s per worker; total time "
                  "%.4g s instead of %.4g s\n",
                  m.waiting_s, bsp.waiting_s, m.total_time_s, bsp.total_time_s);
    return out + line;
}

json metrics_json(const Scenario& s, const RunMetrics& m) {
    json per_worker = json::array();
    for (std::size_t k = 0; k < m.per_worker.size(); ++k) {
        const auto& w = m.per_worker[k];
        per_worker.push_back({{"worker", k},
                              {"compute_s", w.compute_s},
                              {"communication_s", w.communication_s},
                              {"waiting_s", w.waiting_s},
                              {"update_s", w.update_s},
                              {"checkpoint_s", w.checkpoint_s},
                              {"restore_s", w.restore_s},
                              {"failed_s", w.failed_s}});
    }
    return {{"scenario", s.name},
            {"workers", m.workers},
            {"workers_at_end", m.workers_at_end},
            {"steps", m.steps},
            {"steps_run", m.steps_run},
            {"algorithm", std::string(to_string(s.algorithm))},
            {"sync", std::string(to_string(s.sync_mode()))},
            {"staleness_bound", s.sync_mode() == SyncMode::Ssp ? json(s.sync->staleness) : json()},
            {"local_steps", s.sync_mode() == SyncMode::Local ? json(s.sync->local_steps) : json()},
            {"max_staleness", m.max_staleness},
            {"mean_staleness", m.mean_staleness},
            {"averagings", m.averagings},
            {"rule", std::string(to_string(s.rule))},
            {"clock", std::string(to_string(s.clock))},
            {"scaling", std::string(to_string(s.scaling))},
            {"total_time_s", m.total_time_s},
            {"step_time_s", m.step_time_s},
            {"baseline_time_s", m.baseline_time_s},
            {"speedup", m.speedup},
            {"efficiency", m.efficiency},
            {"throughput_samples_per_s", m.throughput},
            {"samples", m.samples},
            {"useful_samples", m.useful_samples},
            {"goodput_samples_per_s", m.goodput},
            {"final_loss", m.final_loss},
            {"final_accuracy", m.final_accuracy},
            {"replicas_aligned", m.trained ? json(m.replicas_aligned) : json("not checked")},
            {"misaligned_steps", m.misaligned_steps},
            {"compute_s", m.compute_s},
            {"communication_s", m.communication_s},
            {"waiting_s", m.waiting_s},
            {"update_s", m.update_s},
            {"checkpoint_s", m.checkpoint_s},
            {"checkpoints", m.checkpoints},
            {"checkpoint_bytes", m.checkpoint_bytes},
            {"bytes_moved", m.bytes_moved},
            {"failures", m.failures},
            {"lost_steps", m.lost_steps},
            {"lost_worker_s", m.lost_worker_s},
            {"detection_s", m.detection_s},
            {"recovery_s", m.recovery_s},
            {"dropped_gradients", m.dropped_gradients},
            {"energy_j", m.energy_j},
            {"energy_per_sample_j", m.energy_per_sample_j},
            {"per_worker", per_worker}};
}

json recoveries_json(std::span<const DataParallelTrainer::Recovery> recoveries) {
    json list = json::array();
    for (const auto& r : recoveries) {
        json rejected = json::array();
        for (const auto& c : r.rejected)
            rejected.push_back({{"directory", c.directory.filename().string()},
                                {"status", std::string(to_string(c.status))},
                                {"reason", c.reason}});
        json cleaned = json::array();
        for (const auto& f : r.cleaned)
            cleaned.push_back(f.string());
        list.push_back({{"failure", to_text(r.cause)},
                        {"worker", r.worker},
                        {"step", r.crashed_at_step},
                        {"crashed_s", to_seconds(r.crashed)},
                        {"detected_s", to_seconds(r.detected)},
                        {"resumed_s", to_seconds(r.resumed)},
                        {"policy", std::string(to_string(r.policy))},
                        {"rolled_back", r.rolled_back},
                        {"restored_step", r.restored_step},
                        {"checkpoint", r.checkpoint.filename().string()},
                        {"rejected", rejected},
                        {"cleaned", cleaned},
                        {"lost_steps", r.lost_steps},
                        {"workers_after", r.workers_after}});
    }
    return list;
}

std::string describe(const DataParallelTrainer::Recovery& r) {
    const std::string where =
        r.cause.during_checkpoint()
            ? "writing the checkpoint of step " + std::to_string(r.crashed_at_step + 1)
            : "in step " + std::to_string(r.crashed_at_step);
    std::string text = "worker " + std::to_string(r.worker) + " crashed " + where + " (" +
                       std::string(to_string(r.cause.phase)) + ") at " +
                       format_number(to_seconds(r.crashed)) + " s, declared dead " +
                       format_number(to_seconds(r.detected - r.crashed)) + " s later";
    if (!r.rolled_back)
        return text + "; the others went on without its gradient (backup workers)";
    text += r.checkpoint.empty()
                ? "; no complete checkpoint yet, so everyone started over from step 0"
                : "; " + std::string(to_string(r.policy)) + " from " +
                      r.checkpoint.filename().string() + " (step " +
                      std::to_string(r.restored_step) + ")";
    for (const auto& c : r.rejected)
        text += "; skipped " + c.directory.filename().string() + " (" +
                std::string(to_string(c.status)) + ": " + c.reason + ")";
    if (!r.cleaned.empty())
        text += "; removed " + std::to_string(r.cleaned.size()) + " leftover temporary file" +
                (r.cleaned.size() == 1 ? "" : "s");
    text +=
        "; " + std::to_string(r.lost_steps) + " step" + (r.lost_steps == 1 ? "" : "s") + " to redo";
    if (r.policy == RecoveryPolicy::Elastic)
        text += "; " + std::to_string(r.workers_after) + " workers go on";
    return text;
}

std::string failure_summary(const RunMetrics& m,
                            std::span<const DataParallelTrainer::Recovery> recoveries) {
    std::string text;
    char line[512];
    for (const auto& r : recoveries)
        text += "  failure           " + describe(r) + "\n";
    if (m.failures > 0) {
        std::snprintf(line, sizeof line,
                      "  lost work         %lld steps redone, %.4g worker-seconds thrown away; "
                      "detection %.4g s, recovery %.4g s\n",
                      static_cast<long long>(m.lost_steps), m.lost_worker_s, m.detection_s,
                      m.recovery_s);
        text += line;
    }
    if (m.dropped_gradients > 0) {
        std::snprintf(line, sizeof line,
                      "  dropped gradients %lld (late, left out by backup workers)\n",
                      static_cast<long long>(m.dropped_gradients));
        text += line;
    }
    std::snprintf(line, sizeof line,
                  "  goodput           %.6g useful samples/s of %.6g processed/s\n", m.goodput,
                  m.throughput);
    text += line;
    std::snprintf(line, sizeof line,
                  "  energy (modelled) %.4g J, %.4g J per useful sample (power per state: "
                  "assumed, see docs/SCENARIO.md)\n",
                  m.energy_j, m.energy_per_sample_j);
    text += line;
    return text;
}

ScratchDirectory::ScratchDirectory() {
    namespace fs = std::filesystem;
    static std::atomic<int> counter{0};
    path_ = fs::temp_directory_path() /
            ("lockstep-cli-" + std::to_string(::getpid()) + "-" + std::to_string(counter++));
    fs::remove_all(path_);
    fs::create_directories(path_);
}

ScratchDirectory::~ScratchDirectory() {
    std::error_code ec;
    std::filesystem::remove_all(path_, ec);
}

} // namespace lockstep::cli
