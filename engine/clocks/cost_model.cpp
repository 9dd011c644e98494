#include "clocks/cost_model.h"

#include <algorithm>
#include <limits>

namespace lockstep {

void price_collective(const CommSchedule& schedule, std::span<const int> lanes,
                      std::span<Ticks> clocks, const CostConfig& cost, std::int64_t step,
                      int first_round, std::vector<TraceEvent>& events) {
    if (cost.communication_s_per_step)
        return;
    const std::size_t n = clocks.size();
    constexpr Ticks never = std::numeric_limits<Ticks>::max();
    std::vector<Ticks> out_free(n, 0), in_free(n, 0), begin(n), end(n), first(n);
    for (std::size_t ri = 0; ri < schedule.rounds.size(); ++ri) {
        for (std::size_t p = 0; p < n; ++p) {
            begin[p] = end[p] = clocks[p];
            first[p] = never;
        }
        const int round = first_round + static_cast<int>(ri);
        for (const Message& msg : schedule.rounds[ri].messages) {
            const auto src = static_cast<std::size_t>(msg.src);
            const auto dst = static_cast<std::size_t>(msg.dst);
            const double bytes = static_cast<double>(msg.bytes());
            const Ticks from = std::max({begin[src], begin[dst], out_free[src], in_free[dst]});
            const Ticks to = from + to_ticks(cost.alpha_s + bytes * cost.beta_s_per_byte);
            const Ticks done =
                msg.op == Message::Op::Reduce ? to + to_ticks(bytes * cost.gamma_s_per_byte) : to;
            const int a = lanes[src];
            const int b = lanes[dst];
            events.push_back({a, EventKind::Send, step, from, to, msg.bytes(), b, round});
            events.push_back({b, EventKind::Receive, step, from, to, msg.bytes(), a, round});
            if (done > to)
                events.push_back({b, EventKind::Reduce, step, to, done, msg.bytes(), a, round});
            out_free[src] = to;
            in_free[dst] = done;
            end[src] = std::max(end[src], to);
            end[dst] = std::max(end[dst], done);
            first[src] = std::min(first[src], from);
            first[dst] = std::min(first[dst], from);
        }
        for (std::size_t p = 0; p < n; ++p) {
            if (first[p] != never && first[p] > begin[p])
                events.push_back({lanes[p], EventKind::Wait, step, begin[p], first[p]});
            clocks[p] = end[p];
        }
    }
}

void charge_fixed_communication(std::span<const int> lanes, std::span<Ticks> clocks, double seconds,
                                std::int64_t bytes, std::int64_t step,
                                std::vector<TraceEvent>& events) {
    const Ticks latest = clocks.empty() ? 0 : *std::max_element(clocks.begin(), clocks.end());
    const Ticks cost = to_ticks(seconds);
    for (std::size_t p = 0; p < clocks.size(); ++p) {
        if (clocks[p] < latest)
            events.push_back({lanes[p], EventKind::Wait, step, clocks[p], latest});
        events.push_back({lanes[p], EventKind::Communicate, step, latest, latest + cost, bytes});
        clocks[p] = latest + cost;
    }
}

} // namespace lockstep
