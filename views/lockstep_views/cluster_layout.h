#pragma once

#include "clocks/clock.h"
#include "collectives/schedule.h"
#include "lockstep_views/palette.h"
#include "lockstep_views/trace_index.h"
#include "scenario/parallelism.h"

#include <QFont>
#include <QPainterPath>
#include <QPointF>
#include <QRectF>
#include <QSize>

#include <array>
#include <span>
#include <utility>
#include <vector>

namespace lockstep::views {

// The activities in the legend's order.
inline constexpr std::array kActivities{
    WorkerActivity::Computing,     WorkerActivity::Sending,  WorkerActivity::Receiving,
    WorkerActivity::Waiting,       WorkerActivity::Updating, WorkerActivity::Paused,
    WorkerActivity::Checkpointing, WorkerActivity::Failed,   WorkerActivity::Idle};
static_assert(kActivities.size() == kWorkerActivityCount, "every activity has its style");

// Where everything of the cluster view goes, and in which fonts and styles, for one widget size,
// font, worker count, topology and set of links: a pure function of those (layout_cluster()),
// testable without a widget.
struct ClusterScene {
    QSize size;
    QFont font; // the widget's; the others derive from it
    int workers = -1;
    Algorithm algorithm = Algorithm::Ring;
    qreal line = 0.0; // height of a line in the widget's font
    QRectF header, title, subtitle, area, legend;
    QString wire;      // the subtitle's "float16 on the wire" when gradients travel in fewer bits
    QRectF verdictRow; // when the header is too narrow for title and verdict side by side
    std::vector<QPointF> centres;
    // The schedule's links as drawn, src -> dst: the ring's in its direction, every other
    // topology's once per pair of workers, from the lower-numbered one.
    std::vector<std::pair<int, int>> links;
    double radius = 0.0;
    bool labels = false;            // activity label and gradient bar under each disc
    bool numbers = false;           // worker number inside the disc, symbol badge on its rim
    std::vector<QRectF> labelRects; // per worker, when labels are drawn
    std::vector<QPointF> badges;    // centre of each worker's letter badge, when drawn
    std::vector<QRectF> legendItems;
    // Too many workers on a circle for discs that carry a number: each worker is a slice of a
    // band (the parameter server a disc in its middle), numbered every few slices.
    bool dense = false;
    QPointF bandCentre;
    qreal bandInner = 0.0, bandOuter = 0.0, hubRadius = 0.0;
    std::vector<QPainterPath> slices;                       // per worker, in dense mode
    std::vector<std::pair<int, QPointF>> bandTicks;         // worker number, where it is written
    std::array<ActivityStyle, kWorkerActivityCount> styles; // by WorkerActivity
    std::array<qreal, kWorkerActivityCount> labelWidths;    // of each style's label
    QFont titleFont, chipFont, numberFont, badgeFont, symbolFont, emptyFont;
    // How the run spreads the model (data parallelism unless a model-parallel run says so):
    // a pipeline's stages stand in a row joined in order, a hybrid's replicas one row each.
    Parallelism parallelism = Parallelism::Data;
    int columns = 0;      // a grid of this many columns; 0 for the topology's own shape
    QString topology;     // the subtitle after the worker count
    bool replicas = true; // whether the run has replicas to be aligned or not
    // The run's machines: per worker, the machine it sits in (empty: one flat network). Each
    // machine is drawn as a tinted outline round its workers, and the links between machines
    // apart from those inside one.
    std::vector<int> machine_of;
    int machines = 0;
    bool between_machines(int a, int b) const {
        return !machine_of.empty() &&
               machine_of[static_cast<std::size_t>(a)] != machine_of[static_cast<std::size_t>(b)];
    }
};

// Places the header, the legend and the workers for a view of `size` in `font`, and picks the
// fonts and styles they are drawn in. `links` are the schedule's (CommSchedule::links(),
// TraceIndex::links_at()).
ClusterScene layout_cluster(QSize size, const QFont& font, int workers, Algorithm algorithm,
                            std::span<const std::pair<int, int>> links,
                            const ParallelismConfig& parallelism = {});
// The scene of the trace's run at `t`: its workers, the collective and links of the step there;
// for a model-parallel run (`parallelism`), its stages or shards and the links between them.
ClusterScene layout_cluster(const TraceIndex& index, Ticks t, QSize size, const QFont& font,
                            const ParallelismConfig& parallelism = {});

// A point on the link from `src`'s rim to `dst`'s, `progress` of the way along: where a message
// in flight is drawn. The two directions of a two-worker ring run side by side.
QPointF link_point(const ClusterScene& s, int src, int dst, double progress);
// Where each message in flight is drawn (messages between workers the scene does not hold are
// left out).
std::vector<std::pair<PacketInFlight, QPointF>>
packet_positions(const ClusterScene& s, std::span<const PacketInFlight> packets);
// How busy the network between machines is at an instant: for each message in flight, the share
// (0 to 1) of its two machines' link in use, the messages crossing between the same two machines
// out of the most that can cross at once (the workers of the smaller machine); 0 for a message
// inside a machine, and for every message without machines.
std::vector<double> network_load(const ClusterScene& s, std::span<const PacketInFlight> packets);
// The worker drawn at `position`, or -1.
int worker_at(const ClusterScene& s, QPointF position);

// The parameter server's disc in the middle of a dense band is bigger than the slices round it.
qreal disc_radius(const ClusterScene& s, int worker);
qreal badge_radius(const ClusterScene& s);
// The smallest and largest radius of a message; the largest stays smaller than a worker.
std::pair<qreal, qreal> packet_radii(const ClusterScene& s);

// The label block beside a disc: the activity's label, then the gradient bar.
qreal gradient_bar_height(qreal line);
qreal label_block_height(qreal line);
// The left edge of something `width` wide in the label block of the disc at `centre`: against
// the disc when the block sits beside it, centred when it sits above or below.
qreal lean_in(const QRectF& block, QPointF centre, qreal width);
// The gradient bar in a label block, under the label.
QRectF gradient_bar_in(const QRectF& block, QPointF centre, qreal radius, qreal line);
QString gradient_caption();

namespace cluster_detail {
// The steps of layout_cluster(), in cluster_placement.cpp.
void place_workers(ClusterScene& s, bool withLabels);
void place_band(ClusterScene& s);
int place_labels(ClusterScene& s, qreal blockWidth); // workers left without a free spot
} // namespace cluster_detail

} // namespace lockstep::views
