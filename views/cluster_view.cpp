#include "lockstep_views/cluster_view.h"

#include "lockstep_views/palette.h"

#include <QContextMenuEvent>
#include <QFontMetricsF>
#include <QHelpEvent>
#include <QKeyEvent>
#include <QMenu>
#include <QMouseEvent>
#include <QPainter>
#include <QPainterPath>
#include <QStringList>
#include <QToolTip>

#include <algorithm>
#include <array>
#include <bit>
#include <cmath>
#include <numbers>

namespace lockstep::views {

namespace {

constexpr std::array kActivities{
    WorkerActivity::Computing,     WorkerActivity::Sending,  WorkerActivity::Receiving,
    WorkerActivity::Waiting,       WorkerActivity::Updating, WorkerActivity::Paused,
    WorkerActivity::Checkpointing, WorkerActivity::Failed,   WorkerActivity::Idle};
static_assert(kActivities.size() == kWorkerActivityCount, "every activity has its style");

// A copy of `base` scaled by `factor`, whether it was sized in points or in pixels.
QFont scaledFont(const QFont& base, qreal factor, bool bold = false) {
    QFont f = base;
    if (base.pointSizeF() > 0)
        f.setPointSizeF(std::max(1.0, base.pointSizeF() * factor));
    else
        f.setPixelSize(std::max(1, qRound(base.pixelSize() * factor)));
    f.setBold(bold);
    return f;
}

qreal gradientBarHeight(qreal line) {
    return std::max(4.0, 0.4 * line);
}

QString topologyName(Algorithm algorithm) {
    switch (algorithm) {
    case Algorithm::Ring:
        return ClusterView::tr("ring all-reduce");
    case Algorithm::ParameterServer:
        return ClusterView::tr("parameter server (worker 0)");
    case Algorithm::Tree:
        return ClusterView::tr("binary-tree all-reduce");
    case Algorithm::None:
        break;
    }
    return ClusterView::tr("no synchronisation");
}

QString shortTopologyName(Algorithm algorithm) {
    switch (algorithm) {
    case Algorithm::Ring:
        return ClusterView::tr("ring");
    case Algorithm::ParameterServer:
        return ClusterView::tr("parameter server");
    case Algorithm::Tree:
        return ClusterView::tr("tree");
    case Algorithm::None:
        break;
    }
    return ClusterView::tr("no synchronisation");
}

QString workerCount(int n) {
    return n == 1 ? ClusterView::tr("1 worker") : ClusterView::tr("%1 workers").arg(n);
}

// A disc in an activity's colour; waiting, paused and failed workers also get the activity's
// hatching on an outer ring, so the state survives without colour and the centre stays plain
// enough to read a number on.
void drawDisc(QPainter& p, QPointF c, qreal r, const ActivityStyle& style, const QColor& outline) {
    p.setPen(Qt::NoPen);
    p.setBrush(style.colour);
    p.drawEllipse(c, r, r);
    if (style.brush != Qt::SolidPattern && r >= 4.0) {
        QPainterPath ring;
        ring.addEllipse(c, r, r);
        if (r >= 14.0) {
            QPainterPath hole;
            hole.addEllipse(c, r * 0.62, r * 0.62);
            ring = ring.subtracted(hole);
        }
        QBrush hatch(withAlpha(textOn(style.colour), 150), style.brush);
        const qreal scale = std::max(1.0, r / 14.0);
        hatch.setTransform(QTransform::fromScale(scale, scale));
        p.setBrush(hatch);
        p.drawPath(ring);
    }
    if (r >= 3.0) {
        p.setBrush(Qt::NoBrush);
        p.setPen(QPen(outline, std::clamp(r / 14.0, 1.0, 2.0)));
        p.drawEllipse(c, r, r);
    }
}

// The empty track of a gradient bar.
void drawGradientTrack(QPainter& p, const QRectF& bar, const QColor& text) {
    const qreal h = bar.height();
    p.setPen(Qt::NoPen);
    p.setBrush(withAlpha(text, 45));
    p.drawRoundedRect(bar, h / 2, h / 2);
}

// The fill of a gradient bar, running from the middle `share` (-1 to 1) of the way to either
// end, and the mark in the middle.
void drawGradientValue(QPainter& p, const QRectF& bar, double share, const QColor& text) {
    const qreal extent = std::clamp(share, -1.0, 1.0) * bar.width() / 2;
    p.setPen(Qt::NoPen);
    p.setBrush(withAlpha(text, 210));
    p.drawRect(QRectF(QPointF(bar.center().x() + std::min(0.0, extent), bar.top()),
                      QSizeF(std::abs(extent), bar.height())));
    p.setPen(QPen(text, 1.0));
    p.drawLine(QPointF(bar.center().x(), bar.top() - 2),
               QPointF(bar.center().x(), bar.bottom() + 2));
}

void drawGradientBar(QPainter& p, const QRectF& bar, double share, const QColor& text) {
    drawGradientTrack(p, bar, text);
    drawGradientValue(p, bar, share, text);
}

// The device pixels per widget pixel when `p` paints at an even scale, shifted by whole device
// pixels and fully opaque, so that pictures made on the device pixel grid fit; else 0.
qreal pixelGrid(const QPainter& p) {
    const QTransform t = p.deviceTransform();
    auto whole = [](qreal v) { return std::abs(v - std::round(v)) < 1e-6; };
    if (t.type() > QTransform::TxScale || t.m11() <= 0 || t.m11() != t.m22() || !whole(t.dx()) ||
        !whole(t.dy()) || p.opacity() < 1.0)
        return 0.0;
    return t.m11();
}

// The smallest rectangle holding every pixel of `image` that is not fully transparent.
QRect paintedArea(const QImage& image) {
    int top = image.height(), bottom = -1, left = image.width(), right = -1;
    for (int y = 0; y < image.height(); ++y) {
        const auto* row = reinterpret_cast<const QRgb*>(image.constScanLine(y));
        for (int x = 0; x < image.width(); ++x)
            if (qAlpha(row[x]) != 0) {
                top = std::min(top, y);
                bottom = y;
                left = std::min(left, x);
                right = std::max(right, x);
            }
    }
    return bottom < 0 ? QRect() : QRect(QPoint(left, top), QPoint(right, bottom));
}

// What `draw` paints inside `bounds` (widget coordinates), as a transparent image on the device
// pixel grid at `ratio`, cropped to the pixels it touched; `at` receives its top-left corner in
// device pixels.
template <typename Draw>
QImage paintCropped(const QRectF& bounds, qreal ratio, QPoint& at, Draw&& draw) {
    const QRect device = QRectF(bounds.topLeft() * ratio, bounds.size() * ratio).toAlignedRect();
    at = device.topLeft();
    if (device.isEmpty())
        return {};
    QImage image(device.size(), QImage::Format_ARGB32_Premultiplied);
    image.setDevicePixelRatio(ratio);
    image.fill(Qt::transparent);
    {
        QPainter p(&image);
        p.setRenderHints(QPainter::Antialiasing | QPainter::TextAntialiasing);
        p.translate(-QPointF(device.topLeft()) / ratio);
        draw(p);
    }
    const QRect painted = paintedArea(image);
    at += painted.topLeft();
    return painted.isEmpty() ? QImage() : image.copy(painted);
}

void drawPicture(QPainter& p, const QImage& image, QPoint at, qreal ratio) {
    if (!image.isNull())
        p.drawImage(QPointF(at) / ratio, image);
}

// The arrowhead of a link ending at `tip`, pointing along `direction` (a unit vector).
void drawArrowhead(QPainter& p, QPointF tip, QPointF direction, qreal size) {
    const QPointF normal(-direction.y(), direction.x());
    const QPointF base = tip - direction * size;
    const QPointF head[3] = {tip, base + normal * (size * 0.5), base - normal * (size * 0.5)};
    p.drawPolygon(head, 3);
}

// Height of the block under (or beside) a disc: the activity's label, then the gradient bar.
qreal labelBlockHeight(qreal line) {
    return 1.05 * line + 0.2 * line + gradientBarHeight(line);
}

// The left edge of something `width` wide in the label block of the disc at `centre`: against
// the disc when the block sits beside it, centred when it sits above or below.
qreal leanIn(const QRectF& block, QPointF centre, qreal width) {
    const int side = block.left() > centre.x() ? 1 : block.right() < centre.x() ? -1 : 0;
    return side > 0   ? block.left()
           : side < 0 ? block.right() - width
                      : block.center().x() - width / 2;
}

// The gradient bar in a label block, under the label.
QRectF gradientBarIn(const QRectF& block, QPointF centre, qreal radius, qreal line) {
    const qreal width = std::min(block.width(), std::max(2 * radius, 3.0 * line));
    return QRectF(leanIn(block, centre, width), block.top() + 1.05 * line + 0.2 * line, width,
                  gradientBarHeight(line));
}

QString gradientCaption() {
    return ClusterView::tr("first gradient entry");
}

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

struct WorkerAction {
    const char* id;
    QString text;
};

} // namespace

ClusterView::ClusterView(QWidget* parent)
    : QWidget(parent) {
    setAccessibleName(tr("Cluster view"));
    setAccessibleDescription(describe());
    setFocusPolicy(Qt::StrongFocus);
    setMouseTracking(true);
    setSizePolicy(QSizePolicy::Expanding, QSizePolicy::Expanding);
}

void ClusterView::setTrace(const TraceIndex* index) {
    index_ = index;
    sceneValid_ = false;
    bytesScanned_ = 0;
    maxBytes_ = 0;
    focusWorker_ = 0;
    setAccessibleDescription(describe());
    update();
}

void ClusterView::setPlayhead(Ticks t) {
    playhead_ = t;
    setAccessibleDescription(describe());
    update();
}

void ClusterView::refresh() {
    setAccessibleDescription(describe());
    update();
}

QSize ClusterView::sizeHint() const {
    return {640, 480};
}

QSize ClusterView::minimumSizeHint() const {
    const qreal line = QFontMetricsF(font()).height();
    return {static_cast<int>(std::ceil(20 * line)), static_cast<int>(std::ceil(14 * line))};
}

// Places the header, the legend and the workers for the current size, font and topology, and
// picks the fonts and styles they are drawn in.
const ClusterView::Scene& ClusterView::scene() const {
    const int n = index_ ? std::max(index_->workers(), 0) : 0;
    const Algorithm algorithm = index_ ? index_->algorithm_at(playhead_) : Algorithm::Ring;
    if (sceneValid_ && scene_.size == size() && scene_.workers == n &&
        scene_.algorithm == algorithm)
        return scene_;

    Scene& s = scene_;
    pictures_ = Pictures{};
    s.size = size();
    s.workers = n;
    s.algorithm = algorithm;
    const QFontMetricsF fm(font());
    for (WorkerActivity a : kActivities) {
        const auto i = static_cast<std::size_t>(a);
        s.styles[i] = style_for(a);
        s.labelWidths[i] = fm.horizontalAdvance(s.styles[i].label);
    }
    s.titleFont = scaledFont(font(), 1.3, true);
    s.chipFont = scaledFont(font(), 1.15, true);
    s.symbolFont = scaledFont(font(), 0.85, true);
    s.emptyFont = scaledFont(font(), 1.2);
    s.line = fm.height();
    const qreal line = s.line;
    const QRectF inner = QRectF(rect()).adjusted(0.8 * line, 0.5 * line, -0.8 * line, -0.5 * line);
    const QFontMetricsF title(s.titleFont);
    s.header = QRectF(inner.left(), inner.top(), inner.width(), title.height() + line + 0.3 * line);
    s.title = QRectF(s.header.left(), s.header.top(), s.header.width(), title.height());
    s.subtitle = QRectF(s.header.left(), s.title.bottom() + 0.15 * line, s.header.width(), s.line);
    // In a narrow view the verdict chip goes on a row of its own under the subtitle, rather than
    // over the title.
    const QFontMetricsF chip(s.chipFont);
    const qreal titleWidth =
        title.horizontalAdvance(tr("step %1 · t = %2 s").arg(99999).arg(QStringLiteral("00.000")));
    const qreal chipWidth =
        1.4 * line + chip.height() + chip.horizontalAdvance(tr("replicas aligned"));
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
    };
    s.links.clear();
    if (n >= 2) {
        switch (algorithm) {
        case Algorithm::Ring:
            for (int k = 0; k < n; ++k)
                s.links.push_back({k, (k + 1) % n});
            break;
        case Algorithm::ParameterServer:
            for (int k = 1; k < n; ++k)
                s.links.push_back({0, k});
            break;
        case Algorithm::Tree:
            // The engine's binomial tree: k's parent is k without its lowest set bit.
            for (int k = 1; k < n; ++k)
                s.links.push_back({k & (k - 1), k});
            break;
        case Algorithm::None:
            break;
        }
    }

