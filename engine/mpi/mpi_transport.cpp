#include "mpi/mpi_transport.h"

#include "collectives/reduction.h"
#include "core/error.h"
#include "mpi/heartbeat.h"

#include <algorithm>
#include <climits>
#include <string>

namespace lockstep::mpi {

namespace {

void check(int code, const char* what) {
    if (code == MPI_SUCCESS)
        return;
    char text[MPI_MAX_ERROR_STRING];
    int length = 0;
    MPI_Error_string(code, text, &length);
    throw Error(std::string(what) + ": " + std::string(text, static_cast<std::size_t>(length)));
}

int count_of(std::size_t count) {
    if (count > static_cast<std::size_t>(INT_MAX))
        throw Error("all-reduce: a message of " + std::to_string(count) +
                    " values is more than one MPI message takes");
    return static_cast<int>(count);
}

// Scratch slot `i`, made if it is not there yet.
template <class T> std::vector<T>& slot(std::vector<std::vector<T>>& slots, std::size_t i) {
    if (slots.size() <= i)
        slots.resize(i + 1);
    return slots[i];
}

} // namespace

void MpiTransport::execute(const Round& round, int rank, std::span<double> mine) {
    sends_.clear();
    receives_.clear();
    send_peers_.clear();
    receive_peers_.clear();
    received_.clear();
    std::size_t values = 0, bytes = 0; // scratch slots in use
    for (std::size_t i = 0; i < round.messages.size(); ++i) {
        const Message& m = round.messages[i];
        if (m.dst != rank || m.count == 0)
            continue;
        Arrival arrival{i, 0, 0};
        void* into = mine.data() + m.offset; // a float64 Copy arrives in place
        if (m.op == Message::Op::Reduce) {
            arrival.values = values++;
            slot(incoming_, arrival.values).resize(m.count);
            into = incoming_[arrival.values].data();
        }
        MPI_Datatype type = MPI_DOUBLE;
        int count = count_of(m.count);
        if (m.wire != WirePrecision::Float64) { // the format's bytes, decoded once they are in
            arrival.bytes = bytes++;
            std::vector<std::byte>& raw = slot(wire_, arrival.bytes);
            raw.resize(m.count * bytes_per_value(m.wire));
            into = raw.data();
            type = MPI_BYTE;
            count = count_of(raw.size());
        }
        received_.push_back(arrival);
        receives_.emplace_back();
        receive_peers_.push_back(m.src);
        check(MPI_Irecv(into, count, type, m.src, static_cast<int>(i % 32768), comm_,
                        &receives_.back()),
              "MPI_Irecv");
    }
    for (std::size_t i = 0; i < round.messages.size(); ++i) {
        const Message& m = round.messages[i];
        if (m.src != rank || m.count == 0)
            continue;
        const void* from = mine.data() + m.offset;
        MPI_Datatype type = MPI_DOUBLE;
        int count = count_of(m.count);
        if (m.wire != WirePrecision::Float64) {
            std::vector<std::byte>& raw = slot(wire_, bytes++);
            raw.resize(m.count * bytes_per_value(m.wire));
            encode(m.wire, mine.subspan(m.offset, m.count), raw);
            from = raw.data();
            type = MPI_BYTE;
            count = count_of(raw.size());
        }
        sends_.emplace_back();
        send_peers_.push_back(m.dst);
        check(
            MPI_Isend(from, count, type, m.dst, static_cast<int>(i % 32768), comm_, &sends_.back()),
            "MPI_Isend");
    }
    detail::await(receives_, receive_peers_, "a message of the all-reduce");
    // In the round's order: a narrow format is decoded, a Reduce added in (in its format).
    for (const Arrival& arrival : received_) {
        const Message& m = round.messages[arrival.message];
        const std::span<double> range = mine.subspan(m.offset, m.count);
        const bool reduce = m.op == Message::Op::Reduce;
        if (m.wire != WirePrecision::Float64)
            decode(m.wire, wire_[arrival.bytes],
                   reduce ? std::span<double>(incoming_[arrival.values]) : range);
        if (reduce)
            accumulate_in(m.wire, range, incoming_[arrival.values]);
    }
    detail::await(sends_, send_peers_, "a message of the all-reduce");
}

MpiGroup::MpiGroup(const CommSchedule& schedule, int rank, Combine combine)
    : schedule_(schedule)
    , rank_(rank)
    , combine_(combine) {}

bool MpiGroup::reduces_beside_compute() const {
    int provided = MPI_THREAD_SINGLE;
    MPI_Query_thread(&provided);
    return combine_ == Combine::Schedule && provided >= MPI_THREAD_SERIALIZED;
}

void MpiGroup::barrier() {
    MPI_Request request = MPI_REQUEST_NULL;
    check(MPI_Ibarrier(MPI_COMM_WORLD, &request), "MPI_Ibarrier");
    detail::await(request, -1, "a barrier");
}

void MpiGroup::all_reduce(const CommSchedule& schedule, std::span<double> gradient,
                          const Clock& clock, std::int64_t step, std::vector<TraceEvent>& events) {
    schedule_all_reduce(schedule, transport_, rank_, gradient, clock, step, events);
}

void MpiGroup::all_reduce(std::span<double> gradient, const Clock& clock, std::int64_t step,
                          std::vector<TraceEvent>& events) {
    if (combine_ == Combine::Schedule) {
        schedule_all_reduce(schedule_, transport_, rank_, gradient, clock, step, events);
        return;
    }
    // Open MPI chooses its own algorithm and order of additions; one slice, no message detail.
    sum_.resize(gradient.size());
    const Ticks start = clock.now();
    MPI_Request request = MPI_REQUEST_NULL;
    check(MPI_Iallreduce(gradient.data(), sum_.data(), static_cast<int>(gradient.size()),
                         MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD, &request),
          "MPI_Iallreduce");
    detail::await(request, -1, "Open MPI's all-reduce");
    std::copy(sum_.begin(), sum_.end(), gradient.begin());
    events.push_back({rank_, EventKind::Communicate, step, start, clock.now()});
}

std::vector<double> MpiGroup::gather_pieces(std::span<const double> mine, bool everywhere) {
    if (mine.size() > static_cast<std::size_t>(INT_MAX))
        throw Error("gather: a shard of " + std::to_string(mine.size()) +
                    " values is more than one MPI message takes");
    const int count = static_cast<int>(mine.size());
    int ranks = 1;
    check(MPI_Comm_size(MPI_COMM_WORLD, &ranks), "MPI_Comm_size");
    std::vector<int> counts(static_cast<std::size_t>(ranks)), offsets(counts.size());
    MPI_Request request = MPI_REQUEST_NULL;
    check(MPI_Iallgather(&count, 1, MPI_INT, counts.data(), 1, MPI_INT, MPI_COMM_WORLD, &request),
          "MPI_Iallgather");
    detail::await(request, -1, "gathering the shards' sizes");
    long long total = 0;
    for (std::size_t k = 0; k < counts.size(); ++k) {
        if (total > INT_MAX)
            break;
        offsets[k] = static_cast<int>(total);
        total += counts[k];
    }
    if (total > INT_MAX)
        throw Error("gather: the model's " + std::to_string(total) +
                    " values are more than one MPI message takes");
    std::vector<double> all;
    if (everywhere || rank_ == 0)
        all.resize(static_cast<std::size_t>(total));
    if (everywhere)
        check(MPI_Iallgatherv(mine.data(), count, MPI_DOUBLE, all.data(), counts.data(),
                              offsets.data(), MPI_DOUBLE, MPI_COMM_WORLD, &request),
              "MPI_Iallgatherv");
    else
        check(MPI_Igatherv(mine.data(), count, MPI_DOUBLE, all.data(), counts.data(),
                           offsets.data(), MPI_DOUBLE, 0, MPI_COMM_WORLD, &request),
              "MPI_Igatherv");
    detail::await(request, -1, "gathering the shards");
    return all;
}

} // namespace lockstep::mpi
