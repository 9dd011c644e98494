#pragma once

#include <span>
#include <vector>

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

// Amdahl's law fitted to the points, as a chart draws it: the serial fraction, and its curve from
// one worker to `up_to` workers in `samples` equal steps (samples + 1 points). Without a fit
// (fit_amdahl_serial_fraction is NaN) or with `up_to` below one worker the curve is empty.
struct AmdahlFit {
    double serial_fraction = 0.0;
    std::vector<SpeedupPoint> curve;
};
AmdahlFit fit_amdahl(std::span<const SpeedupPoint> points, double up_to, int samples = 160);

} // namespace lockstep
