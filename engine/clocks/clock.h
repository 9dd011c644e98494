#pragma once

#include <atomic>
#include <cmath>
#include <cstdint>
#include <memory>

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

// Where a run's times come from. A trainer asks its clock how long a piece of work took and
// where it began, and lets time pass through it; it does not ask which clock it has, except where
// the two really do different work (pricing a schedule against timing its real rounds).
//   modelled: every time is the cost model's price, from the lane's own clock; nothing is timed
//             and nothing waits, so the same scenario gives the same times on every machine.
//   measured: the wall time of the real work since the run began; injected delays and slowdowns
//             are real sleeps of the training loop (never inside a task others depend on).
class Clock {
public:
    virtual ~Clock() = default;
    virtual std::unique_ptr<Clock> clone() const = 0;
    virtual ClockKind kind() const = 0;

    // The wall time now on the run's clock; 0 on the modelled clock, which times nothing.
    virtual Ticks now() const = 0;
    // Where a lane's piece of work begins: the lane's own clock, or no earlier than the moment
    // the real work `started`.
    virtual Ticks begins(Ticks lane, Ticks started) const = 0;
    // How long a piece of work lasts: its `priced` cost, or the real work's time from `started`
    // to `ended` stretched by `slowdown` (a slowed worker).
    virtual Ticks took(Ticks priced, Ticks started, Ticks ended, double slowdown = 1.0) const = 0;
    // When work that began at `start` and costs `priced` is over: `start + priced`, or now (the
    // real work has just been done), never before `start`.
    virtual Ticks ends(Ticks start, Ticks priced) const = 0;
    // Lets time pass until `until` for real: the measured clock sleeps, in slices so a raised
    // `stop` flag ends it early; the modelled clock does nothing.
    virtual void wait_until(Ticks until, const std::atomic<bool>* stop) const = 0;
    // A copy of a run taken earlier goes on from `at` (its lanes' furthest point), not from the
    // wall time since the original began. Nothing to do on the modelled clock.
    virtual void resume_at(Ticks /*at*/) {}
};

std::unique_ptr<Clock> make_clock(ClockKind kind);

} // namespace lockstep
