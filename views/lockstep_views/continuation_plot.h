#pragma once

#include "reports/restore_comparison.h"
#include "scenario/scenario.h"

#include <QFont>
#include <QPalette>
#include <QRectF>
#include <QString>

class QPainter;

namespace lockstep::views {

// The steps and losses both continuation plots cover, so that they share their scales: a window
// around the restore (the whole run when it is short), with the loss range of every curve in it.
struct ContinuationWindow {
    std::int64_t first = 0, last = 0;
    double low = 0.0, high = 1.0;
};
ContinuationWindow continuation_window(const RestoreComparison& c);

// Where the plot in `plot` puts (step, loss).
QPointF continuation_point(const ContinuationWindow& w, const QRectF& plot, std::int64_t step,
                           double loss);

// The line colour of the run restored by `mode` (the uninterrupted run is grey).
QColor continuation_colour(RestoreMode mode);

// The area inside `r` where the lines go, leaving room for the axis labels.
QRectF continuation_plot_area(const QRectF& r, const QFont& font);

// Draws, in `r`, the uninterrupted run's loss as a broad grey line and the `mode` run's on top
// of it, the step the recovery went back to marked, with a small key and axis labels.
void paint_continuation(QPainter& p, const QRectF& r, const RestoreComparison& c, RestoreMode mode,
                        const QPalette& palette, const QFont& font);

// One or two sentences on how the `mode` run went on: "Same loss as the uninterrupted run at
// every step; the final weights are identical bit for bit."
QString continuation_caption(const RestoreComparison& c, RestoreMode mode);

} // namespace lockstep::views
