#include "data/data.h"

#include "core/error.h"

#include <algorithm>
#include <charconv>
#include <cmath>
#include <filesystem>
#include <fstream>
#include <limits>
#include <numbers>
#include <system_error>
#include <utility>

// Shards, the cursor each worker reads its shard with, and the rows of a batch.

namespace lockstep {

namespace {

constexpr int max_workers = 256;

} // namespace

std::vector<Shard> equal_shards(std::size_t rows, int workers) {
    if (workers < 1 || workers > max_workers)
        throw Error("workers must be in 1..256, got " + std::to_string(workers));
    const auto n = static_cast<std::size_t>(workers);
    if (rows < n)
        throw Error("cannot split " + std::to_string(rows) + " rows among " +
                    std::to_string(workers) + " workers: every worker needs at least one row");
    // floor(k*rows/n) without overflow: k*(q*n + r)/n = k*q + floor(k*r/n), with k*r < 256^2.
    const std::size_t q = rows / n;
    const std::size_t r = rows % n;
    const auto boundary = [&](std::size_t k) { return k * q + (k * r) / n; };
    std::vector<Shard> shards(n);
    for (std::size_t k = 0; k < n; ++k)
        shards[k] = Shard{boundary(k), boundary(k + 1)};
    return shards;
}

std::vector<Shard> sized_shards(std::size_t rows, std::span<const std::size_t> sizes) {
    if (sizes.empty() || sizes.size() > static_cast<std::size_t>(max_workers))
        throw Error("shard sizes must list 1..256 workers, got " + std::to_string(sizes.size()));
    std::vector<Shard> shards;
    shards.reserve(sizes.size());
    std::size_t begin = 0;
    for (std::size_t k = 0; k < sizes.size(); ++k) {
        if (sizes[k] == 0)
            throw Error("shard size of worker " + std::to_string(k) +
                        " is 0; every worker needs "
                        "at least one row");
        if (sizes[k] > rows - begin)
            throw Error("shard sizes need more rows than the dataset has (" + std::to_string(rows) +
                        ") by worker " + std::to_string(k));
        shards.push_back(Shard{begin, begin + sizes[k]});
        begin += sizes[k];
    }
    return shards;
}

DataCursor::DataCursor(Shard shard, bool shuffle, Rng rng)
    : shard_(shard)
    , shuffle_(shuffle)
    , rng_(rng) {
    if (shard_.end <= shard_.begin)
        throw Error("a data cursor needs a shard with at least one row");
    if (shard_.size() > std::numeric_limits<std::uint32_t>::max())
        throw Error("a shard of " + std::to_string(shard_.size()) + " rows is too large");
    if (shuffle_)
        start_epoch();
}

// Draws this epoch's order: a Fisher-Yates shuffle of the shard's positions.
void DataCursor::start_epoch() {
    const std::size_t n = shard_.size();
    order_.resize(n);
    for (std::size_t i = 0; i < n; ++i)
        order_[i] = static_cast<std::uint32_t>(i);
    for (std::size_t i = n - 1; i > 0; --i) {
        const auto j = static_cast<std::size_t>(rng_.below(i + 1));
        std::swap(order_[i], order_[j]);
    }
}

void DataCursor::next_batch(std::size_t batch, std::vector<std::size_t>& rows) {
    rows.clear();
    rows.reserve(batch);
    const std::size_t n = shard_.size();
    for (std::size_t b = 0; b < batch; ++b) {
        const std::size_t offset = shuffle_ ? order_[position_] : position_;
        rows.push_back(shard_.begin + offset);
        if (++position_ == n) {
            position_ = 0;
            ++epoch_;
            if (shuffle_)
                start_epoch();
        }
    }
}

DataCursor::State DataCursor::state() const {
    return State{position_, epoch_, order_, rng_.state()};
}

// Restores a saved position; the state may come from a file, so it is checked first.
void DataCursor::set_state(const State& state) {
    const std::size_t n = shard_.size();
    if (state.position >= n)
        throw Error("data cursor state: position " + std::to_string(state.position) +
                    " is outside the shard of " + std::to_string(n) + " rows");
    if (shuffle_) {
        if (state.order.size() != n)
            throw Error("data cursor state: order has " + std::to_string(state.order.size()) +
                        " entries, the shard has " + std::to_string(n) + " rows");
        std::vector<bool> seen(n, false);
        for (const std::uint32_t i : state.order) {
            if (i >= n || seen[i])
                throw Error("data cursor state: order is not a permutation of the shard's rows");
            seen[i] = true;
        }
    } else if (!state.order.empty()) {
        throw Error("data cursor state: an order is given but shuffling is off");
    }
    position_ = state.position;
    epoch_ = state.epoch;
    order_ = state.order;
    rng_.set_state(state.rng);
}

void gather_rows(const Dataset& data, std::span<const std::size_t> rows,
                 std::vector<double>& features, std::vector<double>& targets) {
    const std::size_t dim = data.dim;
    features.resize(rows.size() * dim);
    targets.resize(rows.size());
    for (std::size_t i = 0; i < rows.size(); ++i) {
        const std::size_t r = rows[i];
        if (r >= data.size())
            throw Error("row " + std::to_string(r) + " is outside the dataset of " +
                        std::to_string(data.size()) + " rows");
        std::copy_n(data.row(r), dim, features.data() + i * dim);
        targets[i] = data.targets[r];
    }
}

} // namespace lockstep
