#include "checkpoint/checkpoint.h"

#include <bit>
#include <cmath>
#include <cstring>
#include <span>

namespace lockstep {

namespace {

bool same_bits(std::span<const double> a, std::span<const double> b) {
    return a.size() == b.size() &&
           (a.empty() || std::memcmp(a.data(), b.data(), a.size() * sizeof(double)) == 0);
}

bool same_cursor(const DataCursor::State& a, const DataCursor::State& b) {
    return a.position == b.position && a.epoch == b.epoch && a.order == b.order && a.rng == b.rng;
}

[[noreturn]] void fail(int worker, const std::string& what) {
    throw CheckpointError(CheckpointFault::Unreadable, worker_file_name(worker) + ": " + what);
}

// Rebuilds one optimizer vector from the slices the files hold: the whole vector in worker 0's
// file (moved out), or worker k's share of it in file k when sharded.
std::vector<double> join_slices(std::vector<WorkerCheckpoint>& files,
                                OptimizerSlice WorkerCheckpoint::*member, const char* what,
                                std::size_t parameters, bool sharded) {
    const int workers = static_cast<int>(files.size());
    const std::uint64_t total = (files.front().*member).total;
    if (total != 0 && total != parameters)
        fail(0, std::string(what) + " has " + std::to_string(total) + " entries, the model has " +
                    std::to_string(parameters) + " parameters");
    std::vector<double> out;
    for (int k = 0; k < (sharded ? workers : 1); ++k) {
        OptimizerSlice& slice = files[static_cast<std::size_t>(k)].*member;
        const SliceRange want = sharded ? optimizer_slice(total, k, workers) : SliceRange{0, total};
        if (slice.total != total || slice.begin != want.begin ||
            slice.values.size() != want.end - want.begin)
            fail(k, std::string(what) + " slice [" + std::to_string(slice.begin) + ", +" +
                        std::to_string(slice.values.size()) + ") of " +
                        std::to_string(slice.total) + " is not the expected [" +
                        std::to_string(want.begin) + ", " + std::to_string(want.end) + ") of " +
                        std::to_string(total));
        if (!sharded)
            return std::move(slice.values);
        out.reserve(total);
        out.insert(out.end(), slice.values.begin(), slice.values.end());
    }
    return out;
}

} // namespace

bool operator==(const TrainingState& a, const TrainingState& b) {
    if (a.step != b.step || a.scenario_hash != b.scenario_hash || a.run_rng != b.run_rng ||
        a.precision != b.precision || a.loss_scale.has_value() != b.loss_scale.has_value() ||
        (a.loss_scale && (std::bit_cast<std::uint64_t>(a.loss_scale->scale) !=
                              std::bit_cast<std::uint64_t>(b.loss_scale->scale) ||
                          a.loss_scale->good_steps != b.loss_scale->good_steps)) ||
        a.optimizer.step != b.optimizer.step || !same_bits(a.parameters, b.parameters) ||
        !same_bits(a.optimizer.velocity, b.optimizer.velocity) ||
        !same_bits(a.optimizer.first_moment, b.optimizer.first_moment) ||
        !same_bits(a.optimizer.second_moment, b.optimizer.second_moment) ||
        a.cursors.size() != b.cursors.size())
        return false;
    for (std::size_t k = 0; k < a.cursors.size(); ++k)
        if (!same_cursor(a.cursors[k], b.cursors[k]))
            return false;
    return true;
}

TrainingState assemble_state(std::vector<WorkerCheckpoint> files) {
    if (files.empty())
        throw CheckpointError(CheckpointFault::MissingFile, "no worker files");
    const WorkerCheckpoint& first = files.front();
    if (static_cast<int>(files.size()) != first.workers)
        fail(0, "written by " + std::to_string(first.workers) + " workers, but " +
                    std::to_string(files.size()) + " files are given");
    for (std::size_t k = 0; k < files.size(); ++k) {
        const WorkerCheckpoint& f = files[k];
        const int id = static_cast<int>(k);
        if (f.worker != id)
            fail(id, "holds worker " + std::to_string(f.worker) + "'s state");
        if (f.workers != first.workers || f.step != first.step ||
            f.scenario_hash != first.scenario_hash ||
            f.sharded_optimizer != first.sharded_optimizer ||
            f.sharded_parameters != first.sharded_parameters || f.precision != first.precision)
            fail(id, "belongs to another checkpoint than worker-0.ckpt (step " +
                         std::to_string(f.step) + ", worker-0.ckpt has step " +
                         std::to_string(first.step) + ")");
    }
    if (!first.has_shared)
        fail(0, "does not hold the parameters");

    TrainingState state;
    state.precision = first.precision;
    state.loss_scale = first.loss_scale;
    state.step = first.step;
    state.scenario_hash = first.scenario_hash;
    state.run_rng = first.run_rng;
    state.optimizer.step = first.optimizer_step;
    // The parameters: whole in worker 0's file, or a slice in every file (sharded parameters).
    const bool sharded = first.sharded_optimizer;
    if (first.sharded_parameters) {
        const auto total = static_cast<std::size_t>(first.parameter_slice.total);
        state.parameters =
            join_slices(files, &WorkerCheckpoint::parameter_slice, "parameters", total, true);
    } else {
        state.parameters = std::move(files.front().parameters);
    }
    const std::size_t n = state.parameters.size();
    const auto join_into = [&](AlignedBuffer& into, OptimizerSlice WorkerCheckpoint::*member,
                               const char* what) {
        const std::vector<double> joined = join_slices(files, member, what, n, sharded);
        into.assign(joined.begin(), joined.end());
    };
    join_into(state.optimizer.velocity, &WorkerCheckpoint::velocity, "velocity");
    join_into(state.optimizer.first_moment, &WorkerCheckpoint::first_moment, "first moment");
    join_into(state.optimizer.second_moment, &WorkerCheckpoint::second_moment, "second moment");
    if (state.precision == Precision::Float32) {
        // A float32 checkpoint holds float values only; one that is not is not trusted.
        const auto check_floats = [](std::span<const double> values, const char* what) {
            for (std::size_t i = 0; i < values.size(); ++i)
                if (static_cast<double>(static_cast<float>(values[i])) != values[i] &&
                    !std::isnan(values[i]))
                    fail(0, std::string("says float32, but its ") + what + " entry " +
                                std::to_string(i) + " is not a float");
        };
        check_floats(state.parameters, "parameters");
        check_floats(state.optimizer.velocity, "velocity");
        check_floats(state.optimizer.first_moment, "first moment");
        check_floats(state.optimizer.second_moment, "second moment");
    }
    state.cursors.reserve(files.size());
    for (auto& f : files)
        state.cursors.push_back(std::move(f.cursor));
    return state;
}

std::string_view to_string(CheckpointPhase phase) {
    switch (phase) {
    case CheckpointPhase::WriteTemp:
        return "write-temp";
    case CheckpointPhase::FsyncFile:
        return "fsync-file";
    case CheckpointPhase::Rename:
        return "rename";
    case CheckpointPhase::FsyncDir:
        return "fsync-dir";
    case CheckpointPhase::Committed:
        return "committed";
    }
    return "unknown";
}

std::string_view to_string(CrashPoint::Moment moment) {
    switch (moment) {
    case CrashPoint::Moment::BeforeFsync:
        return "before-fsync";
    case CrashPoint::Moment::AfterFsyncBeforeRename:
        return "after-fsync";
    case CrashPoint::Moment::AfterRenameBeforeManifest:
        return "after-rename";
    }
    return "unknown";
}

std::string_view to_string(CheckpointStatus status) {
    switch (status) {
    case CheckpointStatus::Complete:
        return "complete";
    case CheckpointStatus::Partial:
        return "partial";
    case CheckpointStatus::Corrupt:
        return "corrupt";
    }
    return "unknown";
}

std::string_view to_string(CheckpointFault fault) {
    switch (fault) {
    case CheckpointFault::None:
        return "none";
    case CheckpointFault::NoManifest:
        return "no manifest";
    case CheckpointFault::MissingFile:
        return "missing file";
    case CheckpointFault::SizeMismatch:
        return "size mismatch";
    case CheckpointFault::ChecksumMismatch:
        return "checksum mismatch";
    case CheckpointFault::BadVersion:
        return "bad version";
    case CheckpointFault::BadName:
        return "bad name in manifest";
    case CheckpointFault::Unreadable:
        return "unreadable";
    case CheckpointFault::WrongScenario:
        return "wrong scenario";
    case CheckpointFault::WrongWorkers:
        return "wrong worker count";
    case CheckpointFault::DoesNotFit:
        return "does not fit this run";
    }
    return "unknown";
}

CheckpointStatus status_of(CheckpointFault fault) {
    switch (fault) {
    case CheckpointFault::None:
    case CheckpointFault::WrongScenario:
    case CheckpointFault::WrongWorkers:
    case CheckpointFault::DoesNotFit:
        return CheckpointStatus::Complete;
    case CheckpointFault::NoManifest:
    case CheckpointFault::MissingFile:
        return CheckpointStatus::Partial;
    default:
        return CheckpointStatus::Corrupt;
    }
}

} // namespace lockstep
