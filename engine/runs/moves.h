#pragma once

#include "scenario/parallelism.h"
#include "scenario/scenario.h"

#include <cstdint>
#include <string>
#include <vector>

namespace lockstep {

// Bytes that crossed one directed link (worker `from` to worker `to`) in one step.
struct LinkBytes {
    int from = 0;
    int to = 0;
    std::int64_t bytes = 0;
};

// What one way of spreading the same model and batch over workers moves, and what it costs.
struct StrategyMoves {
    Parallelism strategy = Parallelism::Data;
    int workers = 1;
    std::string layout; // "4 workers", "4 stages x 4 micro-batches (1f1b)", ...
    std::string moved;  // what travels: "gradients", "activations and ...", ...
    std::int64_t bytes_per_step = 0;
    std::vector<LinkBytes> links; // per directed link that carried anything, per step
    double step_time_s = 0.0;
    double compute_s = 0.0; // per worker per step, mean
    double waiting_s = 0.0; // per worker per step, mean: waits and pipeline bubbles
};

// Trains the scenario's model on the same global batch a few steps under each strategy, on the
// modelled clock with per-sample and per-message prices (textbook fixed costs and injected
// delays left out), and reads from the traces what moved over which link and who waited. The
// workers: the scenario's parallelism (P stages, or D x P for hybrid), else its workers; a
// pipeline gets at most one stage per layer, a tensor split at most one worker per output of
// the narrowest layer. Hybrid appears only when the scenario asks for it.
std::vector<StrategyMoves> compare_moves(const Scenario& scenario);

} // namespace lockstep
