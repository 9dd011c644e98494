#pragma once

#include "clocks/clock.h"
#include "collectives/buckets.h"
#include "trace/trace.h"

#include <condition_variable>
#include <cstddef>
#include <cstdint>
#include <functional>
#include <mutex>
#include <span>
#include <vector>

// Gradient buckets reduced while backward goes on (overlap.cpp): the threaded trainer's workers
// on the measured clock and a rank over MPI hand their layers over the same way.
namespace lockstep {

// Between the threads that run backward (`parties` of them) and the one thread that reduces the
// buckets: a party says when it has finished a layer, the reducing thread waits until a bucket
// is ready on every party. Nobody waits inside a party's call.
class BucketGate {
public:
    BucketGate(std::span<const Bucket> buckets, std::size_t layers, std::size_t parties);
    // Layer `layer`'s gradient is final on one party: when the layer is a bucket's first (backward
    // runs last layer first), that bucket is ready on one more party.
    void layer_done(std::size_t layer);
    // Until bucket `bucket` is ready on every party; false once the gate is abandoned.
    bool wait_for(std::size_t bucket);
    void abandon(); // a party failed: the reducing thread stops waiting

private:
    std::vector<int> completes_;     // per layer: the bucket it completes, or -1
    std::vector<std::size_t> ready_; // per bucket: the parties done with it
    std::size_t parties_;
    bool abandoned_ = false;
    std::mutex mutex_;
    std::condition_variable changed_;
};

// Runs `compute` on this thread while another thread calls `reduce(b)` for each of `buckets` in
// order, each once `gate` has it ready everywhere; joins that thread, and rethrows what either
// threw (when `compute` throws, the gate is abandoned first, so nothing hangs).
void reduce_beside(BucketGate& gate, std::size_t buckets, const std::function<void()>& compute,
                   const std::function<void(std::size_t)>& reduce);

// A computation handed over layer by layer, as the trace draws it: Compute until the last rows'
// backward began (`backward_from`), then each layer's Backward up to when it was done
// (`layer_done`), last layer first, the first layer's up to `end`; every time kept in
// [start, end].
std::vector<TraceEvent> computation_events(int worker, std::int64_t step, Ticks start,
                                           Ticks backward_from, std::span<const Ticks> layer_done,
                                           Ticks end, double gradient0);

// The events a bucket's collective left, named after it: its id and its layers.
void name_bucket(std::span<TraceEvent> events, const Bucket& bucket);

} // namespace lockstep
