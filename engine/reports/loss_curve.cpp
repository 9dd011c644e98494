#include "reports/restore_comparison.h"

#include <algorithm>

namespace lockstep {

bool loss_at(const LossCurve& curve, std::int64_t step, double* loss) {
    const auto it = std::lower_bound(curve.steps.begin(), curve.steps.end(), step);
    if (it == curve.steps.end() || *it != step)
        return false;
    *loss = curve.loss[static_cast<std::size_t>(it - curve.steps.begin())];
    return true;
}

} // namespace lockstep
