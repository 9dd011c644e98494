// compare_precision: how far a step's summed gradient, in the run's precision and wire format, is
// from the same step worked out in float64.
#include "trainers/data_parallel.h"

#include "trainers/gradient.h"

#include <oneapi/tbb/parallel_for.h>

#include <cmath>
#include <limits>

namespace lockstep {

void DataParallelTrainer::keep_reference_cursors() {
    scratch_.reference_cursors.clear();
    for (const Worker& w : workers_)
        scratch_.reference_cursors.push_back(w.cursor);
}

// Every worker's gradient again, in float64, from the cursor it began the step with: the same
// rows, the same micro-batches, the parameters the step started from (the update has not run).
// Weighted by the rule as the collective's inputs were, and added up in worker order in float64.
double DataParallelTrainer::gap_from_float64() {
    const std::size_t n = workers_.size();
    const std::size_t count = scenario_.model.parameter_count();
    ModelShape wide = scenario_.model;
    wide.precision = Precision::Float64;
    const auto micro = static_cast<std::size_t>(scenario_.accumulation());
    scratch_.reference_scratch.resize(n);
    scratch_.reference_gradients.resize(n);
    tbb::parallel_for(std::size_t{0}, n, [&](std::size_t k) {
        DataCursor cursor = scratch_.reference_cursors[k];
        std::vector<double>& gradient = scratch_.reference_gradients[k];
        gradient.resize(count);
        accumulated_gradient(wide, workers_[k].parameters, *data_, cursor,
                             scenario_.batch_of(static_cast<int>(k)), micro, gradient,
                             scratch_.reference_scratch[k]);
    });
    std::vector<double> sum(count, 0.0);
    for (std::size_t k = 0; k < n; ++k)
        for (std::size_t i = 0; i < count; ++i)
            sum[i] += collective_.weights[k] * scratch_.reference_gradients[k][i];
    const AlignedBuffer& used = workers_.front().gradient;
    double gap = 0.0;
    for (std::size_t i = 0; i < count; ++i) {
        const double d = std::fabs(used[i] - sum[i]);
        gap = std::isnan(d) ? std::numeric_limits<double>::infinity() : std::max(gap, d);
    }
    return gap;
}

} // namespace lockstep
