// Feeds arbitrary text to the reader of recorded runs (the "lockstep_recording" member of a
// Chrome trace written by a run over processes). It must either reject it with a lockstep::Error
// or return a recording that, written again, reads back to the very same member.

#include "trace/recording.h"

#include "core/error.h"

#include <cstdint>
#include <cstdlib>
#include <string>

namespace {

std::string document(const lockstep::Recording& r) {
    return "{\"traceEvents\": [],\n " + lockstep::recording_member(r) + "\n}";
}

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    const std::string text(reinterpret_cast<const char*>(data), size);
    try {
        const lockstep::Recording recording = lockstep::parse_recording(text, "/fuzz");
        const std::string once = document(recording);
        const std::string twice = document(lockstep::parse_recording(once, "/fuzz"));
        if (once != twice)
            std::abort();
    } catch (const lockstep::Error&) {
    }
    return 0;
}
