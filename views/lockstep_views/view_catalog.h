#pragma once

#include "lockstep_views/session_view.h"

#include <QtGlobal>

#include <span>

namespace lockstep::views {

// The views in the lab's tabs, in their order: X(name, title). `name` is the view's name on the
// command line (--view, --screenshot) and in lesson links, make_<name>_view() in its own file
// builds it, and `title` is its tab's words (Qt Linguist context "View").
#define LOCKSTEP_TAB_VIEWS(X)                                                                      \
    X(training, QT_TRANSLATE_NOOP("View", "Training"))                                             \
    X(speedup, QT_TRANSLATE_NOOP("View", "Speedup"))                                               \
    X(checkpoints, QT_TRANSLATE_NOOP("View", "Checkpoints"))                                       \
    X(pipeline, QT_TRANSLATE_NOOP("View", "Pipeline"))                                             \
    X(memory, QT_TRANSLATE_NOOP("View", "Memory"))                                                 \
    X(comparison, QT_TRANSLATE_NOOP("View", "Compare"))

struct ViewEntry {
    const char* name;
    const char* title; // translate with QCoreApplication::translate("View", title)
    SessionView* (*make)();
};

std::span<const ViewEntry> tab_views();

} // namespace lockstep::views
