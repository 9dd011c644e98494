#include "collectives/schedule.h"

namespace lockstep {

// The parameter server: every worker sends its whole buffer to the root, which adds them in worker
// order; then the root sends the sum back to everyone. Every byte passes through the root's link,
// 2(N-1)n bytes per all-reduce, which is why it stops scaling.
CommSchedule parameter_server_schedule(int workers, std::size_t count, int root) {
    CommSchedule s;
    s.algorithm = Algorithm::ParameterServer;
    s.workers = workers;
    s.count = count;
    if (workers == 1)
        return s;

    Round gather{"gather", {}};
    for (int k = 0; k < workers; ++k)
        if (k != root)
            gather.messages.push_back({k, root, 0, count, Message::Op::Reduce});
    Round broadcast{"broadcast", {}};
    for (int k = 0; k < workers; ++k)
        if (k != root)
            broadcast.messages.push_back({root, k, 0, count, Message::Op::Copy});
    s.rounds.push_back(std::move(gather));
    s.rounds.push_back(std::move(broadcast));
    return s;
}

} // namespace lockstep
