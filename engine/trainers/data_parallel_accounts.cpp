#include "trainers/data_parallel.h"

#include <algorithm>
#include <cstdint>
#include <limits>

// The data-parallel run's accounts: every event goes to its lane's time and, when someone
// listens, to the trace; the run's figures are added up from them.

namespace lockstep {

void DataParallelTrainer::emit(TraceEvent e) {
    // Events name workers by index; the trace names them by lane, which stays the same when a
    // worker leaves the run.
    e.worker = ids_[static_cast<std::size_t>(e.worker)];
    if (e.peer >= 0 && e.kind != EventKind::Verify) // a Verify's peer is its verdict
        e.peer = ids_[static_cast<std::size_t>(e.peer)];
    // Checkpoint phases name the checkpoint they belong to: the state after this step's update.
    if (e.round < 0 &&
        (e.kind == EventKind::CheckpointWrite || e.kind == EventKind::CheckpointSync ||
         e.kind == EventKind::CheckpointCommit))
        e.round = static_cast<int>(std::min<std::int64_t>(step_ + 1, INT32_MAX));
    emit_lane(e);
}

void DataParallelTrainer::emit_lane(const TraceEvent& e) {
    spent_[static_cast<std::size_t>(e.worker)].add(e);
    if (sink_) {
        events_.push_back(e);
        events_.back().ordinal = static_cast<int>(std::min<std::int64_t>(ordinal_, INT32_MAX));
    }
}

void DataParallelTrainer::close_round(std::span<const Ticks> from) {
    // Per worker, in time order: every gap since `from` is waiting; busy time is the union.
    for (const int w : touched_) {
        auto& list = busy_[static_cast<std::size_t>(w)];
        std::sort(list.begin(), list.end()); // a handful of intervals per worker and round
        Ticks at = from[static_cast<std::size_t>(w)];
        Ticks covered = 0;
        for (const auto& [start, end] : list) {
            if (start > at)
                emit({w, EventKind::Wait, step_, at, start});
            covered += std::max<Ticks>(0, end - std::max(start, at));
            at = std::max(at, end);
        }
        spent_[static_cast<std::size_t>(ids_[static_cast<std::size_t>(w)])].add(
            TimeBucket::Communication, covered);
        list.clear();
    }
    touched_.clear();
}

void DataParallelTrainer::mark_busy(int worker, Ticks start, Ticks end) {
    auto& list = busy_[static_cast<std::size_t>(worker)];
    if (list.empty())
        touched_.push_back(worker);
    list.emplace_back(start, end);
}

RunMetrics DataParallelTrainer::metrics() const {
    RunMetrics m;
    m.workers = lanes_;
    m.workers_at_end = scenario_.workers;
    m.steps = step_;
    m.samples = samples_;
    m.steps_run = steps_run_;
    m.useful_samples = samples_ - lost_samples_ - dropped_samples_;
    Ticks end = 0;
    for (const auto& w : workers_)
        end = std::max(end, w.clock);
    std::vector<WorkerMetrics> lanes;
    for (const auto& lane : spent_)
        lanes.push_back(lane.seconds());
    summarise_lanes(m, std::move(lanes), to_seconds(end), scenario_.energy);
    m.checkpoints = checkpoints_;
    m.checkpoint_bytes = checkpoint_bytes_;
    m.bytes_moved = bytes_moved_;
    m.trained = work_ == Work::Train;
    m.final_loss = last_snapshot_.loss;
    m.final_accuracy = last_snapshot_.accuracy;
    m.replicas_aligned = m.trained && aligned_; // times only: nothing was compared
    m.misaligned_steps = misaligned_steps_;
    m.failures = static_cast<std::int64_t>(recoveries_.size());
    m.lost_steps = lost_steps_;
    m.lost_worker_s = to_seconds(lost_lane_time_);
    m.detection_s = to_seconds(detection_);
    m.recovery_s = to_seconds(recovery_);
    m.dropped_gradients = dropped_gradients_;
    return m;
}

} // namespace lockstep
