#include "trace/chrome_trace.h"

#include "core/atomic_file.h"

#include "core/error.h"
#include "trace/chrome_trace_text.h"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <cerrno>
#include <cstdio>
#include <cstring>
#include <fstream>
#include <ostream>
#include <stdexcept>

// The streaming writer: the document's opening (the run's and the lanes' names), each slice as
// it comes, and the close. The round slices it holds back are in chrome_trace_rounds.cpp, the
// phases detail in chrome_trace_phases.cpp.

namespace lockstep {

using namespace chrome_text;

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
    Arg args[7];
    std::size_t n = 0;
    if (e.bytes > 0)
        args[n++] = arg("bytes", e.bytes);
    if (e.kind == EventKind::Compute || e.kind == EventKind::Update)
        args[n++] = arg_number("gradient0", e.value);
    if (e.kind == EventKind::Backward && e.layer >= 0) // with gradient buckets: its layer
        args[n++] = arg("layer", e.layer);
    if (e.microbatch >= 0)
        args[n++] = arg("microbatch", e.microbatch);
    // A loosely synchronised run's gradient: the version it was computed on, and its staleness.
    if (e.version >= 0)
        args[n++] = arg("version", e.version);
    if (e.staleness >= 0)
        args[n++] = arg("staleness", e.staleness);
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

void ChromeTraceWriter::finish() {
    if (finished_)
        return;
    finished_ = true;
    write_held_rounds();
    buffer_ += trailer_.empty() ? "\n ]\n}" : "\n ],\n " + trailer_ + "\n}";
    flush_buffer();
    out_.flush();
    if (!out_)
        throw Error(std::string("cannot write the Chrome trace: ") + std::strerror(errno));
}

void write_chrome_trace(const std::string& path, std::span<const TraceEvent> events, int workers,
                        std::string_view run_name, TraceDetail detail) {
    AtomicFile file(path);
    try {
        ChromeTraceWriter writer(file.stream(), workers, run_name, detail);
        writer.on_events(events);
        writer.finish();
    } catch (const Error& e) {
        throw Error(path + ": " + e.what());
    }
    file.commit();
}

} // namespace lockstep
