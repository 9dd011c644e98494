#include "mpi/heartbeat.h"

#include "mpi/mpi_world.h"

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstring>
#include <string>
#include <thread>
#include <vector>

namespace lockstep::mpi::detail {

namespace {

using Clock = std::chrono::steady_clock;

constexpr int kAliveTag = 1;

struct Heartbeat {
    MPI_Comm comm = MPI_COMM_NULL;
    double timeout_s = 0.0;
    double busy_s = 0.0; // the longest scripted pause: a paused rank answers after it
    std::int64_t step = 0;
    int checks = 0;                 // liveness checks in a row that every rank answered
    bool oversubscribed = false;    // more ranks on this host than it has cores
    std::vector<std::string> hosts; // per rank: the host it runs on, to name a silent one's
};

Heartbeat& heartbeat() {
    static Heartbeat h;
    return h;
}

// How long the ranks that asked wait for the others' answers: long enough for a rank that is
// computing to reach its next wait.
double grace_s(double timeout_s) {
    return std::clamp(timeout_s / 2.0, 1.0, 10.0);
}

std::string rank_list(const std::vector<int>& ranks) {
    const std::vector<std::string>& hosts = heartbeat().hosts;
    std::string text;
    for (std::size_t k = 0; k < ranks.size(); ++k) {
        const auto rank = static_cast<std::size_t>(ranks[k]);
        text += (k == 0 ? "" : k + 1 == ranks.size() ? " and " : ", ") + std::to_string(ranks[k]);
        if (rank < hosts.size())
            text += " (on " + hosts[rank] + ")";
    }
    return text;
}

// Every rank's host name, on every rank.
std::vector<std::string> all_hosts() {
    std::vector<char> name(MPI_MAX_PROCESSOR_NAME, '\0');
    int length = 0;
    check(MPI_Get_processor_name(name.data(), &length), "MPI_Get_processor_name");
    std::vector<char> all(name.size() * static_cast<std::size_t>(world_size()));
    check(MPI_Allgather(name.data(), MPI_MAX_PROCESSOR_NAME, MPI_CHAR, all.data(),
                        MPI_MAX_PROCESSOR_NAME, MPI_CHAR, MPI_COMM_WORLD),
          "MPI_Allgather");
    std::vector<std::string> hosts;
    for (std::size_t at = 0; at < all.size(); at += MPI_MAX_PROCESSOR_NAME)
        hosts.emplace_back(all.data() + at, strnlen(all.data() + at, MPI_MAX_PROCESSOR_NAME));
    return hosts;
}

// Every rank that takes part sends "alive" to every other and waits the grace period for
// theirs. Returns the ranks that did not answer.
std::vector<int> who_is_silent() {
    Heartbeat& h = heartbeat();
    const int rank = world_rank(), size = world_size();
    std::vector<int> mine(static_cast<std::size_t>(size), rank), theirs(mine.size(), -1);
    std::vector<MPI_Request> sends, receives;
    std::vector<int> from;
    for (int k = 0; k < size; ++k) {
        if (k == rank)
            continue;
        sends.emplace_back();
        MPI_Isend(&mine[static_cast<std::size_t>(k)], 1, MPI_INT, k, kAliveTag, h.comm,
                  &sends.back());
        receives.emplace_back();
        MPI_Irecv(&theirs[static_cast<std::size_t>(k)], 1, MPI_INT, k, kAliveTag, h.comm,
                  &receives.back());
        from.push_back(k);
    }
    const auto until =
        Clock::now() + std::chrono::duration<double>(grace_s(h.timeout_s) + h.busy_s);
    std::vector<int> silent;
    for (std::size_t i = 0; i < receives.size(); ++i) {
        int done = 0;
        while (true) {
            MPI_Test(&receives[i], &done, MPI_STATUS_IGNORE);
            if (done != 0 || Clock::now() >= until)
                break;
            std::this_thread::sleep_for(std::chrono::milliseconds(1));
        }
        if (done == 0)
            silent.push_back(from[i]);
    }
    // Every rank answered, so each has asked for this rank's answer too: the sends complete.
    if (silent.empty())
        MPI_Waitall(static_cast<int>(sends.size()), sends.data(), MPI_STATUSES_IGNORE);
    return silent;
}

// Ends the job. The rank that said why ends it, once its words are on their way to mpirun; the
// others wait for that, so that their own abort does not cut the message off, and end it
// themselves only if it has not.
[[noreturn]] void end_the_job(bool said_why) {
    std::this_thread::sleep_for(std::chrono::milliseconds(said_why ? 200 : 3000));
    MPI_Abort(MPI_COMM_WORLD, 1);
    std::abort(); // MPI_Abort does not return
}

// The check, and its outcome: the job ends when a rank stays silent.
void check_liveness(std::span<const int> peers, const char* what, double waited_s) {
    Heartbeat& h = heartbeat();
    const std::vector<int> silent = who_is_silent();
    const int rank = world_rank();
    if (silent.empty()) {
        if (++h.checks < 3)
            return; // every rank is alive: a slow step, wait on
        if (rank == 0) {
            std::fprintf(stderr,
                         "%s: every rank answers, but none has moved for %.0f s in step "
                         "%lld (%s); ending the job\n",
                         program_name().c_str(), waited_s, static_cast<long long>(h.step), what);
            std::fflush(stderr);
        }
        end_the_job(rank == 0);
    }
    int lowest_alive = 0;
    while (std::find(silent.begin(), silent.end(), lowest_alive) != silent.end())
        ++lowest_alive;
    if (rank == lowest_alive) {
        const bool one = silent.size() == 1;
        std::string waiting;
        for (const int peer : peers)
            if (peer >= 0 && std::find(silent.begin(), silent.end(), peer) != silent.end()) {
                waiting = " for it";
                break;
            }
        std::fprintf(stderr,
                     "%s: rank%s %s did not answer the heartbeat: %s stopped, hung or cut "
                     "off. Rank %d waited%s %.0f s in step %lld (%s); ending the job\n",
                     program_name().c_str(), one ? "" : "s", rank_list(silent).c_str(),
                     one ? "it is" : "they are", world_rank(), waiting.c_str(), waited_s,
                     static_cast<long long>(h.step), what);
        std::fflush(stderr);
    }
    end_the_job(rank == lowest_alive);
}

// Another rank has started a check: this one joins it at once.
bool asked_for_liveness() {
    Heartbeat& h = heartbeat();
    int pending = 0;
    MPI_Iprobe(MPI_ANY_SOURCE, kAliveTag, h.comm, &pending, MPI_STATUS_IGNORE);
    return pending != 0;
}

} // namespace

void start_heartbeat(double seconds, double busy_s) {
    Heartbeat& h = heartbeat();
    if (h.comm == MPI_COMM_NULL)
        check(MPI_Comm_dup(MPI_COMM_WORLD, &h.comm), "MPI_Comm_dup");
    h.timeout_s = seconds;
    h.busy_s = busy_s;
    h.step = 0;
    h.checks = 0;
    h.hosts = all_hosts();
    // More ranks on this host than it has cores: a rank that spins while it waits takes the core
    // from a rank still computing, so it sleeps between tests instead.
    MPI_Comm host = MPI_COMM_NULL;
    check(MPI_Comm_split_type(MPI_COMM_WORLD, MPI_COMM_TYPE_SHARED, 0, MPI_INFO_NULL, &host),
          "MPI_Comm_split_type");
    int on_host = 1;
    check(MPI_Comm_size(host, &on_host), "MPI_Comm_size");
    MPI_Comm_free(&host);
    const unsigned cores = std::thread::hardware_concurrency();
    h.oversubscribed = cores != 0 && static_cast<unsigned>(on_host) > cores;
}

void heartbeat_step(std::int64_t step) {
    heartbeat().step = step;
}

void await(std::span<MPI_Request> requests, std::span<const int> peers, const char* what) {
    Heartbeat& h = heartbeat();
    if (h.comm == MPI_COMM_NULL || h.timeout_s <= 0.0) {
        check(MPI_Waitall(static_cast<int>(requests.size()), requests.data(), MPI_STATUSES_IGNORE),
              what);
        return;
    }
    const auto start = Clock::now();
    auto last_check = start;
    const auto bound = std::chrono::duration<double>(h.timeout_s);
    for (int spins = 0;; ++spins) {
        int done = 0;
        check(MPI_Testall(static_cast<int>(requests.size()), requests.data(), &done,
                          MPI_STATUSES_IGNORE),
              what);
        if (done != 0) {
            h.checks = 0;
            return;
        }
        if (spins % 64 == 0) {
            const auto now = Clock::now();
            if (now - last_check >= bound || asked_for_liveness()) {
                check_liveness(peers, what, std::chrono::duration<double>(now - start).count());
                last_check = Clock::now();
            }
        }
        if (spins > (h.oversubscribed ? 16 : 1000))
            std::this_thread::sleep_for(std::chrono::microseconds(h.oversubscribed ? 50 : 20));
    }
}

} // namespace lockstep::mpi::detail
