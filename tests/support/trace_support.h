#pragma once

// Comparing traces bit for bit, for the suites that check what a branch of a run keeps.

#include "trace/trace.h"

#include <cstdint>
#include <cstring>
#include <vector>

namespace lockstep::testing {

// Every field, the value by its bits.
inline bool same_event(const TraceEvent& a, const TraceEvent& b) {
    return a.worker == b.worker && a.kind == b.kind && a.step == b.step && a.start == b.start &&
           a.end == b.end && a.bytes == b.bytes && a.peer == b.peer && a.round == b.round &&
           std::memcmp(&a.value, &b.value, sizeof(double)) == 0 && a.microbatch == b.microbatch &&
           a.ordinal == b.ordinal && a.file == b.file;
}

inline bool same_events(const std::vector<TraceEvent>& a, const std::vector<TraceEvent>& b) {
    if (a.size() != b.size())
        return false;
    for (std::size_t i = 0; i < a.size(); ++i)
        if (!same_event(a[i], b[i]))
            return false;
    return true;
}

// The events of the executed steps before `ordinal`, in their order.
inline std::vector<TraceEvent> before(const std::vector<TraceEvent>& events, std::int64_t ordinal) {
    std::vector<TraceEvent> out;
    for (const auto& e : events)
        if (e.ordinal < ordinal)
            out.push_back(e);
    return out;
}

} // namespace lockstep::testing
