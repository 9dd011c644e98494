#include "lockstep_views/continuation_plot.h"

#include "lockstep_views/numbers.h"
#include "lockstep_views/palette.h"

#include <QCoreApplication>
#include <QFontMetricsF>
#include <QPainter>
#include <QPainterPath>

#include <algorithm>
#include <cmath>

namespace lockstep::views {

namespace {

// Steps shown at most: enough to see the curves part, few enough to see each step.
constexpr std::int64_t kWindowSteps = 80;

const LossCurve& curve_of(const RestoreComparison& c, RestoreMode mode) {
    return mode == RestoreMode::Full ? c.full : c.weights_only;
}

QString loss_text(double v) {
    return display_number(v, 'g', 3);
}

void draw_curve(QPainter& p, const ContinuationWindow& w, const QRectF& plot,
                const LossCurve& curve, const QPen& pen) {
    QPainterPath path;
    bool started = false;
    for (std::size_t i = 0; i < curve.steps.size(); ++i) {
        if (curve.steps[i] < w.first || curve.steps[i] > w.last || !std::isfinite(curve.loss[i]))
            continue;
        const QPointF at = continuation_point(w, plot, curve.steps[i], curve.loss[i]);
        if (started)
            path.lineTo(at);
        else
            path.moveTo(at);
        started = true;
    }
    p.setPen(pen);
    p.setBrush(Qt::NoBrush);
    p.drawPath(path);
}

} // namespace

ContinuationWindow continuation_window(const RestoreComparison& c) {
    ContinuationWindow w;
    const LossCurve& base = c.uninterrupted;
    if (base.steps.empty())
        return w;
    const std::int64_t begin = base.steps.front();
    const std::int64_t end = base.steps.back();
    const std::int64_t span = std::min<std::int64_t>(end - begin + 1, kWindowSteps);
    w.first = std::clamp(c.restored_step - span / 4, begin, std::max(begin, end - span + 1));
    w.last = std::min(end, w.first + span - 1);
    double low = INFINITY, high = -INFINITY;
    for (const LossCurve* curve : {&c.uninterrupted, &c.full, &c.weights_only})
        for (std::size_t i = 0; i < curve->steps.size(); ++i)
            if (curve->steps[i] >= w.first && curve->steps[i] <= w.last &&
                std::isfinite(curve->loss[i])) {
                low = std::min(low, curve->loss[i]);
                high = std::max(high, curve->loss[i]);
            }
    if (!(low <= high))
        return w;
    const double pad = std::max(0.05 * (high - low), 1e-9);
    w.low = std::max(0.0, low - pad);
    w.high = high + pad;
    return w;
}

QPointF continuation_point(const ContinuationWindow& w, const QRectF& plot, std::int64_t step,
                           double loss) {
    const double steps = static_cast<double>(std::max<std::int64_t>(1, w.last - w.first));
    const double x = static_cast<double>(step - w.first) / steps;
    const double y = (loss - w.low) / std::max(1e-12, w.high - w.low);
    return {plot.left() + x * plot.width(), plot.bottom() - y * plot.height()};
}

QColor continuation_colour(RestoreMode mode) {
    return mode == RestoreMode::Full ? okabe_ito::blue : okabe_ito::vermillion;
}

QRectF continuation_plot_area(const QRectF& r, const QFont& font) {
    const QFontMetricsF fm(font);
    const qreal left = fm.horizontalAdvance(QStringLiteral("0.000")) + 0.5 * fm.height();
    return r.adjusted(left, 1.6 * fm.height(), -0.5 * fm.height(), -1.4 * fm.height());
}

void paint_continuation(QPainter& p, const QRectF& r, const RestoreComparison& c, RestoreMode mode,
                        const QPalette& palette, const QFont& font) {
    const ContinuationWindow w = continuation_window(c);
    const QRectF plot = continuation_plot_area(r, font);
    if (plot.width() < 20 || plot.height() < 20)
        return;
    const QFontMetricsF fm(font);
    const QColor text = palette.color(QPalette::WindowText);
    const QColor grey = withAlpha(okabe_ito::grey, 170);
    const QColor colour = continuation_colour(mode);
    p.save();
    p.setFont(font);

    // The key, above the plot.
    qreal x = plot.left();
    const qreal keyY = r.top() + 0.7 * fm.height();
    const auto key = [&](const QPen& pen, const QString& label) {
        p.setPen(pen);
        p.drawLine(QPointF(x, keyY), QPointF(x + 1.6 * fm.height(), keyY));
        x += 2.0 * fm.height();
        p.setPen(text);
        p.drawText(QPointF(x, keyY + 0.35 * fm.height()), label);
        x += fm.horizontalAdvance(label) + 1.0 * fm.height();
    };
    key(QPen(grey, 5, Qt::SolidLine, Qt::RoundCap),
        QCoreApplication::translate("ContinuationPlot", "uninterrupted run"));
    key(QPen(colour, 2),
        mode == RestoreMode::Full
            ? QCoreApplication::translate("ContinuationPlot", "after a full restore")
            : QCoreApplication::translate("ContinuationPlot", "after a weights-only restore"));

    // Frame and axis labels.
    p.setPen(QPen(withAlpha(text, 90), 1));
    p.setBrush(withAlpha(palette.color(QPalette::Base), 200));
    p.drawRect(plot);
    p.setPen(text);
    const QRectF yLabels(r.left(), plot.top(), plot.left() - r.left() - 0.3 * fm.height(),
                         plot.height());
    p.drawText(yLabels, Qt::AlignRight | Qt::AlignTop, loss_text(w.high));
    p.drawText(yLabels, Qt::AlignRight | Qt::AlignBottom, loss_text(w.low));
    p.save();
    p.translate(r.left() + 0.5 * fm.height(), plot.center().y());
    p.rotate(-90);
    p.drawText(QRectF(-plot.height() / 2, -0.5 * fm.height(), plot.height(), fm.height()),
               Qt::AlignCenter, QCoreApplication::translate("ContinuationPlot", "loss"));
    p.restore();
    const QRectF xLabels(plot.left(), plot.bottom() + 0.1 * fm.height(), plot.width(),
                         1.2 * fm.height());
    p.drawText(xLabels, Qt::AlignLeft | Qt::AlignTop,
               QCoreApplication::translate("ContinuationPlot", "step %1").arg(w.first));
    p.drawText(xLabels, Qt::AlignRight | Qt::AlignTop,
               QCoreApplication::translate("ContinuationPlot", "step %1").arg(w.last));

    // Where the recovery went back to.
    if (c.crash_step >= 0 && c.restored_step >= w.first && c.restored_step <= w.last) {
        const qreal rx = continuation_point(w, plot, c.restored_step, w.low).x();
        p.setPen(QPen(withAlpha(text, 150), 1, Qt::DashLine));
        p.drawLine(QPointF(rx, plot.top()), QPointF(rx, plot.bottom()));
        const QString label =
            c.checkpoint_step >= 0
                ? QCoreApplication::translate("ContinuationPlot", "back to step %1")
                      .arg(c.restored_step)
                : QCoreApplication::translate("ContinuationPlot", "back to the start");
        const qreal width = fm.horizontalAdvance(label) + 0.4 * fm.height();
        const qreal lx = std::clamp(rx - width / 2, plot.left(), plot.right() - width);
        p.setPen(text);
        p.drawText(QRectF(lx, plot.bottom() + 0.1 * fm.height(), width, 1.2 * fm.height()),
                   Qt::AlignCenter, label);
    }

    // The lines: the uninterrupted run broad and grey, the restored one on top.
    p.setRenderHint(QPainter::Antialiasing);
    p.setClipRect(plot.adjusted(-2, -2, 2, 2));
    draw_curve(p, w, plot, c.uninterrupted,
               QPen(grey, 5, Qt::SolidLine, Qt::RoundCap, Qt::RoundJoin));
    draw_curve(p, w, plot, curve_of(c, mode),
               QPen(colour, 2, Qt::SolidLine, Qt::RoundCap, Qt::RoundJoin));
    p.restore();
}

QString continuation_caption(const RestoreComparison& c, RestoreMode mode) {
    const bool full = mode == RestoreMode::Full;
    const double gap = full ? c.full_gap : c.weights_only_gap;
    const bool identical = full ? c.full_identical : c.weights_only_identical;
    if (gap == 0.0 && identical)
        return QCoreApplication::translate("ContinuationPlot",
                                           "Same loss as the uninterrupted run at every step; the "
                                           "final weights are identical bit for bit.");
    // Whole sentences, so that each language can build them its own way.
    const QString text =
        identical ? QCoreApplication::translate("ContinuationPlot",
                                                "From step %1 on the loss differs from the "
                                                "uninterrupted run by up to %2; the final weights "
                                                "are the same.")
                  : QCoreApplication::translate("ContinuationPlot",
                                                "From step %1 on the loss differs from the "
                                                "uninterrupted run by up to %2; the final weights "
                                                "differ.");
    return text.arg(c.restored_step).arg(loss_text(gap));
}

} // namespace lockstep::views
