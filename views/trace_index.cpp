#include "lockstep_views/trace_index.h"

#include "trace/event_kinds.h"

#include <algorithm>
#include <functional>

namespace lockstep::views {

namespace {

bool is_storage_event(EventKind kind) {
    switch (kind) {
    case EventKind::CheckpointWrite:
    case EventKind::CheckpointSync:
    case EventKind::CheckpointCommit:
    case EventKind::Failed:
    case EventKind::Detect:
    case EventKind::Verify:
    case EventKind::Restore:
    case EventKind::Damage:
        return true;
    default:
        return false;
    }
}

} // namespace

void TraceIndex::reset(int workers, Algorithm algorithm, const Topology& machines) {
    workers_ = workers;
    algorithm_ = algorithm;
    machines_ = machines;
    end_ = 0;
    events_.clear();
    lanes_.assign(static_cast<std::size_t>(std::max(workers, 0)), {});
    values_.assign(static_cast<std::size_t>(std::max(workers, 0)), {});
    sends_.clear();
    storage_.clear();
    snapshots_.clear();
    starts_.clear();
    step_starts_.clear();
    algorithm_changes_.clear();
    first_snapshot_ = 0;
    earliest_ = 0;
    has_buckets_ = false;
    ++revision_;
}

void TraceIndex::reserve(std::size_t events, std::span<const TraceEvent> sample) {
    if (sample.empty() || events <= events_.capacity())
        return;
    std::vector<std::size_t> per_lane(lanes_.size());
    std::size_t sends = 0;
    for (const auto& e : sample) {
        if (e.worker >= 0 && static_cast<std::size_t>(e.worker) < per_lane.size())
            ++per_lane[static_cast<std::size_t>(e.worker)];
        sends += e.kind == EventKind::Send ? 1 : 0;
    }
    const double scale = static_cast<double>(events) / static_cast<double>(sample.size());
    events_.reserve(events);
    for (std::size_t w = 0; w < lanes_.size(); ++w)
        lanes_[w].reserve(static_cast<std::size_t>(static_cast<double>(per_lane[w]) * scale) + 16);
    sends_.reserve(static_cast<std::size_t>(static_cast<double>(sends) * scale) + 16);
}

void TraceIndex::append(std::span<const TraceEvent> events) {
    // Batches arrive step by step, nearly in time order: append, then merge the new tail into
    // the sorted part (linear), instead of inserting event by event (quadratic).
    auto by_start = [](const TraceEvent& a, const TraceEvent& b) { return a.start < b.start; };
    std::vector<std::size_t> lane_sizes(lanes_.size());
    std::vector<std::size_t> value_sizes(values_.size());
    for (std::size_t w = 0; w < lanes_.size(); ++w) {
        lane_sizes[w] = lanes_[w].size();
        value_sizes[w] = values_[w].size();
    }
    const std::size_t sends_size = sends_.size();
    const std::size_t storage_size = storage_.size();
    const std::size_t starts_size = starts_.size();
    for (const auto& e : events) {
        if (e.worker < 0 || e.worker >= workers_)
            continue;
        events_.push_back(e);
        lanes_[static_cast<std::size_t>(e.worker)].push_back(e);
        if (e.kind == EventKind::Compute || e.kind == EventKind::Update ||
            (e.kind == EventKind::Backward && e.layer >= 0))
            values_[static_cast<std::size_t>(e.worker)].push_back({e.end, e.value, e.ordinal});
        has_buckets_ = has_buckets_ || e.bucket >= 0;
        if (e.kind == EventKind::Send)
            sends_.push_back(e);
        if (is_storage_event(e.kind))
            storage_.push_back(e);
        starts_.push_back(e.start);
        end_ = std::max(end_, e.end);
        if (step_starts_.empty() || step_starts_.back().ordinal < e.ordinal)
            step_starts_.push_back({e.ordinal, e.start, e.step});
        else if (step_starts_.back().ordinal == e.ordinal)
            step_starts_.back().start = std::min(step_starts_.back().start, e.start);
    }
    auto settle = [&](auto& list, std::size_t old_size, auto less) {
        const auto middle = list.begin() + static_cast<std::ptrdiff_t>(old_size);
        if (!std::is_sorted(middle, list.end(), less))
            std::stable_sort(middle, list.end(), less);
        // Most batches start where the last one ended: then there is nothing to merge.
        if (middle != list.begin() && middle != list.end() && less(*middle, *(middle - 1)))
            std::inplace_merge(list.begin(), middle, list.end(), less);
    };
    auto by_end = [](const LaneValue& a, const LaneValue& b) { return a.end < b.end; };
    for (std::size_t w = 0; w < lanes_.size(); ++w) {
        settle(lanes_[w], lane_sizes[w], by_start);
        settle(values_[w], value_sizes[w], by_end);
    }
    settle(sends_, sends_size, by_start);
    settle(storage_, storage_size, by_start);
    settle(starts_, starts_size, std::less<Ticks>());
    ++revision_;
}

void TraceIndex::forget_before_snapshot(std::size_t k) {
    if (k == 0 || k > snapshots_.size() || k <= first_snapshot_)
        return;
    const Ticks until = snapshots_[k - 1].time;
    // Each list loses its oldest entries up to the first that ends after `until` (one long event,
    // a failure say, keeps the few after it a little longer): no entry that is kept moves.
    auto drop = [until](auto& list, auto end_of) {
        std::size_t n = 0;
        while (n < list.size() && end_of(list[n]) <= until)
            ++n;
        list.drop_front(n);
        return n;
    };
    auto event_end = [](const TraceEvent& e) { return e.end; };
    if (drop(events_, event_end) == 0)
        return;
    Ticks earliest = end_;
    for (auto& lane : lanes_) {
        drop(lane, event_end);
        if (!lane.empty())
            earliest = std::min(earliest, lane.front().start); // lanes are sorted by start
    }
    // A lane's newest finished value before the window stays: it is still the one to show.
    for (auto& values : values_) {
        const auto finished =
            std::upper_bound(values.begin(), values.end(), until,
                             [](Ticks t, const LaneValue& v) { return t < v.end; });
        const auto older = static_cast<std::size_t>(finished - values.begin());
        values.drop_front(older > 0 ? older - 1 : 0);
    }
    drop(sends_, event_end);
    starts_.drop_front(static_cast<std::size_t>(
        std::lower_bound(starts_.begin(), starts_.end(), earliest) - starts_.begin()));
    first_snapshot_ = k;
    earliest_ = earliest;
    ++revision_;
}

void TraceIndex::truncate_from(std::int64_t ordinal) {
    auto later = [ordinal](const TraceEvent& e) { return e.ordinal >= ordinal; };
    // The starts of what goes, to take out of the sorted list of starts in one pass.
    std::vector<Ticks> gone;
    for (const auto& lane : lanes_)
        for (const auto& e : lane)
            if (later(e))
                gone.push_back(e.start);
    std::sort(gone.begin(), gone.end());
    std::size_t g = 0;
    starts_.erase_if([&](Ticks t) {
        while (g < gone.size() && gone[g] < t)
            ++g;
        if (g < gone.size() && gone[g] == t) {
            ++g;
            return true;
        }
        return false;
    });
    events_.erase_if(later);
    for (auto& lane : lanes_)
        lane.erase_if(later);
    for (auto& values : values_)
        values.erase_if([ordinal](const LaneValue& v) { return v.ordinal >= ordinal; });
    sends_.erase_if(later);
    std::erase_if(storage_, later);
    std::erase_if(snapshots_, [ordinal](const StepSnapshot& s) { return s.ordinal >= ordinal; });
    std::erase_if(step_starts_, [ordinal](const StepStart& s) { return s.ordinal >= ordinal; });
    std::erase_if(algorithm_changes_, [ordinal](const auto& c) { return c.first >= ordinal; });
    first_snapshot_ = std::min(first_snapshot_, snapshots_.size());
    Ticks end = snapshots_.empty() ? 0 : snapshots_.back().time;
    for (const auto& e : events_)
        end = std::max(end, e.end);
    for (const auto& e : storage_)
        end = std::max(end, e.end);
    end_ = end;
    ++revision_;
}

void TraceIndex::set_algorithm_from(std::int64_t ordinal, Algorithm algorithm) {
    std::erase_if(algorithm_changes_, [ordinal](const auto& c) { return c.first >= ordinal; });
    algorithm_changes_.emplace_back(ordinal, algorithm);
    ++revision_;
}

std::vector<std::pair<int, int>> TraceIndex::links_at(Ticks t) const {
    return schedule_links(algorithm_at(t), workers_,
                          machines_.even(workers_) ? machines_.workers_per_node : 0);
}

Algorithm TraceIndex::algorithm_at(Ticks t) const {
    if (algorithm_changes_.empty())
        return algorithm_;
    // The executed step under t: the last one that has started by then.
    const auto it =
        std::upper_bound(step_starts_.begin(), step_starts_.end(), t,
                         [](Ticks value, const StepStart& s) { return value < s.start; });
    const std::int64_t ordinal = it == step_starts_.begin() ? 0 : (it - 1)->ordinal;
    Algorithm a = algorithm_;
    for (const auto& [from, algorithm] : algorithm_changes_)
        if (from <= ordinal)
            a = algorithm;
    return a;
}

std::int64_t TraceIndex::ordinal_starting_from(Ticks t) const {
    const auto it =
        std::lower_bound(step_starts_.begin(), step_starts_.end(), t,
                         [](const StepStart& s, Ticks value) { return s.start < value; });
    if (it != step_starts_.end())
        return it->ordinal;
    return step_starts_.empty() ? 0 : step_starts_.back().ordinal + 1;
}

std::optional<TraceIndex::StepStart> TraceIndex::step_at(Ticks t) const {
    const auto it =
        std::upper_bound(step_starts_.begin(), step_starts_.end(), t,
                         [](Ticks value, const StepStart& s) { return value < s.start; });
    if (it == step_starts_.begin())
        return std::nullopt;
    return *std::prev(it);
}

std::optional<TraceIndex::StepStart> TraceIndex::start_of(std::int64_t ordinal) const {
    const auto it =
        std::lower_bound(step_starts_.begin(), step_starts_.end(), ordinal,
                         [](const StepStart& s, std::int64_t value) { return s.ordinal < value; });
    if (it == step_starts_.end() || it->ordinal != ordinal)
        return std::nullopt;
    return *it;
}

std::optional<TraceIndex::StepStart> TraceIndex::last_step() const {
    if (step_starts_.empty())
        return std::nullopt;
    return step_starts_.back();
}

void TraceIndex::append(const StepSnapshot& snapshot) {
    snapshots_.push_back(snapshot);
}

std::span<const TraceEvent> TraceIndex::lane(int worker) const {
    if (worker < 0 || worker >= workers_)
        return {};
    return lanes_[static_cast<std::size_t>(worker)].span();
}

// Of the events covering t, the one the engine's priority (trace/event_kinds.h) puts first.
const TraceEvent* TraceIndex::event_at(int worker, Ticks t) const {
    const auto events = lane(worker);
    // Events that cover t start at or before t; lanes are short enough per step that scanning
    // back from the first event starting after t is cheap (events overlap only within a round).
    auto it = std::upper_bound(events.begin(), events.end(), t,
                               [](Ticks value, const TraceEvent& e) { return value < e.start; });
    const TraceEvent* best = nullptr;
    int scanned = 0;
    while (it != events.begin() && scanned < 64) {
        --it;
        ++scanned;
        const bool covers =
            it->start <= t && (t < it->end || (it->start == it->end && t == it->start));
        if (covers && (!best || priority_of(it->kind) > priority_of(best->kind)))
            best = &*it;
    }
    return best;
}

// The engine's category of the kind (trace/event_kinds.h), in the views' words.
WorkerActivity activity_of(EventKind kind) {
    switch (category_of(kind)) {
    case EventCategory::Compute:
        return WorkerActivity::Computing;
    case EventCategory::Send:
        return WorkerActivity::Sending;
    case EventCategory::Receive:
        return WorkerActivity::Receiving;
    case EventCategory::Wait:
        return WorkerActivity::Waiting;
    case EventCategory::Update:
        return WorkerActivity::Updating;
    case EventCategory::Pause:
        return WorkerActivity::Paused;
    case EventCategory::Checkpoint:
        return WorkerActivity::Checkpointing;
    case EventCategory::Failure:
        return WorkerActivity::Failed;
    }
    return WorkerActivity::Idle;
}

WorkerActivity TraceIndex::activity_at(int worker, Ticks t) const {
    const TraceEvent* e = event_at(worker, t);
    return e ? activity_of(e->kind) : WorkerActivity::Idle;
}

std::vector<PacketInFlight> TraceIndex::packets_at(Ticks t) const {
    std::vector<PacketInFlight> out;
    auto it = std::upper_bound(sends_.begin(), sends_.end(), t,
                               [](Ticks value, const TraceEvent& e) { return value < e.start; });
    int scanned = 0;
    while (it != sends_.begin() && scanned < 4096) {
        --it;
        ++scanned;
        if (it->start <= t && t < it->end) {
            const double span = static_cast<double>(it->end - it->start);
            out.push_back({it->worker, it->peer, it->bytes, it->round,
                           span > 0 ? static_cast<double>(t - it->start) / span : 1.0, it->bucket});
        }
    }
    std::reverse(out.begin(), out.end());
    return out;
}

bool TraceIndex::value_at(int worker, Ticks t, double* value) const {
    if (worker < 0 || worker >= workers_)
        return false;
    const auto& values = values_[static_cast<std::size_t>(worker)];
    const auto it = std::upper_bound(values.begin(), values.end(), t,
                                     [](Ticks v, const LaneValue& entry) { return v < entry.end; });
    if (it == values.begin())
        return false;
    *value = (it - 1)->value;
    return true;
}

const StepSnapshot* TraceIndex::snapshot_at(Ticks t) const {
    auto it = std::upper_bound(snapshots_.begin(), snapshots_.end(), t,
                               [](Ticks value, const StepSnapshot& s) { return value < s.time; });
    if (it == snapshots_.begin())
        return nullptr;
    return &*(it - 1);
}

Ticks TraceIndex::next_event_start(Ticks t) const {
    auto it = std::upper_bound(starts_.begin(), starts_.end(), t);
    return it == starts_.end() ? t : *it;
}

Ticks TraceIndex::previous_event_start(Ticks t) const {
    auto it = std::lower_bound(starts_.begin(), starts_.end(), t);
    return it == starts_.begin() ? t : *(it - 1);
}

const TraceEvent* TraceIndex::half_at(Ticks t) const {
    for (int k = 0; k < workers_; ++k)
        if (const TraceEvent* e = event_at(k, t); e && e->half != CollectiveHalf::None)
            return e;
    return nullptr;
}

} // namespace lockstep::views
