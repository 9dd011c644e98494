#include "lockstep/trace.h"

#include <nlohmann/json.hpp>

#include <cstdio>
#include <sstream>

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
    }
    return "compute";
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
    for (const auto& e : events) {
        nlohmann::json args = {{"step", e.step}};
        if (e.bytes > 0)
            args["bytes"] = e.bytes;
        if (e.peer >= 0)
            args["peer"] = e.peer;
        if (e.round >= 0)
            args["round"] = e.round;
        if (e.kind == EventKind::Compute)
            args["gradient0"] = e.value;
        list.push_back({{"name", std::string(to_string(e.kind))},
                        {"cat", std::string(to_string(e.kind))},
                        {"ph", "X"},
                        {"pid", 0},
                        {"tid", e.worker},
                        {"ts", static_cast<double>(e.start) / 1e3},
                        {"dur", static_cast<double>(e.end - e.start) / 1e3},
                        {"args", std::move(args)}});
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
