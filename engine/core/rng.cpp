#include "core/rng.h"

#include "core/error.h"

#include <cmath>
#include <numbers>

namespace lockstep {

namespace {

constexpr std::uint64_t golden_gamma = 0x9E3779B97F4A7C15ULL;

// The splitmix64 finaliser: a bijective scramble of one 64-bit word.
std::uint64_t mix64(std::uint64_t z) {
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ULL;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBULL;
    return z ^ (z >> 31);
}

// Fills a xoshiro state from a splitmix64 sequence started at `x`, as xoshiro's authors advise;
// four consecutive outputs of a bijection on distinct counters are never all zero.
Rng::State splitmix_state(std::uint64_t x) {
    Rng::State state{};
    for (auto& word : state) {
        x += golden_gamma;
        word = mix64(x);
    }
    return state;
}

std::uint64_t rotl(std::uint64_t x, int k) {
    return (x << k) | (x >> (64 - k));
}

} // namespace

Rng::Rng(std::uint64_t seed)
    : state_(splitmix_state(seed)) {}

// Seed and stream id are each scrambled before they meet, so streams of one seed start at
// unrelated points (no stream is a shifted copy of another) and stream 0 differs from Rng(seed).
Rng Rng::stream(std::uint64_t seed, std::uint64_t stream_id) {
    Rng rng;
    rng.state_ =
        splitmix_state(mix64(seed) ^ mix64(stream_id * golden_gamma + 0x632BE59BD9B4E019ULL));
    return rng;
}

std::uint64_t Rng::next_u64() {
    const std::uint64_t result = rotl(state_[1] * 5, 7) * 9;
    const std::uint64_t t = state_[1] << 17;
    state_[2] ^= state_[0];
    state_[3] ^= state_[1];
    state_[1] ^= state_[2];
    state_[0] ^= state_[3];
    state_[2] ^= t;
    state_[3] = rotl(state_[3], 45);
    return result;
}

double Rng::uniform() {
    return static_cast<double>(next_u64() >> 11) * 0x1.0p-53;
}

double Rng::uniform(double lo, double hi) {
    return lo + (hi - lo) * uniform();
}

// Box-Muller with both uniforms drawn fresh on every call, so the state alone determines the
// next value. 1 - uniform() lies in (0, 1], keeping the logarithm finite.
double Rng::normal() {
    const double u1 = 1.0 - uniform();
    const double u2 = uniform();
    return std::sqrt(-2.0 * std::log(u1)) * std::cos(2.0 * std::numbers::pi * u2);
}

// Rejects the few draws below 2^64 mod n, so every residue is equally likely.
std::uint64_t Rng::below(std::uint64_t n) {
    if (n == 0)
        throw Error("Rng::below needs n > 0");
    const std::uint64_t threshold = (0 - n) % n;
    for (;;) {
        const std::uint64_t r = next_u64();
        if (r >= threshold)
            return r % n;
    }
}

} // namespace lockstep
