#include "lockstep_views/cluster_layout.h"

#include "fonts.h"
#include "lockstep_views/cluster_painter.h"

#include <QCoreApplication>
#include <QFontMetricsF>

#include <algorithm>
#include <cmath>

namespace lockstep::views {

namespace {

// The schedule's links as the view draws them: the ring's each in its direction, with an
// arrowhead; every other topology's as one line per pair of workers that exchange messages,
// from the lower-numbered one, ordered by the other end.
std::vector<std::pair<int, int>> drawn_links(std::span<const std::pair<int, int>> links,
                                             int workers, bool directed) {
    std::vector<std::pair<int, int>> out;
    for (auto [src, dst] : links) {
        if (src < 0 || dst < 0 || src >= workers || dst >= workers || src == dst)
            continue;
        if (!directed && src > dst)
            std::swap(src, dst);
        if (std::find(out.begin(), out.end(), std::pair{src, dst}) == out.end())
            out.emplace_back(src, dst);
    }
    if (!directed)
        std::stable_sort(out.begin(), out.end(), [](const auto& a, const auto& b) {
            return std::pair{a.second, a.first} < std::pair{b.second, b.first};
        });
    return out;
}

// Flows the legend (every activity, then the gradient bar when bars are drawn) into centred
// rows at the bottom of `inner`.
void flow_legend(ClusterScene& s, const QRectF& inner, bool withBar) {
    const QFontMetricsF fm(s.font);
    const qreal line = s.line;
    std::vector<qreal> widths;
    for (WorkerActivity a : kActivities)
        widths.push_back(1.24 * line + 0.4 * line + fm.horizontalAdvance(style_for(a).label));
    if (withBar)
        widths.push_back(2.2 * line + 0.4 * line + fm.horizontalAdvance(gradient_caption()));
    const qreal gap = 1.2 * line;
    const qreal rowHeight = 1.6 * line;
    std::vector<std::pair<std::size_t, qreal>> rows; // first item, row width
    for (std::size_t i = 0; i < widths.size(); ++i) {
        if (rows.empty() || rows.back().second + gap + widths[i] > inner.width())
            rows.push_back({i, widths[i]});
        else
            rows.back().second += gap + widths[i];
    }
    const qreal height = static_cast<qreal>(rows.size()) * rowHeight;
    s.legend = QRectF(inner.left(), inner.bottom() - height, inner.width(), height);
    s.legendItems.assign(widths.size(), QRectF());
    for (std::size_t r = 0; r < rows.size(); ++r) {
        const std::size_t end = r + 1 < rows.size() ? rows[r + 1].first : widths.size();
        qreal x = s.legend.center().x() - rows[r].second / 2;
        const qreal y = s.legend.top() + static_cast<qreal>(r) * rowHeight;
        for (std::size_t i = rows[r].first; i < end; ++i) {
            s.legendItems[i] = QRectF(x, y, widths[i], rowHeight);
            x += widths[i] + gap;
        }
    }
}

} // namespace

qreal gradient_bar_height(qreal line) {
    return std::max(4.0, 0.4 * line);
}

// Height of the block under (or beside) a disc: the activity's label, then the gradient bar.
qreal label_block_height(qreal line) {
    return 1.05 * line + 0.2 * line + gradient_bar_height(line);
}

// The left edge of something `width` wide in the label block of the disc at `centre`: against
// the disc when the block sits beside it, centred when it sits above or below.
qreal lean_in(const QRectF& block, QPointF centre, qreal width) {
    const int side = block.left() > centre.x() ? 1 : block.right() < centre.x() ? -1 : 0;
    return side > 0   ? block.left()
           : side < 0 ? block.right() - width
                      : block.center().x() - width / 2;
}

// The gradient bar in a label block, under the label.
QRectF gradient_bar_in(const QRectF& block, QPointF centre, qreal radius, qreal line) {
    const qreal width = std::min(block.width(), std::max(2 * radius, 3.0 * line));
    return QRectF(lean_in(block, centre, width), block.top() + 1.05 * line + 0.2 * line, width,
                  gradient_bar_height(line));
}

QString gradient_caption() {
    return QCoreApplication::translate("ClusterView", "first gradient entry");
}

ClusterScene layout_cluster(QSize size, const QFont& font, int workers, Algorithm algorithm,
                            std::span<const std::pair<int, int>> links,
                            const ParallelismConfig& parallelism) {
    const int n = std::max(workers, 0);
    ClusterScene s;
    s.size = size;
    s.font = font;
    s.workers = n;
    s.algorithm = algorithm;
    s.parallelism = parallelism.mode;
    // A pipeline: stage to stage in order, activations one way and gradients back. A hybrid:
    // each replica's pipeline a row, each stage joined to the same stage of the next replica by
    // the all-reduce of its gradients. Tensor parallelism all-reduces inside every layer: the
    // collective's own links.
    std::vector<std::pair<int, int>> model_links;
    const int stages = std::max(parallelism.stages, 1);
    if ((parallelism.mode == Parallelism::Pipeline || parallelism.mode == Parallelism::Hybrid) &&
        n > 0) {
        s.columns = std::min(stages, n);
        for (int k = 0; k < n; ++k) {
            if (k % stages + 1 < stages && k + 1 < n)
                model_links.emplace_back(k, k + 1);
            if (parallelism.mode == Parallelism::Hybrid && algorithm != Algorithm::None &&
                k + stages < n)
                model_links.emplace_back(k, k + stages);
        }
        links = model_links;
    }
    switch (parallelism.mode) {
    case Parallelism::Pipeline:
        s.topology = QCoreApplication::translate(
            "ClusterView", "a pipeline: activations go forward, gradients come back");
        s.replicas = false;
        break;
    case Parallelism::Tensor:
        s.topology = QCoreApplication::translate(
                         "ClusterView", "every layer split: an all-reduce inside each layer (%1)")
                         .arg(topology_name(algorithm, true));
        s.replicas = false;
        break;
    case Parallelism::Hybrid:
        s.topology = QCoreApplication::translate(
                         "ClusterView", "%1 replicas of a %2-stage pipeline, %3 between them")
                         .arg(parallelism.replicas)
                         .arg(stages)
                         .arg(topology_name(algorithm, true));
        break;
    case Parallelism::Data:
        break;
    }
    const QFontMetricsF fm(font);
    for (WorkerActivity a : kActivities) {
        const auto i = static_cast<std::size_t>(a);
        s.styles[i] = style_for(a);
        s.labelWidths[i] = fm.horizontalAdvance(s.styles[i].label);
    }
    s.titleFont = scaledFont(font, 1.3, true);
    s.chipFont = scaledFont(font, 1.15, true);
    s.symbolFont = scaledFont(font, 0.85, true);
    s.emptyFont = scaledFont(font, 1.2);
    s.line = fm.height();
    const qreal line = s.line;
    const QRectF inner = QRectF(QPointF(0, 0), QSizeF(size))
                             .adjusted(0.8 * line, 0.5 * line, -0.8 * line, -0.5 * line);
    const QFontMetricsF title(s.titleFont);
    s.header = QRectF(inner.left(), inner.top(), inner.width(), title.height() + line + 0.3 * line);
    s.title = QRectF(s.header.left(), s.header.top(), s.header.width(), title.height());
    s.subtitle = QRectF(s.header.left(), s.title.bottom() + 0.15 * line, s.header.width(), s.line);
    // In a narrow view the verdict chip goes on a row of its own under the subtitle, rather than
    // over the title.
    const QFontMetricsF chip(s.chipFont);
    const qreal titleWidth =
        title.horizontalAdvance(QCoreApplication::translate("ClusterView", "step %1 · t = %2 s")
                                    .arg(99999)
                                    .arg(QStringLiteral("00.000")));
    const qreal chipWidth =
        1.4 * line + chip.height() +
        chip.horizontalAdvance(QCoreApplication::translate("ClusterView", "replicas aligned"));
    s.verdictRow = QRectF();
    if (titleWidth + chipWidth + line > inner.width()) {
        s.verdictRow = QRectF(s.header.left(), s.subtitle.bottom() + 0.3 * line,
                              std::min(inner.width(), chipWidth), chip.height() + 0.7 * line);
        s.header.setBottom(s.verdictRow.bottom());
    }

    auto placeArea = [&] {
        const qreal top = s.header.bottom() + 0.8 * line;
        s.area = QRectF(inner.left(), top, inner.width(),
                        std::max(1.0, s.legend.top() - 0.6 * line - top));
        // A short view (large text on a projector) keeps the workers big and lets the legend
        // go: the timeline's legend and each worker's label still say what the colours mean.
        if (s.area.height() < 7 * line && !s.legendItems.empty()) {
            s.legend = QRectF(inner.left(), inner.bottom(), inner.width(), 0);
            s.legendItems.clear();
            s.area.setBottom(std::max(top + 1.0, inner.bottom()));
        }
    };
    s.links = drawn_links(links, n, algorithm == Algorithm::Ring && s.columns == 0);

    const qreal labelWidth = *std::max_element(s.labelWidths.begin(), s.labelWidths.end());
    const qreal blockWidth = labelWidth + 0.8 * line;
    // Labels only when every worker's label finds a free place next to a disc big enough to
    // carry a number; otherwise bigger discs without labels.
    bool labelled = n <= 64;
    if (labelled) {
        flow_legend(s, inner, true);
        placeArea();
        cluster_detail::place_workers(s, true);
        s.numbers = s.radius >= 0.55 * line;
        labelled = s.radius >= 0.9 * line && cluster_detail::place_labels(s, blockWidth) == 0;
    }
    if (!labelled) {
        flow_legend(s, inner, false);
        placeArea();
        cluster_detail::place_workers(s, false);
        s.numbers = s.radius >= 0.55 * line;
        cluster_detail::place_labels(s, blockWidth);
    }

    // A crowded circle becomes a band of slices.
    s.dense = (algorithm == Algorithm::Ring || algorithm == Algorithm::ParameterServer) && n > 32 &&
              !s.numbers && s.columns == 0;
    s.slices.clear();
    s.bandTicks.clear();
    s.hubRadius = 0.0;
    if (s.dense)
        cluster_detail::place_band(s);

    // One number font for all discs, sized so the widest number fits.
    if (n > 0) {
        const qreal r = s.radius;
        s.numberFont = scaledFont(font, std::min(1.05 * r, 1.6 * line) / line, true);
        const qreal widest = QFontMetricsF(s.numberFont).horizontalAdvance(QString::number(n - 1));
        if (widest > 1.2 * r)
            s.numberFont = scaledFont(s.numberFont, 1.2 * r / widest, true);
        s.badgeFont = scaledFont(font, 1.15 * badge_radius(s) / line, true);
    }
    return s;
}

ClusterScene layout_cluster(const TraceIndex& index, Ticks t, QSize size, const QFont& font,
                            const ParallelismConfig& parallelism) {
    const auto links = index.links_at(t);
    ClusterScene s =
        layout_cluster(size, font, index.workers(), index.algorithm_at(t), links, parallelism);
    const Topology& machines = index.machines();
    if (machines.machines() && machines.nodes > 1 && !s.dense && s.columns == 0) {
        for (int w = 0; w < s.workers; ++w)
            s.machine_of.push_back(machines.node_of(w));
        s.machines = machines.nodes;
        s.topology = topology_name(s.algorithm) + QStringLiteral(" · ") +
                     QCoreApplication::translate("ClusterView", "%1 machines of %2")
                         .arg(machines.nodes)
                         .arg(machines.workers_per_node);
    }
    return s;
}

std::vector<double> network_load(const ClusterScene& s, std::span<const PacketInFlight> packets) {
    std::vector<double> load(packets.size(), 0.0);
    if (s.machine_of.empty())
        return load;
    std::vector<int> size(static_cast<std::size_t>(s.machines), 0);
    for (const int m : s.machine_of)
        ++size[static_cast<std::size_t>(m)];
    auto pair_of = [&](const PacketInFlight& packet) {
        const int a = s.machine_of[static_cast<std::size_t>(packet.src)];
        const int b = s.machine_of[static_cast<std::size_t>(packet.dst)];
        return std::pair(std::min(a, b), std::max(a, b));
    };
    auto known = [&](const PacketInFlight& packet) {
        return packet.src >= 0 && packet.dst >= 0 && packet.src < s.workers &&
               packet.dst < s.workers && s.between_machines(packet.src, packet.dst);
    };
    for (std::size_t i = 0; i < packets.size(); ++i) {
        if (!known(packets[i]))
            continue;
        const auto pair = pair_of(packets[i]);
        int crossing = 0;
        for (const PacketInFlight& other : packets)
            crossing += known(other) && pair_of(other) == pair ? 1 : 0;
        const int most = std::min(size[static_cast<std::size_t>(pair.first)],
                                  size[static_cast<std::size_t>(pair.second)]);
        load[i] = std::min(1.0, static_cast<double>(crossing) / std::max(1, most));
    }
    return load;
}

// A point on the link from `src`'s rim to `dst`'s, `progress` of the way along: where a
// message in flight is drawn. The two directions of a two-worker ring run side by side.
QPointF link_point(const ClusterScene& s, int src, int dst, double progress) {
    const QPointF a = s.centres[static_cast<std::size_t>(src)];
    const QPointF b = s.centres[static_cast<std::size_t>(dst)];
    const QPointF d = b - a;
    const qreal length = std::hypot(d.x(), d.y());
    if (length < 1e-9)
        return a;
    const QPointF u = d / length;
    const qreal rim = std::min(s.radius, length / 2);
    QPointF from = a + u * rim;
    QPointF to = b - u * rim;
    if (s.algorithm == Algorithm::Ring && s.workers == 2) {
        const QPointF side = QPointF(-u.y(), u.x()) * (0.4 * s.radius);
        from += side;
        to += side;
    }
    return from + (to - from) * std::clamp(progress, 0.0, 1.0);
}

// The smallest and largest radius of a message; the largest stays smaller than a worker.
std::pair<qreal, qreal> packet_radii(const ClusterScene& s) {
    const qreal smallest = std::min(std::max(2.5, 0.2 * s.line), std::max(1.5, 0.8 * s.radius));
    return {smallest, std::clamp(0.5 * s.radius, smallest, 0.6 * s.line)};
}

// The parameter server's disc in the middle of a dense band is bigger than the slices round it.
qreal disc_radius(const ClusterScene& s, int worker) {
    return worker == 0 && s.hubRadius > 0 ? s.hubRadius : s.radius;
}

qreal badge_radius(const ClusterScene& s) {
    return std::clamp(0.34 * s.radius, 0.45 * s.line, 0.6 * s.line);
}

std::vector<std::pair<PacketInFlight, QPointF>>
packet_positions(const ClusterScene& s, std::span<const PacketInFlight> packets) {
    std::vector<std::pair<PacketInFlight, QPointF>> out;
    // On a crowded ring the links are shorter than a message: messages then run on a track just
    // inside the ring, still between their two workers.
    qreal inside = 0;
    if (s.algorithm == Algorithm::Ring && s.workers > 2) {
        const QPointF d = s.centres[1] - s.centres[0];
        if (s.dense) // below the band's inner edge
            inside = (s.bandOuter - s.bandInner) / 2 + packet_radii(s).second + 2.0;
        else if (std::hypot(d.x(), d.y()) - 2 * s.radius < 4 * packet_radii(s).second)
            inside = s.radius + packet_radii(s).second + 1.0;
    }
    for (const PacketInFlight& packet : packets) {
        if (packet.src < 0 || packet.src >= s.workers || packet.dst < 0 || packet.dst >= s.workers)
            continue;
        QPointF at = link_point(s, packet.src, packet.dst, packet.progress);
        if (inside > 0) {
            const QPointF d = s.centres[static_cast<std::size_t>(packet.dst)] -
                              s.centres[static_cast<std::size_t>(packet.src)];
            const qreal length = std::hypot(d.x(), d.y());
            if (length > 0) // the ring runs clockwise, so inside is to the right
                at += QPointF(-d.y(), d.x()) / length * inside;
        }
        out.emplace_back(packet, at);
    }
    return out;
}

int worker_at(const ClusterScene& s, QPointF position) {
    for (std::size_t k = 0; k < s.slices.size(); ++k) // a dense band's slices, edge to edge
        if (!s.slices[k].isEmpty() && s.slices[k].contains(position))
            return static_cast<int>(k);
    int best = -1;
    qreal bestDistance = 0;
    for (int k = 0; k < s.workers; ++k) {
        const QPointF d = position - s.centres[static_cast<std::size_t>(k)];
        const qreal distance = std::hypot(d.x(), d.y());
        if (distance <= std::max(disc_radius(s, k) + 2.0, 6.0) &&
            (best < 0 || distance <= bestDistance)) {
            best = k;
            bestDistance = distance;
        }
    }
    return best;
}

} // namespace lockstep::views
