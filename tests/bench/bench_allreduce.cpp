// All-reduce bus bandwidth against memcpy bandwidth, nccl-tests style, for the in-process
// collectives: 1, 16 and 64 MiB at 2, 4 and 8 workers. Prints one JSON object per line.

#include "collectives/bench.h"

#include <cstdio>
#include <string>

int main(int argc, char** argv) {
    const bool quick = argc > 1 && std::string(argv[1]) == "--quick";
    for (auto algorithm : {lockstep::Algorithm::Ring, lockstep::Algorithm::Tree,
                           lockstep::Algorithm::ParameterServer}) {
        for (long long mib : {1LL, 16LL, 64LL}) {
            for (int workers : {2, 4, 8}) {
                const auto r =
                    lockstep::bench_all_reduce(algorithm, workers, mib << 20, quick ? 3 : 0);
                std::printf(
                    "{\"bench\":\"allreduce\",\"algorithm\":\"%s\",\"workers\":%d,\"mib\":%lld,"
                    "\"time_ms\":%.3f,\"algbw_gbps\":%.3f,\"busbw_gbps\":%.3f,\"memcpy_gbps\":%.3f,"
                    "\"busbw_over_memcpy\":%.3f}\n",
                    std::string(lockstep::to_string(algorithm)).c_str(), workers, mib,
                    r.seconds * 1e3, r.algbw_gbps, r.busbw_gbps, r.memcpy_gbps,
                    r.busbw_gbps / r.memcpy_gbps);
                std::fflush(stdout);
            }
        }
    }
    return 0;
}
