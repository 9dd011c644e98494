#pragma once

// Helpers the widget suites share: pixel counts and screenshots.

#include "test_support.h"

#include "lockstep_views/trace_index.h"
#include "runs/runs.h"
#include "trace/trace.h"

#include <QColor>
#include <QCoreApplication>
#include <QDir>
#include <QImage>
#include <QTemporaryDir>
#include <QWidget>

#include <cstdlib>
#include <filesystem>

namespace lockstep::testing {

// How many pixels of `image` are within `tolerance` of `colour` in every channel.
inline int count_near(const QImage& image, const QColor& colour, int tolerance) {
    int n = 0;
    for (int y = 0; y < image.height(); ++y)
        for (int x = 0; x < image.width(); ++x) {
            const QColor p = image.pixelColor(x, y);
            if (std::abs(p.red() - colour.red()) <= tolerance &&
                std::abs(p.green() - colour.green()) <= tolerance &&
                std::abs(p.blue() - colour.blue()) <= tolerance)
                ++n;
        }
    return n;
}

// What the widget looks like once pending layout requests (a legend that wraps) are done.
inline QImage settled_grab(QWidget& widget) {
    QCoreApplication::processEvents();
    return widget.grab().toImage();
}

// The trace of the scenario run through the real trainer (checkpointing into `checkpoints` when
// it is given).
inline Trace recorded(const Scenario& scenario, const std::filesystem::path& checkpoints = {}) {
    Trace trace;
    const auto trainer = make_run(scenario, load_dataset(scenario), &trace);
    if (!checkpoints.empty())
        trainer->set_checkpoint_directory(checkpoints);
    trainer->run_to_end();
    return trace;
}

// Indexes a recorded trace, as the app does.
inline void index_into(const Scenario& scenario, const Trace& trace, views::TraceIndex& index) {
    index.reset(scenario.workers, scenario.algorithm, scenario.cost.topology);
    index.append(trace.events());
    for (const StepSnapshot& snapshot : trace.snapshots())
        index.append(snapshot);
}

// Runs the scenario through the real trainer and indexes what it recorded.
inline void run_into(const Scenario& scenario, views::TraceIndex& index,
                     const std::filesystem::path& checkpoints = {}) {
    index_into(scenario, recorded(scenario, checkpoints), index);
}

} // namespace lockstep::testing
