// A loose-sync run's accounts: its events, each step's snapshot and progress, its metrics.
#include "trainers/loose_sync.h"

#include "trainers/data_parallel.h"

#include <algorithm>
#include <cstdint>
#include <span>
#include <vector>

namespace lockstep {

namespace {

// A push or a pull is this worker's communication (one at a time: they never overlap).
TimeBucket bucket_here(EventKind kind) {
    return kind == EventKind::Send || kind == EventKind::Receive ? TimeBucket::Communication
                                                                 : bucket_of(kind);
}

} // namespace

void LooseSyncTrainer::emit(TraceEvent e) {
    // The step it happens in: the version the run is making (the lanes' own counts run ahead or
    // behind it, and the trace speaks of the run's steps, as every trainer's does).
    e.step = step_;
    const auto lane = static_cast<std::size_t>(e.worker);
    const TimeBucket bucket = bucket_here(e.kind);
    if (bucket != TimeBucket::Overlapping && bucket != TimeBucket::Instant)
        spent_[lane].add(bucket, e.end - e.start);
    // A lane's last few events: the only ones that can reach past the moment a step ends.
    auto& recent = recent_[lane];
    recent.push_back(e);
    if (recent.size() > 8)
        recent.erase(recent.begin());
    if (sink_)
        events_.push_back(e);
}

void LooseSyncTrainer::finish_step(Ticks at) {
    StepSnapshot snap;
    snap.step = step_;
    snap.time = at;
    const auto n = lanes_.size();
    double loss = 0.0;
    for (double x : step_losses_)
        loss += x;
    snap.loss = step_losses_.empty() ? 0.0 : loss / static_cast<double>(step_losses_.size());
    snap.accuracy = step_counted_
                        ? static_cast<double>(step_correct_) / static_cast<double>(step_counted_)
                        : 0.0;
    step_losses_.clear();
    step_correct_ = step_counted_ = 0;
    for (std::size_t k = 0; k < n; ++k) {
        snap.worker_loss.push_back(lanes_[k].last.loss);
        snap.parameter_hash.push_back(hash_parameters(lanes_[k].parameters));
        snap.replicas_aligned =
            snap.replicas_aligned && snap.parameter_hash[k] == snap.parameter_hash[0];
    }
    if (!snap.replicas_aligned) {
        std::vector<std::span<const double>> copies;
        for (const Lane& l : lanes_)
            copies.emplace_back(l.parameters);
        snap.replica_distance = replica_distances(copies);
        snap.replica_spread =
            *std::max_element(snap.replica_distance.begin(), snap.replica_distance.end());
    }
    // The energy spent until `at`: each lane's account without what it has planned beyond it.
    std::vector<WorkerMetrics> spent;
    for (std::size_t k = 0; k < n; ++k) {
        LaneTotals until = spent_[k];
        for (const TraceEvent& e : recent_[k]) {
            const TimeBucket bucket = bucket_here(e.kind);
            if (e.end > at && bucket != TimeBucket::Overlapping && bucket != TimeBucket::Instant)
                until.add(bucket, -(e.end - std::max(e.start, at)));
        }
        spent.push_back(until.seconds());
    }
    progress_.push_back(
        {step_, to_seconds(at), snap.loss, energy_joules(spent, to_seconds(at), scenario_.energy)});
    last_ = snap;
    ++step_;
    pending_snapshots_.push_back(std::move(snap));
}

void LooseSyncTrainer::flush_events(std::int64_t ordinal) {
    if (sink_) {
        std::stable_sort(
            events_.begin(), events_.end(),
            [](const TraceEvent& a, const TraceEvent& b) { return a.start < b.start; });
        for (TraceEvent& e : events_)
            e.ordinal = static_cast<int>(std::min<std::int64_t>(ordinal, INT32_MAX));
        sink_->on_events(events_);
    }
    events_.clear();
}

RunMetrics LooseSyncTrainer::metrics() const {
    RunMetrics m;
    m.workers = scenario_.workers;
    m.workers_at_end = scenario_.workers;
    m.steps = step_;
    m.steps_run = step_;
    m.samples = samples_;
    m.useful_samples = samples_;
    Ticks end = 0;
    for (const Lane& l : lanes_)
        end = std::max(end, l.at);
    std::vector<WorkerMetrics> lanes;
    for (const auto& lane : spent_)
        lanes.push_back(lane.seconds());
    summarise_lanes(m, std::move(lanes), to_seconds(end), scenario_.energy);
    m.bytes_moved = bytes_moved_;
    m.bytes_inter_node = bytes_inter_node_;
    m.trained = true;
    m.final_loss = last_.loss;
    m.final_accuracy = last_.accuracy;
    m.replicas_aligned = last_.replicas_aligned;
    std::int64_t total = prior_staleness_;
    m.max_staleness = prior_max_staleness_;
    for (const AppliedGradient& a : applied_) {
        m.max_staleness = std::max<std::int64_t>(m.max_staleness, a.staleness);
        total += a.staleness;
    }
    const auto count = prior_applied_ + static_cast<std::int64_t>(applied_.size());
    m.mean_staleness = count ? static_cast<double>(total) / static_cast<double>(count) : 0.0;
    m.dropped_gradients = dropped_;
    m.averagings = prior_averagings_;
    return m;
}

} // namespace lockstep
