#include "lockstep_views/names.h"

#include <QCoreApplication>

namespace lockstep::views {

QString algorithm_name(Algorithm algorithm) {
    switch (algorithm) {
    case Algorithm::ParameterServer:
        return QCoreApplication::translate("Names", "parameter server");
    case Algorithm::Ring:
        return QCoreApplication::translate("Names", "ring");
    case Algorithm::Tree:
        return QCoreApplication::translate("Names", "tree");
    case Algorithm::Hierarchical:
        return QCoreApplication::translate("Names", "hierarchical");
    case Algorithm::None:
        return QCoreApplication::translate("Names", "none");
    }
    return QCoreApplication::translate("Names", "none");
}

QString rule_name(ReductionRule rule) {
    switch (rule) {
    case ReductionRule::Sum:
        return QCoreApplication::translate("Names", "sum");
    case ReductionRule::Mean:
        return QCoreApplication::translate("Names", "mean");
    case ReductionRule::WeightedMean:
        return QCoreApplication::translate("Names", "weighted mean");
    }
    return QCoreApplication::translate("Names", "mean");
}

QString sync_name(SyncMode mode) {
    switch (mode) {
    case SyncMode::Bsp:
        return QCoreApplication::translate("Names", "bsp");
    case SyncMode::Ssp:
        return QCoreApplication::translate("Names", "ssp");
    case SyncMode::Async:
        return QCoreApplication::translate("Names", "async");
    case SyncMode::Local:
        return QCoreApplication::translate("Names", "local SGD");
    }
    return QCoreApplication::translate("Names", "bsp");
}

QString clock_name(ClockKind clock) {
    return clock == ClockKind::Measured ? QCoreApplication::translate("Names", "measured")
                                        : QCoreApplication::translate("Names", "modelled");
}

QString parallelism_name(Parallelism mode) {
    switch (mode) {
    case Parallelism::Data:
        return QCoreApplication::translate("Names", "data");
    case Parallelism::Pipeline:
        return QCoreApplication::translate("Names", "pipeline");
    case Parallelism::Tensor:
        return QCoreApplication::translate("Names", "tensor");
    case Parallelism::Hybrid:
        return QCoreApplication::translate("Names", "hybrid");
    }
    return QCoreApplication::translate("Names", "data");
}

QString schedule_name(PipelineSchedule schedule) {
    return schedule == PipelineSchedule::OneFOneB
               ? QCoreApplication::translate("Names", "1F1B")
               : QCoreApplication::translate("Names", "fill-drain");
}

QString restore_name(RestoreMode mode) {
    return mode == RestoreMode::WeightsOnly ? QCoreApplication::translate("Names", "weights only")
                                            : QCoreApplication::translate("Names", "full");
}

QString event_name(EventKind kind) {
    switch (kind) {
    case EventKind::Compute:
        return QCoreApplication::translate("Names", "compute");
    case EventKind::Send:
        return QCoreApplication::translate("Names", "send");
    case EventKind::Receive:
        return QCoreApplication::translate("Names", "receive");
    case EventKind::Reduce:
        return QCoreApplication::translate("Names", "reduce");
    case EventKind::Wait:
        return QCoreApplication::translate("Names", "wait");
    case EventKind::Update:
        return QCoreApplication::translate("Names", "update");
    case EventKind::Communicate:
        return QCoreApplication::translate("Names", "communicate");
    case EventKind::Pause:
        return QCoreApplication::translate("Names", "pause");
    case EventKind::CheckpointWrite:
        return QCoreApplication::translate("Names", "checkpoint write");
    case EventKind::CheckpointSync:
        return QCoreApplication::translate("Names", "checkpoint sync");
    case EventKind::CheckpointCommit:
        return QCoreApplication::translate("Names", "checkpoint commit");
    case EventKind::Failed:
        return QCoreApplication::translate("Names", "failed");
    case EventKind::Detect:
        return QCoreApplication::translate("Names", "detect");
    case EventKind::Mismatch:
        return QCoreApplication::translate("Names", "bucket mismatch");
    case EventKind::Restore:
        return QCoreApplication::translate("Names", "restore");
    case EventKind::Verify:
        return QCoreApplication::translate("Names", "verify");
    case EventKind::Damage:
        return QCoreApplication::translate("Names", "damage");
    case EventKind::Forward:
        return QCoreApplication::translate("Names", "forward");
    case EventKind::Backward:
        return QCoreApplication::translate("Names", "backward");
    case EventKind::Bubble:
        return QCoreApplication::translate("Names", "bubble");
    }
    return QCoreApplication::translate("Names", "compute");
}

QString status_name(CheckpointStatus status) {
    switch (status) {
    case CheckpointStatus::Complete:
        return QCoreApplication::translate("Names", "complete");
    case CheckpointStatus::Partial:
        return QCoreApplication::translate("Names", "partial");
    case CheckpointStatus::Corrupt:
        return QCoreApplication::translate("Names", "corrupt");
    }
    return QCoreApplication::translate("Names", "complete");
}

QString fault_name(CheckpointFault fault) {
    switch (fault) {
    case CheckpointFault::None:
        return QCoreApplication::translate("Names", "none");
    case CheckpointFault::NoManifest:
        return QCoreApplication::translate("Names", "no manifest");
    case CheckpointFault::MissingFile:
        return QCoreApplication::translate("Names", "missing file");
    case CheckpointFault::SizeMismatch:
        return QCoreApplication::translate("Names", "size mismatch");
    case CheckpointFault::ChecksumMismatch:
        return QCoreApplication::translate("Names", "checksum mismatch");
    case CheckpointFault::BadVersion:
        return QCoreApplication::translate("Names", "bad version");
    case CheckpointFault::BadName:
        return QCoreApplication::translate("Names", "bad name in manifest");
    case CheckpointFault::Unreadable:
        return QCoreApplication::translate("Names", "unreadable");
    case CheckpointFault::WrongScenario:
        return QCoreApplication::translate("Names", "wrong scenario");
    case CheckpointFault::WrongWorkers:
        return QCoreApplication::translate("Names", "wrong worker count");
    case CheckpointFault::DoesNotFit:
        return QCoreApplication::translate("Names", "does not fit this run");
    }
    return QCoreApplication::translate("Names", "none");
}

QString sharding_name(Sharding sharding) {
    switch (sharding) {
    case Sharding::Optimizer:
        return QCoreApplication::translate("Names", "ZeRO 1: optimizer state sharded");
    case Sharding::Gradients:
        return QCoreApplication::translate("Names", "ZeRO 2: gradients and optimizer state "
                                                    "sharded");
    case Sharding::Parameters:
        return QCoreApplication::translate("Names", "ZeRO 3 (FSDP): parameters, gradients and "
                                                    "optimizer state sharded");
    case Sharding::None:
        break;
    }
    return QCoreApplication::translate("Names", "no sharding");
}

QString half_name(const TraceEvent& e) {
    switch (e.half) {
    case CollectiveHalf::AllGather:
        return e.layer >= 0
                   ? QCoreApplication::translate("Names", "all-gather of layer %1").arg(e.layer)
                   : QCoreApplication::translate("Names", "all-gather of the parameters");
    case CollectiveHalf::ReduceScatter:
        return e.layer >= 0
                   ? QCoreApplication::translate("Names", "reduce-scatter of layer %1's gradient")
                         .arg(e.layer)
                   : QCoreApplication::translate("Names", "reduce-scatter of the gradient");
    case CollectiveHalf::None:
        break;
    }
    return {};
}

} // namespace lockstep::views
