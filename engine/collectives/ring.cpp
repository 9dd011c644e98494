#include "collectives/ring_rounds.h"

#include <numeric>

namespace lockstep {

void detail::add_ring_half(std::vector<Round>& rounds, std::size_t first,
                           std::span<const int> members, std::size_t begin, std::size_t end,
                           RingHalf half) {
    const int g = static_cast<int>(members.size());
    const bool reduce = half == RingHalf::ReduceScatter;
    const int shift = reduce ? 0 : 1;
    for (int r = 0; r < g - 1; ++r) {
        const std::size_t at = first + static_cast<std::size_t>(r);
        if (rounds.size() <= at)
            rounds.resize(at + 1, Round{reduce ? "reduce-scatter" : "all-gather", {}});
        for (int k = 0; k < g; ++k) {
            const auto c = static_cast<std::size_t>(((k - r + shift) % g + g) % g);
            const auto parts = static_cast<std::size_t>(g);
            const std::size_t from = chunk_begin(begin, end, c, parts);
            const std::size_t to = chunk_begin(begin, end, c + 1, parts);
            if (to > from)
                rounds[at].messages.push_back({members[static_cast<std::size_t>(k)],
                                               members[static_cast<std::size_t>((k + 1) % g)], from,
                                               to - from,
                                               reduce ? Message::Op::Reduce : Message::Op::Copy});
        }
    }
}

// The ring all-reduce. Reduce-scatter: in round r, worker k sends chunk (k - r) mod N to its
// right-hand neighbour, which adds it to its own copy; after N-1 rounds worker k holds the full
// sum of chunk (k + 1) mod N. All-gather: N-1 more rounds pass those finished chunks around the
// ring, stored instead of added. Each worker sends 2(N-1)/N of the buffer: the least possible.
CommSchedule ring_schedule(int workers, std::size_t count) {
    CommSchedule s;
    s.algorithm = Algorithm::Ring;
    s.workers = workers;
    s.count = count;
    std::vector<int> everyone(static_cast<std::size_t>(workers));
    std::iota(everyone.begin(), everyone.end(), 0);
    const auto half = static_cast<std::size_t>(workers - 1);
    detail::add_ring_half(s.rounds, 0, everyone, 0, count, detail::RingHalf::ReduceScatter);
    detail::add_ring_half(s.rounds, half, everyone, 0, count, detail::RingHalf::AllGather);
    return s;
}

} // namespace lockstep
