#pragma once

#include <span>

namespace lockstep {

// Amdahl's law: the speedup on `workers` workers when `serial_fraction` of the one-worker time
// cannot be split.
double amdahl_speedup(double serial_fraction, double workers);

// One measured or modelled speedup.
struct SpeedupPoint {
    double workers = 1.0;
    double speedup = 1.0;
};

// The serial fraction s in [0, 1] whose Amdahl curve 1 / (s + (1 - s) / N) is closest (least
// squares on the speedup) to the given points. NaN when no point has more than one worker, since
// those say nothing about s.
double fit_amdahl_serial_fraction(std::span<const SpeedupPoint> points);

} // namespace lockstep
