#pragma once

#include "collectives/schedule.h"

#include <cstddef>
#include <span>
#include <vector>

namespace lockstep {

// Moves the bytes of a schedule, one rank at a time: a rank only ever touches its own buffer.
// In each round a rank sends, from its buffer, the ranges its messages with `src == rank` name,
// and receives the messages with `dst == rank`, adding them in (Reduce) or storing them (Copy)
// in the order the round lists them. So the order of additions, and therefore the bits, are the
// schedule's, whatever runs the ranks: tasks in one process or processes on several machines.
class Transport {
public:
    virtual ~Transport() = default;
    // Rank `rank`'s part of `round` on `mine` (the schedule's count long). Every rank executes
    // every round, rounds in order; a rank's round is over once its receives are applied.
    virtual void execute(const Round& round, int rank, std::span<double> mine) = 0;
};

// What one rank does in a whole collective: every round of `schedule`, in order. The loop a
// process-based backend runs in each process.
void run_rank(const CommSchedule& schedule, Transport& transport, int rank, std::span<double> mine);

// N ranks in one process, each round's ranks run as TBB tasks; the join of a round is the barrier
// before the next. The ranks share one address space, so a send needs no copy: a receiver reads
// the range straight from its sender's attached buffer (the round's rule that no message reads
// what another writes makes that safe). A rank's task never waits for another task.
class InProcessTransport final : public Transport {
public:
    // The buffers of the ranks for the collective that follows, rank k's at index k; they must
    // stay alive while it runs.
    void attach(std::span<const std::span<double>> buffers);
    void execute(const Round& round, int rank, std::span<double> mine) override;
    // Every attached rank's part of `round` at once.
    void run_round(const Round& round);

private:
    void receive(const Round& round, std::span<const std::size_t> messages,
                 std::span<double> mine) const;

    std::vector<std::span<double>> buffers_;
    std::vector<std::vector<std::size_t>> by_destination_; // this round's messages per rank
};

// Runs every round of `schedule` over `buffers` (one per rank, each `schedule.count` long) on the
// in-process transport. Afterwards every buffer holds the sum of all inputs, bitwise identical
// on every rank. Throws lockstep::Error when the buffers do not fit the schedule.
void run_all_reduce(const CommSchedule& schedule, InProcessTransport& transport,
                    std::span<const std::span<double>> buffers);

} // namespace lockstep
