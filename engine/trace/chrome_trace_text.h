#pragma once

// The text of a Chrome trace, piece by piece (engine internal, trace/chrome_trace*.cpp): numbers,
// fields, a slice's arguments and the lane every element ends with, appended to a string exactly
// as nlohmann::json's dump() laid them out, so that the streamed text equals what the whole-run
// export wrote.

#include "trace/trace.h"

#include <nlohmann/json.hpp>

#include <charconv>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <span>
#include <string>
#include <string_view>

namespace lockstep::chrome_text {

// The text is handed to the stream in pieces of about this size.
inline constexpr std::size_t kFlushAt = 1 << 20;

inline void put_int(std::string& out, std::int64_t v) {
    char text[24];
    const auto end = std::to_chars(text, text + sizeof text, v).ptr;
    out.append(text, static_cast<std::size_t>(end - text));
}

// Exactly as nlohmann::json prints a double (its shortest round-trip form; null when not finite),
// so that the streamed text equals what the library's dump wrote before.
inline void put_double(std::string& out, double v) {
    if (!std::isfinite(v)) {
        out += "null";
        return;
    }
    char text[64];
    const char* end = nlohmann::detail::to_chars(text, text + sizeof text, v);
    out.append(text, static_cast<std::size_t>(end - text));
}

inline double micros(Ticks t) {
    return static_cast<double>(t) / 1e3;
}

// A message of a collective round: merged with its round's others into one slice.
inline bool round_kind(EventKind kind) {
    return kind == EventKind::Send || kind == EventKind::Receive || kind == EventKind::Reduce;
}

// A pipeline transfer: it overlaps the stage's compute, so it is an async slice, not a round.
inline bool transfer(const TraceEvent& e) {
    return e.microbatch >= 0 && (e.kind == EventKind::Send || e.kind == EventKind::Receive);
}

// An argument of a slice; written in the order given, which is kept alphabetical as the JSON
// library sorted them.
struct Arg {
    std::string_view key;
    std::int64_t integer = 0;
    double number = 0.0;
    bool is_number = false;
};
inline Arg arg(std::string_view key, std::int64_t v) {
    return {key, v, 0.0, false};
}
inline Arg arg_number(std::string_view key, double v) {
    return {key, 0, v, true};
}

inline void put_args(std::string& out, std::span<const Arg> args) {
    out += "   \"args\": {";
    for (std::size_t i = 0; i < args.size(); ++i) {
        out += i == 0 ? "\n    \"" : ",\n    \"";
        out += args[i].key;
        out += "\": ";
        if (args[i].is_number)
            put_double(out, args[i].number);
        else
            put_int(out, args[i].integer);
    }
    out += args.empty() ? "},\n" : "\n   },\n";
}

inline void put_field(std::string& out, std::string_view key, std::string_view quoted_value) {
    out += "   \"";
    out += key;
    out += "\": \"";
    out += quoted_value;
    out += "\",\n";
}

// pid, tid and, when given, ts: the fields every element ends with.
inline void put_lane(std::string& out, int worker, const double* ts) {
    out += "   \"pid\": 0,\n   \"tid\": ";
    put_int(out, worker);
    if (ts) {
        out += ",\n   \"ts\": ";
        put_double(out, *ts);
    }
    out += "\n  }";
}

} // namespace lockstep::chrome_text
