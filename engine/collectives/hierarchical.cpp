#include "collectives/ring_rounds.h"
#include "core/error.h"

#include <string>

namespace lockstep {

// The hierarchical all-reduce over M machines of K workers (worker w in machine w / K, at place
// w mod K in it). Three phases, each a set of rings that run side by side:
//  1. inside each machine, a ring reduce-scatter: the worker at place j ends with its machine's
//     sum of chunk (j + 1) mod K of the buffer;
//  2. across machines, K ring all-reduces, one per place j among the M workers at place j, each
//     over chunk (j + 1) mod K alone: now every machine holds the total of its chunks;
//  3. inside each machine, a ring all-gather of the K chunks.
// The slow network between machines carries only phase 2: 2(M-1)/M of the buffer each way over
// each machine's link, in 2(M-1) rounds; a flat ring of all N workers pays 2(N-1)/N and 2(N-1).
CommSchedule hierarchical_schedule(int workers, std::size_t count, int per_node) {
    if (per_node < 1 || workers % per_node != 0)
        throw Error("hierarchical all-reduce: " + std::to_string(workers) +
                    " workers do not fill machines of " + std::to_string(per_node) + " evenly");
    const int k = per_node;
    const int m = workers / per_node;
    CommSchedule s;
    s.algorithm = Algorithm::Hierarchical;
    s.workers = workers;
    s.count = count;
    const auto inside = static_cast<std::size_t>(k - 1);
    const auto across = static_cast<std::size_t>(m - 1);

    std::vector<int> machine(static_cast<std::size_t>(k));
    for (int node = 0; node < m; ++node) {
        for (int j = 0; j < k; ++j)
            machine[static_cast<std::size_t>(j)] = node * k + j;
        detail::add_ring_half(s.rounds, 0, machine, 0, count, detail::RingHalf::ReduceScatter);
    }
    std::vector<int> place(static_cast<std::size_t>(m));
    for (int j = 0; j < k; ++j) {
        for (int node = 0; node < m; ++node)
            place[static_cast<std::size_t>(node)] = node * k + j;
        const auto c = static_cast<std::size_t>((j + 1) % k);
        const auto parts = static_cast<std::size_t>(k);
        const std::size_t begin = detail::chunk_begin(0, count, c, parts);
        const std::size_t end = detail::chunk_begin(0, count, c + 1, parts);
        detail::add_ring_half(s.rounds, inside, place, begin, end, detail::RingHalf::ReduceScatter);
        detail::add_ring_half(s.rounds, inside + across, place, begin, end,
                              detail::RingHalf::AllGather);
    }
    for (int node = 0; node < m; ++node) {
        for (int j = 0; j < k; ++j)
            machine[static_cast<std::size_t>(j)] = node * k + j;
        detail::add_ring_half(s.rounds, inside + 2 * across, machine, 0, count,
                              detail::RingHalf::AllGather);
    }
    return s;
}

} // namespace lockstep
