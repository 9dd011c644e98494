// Open MPI for the life of a command, and one outcome for every rank when one of them fails.
#include "mpi/mpi_run.h"

#include "core/error.h"
#include "mpi/mpi_world.h"

#include <climits>
#include <cstdio>
#include <cstring>
#include <exception>
#include <functional>
#include <string>
#include <utility>
#include <vector>

namespace lockstep::mpi {

using detail::check;
using detail::gather;
using detail::world_rank;
using detail::world_size;

namespace detail {

// What the errors on_every_rank() and the heartbeat report are prefixed with: the session's
// program.
std::string& program_name() {
    static std::string name = "lockstep";
    return name;
}

} // namespace detail

using detail::program_name;

Session::Session(int* argc, char*** argv, std::string program) {
    program_name() = std::move(program);
    int ready = 0;
    MPI_Initialized(&ready);
    // A rank's gradient buckets are reduced by a communication thread while its main thread
    // computes backward; only one of them calls MPI at a time (serialized).
    int provided = MPI_THREAD_SINGLE;
    if (!ready)
        check(MPI_Init_thread(argc, argv, MPI_THREAD_SERIALIZED, &provided), "MPI_Init_thread");
    else
        MPI_Query_thread(&provided);
    rank_ = world_rank();
    size_ = world_size();
}

Session::~Session() {
    int done = 0;
    MPI_Finalized(&done);
    if (!done)
        MPI_Finalize();
}

void on_every_rank(const std::function<void()>& setup) {
    std::exception_ptr failure;
    try {
        setup();
    } catch (const Error&) {
        failure = std::current_exception();
    }
    const int rank = world_rank();
    const int mine = failure ? rank : INT_MAX;
    int first = INT_MAX;
    MPI_Request request = MPI_REQUEST_NULL;
    check(MPI_Iallreduce(&mine, &first, 1, MPI_INT, MPI_MIN, MPI_COMM_WORLD, &request),
          "MPI_Iallreduce");
    detail::await(request, -1, "agreeing on the outcome");
    if (first == INT_MAX)
        return;
    if (rank == first) {
        try {
            std::rethrow_exception(failure);
        } catch (const Error& e) {
            std::fprintf(stderr, "%s: %s\n", program_name().c_str(), e.what());
            std::fflush(stderr);
        }
    }
    check(MPI_Ibarrier(MPI_COMM_WORLD, &request), "MPI_Ibarrier");
    detail::await(request, -1, "agreeing on the outcome");
    throw ReportedElsewhere();
}

std::vector<std::string> gather_hosts() {
    std::vector<char> name(MPI_MAX_PROCESSOR_NAME, '\0');
    int length = 0;
    MPI_Get_processor_name(name.data(), &length);
    const std::vector<char> all = gather(name);
    std::vector<std::string> hosts;
    for (std::size_t at = 0; at < all.size(); at += MPI_MAX_PROCESSOR_NAME)
        hosts.emplace_back(all.data() + at, strnlen(all.data() + at, MPI_MAX_PROCESSOR_NAME));
    return hosts; // rank 0: one per rank
}

} // namespace lockstep::mpi
