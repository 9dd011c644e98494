#pragma once

#include "trace/trace.h"

#include <cstdint>
#include <cstdio>
#include <iosfwd>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <tuple>
#include <vector>

namespace lockstep {

// How much of a run a Chrome trace shows.
enum class TraceDetail {
    // Every event; a worker's sends, receives and reduces of one collective round merged into one
    // "communicate" slice (they overlap, full duplex). The format of to_chrome_trace_json.
    Rounds,
    // For crowds: each run of consecutive collective rounds on a lane, with the waits between
    // them, becomes one "collective" slice (rounds, bytes and waiting in its args); everything
    // else as in Rounds. A 256-worker ring step is 256 such slices instead of 130,000.
    Phases,
};
std::string_view to_string(TraceDetail detail);
// "rounds" or "phases"; nothing for any other text.
std::optional<TraceDetail> parse_trace_detail(std::string_view text);

// Writes Chrome Trace Event JSON (opens in Perfetto and chrome://tracing) as the run produces
// it: one lane per worker, complete events in microseconds. Memory is bounded by one step's
// events whatever the run's length: slices are written as they come, except the per-round
// "communicate" slices, which the format lists after all others, lane by lane; those go to an
// anonymous temporary file in chunks per lane and are copied out by finish(). The default
// detail is byte for byte what the whole-run export wrote.
class ChromeTraceWriter final : public TraceSink {
public:
    ChromeTraceWriter(std::ostream& out, int workers, std::string_view run_name = "lockstep",
                      TraceDetail detail = TraceDetail::Rounds);
    ~ChromeTraceWriter() override;
    ChromeTraceWriter(const ChromeTraceWriter&) = delete;
    ChromeTraceWriter& operator=(const ChromeTraceWriter&) = delete;

    // One executed step's events (TraceSink's contract: steps in the order they ran).
    void on_events(std::span<const TraceEvent> events) override;
    void on_snapshot(const StepSnapshot&) override {}

    // Writes what is held back and closes the document. Throws lockstep::Error when the stream
    // or the temporary file failed. Nothing may be added after it.
    void finish();
    std::int64_t bytes_written() const { return written_; }
    // More top-level members of the document (`"key": value, ...`), written by finish() after
    // the events: a recording of the run for the lab (trace/recording.h). Perfetto ignores them.
    void set_trailer(std::string members) { trailer_ = std::move(members); }

private:
    struct RoundSlice {
        std::int64_t ordinal = 0, step = 0;
        Ticks start = 0, end = 0;
        std::int64_t sent = 0, received = 0;
        std::int32_t round = 0;
        std::int32_t staleness = -1; // a loosely synchronised run's push: its gradient's tau
        std::int64_t version = -1;   // and the version it was computed on (or a pull's)
        std::int32_t bucket = -1;    // a gradient bucket's collective: its bucket
    };
    // worker, ordinal, step, and the round (a bucket's rounds after the buckets before it)
    using RoundKey = std::tuple<int, int, std::int64_t, int>;

    // The document and its slices (chrome_trace.cpp).
    void begin_element();
    void flush_buffer();
    void write_slice(std::string_view name, int worker, Ticks start, Ticks end);
    void write_event(const TraceEvent& e);
    void write_transfer(const TraceEvent& e);
    // The round slices held back (chrome_trace_rounds.cpp).
    void write_round(int worker, const RoundSlice& slice);
    void add_round(const TraceEvent& e);
    void spill_rounds(bool all);
    void spill(int worker, const RoundSlice& slice);
    void write_held_rounds(); // every round slice, lane by lane, at the end of the document
    // TraceDetail::Phases (chrome_trace_phases.cpp).
    void write_phases(std::span<const TraceEvent> events);

    std::ostream& out_;
    TraceDetail detail_;
    std::string trailer_;
    std::string buffer_;
    std::int64_t written_ = 0;
    bool first_ = true;
    bool finished_ = false;
    std::int64_t transfer_id_ = 0;

    // Rounds of the steps not yet complete, merged as the whole-run export merged them: found
    // by key through an open-addressing index (position + 1 in pending_, 0 empty), put in key
    // order when they go to the file.
    RoundSlice& pending_round(const RoundKey& key);
    void reindex(std::size_t slots);
    std::vector<std::pair<RoundKey, RoundSlice>> pending_;
    std::vector<std::uint32_t> index_;
    std::pair<int, std::int64_t> newest_{-1, -1};  // (ordinal, step) of the latest event
    std::pair<int, std::int64_t> spilled_{-1, -1}; // every round before it is in the file
    // Per lane: the round slices already complete, the last few in memory, the rest in chunks
    // of the temporary file (numbers in order).
    std::FILE* spill_ = nullptr;
    std::vector<std::vector<RoundSlice>> tail_;
    std::vector<std::vector<std::uint32_t>> chunks_;
    std::uint32_t next_chunk_ = 0;

    // Phases: per lane, the indices of its events in this step (scratch).
    std::vector<std::vector<std::size_t>> lane_events_;
};

// Writes a whole recorded trace to `path` through ChromeTraceWriter. Throws lockstep::Error
// naming the file when it cannot be written.
void write_chrome_trace(const std::string& path, std::span<const TraceEvent> events, int workers,
                        std::string_view run_name = "lockstep",
                        TraceDetail detail = TraceDetail::Rounds);

} // namespace lockstep
