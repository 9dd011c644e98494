#include "collectives/precision.h"

#include <algorithm>
#include <cmath>

namespace lockstep {

namespace {

// A binary floating-point format: its significant bits (the leading one included), the exponent
// of its smallest normal value, and its largest finite value.
struct Format {
    int digits;
    int min_exponent;
    double largest;
};

// The two 16-bit formats.
Format format_of(WirePrecision precision) {
    return precision == WirePrecision::Float16 ? Format{11, -14, 65504.0}
                                               : Format{8, -126, 0x1.fep127};
}

} // namespace

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
    const Format f = format_of(precision);
    int e = 0;
    std::frexp(x, &e);
    const int spacing = std::max(e - 1, f.min_exponent) - (f.digits - 1);
    const double rounded = std::ldexp(std::nearbyint(std::ldexp(x, -spacing)), spacing);
    return std::fabs(rounded) > f.largest ? std::copysign(HUGE_VAL, x) : rounded;
}

void round_to(WirePrecision precision, std::span<double> values) {
    if (precision == WirePrecision::Float64)
        return;
    for (double& v : values)
        v = round_to(precision, v);
}

} // namespace lockstep
