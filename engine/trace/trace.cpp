#include "trace/trace.h"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <cstdio>
#include <map>
#include <sstream>
#include <tuple>

namespace lockstep {

std::string_view to_string(EventKind kind) {
    switch (kind) {
    case EventKind::Compute:
        return "compute";
    case EventKind::Send:
        return "send";
    case EventKind::Receive:
        return "receive";
    case EventKind::Reduce:
        return "reduce";
    case EventKind::Wait:
        return "wait";
    case EventKind::Update:
        return "update";
    case EventKind::Communicate:
        return "communicate";
    case EventKind::Pause:
        return "pause";
    case EventKind::CheckpointWrite:
        return "checkpoint-write";
    case EventKind::CheckpointSync:
        return "checkpoint-sync";
    case EventKind::CheckpointCommit:
        return "checkpoint-commit";
    case EventKind::Failed:
        return "failed";
    case EventKind::Detect:
        return "detect";
    case EventKind::Restore:
        return "restore";
    case EventKind::Verify:
        return "verify";
    case EventKind::Damage:
        return "damage";
    case EventKind::Forward:
        return "forward";
    case EventKind::Backward:
        return "backward";
    case EventKind::Bubble:
        return "bubble";
    }
    return "compute";
}

TimeBucket bucket_of(EventKind kind) {
    switch (kind) {
    case EventKind::Compute:
    case EventKind::Forward:
    case EventKind::Backward:
        return TimeBucket::Compute;
    case EventKind::Wait:
    case EventKind::Pause:
    case EventKind::Bubble:
        return TimeBucket::Waiting;
    case EventKind::Update:
        return TimeBucket::Update;
    case EventKind::Communicate:
        return TimeBucket::Communication;
    case EventKind::CheckpointWrite:
    case EventKind::CheckpointSync:
    case EventKind::CheckpointCommit:
        return TimeBucket::Checkpoint;
    case EventKind::Restore:
        return TimeBucket::Restore;
    case EventKind::Failed:
        return TimeBucket::Failed;
    case EventKind::Detect:
    case EventKind::Verify:
    case EventKind::Damage:
        return TimeBucket::Instant;
    case EventKind::Send:
    case EventKind::Receive:
    case EventKind::Reduce:
        break;
    }
    return TimeBucket::Overlapping;
}

TraceEvent checkpoint_event(int worker, FileStage stage, std::int64_t step, Ticks start, Ticks end,
                            std::int64_t bytes) {
    TraceEvent e;
    e.worker = worker;
    e.kind = stage == FileStage::Written     ? EventKind::CheckpointWrite
             : stage == FileStage::Committed ? EventKind::CheckpointCommit
                                             : EventKind::CheckpointSync;
    e.step = step;
    e.start = start;
    e.end = end;
    e.bytes = bytes;
    e.file = stage;
    return e;
}

void Trace::on_events(std::span<const TraceEvent> events) {
    events_.insert(events_.end(), events.begin(), events.end());
}

void Trace::on_snapshot(const StepSnapshot& snapshot) {
    snapshots_.push_back(snapshot);
}

std::string to_chrome_trace_json(std::span<const TraceEvent> events, int workers,
                                 std::string_view run_name) {
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

std::string to_metrics_csv(std::span<const StepSnapshot> snapshots) {
    std::ostringstream out;
    const std::size_t workers = snapshots.empty() ? 0 : snapshots.front().worker_loss.size();
    out << "step,time_s,loss,accuracy,replicas_aligned";
    for (std::size_t w = 0; w < workers; ++w)
        out << ",loss_w" << w;
    for (std::size_t w = 0; w < workers; ++w)
        out << ",hash_w" << w;
    out << '\n';
    char buffer[64];
    for (const auto& s : snapshots) {
        std::snprintf(buffer, sizeof buffer, "%.9f", to_seconds(s.time));
        out << s.step << ',' << buffer;
        std::snprintf(buffer, sizeof buffer, ",%.17g,%.17g", s.loss, s.accuracy);
        out << buffer << ',' << (s.replicas_aligned ? 1 : 0);
        for (double l : s.worker_loss) {
            std::snprintf(buffer, sizeof buffer, ",%.17g", l);
            out << buffer;
        }
        for (auto h : s.parameter_hash) {
            std::snprintf(buffer, sizeof buffer, ",%016llx", static_cast<unsigned long long>(h));
            out << buffer;
        }
        out << '\n';
    }
    return out.str();
}

} // namespace lockstep
