#include "collectives/schedule.h"

#include "core/error.h"

#include <algorithm>

namespace lockstep {

std::string_view to_string(Algorithm algorithm) {
    switch (algorithm) {
    case Algorithm::ParameterServer:
        return "parameter-server";
    case Algorithm::Ring:
        return "ring";
    case Algorithm::Tree:
        return "tree";
    case Algorithm::Hierarchical:
        return "hierarchical";
    case Algorithm::None:
        return "none";
    }
    return "ring";
}

bool parse_algorithm(std::string_view text, Algorithm& out) {
    for (auto a : {Algorithm::ParameterServer, Algorithm::Ring, Algorithm::Tree,
                   Algorithm::Hierarchical, Algorithm::None}) {
        if (text == to_string(a)) {
            out = a;
            return true;
        }
    }
    return false;
}

void CommSchedule::send_as(WirePrecision wire) {
    for (Round& round : rounds)
        for (Message& m : round.messages)
            m.wire = wire;
}

std::int64_t CommSchedule::total_bytes() const {
    std::int64_t total = 0;
    for (const auto& round : rounds)
        for (const auto& m : round.messages)
            total += m.bytes();
    return total;
}

std::vector<std::int64_t> CommSchedule::bytes_per_link() const {
    const auto n = static_cast<std::size_t>(workers);
    std::vector<std::int64_t> links(n * n, 0);
    for (const auto& round : rounds)
        for (const auto& m : round.messages)
            links[static_cast<std::size_t>(m.src) * n + static_cast<std::size_t>(m.dst)] +=
                m.bytes();
    return links;
}

std::vector<std::pair<int, int>> CommSchedule::links() const {
    const auto n = static_cast<std::size_t>(workers);
    std::vector<bool> seen(n * n, false);
    std::vector<std::pair<int, int>> out;
    for (const auto& round : rounds)
        for (const auto& m : round.messages) {
            const auto at = static_cast<std::size_t>(m.src) * n + static_cast<std::size_t>(m.dst);
            if (!seen[at]) {
                seen[at] = true;
                out.emplace_back(m.src, m.dst);
            }
        }
    return out;
}

std::int64_t CommSchedule::bytes_between_nodes(std::span<const int> node_of) const {
    std::int64_t total = 0;
    for (const auto& round : rounds)
        for (const auto& m : round.messages)
            if (node_of[static_cast<std::size_t>(m.src)] !=
                node_of[static_cast<std::size_t>(m.dst)])
                total += m.bytes();
    return total;
}

std::vector<std::pair<int, int>> schedule_links(Algorithm algorithm, int workers, int per_node) {
    if (workers < 2)
        return {};
    try {
        return make_schedule(algorithm, workers, static_cast<std::size_t>(workers), per_node)
            .links();
    } catch (const Error&) {
        return {}; // more workers than any schedule takes: no run has them
    }
}

CommSchedule make_schedule(Algorithm algorithm, int workers, std::size_t count, int per_node) {
    if (workers < 1 || workers > 256)
        throw Error("a collective needs 1 to 256 workers, got " + std::to_string(workers));
    switch (algorithm) {
    case Algorithm::ParameterServer:
        return parameter_server_schedule(workers, count);
    case Algorithm::Ring:
        return ring_schedule(workers, count);
    case Algorithm::Tree:
        return tree_schedule(workers, count);
    case Algorithm::Hierarchical:
        return hierarchical_schedule(workers, count, per_node > 0 ? per_node : workers);
    case Algorithm::None:
        break;
    }
    CommSchedule none;
    none.algorithm = Algorithm::None;
    none.workers = workers;
    none.count = count;
    return none;
}

} // namespace lockstep
