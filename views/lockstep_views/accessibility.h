#pragma once

// The views as a screen reader visits them: not one description string, but objects. The
// cluster view is a list of its workers ("Worker 2", value "waiting for worker 1; gradient
// 0.0132"), the timeline a list of its lanes (the event at the playhead), the checkpoints view a
// list of the shelf's boxes (each file and manifest, in its state), the pipeline view a list of
// the grid's boxes (a stage's pass of a micro-batch, or a bubble). Each child has its place on
// screen, so a screen reader's pointer and a magnifier follow it. Values are read from the view
// when asked; the views tell of a change once per step, not on every frame.

#include <QString>

class QWidget;

namespace lockstep::views {

// Installs the factory (QAccessible::installFactory) that gives the views their interfaces.
// Once per process, before the first view is shown; calling it again does nothing.
void install_accessibility();

} // namespace lockstep::views
