// The Checkpoints view's painting: header, shelf of files with the scan's verdicts, legend.
#include "lockstep_views/checkpoint_view.h"

#include "checkpoint_view_parts.h"
#include "fonts.h"

#include "lockstep_views/chart_style.h"
#include "lockstep_views/names.h"
#include "lockstep_views/palette.h"

#include <QFontMetricsF>
#include <QPainter>

#include <algorithm>

namespace lockstep::views {

using namespace checkpoints;

void CheckpointView::paintEvent(QPaintEvent*) {
    QPainter p(this);
    p.setRenderHint(QPainter::Antialiasing);
    p.fillRect(rect(), palette().color(QPalette::Window));
    const Layout l = layout(kShown);
    const CheckpointShelf s = shelf(playhead_);
    const RestoreWalk walk = restoreWalk(playhead_);
    paintHeader(p, l, s, walk);
    // Once training has saved a checkpoint since, the walk is history: only the status line keeps
    // it.
    const bool current =
        walk.phase != RestorePhase::Resumed ||
        std::none_of(s.checkpoints.begin(), s.checkpoints.end(),
                     [&](const ShelfCheckpoint& c) { return c.started >= walk.resumed_at; });
    paintShelf(p, l, s, current ? walk : RestoreWalk{});
    if (current)
        paintProgress(p, l, walk);
    paintModes(p, l);
    paintLegend(p, l);
}

void CheckpointView::paintHeader(QPainter& p, const Layout& l, const CheckpointShelf& shelf,
                                 const RestoreWalk& walk) const {
    const QColor text = palette().color(QPalette::WindowText);
    p.setPen(text);
    p.setFont(scaledFont(font(), 1.3, true));
    p.drawText(l.title, Qt::AlignLeft | Qt::AlignVCenter, tr("Checkpoints on disk"));
    p.setFont(font());
    const QString older = shelf.older > 0 ? tr("%n older pruned by the keep policy or not shown",
                                               nullptr, shelf.older)
                                          : tr("newest %1 shown").arg(kShown);
    p.setPen(withAlpha(text, 190));
    p.drawText(l.title, Qt::AlignRight | Qt::AlignVCenter, older);
    const bool recovering = walk.phase != RestorePhase::None && walk.phase != RestorePhase::Resumed;
    p.setFont(scaledFont(font(), 1.0, recovering));
    p.setPen(text);
    const QString status =
        QFontMetricsF(p.font()).elidedText(statusText(walk), Qt::ElideRight, l.status.width());
    p.drawText(l.status, Qt::AlignLeft | Qt::AlignVCenter, status);
}

void CheckpointView::paintBox(QPainter& p, const QRectF& r, const StorageStyle& style,
                              double fill) const {
    const QColor text = palette().color(QPalette::WindowText);
    const qreal radius = std::min(0.25 * r.height(), 6.0);
    if (style.brush == Qt::NoBrush) {
        p.setPen(QPen(withAlpha(text, 170), 1.5, Qt::DashLine));
        p.setBrush(Qt::NoBrush);
        p.drawRoundedRect(r.adjusted(0.75, 0.75, -0.75, -0.75), radius, radius);
    } else {
        // Written so far in full colour, the rest of the file paler.
        p.setPen(Qt::NoPen);
        p.setBrush(mix(palette().color(QPalette::Window), style.colour, 0.3));
        p.drawRoundedRect(r, radius, radius);
        const QRectF done(r.left(), r.top(), r.width() * std::clamp(fill, 0.0, 1.0), r.height());
        p.save();
        p.setClipRect(done);
        p.setBrush(style.colour);
        p.drawRoundedRect(r, radius, radius);
        if (style.brush != Qt::SolidPattern) {
            p.setBrush(QBrush(withAlpha(textOn(style.colour), 130), style.brush));
            p.drawRoundedRect(r, radius, radius);
        }
        p.restore();
        p.setPen(QPen(withAlpha(text, 150), 1));
        p.setBrush(Qt::NoBrush);
        p.drawRoundedRect(r.adjusted(0.5, 0.5, -0.5, -0.5), radius, radius);
    }
    if (style.label.isEmpty() || r.height() < 0.8 * QFontMetricsF(font()).height())
        return; // too thin for a label: colour and pattern only
    // Tall boxes take a larger label, to be read from the back of the room.
    const qreal boxLines = r.height() / QFontMetricsF(font()).height();
    const QFont boxFont = scaledFont(font(), boxLines >= 2.6 ? 1.3 : boxLines >= 1.8 ? 1.15 : 1.0);
    const QFontMetricsF fm(boxFont);
    const QString label = fm.elidedText(style.label, Qt::ElideRight, r.width() - 6);
    const bool plain = style.brush == Qt::NoBrush || style.brush == Qt::SolidPattern;
    QColor ink = style.brush == Qt::NoBrush ? text : textOn(style.colour);
    if (!plain || fill < 0.5) {
        // The label on a pill that masks the pattern.
        const qreal w = fm.horizontalAdvance(label) + 0.6 * fm.height();
        const QRectF pill(r.center().x() - w / 2, r.center().y() - 0.55 * fm.height(), w,
                          1.1 * fm.height());
        p.setPen(Qt::NoPen);
        p.setBrush(withAlpha(palette().color(QPalette::Window), 225));
        p.drawRoundedRect(pill, pill.height() / 2, pill.height() / 2);
        ink = text;
    }
    p.setFont(boxFont);
    p.setPen(ink);
    p.drawText(r, Qt::AlignCenter, label);
}

void CheckpointView::paintVerdict(QPainter& p, const QRectF& r, const ScanVerdict* verdict,
                                  bool examining) const {
    const QColor text = palette().color(QPalette::WindowText);
    const QFontMetricsF fm(font());
    if (examining) {
        p.setFont(scaledFont(font(), 1.0, true));
        p.setPen(palette().color(QPalette::Highlight));
        p.drawText(r, Qt::AlignHCenter | Qt::AlignTop, tr("verifying…"));
        return;
    }
    if (!verdict)
        return;
    const bool chosen = verdict->status == CheckpointStatus::Complete;
    const QColor colour = chosen ? okabe_ito::bluish_green : okabe_ito::vermillion;
    const QRectF chip(r.left(), r.top(), r.width(), 1.2 * fm.height());
    p.setPen(Qt::NoPen);
    p.setBrush(colour);
    p.drawRoundedRect(chip, chip.height() / 2, chip.height() / 2);
    p.setFont(scaledFont(font(), 1.0, true));
    p.setPen(textOn(colour));
    p.drawText(chip, Qt::AlignCenter, chosen ? tr("✓ loaded") : tr("✗ skipped"));
    if (chosen)
        return;
    const QString reason = fault_name(verdict->fault);
    p.setFont(font());
    p.setPen(text);
    p.drawText(
        QRectF(r.left(), chip.bottom() + 0.1 * fm.height(), r.width(), r.bottom() - chip.bottom()),
        Qt::AlignHCenter | Qt::AlignTop | Qt::TextWordWrap, reason);
}

void CheckpointView::paintShelf(QPainter& p, const Layout& l, const CheckpointShelf& shelf,
                                const RestoreWalk& walk) const {
    const QColor text = palette().color(QPalette::WindowText);
    const QFontMetricsF fm(font());
    // Row labels: one per worker's file, then the MANIFEST.
    p.setFont(font());
    p.setPen(text);
    const bool rowText = l.boxHeight >= 0.8 * l.line;
    for (int row = 0; row <= l.workers; ++row) {
        if (!rowText && row < l.workers && row % std::max(1, l.workers / 8) != 0)
            continue;
        const QRectF b = box(l, 0, row);
        const QRectF label(l.rowLabels.left(), b.top() - 0.3 * l.line, l.rowLabels.width(),
                           b.height() + 0.6 * l.line);
        p.setFont(scaledFont(font(), 1.0, row == l.workers));
        p.drawText(label, Qt::AlignLeft | Qt::AlignVCenter,
                   row == l.workers ? QStringLiteral("MANIFEST") : tr("worker %1").arg(row));
    }
    if (shelf.checkpoints.empty()) {
        p.setFont(font());
        p.setPen(withAlpha(text, 190));
        p.drawText(l.grid.adjusted(l.rowLabels.width(), 0, 0, 0), Qt::AlignCenter,
                   tr("No checkpoint written yet.\nScenarios with \"checkpoint\" save one every "
                      "few steps."));
        return;
    }
    const int revealed = std::min(revealed_, static_cast<int>(walk.verdicts.size()));
    const bool scanShown = walk.phase >= RestorePhase::Scanning;
    for (std::size_t i = 0; i < shelf.checkpoints.size(); ++i) {
        const ShelfCheckpoint& c = shelf.checkpoints[i];
        const int column = static_cast<int>(i);
        const QRectF col = columnRect(l, column);
        // The verdict the scan gave this attempt (one written again after the scan has none).
        const ScanVerdict* verdict = nullptr;
        bool examining = false;
        if (scanShown && c.started < walk.scan_at)
            for (int v = 0; v < static_cast<int>(walk.verdicts.size()); ++v)
                if (walk.verdicts[static_cast<std::size_t>(v)].step == c.step) {
                    if (v < revealed)
                        verdict = &walk.verdicts[static_cast<std::size_t>(v)];
                    examining = v == revealed;
                }
        // Header: the directory's step and what the checkpoint amounts to so far.
        p.setFont(scaledFont(font(), 1.1, true));
        p.setPen(text);
        const QRectF head(col.left(), col.top(), col.width(), 1.2 * l.line);
        p.drawText(head, Qt::AlignCenter,
                   fm.elidedText(tr("step %1").arg(c.step), Qt::ElideRight, col.width()));
        p.setFont(font());
        p.setPen(withAlpha(text, 200));
        p.drawText(QRectF(col.left(), head.bottom(), col.width(), 1.1 * l.line), Qt::AlignCenter,
                   shelfStatusText(c.status));
        for (int row = 0; row < l.workers; ++row) {
            const ShelfFile& f = c.files[static_cast<std::size_t>(row)];
            if (f.state == FileState::Absent)
                continue;
            const double fill = f.state == FileState::Writing ? f.progress : 1.0;
            paintBox(p, box(l, column, row), style_for(f.state), fill);
        }
        paintBox(p, box(l, column, l.workers), style_for(c.manifest), 1.0);
        const QRectF last = box(l, column, l.workers);
        const QRectF verdictRect(col.left(), last.bottom() + 0.3 * l.line, col.width(),
                                 l.verdictHeight - 0.3 * l.line);
        paintVerdict(p, verdictRect, verdict, examining);
        if (examining || (verdict && verdict->status == CheckpointStatus::Complete)) {
            const QColor frame =
                examining ? palette().color(QPalette::Highlight) : okabe_ito::bluish_green;
            p.setPen(QPen(frame, std::max(2.5, 0.18 * l.line),
                          examining ? Qt::SolidLine : Qt::DashLine));
            p.setBrush(Qt::NoBrush);
            p.drawRoundedRect(
                QRectF(col.left(), col.top(), col.width(), last.bottom() - col.top())
                    .adjusted(-0.25 * l.line, -0.1 * l.line, 0.25 * l.line, 0.2 * l.line),
                6, 6);
        }
    }
}

void CheckpointView::paintProgress(QPainter& p, const Layout& l, const RestoreWalk& walk) const {
    const bool loading = walk.phase == RestorePhase::Loading || walk.phase == RestorePhase::Resumed;
    if (!loading || !walk.chosen || revealed_ < static_cast<int>(walk.verdicts.size()))
        return;
    const QColor text = palette().color(QPalette::WindowText);
    const QFontMetricsF fm(font());
    const QString caption = tr("reading %1 back").arg(checkpoint_directory(*walk.chosen));
    const qreal captionWidth = fm.horizontalAdvance(caption) + l.line;
    p.setFont(font());
    p.setPen(text);
    p.drawText(QRectF(l.progress.left(), l.progress.top(), captionWidth, l.progress.height()),
               Qt::AlignLeft | Qt::AlignVCenter, caption);
    const QRectF bar = l.progress.adjusted(captionWidth, 0.15 * l.line, 0, -0.15 * l.line);
    p.setPen(QPen(withAlpha(text, 160), 1));
    p.setBrush(mix(palette().color(QPalette::Window), okabe_ito::bluish_green, 0.2));
    p.drawRoundedRect(bar, 4, 4);
    p.setPen(Qt::NoPen);
    p.setBrush(okabe_ito::bluish_green);
    p.drawRoundedRect(QRectF(bar.left(), bar.top(), bar.width() * walk.progress, bar.height()), 4,
                      4);
    const QString amount = tr("%1% · %2 of %3")
                               .arg(qRound(100 * walk.progress))
                               .arg(bytesText(walk.bytes_read), bytesText(walk.bytes_total));
    const qreal w = fm.horizontalAdvance(amount) + 0.6 * l.line;
    const QRectF pill(bar.center().x() - w / 2, bar.top() + 0.05 * l.line, w,
                      bar.height() - 0.1 * l.line);
    p.setBrush(withAlpha(palette().color(QPalette::Window), 225));
    p.drawRoundedRect(pill, pill.height() / 2, pill.height() / 2);
    p.setPen(text);
    p.drawText(bar, Qt::AlignCenter, amount);
}

void CheckpointView::paintLegend(QPainter& p, const Layout& l) const {
    const QColor text = palette().color(QPalette::WindowText);
    const QFontMetricsF fm(font());
    qreal x = l.legend.left();
    qreal y = l.legend.top();
    for (FileState s : kLegendStates) {
        const StorageStyle style = style_for(s);
        const qreal w = 2.0 * l.line + fm.horizontalAdvance(style.label) + 1.2 * l.line;
        if (x > l.legend.left() && x + w > l.legend.right()) {
            x = l.legend.left();
            y += 1.5 * l.line;
        }
        const QRectF swatch(x, y + 0.2 * l.line, 1.6 * l.line, 1.0 * l.line);
        StorageStyle unlabelled = style;
        unlabelled.label.clear();
        paintBox(p, swatch, unlabelled, 1.0);
        p.setFont(font());
        p.setPen(text);
        p.drawText(QRectF(swatch.right() + 0.4 * l.line, y, w, 1.4 * l.line),
                   Qt::AlignLeft | Qt::AlignVCenter, style.label);
        x += w;
    }
}

} // namespace lockstep::views
