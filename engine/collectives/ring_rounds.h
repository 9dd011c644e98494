#pragma once

// A ring among some of a schedule's workers, written into its rounds (engine internal,
// collectives/*.cpp): the flat ring is one ring of every worker; the hierarchical all-reduce
// runs rings inside machines and rings across them side by side in the same rounds.

#include "collectives/schedule.h"

#include <cstddef>
#include <span>
#include <vector>

namespace lockstep::detail {

// Which half of a ring all-reduce: reduce-scatter adds, all-gather stores.
enum class RingHalf { ReduceScatter, AllGather };

// Appends `half` of a ring all-reduce among `members` (in ring order: member k sends to member
// k + 1) over the values [begin, end), cut members.size() ways as chunk c = [begin + c*len/G,
// begin + (c+1)*len/G). Round r of the half goes into rounds[first + r] (created as needed, named
// after the half); a member's messages follow those already there. After the reduce-scatter,
// member k holds the sum of chunk (k + 1) mod G; the all-gather passes those chunks on.
void add_ring_half(std::vector<Round>& rounds, std::size_t first, std::span<const int> members,
                   std::size_t begin, std::size_t end, RingHalf half);

// Chunk c of [begin, end) cut `parts` ways.
inline std::size_t chunk_begin(std::size_t begin, std::size_t end, std::size_t c,
                               std::size_t parts) {
    return begin + c * (end - begin) / parts;
}

} // namespace lockstep::detail
