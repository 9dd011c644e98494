#pragma once

#include <array>
#include <cstdint>

namespace lockstep {

// A random-number generator whose whole state is four visible words (xoshiro256**), so a run can
// save it, restore it and replay exactly. Nothing in Lockstep draws from a global or time seed.
class Rng {
public:
    using State = std::array<std::uint64_t, 4>;

    explicit Rng(std::uint64_t seed = 0);
    // An independent stream for one user of a seed: the run itself, or worker k.
    static Rng stream(std::uint64_t seed, std::uint64_t stream_id);

    std::uint64_t next_u64();
    double uniform(); // in [0, 1)
    double uniform(double lo, double hi);
    double normal(); // standard normal, from two uniforms (no hidden cached value)
    std::uint64_t below(std::uint64_t n); // uniform in [0, n), unbiased; n > 0

    const State& state() const { return state_; }
    void set_state(const State& state) { state_ = state; }

private:
    State state_{};
};

} // namespace lockstep