    const qreal labelWidth = *std::max_element(s.labelWidths.begin(), s.labelWidths.end());
    const qreal blockWidth = labelWidth + 0.8 * line;
    // Labels only when every worker's label finds a free place next to a disc big enough to
    // carry a number; otherwise bigger discs without labels.
    bool labelled = n <= 64;
    if (labelled) {
        flowLegend(s, inner, true);
        placeArea();
        placeWorkers(s, true);
        s.numbers = s.radius >= 0.55 * line;
        labelled = s.radius >= 0.9 * line && placeLabels(s, blockWidth) == 0;
    }
    if (!labelled) {
        flowLegend(s, inner, false);
        placeArea();
        placeWorkers(s, false);
        s.numbers = s.radius >= 0.55 * line;
        placeLabels(s, blockWidth);
    }

    // A crowded circle becomes a band of slices.
    s.dense = (algorithm == Algorithm::Ring || algorithm == Algorithm::ParameterServer) && n > 32 &&
              !s.numbers;
    s.slices.clear();
    s.bandTicks.clear();
    s.hubRadius = 0.0;
    if (s.dense)
        placeBand(s);

    // One number font for all discs, sized so the widest number fits.
    if (n > 0) {
        const qreal r = s.radius;
        s.numberFont = scaledFont(font(), std::min(1.05 * r, 1.6 * line) / line, true);
        const qreal widest = QFontMetricsF(s.numberFont).horizontalAdvance(QString::number(n - 1));
        if (widest > 1.2 * r)
            s.numberFont = scaledFont(s.numberFont, 1.2 * r / widest, true);
        s.badgeFont = scaledFont(font(), 1.15 * badgeRadius(s) / line, true);
    }
    sceneValid_ = true;
    return s;
}

