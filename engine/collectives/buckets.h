#pragma once

#include "collectives/schedule.h"

#include <cstddef>
#include <cstdint>
#include <span>
#include <vector>

namespace lockstep {

// Gradient buckets, as PyTorch's DDP packs them: the backward pass finishes the layers' gradients
// last layer first, and they go into buckets in that order, each bucket at most `cap` bytes (a
// layer larger than that is a bucket of its own). A bucket's collective can start once its
// layers are done, while backward goes on with the earlier layers. Every worker must reduce the
// buckets in the same order: bucket 0 first.
struct Bucket {
    int id = 0;
    std::size_t first_layer = 0; // layers [first_layer, end_layer): bucket 0 ends with the last
    std::size_t end_layer = 0;
    std::size_t offset = 0; // its doubles in the flat gradient: [offset, offset + count)
    std::size_t count = 0;

    std::int64_t bytes() const { return static_cast<std::int64_t>(count * sizeof(double)); }
};

// The buckets of a gradient whose layer l holds `layer_counts[l]` doubles, laid out layer after
// layer, for buckets of at most `cap_bytes` (0: one bucket, the whole gradient).
std::vector<Bucket> make_buckets(std::span<const std::size_t> layer_counts, std::size_t cap_bytes);

// The bytes of the largest of `buckets`, or of the whole gradient of `count` doubles without any.
std::int64_t largest_bucket_bytes(std::span<const Bucket> buckets, std::size_t count);

// `algorithm`'s all-reduce of `bucket`'s range of buffers `count` doubles long: the schedule of a
// buffer the bucket's length, moved to where the bucket lies. Every element is added in the same
// order as in the whole buffer's schedule for the parameter server and the tree; the ring's
// chunks move with the bucket.
CommSchedule bucket_schedule(Algorithm algorithm, int workers, std::size_t count,
                             const Bucket& bucket, int per_node = 0);

} // namespace lockstep
