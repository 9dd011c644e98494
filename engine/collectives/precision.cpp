#include "collectives/precision.h"

#include "core/error.h"

#include <algorithm>
#include <bit>
#include <cmath>
#include <limits>
#include <string>

namespace lockstep {

namespace {

// float16's bits of a value it holds exactly.
std::uint16_t half_bits(double value) {
    const std::uint16_t sign = std::signbit(value) ? 0x8000 : 0;
    const double a = std::fabs(value);
    if (std::isnan(value))
        return sign | 0x7E00;
    if (std::isinf(value))
        return sign | 0x7C00;
    if (a == 0.0)
        return sign;
    int e = 0;
    std::frexp(a, &e); // a = m 2^e, m in [0.5, 1): its leading bit is 2^(e - 1)
    const int exponent = e - 1;
    if (exponent < -14) // subnormal: a whole number of 2^-24
        return sign | static_cast<std::uint16_t>(std::ldexp(a, 24));
    const auto mantissa = static_cast<std::uint16_t>(std::ldexp(a, 10 - exponent) - 1024.0);
    return sign | static_cast<std::uint16_t>((exponent + 15) << 10) | mantissa;
}

double from_half_bits(std::uint16_t bits) {
    const double sign = bits & 0x8000 ? -1.0 : 1.0;
    const int field = (bits >> 10) & 0x1F;
    const int mantissa = bits & 0x3FF;
    if (field == 0x1F)
        return mantissa ? std::copysign(std::numeric_limits<double>::quiet_NaN(), sign)
                        : sign * std::numeric_limits<double>::infinity();
    if (field == 0)
        return sign * std::ldexp(double(mantissa), -24);
    return sign * std::ldexp(double(1024 + mantissa), field - 25);
}

// A value of the format as its bits, in the low bytes; float32 and bfloat16 (the upper half of
// float32's bits) hold it exactly as a float.
std::uint64_t bits_of(WirePrecision precision, double value) {
    switch (precision) {
    case WirePrecision::Float16:
        return half_bits(value);
    case WirePrecision::BFloat16:
        return std::bit_cast<std::uint32_t>(static_cast<float>(value)) >> 16;
    case WirePrecision::Float32:
        return std::bit_cast<std::uint32_t>(static_cast<float>(value));
    case WirePrecision::Float64:
        break;
    }
    return std::bit_cast<std::uint64_t>(value);
}

double value_of(WirePrecision precision, std::uint64_t bits) {
    switch (precision) {
    case WirePrecision::Float16:
        return from_half_bits(static_cast<std::uint16_t>(bits));
    case WirePrecision::BFloat16:
        return std::bit_cast<float>(static_cast<std::uint32_t>(bits << 16));
    case WirePrecision::Float32:
        return std::bit_cast<float>(static_cast<std::uint32_t>(bits));
    case WirePrecision::Float64:
        break;
    }
    return std::bit_cast<double>(bits);
}

} // namespace

double NumberFormat::largest() const {
    return std::ldexp(2.0 - std::ldexp(1.0, -fraction_bits), max_exponent());
}

double NumberFormat::smallest_normal() const {
    return std::ldexp(1.0, min_exponent());
}

double NumberFormat::smallest_subnormal() const {
    return std::ldexp(1.0, min_exponent() - fraction_bits);
}

double NumberFormat::spacing_at_one() const {
    return std::ldexp(1.0, -fraction_bits);
}

NumberFormat number_format(WirePrecision precision) {
    switch (precision) {
    case WirePrecision::Float32:
        return {32, 8, 23};
    case WirePrecision::Float16:
        return {16, 5, 10};
    case WirePrecision::BFloat16:
        return {16, 8, 7};
    case WirePrecision::Float64:
        break;
    }
    return {64, 11, 52};
}

std::string_view to_string(WirePrecision precision) {
    switch (precision) {
    case WirePrecision::Float64:
        return "float64";
    case WirePrecision::Float32:
        return "float32";
    case WirePrecision::Float16:
        return "float16";
    case WirePrecision::BFloat16:
        return "bfloat16";
    }
    return "unknown";
}

bool parse_wire_precision(std::string_view text, WirePrecision& out) {
    for (WirePrecision p : {WirePrecision::Float64, WirePrecision::Float32, WirePrecision::Float16,
                            WirePrecision::BFloat16})
        if (text == to_string(p)) {
            out = p;
            return true;
        }
    return false;
}

double round_to(WirePrecision precision, double x) {
    if (precision == WirePrecision::Float64 || !std::isfinite(x) || x == 0.0)
        return x;
    if (precision == WirePrecision::Float32)
        return static_cast<double>(static_cast<float>(x)); // IEEE's conversion rounds just so
    // x to a whole number of the format's spacing where x lies (fixed below its normal range),
    // nearest-even being the default rounding; the scalings by powers of two are exact.
    const NumberFormat f = number_format(precision);
    int e = 0;
    std::frexp(x, &e);
    const int spacing = std::max(e - 1, f.min_exponent()) - f.fraction_bits;
    const double rounded = std::ldexp(std::nearbyint(std::ldexp(x, -spacing)), spacing);
    return std::fabs(rounded) > f.largest() ? std::copysign(HUGE_VAL, x) : rounded;
}

void round_to(WirePrecision precision, std::span<double> values) {
    if (precision == WirePrecision::Float64)
        return;
    for (double& v : values)
        v = round_to(precision, v);
}

void encode(WirePrecision precision, std::span<const double> values, std::span<std::byte> out) {
    const std::size_t width = bytes_per_value(precision);
    if (out.size() != values.size() * width)
        throw Error("encode: " + std::to_string(values.size()) + " values take " +
                    std::to_string(values.size() * width) + " bytes, not " +
                    std::to_string(out.size()));
    for (std::size_t i = 0; i < values.size(); ++i) {
        const std::uint64_t bits = bits_of(precision, values[i]);
        for (std::size_t b = 0; b < width; ++b)
            out[i * width + b] = static_cast<std::byte>(bits >> (8 * b));
    }
}

void decode(WirePrecision precision, std::span<const std::byte> in, std::span<double> values) {
    const std::size_t width = bytes_per_value(precision);
    if (in.size() != values.size() * width)
        throw Error("decode: " + std::to_string(in.size()) + " bytes are not " +
                    std::to_string(values.size()) + " values of " + std::to_string(width));
    for (std::size_t i = 0; i < values.size(); ++i) {
        std::uint64_t bits = 0;
        for (std::size_t b = 0; b < width; ++b)
            bits |= std::uint64_t(in[i * width + b]) << (8 * b);
        values[i] = value_of(precision, bits);
    }
}

bool overflowed(std::span<const double> sum) {
    return !std::all_of(sum.begin(), sum.end(), [](double v) { return std::isfinite(v); });
}

LossScaleState after_step(LossScaleState state, bool overflow, int growth_interval) {
    if (overflow)
        return {std::max(1.0, state.scale * 0.5), 0};
    if (++state.good_steps < growth_interval)
        return state;
    return {std::min(max_loss_scale, state.scale * 2.0), 0};
}

} // namespace lockstep
