#pragma once

#include "clocks/clock.h"
#include "lockstep_views/cluster_layout.h"

#include <QFont>
#include <QPalette>
#include <QPointF>
#include <QString>

#include <cstdint>
#include <span>
#include <utility>

class QPainter;

namespace lockstep::views {

// "ring all-reduce", "parameter server (worker 0)", ...; `brief`: "ring", "parameter server".
QString topology_name(Algorithm algorithm, bool brief = false);
// "1 worker", "12 workers".
QString worker_count(int n);

// Draws a ClusterScene in a palette and a font: each call one part of the picture, so the view
// can keep the parts that do not move with the playhead as pictures.
class ClusterPainter {
public:
    ClusterPainter(const ClusterScene& scene, const QPalette& palette);

    // What stays put while the playhead moves: the background, the subtitle (the bare title
    // without a trace), the links and the legend.
    void still(QPainter& p, bool hasTrace) const;
    // "step S · t = X.XXX s".
    void title(QPainter& p, std::int64_t step, Ticks t, const QString& phase = {}) const;
    // Whether the replicas agree, on the right of the header: 0 before the first step has
    // finished, 1 aligned, 2 they differ.
    void verdict(QPainter& p, int verdict) const;
    // One worker doing `activity`: its disc (or slice), the focus ring, its number, the
    // activity's letter on a badge on the rim, its label and the empty track of its gradient bar.
    void worker(QPainter& p, int worker, WorkerActivity activity, bool focused) const;
    // The fill of a worker's gradient bar, `share` (-1 to 1) of the way from the middle.
    void gradient(QPainter& p, int worker, double share) const;
    // While the replicas differ: how far this worker's replica is from their mean (an L2
    // distance), on a tag beside its disc, tinted by `share` (0 to 1) of the largest.
    void distance(QPainter& p, int worker, double distance, double share) const;
    // What the distance tags mean, under the verdict.
    void distanceCaption(QPainter& p) const;
    // Messages in flight: area proportional to bytes, relative to the largest message so far.
    void packets(QPainter& p, std::span<const std::pair<PacketInFlight, QPointF>> packets,
                 std::int64_t maxBytes) const;

private:
    void links(QPainter& p) const;
    void machines(QPainter& p) const;
    void bandTicks(QPainter& p) const;
    void legend(QPainter& p) const;

    const ClusterScene& s_;
    QPalette palette_;
};

} // namespace lockstep::views
