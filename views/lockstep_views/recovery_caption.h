#pragma once

// What a recovery is doing at a moment of the run, in plain words, from the trace's failure
// events alone: who stopped, that the others wait for its heartbeat and when it times out, then
// what is loaded (or that the run starts over) and how much work is done again. The cluster view
// shows it while it lasts.

#include "lockstep_views/trace_index.h"

#include <QString>

namespace lockstep::views {

// Empty when no recovery is under way at `t`.
QString recovery_caption(const TraceIndex& index, Ticks t);

} // namespace lockstep::views
