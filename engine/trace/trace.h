#pragma once

#include "checkpoint/verdict.h"
#include "clocks/clock.h"
#include "failures/failure.h"

#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

namespace lockstep {

// What a worker was doing during one interval of the run.
enum class EventKind {
    Compute,     // forward and backward pass over its batch
    Send,        // bytes leaving this worker (peer = receiver)
    Receive,     // bytes arriving at this worker (peer = sender)
    Reduce,      // adding received values into its own buffer
    Wait,        // idle because a peer or the barrier is not ready
    Update,      // applying the optimizer step
    Communicate, // a fixed communication cost given by the scenario (no per-message detail)
    Pause,       // an injected pause (the worker is stalled)
    // Saving a checkpoint, in the order of the commit protocol:
    CheckpointWrite,  // writing its file under a temporary name (bytes = the file's size)
    CheckpointSync,   // fsync of the file, or rename and fsync of its directory: made durable
    CheckpointCommit, // the manifest written, synced and renamed: the checkpoint now counts
    // Failures and recovery:
    Failed,  // the worker is down: from its crash until it is replaced (or the run's end)
    Detect,  // an instant: the heartbeat timeout declared worker `peer` dead
    Restore, // reading the checkpoint back (bytes = what this worker reads)
    // An instant of the recovery's scan, on the first live worker's lane, newest checkpoint
    // first: `round` is the checkpoint's step, `verdict` and `fault` what the scan found (complete
    // without a fault: the one loaded; partial or corrupt, or complete with a fault, another run's
    // or one that does not fit: skipped).
    Verify,
    // An instant: this worker's file of checkpoint `round` was damaged on disk (a storage fault,
    // `damage` says which). Nothing notices until a recovery reads it.
    Damage,
    // Model parallelism (a pipeline stage's lane; `microbatch` says which micro-batch). The
    // activations and their gradients travel as Send / Receive with `microbatch` set: towards
    // the next stage (peer = worker + 1) activations, towards the previous one their gradients.
    // With gradient buckets, a data-parallel worker's computation is drawn as these too: its
    // forward pass, then its backward layer by layer (`layer` set, `microbatch` -1).
    Forward,  // forward pass of one micro-batch through the stage's layers
    Backward, // backward pass of one micro-batch: gradients added up, input gradient produced
    Bubble,   // idle: the pipeline has no micro-batch for this stage yet, or any more
    // An instant, with gradient buckets: a message this worker received named another bucket
    // (`value`, from worker `peer`) than the one it was reducing (`bucket`): the workers reduce
    // their buckets in different orders. The step stops there, nothing added and nothing applied.
    Mismatch,
};

std::string_view to_string(EventKind kind);

// Where an event's time goes in a worker's account. Overlapping: sends, receives and reduces,
// which may overlap (full duplex) and count as their union; Instant: no time at all.
enum class TimeBucket {
    Compute,
    Communication,
    Waiting,
    Update,
    Checkpoint,
    Restore,
    Failed,
    Overlapping,
    Instant
};
TimeBucket bucket_of(EventKind kind);

// Where a worker's checkpoint file stands once a checkpoint phase ends: each CheckpointWrite,
// CheckpointSync and CheckpointCommit states the step of the commit protocol it completes, so a
// reader of the trace never has to count phases to know what is on disk.
enum class FileStage : std::uint8_t {
    None,      // not a checkpoint phase
    Written,   // CheckpointWrite: its bytes under a temporary name, not yet durable
    Synced,    // CheckpointSync: the temporary file fsynced, its bytes durable
    Renamed,   // CheckpointSync: renamed into place (and, as the phase that ends it, the
               // directory fsynced)
    Committed, // CheckpointCommit: the manifest naming every file written, synced and renamed
};

// How a checkpoint phase ended for its worker's file (CheckpointWrite / Sync / Commit).
enum class PhaseOutcome : std::uint8_t {
    None,    // not a checkpoint phase
    Done,    // the phase completed and the save went on
    Crashed, // the worker crashed in this phase (a torn write) or right after it: its file stays
             // partial and the checkpoint is never committed
};

// Which half of an all-reduce a sharded data-parallel run's message belongs to: the
// reduce-scatter that leaves each worker the summed gradient of its shard, or the all-gather that
// hands every worker everyone's parameters.
enum class CollectiveHalf : std::uint8_t { None, ReduceScatter, AllGather };

// One interval on one worker's lane. Times are on the run's clock (modelled or measured).
struct TraceEvent {
    int worker = 0;
    EventKind kind = EventKind::Compute;
    std::int64_t step = 0;
    Ticks start = 0;
    Ticks end = 0;
    std::int64_t bytes = 0; // Send / Receive
    int peer = -1;          // Send / Receive: the other worker
    int round = -1;      // collective round for Send / Receive / Reduce; the checkpoint's step for
                         // CheckpointWrite / Sync / Commit, Restore, Verify and Damage
    double value = 0.0;  // a small value worth showing: the worker's first gradient entry
    int microbatch = -1; // Forward / Backward / Bubble and pipeline Send / Receive
    // Which step of the run this event belongs to in the order the steps were executed: unlike
    // `step`, which a rollback repeats, it only grows. A branch of the run keeps every event of
    // the executed steps before it.
    int ordinal = 0;
    FileStage file = FileStage::None; // CheckpointWrite / Sync / Commit: what the phase completes
    PhaseOutcome outcome = PhaseOutcome::None; // CheckpointWrite / Sync / Commit: how it ended
    // Verify: the scan's verdict on checkpoint `round` and why (`peer` and `value` repeat them
    // as numbers, status and fault, for readers of the untyped fields).
    CheckpointStatus verdict = CheckpointStatus::Complete;
    CheckpointFault fault = CheckpointFault::None;
    // Damage: how the file was damaged (`value` says the same as a number: 0 a flipped bit, 1
    // truncated).
    Corruption damage = Corruption::BitFlip;
    // Loosely synchronised runs (sync ssp, async): on a worker's push (Send to the parameter
    // server) and on the server's Update, the parameter version the gradient was computed on and
    // its staleness tau, the updates applied since then. -1: not such an event.
    std::int64_t version = -1;
    int staleness = -1;
    // Failed: true on the interval that begins at the crash (a lane gone for good is drawn failed
    // again each step, false).
    bool crash_begins = false;
    // Data parallelism with gradient buckets: a Backward event's layer (its gradient is done at
    // the event's end); a collective's Send, Receive, Reduce and Wait, drawn on the worker's
    // communication row, name their bucket (0: the first reduced, the last layers) and its
    // layers [layer, layer_end). -1: neither.
    int layer = -1;
    int bucket = -1;
    int layer_end = -1;
    // Sharded data parallelism: a collective's Send, Receive, Reduce and Wait name the half they
    // belong to; with sharded parameters (ZeRO 3) `layer` says whose halves they are.
    CollectiveHalf half = CollectiveHalf::None;
};

// The event of one checkpoint phase of `worker`'s file, its kind following from the stage it
// completes (Written: CheckpointWrite; Synced, Renamed: CheckpointSync; Committed:
// CheckpointCommit), its outcome Done. `bytes`: the file's size for a write, the manifest's for a
// commit.
TraceEvent checkpoint_event(int worker, FileStage stage, std::int64_t step, Ticks start, Ticks end,
                            std::int64_t bytes = 0);

// What one step of a pipeline was, as its trainer counted it.
struct PipelineStepReport {
    int stages = 0;                 // P: stages of one pipeline
    int microbatches = 0;           // M: micro-batches per replica's batch
    double bubble_fraction = 0.0;   // the step's idle stage-time / (lanes x the step's time)
    std::vector<int> peak_inflight; // per lane: most micro-batches its program holds at once
};

// What one data-parallel worker held at one moment, in bytes by kind, read off its buffers (the
// trainer's memory ledger): at the end of each step, and in a sharded run also as it gathers
// and frees during the step.
struct MemorySample {
    int worker = 0; // its lane
    Ticks at = 0;
    std::int64_t parameters = 0, gradients = 0, optimizer = 0, activations = 0, workspace = 0;
    std::int64_t total() const {
        return parameters + gradients + optimizer + activations + workspace;
    }
};

// The state of all replicas after one step's update.
struct StepSnapshot {
    std::int64_t step = 0;
    std::int64_t ordinal = 0; // the executed step it ends (see TraceEvent::ordinal)
    Ticks time = 0;           // end of the step on the run's clock
    double loss = 0.0;        // mean of the workers' batch losses
    double accuracy = 0.0;    // fraction correct over all workers' batches (classification)
    std::vector<double> worker_loss;
    std::vector<std::uint64_t> parameter_hash; // per worker, after the update
    bool replicas_aligned = true;              // every hash equal
    bool overflow = false;   // the summed gradient overflowed its wire format: nothing was applied
    double loss_scale = 1.0; // what the gradients were multiplied by before the wire format
    double replica_spread = 0.0; // largest L2 distance of a replica's parameters from their mean
    std::vector<double> replica_distance; // per worker, that distance (empty: replicas aligned)
    std::optional<PipelineStepReport> pipeline; // pipeline and hybrid runs
    // Data parallelism: what each worker held during the step, in time order per worker.
    std::vector<MemorySample> memory;
};

// Receives the trace as it is produced. The trainer calls it from the thread that runs the
// training loop, once per step, with that step's events in order.
class TraceSink {
public:
    virtual ~TraceSink() = default;
    virtual void on_events(std::span<const TraceEvent> events) = 0;
    virtual void on_snapshot(const StepSnapshot& snapshot) = 0;
};

// The whole trace kept in memory.
class Trace final : public TraceSink {
public:
    void on_events(std::span<const TraceEvent> events) override;
    void on_snapshot(const StepSnapshot& snapshot) override;

    const std::vector<TraceEvent>& events() const { return events_; }
    const std::vector<StepSnapshot>& snapshots() const { return snapshots_; }

private:
    std::vector<TraceEvent> events_;
    std::vector<StepSnapshot> snapshots_;
};

// Chrome Trace Event JSON (opens in Perfetto and chrome://tracing): one lane (thread) per
// worker, named "worker k", complete events in microseconds. A recorded trace in one string;
// ChromeTraceWriter (trace/chrome_trace.h) writes the same text as a run goes.
std::string to_chrome_trace_json(std::span<const TraceEvent> events, int workers,
                                 std::string_view run_name = "lockstep");

// Per-step metrics as CSV: step,time_s,loss,accuracy,replicas_aligned,loss_w0,...,hash_w0,...
std::string to_metrics_csv(std::span<const StepSnapshot> snapshots);
// The same CSV a line at a time, for writing it as the run goes: the header for `workers`
// workers, then one row per snapshot.
std::string metrics_csv_header(std::size_t workers);
std::string metrics_csv_row(const StepSnapshot& snapshot);

} // namespace lockstep
