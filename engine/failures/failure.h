#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace lockstep {

// Faults a scenario, the command line or a click in the lab can inject into a run.
//   crash:     a worker dies at `step` during `phase`; the others notice after the heartbeat
//              timeout and the recovery policy takes over.
//   pause:     a worker stalls for `seconds` at the start of `step`.
//   slow-link: from `step` on, every message to or from `worker` takes `factor` times longer.
//   corrupt:   the first checkpoint of step `step` or later gets `worker`'s file damaged on disk
//              after it was committed (one flipped bit, or cut to half its size).
// BucketOrder: in that step the worker reduces its gradient buckets in another order than the
// others (bucket 1 before bucket 0), as a rank whose autograd hooks fired differently would.
enum class FailureKind { Crash, Pause, SlowLink, Corrupt, BucketOrder };

// Where in a step a crash strikes. The checkpoint moments hit the first checkpoint whose step
// (the number of updates it holds) is `step` or later, inside the crashed worker's own save.
enum class CrashPhase {
    Compute,
    Communicate,
    Update,
    CheckpointBeforeFsync, // its temporary file half written, never synced: really truncated
    CheckpointAfterFsync,  // its temporary file whole and synced, not renamed
    CheckpointAfterRename, // its file in place, the manifest never written
};

enum class Corruption { BitFlip, Truncate };

struct FailureSpec {
    FailureKind kind = FailureKind::Crash;
    int worker = 0;
    std::int64_t step = 0;
    CrashPhase phase = CrashPhase::Compute; // crash
    double seconds = 0.0;                   // pause
    double factor = 1.0;                    // slow-link
    Corruption corruption = Corruption::BitFlip;

    bool during_checkpoint() const {
        return kind == FailureKind::Crash && phase >= CrashPhase::CheckpointBeforeFsync;
    }
};

bool operator==(const FailureSpec& a, const FailureSpec& b);

// What happens after a crash is detected.
//   restart: a replacement worker starts and everyone rolls back to the newest complete
//            checkpoint (or to the start when there is none);
//   elastic: the survivors roll back to that checkpoint and go on without the dead worker, the
//            data re-sharded over them;
//   backup:  nobody rolls back: the dead worker's gradient simply never arrives, and every step
//            already aggregates only the first gradients to arrive (needs backup_workers >= 1).
enum class RecoveryPolicy { Restart, Elastic, Backup };

struct FailureConfig {
    double heartbeat_s = 0.05; // a worker silent this long is declared dead
    double restart_s = 0.1;    // starting a replacement worker (restart policy)
    RecoveryPolicy policy = RecoveryPolicy::Restart;
    // Each step aggregates the first (workers - backup_workers) gradients to arrive and drops the
    // rest (Chen et al., 2016). 0: everyone's gradient, as plain synchronous training. On the
    // measured clock "first" is decided by the real threads' timings, so which gradients count,
    // and hence the parameters, differ from run to run; the modelled clock decides it by the cost
    // model and is deterministic.
    int backup_workers = 0;
    std::vector<FailureSpec> events;
};

// Power drawn by one worker in each state, in watts, for the energy estimate. The defaults are
// assumptions, not measurements: roughly a data-centre accelerator busy (300 W), moving data
// (150 W), spinning at a barrier (100 W), writing to storage (120 W) and idle (60 W).
struct EnergyConfig {
    double compute_w = 300.0; // compute and optimizer update
    double communicate_w = 150.0;
    double wait_w = 100.0; // waiting for peers, paused, waiting for a failed worker
    double checkpoint_w = 120.0;
    double idle_w = 60.0; // failed or restarting, and lanes that finished early
};

std::string_view to_string(FailureKind kind);    // "crash", "pause", "slow-link", "corrupt",
                                                 // "bucket-order"
std::string_view to_string(CrashPhase phase);    // "compute", ..., "after-rename"
std::string_view to_string(Corruption kind);     // "bit-flip", "truncate"
std::string_view to_string(RecoveryPolicy kind); // "restart", "elastic", "backup"
bool parse_failure_kind(std::string_view text, FailureKind& out);
bool parse_crash_phase(std::string_view text, CrashPhase& out);
bool parse_corruption(std::string_view text, Corruption& out);
bool parse_recovery_policy(std::string_view text, RecoveryPolicy& out);

// Reads the command line's form, e.g. "crash:worker=2,step=30,phase=after-fsync",
// "pause:worker=1,step=10,seconds=5", "slow-link:worker=3,step=0,factor=4",
// "corrupt:step=20,worker=0[,how=truncate]", "bucket-order:worker=2,step=5". Throws lockstep::Error
// naming the part that is wrong. Worker numbers are checked against a scenario by validate().
FailureSpec parse_failure_spec(std::string_view text);
std::string to_text(const FailureSpec& spec); // the same form back

// Whether a crash in `phase` strikes while a checkpoint is being written.
bool is_checkpoint_phase(CrashPhase phase);

} // namespace lockstep
