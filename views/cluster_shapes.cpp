// The shapes the cluster is drawn with: a worker's disc, the gradient bar, an arrowhead.
#include "cluster_shapes.h"

#include <QPainter>
#include <QPainterPath>

#include <algorithm>
#include <cmath>

namespace lockstep::views::cluster {

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

void drawGradientTrack(QPainter& p, const QRectF& bar, const QColor& text) {
    const qreal h = bar.height();
    p.setPen(Qt::NoPen);
    p.setBrush(withAlpha(text, 45));
    p.drawRoundedRect(bar, h / 2, h / 2);
}

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

void drawArrowhead(QPainter& p, QPointF tip, QPointF direction, qreal size) {
    const QPointF normal(-direction.y(), direction.x());
    const QPointF base = tip - direction * size;
    const QPointF head[3] = {tip, base + normal * (size * 0.5), base - normal * (size * 0.5)};
    p.drawPolygon(head, 3);
}

} // namespace lockstep::views::cluster
