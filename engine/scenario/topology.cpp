#include "scenario/topology.h"

#include "core/error.h"
#include "scenario/json_reader.h"
#include "scenario/scenario.h"

#include <algorithm>
#include <string>

// The scenario's "topology": read, checked and written back.

namespace lockstep::scenario_reading {

namespace {

constexpr double max_latency_us = 1e6;        // a second
constexpr double min_bandwidth_mbit_s = 1e-3; // a kilobit a second
constexpr double max_bandwidth_mbit_s = 1e7;  // 10 Tbit/s

void read_link(ObjectReader& root, const std::string& key, LinkSpec& link) {
    const json* v = root.find(key);
    if (!v)
        return;
    ObjectReader r(*v, "topology." + key);
    r.read_number("latency_us", link.latency_us, 0.0, max_latency_us);
    r.read_number("bandwidth_mbit_s", link.bandwidth_mbit_s, min_bandwidth_mbit_s,
                  max_bandwidth_mbit_s);
    r.reject_unknown();
}

void check_link(const std::string& path, const LinkSpec& link) {
    check_finite(path + ".latency_us", link.latency_us, 0.0, max_latency_us);
    check_finite(path + ".bandwidth_mbit_s", link.bandwidth_mbit_s, min_bandwidth_mbit_s,
                 max_bandwidth_mbit_s);
}

} // namespace

void parse_topology(ObjectReader& root, Scenario& s) {
    const json* v = root.find("topology");
    if (!v)
        return;
    ObjectReader r(*v, "topology");
    Topology& t = s.cost.topology;
    if (!r.find("nodes"))
        throw Error("topology.nodes: required, the number of machines (1 to " +
                    std::to_string(ScenarioLimits::max_workers) + ")");
    r.read_count("nodes", t.nodes, 1, ScenarioLimits::max_workers);
    t.workers_per_node = 0;
    r.read_count("workers_per_node", t.workers_per_node, 1, ScenarioLimits::max_workers);
    if (t.workers_per_node == 0) { // not given: the workers shared out evenly
        if (s.workers % t.nodes != 0)
            throw Error("topology.nodes: " + std::to_string(s.workers) +
                        " workers cannot be shared evenly among " + std::to_string(t.nodes) +
                        " machines; give topology.workers_per_node, or a number of machines that "
                        "divides the workers");
        t.workers_per_node = s.workers / t.nodes;
    }
    read_link(r, "intra", t.intra);
    read_link(r, "inter", t.inter);
    r.reject_unknown();
}

json topology_json(const Topology& t) {
    return {{"nodes", t.nodes},
            {"workers_per_node", t.workers_per_node},
            {"intra",
             {{"latency_us", t.intra.latency_us}, {"bandwidth_mbit_s", t.intra.bandwidth_mbit_s}}},
            {"inter",
             {{"latency_us", t.inter.latency_us}, {"bandwidth_mbit_s", t.inter.bandwidth_mbit_s}}}};
}

void validate_topology(const Scenario& s) {
    const Topology& t = s.cost.topology;
    check_range("topology.nodes", t.nodes, 1, ScenarioLimits::max_workers);
    check_link("topology.intra", t.intra);
    check_link("topology.inter", t.inter);
    if (s.algorithm == Algorithm::Hierarchical && !t.machines())
        throw Error("algorithm: hierarchical reduces inside each machine first, then between "
                    "machines; it needs machines (a \"topology\", or --nodes)");
    if (!t.machines())
        return;
    const int k = t.workers_per_node;
    const int needed = (s.workers + k - 1) / k;
    if (needed != t.nodes)
        throw Error("topology: " + std::to_string(s.workers) + " workers, " + std::to_string(k) +
                    " to a machine, fill " + std::to_string(needed) +
                    " machines, but "
                    "topology.nodes says " +
                    std::to_string(t.nodes));
    if (s.algorithm == Algorithm::Hierarchical && !t.even(s.workers))
        throw Error("algorithm: hierarchical needs machines of equal size; " +
                    std::to_string(s.workers) + " workers, " + std::to_string(k) +
                    " to a machine, leave the last machine " + std::to_string(s.workers % k));
    if (s.model_parallel())
        throw Error("topology: machines are modelled for data parallelism; parallelism.mode is \"" +
                    std::string(to_string(s.parallelism->mode)) +
                    "\", whose links between machines are not priced yet");
    if (s.algorithm == Algorithm::Hierarchical && s.failures.policy == RecoveryPolicy::Elastic)
        throw Error("failures.policy: elastic goes on without a crashed worker, which leaves its "
                    "machine one worker short; the hierarchical all-reduce needs machines of equal "
                    "size (use policy restart, or algorithm ring)");
}

} // namespace lockstep::scenario_reading

namespace lockstep {

void fit_machines(Scenario& s) {
    Topology& t = s.cost.topology;
    if (!t.machines())
        return;
    t.nodes = std::max(1, (s.workers + t.workers_per_node - 1) / t.workers_per_node);
    if (s.algorithm == Algorithm::Hierarchical && !t.even(s.workers))
        s.algorithm = Algorithm::Ring;
}

} // namespace lockstep
