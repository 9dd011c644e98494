#include "collectives/schedule.h"

namespace lockstep {

// Round r: worker k passes piece (k - r) mod N to its right-hand neighbour, which stores it; a
// piece that is empty is not sent. After N-1 rounds every worker holds every piece.
CommSchedule ring_all_gather_schedule(std::span<const std::size_t> offsets) {
    const int n = static_cast<int>(offsets.size()) - 1;
    CommSchedule s;
    s.algorithm = Algorithm::Ring;
    s.workers = n;
    s.count = offsets.empty() ? 0 : offsets.back();
    for (int r = 0; r + 1 < n; ++r) {
        Round round{"all-gather", {}};
        for (int k = 0; k < n; ++k) {
            const auto piece = static_cast<std::size_t>(((k - r) % n + n) % n);
            const std::size_t begin = offsets[piece];
            const std::size_t end = offsets[piece + 1];
            if (end > begin)
                round.messages.push_back({k, (k + 1) % n, begin, end - begin, Message::Op::Copy});
        }
        s.rounds.push_back(std::move(round));
    }
    return s;
}

} // namespace lockstep
