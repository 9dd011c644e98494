#pragma once

#include "collectives/schedule.h"
#include "model/model.h"

#include <cstddef>
#include <cstdint>
#include <vector>

namespace lockstep {

// How fast the in-process all-reduce really moves bytes on this machine, in nccl-tests terms:
// algorithm bandwidth = bytes / time; bus bandwidth = algbw * 2(N-1)/N, the per-worker traffic
// any all-reduce needs, comparable to a link's (here: memory's) bandwidth. memcpy bandwidth of
// the same buffer size is measured in the same run as the yardstick.
struct AllReduceBenchResult {
    Algorithm algorithm = Algorithm::Ring;
    int workers = 1;
    std::int64_t bytes = 0;
    int iterations = 0;
    double seconds = 0.0; // median time of one all-reduce
    double algbw_gbps = 0.0;
    double busbw_gbps = 0.0;
    double memcpy_gbps = 0.0;
};

AllReduceBenchResult bench_all_reduce(Algorithm algorithm, int workers, std::int64_t bytes,
                                      int iterations = 0);

} // namespace lockstep
