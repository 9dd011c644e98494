#include "trace/chrome_trace.h"

#include "core/error.h"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <cerrno>
#include <charconv>
#include <cmath>
#include <cstring>
#include <fstream>
#include <ostream>
#include <stdexcept>

namespace lockstep {

namespace {

// Round slices per chunk of the temporary file: 7 KiB, so a 256-lane run holds under 2 MiB.
constexpr std::size_t kChunk = 128;
// The text is handed to the stream in pieces of about this size.
constexpr std::size_t kFlushAt = 1 << 20;

void put_int(std::string& out, std::int64_t v) {
    char text[24];
    const auto end = std::to_chars(text, text + sizeof text, v).ptr;
    out.append(text, static_cast<std::size_t>(end - text));
}

// Exactly as nlohmann::json prints a double (its shortest round-trip form; null when not finite),
// so that the streamed text equals what the library's dump wrote before.
void put_double(std::string& out, double v) {
    if (!std::isfinite(v)) {
        out += "null";
        return;
    }
    char text[64];
    const char* end = nlohmann::detail::to_chars(text, text + sizeof text, v);
    out.append(text, static_cast<std::size_t>(end - text));
}

double micros(Ticks t) {
    return static_cast<double>(t) / 1e3;
}

bool round_kind(EventKind kind) {
    return kind == EventKind::Send || kind == EventKind::Receive || kind == EventKind::Reduce;
}

// A pipeline transfer: it overlaps the stage's compute, so it is an async slice, not a round.
bool transfer(const TraceEvent& e) {
    return e.microbatch >= 0 && (e.kind == EventKind::Send || e.kind == EventKind::Receive);
}

// An argument of a slice; written in the order given, which is kept alphabetical as the JSON
// library sorted them.
struct Arg {
    std::string_view key;
    std::int64_t integer = 0;
    double number = 0.0;
    bool is_number = false;
};
Arg arg(std::string_view key, std::int64_t v) {
    return {key, v, 0.0, false};
}
Arg arg_number(std::string_view key, double v) {
    return {key, 0, v, true};
}

void put_args(std::string& out, std::span<const Arg> args) {
    out += "   \"args\": {";
    for (std::size_t i = 0; i < args.size(); ++i) {
        out += i == 0 ? "\n    \"" : ",\n    \"";
        out += args[i].key;
        out += "\": ";
        if (args[i].is_number)
            put_double(out, args[i].number);
        else
            put_int(out, args[i].integer);
    }
    out += args.empty() ? "},\n" : "\n   },\n";
}

void put_field(std::string& out, std::string_view key, std::string_view quoted_value) {
    out += "   \"";
    out += key;
    out += "\": \"";
    out += quoted_value;
    out += "\",\n";
}

// pid, tid and, when given, ts: the fields every element ends with.
void put_lane(std::string& out, int worker, const double* ts) {
    out += "   \"pid\": 0,\n   \"tid\": ";
    put_int(out, worker);
    if (ts) {
        out += ",\n   \"ts\": ";
        put_double(out, *ts);
    }
    out += "\n  }";
}

} // namespace

std::string_view to_string(TraceDetail detail) {
    return detail == TraceDetail::Phases ? "phases" : "rounds";
}

std::optional<TraceDetail> parse_trace_detail(std::string_view text) {
    if (text == "rounds")
        return TraceDetail::Rounds;
    if (text == "phases")
        return TraceDetail::Phases;
    return std::nullopt;
}

ChromeTraceWriter::ChromeTraceWriter(std::ostream& out, int workers, std::string_view run_name,
                                     TraceDetail detail)
    : out_(out)
    , detail_(detail) {
    buffer_.reserve(kFlushAt + (64 << 10));
    buffer_ += "{\n \"displayTimeUnit\": \"ms\",\n \"traceEvents\": [\n";
    // The run's name is the user's text: the JSON library escapes it.
    const std::string name = nlohmann::json(std::string(run_name)).dump();
    begin_element();
    buffer_ += "  {\n   \"args\": {\n    \"name\": ";
    buffer_ += name;
    buffer_ += "\n   },\n   \"name\": \"process_name\",\n   \"ph\": \"M\",\n";
    put_lane(buffer_, 0, nullptr);
    for (int w = 0; w < workers; ++w) {
        begin_element();
        buffer_ += "  {\n   \"args\": {\n    \"name\": \"worker ";
        put_int(buffer_, w);
        buffer_ += "\"\n   },\n   \"name\": \"thread_name\",\n   \"ph\": \"M\",\n";
        put_lane(buffer_, w, nullptr);
        begin_element();
        buffer_ += "  {\n   \"args\": {\n    \"sort_index\": ";
        put_int(buffer_, w);
        buffer_ += "\n   },\n   \"name\": \"thread_sort_index\",\n   \"ph\": \"M\",\n";
        put_lane(buffer_, w, nullptr);
    }
}

ChromeTraceWriter::~ChromeTraceWriter() {
    if (spill_)
        std::fclose(spill_);
}

void ChromeTraceWriter::begin_element() {
    if (!first_)
        buffer_ += ",\n";
    first_ = false;
}

void ChromeTraceWriter::flush_buffer() {
    out_.write(buffer_.data(), static_cast<std::streamsize>(buffer_.size()));
    if (!out_)
        throw Error(std::string("cannot write the Chrome trace: ") + std::strerror(errno));
    written_ += static_cast<std::int64_t>(buffer_.size());
    buffer_.clear();
}

void ChromeTraceWriter::write_slice(std::string_view name, int worker, Ticks start, Ticks end) {
    put_field(buffer_, "cat", name);
    buffer_ += "   \"dur\": ";
    put_double(buffer_, micros(end - start));
    buffer_ += ",\n";
    put_field(buffer_, "name", name);
    buffer_ += "   \"ph\": \"X\",\n";
    const double ts = micros(start);
    put_lane(buffer_, worker, &ts);
}

void ChromeTraceWriter::write_event(const TraceEvent& e) {
    Arg args[4];
    std::size_t n = 0;
    if (e.bytes > 0)
        args[n++] = arg("bytes", e.bytes);
    if (e.kind == EventKind::Compute || e.kind == EventKind::Update)
        args[n++] = arg_number("gradient0", e.value);
    if (e.microbatch >= 0)
        args[n++] = arg("microbatch", e.microbatch);
    args[n++] = arg("step", e.step);
    begin_element();
    buffer_ += "  {\n";
    put_args(buffer_, std::span(args, n));
    write_slice(to_string(e.kind), e.worker, e.start, e.end);
}

void ChromeTraceWriter::write_transfer(const TraceEvent& e) {
    const bool forward = (e.kind == EventKind::Send) == (e.peer > e.worker);
    std::string name = forward ? "activations" : "activation gradients";
    name += e.kind == EventKind::Send ? " to worker " : " from worker ";
    put_int(name, e.peer);
    const std::string_view cat = forward ? "activations" : "activation-gradients";
    ++transfer_id_;
    const Arg args[] = {arg("bytes", e.bytes), arg("microbatch", e.microbatch), arg("peer", e.peer),
                        arg("step", e.step)};
    for (const bool begin : {true, false}) {
        begin_element();
        buffer_ += "  {\n";
        if (begin)
            put_args(buffer_, args);
        put_field(buffer_, "cat", cat);
        buffer_ += "   \"id\": ";
        put_int(buffer_, transfer_id_);
        buffer_ += ",\n";
        put_field(buffer_, "name", name);
        buffer_ += begin ? "   \"ph\": \"b\",\n" : "   \"ph\": \"e\",\n";
        const double ts = micros(begin ? e.start : e.end);
        put_lane(buffer_, e.worker, &ts);
    }
}

void ChromeTraceWriter::write_round(int worker, const RoundSlice& slice) {
    const Arg args[] = {arg("bytes_received", slice.received), arg("bytes_sent", slice.sent),
                        arg("round", slice.round), arg("step", slice.step)};
    begin_element();
    buffer_ += "  {\n";
    put_args(buffer_, args);
    write_slice("communicate", worker, slice.start, slice.end);
}

void ChromeTraceWriter::add_round(const TraceEvent& e) {
    if (std::pair(e.ordinal, e.step) < spilled_)
        throw std::logic_error("ChromeTraceWriter: a step's events came after a later step's");
    const std::size_t before = pending_.size();
    auto& slice = pending_round({e.worker, e.ordinal, e.step, e.round});
    if (pending_.size() != before) {
        slice.ordinal = e.ordinal;
        slice.step = e.step;
        slice.round = e.round;
        slice.start = e.start;
        slice.end = e.end;
    }
    slice.start = std::min(slice.start, e.start);
    slice.end = std::max(slice.end, e.end);
    if (e.kind == EventKind::Send)
        slice.sent += e.bytes;
    if (e.kind == EventKind::Receive)
        slice.received += e.bytes;
}

void ChromeTraceWriter::on_events(std::span<const TraceEvent> events) {
    if (finished_)
        throw std::logic_error("ChromeTraceWriter: events after finish()");
    if (detail_ == TraceDetail::Phases) {
        write_phases(events);
    } else {
        for (const auto& e : events) {
            newest_ = std::max(newest_, std::pair(e.ordinal, e.step));
            if (transfer(e))
                write_transfer(e);
            else if (round_kind(e.kind))
                add_round(e);
            else
                write_event(e);
        }
        // Rounds of earlier steps can gain no more messages: out of memory with them.
        spill_rounds(false);
    }
    if (buffer_.size() >= kFlushAt)
        flush_buffer();
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

namespace {

std::size_t hash_key(const std::tuple<int, int, std::int64_t, int>& k) {
    const auto& [worker, ordinal, step, round] = k;
    std::uint64_t h = static_cast<std::uint32_t>(worker);
    h = h * 0x9E3779B97F4A7C15ULL + static_cast<std::uint32_t>(round);
    h = h * 0x9E3779B97F4A7C15ULL + static_cast<std::uint64_t>(step);
    h = h * 0x9E3779B97F4A7C15ULL + static_cast<std::uint32_t>(ordinal);
    return static_cast<std::size_t>(h ^ (h >> 31));
}

} // namespace

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

void ChromeTraceWriter::finish() {
    if (finished_)
        return;
    finished_ = true;
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
    buffer_ += "\n ]\n}";
    flush_buffer();
    out_.flush();
    if (!out_)
        throw Error(std::string("cannot write the Chrome trace: ") + std::strerror(errno));
}

// Phases: per lane in time order, consecutive rounds and the waits between them are one slice.
void ChromeTraceWriter::write_phases(std::span<const TraceEvent> events) {
    for (std::size_t i = 0; i < events.size(); ++i) {
        const auto lane = static_cast<std::size_t>(events[i].worker);
        if (lane >= lane_events_.size())
            lane_events_.resize(lane + 1);
        lane_events_[lane].push_back(i);
    }
    struct Collective {
        bool open = false;
        Ticks start = 0, end = 0, waiting = 0;
        std::int64_t step = 0, sent = 0, received = 0, rounds = 0;
        int last_round = -1;
    };
    for (std::size_t lane = 0; lane < lane_events_.size(); ++lane) {
        auto& list = lane_events_[lane];
        std::stable_sort(list.begin(), list.end(), [&](std::size_t a, std::size_t b) {
            return events[a].start < events[b].start;
        });
        Collective c;
        std::size_t held_from = 0, held_to = 0; // waits after the open slice's last round
        auto emit_held = [&] {
            for (std::size_t k = held_from; k < held_to; ++k)
                write_event(events[list[k]]);
            held_from = held_to = 0;
        };
        auto close = [&] {
            if (!c.open)
                return;
            const Arg args[] = {arg("bytes_received", c.received), arg("bytes_sent", c.sent),
                                arg("rounds", c.rounds), arg("step", c.step),
                                arg_number("waiting_us", micros(c.waiting))};
            begin_element();
            buffer_ += "  {\n";
            put_args(buffer_, args);
            write_slice("collective", static_cast<int>(lane), c.start, c.end);
            c = Collective{};
            emit_held();
        };
        for (std::size_t k = 0; k < list.size(); ++k) {
            const TraceEvent& e = events[list[k]];
            if (round_kind(e.kind) && !transfer(e)) {
                if (!c.open) {
                    c.open = true;
                    c.start = e.start;
                    c.step = e.step;
                } else {
                    for (std::size_t h = held_from; h < held_to; ++h)
                        c.waiting += events[list[h]].end - events[list[h]].start;
                    held_from = held_to = 0;
                }
                c.end = std::max(c.end, e.end);
                if (e.round != c.last_round) {
                    ++c.rounds;
                    c.last_round = e.round;
                }
                if (e.kind == EventKind::Send)
                    c.sent += e.bytes;
                if (e.kind == EventKind::Receive)
                    c.received += e.bytes;
            } else if (e.kind == EventKind::Wait && c.open) {
                if (held_to == 0)
                    held_from = k;
                held_to = k + 1;
            } else {
                close();
                if (transfer(e))
                    write_transfer(e);
                else
                    write_event(e);
            }
        }
        close();
        list.clear();
    }
}

void write_chrome_trace(const std::string& path, std::span<const TraceEvent> events, int workers,
                        std::string_view run_name, TraceDetail detail) {
    std::ofstream out(path, std::ios::binary | std::ios::trunc);
    if (!out)
        throw Error(path + ": cannot write the trace (" + std::strerror(errno) + ")");
    try {
        ChromeTraceWriter writer(out, workers, run_name, detail);
        writer.on_events(events);
        writer.finish();
    } catch (const Error& e) {
        throw Error(path + ": " + e.what());
    }
}

} // namespace lockstep
