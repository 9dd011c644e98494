// The ranks' heartbeat: every wait of a run over MPI is bounded. A rank that has waited the
// rank timeout for a message or a collective asks every rank whether it is alive (on a
// communicator of its own, so no message of the run is mistaken for an answer); the ranks that
// are waiting too answer at once. When some rank stays silent through the grace period (stopped
// with SIGSTOP, hung, or cut off), the lowest rank that answered names it and the job ends with
// MPI_Abort. When every rank answers, the waits go on: a slow step is not a failure.
#pragma once

#include <mpi.h>

#include <cstdint>
#include <span>

namespace lockstep::mpi::detail {

// Starts the heartbeat for a run (collective: every rank calls it): `seconds` of waiting before
// a rank asks who is alive. `busy_s`: the longest a rank may be away from any wait on purpose
// (a pause the scenario scripts), added to the time the others give it to answer.
void start_heartbeat(double seconds, double busy_s = 0.0);
// The step the run is in, for the message that names a silent rank.
void heartbeat_step(std::int64_t step);

// Waits for `requests` to complete, each for the rank `peers` names (-1 for a collective of all
// ranks), within the heartbeat's bound. `what` names the call for messages. Without a started
// heartbeat it waits as MPI_Waitall does.
void await(std::span<MPI_Request> requests, std::span<const int> peers, const char* what);
inline void await(MPI_Request& request, int peer, const char* what) {
    await(std::span<MPI_Request>(&request, 1), std::span<const int>(&peer, 1), what);
}

} // namespace lockstep::mpi::detail
