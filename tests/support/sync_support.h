#pragma once

// The scenario the tests of the ways of agreeing train: four workers through a parameter server,
// a small classifier on the spiral data, SGD with momentum.

#include "scenario/scenario.h"

#include <cstdint>

namespace lockstep::testing {

inline Scenario sync_scenario(std::uint64_t seed, std::int64_t steps) {
    Scenario s;
    s.name = "sync";
    s.seed = seed;
    s.workers = 4;
    s.steps = steps;
    s.batch = 16;
    s.algorithm = Algorithm::ParameterServer;
    s.model = ModelShape{{2, 12, 3}, Activation::Tanh, LossKind::SoftmaxCrossEntropy};
    s.dataset = DatasetConfig{"spiral", "", 400, 0.1, 3};
    s.optimizer = OptimizerConfig{OptimizerKind::Sgd, 0.1, 0.9, 0.9, 0.999, 1e-8};
    s.cost.update_s = 1e-5;
    return s;
}

// `s` agreeing by `mode` with its bound or period, checked.
inline Scenario with_sync(Scenario s, SyncMode mode, int staleness = 0, int local_steps = 1) {
    SyncConfig c;
    c.mode = mode;
    c.staleness = staleness;
    c.local_steps = local_steps;
    s.sync = c;
    validate(s);
    return s;
}

} // namespace lockstep::testing
