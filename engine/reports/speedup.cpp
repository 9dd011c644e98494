#include "reports/speedup.h"

namespace lockstep {

void set_speedup(RunMetrics& m, const Scenario& scenario, double baseline_time_s) {
    m.baseline_time_s = baseline_time_s;
    if (m.total_time_s <= 0)
        return;
    const bool weak = scenario.scaling == Scaling::Weak && !scenario.model_parallel();
    const double work_ratio = weak ? static_cast<double>(scenario.workers) : 1.0;
    m.speedup = work_ratio * baseline_time_s / m.total_time_s;
    m.efficiency =
        m.speedup / static_cast<double>(scenario.model_parallel() ? m.workers : scenario.workers);
}

} // namespace lockstep
