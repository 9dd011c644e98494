#include "trace/chrome_trace.h"

#include "core/error.h"
#include "trace/chrome_trace_text.h"

#include <algorithm>
#include <cerrno>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <stdexcept>
#include <string>
#include <tuple>
#include <vector>

// The per-round "communicate" slices, which the format lists after every other slice, lane by
// lane: a worker's messages of one round merged while its step may still add to them, then out of
// memory, into chunks of an anonymous temporary file per lane, and copied out at the end.

namespace lockstep {

using namespace chrome_text;

namespace {

// Round slices per chunk of the temporary file: 8 KiB, so a 256-lane run holds 2 MiB.
constexpr std::size_t kChunk = 128;

std::size_t hash_key(const std::tuple<int, int, std::int64_t, int>& k) {
    const auto& [worker, ordinal, step, round] = k;
    std::uint64_t h = static_cast<std::uint32_t>(worker);
    h = h * 0x9E3779B97F4A7C15ULL + static_cast<std::uint32_t>(round);
    h = h * 0x9E3779B97F4A7C15ULL + static_cast<std::uint64_t>(step);
    h = h * 0x9E3779B97F4A7C15ULL + static_cast<std::uint32_t>(ordinal);
    return static_cast<std::size_t>(h ^ (h >> 31));
}

} // namespace

void ChromeTraceWriter::write_round(int worker, const RoundSlice& slice) {
    Arg args[7];
    std::size_t n = 0;
    if (slice.bucket >= 0)
        args[n++] = arg("bucket", slice.bucket);
    args[n++] = arg("bytes_received", slice.received);
    args[n++] = arg("bytes_sent", slice.sent);
    args[n++] = arg("round", slice.round);
    if (slice.staleness >= 0)
        args[n++] = arg("staleness", slice.staleness);
    args[n++] = arg("step", slice.step);
    if (slice.version >= 0)
        args[n++] = arg("version", slice.version);
    begin_element();
    buffer_ += "  {\n";
    put_args(buffer_, std::span(args, n));
    write_slice("communicate", worker, slice.start, slice.end);
}

void ChromeTraceWriter::add_round(const TraceEvent& e) {
    if (std::pair(e.ordinal, e.step) < spilled_)
        throw std::logic_error("ChromeTraceWriter: a step's events came after a later step's");
    const std::size_t before = pending_.size();
    // Each bucket's collective has rounds of its own: a slice per bucket and round, in order.
    constexpr int kRoundsPerBucket = 1 << 16;
    const int key_round = e.bucket >= 0 ? (e.bucket + 1) * kRoundsPerBucket + e.round : e.round;
    auto& slice = pending_round({e.worker, e.ordinal, e.step, key_round});
    if (pending_.size() != before) {
        slice.ordinal = e.ordinal;
        slice.step = e.step;
        slice.round = e.round;
        slice.bucket = e.bucket;
        slice.start = e.start;
        slice.end = e.end;
    }
    slice.start = std::min(slice.start, e.start);
    slice.end = std::max(slice.end, e.end);
    if (e.staleness >= 0)
        slice.staleness = e.staleness;
    if (e.version >= 0)
        slice.version = e.version;
    if (e.kind == EventKind::Send)
        slice.sent += e.bytes;
    if (e.kind == EventKind::Receive)
        slice.received += e.bytes;
}

void ChromeTraceWriter::spill_rounds(bool all) {
    // The complete ones to the front, in key order (lane, then the order the rounds ran).
    const auto done = std::partition(pending_.begin(), pending_.end(), [&](const auto& p) {
        const auto& [worker, ordinal, step, round] = p.first;
        return all || std::pair(ordinal, step) < newest_;
    });
    std::sort(pending_.begin(), done,
              [](const auto& a, const auto& b) { return a.first < b.first; });
    for (auto it = pending_.begin(); it != done; ++it)
        spill(std::get<0>(it->first), it->second);
    pending_.erase(pending_.begin(), done);
    reindex(index_.size());
    spilled_ = newest_;
}

ChromeTraceWriter::RoundSlice& ChromeTraceWriter::pending_round(const RoundKey& key) {
    if (2 * (pending_.size() + 1) > index_.size())
        reindex(std::max<std::size_t>(1024, 4 * (pending_.size() + 1)));
    const std::size_t mask = index_.size() - 1;
    for (std::size_t slot = hash_key(key) & mask;; slot = (slot + 1) & mask) {
        if (index_[slot] == 0) {
            pending_.emplace_back(key, RoundSlice{});
            index_[slot] = static_cast<std::uint32_t>(pending_.size());
            return pending_.back().second;
        }
        auto& entry = pending_[index_[slot] - 1];
        if (entry.first == key)
            return entry.second;
    }
}

// An index of `slots` (rounded up to a power of two) over what is pending.
void ChromeTraceWriter::reindex(std::size_t slots) {
    std::size_t size = 1;
    while (size < slots)
        size *= 2;
    index_.assign(size, 0);
    const std::size_t mask = size - 1;
    for (std::size_t i = 0; i < pending_.size(); ++i) {
        std::size_t slot = hash_key(pending_[i].first) & mask;
        while (index_[slot] != 0)
            slot = (slot + 1) & mask;
        index_[slot] = static_cast<std::uint32_t>(i + 1);
    }
}

void ChromeTraceWriter::spill(int worker, const RoundSlice& slice) {
    const auto lane = static_cast<std::size_t>(worker);
    if (lane >= tail_.size()) {
        tail_.resize(lane + 1);
        chunks_.resize(lane + 1);
    }
    auto& tail = tail_[lane];
    tail.push_back(slice);
    if (tail.size() < kChunk)
        return;
    if (!spill_ && !(spill_ = std::tmpfile()))
        throw Error(std::string("cannot create a temporary file for the Chrome trace: ") +
                    std::strerror(errno));
    if (std::fwrite(tail.data(), sizeof(RoundSlice), kChunk, spill_) != kChunk)
        throw Error(std::string("cannot write the Chrome trace's temporary file: ") +
                    std::strerror(errno));
    chunks_[lane].push_back(next_chunk_++);
    tail.clear();
}

void ChromeTraceWriter::write_held_rounds() {
    spill_rounds(true);
    std::vector<RoundSlice> chunk(kChunk);
    if (spill_ && std::fflush(spill_) != 0)
        throw Error(std::string("cannot write the Chrome trace's temporary file: ") +
                    std::strerror(errno));
    // Lane by lane, in the order the rounds ran: the chunks in the file, then the rest.
    for (std::size_t lane = 0; lane < tail_.size(); ++lane) {
        for (const std::uint32_t c : chunks_[lane]) {
            const auto at = static_cast<off_t>(c) * static_cast<off_t>(kChunk * sizeof(RoundSlice));
            if (fseeko(spill_, at, SEEK_SET) != 0 ||
                std::fread(chunk.data(), sizeof(RoundSlice), kChunk, spill_) != kChunk)
                throw Error("cannot read back the Chrome trace's temporary file");
            for (const auto& slice : chunk)
                write_round(static_cast<int>(lane), slice);
            if (buffer_.size() >= kFlushAt)
                flush_buffer();
        }
        for (const auto& slice : tail_[lane])
            write_round(static_cast<int>(lane), slice);
    }
}

} // namespace lockstep
