#pragma once

#include "scenario/scenario.h"
#include "trace/trace.h"

#include <cstddef>
#include <string>
#include <vector>

namespace lockstep {

// A run as it really happened, for the lab to play back: its scenario, where it ran, every
// event on one clock and every step's snapshot, nothing left out. lockstep-cli writes one into
// the Chrome trace of a run over processes (`--trace` with `--transport mpi`), as the document's
// "lockstep_recording" member beside "traceEvents", which Perfetto ignores.
struct Recording {
    Scenario scenario;
    std::string transport = "mpi";
    int ranks = 0;
    std::vector<std::string> hosts; // the distinct hosts, rank 0's first
    std::vector<TraceEvent> events; // by step, each step's in time order
    std::vector<StepSnapshot> snapshots;
    std::vector<double> parameters; // rank 0's at the end (every rank's, when aligned)
};

// `"lockstep_recording": {...}`: the member for ChromeTraceWriter::set_trailer().
std::string recording_member(const Recording& recording);

// Reads the recording in a trace file written that way. Throws lockstep::Error naming the file
// and what is wrong: not JSON, a Chrome trace without a recording (a run on threads), or a field
// missing, of the wrong type or out of range.
Recording read_recording(const std::string& path);
// The same from the document's text; `name` goes in front of its messages.
Recording parse_recording(const std::string& text, const std::string& name);

struct RecordingLimits {
    static constexpr std::size_t max_file_bytes = std::size_t{1} << 30;
    static constexpr std::size_t max_events = 20'000'000;
    static constexpr std::size_t max_snapshots = 1'000'000;
};

} // namespace lockstep
