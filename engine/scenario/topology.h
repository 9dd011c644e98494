#pragma once

// Machines and the links between them: K workers in each of M machines, a fast link inside a
// machine and a slow network between machines. Workers are numbered machine by machine: worker w
// sits in machine w / K. Without machines every link is the scenario's one network
// (cost.alpha_s, cost.beta_s_per_byte), as it always was.

#include <algorithm>

namespace lockstep {

// A link as a teacher names it: one message's latency, and the bandwidth the bytes go at.
struct LinkSpec {
    double latency_us = 0.0;
    double bandwidth_mbit_s = 0.0;

    double alpha_s() const { return latency_us * 1e-6; }
    double beta_s_per_byte() const { return 8.0 / (bandwidth_mbit_s * 1e6); }
    bool operator==(const LinkSpec&) const = default;
};

struct Topology {
    int nodes = 1;            // machines
    int workers_per_node = 0; // K (the last machine may hold fewer); 0: no machines at all
    // A fast machine inside (2 µs, 10 GB/s) and a school's network between (100 µs, 100 Mbit/s).
    LinkSpec intra{2.0, 80'000.0};
    LinkSpec inter{100.0, 100.0};

    // The scenario puts its workers in machines (one or more).
    bool machines() const { return workers_per_node > 0; }
    // Every machine holds K workers, as the hierarchical all-reduce needs.
    bool even(int workers) const { return machines() && workers == nodes * workers_per_node; }
    // The machine of trace lane (worker) `lane`; 0 without machines.
    int node_of(int lane) const {
        return machines() ? std::min(lane / workers_per_node, nodes - 1) : 0;
    }
    bool operator==(const Topology&) const = default;
};

} // namespace lockstep
