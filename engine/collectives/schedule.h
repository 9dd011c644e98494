#pragma once

#include "collectives/precision.h"

#include <cstddef>
#include <cstdint>
#include <span>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace lockstep {

// How gradients travel between workers. `None` means no synchronisation at all: every replica
// trains on its own gradients and the replicas drift apart. `Hierarchical` needs machines.
enum class Algorithm { ParameterServer, Ring, Tree, Hierarchical, None };

std::string_view to_string(Algorithm algorithm);
bool parse_algorithm(std::string_view text, Algorithm& out);

// One message of a collective: `count` values starting at `offset` travel from worker `src`'s
// buffer to worker `dst`, where they are either added in (Reduce) or stored (Copy). They travel
// as `wire` values (collectives/precision.h), and a Reduce adds in that format.
struct Message {
    enum class Op { Reduce, Copy };
    int src = 0;
    int dst = 0;
    std::size_t offset = 0;
    std::size_t count = 0;
    Op op = Op::Reduce;
    WirePrecision wire = WirePrecision::Float64;

    std::int64_t bytes() const { return static_cast<std::int64_t>(count * bytes_per_value(wire)); }
};

// Messages that are in flight at the same time. Within a round no message reads a range that
// another message of the round writes, so their order inside the round does not matter for the
// result (a destination applies its messages in the listed order).
struct Round {
    std::string phase; // "gather", "broadcast", "reduce-scatter", "all-gather", "reduce"
    std::vector<Message> messages;
};

// A whole all-reduce written out round by round. Algorithms produce schedules; a transport moves
// the bytes (collectives/transport.h); the cost model prices them (clocks/cost_model.h). Threads
// and processes run the same schedule, so they add in the same order and give the same bits.
struct CommSchedule {
    Algorithm algorithm = Algorithm::Ring;
    int workers = 1;
    std::size_t count = 0; // doubles per worker buffer
    std::vector<Round> rounds;

    // Every message travels as `wire` values from now on: its bytes and its additions follow.
    void send_as(WirePrecision wire);
    std::int64_t total_bytes() const;
    // Bytes that cross each directed link (src -> dst) over the whole schedule.
    std::vector<std::int64_t> bytes_per_link() const; // index src * workers + dst
    // Every directed link (src, dst) that carries a message, in the order of its first message:
    // the schedule's topology.
    std::vector<std::pair<int, int>> links() const;
    // Bytes that cross from one machine to another, participant p sitting in machine
    // `node_of[p]`.
    std::int64_t bytes_between_nodes(std::span<const int> node_of) const;
};

// Gather every buffer to `root`, add them there in worker order, send the sum back.
CommSchedule parameter_server_schedule(int workers, std::size_t count, int root = 0);
// Reduce-scatter then all-gather around the ring 0 -> 1 -> ... -> N-1 -> 0; chunk c is
// [floor(c*n/N), floor((c+1)*n/N)), so any N and any length work (chunks may be uneven or empty).
CommSchedule ring_schedule(int workers, std::size_t count);
// Binary-tree reduce to worker 0 (round r: worker k+2^r sends to k) then the mirror broadcast.
CommSchedule tree_schedule(int workers, std::size_t count);
// Reduce-scatter inside each machine of `per_node` workers, K ring all-reduces across machines
// (one per place in a machine), all-gather inside (hierarchical.cpp). Throws lockstep::Error
// when the workers do not fill the machines evenly.
CommSchedule hierarchical_schedule(int workers, std::size_t count, int per_node);
// `per_node`: the workers in each machine, for the hierarchical all-reduce (0: one machine).
CommSchedule make_schedule(Algorithm algorithm, int workers, std::size_t count, int per_node = 0);
// The links of `algorithm`'s schedule among `workers` workers (CommSchedule::links() of a buffer
// that gives every worker a chunk); none for `None`, fewer than two workers, or more than any
// schedule takes.
std::vector<std::pair<int, int>> schedule_links(Algorithm algorithm, int workers, int per_node = 0);

// An all-gather around the ring 0 -> 1 -> ... -> N-1 -> 0 of pieces that start at `offsets`
// (N + 1 entries, the last the buffer's length): in round r, worker k passes piece (k - r) mod N
// to k + 1, which stores it. After N-1 rounds every worker holds every piece.
CommSchedule ring_all_gather_schedule(std::span<const std::size_t> offsets);

} // namespace lockstep
