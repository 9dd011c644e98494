#include "reports/metrics.h"

#include <algorithm>
#include <limits>
#include <utility>
#include <vector>

namespace lockstep {

std::vector<WorkerMetrics> worker_metrics(std::span<const TraceEvent> events, int workers) {
    std::vector<LaneTotals> lanes(static_cast<std::size_t>(workers));
    std::vector<std::vector<std::pair<Ticks, Ticks>>> comm(lanes.size());
    for (const auto& e : events) {
        if (e.worker < 0 || e.worker >= workers)
            continue;
        const auto w = static_cast<std::size_t>(e.worker);
        lanes[w].add(e);
        if (bucket_of(e.kind) == TimeBucket::Overlapping)
            comm[w].emplace_back(e.start, e.end);
    }
    // Communication time is the union of a worker's send, receive and reduce intervals.
    std::vector<WorkerMetrics> out;
    for (const auto& lane : lanes)
        out.push_back(lane.seconds());
    for (std::size_t w = 0; w < out.size(); ++w) {
        auto& list = comm[w];
        std::sort(list.begin(), list.end());
        Ticks covered = 0;
        Ticks until = std::numeric_limits<Ticks>::min();
        for (const auto& [start, end] : list) {
            const Ticks from = std::max(start, until);
            if (end > from)
                covered += end - from;
            until = std::max(until, end);
        }
        out[w].communication_s += to_seconds(covered);
    }
    return out;
}

} // namespace lockstep
