#include "mpi/mpi_transport.h"

#include "collectives/reduction.h"
#include "core/error.h"

#include <algorithm>
#include <chrono>
#include <climits>
#include <string>
#include <thread>

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
    , combine_(combine) {
    // More ranks on this host than it has cores: a rank that spins in the barrier takes the core
    // from a rank still computing, so it sleeps between tests instead.
    MPI_Comm host = MPI_COMM_NULL;
    check(MPI_Comm_split_type(MPI_COMM_WORLD, MPI_COMM_TYPE_SHARED, 0, MPI_INFO_NULL, &host),
          "MPI_Comm_split_type");
    int on_host = 1;
    check(MPI_Comm_size(host, &on_host), "MPI_Comm_size");
    MPI_Comm_free(&host);
    const unsigned cores = std::thread::hardware_concurrency();
    oversubscribed_ = cores != 0 && static_cast<unsigned>(on_host) > cores;
}

bool MpiGroup::reduces_beside_compute() const {
    int provided = MPI_THREAD_SINGLE;
    MPI_Query_thread(&provided);
    return combine_ == Combine::Schedule && provided >= MPI_THREAD_SERIALIZED;
}

void MpiGroup::barrier() {
    if (!oversubscribed_) {
        check(MPI_Barrier(MPI_COMM_WORLD), "MPI_Barrier");
        return;
    }
    MPI_Request request = MPI_REQUEST_NULL;
    check(MPI_Ibarrier(MPI_COMM_WORLD, &request), "MPI_Ibarrier");
    for (int done = 0;;) {
        check(MPI_Test(&request, &done, MPI_STATUS_IGNORE), "MPI_Test");
        if (done != 0)
            return;
        std::this_thread::sleep_for(std::chrono::microseconds(50));
    }
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
    check(MPI_Allreduce(gradient.data(), sum_.data(), static_cast<int>(gradient.size()), MPI_DOUBLE,
                        MPI_SUM, MPI_COMM_WORLD),
          "MPI_Allreduce");
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
    check(MPI_Allgather(&count, 1, MPI_INT, counts.data(), 1, MPI_INT, MPI_COMM_WORLD),
          "MPI_Allgather");
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
        check(MPI_Allgatherv(mine.data(), count, MPI_DOUBLE, all.data(), counts.data(),
                             offsets.data(), MPI_DOUBLE, MPI_COMM_WORLD),
              "MPI_Allgatherv");
    else
        check(MPI_Gatherv(mine.data(), count, MPI_DOUBLE, all.data(), counts.data(), offsets.data(),
                          MPI_DOUBLE, 0, MPI_COMM_WORLD),
              "MPI_Gatherv");
    return all;
}

} // namespace lockstep::mpi
