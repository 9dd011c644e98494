#include "collectives/collective.h"

#include "core/error.h"
#include "collectives/reduction.h"

#include <oneapi/tbb/parallel_for.h>

#include <algorithm>
#include <cstring>

namespace lockstep {

std::string_view to_string(Algorithm algorithm) {
    switch (algorithm) {
    case Algorithm::ParameterServer:
        return "parameter-server";
    case Algorithm::Ring:
        return "ring";
    case Algorithm::Tree:
        return "tree";
    case Algorithm::None:
        return "none";
    }
    return "ring";
}

bool parse_algorithm(std::string_view text, Algorithm& out) {
    for (auto a : {Algorithm::ParameterServer, Algorithm::Ring, Algorithm::Tree, Algorithm::None}) {
        if (text == to_string(a)) {
            out = a;
            return true;
        }
    }
    return false;
}

std::int64_t CommSchedule::total_bytes() const {
    std::int64_t total = 0;
    for (const auto& round : rounds)
        for (const auto& m : round.messages)
            total += m.bytes();
    return total;
}

std::vector<std::int64_t> CommSchedule::bytes_per_link() const {
    const auto n = static_cast<std::size_t>(workers);
    std::vector<std::int64_t> links(n * n, 0);
    for (const auto& round : rounds)
        for (const auto& m : round.messages)
            links[static_cast<std::size_t>(m.src) * n + static_cast<std::size_t>(m.dst)] +=
                m.bytes();
    return links;
}

CommSchedule make_schedule(Algorithm algorithm, int workers, std::size_t count) {
    if (workers < 1 || workers > 256)
        throw Error("a collective needs 1 to 256 workers, got " + std::to_string(workers));
    switch (algorithm) {
    case Algorithm::ParameterServer:
        return parameter_server_schedule(workers, count);
    case Algorithm::Ring:
        return ring_schedule(workers, count);
    case Algorithm::Tree:
        return tree_schedule(workers, count);
    case Algorithm::None:
        break;
    }
    CommSchedule none;
    none.algorithm = Algorithm::None;
    none.workers = workers;
    none.count = count;
    return none;
}

// Applies one message: the destination reads the sender's bytes and adds or stores them.
static void apply_message(const Message& m, std::span<const std::span<double>> buffers) {
    if (m.count == 0)
        return;
    auto from = buffers[static_cast<std::size_t>(m.src)].subspan(m.offset, m.count);
    auto into = buffers[static_cast<std::size_t>(m.dst)].subspan(m.offset, m.count);
    if (m.op == Message::Op::Reduce)
        accumulate(into, from);
    else
        std::memcpy(into.data(), from.data(), m.count * sizeof(double));
}

void InProcessTransport::execute(const Round& round, std::span<const std::span<double>> buffers) {
    // Group messages by destination, keeping their order: a destination receives one at a time.
    by_destination_.resize(buffers.size());
    for (auto& list : by_destination_)
        list.clear();
    for (std::size_t i = 0; i < round.messages.size(); ++i)
        by_destination_[static_cast<std::size_t>(round.messages[i].dst)].push_back(i);

    // Large single messages (the parameter server's broadcast, two-worker rings) are split into
    // slices so both cores help; slices of one message never overlap.
    constexpr std::size_t kSlice = 1u << 16;
    tbb::parallel_for(std::size_t{0}, buffers.size(), [&](std::size_t dst) {
        for (std::size_t index : by_destination_[dst]) {
            const Message& m = round.messages[index];
            if (m.count <= kSlice) {
                apply_message(m, buffers);
                continue;
            }
            const std::size_t slices = (m.count + kSlice - 1) / kSlice;
            tbb::parallel_for(std::size_t{0}, slices, [&](std::size_t s) {
                Message part = m;
                part.offset = m.offset + s * kSlice;
                part.count = std::min(kSlice, m.count - s * kSlice);
                apply_message(part, buffers);
            });
        }
    });
}

void run_all_reduce(const CommSchedule& schedule, Transport& transport,
                    std::span<const std::span<double>> buffers) {
    if (buffers.size() != static_cast<std::size_t>(schedule.workers))
        throw Error("all-reduce: one buffer per worker expected");
    for (const auto& b : buffers)
        if (b.size() != schedule.count)
            throw Error("all-reduce: every buffer must hold the schedule's element count");
    for (const auto& round : schedule.rounds)
        transport.execute(round, buffers);
}

void run_all_reduce_serial(const CommSchedule& schedule,
                           std::span<const std::span<double>> buffers) {
    for (const auto& round : schedule.rounds)
        for (const auto& m : round.messages)
            apply_message(m, buffers);
}

} // namespace lockstep
