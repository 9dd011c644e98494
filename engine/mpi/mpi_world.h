// MPI_COMM_WORLD as the MPI files share it: this rank, the ranks' count, gathering to rank 0.
#pragma once

#include "core/error.h"
#include "mpi/heartbeat.h"

#include <mpi.h>

#include <climits>
#include <string>
#include <type_traits>
#include <vector>

namespace lockstep::mpi::detail {

// Throws lockstep::Error when an Open MPI call did not succeed.
inline void check(int code, const char* what) {
    if (code != MPI_SUCCESS)
        throw Error(std::string(what) + " failed (Open MPI error " + std::to_string(code) + ")");
}

// The program the session runs ("lockstep-cli"), for messages.
std::string& program_name();

inline int world_rank() {
    int rank = 0;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    return rank;
}

inline int world_size() {
    int size = 1;
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    return size;
}

// Gathers every rank's `mine` (plain values) to rank 0, in rank order.
template <typename T> std::vector<T> gather(const std::vector<T>& mine) {
    static_assert(std::is_trivially_copyable_v<T>);
    const int size = world_size();
    const double total = static_cast<double>(mine.size()) * sizeof(T) * size;
    if (static_cast<double>(mine.size()) * sizeof(T) > INT_MAX || total > INT_MAX)
        throw Error("--transport mpi: the run's records are too large to gather (" +
                    std::to_string(static_cast<long long>(total)) + " bytes); run fewer steps");
    const int bytes = static_cast<int>(mine.size() * sizeof(T));
    std::vector<int> counts(static_cast<std::size_t>(size)), offsets(counts.size());
    MPI_Request request = MPI_REQUEST_NULL;
    check(MPI_Igather(&bytes, 1, MPI_INT, counts.data(), 1, MPI_INT, 0, MPI_COMM_WORLD, &request),
          "MPI_Igather");
    await(request, -1, "gathering to rank 0");
    std::vector<T> all;
    if (world_rank() == 0) {
        int at = 0;
        for (std::size_t k = 0; k < counts.size(); ++k) {
            offsets[k] = at;
            at += counts[k];
        }
        all.resize(static_cast<std::size_t>(at) / sizeof(T));
    }
    check(MPI_Igatherv(mine.data(), bytes, MPI_BYTE, all.data(), counts.data(), offsets.data(),
                       MPI_BYTE, 0, MPI_COMM_WORLD, &request),
          "MPI_Igatherv");
    await(request, -1, "gathering to rank 0");
    return all;
}

} // namespace lockstep::mpi::detail
