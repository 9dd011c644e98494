#include "clocks/clock.h"

#include <algorithm>
#include <chrono>
#include <thread>

#if defined(__linux__)
#include <sys/prctl.h>
#endif

namespace lockstep {

namespace {

class ModelledClock final : public Clock {
public:
    std::unique_ptr<Clock> clone() const override { return std::make_unique<ModelledClock>(); }
    ClockKind kind() const override { return ClockKind::Modelled; }
    Ticks now() const override { return 0; }
    Ticks begins(Ticks lane, Ticks /*started*/) const override { return lane; }
    Ticks took(Ticks priced, Ticks, Ticks, double) const override { return priced; }
    Ticks ends(Ticks start, Ticks priced) const override { return start + priced; }
    void wait_until(Ticks, const std::atomic<bool>*) const override {}
};

class MeasuredClock final : public Clock {
public:
    using Wall = std::chrono::steady_clock;

    std::unique_ptr<Clock> clone() const override { return std::make_unique<MeasuredClock>(*this); }
    ClockKind kind() const override { return ClockKind::Measured; }
    Ticks now() const override {
        return std::chrono::duration_cast<std::chrono::nanoseconds>(Wall::now() - start_).count();
    }
    Ticks begins(Ticks lane, Ticks started) const override { return std::max(lane, started); }
    Ticks took(Ticks, Ticks started, Ticks ended, double slowdown) const override {
        const Ticks real = ended - started;
        return real + static_cast<Ticks>(static_cast<double>(real) * (slowdown - 1.0));
    }
    Ticks ends(Ticks start, Ticks) const override { return std::max(start, now()); }
    void wait_until(Ticks until, const std::atomic<bool>* stop) const override {
        const auto deadline = start_ + std::chrono::nanoseconds(until);
#if defined(__linux__)
        // Linux lets a sleeping thread wake up to 50 us late by default (its timer slack); a
        // paced link's rounds last a few hundred microseconds, so the sleeping thread asks for
        // 1 us. Per thread, once.
        thread_local const bool precise = prctl(PR_SET_TIMERSLACK, 1000UL, 0, 0, 0) == 0;
        (void)precise;
#endif
        while (!(stop && stop->load()) && Wall::now() < deadline)
            std::this_thread::sleep_for(std::min<std::chrono::nanoseconds>(
                deadline - Wall::now(), std::chrono::milliseconds(10)));
    }
    void resume_at(Ticks at) override {
        start_ = Wall::now() - std::chrono::nanoseconds(at);
    }

private:
    Wall::time_point start_ = Wall::now();
};

} // namespace

std::unique_ptr<Clock> make_clock(ClockKind kind) {
    if (kind == ClockKind::Measured)
        return std::make_unique<MeasuredClock>();
    return std::make_unique<ModelledClock>();
}

} // namespace lockstep
