#pragma once

#include <cstddef>
#include <cstdint>
#include <span>
#include <string_view>

// The number format gradients travel in between workers. Training itself is in float64; a
// collective may send its values in fewer bits (a quarter of the bytes in float16), each worker's
// contribution rounded to the format before it leaves, and every addition along the way rounded
// to it again, as a collective in that format adds. The rounding is the IEEE one, to nearest with
// ties to even, element by element, so the schedule's fixed order of additions still gives the
// same bits however many threads or processes run it. Between processes the values travel as the
// format's own bytes (encode, decode).
namespace lockstep {

enum class WirePrecision : std::uint8_t { Float64, Float32, Float16, BFloat16 };

std::string_view to_string(WirePrecision precision);
bool parse_wire_precision(std::string_view text, WirePrecision& out);

constexpr std::size_t bytes_per_value(WirePrecision precision) {
    switch (precision) {
    case WirePrecision::Float64:
        return 8;
    case WirePrecision::Float32:
        return 4;
    case WirePrecision::Float16:
    case WirePrecision::BFloat16:
        return 2;
    }
    return 8;
}

// What a binary floating-point format keeps: its bits, split into a sign bit, the exponent's and
// the fraction's (the significand's bits after its leading one, which is not stored), and the
// values that follow from them (IEEE 754's layout; bfloat16 is float32's upper half).
struct NumberFormat {
    int bits = 64;
    int exponent_bits = 11;
    int fraction_bits = 52;

    int max_exponent() const { return (1 << (exponent_bits - 1)) - 1; } // of its largest values
    int min_exponent() const { return 1 - max_exponent(); } // of its smallest normal value
    double largest() const;                                 // (2 - 2^-fraction_bits) 2^max_exponent
    double smallest_normal() const;                         // 2^min_exponent
    double smallest_subnormal() const;                      // 2^(min_exponent - fraction_bits)
    double spacing_at_one() const; // from 1 to the next value: 2^-fraction_bits
};
NumberFormat number_format(WirePrecision precision);

// x as the nearest value the format holds (ties to even), as a double: past the format's largest
// finite value it is infinity with x's sign (an overflow), below its smallest it is a subnormal
// or a zero of x's sign; NaN stays NaN. Float64 leaves x as it is.
double round_to(WirePrecision precision, double x);
void round_to(WirePrecision precision, std::span<double> values);

// A sum that overflowed its format: an infinity in it, or a NaN (infinities of both signs added).
bool overflowed(std::span<const double> sum);

// Dynamic loss scaling, as mixed-precision training does it (PyTorch's GradScaler): each worker's
// gradient is multiplied by the scale, a power of two, before it is rounded to the format (what
// multiplying the loss by it would do to the gradient), so that small values keep their bits
// instead of rounding to zero; the sum is divided by it again, exactly. A step whose sum
// overflowed is skipped and the scale halved (never below 1); after `growth_interval` steps in a
// row without an overflow it doubles (never above 2^24).
struct LossScaleConfig {
    double initial = 65536.0;
    int growth_interval = 2000;
};
struct LossScaleState {
    double scale = 1.0;
    std::int64_t good_steps = 0; // since the last overflow or growth
};
inline constexpr double max_loss_scale = 16777216.0; // 2^24
// The state after a step that overflowed or not.
LossScaleState after_step(LossScaleState state, bool overflow, int growth_interval);

// Values that are already the format's (round_to) as its bytes, little-endian,
// bytes_per_value() each, and back: what a process sends and receives.
void encode(WirePrecision precision, std::span<const double> values, std::span<std::byte> out);
void decode(WirePrecision precision, std::span<const std::byte> in, std::span<double> values);

} // namespace lockstep
