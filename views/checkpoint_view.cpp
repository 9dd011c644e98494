#include "lockstep_views/checkpoint_view.h"

#include "fonts.h"

#include "lockstep_views/chart_style.h"
#include "lockstep_views/continuation_plot.h"
#include "lockstep_views/names.h"
#include "lockstep_views/numbers.h"
#include "lockstep_views/palette.h"

#include <QCoreApplication>
#include <QEvent>
#include <QFontMetricsF>
#include <QHelpEvent>
#include <QPainter>
#include <QPainterPath>
#include <QToolTip>

#include <algorithm>
#include <cmath>

namespace lockstep::views {

namespace {

QString bytesText(std::int64_t bytes) {
    if (bytes >= 1024 * 1024)
        return QCoreApplication::translate("CheckpointView", "%1 MB")
            .arg(display_number(static_cast<double>(bytes) / (1024.0 * 1024.0), 'f', 1));
    if (bytes >= 1024)
        return QCoreApplication::translate("CheckpointView", "%1 KB")
            .arg(display_number(static_cast<double>(bytes) / 1024.0, 'f', 1));
    return QCoreApplication::translate("CheckpointView", "%1 B").arg(bytes);
}

QString shelfStatusText(ShelfStatus status) {
    switch (status) {
    case ShelfStatus::Saving:
        return QCoreApplication::translate("CheckpointView", "saving");
    case ShelfStatus::Committed:
        return QCoreApplication::translate("CheckpointView", "committed");
    case ShelfStatus::Partial:
        return QCoreApplication::translate("CheckpointView", "partial");
    case ShelfStatus::Corrupt:
        return QCoreApplication::translate("CheckpointView", "corrupt");
    }
    return {};
}

constexpr FileState kLegendStates[] = {FileState::Writing,   FileState::Synced,  FileState::Renamed,
                                       FileState::Committed, FileState::Partial, FileState::Corrupt,
                                       FileState::Missing};

} // namespace

CheckpointView::CheckpointView(QWidget* parent)
    : QWidget(parent) {
    retranslate();
    setSizePolicy(QSizePolicy::Expanding, QSizePolicy::Expanding);
    setFocusPolicy(Qt::StrongFocus);
    reveal_.setInterval(revealInterval_);
    connect(&reveal_, &QTimer::timeout, this, &CheckpointView::advanceReveal);
    setAccessibleDescription(summary());
}

void CheckpointView::retranslate() {
    setAccessibleName(tr("Checkpoints view"));
}

void CheckpointView::setTrace(const TraceIndex* index) {
    index_ = index;
    revealScan_ = -1;
    revealed_ = 0;
    reveal_.stop();
    refresh();
}

void CheckpointView::setPlayhead(Ticks t) {
    playhead_ = t;
    refresh();
}

void CheckpointView::refresh() {
    updateReveal();
    // The shelf's summary changes with its files' states, a few times a step at most; a screen
    // reader hears of it only then.
    const QString description = summary();
    if (description != accessibleDescription())
        setAccessibleDescription(description);
    update();
}

void CheckpointView::setRestoreMode(RestoreMode mode) {
    mode_ = mode;
    update();
}

void CheckpointView::setRestoreComparison(std::optional<RestoreComparison> comparison) {
    comparison_ = std::move(comparison);
    refresh();
}

void CheckpointView::setComparisonNote(const QString& note) {
    note_ = note;
    refresh();
}

void CheckpointView::setScanRevealInterval(int ms) {
    revealInterval_ = std::max(0, ms);
    reveal_.setInterval(revealInterval_);
    refresh();
}

CheckpointShelf CheckpointView::shelf(Ticks t) const {
    if (!index_)
        return {};
    return checkpoint_shelf(index_->storage_events(), index_->workers(), t, kShown);
}

RestoreWalk CheckpointView::restoreWalk(Ticks t) const {
    if (!index_)
        return {};
    return restore_walk(index_->storage_events(), t);
}

// A new scan at the playhead starts the reveal from its first verdict when the view is on screen;
// moving back before it forgets it.
void CheckpointView::updateReveal() {
    const RestoreWalk walk = restoreWalk(playhead_);
    if (walk.verdicts.empty()) {
        revealScan_ = -1;
        revealed_ = 0;
        reveal_.stop();
        return;
    }
    if (walk.scan_at == revealScan_)
        return;
    revealScan_ = walk.scan_at;
    // Nobody watches a hidden view (a tab behind another, a headless screenshot): no animation.
    const bool animate = revealInterval_ > 0 && isVisible();
    revealed_ = animate ? 0 : static_cast<int>(walk.verdicts.size());
    if (animate)
        reveal_.start();
}

void CheckpointView::advanceReveal() {
    const RestoreWalk walk = restoreWalk(playhead_);
    ++revealed_;
    if (revealed_ >= static_cast<int>(walk.verdicts.size()))
        reveal_.stop();
    setAccessibleDescription(summary());
    update();
    Q_EMIT verdictRevealed(revealed_ - 1);
}

int CheckpointView::revealedVerdicts() const {
    const auto n = static_cast<int>(restoreWalk(playhead_).verdicts.size());
    return std::min(revealed_, n);
}

int CheckpointView::examinedVerdict() const {
    const auto n = static_cast<int>(restoreWalk(playhead_).verdicts.size());
    return revealed_ < n ? revealed_ : -1;
}

QString CheckpointView::statusText(const RestoreWalk& walk) const {
    const int shown = std::min(revealed_, static_cast<int>(walk.verdicts.size()));
    switch (walk.phase) {
    case RestorePhase::None:
        return tr("Each checkpoint: every worker writes its file, syncs it, renames it; then the "
                  "MANIFEST commits it.");
    case RestorePhase::Down:
        return tr("Worker %1 crashed. Nobody has noticed yet.").arg(walk.crashed);
    case RestorePhase::Detected:
        return tr("Worker %1 declared dead by the heartbeat; a replacement is starting.")
            .arg(walk.crashed);
    case RestorePhase::Scanning:
    case RestorePhase::Loading:
        if (shown < static_cast<int>(walk.verdicts.size()))
            return tr("Recovery scans newest first: verifying %1…")
                .arg(checkpoint_directory(walk.verdicts[static_cast<std::size_t>(shown)].step));
        if (walk.phase == RestorePhase::Scanning || !walk.chosen)
            return tr("Scan done.");
        return tr("Loading %1: %2 of %3 read")
            .arg(checkpoint_directory(*walk.chosen), bytesText(walk.bytes_read),
                 bytesText(walk.bytes_total));
    case RestorePhase::Resumed:
        if (shown < static_cast<int>(walk.verdicts.size()))
            return tr("Recovery scans newest first: verifying %1…")
                .arg(checkpoint_directory(walk.verdicts[static_cast<std::size_t>(shown)].step));
        return walk.chosen ? tr("Resumed from %1 after worker %2's crash.")
                                 .arg(checkpoint_directory(*walk.chosen))
                                 .arg(walk.crashed)
                           : tr("Resumed after worker %1's crash.").arg(walk.crashed);
    }
    return {};
}

QString CheckpointView::summary() const {
    if (!index_ || index_->empty())
        return tr("No run yet.");
    const CheckpointShelf s = shelf(playhead_);
    QStringList parts;
    for (const ShelfCheckpoint& c : s.checkpoints) {
        QStringList files;
        for (const ShelfFile& f : c.files)
            if (f.state != FileState::Absent)
                files << tr("worker %1 %2").arg(f.worker).arg(style_for(f.state).label);
        parts << tr("%1 %2 (%3; manifest %4)")
                     .arg(checkpoint_directory(c.step), shelfStatusText(c.status),
                          files.join(QStringLiteral(", ")), style_for(c.manifest).label);
    }
    if (parts.isEmpty())
        parts << tr("no checkpoint yet");
    QString text = parts.join(QStringLiteral(". ")) + QStringLiteral(". ") +
                   statusText(restoreWalk(playhead_));
    if (comparison_)
        text += tr(" Full restore: %1 Weights only: %2")
                    .arg(continuation_caption(*comparison_, RestoreMode::Full),
                         continuation_caption(*comparison_, RestoreMode::WeightsOnly));
    return text;
}

QSize CheckpointView::sizeHint() const {
    return {720, 520};
}

QSize CheckpointView::minimumSizeHint() const {
    const qreal line = QFontMetricsF(font()).height();
    return {static_cast<int>(std::ceil(24 * line)), static_cast<int>(std::ceil(16 * line))};
}

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

QString CheckpointView::describeBox(int column, int worker) const {
    if (boxRect(column, worker).isEmpty())
        return {};
    const CheckpointShelf s = shelf(playhead_);
    const ShelfCheckpoint& c = s.checkpoints[static_cast<std::size_t>(column)];
    const QString dir = checkpoint_directory(c.step);
    if (worker < 0) {
        static const char* meaning[] = {
            QT_TRANSLATE_NOOP("CheckpointView", "not written yet: the files are still being saved"),
            QT_TRANSLATE_NOOP("CheckpointView", "being written, synced and renamed"),
            QT_TRANSLATE_NOOP("CheckpointView", "committed: this checkpoint counts"),
            QT_TRANSLATE_NOOP("CheckpointView",
                              "never written: a crash came first, so this checkpoint is partial"),
        };
        return tr("MANIFEST of %1: %2")
            .arg(dir, QCoreApplication::translate("CheckpointView",
                                                  meaning[static_cast<int>(c.manifest)]));
    }
    const ShelfFile& f = c.files[static_cast<std::size_t>(worker)];
    const QString name = QString::fromStdString(worker_file_name(worker));
    QString meaning;
    switch (f.state) {
    case FileState::Writing:
        meaning = tr("being written under a temporary name (%1 so far)").arg(bytesText(f.bytes));
        break;
    case FileState::Synced:
        meaning = tr("its bytes fsynced, still under the temporary name");
        break;
    case FileState::Renamed:
        meaning = tr("renamed into place and the directory fsynced; waiting for the MANIFEST");
        break;
    case FileState::Committed:
        meaning = tr("named by the committed MANIFEST (%1)").arg(bytesText(f.bytes));
        break;
    case FileState::Partial:
        meaning = tr("its writer crashed (%1 written)").arg(bytesText(f.bytes));
        break;
    case FileState::Corrupt:
        meaning = f.damage == 1 ? tr("truncated on disk after the commit")
                                : tr("a bit flipped on disk after the commit");
        break;
    case FileState::Missing:
        meaning = tr("never written: the crash came before its turn");
        break;
    case FileState::Absent:
        break;
    }
    return tr("%1 of %2: %3: %4").arg(name, dir, style_for(f.state).label, meaning);
}

bool CheckpointView::event(QEvent* event) {
    if (event->type() == QEvent::ToolTip) {
        const auto* help = static_cast<QHelpEvent*>(event);
        const int columns = static_cast<int>(shelf(playhead_).checkpoints.size());
        const int workers = index_ ? index_->workers() : 0;
        for (int c = 0; c < columns; ++c)
            for (int w = -1; w < workers; ++w)
                if (boxRect(c, w).contains(help->pos())) {
                    QToolTip::showText(help->globalPos(), describeBox(c, w), this);
                    return true;
                }
        QToolTip::hideText();
        event->ignore();
        return true;
    }
    return QWidget::event(event);
}

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

void CheckpointView::changeEvent(QEvent* event) {
    if (event->type() == QEvent::LanguageChange) {
        retranslate();
        setAccessibleDescription(summary());
    }
    if (event->type() == QEvent::FontChange || event->type() == QEvent::PaletteChange ||
        event->type() == QEvent::StyleChange || event->type() == QEvent::LanguageChange)
        update();
    QWidget::changeEvent(event);
}

} // namespace lockstep::views
