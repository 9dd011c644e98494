// ClusterPainter's still picture (links, band, legend), title and verdict; the topologies' names.
#include "lockstep_views/cluster_painter.h"

#include "cluster_shapes.h"

#include "lockstep_views/numbers.h"

#include <QCoreApplication>
#include <QFontMetricsF>
#include <QPainter>
#include <QPainterPathStroker>

#include <algorithm>
#include <cmath>
#include <numbers>

namespace lockstep::views {

using namespace cluster;

namespace {

QString long_topology_name(Algorithm algorithm) {
    switch (algorithm) {
    case Algorithm::Ring:
        return QCoreApplication::translate("ClusterView", "ring all-reduce");
    case Algorithm::ParameterServer:
        return QCoreApplication::translate("ClusterView", "parameter server (worker 0)");
    case Algorithm::Tree:
        return QCoreApplication::translate("ClusterView", "binary-tree all-reduce");
    case Algorithm::Hierarchical:
        return QCoreApplication::translate(
            "ClusterView", "hierarchical all-reduce (inside machines, then across)");
    case Algorithm::None:
        break;
    }
    return QCoreApplication::translate("ClusterView", "no synchronisation");
}

QString short_topology_name(Algorithm algorithm) {
    switch (algorithm) {
    case Algorithm::Ring:
        return QCoreApplication::translate("ClusterView", "ring");
    case Algorithm::ParameterServer:
        return QCoreApplication::translate("ClusterView", "parameter server");
    case Algorithm::Tree:
        return QCoreApplication::translate("ClusterView", "tree");
    case Algorithm::Hierarchical:
        return QCoreApplication::translate("ClusterView", "hierarchical");
    case Algorithm::None:
        break;
    }
    return QCoreApplication::translate("ClusterView", "no synchronisation");
}

} // namespace

QString topology_name(Algorithm algorithm, bool brief) {
    return brief ? short_topology_name(algorithm) : long_topology_name(algorithm);
}

QString worker_count(int n) {
    return n == 1 ? QCoreApplication::translate("ClusterView", "1 worker")
                  : QCoreApplication::translate("ClusterView", "%1 workers").arg(n);
}

ClusterPainter::ClusterPainter(const ClusterScene& scene, const QPalette& palette)
    : s_(scene)
    , palette_(palette) {}

// What stays put while the playhead moves: the background, the subtitle (the bare title without
// a trace), the links and the legend.
void ClusterPainter::still(QPainter& p, bool hasTrace) const {
    const ClusterScene& s = s_;
    const QColor text = palette_.color(QPalette::WindowText);
    p.fillRect(QRectF(QPointF(0, 0), QSizeF(s.size)), palette_.window());
    if (hasTrace) {
        p.setFont(s.font);
        p.setPen(withAlpha(text, 190));
        p.drawText(s.subtitle, Qt::AlignLeft | Qt::AlignVCenter,
                   worker_count(s.workers) + QStringLiteral(" · ") +
                       (s.topology.isEmpty() ? topology_name(s.algorithm) : s.topology) +
                       (s.wire.isEmpty() ? QString() : QStringLiteral(" · ") + s.wire));
    } else {
        p.setPen(text);
        p.setFont(s.titleFont);
        p.drawText(s.title, Qt::AlignLeft | Qt::AlignVCenter,
                   QCoreApplication::translate("ClusterView", "Cluster"));
    }
    if (s.workers == 0) {
        p.setPen(withAlpha(text, 170));
        p.setFont(s.emptyFont);
        p.drawText(s.area, Qt::AlignCenter,
                   QCoreApplication::translate("ClusterView", "No run loaded"));
    } else {
        machines(p);
        links(p);
        bandTicks(p);
    }
    legend(p);
}

// "step S · t = X.XXX s", and in a sharded run the half of the all-reduce under way:
// "step S · t = X.XXX s · all-gather of layer 2".
void ClusterPainter::title(QPainter& p, std::int64_t step, Ticks t, const QString& phase) const {
    const ClusterScene& s = s_;
    p.setPen(palette_.color(QPalette::WindowText));
    p.setFont(s.titleFont);
    QString text = QCoreApplication::translate("ClusterView", "step %1 · t = %2 s")
                       .arg(step)
                       .arg(display_number(to_seconds(t), 'f', 3));
    if (!phase.isEmpty())
        text += QStringLiteral(" · ") + phase;
    p.drawText(s.title, Qt::AlignLeft | Qt::AlignVCenter,
               QFontMetricsF(s.titleFont).elidedText(text, Qt::ElideRight, s.title.width()));
}

// Whether the replicas agree, on the right of the header (see verdict()).
void ClusterPainter::verdict(QPainter& p, int verdict) const {
    const ClusterScene& s = s_;
    if (!s.replicas)
        return; // each worker holds its own part of the model: nothing to be aligned
    const QColor text = palette_.color(QPalette::WindowText);
    if (verdict == 0) {
        p.setFont(s.font);
        p.setPen(withAlpha(text, 170));
        if (s.verdictRow.isEmpty())
            p.drawText(s.header, Qt::AlignRight | Qt::AlignVCenter,
                       QCoreApplication::translate("ClusterView", "no step finished yet"));
        else
            p.drawText(s.verdictRow, Qt::AlignLeft | Qt::AlignVCenter,
                       QCoreApplication::translate("ClusterView", "no step finished yet"));
        return;
    }
    // A chip: tinted box, a check or a cross in a disc, and the verdict in words.
    const bool aligned = verdict == 1;
    const QFontMetricsF chip(s.chipFont);
    const QColor colour = aligned ? okabe_ito::bluish_green : okabe_ito::vermillion;
    const QString words = aligned ? QCoreApplication::translate("ClusterView", "replicas aligned")
                                  : QCoreApplication::translate("ClusterView", "replicas differ");
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
void ClusterPainter::links(QPainter& p) const {
    const ClusterScene& s = s_;
    if (s.dense && s.algorithm == Algorithm::Ring)
        return; // neighbours touch: the band is the ring
    const QColor text = palette_.color(QPalette::WindowText);
    // Fainter when there are many, so a busy hub stays readable.
    const int alpha = std::clamp(
        static_cast<int>(95 * std::sqrt(32.0 / std::max<std::size_t>(s.links.size(), 1))), 40, 95);
    const QColor colour = withAlpha(text, alpha);
    const QPen pen(colour, std::clamp(s.radius / 12.0, 1.0, 2.5), Qt::SolidLine, Qt::FlatCap);
    p.setPen(pen);
    p.setBrush(colour);
    const bool arrows = s.algorithm == Algorithm::Ring && s.columns == 0 && s.radius >= 5.0;
    const qreal head = std::clamp(0.35 * s.radius, 5.0, 0.7 * s.line);
    // A link between two machines is the slow network: drawn twice as thick, dashed and darker.
    const QColor network = withAlpha(text, 220);
    const QPen slow(network, 2.0 * pen.widthF(), Qt::DashLine, Qt::FlatCap);
    for (const auto& [src, dst] : s.links) {
        const QPointF from = link_point(s, src, dst, 0.0);
        const QPointF to = link_point(s, src, dst, 1.0);
        const QPointF d = to - from;
        const qreal length = std::hypot(d.x(), d.y());
        if (length < 1.0)
            continue;
        const bool across = s.between_machines(src, dst);
        p.setPen(across ? slow : pen);
        p.setBrush(across ? network : colour);
        const QPointF u = d / length;
        const QPointF tip = to - u * (arrows ? 0.15 * s.line : 0.0);
        p.drawLine(from, arrows ? tip - u * head : to);
        if (arrows) {
            p.setPen(Qt::NoPen);
            drawArrowhead(p, tip, u, head);
        }
    }
}

// Each machine: a tinted, dashed outline round its workers (a band through their centres in
// worker order). The subtitle says how many machines of how many workers.
void ClusterPainter::machines(QPainter& p) const {
    const ClusterScene& s = s_;
    if (s.machine_of.empty())
        return;
    const QColor text = palette_.color(QPalette::WindowText);
    QPainterPathStroker stroker;
    stroker.setWidth(2.0 * s.radius + 0.9 * s.line);
    stroker.setCapStyle(Qt::RoundCap);
    stroker.setJoinStyle(Qt::RoundJoin);
    p.setPen(QPen(withAlpha(text, 110), 1.2, Qt::DashLine));
    p.setBrush(withAlpha(text, 18));
    for (int m = 0; m < s.machines; ++m) {
        QPainterPath through;
        for (int w = 0; w < s.workers; ++w) {
            if (s.machine_of[static_cast<std::size_t>(w)] != m)
                continue;
            const QPointF c = s.centres[static_cast<std::size_t>(w)];
            if (through.isEmpty()) {
                through.moveTo(c);
                through.lineTo(c + QPointF(0.01, 0.0)); // one worker alone: a round blob
            } else {
                through.lineTo(c);
            }
        }
        if (!through.isEmpty())
            p.drawPath(stroker.createStroke(through).simplified());
    }
}

// In the dense layout: every few workers' numbers outside the band, each with a tick, and an
// arrow at the top for the ring's direction.
void ClusterPainter::bandTicks(QPainter& p) const {
    const ClusterScene& s = s_;
    if (!s.dense)
        return;
    const QColor text = palette_.color(QPalette::WindowText);
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

void ClusterPainter::legend(QPainter& p) const {
    const ClusterScene& s = s_;
    const QColor text = palette_.color(QPalette::WindowText);
    const qreal line = s.line;
    const qreal swatch = 0.62 * line;
    p.setFont(s.font);
    for (std::size_t i = 0; i < s.legendItems.size(); ++i) {
        const QRectF item = s.legendItems[i];
        if (i >= kActivities.size()) {
            // The gradient bar, half full.
            const QRectF bar(item.left(), item.center().y() - gradient_bar_height(line) / 2,
                             2.2 * line, gradient_bar_height(line));
            drawGradientBar(p, bar, 0.5, text);
            p.setFont(s.font);
            p.setPen(text);
            p.drawText(item.adjusted(2.6 * line, 0, 0, 0), Qt::AlignLeft | Qt::AlignVCenter,
                       gradient_caption());
            continue;
        }
        const ActivityStyle& style = s.styles[static_cast<std::size_t>(kActivities[i])];
        const QPointF c(item.left() + swatch, item.center().y());
        drawDisc(p, c, swatch, style, high_contrast() ? text : withAlpha(text, 150));
        p.setFont(s.symbolFont);
        p.setPen(textOn(style.colour));
        p.drawText(QRectF(c.x() - swatch, c.y() - swatch, 2 * swatch, 2 * swatch), Qt::AlignCenter,
                   style.symbol);
        p.setFont(s.font);
        p.setPen(text);
        p.drawText(item.adjusted(2 * swatch + 0.4 * line, 0, 0, 0),
                   Qt::AlignLeft | Qt::AlignVCenter, style.label);
    }
}

} // namespace lockstep::views
