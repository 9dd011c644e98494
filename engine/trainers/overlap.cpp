#include "trainers/overlap.h"

#include <algorithm>
#include <exception>
#include <thread>

namespace lockstep {

BucketGate::BucketGate(std::span<const Bucket> buckets, std::size_t layers, std::size_t parties)
    : completes_(layers, -1)
    , ready_(buckets.size(), 0)
    , parties_(parties) {
    for (const Bucket& b : buckets)
        completes_[b.first_layer] = b.id;
}

void BucketGate::layer_done(std::size_t layer) {
    if (layer >= completes_.size() || completes_[layer] < 0)
        return;
    {
        const std::lock_guard lock(mutex_);
        ++ready_[static_cast<std::size_t>(completes_[layer])];
    }
    changed_.notify_one();
}

bool BucketGate::wait_for(std::size_t bucket) {
    std::unique_lock lock(mutex_);
    changed_.wait(lock, [&] { return ready_[bucket] == parties_ || abandoned_; });
    return !abandoned_;
}

void BucketGate::abandon() {
    {
        const std::lock_guard lock(mutex_);
        abandoned_ = true;
    }
    changed_.notify_one();
}

void reduce_beside(BucketGate& gate, std::size_t buckets, const std::function<void()>& compute,
                   const std::function<void(std::size_t)>& reduce) {
    std::exception_ptr failed;
    std::thread communication([&] {
        try {
            for (std::size_t b = 0; b < buckets && gate.wait_for(b); ++b)
                reduce(b);
        } catch (...) {
            failed = std::current_exception();
        }
    });
    try {
        compute();
    } catch (...) {
        gate.abandon();
        communication.join();
        throw;
    }
    communication.join();
    if (failed)
        std::rethrow_exception(failed);
}

std::vector<TraceEvent> computation_events(int worker, std::int64_t step, Ticks start,
                                           Ticks backward_from, std::span<const Ticks> layer_done,
                                           Ticks end, double gradient0) {
    auto within = [&](Ticks t) { return std::clamp(t, start, std::max(start, end)); };
    std::vector<TraceEvent> events;
    Ticks at = within(backward_from);
    events.push_back({worker, EventKind::Compute, step, start, at, 0, -1, -1, gradient0});
    for (std::size_t l = layer_done.size(); l-- > 0;) {
        const Ticks done = l == 0 ? std::max(at, end) : std::max(at, within(layer_done[l]));
        TraceEvent e{worker, EventKind::Backward, step, at, done, 0, -1, -1, gradient0};
        e.layer = static_cast<int>(l);
        events.push_back(e);
        at = done;
    }
    return events;
}

void name_bucket(std::span<TraceEvent> events, const Bucket& bucket) {
    for (TraceEvent& e : events) {
        e.bucket = bucket.id;
        e.layer = static_cast<int>(bucket.first_layer);
        e.layer_end = static_cast<int>(bucket.end_layer);
    }
}

} // namespace lockstep
