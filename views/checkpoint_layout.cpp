// Where the Checkpoints view puts its title, status, shelf, progress bar, modes and legend.
#include "lockstep_views/checkpoint_view.h"

#include "checkpoint_view_parts.h"

#include <QFontMetricsF>

#include <algorithm>

namespace lockstep::views {

using namespace checkpoints;

CheckpointView::Layout CheckpointView::layout(int columns) const {
    Layout l;
    const QFontMetricsF fm(font());
    l.line = fm.height();
    l.workers = index_ ? std::max(index_->workers(), 0) : 0;
    l.columns = columns;
    const qreal m = 0.6 * l.line;
    QRectF area = QRectF(rect()).adjusted(m, m, -m, -m);
    l.title = QRectF(area.left(), area.top(), area.width(), 1.7 * l.line);
    l.status = QRectF(area.left(), l.title.bottom(), area.width(), 1.5 * l.line);
    // The legend flows over as many rows as it needs.
    qreal x = 0;
    int rows = 1;
    for (FileState s : kLegendStates) {
        const qreal w = 2.0 * l.line + fm.horizontalAdvance(style_for(s).label) + 1.2 * l.line;
        if (x > 0 && x + w > area.width()) {
            ++rows;
            x = 0;
        }
        x += w;
    }
    const qreal legendHeight = rows * 1.5 * l.line;
    l.legend = QRectF(area.left(), area.bottom() - legendHeight, area.width(), legendHeight);
    l.headerHeight = 2.4 * l.line;
    l.verdictHeight = 3.4 * l.line; // the chip, then the reason on up to two lines
    const int rowsOfBoxes = l.workers + 1;
    // The restore modes below the shelf: with their loss plots when a comparison is known and the
    // shelf keeps readable boxes, else as text, else not at all (the shelf comes first).
    const qreal plotted = 13.0 * l.line;
    const qreal text = (comparison_ || note_.isEmpty() ? 5.2 : 6.6) * l.line; // + the note
    for (const qreal modesHeight : {comparison_ ? plotted : text, text, 0.0}) {
        l.modes = modesHeight > 0 ? QRectF(area.left(), l.legend.top() - modesHeight - 0.3 * l.line,
                                           area.width(), modesHeight)
                                  : QRectF();
        const qreal above = l.modes.isEmpty() ? l.legend.top() : l.modes.top() - 0.3 * l.line;
        l.progress = QRectF(area.left(), above - 1.6 * l.line, area.width(), 1.5 * l.line);
        l.grid = QRectF(area.left(), l.status.bottom() + 0.3 * l.line, area.width(),
                        l.progress.top() - l.status.bottom() - 0.6 * l.line);
        const qreal boxSpace = l.grid.height() - l.headerHeight - l.verdictHeight;
        const qreal needed = modesHeight == plotted ? 1.6 * l.line : 0.9 * l.line;
        if (boxSpace / rowsOfBoxes >= needed)
            break;
    }
    const qreal space = l.grid.height() - l.headerHeight - l.verdictHeight;
    l.boxGap = std::clamp(0.2 * space / rowsOfBoxes, 1.0, 0.3 * l.line);
    l.boxHeight = std::clamp(space / rowsOfBoxes - l.boxGap, 2.0, 3.4 * l.line);
    // The bar moves up under the verdicts when the shelf does not need the whole height.
    const qreal shelfBottom =
        l.grid.top() + l.headerHeight + rowsOfBoxes * (l.boxHeight + l.boxGap) + l.verdictHeight;
    l.progress.moveTop(std::min(l.progress.top(), shelfBottom + 0.4 * l.line));
    const qreal slack =
        (l.modes.isEmpty() ? l.legend.top() : l.modes.top()) - (l.progress.bottom() + 0.6 * l.line);
    if (slack > 0) {
        // Loss plots take what the shelf leaves, up to a size still easy to read across.
        const qreal grow =
            l.modes.height() >= plotted ? std::min(slack, 24.0 * l.line - l.modes.height()) : 0.0;
        l.modes.setTop(l.modes.top() - grow);
        l.modes.translate(0, grow - slack);
        l.legend.translate(0, grow - slack);
    }
    const qreal labelWidth =
        std::max(fm.horizontalAdvance(QStringLiteral("MANIFEST")),
                 fm.horizontalAdvance(tr("worker %1").arg(std::max(l.workers - 1, 0)))) +
        0.8 * l.line;
    l.rowLabels = QRectF(l.grid.left(), l.grid.top(), labelWidth, l.grid.height());
    l.columnGap = 0.6 * l.line;
    l.columnWidth =
        std::min(12.0 * l.line, (l.grid.width() - labelWidth) / std::max(columns, 1) - l.columnGap);
    // A narrow shelf sits in the middle of a wide view.
    const qreal used = labelWidth + columns * (l.columnWidth + l.columnGap) - l.columnGap;
    l.rowLabels.translate(std::max(0.0, (l.grid.width() - used) / 2), 0);
    return l;
}

QRectF CheckpointView::columnRect(const Layout& l, int column) const {
    return QRectF(l.rowLabels.right() + column * (l.columnWidth + l.columnGap), l.grid.top(),
                  l.columnWidth, l.grid.height());
}

QRectF CheckpointView::box(const Layout& l, int column, int row) const {
    const QRectF c = columnRect(l, column);
    const qreal top = c.top() + l.headerHeight + row * (l.boxHeight + l.boxGap);
    return QRectF(c.left(), top, c.width(), l.boxHeight);
}

QRectF CheckpointView::boxRect(int column, int worker) const {
    const CheckpointShelf s = shelf(playhead_);
    if (column < 0 || column >= static_cast<int>(s.checkpoints.size()))
        return {};
    const Layout l = layout(kShown);
    if (worker < 0)
        return box(l, column, l.workers);
    if (worker >= l.workers || s.checkpoints[static_cast<std::size_t>(column)]
                                       .files[static_cast<std::size_t>(worker)]
                                       .state == FileState::Absent)
        return {};
    return box(l, column, worker);
}

} // namespace lockstep::views
