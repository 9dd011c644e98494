#include "mpi/mpi_transport.h"

#include "collectives/reduction.h"
#include "core/error.h"

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

int count_of(const Message& m) {
    if (m.count > static_cast<std::size_t>(INT_MAX))
        throw Error("all-reduce: a message of " + std::to_string(m.count) +
                    " values is more than one MPI message takes");
    return static_cast<int>(m.count);
}

} // namespace

void MpiTransport::execute(const Round& round, int rank, std::span<double> mine) {
    sends_.clear();
    receives_.clear();
    reduced_.clear();
    std::size_t scratch = 0;
    for (std::size_t i = 0; i < round.messages.size(); ++i) {
        const Message& m = round.messages[i];
        if (m.dst != rank || m.count == 0)
            continue;
        const int tag = static_cast<int>(i % 32768);
        double* into = mine.data() + m.offset;
        if (m.op == Message::Op::Reduce) {
            if (incoming_.size() <= scratch)
                incoming_.emplace_back();
            incoming_[scratch].resize(m.count);
            into = incoming_[scratch].data();
            reduced_.push_back(i);
            ++scratch;
        }
        receives_.emplace_back();
        check(MPI_Irecv(into, count_of(m), MPI_DOUBLE, m.src, tag, comm_, &receives_.back()),
              "MPI_Irecv");
    }
    for (std::size_t i = 0; i < round.messages.size(); ++i) {
        const Message& m = round.messages[i];
        if (m.src != rank || m.count == 0)
            continue;
        sends_.emplace_back();
        check(MPI_Isend(mine.data() + m.offset, count_of(m), MPI_DOUBLE, m.dst,
                        static_cast<int>(i % 32768), comm_, &sends_.back()),
              "MPI_Isend");
    }
    check(MPI_Waitall(static_cast<int>(receives_.size()), receives_.data(), MPI_STATUSES_IGNORE),
          "MPI_Waitall (receives)");
    // Reduce messages are added in the round's order; Copy messages are already in place.
    for (std::size_t k = 0; k < reduced_.size(); ++k) {
        const Message& m = round.messages[reduced_[k]];
        accumulate(mine.subspan(m.offset, m.count), incoming_[k]);
    }
    check(MPI_Waitall(static_cast<int>(sends_.size()), sends_.data(), MPI_STATUSES_IGNORE),
          "MPI_Waitall (sends)");
}

MpiGroup::MpiGroup(const CommSchedule& schedule, int rank, Combine combine)
    : schedule_(schedule)
    , rank_(rank)
    , combine_(combine) {}

void MpiGroup::barrier() {
    check(MPI_Barrier(MPI_COMM_WORLD), "MPI_Barrier");
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
    check(MPI_Allreduce(gradient.data(), sum_.data(), static_cast<int>(gradient.size()), MPI_DOUBLE,
                        MPI_SUM, MPI_COMM_WORLD),
          "MPI_Allreduce");
    std::copy(sum_.begin(), sum_.end(), gradient.begin());
    events.push_back({rank_, EventKind::Communicate, step, start, clock.now()});
}

} // namespace lockstep::mpi
