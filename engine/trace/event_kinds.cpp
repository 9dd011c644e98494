#include "trace/event_kinds.h"

namespace lockstep {

EventCategory category_of(EventKind kind) {
    switch (kind) {
    case EventKind::Compute:
    case EventKind::Forward:
    case EventKind::Backward:
        return EventCategory::Compute;
    case EventKind::Send:
    case EventKind::Communicate:
        return EventCategory::Send;
    case EventKind::Receive:
    case EventKind::Reduce:
        return EventCategory::Receive;
    case EventKind::Update:
        return EventCategory::Update;
    case EventKind::Wait:
    case EventKind::Bubble:
    case EventKind::Detect:
    case EventKind::Mismatch:
        return EventCategory::Wait;
    case EventKind::Pause:
        return EventCategory::Pause;
    case EventKind::CheckpointWrite:
    case EventKind::CheckpointSync:
    case EventKind::CheckpointCommit:
    case EventKind::Restore:
    case EventKind::Verify:
    case EventKind::Damage:
        return EventCategory::Checkpoint;
    case EventKind::Failed:
        return EventCategory::Failure;
    }
    return EventCategory::Compute;
}

int priority_of(EventKind kind) {
    switch (kind) {
    case EventKind::Failed:
        return 11;
    case EventKind::Pause:
        return 10;
    case EventKind::Wait:
    case EventKind::Bubble:
    case EventKind::Detect:
    case EventKind::Mismatch:
        return 9;
    case EventKind::Send:
        return 8;
    case EventKind::Communicate:
        return 7;
    case EventKind::Receive:
        return 6;
    case EventKind::Reduce:
        return 5;
    case EventKind::CheckpointWrite:
    case EventKind::CheckpointSync:
    case EventKind::CheckpointCommit:
    case EventKind::Restore:
    case EventKind::Verify:
    case EventKind::Damage:
        return 4;
    case EventKind::Update:
    case EventKind::Compute:
    case EventKind::Forward:
    case EventKind::Backward:
        return 2;
    }
    return 0;
}

} // namespace lockstep
