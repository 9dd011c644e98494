// The Checkpoints view's two restore modes side by side, each with its continuation's loss.
#include "lockstep_views/checkpoint_view.h"

#include "fonts.h"

#include "lockstep_views/chart_style.h"
#include "lockstep_views/continuation_plot.h"
#include "lockstep_views/palette.h"

#include <QFontMetricsF>
#include <QPainter>

namespace lockstep::views {

// The two boxes side by side; without a comparison, a line under them holds the note.
QRectF CheckpointView::modeBox(const Layout& l, RestoreMode mode) const {
    if (l.modes.isEmpty())
        return {};
    const qreal gap = 0.6 * l.line;
    const qreal w = (l.modes.width() - gap) / 2;
    const int i = mode == RestoreMode::Full ? 0 : 1;
    const qreal note = !comparison_ && !note_.isEmpty() ? 1.4 * l.line : 0.0;
    return {l.modes.left() + i * (w + gap), l.modes.top(), w, l.modes.height() - note};
}

// Below the box's title and one line of what the mode brings back, above a two-line caption.
QRectF CheckpointView::plotRect(const Layout& l, RestoreMode mode) const {
    const QRectF box = modeBox(l, mode);
    if (!comparison_ || box.height() < 9.0 * l.line)
        return {};
    return box.adjusted(0.5 * l.line, 2.7 * l.line, -0.5 * l.line, -2.6 * l.line);
}

QRectF CheckpointView::continuationPlot(RestoreMode mode) const {
    const QRectF r = plotRect(layout(kShown), mode);
    return r.isEmpty() ? r : continuation_plot_area(r, scaledFont(font(), 0.9));
}

void CheckpointView::paintModes(QPainter& p, const Layout& l) const {
    if (l.modes.isEmpty())
        return;
    const QColor text = palette().color(QPalette::WindowText);
    if (!comparison_ && !note_.isEmpty()) {
        const qreal top = modeBox(l, mode_).bottom();
        const QRectF strip(l.modes.left() + 0.5 * l.line, top, l.modes.width() - l.line,
                           l.modes.bottom() - top);
        p.setFont(scaledFont(font(), 0.95));
        p.setPen(withAlpha(text, 200));
        p.drawText(strip, Qt::AlignLeft | Qt::AlignVCenter,
                   QFontMetricsF(p.font()).elidedText(note_, Qt::ElideRight, strip.width()));
    }
    const struct {
        RestoreMode mode;
        QString title;
        QString body;  // beside no plot
        QString brief; // above a plot
    } modes[] = {
        {RestoreMode::Full, tr("Full restore"),
         tr("Parameters, optimizer momentum and each worker's place in its data come back: the "
            "run goes on as if it had never stopped."),
         tr("Parameters, optimizer momentum and data positions come back.")},
        {RestoreMode::WeightsOnly, tr("Weights only"),
         tr("Only the parameters come back; momentum restarts at zero and the data from its "
            "start, so the continuation differs."),
         tr("Only the parameters: momentum starts at zero, the data from its start.")},
    };
    const QFont small = scaledFont(font(), 0.9);
    for (const auto& m : modes) {
        const QRectF r = modeBox(l, m.mode);
        const bool active = m.mode == mode_;
        p.setPen(QPen(active ? palette().color(QPalette::Highlight) : withAlpha(text, 120),
                      active ? 2.5 : 1, active ? Qt::SolidLine : Qt::DashLine));
        p.setBrush(Qt::NoBrush);
        p.drawRoundedRect(r.adjusted(1, 1, -1, -1), 6, 6);
        const QRectF inner = r.adjusted(0.5 * l.line, 0.3 * l.line, -0.5 * l.line, -0.2 * l.line);
        p.setFont(scaledFont(font(), 1.0, true));
        p.setPen(text);
        p.drawText(inner, Qt::AlignLeft | Qt::AlignTop,
                   active ? tr("%1 (this run)").arg(m.title) : m.title);
        p.setFont(small);
        const QRectF plot = plotRect(l, m.mode);
        if (plot.isEmpty()) {
            // Text only: what the mode brings back, then what is known of this run's crash.
            QString body = m.body;
            if (comparison_)
                body += QLatin1Char(' ') + continuation_caption(*comparison_, m.mode);
            p.drawText(inner.adjusted(0, 1.2 * l.line, 0, 0),
                       Qt::AlignLeft | Qt::AlignTop | Qt::TextWordWrap, body);
            continue;
        }
        const QFontMetricsF fm(small);
        p.drawText(QRectF(inner.left(), inner.top() + 1.3 * l.line, inner.width(), l.line),
                   Qt::AlignLeft | Qt::AlignVCenter,
                   fm.elidedText(m.brief, Qt::ElideRight, inner.width()));
        paint_continuation(p, plot, *comparison_, m.mode, palette(), small); // keeps pen, font
        p.drawText(QRectF(inner.left(), plot.bottom() + 0.2 * l.line, inner.width(),
                          inner.bottom() - plot.bottom() - 0.2 * l.line),
                   Qt::AlignLeft | Qt::AlignTop | Qt::TextWordWrap,
                   continuation_caption(*comparison_, m.mode));
    }
}

} // namespace lockstep::views
