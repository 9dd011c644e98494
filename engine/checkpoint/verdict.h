#pragma once

#include <cstdint>
#include <string_view>

namespace lockstep {

// What a recovery's scan finds of one checkpoint directory, and why it cannot be used; a small
// header of its own, so the trace can state a scan's verdicts in these words.

// Partial: never committed or missing a file; corrupt: present but not what was committed.
enum class CheckpointStatus : std::uint8_t { Complete, Partial, Corrupt };
enum class CheckpointFault : std::uint8_t {
    None,
    NoManifest,       // partial
    MissingFile,      // partial
    SizeMismatch,     // truncated or grown
    ChecksumMismatch, // damaged, or not the file the manifest committed
    BadVersion,
    BadName,    // a manifest entry that could leave the directory
    Unreadable, // I/O error, bad magic, lengths over the limits, contents that do not fit
    WrongScenario,
    WrongWorkers,
    DoesNotFit, // complete, but its shape (parameters, data positions, optimizer) is not this run's
};
std::string_view to_string(CheckpointStatus status);
std::string_view to_string(CheckpointFault fault);
CheckpointStatus status_of(CheckpointFault fault);

} // namespace lockstep
