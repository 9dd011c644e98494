#include "lockstep_views/cluster_layout.h"

#include <QFontMetricsF>
#include <QLineF>
#include <QPolygonF>

#include <algorithm>
#include <cmath>
#include <deque>
#include <numbers>

// Where the workers, their labels and badges go: the circle of a ring or a parameter server,
// the rows of a tree, a grid, or the band of slices of a crowd.
namespace lockstep::views::cluster_detail {

namespace {

bool crosses(const QLineF& line, const QRectF& box) {
    if (box.contains(line.p1()) || box.contains(line.p2()))
        return true;
    const QLineF edges[] = {{box.topLeft(), box.topRight()},
                            {box.topRight(), box.bottomRight()},
                            {box.bottomRight(), box.bottomLeft()},
                            {box.bottomLeft(), box.topLeft()}};
    for (const QLineF& edge : edges)
        if (line.intersects(edge) == QLineF::BoundedIntersection)
            return true;
    return false;
}

qreal distanceTo(const QRectF& box, QPointF p) {
    const qreal dx = std::max({box.left() - p.x(), 0.0, p.x() - box.right()});
    const qreal dy = std::max({box.top() - p.y(), 0.0, p.y() - box.bottom()});
    return std::hypot(dx, dy);
}

qreal distanceTo(const QLineF& line, QPointF p) {
    const QPointF d = line.p2() - line.p1();
    const qreal length2 = QPointF::dotProduct(d, d);
    const qreal t =
        length2 > 0 ? std::clamp(QPointF::dotProduct(p - line.p1(), d) / length2, 0.0, 1.0) : 0.0;
    const QPointF nearest = line.p1() + d * t;
    return std::hypot(p.x() - nearest.x(), p.y() - nearest.y());
}

// Each worker's distance in hops from worker 0 along the links (the workers the links do not
// reach sit in the first row).
std::vector<int> depths(const std::vector<std::pair<int, int>>& links, int workers) {
    std::vector<int> depth(static_cast<std::size_t>(std::max(workers, 1)), -1);
    depth[0] = 0;
    std::deque<int> next{0};
    while (!next.empty()) {
        const int k = next.front();
        next.pop_front();
        for (const auto& [a, b] : links) {
            const int other = a == k ? b : b == k ? a : -1;
            if (other >= 0 && depth[static_cast<std::size_t>(other)] < 0) {
                depth[static_cast<std::size_t>(other)] = depth[static_cast<std::size_t>(k)] + 1;
                next.push_back(other);
            }
        }
    }
    for (int& d : depth)
        d = std::max(d, 0);
    return depth;
}

} // namespace

// Puts each worker's label block (activity and gradient bar) next to its disc where no link,
// disc or other label is in the way: below, else above, right or left; below, over the links
// on its own background, when nothing is free. Then finds a free spot on each rim for the
// activity's letter.
int place_labels(ClusterScene& s, qreal blockWidth) {
    const auto n = static_cast<std::size_t>(s.workers);
    const qreal line = s.line;
    const qreal r = s.radius;
    const qreal gap = 0.3 * line;
    const qreal w = blockWidth;
    const qreal h = label_block_height(line);
    std::vector<QLineF> links;
    for (const auto& [src, dst] : s.links)
        links.emplace_back(link_point(s, src, dst, 0.0), link_point(s, src, dst, 1.0));
    const qreal top = s.header.bottom() + 0.2 * line;
    const QRectF bounds(s.area.left() - 0.5 * line, top, s.area.width() + line,
                        s.legend.top() - 0.2 * line - top);
    auto blocked = [&](const QRectF& box, std::size_t self) {
        if (!bounds.contains(box))
            return true;
        for (const QLineF& link : links)
            if (crosses(link, box.adjusted(-2, -2, 2, 2)))
                return true;
        for (std::size_t j = 0; j < n; ++j)
            if (j != self && distanceTo(box, s.centres[j]) < r + 1.5 * gap)
                return true;
        for (std::size_t j = 0; j < self; ++j)
            if (s.labelRects[j].intersects(box))
                return true;
        return false;
    };

    int unplaced = 0;
    s.labelRects.assign(s.labels ? n : 0, QRectF());
    for (std::size_t k = 0; k < s.labelRects.size(); ++k) {
        const QPointF c = s.centres[k];
        const QRectF candidates[] = {QRectF(c.x() - w / 2, c.y() + r + gap, w, h),
                                     QRectF(c.x() - w / 2, c.y() - r - gap - h, w, h),
                                     QRectF(c.x() + r + gap, c.y() - h / 2, w, h),
                                     QRectF(c.x() - r - gap - w, c.y() - h / 2, w, h)};
        // Around a circle, the side facing away from the middle comes first.
        std::array<int, 4> order{0, 1, 2, 3};
        const QPointF out = c - s.area.center();
        if ((s.algorithm == Algorithm::Ring || s.algorithm == Algorithm::ParameterServer) &&
            std::hypot(out.x(), out.y()) > 1.0) {
            const qreal facing[] = {out.y(), -out.y(), out.x(), -out.x()};
            std::stable_sort(order.begin(), order.end(),
                             [&](int x, int y) { return facing[x] > facing[y]; });
        }
        s.labelRects[k] = candidates[0];
        bool placed = false;
        for (int choice : order)
            if (!blocked(candidates[choice], k)) {
                s.labelRects[k] = candidates[choice];
                placed = true;
                break;
            }
        // The parameter server sits among its spokes by design; its label may cover them.
        if (!placed && !(s.algorithm == Algorithm::ParameterServer && k == 0))
            ++unplaced;
    }

    s.badges.assign(s.numbers && r >= 1.1 * line ? n : 0, QPointF());
    const qreal badge = badge_radius(s);
    const double pi = std::numbers::pi;
    const double angles[] = {-pi / 4, -3 * pi / 4, pi / 4, 3 * pi / 4, -pi / 2, 0.0, pi, pi / 2};
    for (std::size_t k = 0; k < s.badges.size(); ++k) {
        const QPointF c = s.centres[k];
        s.badges[k] = c + QPointF(std::cos(angles[0]), std::sin(angles[0])) * r;
        for (double angle : angles) {
            const QPointF b = c + QPointF(std::cos(angle), std::sin(angle)) * r;
            bool free =
                QRectF(QPointF(0, 0), QSizeF(s.size))
                    .contains(QRectF(b - QPointF(badge, badge), QSizeF(2 * badge, 2 * badge)));
            for (const QLineF& link : links)
                free = free && distanceTo(link, b) > badge + 1.0;
            for (std::size_t j = 0; j < s.labelRects.size(); ++j)
                free = free && distanceTo(s.labelRects[j], b) > badge;
            for (std::size_t j = 0; j < n; ++j)
                free = free && (j == k || std::hypot(b.x() - s.centres[j].x(),
                                                     b.y() - s.centres[j].y()) > r + badge);
            if (free) {
                s.badges[k] = b;
                break;
            }
        }
    }
    return unplaced;
}

// Centres and radius of the workers inside `s.area`. With `withLabels` it leaves room for each
// disc's label and gradient bar: all round a circle layout, under the discs otherwise.
void place_workers(ClusterScene& s, bool withLabels) {
    const int n = s.workers;
    const QRectF a = s.area;
    const qreal line = s.line;
    const qreal rMax = 2.5 * line;
    const qreal labelWidth =
        withLabels ? *std::max_element(s.labelWidths.begin(), s.labelWidths.end()) : 0.0;
    const qreal labelHeight = withLabels ? 0.3 * line + label_block_height(line) : 0.0;
    const qreal halfLabel = withLabels ? labelWidth / 2 + 0.4 * line : 0.0;
    s.labels = withLabels;
    s.centres.assign(static_cast<std::size_t>(n), a.center());
    s.radius = 0;
    if (n == 0)
        return;
    if (n == 1) {
        s.radius = std::max(1.0, std::min(rMax, 0.4 * (a.height() - labelHeight)));
        s.centres[0] = QPointF(a.center().x(), a.top() + (a.height() - labelHeight) / 2);
        return;
    }

    const double pi = std::numbers::pi;
    // Circles: the ring, or the parameter server's outer workers around worker 0.
    auto placeOnCircle = [&](int first, int count, double startAngle, bool centreNode) {
        auto chord = [&](qreal radius) {
            return count >= 2 ? 2 * radius * std::sin(pi / count) : 2 * radius;
        };
        // Labels go outside the circle, so keep a label's width and height free all round.
        auto fit = [&](qreal r) {
            return std::min(a.width() / 2 - r - 2 * halfLabel, a.height() / 2 - r - labelHeight);
        };
        qreal big = std::max(1.0, fit(0));
        qreal r = std::min(rMax, 0.32 * chord(big));
        if (centreNode)
            r = std::min(r, 0.3 * big);
        big = std::max(1.0, fit(r));
        r = std::min(r, 0.32 * chord(big));
        if (centreNode)
            r = std::min(r, 0.3 * big);
        s.radius = std::max(1.0, r);
        const QPointF centre = a.center();
        if (centreNode)
            s.centres[0] = centre;
        for (int i = 0; i < count; ++i) {
            const double angle = startAngle + 2 * pi * i / count;
            s.centres[static_cast<std::size_t>(first + i)] =
                centre + QPointF(big * std::cos(angle), big * std::sin(angle));
        }
    };

    switch (s.columns > 0 ? Algorithm::None : s.algorithm) {
    case Algorithm::Ring:
    case Algorithm::Hierarchical: // machine by machine around the circle
        // Worker 0 at the top, the ring running clockwise; two workers side by side.
        placeOnCircle(0, n, n == 2 ? pi : -pi / 2, false);
        return;
    case Algorithm::ParameterServer: {
        // Nobody straight below the server, where its own label goes.
        const int outer = n - 1;
        const double offset = outer % 2 == 0 ? pi / outer : 0.0;
        placeOnCircle(1, outer, -pi / 2 + offset, true);
        return;
    }
    case Algorithm::Tree: {
        // A tidy tree: rows by depth (hops from worker 0, where the reduce ends); the leaves
        // side by side in depth-first order, children in worker order, and every parent centred
        // over its children. Links then only join neighbouring rows, never cross, and a worker
        // with one child stands straight above it. Workers the links do not reach are roots of
        // their own, after worker 0's tree.
        const std::vector<int> depth = depths(s.links, n);
        std::vector<std::vector<int>> children(static_cast<std::size_t>(n));
        std::vector<bool> hasParent(static_cast<std::size_t>(n), false);
        for (const auto& [one, other] : s.links) {
            const int d1 = depth[static_cast<std::size_t>(one)];
            const int d2 = depth[static_cast<std::size_t>(other)];
            if (d1 == d2)
                continue;
            const int parent = d1 < d2 ? one : other;
            const int child = d1 < d2 ? other : one;
            if (hasParent[static_cast<std::size_t>(child)])
                continue;
            hasParent[static_cast<std::size_t>(child)] = true;
            children[static_cast<std::size_t>(parent)].push_back(child);
        }
        for (auto& c : children)
            std::sort(c.begin(), c.end());
        std::vector<double> slot(static_cast<std::size_t>(n), 0.0);
        double leaves = 0;
        // Depth-first, children before their parent: a leaf takes the next slot, a parent the
        // middle of its first and last child.
        const auto visit = [&](int root) {
            std::vector<std::pair<int, std::size_t>> stack{{root, 0}};
            while (!stack.empty()) {
                auto& [k, next] = stack.back();
                const auto& mine = children[static_cast<std::size_t>(k)];
                if (next < mine.size()) {
                    const int child = mine[next++];
                    stack.emplace_back(child, 0);
                    continue;
                }
                slot[static_cast<std::size_t>(k)] =
                    mine.empty() ? leaves++
                                 : (slot[static_cast<std::size_t>(mine.front())] +
                                    slot[static_cast<std::size_t>(mine.back())]) /
                                       2;
                stack.pop_back();
            }
        };
        for (int k = 0; k < n; ++k)
            if (!hasParent[static_cast<std::size_t>(k)])
                visit(k);
        const int depthCount = *std::max_element(depth.begin(), depth.end()) + 1;
        const qreal rowHeight = a.height() / depthCount;
        const qreal cellWidth = a.width() / std::max(1.0, leaves);
        s.radius = std::max(1.0, std::min({rMax, 0.36 * cellWidth, 0.36 * rowHeight,
                                           0.45 * (rowHeight - labelHeight)}));
        for (int k = 0; k < n; ++k) {
            const auto row = static_cast<std::size_t>(depth[static_cast<std::size_t>(k)]);
            s.centres[static_cast<std::size_t>(k)] = QPointF(
                a.left() + (slot[static_cast<std::size_t>(k)] + 0.5) * cellWidth,
                a.top() + static_cast<qreal>(row) * rowHeight + (rowHeight - labelHeight) / 2);
        }
        // A link that fans out far arrives at a shallow angle: the discs stay small enough that
        // it passes their neighbours by.
        for (const auto& [one, other] : s.links) {
            const QLineF link(s.centres[static_cast<std::size_t>(one)],
                              s.centres[static_cast<std::size_t>(other)]);
            for (int k = 0; k < n; ++k)
                if (k != one && k != other)
                    s.radius = std::min(
                        s.radius,
                        std::max(1.0,
                                 0.85 * distanceTo(link, s.centres[static_cast<std::size_t>(k)])));
        }
        return;
    }
    case Algorithm::None:
        break;
    }

    // A grid, as square as the cells allow (or of the scene's columns), last row centred.
    int bestColumns = 1;
    qreal bestRadius = -1, bestCell = -1;
    for (int columns = s.columns > 0 ? s.columns : 1; columns <= (s.columns > 0 ? s.columns : n);
         ++columns) {
        const int rows = (n + columns - 1) / columns;
        const qreal cw = a.width() / columns;
        const qreal ch = a.height() / rows;
        const qreal r = std::min({rMax, 0.36 * cw, 0.36 * ch, 0.45 * (ch - labelHeight)});
        const qreal cell = std::min(cw, ch);
        if (r > bestRadius + 0.01 || (std::abs(r - bestRadius) <= 0.01 && cell > bestCell)) {
            bestColumns = columns;
            bestRadius = r;
            bestCell = cell;
        }
    }
    const int columns = bestColumns;
    const int rows = (n + columns - 1) / columns;
    const qreal cw = a.width() / columns;
    const qreal ch = a.height() / rows;
    s.radius = std::max(1.0, bestRadius);
    for (int k = 0; k < n; ++k) {
        const int row = k / columns;
        const int inRow = std::min(columns, n - row * columns);
        const qreal left = a.left() + (a.width() - inRow * cw) / 2;
        s.centres[static_cast<std::size_t>(k)] =
            QPointF(left + (k % columns + 0.5) * cw, a.top() + row * ch + (ch - labelHeight) / 2);
    }
}

// The dense layout: the workers on the circle as slices of one band, clockwise from the top, the
// parameter server (worker 0) a disc in the middle. Each worker's centre is the middle of its
// slice and its radius the largest circle inside it, so glyphs never overlap; every few slices
// carry their worker's number outside the band.
void place_band(ClusterScene& s) {
    const double pi = std::numbers::pi;
    const bool hub = s.algorithm == Algorithm::ParameterServer;
    const int first = hub ? 1 : 0;
    const int count = s.workers - first;
    const qreal line = s.line;
    const QRectF a = s.area;
    const qreal outer = std::max(4.0, std::min(a.width(), a.height()) / 2 - 1.4 * line);
    const qreal thickness = std::clamp(0.12 * outer, std::min(0.8 * line, 0.5 * outer), 2.2 * line);
    s.bandCentre = a.center();
    s.bandOuter = outer;
    s.bandInner = outer - thickness;
    const qreal middle = outer - thickness / 2;
    const double half = pi / count;
    s.radius = std::max(1.0, std::min(thickness / 2, 0.98 * middle * std::sin(half)));
    s.hubRadius = hub ? std::clamp(0.3 * s.bandInner, 1.0, 1.4 * line) : 0.0;
    s.slices.assign(static_cast<std::size_t>(s.workers), QPainterPath());
    const double start = -pi / 2;
    const int arcPoints = std::max(2, static_cast<int>(std::ceil(2 * half * outer / 3.0)) + 1);
    for (int i = 0; i < count; ++i) {
        const double angle = start + 2 * pi * i / count;
        const auto k = static_cast<std::size_t>(first + i);
        s.centres[k] = s.bandCentre + QPointF(middle * std::cos(angle), middle * std::sin(angle));
        QPolygonF slice;
        for (int j = 0; j < arcPoints; ++j) {
            const double t = angle - half + 2 * half * j / (arcPoints - 1);
            slice << s.bandCentre + QPointF(outer * std::cos(t), outer * std::sin(t));
        }
        for (int j = arcPoints - 1; j >= 0; --j) {
            const double t = angle - half + 2 * half * j / (arcPoints - 1);
            slice << s.bandCentre + QPointF(s.bandInner * std::cos(t), s.bandInner * std::sin(t));
        }
        s.slices[k].addPolygon(slice);
        s.slices[k].closeSubpath();
    }
    if (hub)
        s.centres[0] = s.bandCentre;
    // Numbers at a round stride, far enough apart to be read.
    const qreal numberWidth =
        QFontMetricsF(s.symbolFont).horizontalAdvance(QString::number(s.workers - 1)) + 0.6 * line;
    const qreal perSlice = 2 * pi * (outer + 0.7 * line) / count;
    int stride = 1;
    for (int step : {1, 2, 4, 5, 8, 10, 16, 20, 25, 32, 50, 64, 100, 128}) {
        stride = step;
        if (step * perSlice >= numberWidth)
            break;
    }
    // The first worker on the band, then round numbers not crowding it from either side.
    for (int i = 0; i < count; ++i) {
        const int worker = first + i;
        const bool round =
            worker % stride == 0 && i >= (stride + 1) / 2 && count - i >= (stride + 1) / 2;
        if (i > 0 && !round)
            continue;
        const double angle = start + 2 * pi * i / count;
        const qreal r = outer + 0.75 * line;
        s.bandTicks.emplace_back(worker,
                                 s.bandCentre + QPointF(r * std::cos(angle), r * std::sin(angle)));
    }
}

} // namespace lockstep::views::cluster_detail
