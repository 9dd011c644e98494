// The Memory view's painting: heading, legend, scale, the workers' stacked columns and the
// unsharded outline behind them.
#include "lockstep_views/memory_view.h"

#include "lockstep_views/palette.h"

#include <QFontMetricsF>
#include <QPainter>
#include <QPainterPath>

#include <algorithm>
#include <cmath>

namespace lockstep::views {

namespace {

// Each kind's colour and pattern: colour is never the only cue (the legend and the figures in
// the segments name them too).
struct KindStyle {
    QColor colour;
    Qt::BrushStyle pattern; // drawn over the colour; Qt::NoBrush for none
};

KindStyle kind_style(MemoryKind kind) {
    switch (kind) {
    case MemoryKind::Parameters:
        return {okabe_ito::blue, Qt::NoBrush};
    case MemoryKind::Gradients:
        return {okabe_ito::orange, Qt::BDiagPattern};
    case MemoryKind::Optimizer:
        return {okabe_ito::reddish_purple, Qt::DiagCrossPattern};
    case MemoryKind::Activations:
        return {okabe_ito::sky_blue, Qt::Dense6Pattern};
    case MemoryKind::Workspace:
        return {okabe_ito::grey, Qt::HorPattern};
    }
    return {okabe_ito::grey, Qt::NoBrush};
}

void fill_kind(QPainter& p, const QRectF& r, MemoryKind kind, const QColor& background) {
    const KindStyle style = kind_style(kind);
    p.setPen(Qt::NoPen);
    p.setBrush(style.colour);
    p.drawRect(r);
    if (style.pattern != Qt::NoBrush) {
        QBrush overlay(withAlpha(textOn(style.colour), 70), style.pattern);
        p.setBrush(overlay);
        p.drawRect(r);
    }
    p.setPen(QPen(outline_for(style.colour, background), high_contrast() ? 2.0 : 1.0));
    p.setBrush(Qt::NoBrush);
    p.drawRect(r);
}

// A round step for the scale: 1, 2 or 5 times a power of ten, about four to a scale.
double nice_step(double top) {
    const double raw = top / 4.0;
    const double power = std::pow(10.0, std::floor(std::log10(std::max(raw, 1.0))));
    for (double m : {1.0, 2.0, 5.0})
        if (m * power >= raw)
            return m * power;
    return 10.0 * power;
}

} // namespace

void MemoryView::paintEvent(QPaintEvent*) {
    QPainter p(this);
    p.setRenderHints(QPainter::Antialiasing | QPainter::TextAntialiasing);
    const QColor background = palette().color(QPalette::Window);
    const QColor text = palette().color(QPalette::WindowText);
    p.fillRect(rect(), background);
    const Layout l = layout();
    QFont bold = viewFont();
    bold.setBold(true);
    bold.setPointSizeF(bold.pointSizeF() * 1.1);
    p.setFont(bold);
    p.setPen(text);
    const auto step = index_ ? index_->step_at(playhead_) : std::nullopt;
    p.drawText(l.title, Qt::AlignLeft | Qt::AlignVCenter,
               step ? tr("Memory per worker · step %1").arg(step->step) : tr("Memory per worker"));
    p.setFont(viewFont());
    p.setPen(withAlpha(text, 190));
    p.drawText(
        l.subtitle, Qt::AlignLeft | Qt::AlignVCenter,
        QFontMetricsF(viewFont()).elidedText(subtitle(), Qt::ElideRight, l.subtitle.width()));
    const QString empty = emptyText();
    if (!empty.isEmpty()) {
        p.setPen(withAlpha(text, 200));
        const QRectF body(l.title.left(), l.legend.top() + l.line,
                          std::min(l.title.width(), l.line * 34.0), height());
        p.drawText(body, Qt::TextWordWrap | Qt::AlignLeft | Qt::AlignTop, empty);
        return;
    }
    paintLegend(p, l);
    paintAxis(p, l);
    paintOutline(p, l);
    paintColumns(p, l);
    p.setFont(viewFont());
    p.setPen(text);
    p.drawText(l.caption, Qt::TextWordWrap | Qt::AlignLeft | Qt::AlignTop, caption());
}

void MemoryView::paintLegend(QPainter& p, const Layout& l) const {
    const QColor background = palette().color(QPalette::Window);
    const QFontMetricsF fm(viewFont());
    const double swatch = l.line * 0.9;
    double x = l.legend.left(), y = l.legend.top();
    for (int i = 0; i < kMemoryKindCount; ++i) {
        const auto kind = static_cast<MemoryKind>(i);
        const QString name = kindName(kind);
        const double w = swatch + l.line * 0.4 + fm.horizontalAdvance(name) + l.line * 0.9;
        if (x > l.legend.left() && x + w > l.legend.right()) {
            x = l.legend.left();
            y += l.line * 1.4;
        }
        const QRectF box(x, y + (l.line * 1.4 - swatch) / 2, swatch, swatch);
        fill_kind(p, box, kind, background);
        p.setPen(palette().color(QPalette::WindowText));
        p.drawText(QRectF(box.right() + l.line * 0.4, y, w, l.line * 1.4),
                   Qt::AlignLeft | Qt::AlignVCenter, name);
        x += w;
    }
    if (!unsharded_ || sharding_ == Sharding::None)
        return;
    y += l.line * 1.4;
    const QRectF box(l.legend.left(), y + (l.line * 1.4 - swatch) / 2, swatch, swatch);
    p.setPen(QPen(palette().color(QPalette::WindowText), 1.5, Qt::DashLine));
    p.setBrush(Qt::NoBrush);
    p.drawRect(box);
    p.drawText(
        QRectF(box.right() + l.line * 0.4, y, l.legend.width(), l.line * 1.4),
        Qt::AlignLeft | Qt::AlignVCenter,
        tr("the same worker without sharding, at its peak: %1").arg(bytesText(unsharded_->peak)));
}

void MemoryView::paintAxis(QPainter& p, const Layout& l) const {
    const QColor text = palette().color(QPalette::WindowText);
    QFont small = viewFont();
    small.setPointSizeF(small.pointSizeF() * 0.85);
    p.setFont(small);
    const QFontMetricsF fm(small);
    const double top = static_cast<double>(scaleBytes());
    const double step = nice_step(top);
    for (double b = 0; b <= top + 0.5; b += step) {
        const double y = std::round(yFor(l, static_cast<std::int64_t>(b))) + 0.5;
        p.setPen(QPen(withAlpha(text, b == 0 ? 160 : 40), 1));
        p.drawLine(QPointF(l.plot.left(), y), QPointF(l.plot.right(), y));
        p.setPen(withAlpha(text, 190));
        p.drawText(
            QRectF(l.axis.left(), y - fm.height() / 2, l.axis.width() - l.line * 0.4, fm.height()),
            Qt::AlignRight | Qt::AlignVCenter, bytesText(static_cast<std::int64_t>(b)));
    }
}

void MemoryView::paintOutline(QPainter& p, const Layout& l) const {
    if (!unsharded_ || sharding_ == Sharding::None)
        return;
    const QColor text = palette().color(QPalette::WindowText);
    p.setPen(QPen(withAlpha(text, high_contrast() ? 220 : 140), 1.5, Qt::DashLine));
    p.setBrush(withAlpha(text, 12));
    const double top = yFor(l, unsharded_->peak);
    for (const MemoryColumn& c : columns_) {
        const QRectF column = columnRect(c.worker);
        p.drawRect(QRectF(column.left() - 3, top, column.width() + 6, l.plot.bottom() - top));
    }
}

void MemoryView::paintColumns(QPainter& p, const Layout& l) const {
    const QColor background = palette().color(QPalette::Window);
    const QColor text = palette().color(QPalette::WindowText);
    QFont small = viewFont();
    small.setPointSizeF(small.pointSizeF() * 0.85);
    const QFontMetricsF fm(small);
    for (const MemoryColumn& c : columns_) {
        const QRectF column = columnRect(c.worker);
        p.setFont(viewFont());
        p.setPen(text);
        p.drawText(
            QRectF(column.center().x() - l.pitch / 2, l.names.top(), l.pitch, l.names.height()),
            Qt::AlignHCenter | Qt::AlignVCenter, tr("worker %1").arg(c.worker));
        if (!c.known)
            continue;
        p.setFont(small);
        for (int i = 0; i < kMemoryKindCount; ++i) {
            const auto kind = static_cast<MemoryKind>(i);
            if (bytesOf(c.held, kind) <= 0)
                continue;
            const QRectF r = segmentRect(c.worker, kind);
            fill_kind(p, r, kind, background);
            const QString figure = bytesText(bytesOf(c.held, kind));
            if (r.height() >= fm.height() * 1.05 && r.width() >= fm.horizontalAdvance(figure) + 6) {
                // On a pill of the segment's colour, so the pattern does not cross the figure.
                const QColor colour = kind_style(kind).colour;
                const QRectF pill(r.center().x() - fm.horizontalAdvance(figure) / 2 - 3,
                                  r.center().y() - fm.height() / 2,
                                  fm.horizontalAdvance(figure) + 6, fm.height());
                p.setPen(Qt::NoPen);
                p.setBrush(colour);
                p.drawRoundedRect(pill, 3, 3);
                p.setPen(textOn(colour));
                p.drawText(pill, Qt::AlignCenter, figure);
            }
        }
        const double top = yFor(l, c.held.total());
        p.setPen(text);
        p.drawText(
            QRectF(column.center().x() - l.pitch / 2, top - l.line * 1.25, l.pitch, l.line * 1.2),
            Qt::AlignHCenter | Qt::AlignBottom, bytesText(c.held.total()));
    }
}

} // namespace lockstep::views
