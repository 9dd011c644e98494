// ClusterPainter's workers: disc or slice, badge, label, gradient bar, distance; packets.
#include "lockstep_views/cluster_painter.h"

#include "cluster_shapes.h"

#include "lockstep_views/numbers.h"

#include <QCoreApplication>
#include <QFontMetricsF>
#include <QPainter>
#include <QPainterPath>

#include <algorithm>
#include <cmath>

namespace lockstep::views {

using namespace cluster;

// One worker doing `activity`: its disc, the focus ring, its number, the activity's letter on a
// badge on the rim, its label and the empty track of its gradient bar; everything but the
// bar's fill, which gradient() adds.
void ClusterPainter::worker(QPainter& p, int worker, WorkerActivity activity, bool focused) const {
    const ClusterScene& s = s_;
    const auto i = static_cast<std::size_t>(worker);
    const ActivityStyle& style = s.styles[static_cast<std::size_t>(activity)];
    const QColor text = palette_.color(QPalette::WindowText);
    const QPointF c = s.centres[i];
    const qreal r = disc_radius(s, worker);
    const qreal line = s.line;
    if (i < s.slices.size() && !s.slices[i].isEmpty()) {
        // A slice of the band, cut from its neighbours by a hairline of the background.
        const QPainterPath& slice = s.slices[i];
        p.setPen(QPen(palette_.color(QPalette::Window), 1.0));
        p.setBrush(style.colour);
        p.drawPath(slice);
        if (style.brush != Qt::SolidPattern) {
            p.setPen(Qt::NoPen);
            p.setBrush(QBrush(withAlpha(textOn(style.colour), 150), style.brush));
            p.drawPath(slice);
        }
        if (focused) {
            p.setBrush(Qt::NoBrush);
            p.setPen(QPen(palette_.color(QPalette::Highlight), 2.5));
            p.drawPath(slice);
        }
        return;
    }
    drawDisc(p, c, r, style, high_contrast() ? text : withAlpha(text, 150));
    if (focused) {
        p.setBrush(Qt::NoBrush);
        p.setPen(QPen(palette_.color(QPalette::Highlight), 2, Qt::DashLine));
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
        const qreal badge = badge_radius(s);
        const QPointF b = s.badges[i];
        p.setPen(QPen(style.colour, std::max(1.5, 0.14 * badge)));
        p.setBrush(palette_.color(QPalette::Window));
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
    const QRectF pill(lean_in(block, c, pillWidth), block.top(), pillWidth, 1.05 * line);
    p.setPen(Qt::NoPen);
    p.setBrush(withAlpha(palette_.color(QPalette::Window), 215));
    p.drawRoundedRect(pill, pill.height() / 2, pill.height() / 2);
    p.setFont(s.font);
    p.setPen(text);
    p.drawText(pill, Qt::AlignCenter, style.label);
    drawGradientTrack(p, gradient_bar_in(block, c, r, line), text);
}

// Messages in flight: area proportional to bytes, relative to the largest message so far.
void ClusterPainter::packets(QPainter& p,
                             std::span<const std::pair<PacketInFlight, QPointF>> packets,
                             std::int64_t maxBytes) const {
    const ClusterScene& s = s_;
    // Under the messages, each link between machines that carries one now darkens with the load
    // on the network between those two machines (network_load()).
    std::vector<PacketInFlight> flying;
    for (const auto& [packet, position] : packets)
        flying.push_back(packet);
    const std::vector<double> load = network_load(s, flying);
    const QColor text = palette_.color(QPalette::WindowText);
    for (std::size_t i = 0; i < flying.size(); ++i) {
        if (load[i] <= 0.0)
            continue;
        p.setPen(QPen(withAlpha(text, static_cast<int>(60 + 170 * load[i])),
                      std::clamp(s.radius / 4.0, 2.0, 5.0), Qt::SolidLine, Qt::RoundCap));
        p.drawLine(link_point(s, flying[i].src, flying[i].dst, 0.0),
                   link_point(s, flying[i].src, flying[i].dst, 1.0));
    }
    const auto [smallest, largest] = packet_radii(s);
    const QColor fill = okabe_ito::bluish_green;
    p.setPen(QPen(fill.darker(300), std::max(1.0, 0.08 * s.line)));
    p.setBrush(fill);
    for (const auto& [packet, position] : packets) {
        const double share =
            maxBytes > 0 ? static_cast<double>(packet.bytes) / static_cast<double>(maxBytes) : 1.0;
        const qreal radius = std::clamp(largest * std::sqrt(share), smallest, largest);
        p.drawEllipse(position, radius, radius);
    }
    // With gradient buckets, which bucket each packet carries ("b2"), where it has room: a name
    // that would cover a worker's number or another packet's name is left out (the workers crowd
    // together in a small view, and their packets with them).
    p.setFont(s.font);
    const QFontMetricsF metrics(s.font);
    std::vector<QRectF> named;
    auto has_room = [&](const QRectF& box) {
        for (const QRectF& other : named)
            if (box.intersects(other))
                return false;
        for (std::size_t w = 0; w < s.centres.size(); ++w) {
            const qreal r = 0.6 * disc_radius(s, static_cast<int>(w)); // its number
            if (box.intersects(QRectF(s.centres[w] - QPointF(r, r), QSizeF(2 * r, 2 * r))))
                return false;
        }
        return true;
    };
    for (const auto& [packet, position] : packets) {
        if (packet.bucket < 0)
            continue;
        const QString name =
            QCoreApplication::translate("lockstep::views::TimelineView", "b%1",
                                        "a bucket's number where its name does not fit")
                .arg(packet.bucket);
        const QRectF box(position.x() - metrics.horizontalAdvance(name) / 2 - 2,
                         position.y() - largest - metrics.height(),
                         metrics.horizontalAdvance(name) + 4, metrics.height());
        if (!has_room(box))
            continue;
        named.push_back(box);
        p.setPen(Qt::NoPen);
        p.setBrush(withAlpha(palette_.color(QPalette::Window), 215));
        p.drawRoundedRect(box, box.height() / 3, box.height() / 3);
        p.setPen(fill.darker(300));
        p.drawText(box, Qt::AlignCenter, name);
        p.setBrush(fill);
        p.setPen(QPen(fill.darker(300), std::max(1.0, 0.08 * s.line)));
    }
}

void ClusterPainter::distance(QPainter& p, int worker, double distance, double share) const {
    const ClusterScene& s = s_;
    const auto i = static_cast<std::size_t>(worker);
    if (!s.numbers || !s.labels || i >= s.centres.size())
        return;
    const QPointF c = s.centres[i];
    const qreal r = disc_radius(s, worker);
    const QString words = QStringLiteral("Δ %1").arg(display_number(distance, 'g', 2));
    const QFontMetricsF metrics(s.font);
    const qreal width = metrics.horizontalAdvance(words) + 0.6 * s.line;
    const qreal height = metrics.height() + 0.2 * s.line;
    // Left of the disc, level with the badge on its right.
    const QRectF tag(c.x() - r - 0.2 * s.line - width, c.y() - 0.75 * r - height / 2, width,
                     height);
    const QColor colour = okabe_ito::vermillion;
    p.setPen(QPen(colour, 1.25));
    p.setBrush(withAlpha(colour, static_cast<int>(30 + 110 * std::clamp(share, 0.0, 1.0))));
    p.drawRoundedRect(tag, height / 2, height / 2);
    p.setFont(s.font);
    p.setPen(palette_.color(QPalette::WindowText));
    p.drawText(tag, Qt::AlignCenter, words);
}

void ClusterPainter::distanceCaption(QPainter& p) const {
    const ClusterScene& s = s_;
    const QRectF row(s.header.left(), s.header.bottom() + 0.2 * s.line, s.header.width(),
                     1.2 * s.line);
    p.setFont(s.font);
    p.setPen(palette_.color(QPalette::WindowText));
    p.drawText(row, Qt::AlignRight | Qt::AlignVCenter,
               QCoreApplication::translate("ClusterView",
                                           "Δ: how far each replica is from the replicas' mean"));
}

void ClusterPainter::gradient(QPainter& p, int worker, double share) const {
    const auto i = static_cast<std::size_t>(worker);
    if (s_.numbers && s_.labels && i < s_.labelRects.size())
        drawGradientValue(p, gradient_bar_in(s_.labelRects[i], s_.centres[i], s_.radius, s_.line),
                          share, palette_.color(QPalette::WindowText));
}

} // namespace lockstep::views
