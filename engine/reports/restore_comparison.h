#pragma once

#include <cstdint>
#include <vector>

namespace lockstep {

// A run's loss step by step as it finally stood: where a rollback made the run do steps again,
// the later attempt counts.
struct LossCurve {
    std::vector<std::int64_t> steps; // ascending
    std::vector<double> loss;        // after each of those steps
};

// One crash recovered two ways, next to the run that never crashed: the point of a full-state
// checkpoint. A full restore brings back parameters, optimizer state and each worker's place in
// its data, and goes on exactly as the uninterrupted run; weights alone give another run.
struct RestoreComparison {
    LossCurve uninterrupted;           // the scenario with its crashes taken out
    LossCurve full;                    // the crashes, recovered with a full restore
    LossCurve weights_only;            // the same crashes, recovered from the weights alone
    std::int64_t crash_step = -1;      // the step the first crash struck
    std::int64_t restored_step = 0;    // the step the first recovery went on from
    std::int64_t checkpoint_step = -1; // the checkpoint it loaded (-1: none, back to the start)
    // Largest |loss difference| from the uninterrupted run over the steps both did, and whether
    // the final parameters are the same bit for bit.
    double full_gap = 0.0;
    double weights_only_gap = 0.0;
    bool full_identical = false;
    bool weights_only_identical = false;
};

// The curve's loss at `step`; false when the curve has no such step.
bool loss_at(const LossCurve& curve, std::int64_t step, double* loss);

} // namespace lockstep
