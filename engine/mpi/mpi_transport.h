#pragma once

#include "collectives/schedule.h"
#include "collectives/transport.h"
#include "trainers/rank_worker.h"

#include <mpi.h>

#include <span>
#include <vector>

namespace lockstep::mpi {

// A schedule's rounds between processes over Open MPI: in each round this rank posts an
// MPI_Isend of every range it sends and an MPI_Irecv of every range it receives, waits for the
// receives, applies them in the round's order (adding a Reduce in, a Copy arriving straight in
// place), then waits for its sends. Values in a narrower format (Message::wire) travel as its
// bytes, encoded on sending and decoded on arrival, and a Reduce adds in that format. The order of
// additions is the schedule's, so the bits are those of the in-process transport. A message's tag
// is its index in the round; MPI keeps the order of messages between two ranks with the same tag,
// so rounds never mix.
class MpiTransport final : public Transport {
public:
    explicit MpiTransport(MPI_Comm comm)
        : comm_(comm) {}
    void execute(const Round& round, int rank, std::span<double> mine) override;

private:
    // A message to this rank: its index in the round, and its scratch slots (a Reduce's values,
    // a narrow format's bytes).
    struct Arrival {
        std::size_t message, values, bytes;
    };
    MPI_Comm comm_;
    std::vector<MPI_Request> sends_, receives_;
    std::vector<int> send_peers_, receive_peers_; // the rank at the other end of each
    std::vector<Arrival> received_;               // this round's messages to this rank, in order
    std::vector<std::vector<double>> incoming_;   // scratch, one per Reduce message
    std::vector<std::vector<std::byte>> wire_;    // scratch, one per message in a narrow format
};

// How the ranks combine their gradients.
enum class Combine {
    Schedule,     // Lockstep's own schedule (parameter server, ring, tree) over MpiTransport
    MpiAllreduce, // Open MPI's own MPI_Allreduce with MPI_SUM
};

// The other ranks of MPI_COMM_WORLD for a RankWorker.
class MpiGroup final : public RankGroup {
public:
    MpiGroup(const CommSchedule& schedule, int rank, Combine combine);
    void barrier() override;
    void all_reduce(std::span<double> gradient, const Clock& clock, std::int64_t step,
                    std::vector<TraceEvent>& events) override;
    void all_reduce(const CommSchedule& schedule, std::span<double> gradient, const Clock& clock,
                    std::int64_t step, std::vector<TraceEvent>& events) override;
    std::vector<double> gather_pieces(std::span<const double> mine, bool everywhere) override;
    // When Open MPI gave serialized threads (MPI_Init_thread) and the schedules are ours.
    bool reduces_beside_compute() const override;

private:
    const CommSchedule& schedule_;
    int rank_;
    Combine combine_;
    MpiTransport transport_{MPI_COMM_WORLD};
    std::vector<double> sum_; // MPI_Allreduce's output
};

} // namespace lockstep::mpi
