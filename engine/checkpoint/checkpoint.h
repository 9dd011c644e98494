#pragma once

#include "checkpoint/verdict.h"
#include "collectives/precision.h"
#include "core/error.h"
#include "core/rng.h"
#include "data/data.h"
#include "model/optimizer.h"

#include <cstddef>
#include <cstdint>
#include <filesystem>
#include <functional>
#include <limits>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

namespace lockstep {

// Everything a data-parallel run needs to continue as if it had never stopped: weights alone
// would give a different continuation. Replicas are identical, so the parameters and the
// optimizer state are stored once; each worker keeps its own place in its data.
struct TrainingState {
    std::int64_t step = 0;
    std::uint64_t scenario_hash = 0;
    std::vector<double> parameters;
    OptimizerState optimizer; // each vector empty (unused by the optimizer) or one per parameter
    Rng::State run_rng{};
    std::vector<DataCursor::State> cursors; // one per worker
    // The model's: in a float32 run's checkpoint every parameter and optimizer value is a float.
    Precision precision = Precision::Float64;
    // A run that scales its gradients before a narrower wire format: the scale and its count.
    std::optional<LossScaleState> loss_scale;

    int workers() const { return static_cast<int>(cursors.size()); }
};

// Bitwise: every double must come back with the very same bits (NaN payloads, -0.0 included).
bool operator==(const TrainingState& a, const TrainingState& b);

// Hard limits checked before anything a file declares is allocated.
struct CheckpointLimits {
    static constexpr std::uint32_t format_version = 1;
    static constexpr std::uint64_t max_parameters = 16'000'000;
    static constexpr int max_workers = 256;
    static constexpr std::uint64_t max_order_rows = 1'000'000;
    static constexpr std::uint64_t max_file_bytes = 1ULL << 30;
    static constexpr std::uint64_t max_manifest_bytes = 1ULL << 20;
    static constexpr std::size_t max_name_length = 255;
};

// The files' checksum: XXH64 with seed 0, little-endian, as published by the xxHash project.
std::uint64_t checkpoint_checksum(std::span<const std::byte> bytes);

// Binary layout of both file kinds. Every field is little-endian and fixed-width; every vector
// carries its length; the last 8 bytes are the checksum of all bytes before them.
//
//   header (48 bytes)      worker-K.ckpt                      MANIFEST
//     0  magic[8]          "LKSTCKPT"                         "LKSTMANI"
//     8  u32 version       1                                  1
//    12  u32 flags         1 sharded optimizer, 2 shared      1 sharded optimizer
//                          part, 4 optimizer part, 8
//                          sharded parameters, 16 float32
//                          values (a float32 model's), 32
//                          loss scale
//    16  u64 file size     whole file, checksum included      same
//    24  u32, u32          worker K, worker count N           worker count N, file count F
//    32  i64 step
//    40  u64 scenario hash
//   body of worker-K.ckpt, in this order:
//     shared part (flag 2, worker 0 only): u64[4] run generator, i64 optimizer step,
//                 u64 parameter count n (offset 88), f64[n] parameters (n = 0 with flag 8),
//                 then with flag 32 (loss scaling): f64 loss scale, i64 good steps
//     parameters part (flag 8, every worker): u64 total length, u64 slice begin,
//                 u64 slice length L, f64[L]
//     optimizer part (flag 4): velocity, first moment, second moment, each
//                 u64 total length, u64 slice begin, u64 slice length L, f64[L]
//     cursor:     u64 position, u64 epoch, u64[4] generator, u64 order length m, u32[m] order
//   body of MANIFEST: F entries of u32 name length, name bytes, u64 file size, u64 checksum
//   trailer: u64 checksum
//
// Without sharding, worker 0's file holds the whole optimizer state. With it, worker K holds
// entries [floor(K*n/N), floor((K+1)*n/N)) of each optimizer vector (ZeRO-1), so no checkpoint
// can be restored without every worker's file. With sharded parameters (a ZeRO-3 run, flag 8)
// worker K's file holds the same slice of the parameters too, and no file holds them whole.
struct OptimizerSlice {
    std::uint64_t total = 0; // length of the whole vector
    std::uint64_t begin = 0;
    std::vector<double> values;
};

// The contents of one worker-K.ckpt.
struct WorkerCheckpoint {
    int worker = 0;
    int workers = 1;
    bool sharded_optimizer = false;
    std::int64_t step = 0;
    std::uint64_t scenario_hash = 0;
    bool has_shared = false; // parameters, run generator and optimizer step: worker 0 only
    std::vector<double> parameters;
    Rng::State run_rng{};
    std::int64_t optimizer_step = 0;
    bool has_optimizer = false;
    OptimizerSlice velocity, first_moment, second_moment;
    bool sharded_parameters = false;          // flag 8: `parameter_slice` holds this worker's slice
    Precision precision = Precision::Float64; // flag 16: float32
    std::optional<LossScaleState> loss_scale; // flag 32, worker 0 only
    OptimizerSlice parameter_slice;
    DataCursor::State cursor;
};

// The half-open range of an n-entry optimizer vector that worker k of N keeps when sharded.
struct SliceRange {
    std::uint64_t begin = 0;
    std::uint64_t end = 0;
};
SliceRange optimizer_slice(std::uint64_t n, int worker, int workers);

// Encoding checks the state against the limits and its own shape (one cursor per worker,
// optimizer vectors empty or one entry per parameter) and throws lockstep::Error otherwise.
std::vector<std::byte> encode_worker_file(const TrainingState& state, int worker,
                                          bool sharded_optimizer, bool sharded_parameters = false);
// Decoding checks magic, version, declared size, checksum, then every length against the
// limits and the bytes left, before allocating. Throws CheckpointError starting with `name`.
WorkerCheckpoint decode_worker_file(std::span<const std::byte> bytes, const std::string& name);
// Puts the workers' files (worker 0 first) back together; throws CheckpointError when they do
// not belong to one checkpoint or a slice is missing.
TrainingState assemble_state(std::vector<WorkerCheckpoint> files);

struct ManifestEntry {
    std::string name; // a plain file name inside the checkpoint directory
    std::uint64_t size = 0;
    std::uint64_t checksum = 0; // the file's own trailing checksum
};

// The commit record of one checkpoint, written after every file it lists is durable.
struct CheckpointManifest {
    std::int64_t step = 0;
    std::uint64_t scenario_hash = 0;
    int workers = 1;
    bool sharded_optimizer = false;
    std::vector<ManifestEntry> files; // worker-0.ckpt .. worker-(N-1).ckpt, in worker order
};

// Writes what it is given, names unchecked, so tests and fuzz seeds can build hostile files;
// the reader is the gate.
std::vector<std::byte> encode_manifest(const CheckpointManifest& manifest);
CheckpointManifest decode_manifest(std::span<const std::byte> bytes,
                                   const std::string& name = "MANIFEST");

// A name that stays inside its directory: not empty, at most 255 bytes, no '/', '\\', NUL or
// "..", not starting with '.'.
bool is_plain_file_name(std::string_view name);

inline constexpr std::string_view manifest_file_name = "MANIFEST";
inline constexpr std::string_view temp_suffix = ".tmp";
std::string worker_file_name(int worker);                 // "worker-3.ckpt"
std::string checkpoint_directory_name(std::int64_t step); // "step-000000123"
// The step of a "step-NNN" directory name, or nothing for any other name.
std::optional<std::int64_t> parse_checkpoint_directory_name(std::string_view name);

// The phases of a commit, in order: for each worker file WriteTemp, FsyncFile, Rename, FsyncDir;
// then the same four for MANIFEST; then Committed.
enum class CheckpointPhase { WriteTemp, FsyncFile, Rename, FsyncDir, Committed };
std::string_view to_string(CheckpointPhase phase);

// Told as each phase finishes (so a phase lasts from the previous call to this one). `worker`
// is -1 for the manifest and for Committed. `file` is the temporary path for WriteTemp and
// FsyncFile, the final path for Rename and FsyncDir, and the checkpoint directory for Committed.
using CheckpointObserver =
    std::function<void(CheckpointPhase phase, int worker, const std::string& file)>;

// Where an injected crash stops a save. Workers' files are written one after another in worker
// order, so at the crash the files of workers before `worker` are durable, those after it are
// not started, and `worker`'s own file is left as a crash would leave it:
//   BeforeFsync: a temporary file holding the first half of its bytes, never synced;
//   AfterFsyncBeforeRename: the whole temporary file, synced, not renamed;
//   AfterRenameBeforeManifest: the file renamed and its directory synced, no manifest.
struct CrashPoint {
    enum class Moment { BeforeFsync, AfterFsyncBeforeRename, AfterRenameBeforeManifest };
    int worker = 0;
    Moment moment = Moment::BeforeFsync;
};
std::string_view to_string(CrashPoint::Moment moment);

struct CheckpointOptions {
    bool sharded_optimizer = false;
    bool sharded_parameters = false; // each worker's file its slice of the parameters (ZeRO-3)
    int keep_last = 0; // after a commit, keep this many committed checkpoints; 0 keeps all
    std::optional<CrashPoint> crash;
    CheckpointObserver observer;
};

struct CheckpointWrite {
    std::filesystem::path directory;
    bool committed = false;
    std::optional<CrashPoint> crash;           // set when the injected crash stopped the save
    std::vector<ManifestEntry> files;          // worker files made durable, in worker order
    std::uint64_t bytes = 0;                   // bytes written, manifest included
    std::vector<std::filesystem::path> pruned; // older checkpoints removed by keep_last
};

// Saves `state` as DIR/step-NNN/ with the commit protocol: each file goes to NAME.tmp, is
// fsynced, renamed and its directory fsynced; MANIFEST follows the same way only once every
// worker file is durable. An existing directory for the same step is un-committed (its
// MANIFEST removed first) and replaced. Throws lockstep::Error on a bad state or an I/O error.
CheckpointWrite save_checkpoint(const std::filesystem::path& dir, const TrainingState& state,
                                const CheckpointOptions& options = {});

// Replaces `file` with `bytes` so that a crash leaves either the old file or the new one: written
// to FILE.tmp, fsynced, renamed, and its directory fsynced. Throws lockstep::Error.
void write_file_atomically(const std::filesystem::path& file, std::span<const std::byte> bytes);

// Keeps the newest `keep` checkpoints that verify (their MANIFEST, the commit point, and every file
// it lists) and removes every step directory older than the oldest kept one; with fewer than
// `keep` that verify, removes nothing. Returns what it removed.
std::vector<std::filesystem::path> keep_last_checkpoints(const std::filesystem::path& dir,
                                                         int keep);
// The same among the step directories `own` names (a run's own checkpoints) only: nothing else
// in DIR is counted or removed.
std::vector<std::filesystem::path> keep_last_checkpoints(const std::filesystem::path& dir, int keep,
                                                         std::span<const std::int64_t> own);

// The step directories already in DIR, by the scenario hash their files declare (MANIFEST's
// header, else any worker file's): read, not verified, so that a run can tell its own
// checkpoints from another run's before it writes, prunes or restores anything. Steps oldest
// first; a missing DIR holds none.
struct CheckpointOwners {
    std::vector<std::int64_t> this_scenario;
    std::vector<std::int64_t> other_scenario;
    std::vector<std::int64_t> unknown; // no file with a readable header
    bool empty() const {
        return this_scenario.empty() && other_scenario.empty() && unknown.empty();
    }
};
CheckpointOwners checkpoint_owners(const std::filesystem::path& dir, std::uint64_t scenario_hash);
// "step-000000010", or "3 checkpoints, step-000000080 to step-000000100", for messages.
std::string describe_steps(std::span<const std::int64_t> steps);

// A checkpoint that cannot be used, with the reason as a fault and a one-line message that
// names the file, e.g. "worker-2.ckpt: checksum mismatch".
class CheckpointError : public Error {
public:
    CheckpointError(CheckpointFault fault, const std::string& message)
        : Error(message)
        , fault_(fault) {}
    CheckpointFault fault() const { return fault_; }

private:
    CheckpointFault fault_;
};

// Reads one checkpoint directory and verifies its manifest, every listed file against it, and
// that the files belong together. Throws CheckpointError.
TrainingState load_checkpoint(const std::filesystem::path& step_dir);

struct CheckpointInfo {
    std::int64_t step = 0; // from the directory name
    std::filesystem::path directory;
    CheckpointStatus status = CheckpointStatus::Complete;
    CheckpointFault fault = CheckpointFault::None;
    std::string reason;                           // empty when usable
    std::optional<CheckpointManifest> manifest;   // when it could be read
    std::vector<std::filesystem::path> leftovers; // temporary files inside it
};

struct CheckpointScan {
    std::vector<CheckpointInfo> checkpoints;      // oldest first
    std::vector<std::filesystem::path> leftovers; // every temporary file, in DIR or a step
};

// Verifies every step directory fully. Throws lockstep::Error when DIR is not a directory.
CheckpointScan scan_checkpoints(const std::filesystem::path& dir);

struct CheckpointRecovery {
    std::optional<TrainingState> state; // nothing when no checkpoint verifies
    std::filesystem::path directory;
    std::vector<CheckpointInfo> rejected; // newer than the one loaded, newest first
};

// Says why a verified state cannot be restored into a run, or nothing when it can.
using StateCheck = std::function<std::optional<std::string>(const TrainingState&)>;

// What a recovery may take: this scenario's checkpoints (and this worker count, unless 0), at
// or before `newest_step` (a rollback never goes forward), among the steps `own` names when it
// is set (a run's own), and that `fits` accepts when it is set.
struct RecoveryFilter {
    std::uint64_t scenario_hash = 0;
    int workers = 0;
    std::int64_t newest_step = std::numeric_limits<std::int64_t>::max();
    std::optional<std::vector<std::int64_t>> own;
    StateCheck fits;
};

// The newest checkpoint whose manifest and every listed file verify and that belongs to this
// run (scenario hash, and worker count unless `workers` is 0), falling back to older ones.
// Those it skips are in `rejected` with their reason; those the filter leaves out are not
// looked at. A missing DIR is no checkpoint at all.
CheckpointRecovery load_newest_complete(const std::filesystem::path& dir,
                                        std::uint64_t scenario_hash, int workers);
CheckpointRecovery load_newest_complete(const std::filesystem::path& dir,
                                        const RecoveryFilter& filter);

// Removes the temporary files that crashed saves left behind and returns them.
std::vector<std::filesystem::path> clean_leftovers(const std::filesystem::path& dir);
// The same inside the step directories `own` names only (a run's own saves).
std::vector<std::filesystem::path> clean_leftovers(const std::filesystem::path& dir,
                                                   std::span<const std::int64_t> own);

// A run's hold on its checkpoint directory: DIR/lockstep.lock, created if need be, locked with
// flock() for as long as this object lives and holding the owner's process ID. A second run or
// resume of the same directory is refused at once with lockstep::Error naming that PID; the
// lock goes with the process, however it ends, so a killed run never leaves the directory
// locked. A lockstep.lock that is a link, not a regular file, or holds anything but a PID is
// not ours and is refused, never overwritten.
class DirectoryLock {
public:
    explicit DirectoryLock(const std::filesystem::path& dir);
    ~DirectoryLock();
    DirectoryLock(const DirectoryLock&) = delete;
    DirectoryLock& operator=(const DirectoryLock&) = delete;

private:
    int fd_ = -1;
};
inline constexpr std::string_view lock_file_name = "lockstep.lock";

// Moves the step directories `steps` names (checkpoints this run cannot use) into a new
// DIR/set-aside-K (the first K free), so that a fresh start never writes over them. Returns
// that folder. Throws lockstep::Error.
std::filesystem::path set_aside(const std::filesystem::path& dir,
                                std::span<const std::int64_t> steps);

// A resume that found no checkpoint it can use in DIR (`rejected`: every one it looked at, with
// why): starting again from step 0 would write over the committed ones (corrupt, or another
// run's, or not fitting), so without `from_scratch` it is refused (lockstep::Error naming them
// and the way out); with it they are set aside first. Saves that never committed are a crashed
// run's own unfinished work, replaced as the new run saves. Returns the folder they went to, or
// nothing when there was no committed checkpoint to protect.
std::optional<std::filesystem::path> start_again(const std::filesystem::path& dir,
                                                 std::span<const CheckpointInfo> rejected,
                                                 bool from_scratch);

// Storage faults for tests and the failure engine: flip bit `bit` (0..7) of the byte at
// `offset`; cut (or extend with zeros) a file to `size` bytes. Throw lockstep::Error.
void flip_bit(const std::filesystem::path& file, std::uint64_t offset, int bit = 0);
void truncate_file(const std::filesystem::path& file, std::uint64_t size);

} // namespace lockstep
