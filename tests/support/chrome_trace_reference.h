#pragma once

// The Chrome trace export as it was before it streamed: every event collected, one JSON document
// built with nlohmann::json and dumped whole. The oracle the streaming ChromeTraceWriter must
// match byte for byte.

#include "trace/trace.h"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <map>
#include <span>
#include <string>
#include <string_view>
#include <tuple>

namespace lockstep::testing {

inline std::string reference_chrome_trace_json(std::span<const TraceEvent> events, int workers,
                                               std::string_view run_name = "lockstep") {

    nlohmann::json list = nlohmann::json::array();
    list.push_back({{"name", "process_name"},
                    {"ph", "M"},
                    {"pid", 0},
                    {"tid", 0},
                    {"args", {{"name", std::string(run_name)}}}});
    for (int w = 0; w < workers; ++w) {
        list.push_back({{"name", "thread_name"},
                        {"ph", "M"},
                        {"pid", 0},
                        {"tid", w},
                        {"args", {{"name", "worker " + std::to_string(w)}}}});
        list.push_back({{"name", "thread_sort_index"},
                        {"ph", "M"},
                        {"pid", 0},
                        {"tid", w},
                        {"args", {{"sort_index", w}}}});
    }
    // A worker sends and receives at the same time (full duplex), so its send, receive and
    // reduce intervals of one round are merged into one "communicate" slice per round: Perfetto
    // needs the slices of a lane to nest.
    struct RoundSlice {
        Ticks start = 0, end = 0;
        std::int64_t sent = 0, received = 0;
    };
    // Keyed by the executed step too: a rollback repeats step numbers, never executed steps.
    std::map<std::tuple<int, int, std::int64_t, int>, RoundSlice> rounds;
    auto add_slice = [&](const std::string& name, int worker, Ticks start, Ticks end,
                         nlohmann::json args) {
        list.push_back({{"name", name},
                        {"cat", name},
                        {"ph", "X"},
                        {"pid", 0},
                        {"tid", worker},
                        {"ts", static_cast<double>(start) / 1e3},
                        {"dur", static_cast<double>(end - start) / 1e3},
                        {"args", std::move(args)}});
    };
    // Pipeline transfers overlap the stage's compute (and each other, both directions at once):
    // they go in as async slices, which need not nest.
    std::int64_t transfer_id = 0;
    auto add_transfer = [&](const TraceEvent& e) {
        const bool forward = (e.kind == EventKind::Send) == (e.peer > e.worker);
        const std::string name = std::string(forward ? "activations" : "activation gradients") +
                                 (e.kind == EventKind::Send ? " to " : " from ") + "worker " +
                                 std::to_string(e.peer);
        nlohmann::json args = {
            {"step", e.step}, {"microbatch", e.microbatch}, {"bytes", e.bytes}, {"peer", e.peer}};
        const std::string cat = forward ? "activations" : "activation-gradients";
        ++transfer_id;
        list.push_back({{"name", name},
                        {"cat", cat},
                        {"ph", "b"},
                        {"id", transfer_id},
                        {"pid", 0},
                        {"tid", e.worker},
                        {"ts", static_cast<double>(e.start) / 1e3},
                        {"args", std::move(args)}});
        list.push_back({{"name", name},
                        {"cat", cat},
                        {"ph", "e"},
                        {"id", transfer_id},
                        {"pid", 0},
                        {"tid", e.worker},
                        {"ts", static_cast<double>(e.end) / 1e3}});
    };
    for (const auto& e : events) {
        if (e.microbatch >= 0 && (e.kind == EventKind::Send || e.kind == EventKind::Receive)) {
            add_transfer(e);
            continue;
        }
        if (e.kind == EventKind::Send || e.kind == EventKind::Receive ||
            e.kind == EventKind::Reduce) {
            auto [it, fresh] = rounds.try_emplace({e.worker, e.ordinal, e.step, e.round},
                                                  RoundSlice{e.start, e.end});
            auto& slice = it->second;
            slice.start = std::min(slice.start, e.start);
            slice.end = std::max(slice.end, e.end);
            if (e.kind == EventKind::Send)
                slice.sent += e.bytes;
            if (e.kind == EventKind::Receive)
                slice.received += e.bytes;
            continue;
        }
        nlohmann::json args = {{"step", e.step}};
        if (e.bytes > 0)
            args["bytes"] = e.bytes;
        if (e.kind == EventKind::Compute || e.kind == EventKind::Update)
            args["gradient0"] = e.value;
        if (e.microbatch >= 0)
            args["microbatch"] = e.microbatch;
        add_slice(std::string(to_string(e.kind)), e.worker, e.start, e.end, std::move(args));
    }
    for (const auto& [key, slice] : rounds) {
        const auto& [worker, ordinal, step, round] = key;
        add_slice("communicate", worker, slice.start, slice.end,
                  {{"step", step},
                   {"round", round},
                   {"bytes_sent", slice.sent},
                   {"bytes_received", slice.received}});
    }
    nlohmann::json doc = {{"traceEvents", std::move(list)}, {"displayTimeUnit", "ms"}};
    return doc.dump(1);
}

} // namespace lockstep::testing
