#include "lockstep_views/chart_style.h"

#include <QAbstractAxis>
#include <QChart>
#include <QChartView>
#include <QGraphicsLayout>
#include <QPainter>
#include <QPainterPath>
#include <QPalette>
#include <QPolygonF>
#include <QValueAxis>

#include <algorithm>
#include <cmath>
#include <limits>

namespace lockstep::views {

MarkerShape marker_for(int index) {
    static constexpr MarkerShape shapes[] = {MarkerShape::Circle,           MarkerShape::Square,
                                             MarkerShape::Triangle,         MarkerShape::Diamond,
                                             MarkerShape::InvertedTriangle, MarkerShape::Cross};
    const int n = static_cast<int>(std::size(shapes));
    return shapes[((index % n) + n) % n];
}

void draw_marker(QPainter& painter, MarkerShape shape, QPointF centre, qreal size,
                 const QColor& fill, const QPen& outline) {
    const qreal r = size / 2.0;
    painter.save();
    painter.setRenderHint(QPainter::Antialiasing);
    painter.setPen(outline);
    painter.setBrush(fill);
    switch (shape) {
    case MarkerShape::None:
        break;
    case MarkerShape::Circle:
        painter.drawEllipse(centre, r, r);
        break;
    case MarkerShape::Square: {
        const qreal s = r * 0.88; // same visual weight as the circle
        painter.drawRect(QRectF(centre.x() - s, centre.y() - s, 2 * s, 2 * s));
        break;
    }
    case MarkerShape::Triangle:
        painter.drawPolygon(QPolygonF{{centre.x(), centre.y() - r * 1.05},
                                      {centre.x() + r * 1.05, centre.y() + r * 0.8},
                                      {centre.x() - r * 1.05, centre.y() + r * 0.8}});
        break;
    case MarkerShape::InvertedTriangle:
        painter.drawPolygon(QPolygonF{{centre.x(), centre.y() + r * 1.05},
                                      {centre.x() + r * 1.05, centre.y() - r * 0.8},
                                      {centre.x() - r * 1.05, centre.y() - r * 0.8}});
        break;
    case MarkerShape::Diamond:
        painter.drawPolygon(QPolygonF{{centre.x(), centre.y() - r * 1.1},
                                      {centre.x() + r * 1.1, centre.y()},
                                      {centre.x(), centre.y() + r * 1.1},
                                      {centre.x() - r * 1.1, centre.y()}});
        break;
    case MarkerShape::Cross: {
        // A plus sign with a filled body, so it reads as a shape rather than two strokes.
        const qreal a = r * 0.38;
        QPainterPath path;
        path.addRect(QRectF(centre.x() - r, centre.y() - a, 2 * r, 2 * a));
        path.addRect(QRectF(centre.x() - a, centre.y() - r, 2 * a, 2 * r));
        painter.drawPath(path.simplified());
        break;
    }
    }
    painter.restore();
}

QImage marker_image(MarkerShape shape, const QColor& fill, const QColor& outline, int size) {
    const int side = 2 * size;
    QImage image(side, side, QImage::Format_ARGB32_Premultiplied);
    image.fill(Qt::transparent);
    QPainter painter(&image);
    QPen pen(outline, std::max(2.0, side / 9.0));
    pen.setJoinStyle(Qt::RoundJoin);
    draw_marker(painter, shape, QPointF(side / 2.0, side / 2.0), side - pen.widthF() - 1, fill,
                pen);
    return image;
}

bool is_dark(const QPalette& palette) {
    return palette.color(QPalette::Window).lightnessF() < 0.5;
}

QColor mix(const QColor& a, const QColor& b, double t) {
    const QColor x = a.toRgb();
    const QColor y = b.toRgb();
    auto lerp = [t](float p, float q) { return static_cast<float>(p + (q - p) * t); };
    return QColor::fromRgbF(lerp(x.redF(), y.redF()), lerp(x.greenF(), y.greenF()),
                            lerp(x.blueF(), y.blueF()), lerp(x.alphaF(), y.alphaF()));
}

void style_axis(QAbstractAxis& axis, const QPalette& palette, const QFont& font) {
    const QColor text = palette.color(QPalette::WindowText);
    const QColor window = palette.color(QPalette::Window);
    axis.setLabelsFont(font);
    axis.setLabelsBrush(text);
    axis.setTitleFont(font);
    axis.setTitleBrush(text);
    axis.setLinePen(QPen(mix(window, text, 0.55), 1.5));
    axis.setGridLinePen(QPen(mix(window, text, 0.16), 1.0));
    axis.setShadesVisible(false);
    axis.setMinorGridLineVisible(false);
}

void style_chart(QChart& chart, QChartView& view, const QPalette& palette, const QFont& font) {
    chart.setTheme(is_dark(palette) ? QChart::ChartThemeDark : QChart::ChartThemeLight);
    const QColor window = palette.color(QPalette::Window);
    chart.setBackgroundBrush(window);
    chart.setBackgroundPen(Qt::NoPen);
    chart.setBackgroundRoundness(0);
    chart.setDropShadowEnabled(false);
    chart.setPlotAreaBackgroundVisible(false);
    QFont title = font;
    title.setBold(true);
    chart.setTitleFont(title);
    chart.setTitleBrush(palette.color(QPalette::WindowText));
    chart.legend()->hide();
    chart.setAnimationOptions(QChart::NoAnimation);
    chart.setMargins(QMargins(6, 6, 6, 6));
    chart.layout()->setContentsMargins(0, 0, 0, 0);
    const auto axes = chart.axes();
    for (QAbstractAxis* axis : axes)
        style_axis(*axis, palette, font);
    view.setBackgroundBrush(window);
    view.setRenderHint(QPainter::Antialiasing);
    view.setFrameShape(QFrame::NoFrame);
}

SeriesLegend::SeriesLegend(QWidget* parent)
    : QWidget(parent) {
    setSizePolicy(QSizePolicy::Preferred, QSizePolicy::Minimum);
}

void SeriesLegend::setEntries(QList<LegendEntry> entries) {
    entries_ = std::move(entries);
    fitHeight();
    updateGeometry();
    update();
}

// Box layouts do not ask a widget's height for its width, so the legend asks for the rows it
// needs at its current width itself.
void SeriesLegend::fitHeight() {
    const int needed = heightForWidth(std::max(1, width()));
    if (minimumHeight() != needed)
        setMinimumHeight(needed);
}

void SeriesLegend::resizeEvent(QResizeEvent* event) {
    QWidget::resizeEvent(event);
    fitHeight();
}

int SeriesLegend::sampleWidth(const LegendEntry& entry) const {
    // A line needs length to show its dashes; a marker alone only its own width.
    return entry.pen.style() == Qt::NoPen ? fontMetrics().height() : fontMetrics().height() * 3;
}

int SeriesLegend::rowHeight() const {
    return fontMetrics().height() + fontMetrics().height() / 2;
}

// Where each entry goes at `width`: samples and labels flow left to right, wrapping as needed.
QList<QRect> SeriesLegend::entryRects(int width) const {
    QList<QRect> rects;
    const QFontMetrics fm = fontMetrics();
    const int gap = fm.height(); // between entries
    const int row = rowHeight();
    int x = 0;
    int y = 0;
    for (const LegendEntry& entry : entries_) {
        const int w = sampleWidth(entry) + fm.height() / 2 + fm.horizontalAdvance(entry.label);
        if (x > 0 && x + w > width) {
            x = 0;
            y += row;
        }
        rects.push_back(QRect(x, y, w, row));
        x += w + gap;
    }
    return rects;
}

int SeriesLegend::heightForWidth(int width) const {
    const auto rects = entryRects(width);
    return rects.isEmpty() ? 0 : rects.back().bottom() + 1;
}

QSize SeriesLegend::sizeHint() const {
    const auto rects = entryRects(std::numeric_limits<int>::max() / 2);
    return QSize(rects.isEmpty() ? 0 : rects.back().right() + 1, rects.isEmpty() ? 0 : rowHeight());
}

QSize SeriesLegend::minimumSizeHint() const {
    return QSize(fontMetrics().height() * 6, heightForWidth(std::max(1, width())));
}

void SeriesLegend::paintEvent(QPaintEvent*) {
    QPainter painter(this);
    painter.setRenderHint(QPainter::Antialiasing);
    const QFontMetrics fm = fontMetrics();
    const auto rects = entryRects(width());
    const int markerSize = fm.height() * 3 / 4;
    for (qsizetype i = 0; i < entries_.size(); ++i) {
        const LegendEntry& entry = entries_[i];
        const QRect r = rects[i];
        const int cy = r.center().y();
        const int sample_width = sampleWidth(entry);
        const QLineF sample(r.left() + 2, cy, r.left() + sample_width - 2, cy);
        if (entry.pen.style() != Qt::NoPen) {
            QPen pen = entry.pen;
            pen.setCapStyle(Qt::FlatCap);
            painter.setPen(pen);
            painter.drawLine(sample);
        }
        if (entry.marker != MarkerShape::None)
            draw_marker(painter, entry.marker, sample.center(), markerSize, entry.marker_fill,
                        QPen(palette().color(QPalette::WindowText), 1.5));
        painter.setPen(palette().color(QPalette::WindowText));
        const QRect text(r.left() + sample_width + fm.height() / 2, r.top(),
                         r.width() - sample_width - fm.height() / 2, r.height());
        painter.drawText(text, Qt::AlignLeft | Qt::AlignVCenter, entry.label);
    }
}

} // namespace lockstep::views
