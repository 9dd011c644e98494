#pragma once

#include "clocks/clock.h"

#include <QRectF>
#include <QString>

class QColor;
class QFont;
class QPainter;

// The timeline's time axis: how times are written, where the ticks go, and the axis drawn.
namespace lockstep::views::timeline {

// Seconds written out to the nanosecond: six decimals when they are exact, nine otherwise.
QString exact_seconds(Ticks t);

// A unit for time labels: its name and size in ticks.
struct TimeUnit {
    QString name;
    double ticks;
};
TimeUnit unit_for(double magnitude);

// A short human reading of a duration ("12.5 s", "350 ms"), for the accessible description.
QString concise(Ticks t);

// Tick spacing and label format for a time axis: 1, 2 or 5 times a power of ten.
struct AxisScale {
    double step = 1e9; // ticks between labels
    TimeUnit unit{QStringLiteral("s"), 1e9};
    int decimals = 0;

    QString label(double t, int extra = 0) const {
        return QString::number(t / unit.ticks, 'f', decimals + extra) + QLatin1Char(' ') +
               unit.name;
    }
};
AxisScale axis_scale(Ticks from, Ticks to, double width, double min_spacing);

// Draws `text` from `x`, centred vertically on `cy`. Placing by baseline skips the text layout
// pass that rectangle-aligned text costs, which matters with dozens of labels per frame.
void draw_label(QPainter& painter, double x, double cy, const QString& text, double ascent,
                double descent);

// What the axis under the lanes shows: times `from` to `to` across `rect` (the lanes' width),
// labels at least `tick_spacing` apart, within a widget `width` wide.
struct TimeAxis {
    QRectF rect;
    Ticks from = 0;
    Ticks to = 1;
    double tick_spacing = 0.0;
    double ascent = 0.0;
    double descent = 0.0;
    double width = 0.0;
};
// The baseline, a tick at every step of the scale and the labels that fit; a label gives way to
// `keep_clear` (the playhead's own label), when valid.
void paint_time_axis(QPainter& painter, const QFont& font, const QColor& text, const TimeAxis& axis,
                     const QRectF& keep_clear);

} // namespace lockstep::views::timeline
