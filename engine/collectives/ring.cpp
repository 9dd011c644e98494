#include "collectives/schedule.h"

namespace lockstep {

// Chunk c of a buffer of n values split N ways: [floor(c*n/N), floor((c+1)*n/N)).
static std::size_t chunk_begin(std::size_t c, std::size_t n, int workers) {
    return c * n / static_cast<std::size_t>(workers);
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
    const auto n = static_cast<std::size_t>(workers);
    auto add_round = [&](const char* phase, int r, Message::Op op, int shift) {
        Round round{phase, {}};
        for (int k = 0; k < workers; ++k) {
            const auto c =
                static_cast<std::size_t>(((k - r + shift) % workers + workers) % workers);
            const std::size_t begin = chunk_begin(c, count, workers);
            const std::size_t end = chunk_begin(c + 1, count, workers);
            if (end > begin)
                round.messages.push_back({k,
                                          static_cast<int>((static_cast<std::size_t>(k) + 1) % n),
                                          begin, end - begin, op});
        }
        s.rounds.push_back(std::move(round));
    };
    for (int r = 0; r < workers - 1; ++r)
        add_round("reduce-scatter", r, Message::Op::Reduce, 0);
    for (int r = 0; r < workers - 1; ++r)
        add_round("all-gather", r, Message::Op::Copy, 1);
    return s;
}

} // namespace lockstep
