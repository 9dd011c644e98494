#pragma once

#include "lockstep_lessons/lesson.h"

#include "scenario/scenario.h"

#include <cstdint>
#include <span>
#include <utility>
#include <vector>

namespace lockstep::lessons {

// The worked example as a calculator: one worker's time, the number of workers and the whole
// run's communication time go into the worked-example scenario, and the engine says how long the
// run takes and what speedup that is; `curve` is the speedup over a range of worker counts with
// the same figures (for the chart).
struct WorkedExampleResult {
    double one_worker_s = 0;
    int workers = 1;
    double communication_s = 0;
    double total_s = 0;
    double baseline_s = 0;
    double speedup = 0;
    double efficiency = 0;
    std::vector<std::pair<int, double>> curve; // workers, speedup
};

// Throws lockstep::Error naming the figure that is out of range.
WorkedExampleResult worked_example(const Scenario& base, double one_worker_s, int workers,
                                   double communication_s, std::span<const int> curve_workers);

// One model of the discussion lesson's study, trained for real on the lesson's data.
struct StudyPoint {
    std::vector<int> layers;
    std::size_t parameters = 0;
    double final_loss = 0;     // the last step's mini-batch (training) loss, first seed
    double final_accuracy = 0; // on that mini-batch
    double time_s = 0;
    // On held-out examples (the same kind of data, drawn with a seed no training run uses), over
    // the study's seeds: mean and sample standard deviation (0 with one seed). NaN when the data
    // is a CSV file, which has no fresh examples to draw.
    int seeds = 1;
    double held_out_loss = 0;
    double held_out_loss_sd = 0;
    double held_out_accuracy = 0;
    double held_out_accuracy_sd = 0;
    struct Sample {
        std::int64_t step = 0;
        double compute_s = 0; // all workers' compute so far, on the modelled clock
        double energy_j = 0;  // modelled energy so far
        double loss = 0;
    };
    std::vector<Sample> curve;
    double compute_s() const { return curve.empty() ? 0 : curve.back().compute_s; }
    double energy_j() const { return curve.empty() ? 0 : curve.back().energy_j; }
};

// The seed of the study's held-out examples: the scenario's seed moved past every seed a study
// trains with.
std::uint64_t held_out_seed(const Scenario& base);
// The mean and sample standard deviation of a few values (sd 0 for one value).
std::pair<double, double> mean_and_sd(std::span<const double> values);

// Trains each model of the study on the lesson's scenario. Compute per sample is taken to grow
// with the number of parameters (the scenario's price is for its own model); communication
// grows by itself, as the gradient is larger. Energy on the modelled clock by the engine's one
// energy model (the scenario's "energy" watts for computing, communicating, waiting, writing
// checkpoints and idling), each worker's time in each state read from the trace.
std::vector<StudyPoint> run_study(const Scenario& base, const StudyConfig& study);

} // namespace lockstep::lessons
