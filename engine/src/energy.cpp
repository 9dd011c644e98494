#include "lockstep/metrics.h"

#include <algorithm>

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
