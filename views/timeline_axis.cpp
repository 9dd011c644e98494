#include "lockstep_views/timeline_axis.h"

#include "lockstep_views/numbers.h"

#include <QColor>
#include <QFont>
#include <QFontMetricsF>
#include <QPainter>

#include <algorithm>
#include <cmath>
#include <cstdint>

namespace lockstep::views::timeline {

QString exact_seconds(Ticks t) {
    const bool negative = t < 0;
    const auto magnitude = static_cast<std::uint64_t>(negative ? -t : t);
    const auto whole = magnitude / static_cast<std::uint64_t>(kTicksPerSecond);
    const auto frac = magnitude % static_cast<std::uint64_t>(kTicksPerSecond);
    const QString fraction = frac % 1000 == 0
                                 ? QStringLiteral("%1").arg(frac / 1000, 6, 10, QLatin1Char('0'))
                                 : QStringLiteral("%1").arg(frac, 9, 10, QLatin1Char('0'));
    const QLocale locale = display_locale();
    return QStringLiteral("%1%2%3%4 s")
        .arg(negative ? locale.negativeSign() : QString())
        .arg(whole)
        .arg(locale.decimalPoint(), fraction);
}

TimeUnit unit_for(double magnitude) {
    if (magnitude >= 1e9)
        return {QStringLiteral("s"), 1e9};
    if (magnitude >= 1e6)
        return {QStringLiteral("ms"), 1e6};
    if (magnitude >= 1e3)
        return {QStringLiteral("\u00B5s"), 1e3};
    return {QStringLiteral("ns"), 1.0};
}

static TimeUnit smaller(const TimeUnit& unit) {
    return unit_for(unit.ticks / 1000.0);
}

QString concise(Ticks t) {
    const double magnitude = std::abs(static_cast<double>(t));
    const TimeUnit unit = unit_for(magnitude);
    const double value = static_cast<double>(t) / unit.ticks;
    const int decimals = std::abs(value) >= 100 ? 0 : std::abs(value) >= 10 ? 1 : 2;
    QString text = display_number(value, 'f', decimals);
    const QString point = display_locale().decimalPoint();
    if (text.contains(point)) {
        while (text.endsWith(QLatin1Char('0')))
            text.chop(1);
        if (text.endsWith(point))
            text.chop(point.size());
    }
    return text + QLatin1Char(' ') + unit.name;
}

AxisScale axis_scale(Ticks from, Ticks to, double width, double min_spacing) {
    AxisScale s;
    const double span = static_cast<double>(std::max<Ticks>(to - from, 1));
    const double raw = span * min_spacing / std::max(width, 1.0);
    const double power = std::pow(10.0, std::floor(std::log10(std::max(raw, 1e-3))));
    s.step = power;
    for (double m : {1.0, 2.0, 5.0, 10.0}) {
        s.step = m * power;
        if (s.step >= raw)
            break;
    }
    s.step = std::max(s.step, 1.0);
    s.unit =
        unit_for(std::max(std::abs(static_cast<double>(from)), std::abs(static_cast<double>(to))));
    auto decimals_for = [&](const TimeUnit& u) {
        return std::max(0, static_cast<int>(std::ceil(-std::log10(s.step / u.ticks) - 1e-9)));
    };
    while (decimals_for(s.unit) > 3 && s.unit.ticks > 1.0)
        s.unit = smaller(s.unit);
    s.decimals = decimals_for(s.unit);
    return s;
}

void draw_label(QPainter& painter, double x, double cy, const QString& text, double ascent,
                double descent) {
    painter.drawText(QPointF(x, std::round(cy + (ascent - descent) / 2)), text);
}

void paint_time_axis(QPainter& painter, const QFont& font, const QColor& text, const TimeAxis& a,
                     const QRectF& keep_clear) {
    const QFontMetricsF fm(font);
    const double line = fm.height();
    const double tick = std::round(line * 0.35);
    const double baseline = std::round(a.rect.top()) + 0.5;
    painter.setPen(QPen(text, 1));
    painter.drawLine(QPointF(a.rect.left(), baseline), QPointF(a.rect.right(), baseline));
    const AxisScale scale = axis_scale(a.from, a.to, a.rect.width(), a.tick_spacing);
    const double span = static_cast<double>(a.to - a.from);
    auto x_for = [&](Ticks t) {
        return a.rect.left() + static_cast<double>(t - a.from) / span * a.rect.width();
    };
    const double first = std::ceil(static_cast<double>(a.from) / scale.step) * scale.step;
    double last_right = -1e9;
    for (double t = first; t <= static_cast<double>(a.to) + 0.5; t += scale.step) {
        const double x = std::round(x_for(static_cast<Ticks>(std::llround(t)))) + 0.5;
        painter.drawLine(QPointF(x, baseline), QPointF(x, baseline + tick));
        // AxisScale::label() in the language's digits.
        const QString label = display_number(t / scale.unit.ticks, 'f', scale.decimals) +
                              QLatin1Char(' ') + scale.unit.name;
        const double w = fm.horizontalAdvance(label);
        const double left = std::clamp(x - w / 2, 2.0, std::max(2.0, a.width - w - 2));
        if (left < last_right + line * 0.5 ||
            (keep_clear.isValid() && left < keep_clear.right() && left + w > keep_clear.left()))
            continue;
        draw_label(painter, left, baseline + tick + line * 0.7, label, a.ascent, a.descent);
        last_right = left + w;
    }
}

} // namespace lockstep::views::timeline