// Flows the legend (every activity, then the gradient bar when bars are drawn) into centred
// rows at the bottom of `inner`.
void ClusterView::flowLegend(Scene& s, const QRectF& inner, bool withBar) const {
    const QFontMetricsF fm(font());
    const qreal line = s.line;
    std::vector<qreal> widths;
    for (WorkerActivity a : kActivities)
        widths.push_back(1.24 * line + 0.4 * line + fm.horizontalAdvance(style_for(a).label));
    if (withBar)
        widths.push_back(2.2 * line + 0.4 * line + fm.horizontalAdvance(gradientCaption()));
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

// Puts each worker's label block (activity and gradient bar) next to its disc where no link,
// disc or other label is in the way: below, else above, right or left; below, over the links
// on its own background, when nothing is free. Then finds a free spot on each rim for the
// activity's letter.
int ClusterView::placeLabels(Scene& s, qreal blockWidth) const {
    const auto n = static_cast<std::size_t>(s.workers);
    const qreal line = s.line;
    const qreal r = s.radius;
    const qreal gap = 0.3 * line;
    const qreal w = blockWidth;
    const qreal h = labelBlockHeight(line);
    std::vector<QLineF> links;
    for (const auto& [src, dst] : s.links)
        links.emplace_back(linkEnd(s, src, dst, 0.0), linkEnd(s, src, dst, 1.0));
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
    const qreal badge = badgeRadius(s);
    const double pi = std::numbers::pi;
    const double angles[] = {-pi / 4, -3 * pi / 4, pi / 4, 3 * pi / 4, -pi / 2, 0.0, pi, pi / 2};
    for (std::size_t k = 0; k < s.badges.size(); ++k) {
        const QPointF c = s.centres[k];
        s.badges[k] = c + QPointF(std::cos(angles[0]), std::sin(angles[0])) * r;
        for (double angle : angles) {
            const QPointF b = c + QPointF(std::cos(angle), std::sin(angle)) * r;
            bool free = QRectF(rect()).contains(
                QRectF(b - QPointF(badge, badge), QSizeF(2 * badge, 2 * badge)));
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
void ClusterView::placeWorkers(Scene& s, bool withLabels) const {
    const int n = s.workers;
    const QRectF a = s.area;
    const qreal line = s.line;
    const qreal rMax = 2.5 * line;
    const qreal labelWidth =
        withLabels ? *std::max_element(s.labelWidths.begin(), s.labelWidths.end()) : 0.0;
    const qreal labelHeight = withLabels ? 0.3 * line + labelBlockHeight(line) : 0.0;
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

    switch (s.algorithm) {
    case Algorithm::Ring:
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
        // Rows by depth in the binomial tree (the number of set bits), in worker order within a
        // row; parents always precede their children in that order, so no two links cross.
        int depthCount = 0;
        for (int k = 0; k < n; ++k)
            depthCount = std::max(depthCount, std::popcount(static_cast<unsigned>(k)) + 1);
        std::vector<int> perRow(static_cast<std::size_t>(depthCount), 0);
        for (int k = 0; k < n; ++k)
            ++perRow[static_cast<std::size_t>(std::popcount(static_cast<unsigned>(k)))];
        const int widest = *std::max_element(perRow.begin(), perRow.end());
        const qreal rowHeight = a.height() / depthCount;
        const qreal cellWidth = a.width() / widest;
        s.radius = std::max(1.0, std::min({rMax, 0.36 * cellWidth, 0.36 * rowHeight,
                                           0.45 * (rowHeight - labelHeight)}));
        std::vector<int> placed(static_cast<std::size_t>(depthCount), 0);
        for (int k = 0; k < n; ++k) {
            const auto depth = static_cast<std::size_t>(std::popcount(static_cast<unsigned>(k)));
            const qreal width = a.width() / perRow[depth];
            s.centres[static_cast<std::size_t>(k)] = QPointF(
                a.left() + (placed[depth]++ + 0.5) * width,
                a.top() + static_cast<qreal>(depth) * rowHeight + (rowHeight - labelHeight) / 2);
        }
        return;
    }
    case Algorithm::None:
        break;
    }

    // A grid, as square as the cells allow, last row centred.
    int bestColumns = 1;
    qreal bestRadius = -1, bestCell = -1;
    for (int columns = 1; columns <= n; ++columns) {
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
void ClusterView::placeBand(Scene& s) const {
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

// Activity and latest gradient of every worker at the playhead, straight from the index.
void ClusterView::updateStates() const {
    const int n = index_ ? std::max(index_->workers(), 0) : 0;
    activities_.assign(static_cast<std::size_t>(n), WorkerActivity::Idle);
    gradients_.assign(static_cast<std::size_t>(n), 0.0);
    step_ = -1;
    if (!index_)
        return;
    const Ticks t = playhead_;
    for (int k = 0; k < n; ++k) {
        const auto i = static_cast<std::size_t>(k);
        activities_[i] = index_->activity_at(k, t);
        if (step_ < 0)
            if (const TraceEvent* e = index_->event_at(k, t))
                step_ = e->step;
        index_->value_at(k, t, &gradients_[i]);
    }
    if (step_ < 0) {
        const StepSnapshot* snapshot = index_->snapshot_at(t);
        step_ = snapshot ? snapshot->step : 0;
    }
    // Only the events added since the last look are scanned for the largest message.
    const auto& events = index_->events();
    if (events.size() < bytesScanned_) {
        bytesScanned_ = 0;
        maxBytes_ = 0;
    }
    for (std::size_t i = bytesScanned_; i < events.size(); ++i)
        if (events[i].kind == EventKind::Send)
            maxBytes_ = std::max(maxBytes_, events[i].bytes);
    bytesScanned_ = events.size();
}

QList<ClusterView::WorkerGlyph> ClusterView::glyphs() const {
    updateStates();
    const Scene& s = scene();
    QList<WorkerGlyph> out;
    out.reserve(s.workers);
    for (int k = 0; k < s.workers; ++k) {
        const auto i = static_cast<std::size_t>(k);
        out.push_back({k, s.centres[i], discRadius(s, k), activities_[i], gradients_[i]});
    }
    return out;
}

// A point on the link from `src`'s rim to `dst`'s, `progress` of the way along: where a
// message in flight is drawn. The two directions of a two-worker ring run side by side.
QPointF ClusterView::linkEnd(const Scene& s, int src, int dst, double progress) {
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
std::pair<qreal, qreal> ClusterView::packetRadii(const Scene& s) {
    const qreal smallest = std::min(std::max(2.5, 0.2 * s.line), std::max(1.5, 0.8 * s.radius));
    return {smallest, std::clamp(0.5 * s.radius, smallest, 0.6 * s.line)};
}

// The parameter server's disc in the middle of a dense band is bigger than the slices round it.
qreal ClusterView::discRadius(const Scene& s, int worker) {
    return worker == 0 && s.hubRadius > 0 ? s.hubRadius : s.radius;
}

qreal ClusterView::badgeRadius(const Scene& s) {
    return std::clamp(0.34 * s.radius, 0.45 * s.line, 0.6 * s.line);
}

QList<QPair<PacketInFlight, QPointF>> ClusterView::packetGlyphs() const {
    QList<QPair<PacketInFlight, QPointF>> out;
    if (!index_)
        return out;
    const Scene& s = scene();
    // On a crowded ring the links are shorter than a message: messages then run on a track just
    // inside the ring, still between their two workers.
    qreal inside = 0;
    if (s.algorithm == Algorithm::Ring && s.workers > 2) {
        const QPointF d = s.centres[1] - s.centres[0];
        if (s.dense) // below the band's inner edge
            inside = (s.bandOuter - s.bandInner) / 2 + packetRadii(s).second + 2.0;
        else if (std::hypot(d.x(), d.y()) - 2 * s.radius < 4 * packetRadii(s).second)
            inside = s.radius + packetRadii(s).second + 1.0;
    }
    for (const PacketInFlight& packet : index_->packets_at(playhead_)) {
        if (packet.src < 0 || packet.src >= s.workers || packet.dst < 0 || packet.dst >= s.workers)
            continue;
        QPointF at = linkEnd(s, packet.src, packet.dst, packet.progress);
        if (inside > 0) {
            const QPointF d = s.centres[static_cast<std::size_t>(packet.dst)] -
                              s.centres[static_cast<std::size_t>(packet.src)];
            const qreal length = std::hypot(d.x(), d.y());
            if (length > 0) // the ring runs clockwise, so inside is to the right
                at += QPointF(-d.y(), d.x()) / length * inside;
        }
        out.push_back({packet, at});
    }
    return out;
}

int ClusterView::workerAt(QPointF position) const {
    const Scene& s = scene();
    for (std::size_t k = 0; k < s.slices.size(); ++k) // a dense band's slices, edge to edge
        if (!s.slices[k].isEmpty() && s.slices[k].contains(position))
            return static_cast<int>(k);
    int best = -1;
    qreal bestDistance = 0;
    for (int k = 0; k < s.workers; ++k) {
        const QPointF d = position - s.centres[static_cast<std::size_t>(k)];
        const qreal distance = std::hypot(d.x(), d.y());
        if (distance <= std::max(discRadius(s, k) + 2.0, 6.0) &&
            (best < 0 || distance <= bestDistance)) {
            best = k;
            bestDistance = distance;
        }
    }
    return best;
}

QMenu* ClusterView::buildWorkerMenu(int worker) {
    auto* menu = new QMenu(this);
    menu->setAttribute(Qt::WA_DeleteOnClose);
    menu->setAccessibleName(tr("Faults for worker %1").arg(worker));
    menu->addSection(tr("Worker %1").arg(worker));
    const WorkerAction actions[] = {{"slow", tr("Slow down 3×")},
                                    {"pause", tr("Pause 5 s")},
                                    {"crash", tr("Crash")},
                                    {"crash-checkpoint", tr("Crash during next checkpoint")}};
    for (const WorkerAction& a : actions) {
        QAction* action = menu->addAction(a.text);
        const QString id = QString::fromLatin1(a.id);
        action->setData(id);
        connect(action, &QAction::triggered, this,
                [this, worker, id] { Q_EMIT workerActionRequested(worker, id); });
    }
    return menu;
}

void ClusterView::openMenu(int worker, QPoint globalPosition) {
    focusWorker_ = worker;
    update();
    buildWorkerMenu(worker)->popup(globalPosition);
}

QString ClusterView::describe() const {
    if (!index_ || index_->workers() <= 0)
        return tr("No run loaded");
    updateStates();
    const int n = index_->workers();
    QStringList parts;
    parts << workerCount(n) + QStringLiteral(", ") +
                 shortTopologyName(index_->algorithm_at(playhead_));
    parts << tr("step %1, t = %2 s").arg(step_).arg(to_seconds(playhead_), 0, 'f', 3);
    for (WorkerActivity a : kActivities) {
        QStringList who;
        int count = 0;
        for (int k = 0; k < n; ++k) {
            if (activities_[static_cast<std::size_t>(k)] != a)
                continue;
            if (++count <= 8)
                who << QString::number(k);
        }
        const QString label = style_for(a).label;
        if (count == 1)
            parts << tr("worker %1 %2").arg(who.front(), label);
        else if (count > 1 && count <= 8)
            parts << tr("workers %1 %2").arg(who.join(QStringLiteral(", ")), label);
        else if (count > 8)
            parts << tr("%1 workers %2").arg(count).arg(label);
    }
    const StepSnapshot* snapshot = index_->snapshot_at(playhead_);
    if (!snapshot)
        parts << tr("no step finished yet");
    else
        parts << (snapshot->replicas_aligned ? tr("replicas aligned") : tr("replicas differ"));
    return parts.join(QStringLiteral("; "));
}

// A frame: the pictures of what stays put, then the title, the verdict, the workers and the
// messages at the playhead. Painting off the device pixel grid (a scaled render()) draws all of
// it directly instead.
void ClusterView::paintEvent(QPaintEvent*) {
    updateStates();
    const Scene& s = scene();
    QPainter p(this);
    p.setRenderHints(QPainter::Antialiasing | QPainter::TextAntialiasing);
    const qreal ratio = pixelGrid(p);
    if (ratio > 0) {
        if (pictures_.ratio != ratio)
            makePictures(s, ratio);
        drawPicture(p, pictures_.still.image, pictures_.still.at, ratio);
    } else {
        drawStill(p, s);
    }
    if (index_) {
        drawTitle(p, s);
        const int v = verdict();
        if (ratio > 0) {
            const Sprite& picture = verdictPicture(s, v);
            drawPicture(p, picture.image, picture.at, ratio);
        } else {
            drawVerdict(p, s, v);
        }
    }
    if (s.workers > 0) {
        drawWorkers(p, s, ratio);
        drawPackets(p, s);
    }
}

// The still picture at `ratio`, with an empty slot for each verdict and each worker's activity.
void ClusterView::makePictures(const Scene& s, qreal ratio) const {
    pictures_ = Pictures{};
    pictures_.ratio = ratio;
    pictures_.workers.resize(static_cast<std::size_t>(s.workers));
    const QSize pixels = QRectF(QPointF(0, 0), QSizeF(size()) * ratio).toAlignedRect().size();
    QImage still(pixels, palette().window().isOpaque() ? QImage::Format_RGB32
                                                       : QImage::Format_ARGB32_Premultiplied);
    still.setDevicePixelRatio(ratio);
    still.fill(Qt::transparent);
    {
        QPainter p(&still);
        p.setRenderHints(QPainter::Antialiasing | QPainter::TextAntialiasing);
        drawStill(p, s);
    }
    pictures_.still = {std::move(still), QPoint(0, 0)};
}

const ClusterView::Sprite& ClusterView::verdictPicture(const Scene& s, int verdict) const {
    std::optional<Sprite>& slot = pictures_.verdicts[static_cast<std::size_t>(verdict)];
    if (!slot) {
        const qreal margin = std::max(3.0, 0.25 * s.line);
        Sprite sprite;
        sprite.image =
            paintCropped(s.header.adjusted(-margin, -margin, margin, margin), pictures_.ratio,
                         sprite.at, [&](QPainter& p) { drawVerdict(p, s, verdict); });
        slot = std::move(sprite);
    }
    return *slot;
}

const ClusterView::Sprite& ClusterView::workerPicture(const Scene& s, int worker,
                                                      WorkerActivity activity) const {
    const auto i = static_cast<std::size_t>(worker);
    std::optional<Sprite>& slot = pictures_.workers[i][static_cast<std::size_t>(activity)];
    if (!slot) {
        // drawWorker stays within the disc, the badge and the label block.
        const QPointF c = s.centres[i];
        const qreal r = discRadius(s, worker);
        QRectF bounds(c - QPointF(r, r), QSizeF(2 * r, 2 * r));
        if (i < s.slices.size())
            bounds |= s.slices[i].boundingRect();
        if (i < s.badges.size()) {
            const qreal b = badgeRadius(s);
            bounds |= QRectF(s.badges[i] - QPointF(b, b), QSizeF(2 * b, 2 * b));
        }
        if (i < s.labelRects.size())
            bounds |= s.labelRects[i];
        const qreal margin = std::max(3.0, 0.25 * s.line);
        Sprite sprite;
        sprite.image = paintCropped(
            bounds.adjusted(-margin, -margin, margin, margin), pictures_.ratio, sprite.at,
            [&](QPainter& p) { drawWorker(p, s, worker, activity, false); });
        slot = std::move(sprite);
    }
    return *slot;
}

// 0 before the first step has finished, 1 when the replicas agreed after the last one, else 2.
int ClusterView::verdict() const {
    const StepSnapshot* snapshot = index_ ? index_->snapshot_at(playhead_) : nullptr;
    return !snapshot ? 0 : snapshot->replicas_aligned ? 1 : 2;
}

// What stays put while the playhead moves: the background, the subtitle (the bare title without
// a trace), the links and the legend.
void ClusterView::drawStill(QPainter& p, const Scene& s) const {
    const QColor text = palette().color(QPalette::WindowText);
    p.fillRect(rect(), palette().window());
    if (index_) {
        p.setFont(font());
        p.setPen(withAlpha(text, 190));
        p.drawText(s.subtitle, Qt::AlignLeft | Qt::AlignVCenter,
                   workerCount(s.workers) + QStringLiteral(" · ") + topologyName(s.algorithm));
    } else {
        p.setPen(text);
        p.setFont(s.titleFont);
        p.drawText(s.title, Qt::AlignLeft | Qt::AlignVCenter, tr("Cluster"));
    }
    if (s.workers == 0) {
        p.setPen(withAlpha(text, 170));
        p.setFont(s.emptyFont);
        p.drawText(s.area, Qt::AlignCenter, tr("No run loaded"));
    } else {
        drawLinks(p, s);
        drawBandTicks(p, s);
    }
    drawLegend(p, s);
}

// "step S · t = X.XXX s".
void ClusterView::drawTitle(QPainter& p, const Scene& s) const {
    p.setPen(palette().color(QPalette::WindowText));
    p.setFont(s.titleFont);
    p.drawText(s.title, Qt::AlignLeft | Qt::AlignVCenter,
               tr("step %1 · t = %2 s").arg(step_).arg(to_seconds(playhead_), 0, 'f', 3));
}

// Whether the replicas agree, on the right of the header (see verdict()).
void ClusterView::drawVerdict(QPainter& p, const Scene& s, int verdict) const {
    const QColor text = palette().color(QPalette::WindowText);
    if (verdict == 0) {
        p.setFont(font());
        p.setPen(withAlpha(text, 170));
        if (s.verdictRow.isEmpty())
            p.drawText(s.header, Qt::AlignRight | Qt::AlignVCenter, tr("no step finished yet"));
        else
            p.drawText(s.verdictRow, Qt::AlignLeft | Qt::AlignVCenter, tr("no step finished yet"));
        return;
    }
    // A chip: tinted box, a check or a cross in a disc, and the verdict in words.
    const bool aligned = verdict == 1;
    const QFontMetricsF chip(s.chipFont);
    const QColor colour = aligned ? okabe_ito::bluish_green : okabe_ito::vermillion;
    const QString words = aligned ? tr("replicas aligned") : tr("replicas differ");
    const qreal iconRadius = 0.5 * chip.height();
    const qreal pad = 0.5 * s.line;
    const qreal width = pad + 2 * iconRadius + 0.4 * s.line + chip.horizontalAdvance(words) + pad;
    const qreal height = std::min(s.header.height(), chip.height() + 0.7 * s.line);
    const QRectF box =
        s.verdictRow.isEmpty()
            ? QRectF(s.header.right() - width, s.header.center().y() - height / 2, width, height)
            : QRectF(s.verdictRow.left(), s.verdictRow.top(), width, height);
    p.setPen(QPen(colour, 1.5));
    p.setBrush(withAlpha(colour, 40));
    p.drawRoundedRect(box, height / 4, height / 4);
    const QPointF icon(box.left() + pad + iconRadius, box.center().y());
    p.setPen(Qt::NoPen);
    p.setBrush(colour);
    p.drawEllipse(icon, iconRadius, iconRadius);
    QPen mark(textOn(colour), std::max(1.5, 0.22 * iconRadius), Qt::SolidLine, Qt::RoundCap,
              Qt::RoundJoin);
    p.setPen(mark);
    p.setBrush(Qt::NoBrush);
    if (aligned) {
        const QPointF check[3] = {icon + QPointF(-0.45, 0.02) * iconRadius,
                                  icon + QPointF(-0.12, 0.36) * iconRadius,
                                  icon + QPointF(0.48, -0.32) * iconRadius};
        p.drawPolyline(check, 3);
    } else {
        const qreal c = 0.38 * iconRadius;
        p.drawLine(icon + QPointF(-c, -c), icon + QPointF(c, c));
        p.drawLine(icon + QPointF(-c, c), icon + QPointF(c, -c));
    }
    p.setPen(text);
    p.setFont(s.chipFont);
    p.drawText(QRectF(icon.x() + iconRadius + 0.4 * s.line, box.top(),
                      box.right() - pad - (icon.x() + iconRadius + 0.4 * s.line), box.height()),
               Qt::AlignLeft | Qt::AlignVCenter, words);
}

// The topology's links, rim to rim; the ring's carry arrowheads in its direction.
void ClusterView::drawLinks(QPainter& p, const Scene& s) const {
    if (s.dense && s.algorithm == Algorithm::Ring)
        return; // neighbours touch: the band is the ring
    const QColor text = palette().color(QPalette::WindowText);
    // Fainter when there are many, so a busy hub stays readable.
    const int alpha = std::clamp(
        static_cast<int>(95 * std::sqrt(32.0 / std::max<std::size_t>(s.links.size(), 1))), 40, 95);
    const QColor colour = withAlpha(text, alpha);
    const QPen pen(colour, std::clamp(s.radius / 12.0, 1.0, 2.5), Qt::SolidLine, Qt::FlatCap);
    p.setPen(pen);
    p.setBrush(colour);
    const bool arrows = s.algorithm == Algorithm::Ring && s.radius >= 5.0;
    const qreal head = std::clamp(0.35 * s.radius, 5.0, 0.7 * s.line);
    for (const auto& [src, dst] : s.links) {
        const QPointF from = linkEnd(s, src, dst, 0.0);
        const QPointF to = linkEnd(s, src, dst, 1.0);
        const QPointF d = to - from;
        const qreal length = std::hypot(d.x(), d.y());
        if (length < 1.0)
            continue;
        const QPointF u = d / length;
        const QPointF tip = to - u * (arrows ? 0.15 * s.line : 0.0);
        p.drawLine(from, arrows ? tip - u * head : to);
        if (arrows) {
            p.setPen(Qt::NoPen);
            drawArrowhead(p, tip, u, head);
            p.setPen(pen);
        }
    }
}

// In the dense layout: every few workers' numbers outside the band, each with a tick, and an
// arrow at the top for the ring's direction.
void ClusterView::drawBandTicks(QPainter& p, const Scene& s) const {
    if (!s.dense)
        return;
    const QColor text = palette().color(QPalette::WindowText);
    p.setFont(s.symbolFont);
    for (const auto& [worker, at] : s.bandTicks) {
        const QPointF d = at - s.bandCentre;
        const qreal length = std::hypot(d.x(), d.y());
        const QPointF u = length > 0 ? d / length : QPointF(0, -1);
        p.setPen(QPen(withAlpha(text, 160), 1.0));
        p.drawLine(s.bandCentre + u * (s.bandOuter + 1.0),
                   s.bandCentre + u * (s.bandOuter + 0.3 * s.line));
        p.setPen(withAlpha(text, 220));
        p.drawText(QRectF(at.x() - 2 * s.line, at.y() - 0.5 * s.line, 4 * s.line, s.line),
                   Qt::AlignCenter, QString::number(worker));
    }
    if (s.algorithm == Algorithm::Ring) {
        // Clockwise: an arrowhead just inside the band, past worker 0.
        const qreal r = s.bandInner - 0.5 * s.line;
        const double angle = -std::numbers::pi / 2 + 0.12;
        const QPointF tip = s.bandCentre + QPointF(r * std::cos(angle), r * std::sin(angle));
        p.setPen(Qt::NoPen);
        p.setBrush(withAlpha(text, 170));
        drawArrowhead(p, tip, QPointF(-std::sin(angle), std::cos(angle)), 0.5 * s.line);
    }
}

// One worker doing `activity`: its disc, the focus ring, its number, the activity's letter on a
// badge on the rim, its label and the empty track of its gradient bar; everything but the
// bar's fill, which drawWorkers adds.
void ClusterView::drawWorker(QPainter& p, const Scene& s, int worker, WorkerActivity activity,
                             bool focused) const {
    const auto i = static_cast<std::size_t>(worker);
    const ActivityStyle& style = s.styles[static_cast<std::size_t>(activity)];
    const QColor text = palette().color(QPalette::WindowText);
    const QPointF c = s.centres[i];
    const qreal r = discRadius(s, worker);
    const qreal line = s.line;
    if (i < s.slices.size() && !s.slices[i].isEmpty()) {
        // A slice of the band, cut from its neighbours by a hairline of the background.
        const QPainterPath& slice = s.slices[i];
        p.setPen(QPen(palette().color(QPalette::Window), 1.0));
        p.setBrush(style.colour);
        p.drawPath(slice);
        if (style.brush != Qt::SolidPattern) {
            p.setPen(Qt::NoPen);
            p.setBrush(QBrush(withAlpha(textOn(style.colour), 150), style.brush));
            p.drawPath(slice);
        }
        if (focused) {
            p.setBrush(Qt::NoBrush);
            p.setPen(QPen(palette().color(QPalette::Highlight), 2.5));
            p.drawPath(slice);
        }
        return;
    }
    drawDisc(p, c, r, style, withAlpha(text, 150));
    if (focused) {
        p.setBrush(Qt::NoBrush);
        p.setPen(QPen(palette().color(QPalette::Highlight), 2, Qt::DashLine));
        p.drawEllipse(c, r + 0.25 * line, r + 0.25 * line);
    }
    // The number inside the disc; in a dense band the parameter server, in the middle, still has
    // room for one when no slice does.
    const bool hub = r > s.radius && r >= 0.55 * line;
    if (s.numbers || hub) {
        p.setFont(s.numbers ? s.numberFont : s.symbolFont);
        p.setPen(textOn(style.colour));
        p.drawText(QRectF(c.x() - r, c.y() - r, 2 * r, 2 * r), Qt::AlignCenter,
                   QString::number(worker));
    }
    if (!s.numbers)
        return;

    if (i < s.badges.size()) {
        const qreal badge = badgeRadius(s);
        const QPointF b = s.badges[i];
        p.setPen(QPen(style.colour, std::max(1.5, 0.14 * badge)));
        p.setBrush(palette().color(QPalette::Window));
        p.drawEllipse(b, badge, badge);
        p.setFont(s.badgeFont);
        p.setPen(text);
        p.drawText(QRectF(b.x() - badge, b.y() - badge, 2 * badge, 2 * badge), Qt::AlignCenter,
                   style.symbol);
    }

    if (!s.labels)
        return;
    // The label on a pill that masks any link behind it, then the gradient bar.
    const QRectF block = s.labelRects[i];
    const qreal pillWidth = s.labelWidths[static_cast<std::size_t>(activity)] + 0.6 * line;
    const QRectF pill(leanIn(block, c, pillWidth), block.top(), pillWidth, 1.05 * line);
    p.setPen(Qt::NoPen);
    p.setBrush(withAlpha(palette().color(QPalette::Window), 215));
    p.drawRoundedRect(pill, pill.height() / 2, pill.height() / 2);
    p.setFont(font());
    p.setPen(text);
    p.drawText(pill, Qt::AlignCenter, style.label);
    drawGradientTrack(p, gradientBarIn(block, c, r, line), text);
}

// Every worker at the playhead, from its picture when `ratio` > 0 (the focused one directly, its
// ring under the badge), each followed by its gradient bar's fill.
void ClusterView::drawWorkers(QPainter& p, const Scene& s, qreal ratio) const {
    const QColor text = palette().color(QPalette::WindowText);
    const int focused = hasFocus() ? focusWorker_ : -1;
    qreal gradientScale = 0;
    for (double g : gradients_)
        gradientScale = std::max(gradientScale, std::abs(g));
    for (int k = 0; k < s.workers; ++k) {
        const auto i = static_cast<std::size_t>(k);
        if (ratio > 0 && k != focused) {
            const Sprite& picture = workerPicture(s, k, activities_[i]);
            drawPicture(p, picture.image, picture.at, ratio);
        } else {
            drawWorker(p, s, k, activities_[i], k == focused);
        }
        if (s.numbers && s.labels)
            drawGradientValue(p, gradientBarIn(s.labelRects[i], s.centres[i], s.radius, s.line),
                              gradientScale > 0 ? gradients_[i] / gradientScale : 0.0, text);
    }
}

// Messages in flight: area proportional to bytes, relative to the largest message so far.
void ClusterView::drawPackets(QPainter& p, const Scene& s) const {
    const auto [smallest, largest] = packetRadii(s);
    const QColor fill = okabe_ito::bluish_green;
    p.setPen(QPen(fill.darker(300), std::max(1.0, 0.08 * s.line)));
    p.setBrush(fill);
    for (const auto& [packet, position] : packetGlyphs()) {
        const double share =
            maxBytes_ > 0 ? static_cast<double>(packet.bytes) / static_cast<double>(maxBytes_)
                          : 1.0;
        const qreal radius = std::clamp(largest * std::sqrt(share), smallest, largest);
        p.drawEllipse(position, radius, radius);
    }
}

void ClusterView::drawLegend(QPainter& p, const Scene& s) const {
    const QColor text = palette().color(QPalette::WindowText);
    const qreal line = s.line;
    const qreal swatch = 0.62 * line;
    p.setFont(font());
    for (std::size_t i = 0; i < s.legendItems.size(); ++i) {
        const QRectF item = s.legendItems[i];
        if (i >= kActivities.size()) {
            // The gradient bar, half full.
            const QRectF bar(item.left(), item.center().y() - gradientBarHeight(line) / 2,
                             2.2 * line, gradientBarHeight(line));
            drawGradientBar(p, bar, 0.5, text);
            p.setFont(font());
            p.setPen(text);
            p.drawText(item.adjusted(2.6 * line, 0, 0, 0), Qt::AlignLeft | Qt::AlignVCenter,
                       gradientCaption());
            continue;
        }
        const ActivityStyle& style = s.styles[static_cast<std::size_t>(kActivities[i])];
        const QPointF c(item.left() + swatch, item.center().y());
        drawDisc(p, c, swatch, style, withAlpha(text, 150));
        p.setFont(s.symbolFont);
        p.setPen(textOn(style.colour));
        p.drawText(QRectF(c.x() - swatch, c.y() - swatch, 2 * swatch, 2 * swatch), Qt::AlignCenter,
                   style.symbol);
        p.setFont(font());
        p.setPen(text);
        p.drawText(item.adjusted(2 * swatch + 0.4 * line, 0, 0, 0),
                   Qt::AlignLeft | Qt::AlignVCenter, style.label);
    }
}

void ClusterView::resizeEvent(QResizeEvent* event) {
    sceneValid_ = false;
    QWidget::resizeEvent(event);
}

void ClusterView::changeEvent(QEvent* event) {
    if (event->type() == QEvent::FontChange || event->type() == QEvent::PaletteChange ||
        event->type() == QEvent::StyleChange || event->type() == QEvent::LanguageChange) {
        sceneValid_ = false;
        update();
    }
    QWidget::changeEvent(event);
}

// The keys this view uses itself, so the window's playback shortcuts leave them to it: arrows
// choose a worker; Enter, the menu key and Shift+F10 open its faults. Space stays the window's
// (play and pause).
static bool is_cluster_key(const QKeyEvent& key) {
    if (key.modifiers() & (Qt::ControlModifier | Qt::AltModifier | Qt::MetaModifier))
        return false;
    switch (key.key()) {
    case Qt::Key_Left:
    case Qt::Key_Right:
    case Qt::Key_Up:
    case Qt::Key_Down:
    case Qt::Key_Return:
    case Qt::Key_Enter:
    case Qt::Key_Menu:
        return true;
    case Qt::Key_F10:
        return key.modifiers() & Qt::ShiftModifier;
    default:
        return false;
    }
}

bool ClusterView::event(QEvent* event) {
    if (event->type() == QEvent::ShortcutOverride &&
        is_cluster_key(*static_cast<QKeyEvent*>(event)) && scene().workers > 0) {
        event->accept();
        return true;
    }
    if (event->type() == QEvent::ToolTip) {
        auto* help = static_cast<QHelpEvent*>(event);
        const int worker = workerAt(help->pos());
        if (worker < 0) {
            QToolTip::hideText();
            event->ignore();
            return true;
        }
        updateStates();
        const auto i = static_cast<std::size_t>(worker);
        QToolTip::showText(help->globalPos(),
                           tr("Worker %1: %2\nfirst gradient entry %3\nclick for faults")
                               .arg(worker)
                               .arg(style_for(activities_[i]).label)
                               .arg(gradients_[i], 0, 'g', 4),
                           this);
        return true;
    }
    return QWidget::event(event);
}

void ClusterView::mousePressEvent(QMouseEvent* event) {
    if (event->button() == Qt::LeftButton) {
        const int worker = workerAt(event->position());
        if (worker >= 0) {
            openMenu(worker, event->globalPosition().toPoint());
            event->accept();
            return;
        }
    }
    QWidget::mousePressEvent(event);
}

void ClusterView::mouseMoveEvent(QMouseEvent* event) {
    if (workerAt(event->position()) >= 0)
        setCursor(Qt::PointingHandCursor);
    else
        unsetCursor();
    QWidget::mouseMoveEvent(event);
}

void ClusterView::contextMenuEvent(QContextMenuEvent* event) {
    const Scene& s = scene();
    int worker = -1;
    QPoint at = event->globalPos();
    if (event->reason() == QContextMenuEvent::Keyboard) {
        if (focusWorker_ >= 0 && focusWorker_ < s.workers) {
            worker = focusWorker_;
            at = mapToGlobal(s.centres[static_cast<std::size_t>(worker)].toPoint());
        }
    } else {
        worker = workerAt(event->pos());
    }
    if (worker < 0) {
        event->ignore();
        return;
    }
    openMenu(worker, at);
    event->accept();
}

// Arrow keys move between workers; Enter, the menu key or Shift+F10 open the chosen one's faults
// (the menu a click opens).
void ClusterView::keyPressEvent(QKeyEvent* event) {
    const int n = scene().workers;
    if (n <= 0 || !is_cluster_key(*event)) {
        QWidget::keyPressEvent(event);
        return;
    }
    focusWorker_ = std::clamp(focusWorker_, 0, n - 1);
    switch (event->key()) {
    case Qt::Key_Left:
    case Qt::Key_Up:
        focusWorker_ = (focusWorker_ + n - 1) % n;
        break;
    case Qt::Key_Right:
    case Qt::Key_Down:
        focusWorker_ = (focusWorker_ + 1) % n;
        break;
    default: // Enter, the menu key, Shift+F10
        openMenu(focusWorker_,
                 mapToGlobal(scene().centres[static_cast<std::size_t>(focusWorker_)].toPoint()));
        break;
    }
    update();
    event->accept();
}

} // namespace lockstep::views
