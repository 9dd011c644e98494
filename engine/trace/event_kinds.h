#pragma once

#include "trace/trace.h"

namespace lockstep {

// What a worker is doing during an event, in the words every view uses for its colours, labels
// and spoken descriptions. An instant belongs to the activity it ends or marks: a Detect (the
// heartbeat timeout giving up on a dead peer) ends a wait, so it is waiting.
enum class EventCategory {
    Compute,    // Compute, Forward, Backward
    Send,       // Send, Communicate (a fixed communication cost)
    Receive,    // Receive, Reduce (adding what arrived)
    Update,     // Update
    Wait,       // Wait, Bubble, Detect
    Pause,      // Pause (an injected stall)
    Checkpoint, // CheckpointWrite / Sync / Commit, Restore, Verify, Damage
    Failure,    // Failed
};

EventCategory category_of(EventKind kind);

// Which event tells most when several on one lane cover the same instant; higher wins. The
// categories in order: a dead worker above all, then an injected pause (the cause a teacher
// clicked) above the waiting it causes, waiting above the messages that end it, sending above
// receiving, then checkpointing, and last updating and computing alike (so at a step's end the
// compute starting the next step is not hidden by an instant update). Inside a category a message
// that names its peer (Send, Receive) outranks the cost without one (Communicate, Reduce); other
// kinds of one category tie, and every view shows them alike.
int priority_of(EventKind kind);

} // namespace lockstep
