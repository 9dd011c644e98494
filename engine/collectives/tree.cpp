#include "collectives/schedule.h"

namespace lockstep {

// A binary-tree all-reduce. Reduce: in round r, every worker k that is a multiple of 2^(r+1) and
// has a partner k + 2^r receives that partner's partial sum and adds it; after ceil(log2 N) rounds
// worker 0 holds the total. Broadcast: the same pairs in reverse order copy the total back down.
// Fewer rounds than the ring (2 log2 N against 2(N-1)) but every round moves the whole buffer.
CommSchedule tree_schedule(int workers, std::size_t count) {
    CommSchedule s;
    s.algorithm = Algorithm::Tree;
    s.workers = workers;
    s.count = count;

    std::vector<int> strides;
    for (int stride = 1; stride < workers; stride *= 2)
        strides.push_back(stride);

    for (int stride : strides) {
        Round round{"reduce", {}};
        for (int k = 0; k + stride < workers; k += 2 * stride)
            round.messages.push_back({k + stride, k, 0, count, Message::Op::Reduce});
        s.rounds.push_back(std::move(round));
    }
    for (auto it = strides.rbegin(); it != strides.rend(); ++it) {
        const int stride = *it;
        Round round{"broadcast", {}};
        for (int k = 0; k + stride < workers; k += 2 * stride)
            round.messages.push_back({k, k + stride, 0, count, Message::Op::Copy});
        s.rounds.push_back(std::move(round));
    }
    return s;
}

} // namespace lockstep
