#include "reports/amdahl.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <vector>

namespace lockstep {

namespace {

// Sum of squared differences between the points' speedups and Amdahl's curve for `s`.
double amdahl_error(std::span<const SpeedupPoint> points, double s) {
    double sum = 0.0;
    for (const SpeedupPoint& p : points) {
        const double d = p.speedup - amdahl_speedup(s, p.workers);
        sum += d * d;
    }
    return sum;
}

} // namespace

double amdahl_speedup(double serial_fraction, double workers) {
    return 1.0 / (serial_fraction + (1.0 - serial_fraction) / workers);
}

// A grid over [0, 1] finds the right neighbourhood even if the error has several dips; a golden
// section search inside that cell then pins s down.
double fit_amdahl_serial_fraction(std::span<const SpeedupPoint> points) {
    std::vector<SpeedupPoint> useful;
    for (const SpeedupPoint& p : points)
        if (p.workers > 1.0 && std::isfinite(p.speedup) && p.speedup > 0)
            useful.push_back(p);
    if (useful.empty())
        return std::numeric_limits<double>::quiet_NaN();

    constexpr int kGrid = 1000;
    int best = 0;
    double bestError = std::numeric_limits<double>::infinity();
    for (int i = 0; i <= kGrid; ++i) {
        const double e = amdahl_error(useful, static_cast<double>(i) / kGrid);
        if (e < bestError) {
            bestError = e;
            best = i;
        }
    }
    double lo = std::max(0.0, (best - 1.0) / kGrid);
    double hi = std::min(1.0, (best + 1.0) / kGrid);
    const double ratio = (std::sqrt(5.0) - 1.0) / 2.0;
    for (int iteration = 0; iteration < 60; ++iteration) {
        const double a = hi - ratio * (hi - lo);
        const double b = lo + ratio * (hi - lo);
        if (amdahl_error(useful, a) < amdahl_error(useful, b))
            hi = b;
        else
            lo = a;
    }
    return (lo + hi) / 2.0;
}

AmdahlFit fit_amdahl(std::span<const SpeedupPoint> points, double up_to, int samples) {
    AmdahlFit fit;
    fit.serial_fraction = fit_amdahl_serial_fraction(points);
    if (!std::isfinite(fit.serial_fraction) || !(up_to >= 1.0) || samples < 1)
        return fit;
    fit.curve.reserve(static_cast<std::size_t>(samples) + 1);
    for (int i = 0; i <= samples; ++i) {
        const double n = 1.0 + (up_to - 1.0) * i / samples;
        fit.curve.push_back({n, amdahl_speedup(fit.serial_fraction, n)});
    }
    return fit;
}

} // namespace lockstep
