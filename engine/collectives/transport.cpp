#include "collectives/transport.h"

#include "collectives/reduction.h"
#include "core/error.h"

#include <oneapi/tbb/parallel_for.h>

#include <algorithm>
#include <cstring>

namespace lockstep {

void run_rank(const CommSchedule& schedule, Transport& transport, int rank,
              std::span<double> mine) {
    if (rank < 0 || rank >= schedule.workers)
        throw Error("all-reduce: rank " + std::to_string(rank) + " is not in a group of " +
                    std::to_string(schedule.workers));
    if (mine.size() != schedule.count)
        throw Error("all-reduce: every buffer must hold the schedule's element count");
    for (const auto& round : schedule.rounds)
        transport.execute(round, rank, mine);
}

void InProcessTransport::attach(std::span<const std::span<double>> buffers) {
    buffers_.assign(buffers.begin(), buffers.end());
}

// Applies the messages a rank receives, in the round's order: each reads its range from the
// sender's buffer and adds it in or stores it. Large single messages (the parameter server's
// broadcast, two-rank rings) are split into slices so both cores help; slices never overlap.
void InProcessTransport::receive(const Round& round, std::span<const std::size_t> messages,
                                 std::span<double> mine) const {
    auto apply = [&](const Message& m, std::size_t offset, std::size_t count) {
        const auto from = std::span<const double>(buffers_[static_cast<std::size_t>(m.src)])
                              .subspan(offset, count);
        const auto into = mine.subspan(offset, count);
        if (m.op == Message::Op::Reduce)
            accumulate_in(m.wire, into, from);
        else
            std::memcpy(into.data(), from.data(), count * sizeof(double));
    };
    constexpr std::size_t kSlice = 1u << 16;
    for (const std::size_t index : messages) {
        const Message& m = round.messages[index];
        if (m.count <= kSlice) {
            if (m.count > 0)
                apply(m, m.offset, m.count);
            continue;
        }
        const std::size_t slices = (m.count + kSlice - 1) / kSlice;
        tbb::parallel_for(std::size_t{0}, slices, [&](std::size_t s) {
            apply(m, m.offset + s * kSlice, std::min(kSlice, m.count - s * kSlice));
        });
    }
}

void InProcessTransport::execute(const Round& round, int rank, std::span<double> mine) {
    // Sends cost nothing here: the attached buffer is where the receivers read. A rank that is
    // called on its own looks up its receives first.
    if (static_cast<std::size_t>(rank) >= buffers_.size())
        throw Error("all-reduce: rank " + std::to_string(rank) + " has no attached buffer");
    std::vector<std::size_t> mine_to_receive;
    for (std::size_t i = 0; i < round.messages.size(); ++i)
        if (round.messages[i].dst == rank)
            mine_to_receive.push_back(i);
    receive(round, mine_to_receive, mine);
}

void InProcessTransport::run_round(const Round& round) {
    // Index the round once (receives per rank, in order), then every rank's task applies its own.
    by_destination_.resize(buffers_.size());
    for (auto& list : by_destination_)
        list.clear();
    for (std::size_t i = 0; i < round.messages.size(); ++i)
        by_destination_[static_cast<std::size_t>(round.messages[i].dst)].push_back(i);
    tbb::parallel_for(std::size_t{0}, buffers_.size(), [&](std::size_t rank) {
        receive(round, by_destination_[rank], buffers_[rank]);
    });
}

void run_all_reduce(const CommSchedule& schedule, InProcessTransport& transport,
                    std::span<const std::span<double>> buffers) {
    if (buffers.size() != static_cast<std::size_t>(schedule.workers))
        throw Error("all-reduce: one buffer per worker expected");
    for (const auto& b : buffers)
        if (b.size() != schedule.count)
            throw Error("all-reduce: every buffer must hold the schedule's element count");
    transport.attach(buffers);
    for (const auto& round : schedule.rounds)
        transport.run_round(round);
}

} // namespace lockstep
