#include "trace/trace.h"

#include "trace/chrome_trace.h"

#include <algorithm>
#include <cstdio>
#include <map>
#include <sstream>
#include <string>
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
    case EventKind::Mismatch:
        return "mismatch";
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
    case EventKind::Mismatch:
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
    e.outcome = stage == FileStage::None ? PhaseOutcome::None : PhaseOutcome::Done;
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
    std::ostringstream out;
    ChromeTraceWriter writer(out, workers, run_name);
    writer.on_events(events);
    writer.finish();
    return std::move(out).str();
}

std::string metrics_csv_header(std::size_t workers) {
    std::string out = "step,time_s,loss,accuracy,replicas_aligned";
    for (std::size_t w = 0; w < workers; ++w)
        out += ",loss_w" + std::to_string(w);
    for (std::size_t w = 0; w < workers; ++w)
        out += ",hash_w" + std::to_string(w);
    out += '\n';
    return out;
}

std::string metrics_csv_row(const StepSnapshot& s) {
    std::string out = std::to_string(s.step);
    char buffer[64];
    std::snprintf(buffer, sizeof buffer, ",%.9f,%.17g,%.17g,%d", to_seconds(s.time), s.loss,
                  s.accuracy, s.replicas_aligned ? 1 : 0);
    out += buffer;
    for (double l : s.worker_loss) {
        std::snprintf(buffer, sizeof buffer, ",%.17g", l);
        out += buffer;
    }
    for (auto h : s.parameter_hash) {
        std::snprintf(buffer, sizeof buffer, ",%016llx", static_cast<unsigned long long>(h));
        out += buffer;
    }
    out += '\n';
    return out;
}

std::string to_metrics_csv(std::span<const StepSnapshot> snapshots) {
    std::string out =
        metrics_csv_header(snapshots.empty() ? 0 : snapshots.front().worker_loss.size());
    for (const auto& s : snapshots)
        out += metrics_csv_row(s);
    return out;
}

} // namespace lockstep
