#pragma once

// Two ways of running a collective's schedule that the engine's in-process transport must match
// bit for bit: one thread message by message, and ranks that share nothing but messages.

#include "collectives/reduction.h"
#include "collectives/transport.h"

#include <atomic>
#include <condition_variable>
#include <cstring>
#include <map>
#include <mutex>
#include <span>
#include <thread>
#include <utility>
#include <vector>

namespace lockstep::testing {

// Applies one message between buffers in one address space.
inline void apply_message(const Message& m, std::span<const std::span<double>> buffers) {
    if (m.count == 0)
        return;
    auto from = buffers[static_cast<std::size_t>(m.src)].subspan(m.offset, m.count);
    auto into = buffers[static_cast<std::size_t>(m.dst)].subspan(m.offset, m.count);
    if (m.op == Message::Op::Reduce)
        accumulate_in(m.wire, into, from);
    else
        std::memcpy(into.data(), from.data(), m.count * sizeof(double));
}

// The schedule executed on one thread, message by message, in the listed order.
inline void run_all_reduce_serial(const CommSchedule& schedule,
                                  std::span<const std::span<double>> buffers) {
    for (const auto& round : schedule.rounds)
        for (const auto& m : round.messages)
            apply_message(m, buffers);
}

// A transport in the manner of a process-based one: each rank runs on its own thread and holds
// only its own buffer. A send copies the bytes out of the sender's buffer into a mailbox; a
// receive blocks until its message has arrived, then adds or stores it. Nothing is shared but the
// mailboxes, as between processes.
class MailboxTransport final : public Transport {
public:
    explicit MailboxTransport(int ranks)
        : round_of_(static_cast<std::size_t>(ranks), 0) {}

    void execute(const Round& round, int rank, std::span<double> mine) override {
        const int r = round_of_[static_cast<std::size_t>(rank)]++;
        for (std::size_t i = 0; i < round.messages.size(); ++i) {
            const Message& m = round.messages[i];
            if (m.src != rank)
                continue;
            std::vector<double> bytes(mine.begin() + static_cast<std::ptrdiff_t>(m.offset),
                                      mine.begin() +
                                          static_cast<std::ptrdiff_t>(m.offset + m.count));
            const std::lock_guard lock(mutex_);
            box_[{r, i}] = std::move(bytes);
            arrived_.notify_all();
        }
        for (std::size_t i = 0; i < round.messages.size(); ++i) {
            const Message& m = round.messages[i];
            if (m.dst != rank)
                continue;
            std::vector<double> bytes;
            {
                std::unique_lock lock(mutex_);
                arrived_.wait(lock, [&] { return box_.count({r, i}) > 0; });
                bytes = std::move(box_[{r, i}]);
                box_.erase({r, i});
            }
            auto into = mine.subspan(m.offset, m.count);
            if (m.op == Message::Op::Reduce)
                accumulate_in(m.wire, into, bytes);
            else
                std::copy(bytes.begin(), bytes.end(), into.begin());
            ++received_;
        }
    }

    // Every rank's whole collective on its own thread.
    void run(const CommSchedule& schedule, std::span<const std::span<double>> buffers) {
        std::vector<std::thread> ranks;
        for (int k = 0; k < schedule.workers; ++k)
            ranks.emplace_back(
                [&, k] { run_rank(schedule, *this, k, buffers[static_cast<std::size_t>(k)]); });
        for (auto& t : ranks)
            t.join();
    }

    std::size_t messages_in_flight() const { return box_.size(); }
    std::size_t received() const { return received_; }

private:
    std::vector<int> round_of_; // per rank: the round it executes next
    std::mutex mutex_;
    std::condition_variable arrived_;
    std::map<std::pair<int, std::size_t>, std::vector<double>> box_; // (round, message) -> bytes
    std::atomic<std::size_t> received_{0};
};

} // namespace lockstep::testing
