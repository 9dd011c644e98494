#pragma once

// The audio description of a run: one sentence or two per step, saying the step's key event in
// plain words, from the trace alone. "Step 12. Worker 2 is 3 times slower; workers 0, 1 and 3
// wait 8 milliseconds." The lab announces it through the accessibility layer as the playhead
// passes the end of the step (app/lab/audio_description.h).

#include "lockstep_views/trace_index.h"

#include <QString>
#include <QStringList>

namespace lockstep::views {

// The step's story: `snapshot` is the StepSnapshot that ends it (its ordinal names the executed
// step whose events are read). Empty when the index holds none of its events.
QString describe_step(const TraceIndex& index, const StepSnapshot& snapshot);
// "0", "0 and 1", "0, 1 and 3" in the language in use.
QString list_in_words(const QStringList& items);

} // namespace lockstep::views
