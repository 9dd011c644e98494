#pragma once

#include "lockstep/clock.h"
#include "lockstep/collective.h"
#include "lockstep/trace.h"

#include <cstdint>
#include <span>
#include <vector>

namespace lockstep::views {

// What one worker is doing at one instant, as every view names and colours it.
enum class WorkerActivity {
    Idle,
    Computing,
    Sending,
    Receiving,
    Waiting,
    Updating,
    Paused,
    Checkpointing,
    Failed
};

// A message on the wire at one instant: `progress` runs from 0 (just left src) to 1 (arrived).
struct PacketInFlight {
    int src = 0;
    int dst = 0;
    std::int64_t bytes = 0;
    int round = 0;
    double progress = 0.0;
};

// The trace of one run, indexed for the views: which event each lane is in at a given time,
// which messages are in flight, and the latest snapshot. Views ask it questions about the
// playhead; they never look at the engine. Owned and filled by the GUI thread.
class TraceIndex {
public:
    void reset(int workers, Algorithm algorithm);
    void append(std::span<const TraceEvent> events);
    // Room for about `events` events (spread over the lanes like `sample`), so that a long run's
    // growing trace is not copied to new storage in the middle of an animation. Reserved memory
    // is only touched as it fills.
    void reserve(std::size_t events, std::span<const TraceEvent> sample);
    void append(const StepSnapshot& snapshot);
    // Keeps memory flat over long runs: drops the events of the steps before the `k`-th snapshot,
    // in the order the run made them (a rollback after a failure repeats step numbers, so this
    // goes by position and time, not by step number). Snapshots, which are small, stay; views
    // then show those steps through their snapshots only.
    void forget_before_snapshot(std::size_t k);
    std::size_t first_retained_snapshot() const { return first_snapshot_; }
    Ticks earliest_retained_time() const { return earliest_; }

    int workers() const { return workers_; }
    Algorithm algorithm() const { return algorithm_; }
    Ticks end_time() const { return end_; } // latest event end seen so far
    bool empty() const { return events_.empty(); }

    const std::vector<TraceEvent>& events() const { return events_; }
    const std::vector<StepSnapshot>& snapshots() const { return snapshots_; }
    // The events about checkpoints, failures and recovery (CheckpointWrite / Sync / Commit,
    // Failed, Detect, Verify, Restore, Damage), sorted by start. Few and needed long after they
    // happened (a recovery reads checkpoints written long ago), so forget_before_snapshot() keeps
    // them, as it keeps snapshots.
    const std::vector<TraceEvent>& storage_events() const { return storage_; }
    // Events of one worker, sorted by start time.
    std::span<const TraceEvent> lane(int worker) const;

    // The worker's activity at `t`. Send and Receive at once (full duplex) report Sending.
    WorkerActivity activity_at(int worker, Ticks t) const;
    // The lane's event covering `t` (its most telling one), or nullptr when idle.
    const TraceEvent* event_at(int worker, Ticks t) const;
    std::vector<PacketInFlight> packets_at(Ticks t) const;
    // The value (first gradient entry) of the worker's newest Compute or Update that has ended by
    // `t`; false when none has. A gradient still being computed is not known yet.
    bool value_at(int worker, Ticks t, double* value) const;
    // The newest snapshot whose time is <= t, or nullptr before the first step ends.
    const StepSnapshot* snapshot_at(Ticks t) const;
    // Start of the first event that starts after t / the last one that starts before t (for
    // stepping the playhead event by event); t itself when there is none.
    Ticks next_event_start(Ticks t) const;
    Ticks previous_event_start(Ticks t) const;

private:
    int workers_ = 0;
    Algorithm algorithm_ = Algorithm::Ring;
    Ticks end_ = 0;
    std::vector<TraceEvent> events_;
    std::vector<std::vector<TraceEvent>> lanes_;
    std::vector<TraceEvent> sends_; // sorted by start
    // Per lane, the end and value of each Compute and Update, sorted by end.
    std::vector<std::vector<std::pair<Ticks, double>>> values_;
    std::vector<TraceEvent> storage_; // sorted by start, never forgotten
    std::vector<StepSnapshot> snapshots_;
    std::vector<Ticks> starts_; // every event's start, sorted
    std::size_t first_snapshot_ = 0;
    Ticks earliest_ = 0;
};

} // namespace lockstep::views
