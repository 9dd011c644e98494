#include "reports/metrics.h"

#include <algorithm>
#include <utility>

namespace lockstep {

void LaneTotals::add(const TraceEvent& e) {
    const TimeBucket b = bucket_of(e.kind);
    if (b != TimeBucket::Overlapping && b != TimeBucket::Instant)
        add(b, e.end - e.start);
}

WorkerMetrics LaneTotals::seconds() const {
    auto s = [&](TimeBucket b) { return to_seconds(ticks[static_cast<std::size_t>(b)]); };
    return {s(TimeBucket::Compute), s(TimeBucket::Communication), s(TimeBucket::Waiting),
            s(TimeBucket::Update),  s(TimeBucket::Checkpoint),    s(TimeBucket::Restore),
            s(TimeBucket::Failed)};
}

void summarise_lanes(RunMetrics& m, std::vector<WorkerMetrics> lanes, double total_time_s,
                     const EnergyConfig& power) {
    m.per_worker = std::move(lanes);
    m.total_time_s = total_time_s;
    m.step_time_s = m.steps_run ? total_time_s / static_cast<double>(m.steps_run) : 0.0;
    m.throughput = total_time_s > 0 ? static_cast<double>(m.samples) / total_time_s : 0.0;
    const double n = static_cast<double>(std::max<std::size_t>(1, m.per_worker.size()));
    for (const auto& w : m.per_worker) {
        m.compute_s += w.compute_s / n;
        m.communication_s += w.communication_s / n;
        m.waiting_s += w.waiting_s / n;
        m.update_s += w.update_s / n;
        m.checkpoint_s += w.checkpoint_s / n;
    }
    m.goodput = total_time_s > 0 ? static_cast<double>(m.useful_samples) / total_time_s : 0.0;
    m.energy_j = energy_joules(m.per_worker, total_time_s, power);
    m.energy_per_sample_j =
        m.useful_samples > 0 ? m.energy_j / static_cast<double>(m.useful_samples) : 0.0;
}

double energy_joules(std::span<const WorkerMetrics> lanes, double total_time_s,
                     const EnergyConfig& power) {
    double joules = 0.0;
    for (const WorkerMetrics& w : lanes) {
        const double busy = w.compute_s + w.update_s;
        const double storage = w.checkpoint_s + w.restore_s;
        const double accounted = busy + w.communication_s + w.waiting_s + storage;
        const double idle = std::max(0.0, total_time_s - accounted);
        joules += busy * power.compute_w + w.communication_s * power.communicate_w +
                  w.waiting_s * power.wait_w + storage * power.checkpoint_w + idle * power.idle_w;
    }
    return joules;
}

} // namespace lockstep
