#include "clocks/cost_model.h"

#include <algorithm>
#include <numeric>
#include <utility>

namespace lockstep {

Ticks compute_cost(const Scenario& scenario, double s_per_sample, int worker, std::size_t samples,
                   Rng& rng) {
    double seconds = s_per_sample * static_cast<double>(samples) * scenario.slowdown_of(worker);
    if (scenario.cost.jitter > 0.0)
        seconds *= 1.0 + scenario.cost.jitter * rng.uniform(-1.0, 1.0);
    if (scenario.delays.straggler_probability > 0.0 &&
        rng.uniform() < scenario.delays.straggler_probability)
        seconds *= scenario.delays.straggler_factor;
    return to_ticks(seconds);
}

double compute_s_per_sample(const Scenario& scenario, std::size_t reference_batch) {
    if (scenario.cost.one_worker_compute_s)
        return *scenario.cost.one_worker_compute_s /
               (static_cast<double>(scenario.steps) * static_cast<double>(reference_batch));
    return scenario.cost.compute_s_per_sample;
}

PassCost split_passes(double seconds) {
    return {to_ticks(seconds / 3.0), to_ticks(seconds * 2.0 / 3.0)};
}

LayerCosts price_layers(std::span<const std::size_t> layer_parameters, Ticks took) {
    LayerCosts c;
    c.forward = took / 3;
    const Ticks back = took - c.forward;
    std::size_t total = 0;
    for (const std::size_t n : layer_parameters)
        total += n;
    c.backward.assign(layer_parameters.size(), 0);
    Ticks given = 0;
    for (std::size_t l = 1; l < layer_parameters.size() && total > 0; ++l) {
        c.backward[l] = static_cast<Ticks>(static_cast<double>(back) *
                                           static_cast<double>(layer_parameters[l]) /
                                           static_cast<double>(total));
        given += c.backward[l];
    }
    if (!c.backward.empty())
        c.backward[0] = back - given;
    return c;
}

MessagePrice price_message(const CostConfig& cost, std::int64_t bytes, Message::Op op,
                           double slow) {
    return price_message(cost, LinkPrice{cost.alpha_s, cost.beta_s_per_byte, false}, bytes, op,
                         slow);
}

LinkPrice link_between(const CostConfig& cost, int lane_a, int lane_b) {
    const Topology& t = cost.topology;
    if (!t.machines())
        return {cost.alpha_s, cost.beta_s_per_byte, false};
    const LinkSpec& link = t.node_of(lane_a) == t.node_of(lane_b) ? t.intra : t.inter;
    return {link.alpha_s(), link.beta_s_per_byte(), &link == &t.inter};
}

MessagePrice price_message(const CostConfig& cost, const LinkPrice& link, std::int64_t bytes,
                           Message::Op op, double slow) {
    const auto b = static_cast<double>(bytes);
    const double transfer = link.alpha_s + b * link.beta_s_per_byte;
    return {to_ticks(slow == 1.0 ? transfer : transfer * slow),
            op == Message::Op::Reduce ? to_ticks(b * cost.gamma_s_per_byte) : 0};
}

Ticks price_storage(const CostConfig& cost, std::uint64_t bytes, int syncs) {
    return to_ticks(static_cast<double>(bytes) * cost.checkpoint_s_per_byte +
                    static_cast<double>(syncs) * cost.fsync_s);
}

double slow_link_factor(const FailureConfig& failures, int worker, std::int64_t step) {
    double factor = 1.0;
    std::int64_t since = -1;
    for (const FailureSpec& f : failures.events)
        if (f.kind == FailureKind::SlowLink && f.worker == worker && f.step <= step &&
            f.step >= since) {
            factor = f.factor;
            since = f.step;
        }
    return factor;
}

CollectiveTime price_schedule(const CommSchedule& schedule, const Participants& who,
                              const CostConfig& cost, std::int64_t step, int first_round,
                              std::vector<TraceEvent>* events) {
    const std::size_t n = who.clocks.size();
    CollectiveTime time{std::vector<Ticks>(n, 0), std::vector<Ticks>(n, 0)};
    if (cost.communication_s_per_step)
        return time;
    std::vector<Ticks> out_free(n, 0), in_free(n, 0), start(n), end(n);
    // With machines: each machine's one way out to the network and one way in.
    const Topology& topology = cost.topology;
    const auto machines = static_cast<std::size_t>(topology.machines() ? topology.nodes : 0);
    std::vector<Ticks> node_out_free(machines, 0), node_in_free(machines, 0);
    std::vector<std::vector<std::pair<Ticks, Ticks>>> busy(n); // per participant, this round
    std::vector<std::size_t> touched, order;
    auto slow_of = [&](const Message& m) {
        if (who.slow.empty())
            return 1.0;
        return std::max(who.slow[static_cast<std::size_t>(m.src)],
                        who.slow[static_cast<std::size_t>(m.dst)]);
    };
    auto mark_busy = [&](std::size_t p, Ticks from, Ticks to) {
        if (busy[p].empty())
            touched.push_back(p);
        busy[p].emplace_back(from, to);
    };
    auto record = [&](const TraceEvent& e) {
        if (events)
            events->push_back(e);
    };

    for (std::size_t r = 0; r < schedule.rounds.size(); ++r) {
        const Round& round = schedule.rounds[r];
        const int ri = first_round + static_cast<int>(r);
        for (std::size_t p = 0; p < n; ++p)
            start[p] = end[p] = who.clocks[p];
        // The earliest ready message first; among equals, the round's order.
        auto ready = [&](const Message& m) {
            return std::max(start[static_cast<std::size_t>(m.src)],
                            start[static_cast<std::size_t>(m.dst)]);
        };
        order.resize(round.messages.size());
        std::iota(order.begin(), order.end(), std::size_t{0});
        auto earlier = [&](std::size_t a, std::size_t b) {
            return ready(round.messages[a]) < ready(round.messages[b]);
        };
        if (!std::is_sorted(order.begin(), order.end(), earlier))
            std::stable_sort(order.begin(), order.end(), earlier);

        for (const std::size_t index : order) {
            const Message& m = round.messages[index];
            const auto src = static_cast<std::size_t>(m.src);
            const auto dst = static_cast<std::size_t>(m.dst);
            const int a = who.lanes[src];
            const int b = who.lanes[dst];
            const LinkPrice link = link_between(cost, a, b);
            const double slow = slow_of(m);
            const MessagePrice price = price_message(cost, link, m.bytes(), m.op, slow);
            Ticks from = std::max({ready(m), out_free[src], in_free[dst]});
            if (link.between_nodes) {
                const auto up = static_cast<std::size_t>(topology.node_of(a));
                const auto down = static_cast<std::size_t>(topology.node_of(b));
                from = std::max({from, node_out_free[up], node_in_free[down]});
                const Ticks wire =
                    to_ticks(static_cast<double>(m.bytes()) * link.beta_s_per_byte * slow);
                node_out_free[up] = from + wire;
                node_in_free[down] = from + wire;
            }
            const Ticks to = from + price.transfer;
            const Ticks done = to + price.reduce;
            record({a, EventKind::Send, step, from, to, m.bytes(), b, ri});
            record({b, EventKind::Receive, step, from, to, m.bytes(), a, ri});
            if (done > to)
                record({b, EventKind::Reduce, step, to, done, m.bytes(), a, ri});
            mark_busy(src, from, to);
            mark_busy(dst, from, done);
            out_free[src] = to;
            in_free[dst] = done;
            end[src] = std::max(end[src], to);
            end[dst] = std::max(end[dst], done);
        }

        // Per participant, in time order: every gap since the round began is waiting; the
        // busy time is the union of its intervals (sends and receives overlap: full duplex).
        for (const std::size_t p : touched) {
            auto& list = busy[p];
            std::sort(list.begin(), list.end());
            Ticks at = start[p];
            for (const auto& [from, to] : list) {
                if (from > at) {
                    record({who.lanes[p], EventKind::Wait, step, at, from});
                    time.waiting[p] += from - at;
                }
                time.busy[p] += std::max<Ticks>(0, to - std::max(from, at));
                at = std::max(at, to);
            }
            list.clear();
        }
        touched.clear();
        for (std::size_t p = 0; p < n; ++p)
            who.clocks[p] = end[p];
    }
    return time;
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

double model_parallel_baseline_time_s(const Scenario& s, std::int64_t steps) {
    const int replicas =
        s.parallelism_mode() == Parallelism::Hybrid ? std::max(1, s.parallelism->replicas) : 1;
    const std::size_t global = s.batch * static_cast<std::size_t>(replicas);
    const Ticks per_step = to_ticks(compute_s_per_sample(s, global) * static_cast<double>(global)) +
                           to_ticks(s.cost.update_s);
    return to_seconds(per_step * steps);
}

} // namespace lockstep
