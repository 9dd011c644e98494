// The Checkpoints view: the shelf and the scan at the playhead in words, verdicts one by one.
#include "lockstep_views/checkpoint_view.h"

#include "checkpoint_view_parts.h"

#include "lockstep_views/continuation_plot.h"
#include "lockstep_views/names.h"
#include "lockstep_views/numbers.h"

#include <QCoreApplication>
#include <QEvent>
#include <QFontMetricsF>
#include <QHelpEvent>
#include <QToolTip>

#include <algorithm>
#include <cmath>

namespace lockstep::views {

namespace checkpoints {

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

} // namespace checkpoints

using namespace checkpoints;

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

SessionView* make_checkpoints_view() {
    return new CheckpointView;
}

} // namespace lockstep::views
