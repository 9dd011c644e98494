#include "collectives/buckets.h"

#include <algorithm>

namespace lockstep {

std::vector<Bucket> make_buckets(std::span<const std::size_t> layer_counts, std::size_t cap_bytes) {
    std::vector<std::size_t> starts(layer_counts.size() + 1, 0);
    for (std::size_t l = 0; l < layer_counts.size(); ++l)
        starts[l + 1] = starts[l] + layer_counts[l];
    std::vector<Bucket> buckets;
    std::size_t end = layer_counts.size();
    while (end > 0) {
        // Take layers from `end` downwards while the bucket stays within the cap; at least one.
        std::size_t first = cap_bytes == 0 ? 0 : end - 1;
        while (first > 0 && (starts[end] - starts[first - 1]) * sizeof(double) <= cap_bytes)
            --first;
        buckets.push_back({static_cast<int>(buckets.size()), first, end, starts[first],
                           starts[end] - starts[first]});
        end = first;
    }
    return buckets;
}

CommSchedule bucket_schedule(Algorithm algorithm, int workers, std::size_t count,
                             const Bucket& bucket, int per_node) {
    CommSchedule s = make_schedule(algorithm, workers, bucket.count, per_node);
    s.count = count;
    for (Round& round : s.rounds)
        for (Message& m : round.messages)
            m.offset += bucket.offset;
    return s;
}

std::int64_t largest_bucket_bytes(std::span<const Bucket> buckets, std::size_t count) {
    if (buckets.empty())
        return static_cast<std::int64_t>(count * sizeof(double));
    std::int64_t largest = 0;
    for (const Bucket& b : buckets)
        largest = std::max(largest, b.bytes());
    return largest;
}

} // namespace lockstep
