#pragma once

#include "checkpoint/checkpoint.h"
#include "clocks/clock.h"
#include "trace/trace.h"

#include <QColor>
#include <QString>

#include <cstdint>
#include <optional>
#include <span>
#include <vector>

namespace lockstep::views {

// One worker's file of one checkpoint, as the commit protocol leaves it on disk.
enum class FileState {
    Absent,    // this worker has no file in this checkpoint (it was not part of the run)
    Writing,   // being written under a temporary name, not yet durable
    Synced,    // the temporary file fsynced: its bytes are durable
    Renamed,   // renamed into place and the directory fsynced
    Committed, // named by a committed manifest: the checkpoint counts
    Partial,   // its writer crashed: torn, never synced, or never renamed
    Corrupt,   // damaged on disk after the commit
    Missing,   // never written: the run crashed before this worker's turn
};

enum class ManifestState {
    Pending,   // not written yet: the files are still being saved
    Writing,   // being written, synced and renamed
    Committed, // in place: the checkpoint counts
    Missing,   // never written: a crash came first, so the checkpoint is partial
};

// The checkpoint as a whole, from what the trace has shown so far.
enum class ShelfStatus { Saving, Committed, Partial, Corrupt };

struct ShelfFile {
    int worker = 0;
    FileState state = FileState::Absent;
    std::int64_t bytes = 0; // written so far (all of it once written; half when torn)
    double progress = 0.0;  // of the write, 0..1
    int damage = -1;        // when corrupt: 0 a flipped bit, 1 truncated
};

struct ShelfCheckpoint {
    std::int64_t step = 0;        // the number of updates it holds: directory step-NNNNNNNNN
    Ticks started = 0;            // its first write
    std::vector<ShelfFile> files; // one per lane
    ManifestState manifest = ManifestState::Pending;
    ShelfStatus status = ShelfStatus::Saving;
};

// The storage directory at one instant: the newest checkpoints, oldest first.
struct CheckpointShelf {
    std::vector<ShelfCheckpoint> checkpoints;
    int older = 0; // checkpoints seen before these (pruned by the keep policy, or not shown)
};

// Where a recovery is at one instant.
enum class RestorePhase {
    None,     // no worker has failed yet
    Down,     // a worker crashed; nobody has noticed yet
    Detected, // the heartbeat timed out; a replacement is starting
    Scanning, // the directory scanned newest first; each checkpoint verified
    Loading,  // every worker reading the chosen checkpoint back
    Resumed,  // training goes on from the restored step
};

struct ScanVerdict {
    std::int64_t step = 0;
    CheckpointStatus status = CheckpointStatus::Complete;
    CheckpointFault fault = CheckpointFault::None;
};

struct RestoreWalk {
    RestorePhase phase = RestorePhase::None;
    int crashed = -1; // the lane that failed
    Ticks crashed_at = 0;
    Ticks scan_at = 0;                  // when the scan ran (all verdicts share this instant)
    std::vector<ScanVerdict> verdicts;  // in scan order: newest checkpoint first
    std::optional<std::int64_t> chosen; // the step of the checkpoint loaded
    std::int64_t bytes_total = 0;       // every worker's Restore, added up
    std::int64_t bytes_read = 0;        // of those, read by now
    double progress = 0.0;              // bytes_read / bytes_total
    Ticks resumed_at = 0;               // end of the last Restore
};

// The shelf at `t` from the trace's storage events (TraceIndex::storage_events(), sorted by
// start): the `newest` most recent checkpoints, each file in its state, as the events state it
// (the stage each phase completes, the phase a crash cut, how a file was damaged). A checkpoint
// written again after a rollback (in a later executed step) replaces the earlier attempt of the
// same step, as it does on disk.
CheckpointShelf checkpoint_shelf(std::span<const TraceEvent> events, int workers, Ticks t,
                                 int newest = 5);

// The latest recovery at `t`: its phase, the scan's verdicts so far (each Verify's verdict and
// fault) and the loading progress.
RestoreWalk restore_walk(std::span<const TraceEvent> events, Ticks t);

// Colour, pattern and label of each state: colour is never the only cue.
struct StorageStyle {
    QColor colour;
    QString label;
    Qt::BrushStyle brush = Qt::SolidPattern; // Qt::NoBrush: outline only
};
StorageStyle style_for(FileState state);
StorageStyle style_for(ManifestState state);

// "step-000000016", the checkpoint's directory name.
QString checkpoint_directory(std::int64_t step);
// "partial: no manifest", "corrupt: checksum mismatch", "complete".
QString verdict_text(const ScanVerdict& verdict);

} // namespace lockstep::views
