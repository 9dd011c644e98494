#pragma once

// Sweeps the speedup tests share: the worked example, points on Amdahl's curve, and the points a
// Speedup view should show for a sweep.

#include "runs/runs.h"
#include "scenario/scenario.h"

#include <QList>
#include <QPointF>

#include <initializer_list>
#include <vector>

namespace lockstep::testing {

inline Scenario worked_example() {
    return load_scenario(LOCKSTEP_SOURCE_DIR "/resources/scenarios/worked-example.json");
}

// Sweep points that follow Amdahl's law exactly for serial fraction `s`.
inline std::vector<SweepPoint> amdahl_points(double s, std::initializer_list<int> counts) {
    std::vector<SweepPoint> points;
    for (int n : counts) {
        SweepPoint p;
        p.workers = n;
        p.metrics.workers = n;
        p.metrics.speedup = 1.0 / (s + (1.0 - s) / n);
        p.metrics.efficiency = p.metrics.speedup / n;
        points.push_back(p);
    }
    return points;
}

// The points a SpeedupView should show for a sweep: (workers, speedup).
inline QList<QPointF> speedups(const std::vector<SweepPoint>& points) {
    QList<QPointF> out;
    for (const SweepPoint& p : points)
        out.append(QPointF(p.workers, p.metrics.speedup));
    return out;
}

} // namespace lockstep::testing
