#pragma once

// Training a scenario to its end through make_run(), as the CLI and the lab do, for the engine
// tests that compare runs.

#include "reports/metrics.h"
#include "scenario/scenario.h"
#include "trace/trace.h"
#include "trainers/run.h"
#include "trainers/setup.h"

#include <oneapi/tbb/global_control.h>
#include <oneapi/tbb/task_arena.h>

#include <algorithm>
#include <cmath>
#include <vector>

namespace lockstep::testing {

struct TrainedRun {
    std::vector<double> parameters;
    RunMetrics metrics;
    Trace trace;
};

// Every step of `s`, its trace kept; on at most `threads` threads when given.
inline TrainedRun train_run(const Scenario& s, int threads = 0) {
    TrainedRun o;
    auto go = [&] {
        auto run = make_run(s, load_dataset(s), &o.trace);
        while (!run->finished())
            run->step();
        o.parameters = run->parameters();
        o.metrics = run->metrics();
    };
    if (threads <= 0) {
        go();
        return o;
    }
    tbb::global_control limit(tbb::global_control::max_allowed_parallelism,
                              static_cast<std::size_t>(threads));
    tbb::task_arena arena(threads);
    arena.execute(go);
    return o;
}

// The largest |a - b| / |a| over two vectors of one length.
inline double largest_relative_difference(const std::vector<double>& a,
                                          const std::vector<double>& b) {
    double worst = 0.0;
    for (std::size_t i = 0; i < a.size(); ++i)
        worst = std::max(worst, std::abs(a[i] - b[i]) / std::max(std::abs(a[i]), 1e-300));
    return worst;
}

} // namespace lockstep::testing
