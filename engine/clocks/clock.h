#pragma once

#include <cmath>
#include <cstdint>

namespace lockstep {

// Time on a run's clock, in integer nanoseconds. Integer ticks keep the modelled clock exact and
// identical on every machine: 10 s + 6 s is 16 s, not 15.999999999999998 s.
using Ticks = std::int64_t;

constexpr Ticks kTicksPerSecond = 1'000'000'000;

inline Ticks to_ticks(double seconds) {
    return static_cast<Ticks>(std::llround(seconds * 1e9));
}
inline double to_seconds(Ticks ticks) {
    return static_cast<double>(ticks) / 1e9;
}

enum class ClockKind { Modelled, Measured };

} // namespace lockstep
