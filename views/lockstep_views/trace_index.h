#pragma once

#include "clocks/clock.h"
#include "collectives/schedule.h"
#include "scenario/topology.h"
#include "trace/trace.h"

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <optional>
#include <span>
#include <utility>
#include <vector>

namespace lockstep::views {

namespace detail {

// A vector whose oldest elements are dropped by moving a start mark, in constant time. The
// storage is compacted (what is kept moved to the front) once the dropped part is as large as what
// is left, or when an append would otherwise make the vector grow: the memory reserved for a run's
// window of trace is reused, never reallocated and touched afresh.
template <typename T> class Droppable {
public:
    using iterator = typename std::vector<T>::iterator;
    using const_iterator = typename std::vector<T>::const_iterator;

    iterator begin() { return data_.begin() + static_cast<std::ptrdiff_t>(head_); }
    iterator end() { return data_.end(); }
    const_iterator begin() const { return data_.begin() + static_cast<std::ptrdiff_t>(head_); }
    const_iterator end() const { return data_.end(); }
    std::size_t size() const { return data_.size() - head_; }
    bool empty() const { return size() == 0; }
    const T& operator[](std::size_t i) const { return data_[head_ + i]; }
    const T& front() const { return data_[head_]; }
    std::span<const T> span() const { return {data_.data() + head_, size()}; }

    void push_back(const T& value) {
        make_room();
        data_.push_back(value);
    }
    template <typename... Args> void emplace_back(Args&&... args) {
        make_room();
        data_.emplace_back(std::forward<Args>(args)...);
    }
    void reserve(std::size_t n) { data_.reserve(head_ + n); }
    std::size_t capacity() const { return data_.capacity() - head_; }
    void clear() {
        data_.clear();
        head_ = 0;
    }
    // Removes every kept element that `pred` holds for, keeping the others in order.
    template <typename Pred> std::size_t erase_if(Pred pred) {
        const auto from = data_.begin() + static_cast<std::ptrdiff_t>(head_);
        const auto gone = std::remove_if(from, data_.end(), pred);
        const auto n = static_cast<std::size_t>(data_.end() - gone);
        data_.erase(gone, data_.end());
        return n;
    }
    void drop_front(std::size_t n) {
        head_ += std::min(n, size());
        if (head_ > 0 && head_ >= size())
            compact();
    }

private:
    void make_room() {
        if (head_ > 0 && data_.size() == data_.capacity())
            compact();
    }
    void compact() {
        data_.erase(data_.begin(), data_.begin() + static_cast<std::ptrdiff_t>(head_));
        head_ = 0;
    }

    std::vector<T> data_;
    std::size_t head_ = 0;
};

} // namespace detail

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
inline constexpr std::size_t kWorkerActivityCount =
    static_cast<std::size_t>(WorkerActivity::Failed) + 1;

// What a worker is doing during an event of this kind: the engine's category_of
// (trace/event_kinds.h), which every view's colours and labels follow.
WorkerActivity activity_of(EventKind kind);

// A message on the wire at one instant: `progress` runs from 0 (just left src) to 1 (arrived).
struct PacketInFlight {
    int src = 0;
    int dst = 0;
    std::int64_t bytes = 0;
    int round = 0;
    double progress = 0.0;
    int bucket = -1; // with gradient buckets: the bucket it carries
};

// The trace of one run, indexed for the views: which event each lane is in at a given time,
// which messages are in flight, and the latest snapshot. Views ask it questions about the
// playhead; they never look at the engine. Owned and filled by the GUI thread.
class TraceIndex {
public:
    // `machines`: the run's machines (a scenario's topology; none by default).
    void reset(int workers, Algorithm algorithm, const Topology& machines = {});
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
    // A branch of the run replaces its trace from executed step `ordinal` (TraceEvent::ordinal)
    // on: every event and snapshot from there goes, everything before it stays as it was.
    void truncate_from(std::int64_t ordinal);
    // The first executed step that starts at or after `t` (all its events start there or
    // later), where an intervention at the playhead `t` takes effect; the step after the last
    // one held when there is none.
    std::int64_t ordinal_starting_from(Ticks t) const;
    // Where executed step `ordinal` starts (its earliest event) and which training step it was,
    // or nothing when it is not held.
    struct StepStart {
        std::int64_t ordinal = 0;
        Ticks start = 0;
        std::int64_t step = 0;
    };
    std::optional<StepStart> start_of(std::int64_t ordinal) const;
    // The step the playhead `t` stands in: the latest executed step that has started by `t`
    // (a restarted run's repeated step numbers included), or nothing before the first. Every
    // view and label that names "the step" names this one.
    std::optional<StepStart> step_at(Ticks t) const;
    // The last executed step held, or nothing before the first.
    std::optional<StepStart> last_step() const;
    Ticks earliest_retained_time() const { return earliest_; }

    int workers() const { return workers_; }
    Algorithm algorithm() const { return algorithm_; } // as the run started
    const Topology& machines() const { return machines_; }
    // The run changed its collective from executed step `ordinal` on (a change at the playhead);
    // truncate_from() forgets the changes it cuts off.
    void set_algorithm_from(std::int64_t ordinal, Algorithm algorithm);
    // The collective of the step under `t`.
    Algorithm algorithm_at(Ticks t) const;
    // The links that collective's schedule sends over among the run's workers (src, dst, in the
    // order of its first message), as the engine states them (schedule_links()).
    std::vector<std::pair<int, int>> links_at(Ticks t) const;
    Ticks end_time() const { return end_; } // latest event end seen so far
    // The run reduces its gradient in buckets (events name them): each worker has a compute
    // row and a communication row, busy at once while a bucket travels during backward.
    bool has_buckets() const { return has_buckets_; }
    bool empty() const { return events_.empty(); }

    // Every retained event, in the order they arrived.
    std::span<const TraceEvent> events() const { return events_.span(); }
    // Changes whenever events are added or forgotten: for views that cache what they drew.
    std::uint64_t revision() const { return revision_; }
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
    // In a sharded run, the event at `t` of the first worker that is in a half of the all-reduce
    // (TraceEvent::half), or nullptr when none is.
    const TraceEvent* half_at(Ticks t) const;
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
    Topology machines_;
    Ticks end_ = 0;
    detail::Droppable<TraceEvent> events_;
    std::vector<detail::Droppable<TraceEvent>> lanes_;
    detail::Droppable<TraceEvent> sends_; // sorted by start
    // Per lane, the end and value of each Compute and Update, sorted by end.
    struct LaneValue {
        Ticks end = 0;
        double value = 0.0;
        int ordinal = 0;
    };
    std::vector<detail::Droppable<LaneValue>> values_;
    std::vector<StepStart> step_starts_; // per executed step held, in order
    std::vector<std::pair<std::int64_t, Algorithm>> algorithm_changes_; // by executed step
    std::vector<TraceEvent> storage_; // sorted by start, never forgotten
    std::vector<StepSnapshot> snapshots_;
    detail::Droppable<Ticks> starts_; // every event's start, sorted
    std::uint64_t revision_ = 0;
    std::size_t first_snapshot_ = 0;
    Ticks earliest_ = 0;
    bool has_buckets_ = false;
};

} // namespace lockstep::views
