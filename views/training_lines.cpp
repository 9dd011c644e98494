// The Training view's lines: loss and accuracy per step from the snapshots up to the playhead.
#include "lockstep_views/training_view.h"

#include "training_numbers.h"

#include "lockstep_views/chart_style.h"
#include "lockstep_views/numbers.h"
#include "lockstep_views/trace_index.h"

#include <QChart>
#include <QLabel>
#include <QLineSeries>
#include <QScatterSeries>
#include <QValueAxis>

#include <algorithm>
#include <cmath>

namespace lockstep::views {

using training::format_loss;
using training::format_percent;

namespace {

// Points a line draws at most: two per pixel column of the plot (its lowest and highest), never
// more than kMaxLinePoints. Drawing all of a long run's steps would slow every frame as the run
// goes on, and shows nothing more.
constexpr qsizetype kMaxLinePoints = 1000;
constexpr qsizetype kMinLinePoints = 200;

// At most `budget` of `points`, in their order: for each run of consecutive points its lowest
// and highest (so a spike stays), and always the first and the last.
QList<QPointF> thinned(const QList<QPointF>& points, qsizetype budget) {
    const qsizetype n = points.size();
    if (n <= budget)
        return points;
    QList<QPointF> out;
    out.reserve(budget + 2);
    out.append(points.front());
    const qsizetype buckets = budget / 2 - 1;
    for (qsizetype b = 0; b < buckets; ++b) {
        const qsizetype from = 1 + (n - 2) * b / buckets;
        const qsizetype to = 1 + (n - 2) * (b + 1) / buckets;
        qsizetype low = from, high = from;
        for (qsizetype i = from; i < to; ++i) {
            if (points[i].y() < points[low].y())
                low = i;
            if (points[i].y() > points[high].y())
                high = i;
        }
        if (from >= to)
            continue;
        out.append(points[std::min(low, high)]);
        if (low != high)
            out.append(points[std::max(low, high)]);
    }
    out.append(points.back());
    return out;
}

// Which workers get their own line: all of them up to `limit`, else evenly spread ones.
std::vector<int> chosen_replicas(int workers, int limit) {
    std::vector<int> chosen;
    if (workers <= limit) {
        for (int k = 0; k < workers; ++k)
            chosen.push_back(k);
        return chosen;
    }
    for (int i = 0; i < limit; ++i)
        chosen.push_back(static_cast<int>(
            std::lround(static_cast<double>(i) * (workers - 1) / static_cast<double>(limit - 1))));
    return chosen;
}

} // namespace

// Replaces the loss lines when their number or meaning changes (one mean line, or one per
// replica); otherwise updateSeries() only replaces their points.
void TrainingView::rebuildSeries(int count, bool replicas) {
    for (QLineSeries* series : std::as_const(lossSeries_)) {
        chart_->removeSeries(series);
        delete series;
    }
    lossSeries_.clear();
    replicaMode_ = replicas;
    for (int i = 0; i < count; ++i) {
        auto* series = new QLineSeries(chart_);
        series->setName(lossSeriesTitle(i));
        chart_->addSeries(series);
        series->attachAxis(stepAxis_);
        series->attachAxis(lossAxis_);
        lossSeries_.push_back(series);
    }
    applyStyle();
}

// Moves an axis only when the data has left it or fills less than 40 % of it: a new range lays
// the whole chart out again, far too slow to do every frame while a run streams in.
static void fit_axis(QValueAxis* axis, double low, double high) {
    const double span = axis->max() - axis->min();
    if (low >= axis->min() && high <= axis->max() && high - low >= 0.4 * span)
        return;
    axis->setRange(low, high);
    axis->applyNiceNumbers();
}

// Reads the snapshots up to the playhead into the lines. Skipped when nothing visible changed,
// so moving the playhead inside a step costs nothing.
void TrainingView::updateSeries(bool force) {
    static const std::vector<StepSnapshot> none;
    const std::vector<StepSnapshot>& snaps = trace_ ? trace_->snapshots() : none;
    const auto end =
        std::upper_bound(snaps.begin(), snaps.end(), playhead_,
                         [](Ticks t, const StepSnapshot& snapshot) { return t < snapshot.time; });
    const auto visible = static_cast<std::size_t>(end - snaps.begin());
    if (!force && visible == shownSnapshots_ && snaps.size() == knownSnapshots_)
        return;
    shownSnapshots_ = visible;
    knownSnapshots_ = snaps.size();

    // One line per replica as soon as a shown step ended with replicas that differ; beside
    // compared runs, the playing run's mean alone, so every line there is one run.
    const bool replicas =
        comparison_.isEmpty() && std::any_of(snaps.begin(), end, [](const StepSnapshot& snapshot) {
            return !snapshot.replicas_aligned;
        });
    int workers = trace_ ? trace_->workers() : 0;
    for (auto it = snaps.begin(); it != end; ++it)
        workers = std::max(workers, static_cast<int>(it->worker_loss.size()));
    std::vector<int> chosen =
        replicas ? chosen_replicas(workers, kMaxReplicaSeries) : std::vector<int>{};
    const int count = replicas ? static_cast<int>(chosen.size()) : 1;
    if (replicas != replicaMode_ || chosen != replicaWorkers_ || count != seriesCount()) {
        replicaWorkers_ = std::move(chosen);
        rebuildSeries(count, replicas);
    }

    // A restart (the step number going back) begins a new attempt: each attempt is its own
    // segment, so no line ever runs back in time.
    std::vector<std::size_t> starts{0};
    for (std::size_t k = 1; k < visible; ++k)
        if (snaps[k].step <= snaps[k - 1].step)
            starts.push_back(k);
    starts.push_back(visible);
    const std::size_t attempts = starts.size() - 1;
    const std::size_t lost = attempts > 0 ? (attempts - 1) * static_cast<std::size_t>(count) : 0;
    if (static_cast<std::size_t>(lostSeries_.size()) != lost) {
        for (QLineSeries* series : std::as_const(lostSeries_)) {
            chart_->removeSeries(series);
            delete series;
        }
        lostSeries_.clear();
        for (std::size_t k = 0; k < lost; ++k) {
            auto* series = new QLineSeries(chart_);
            chart_->addSeries(series);
            series->attachAxis(stepAxis_);
            series->attachAxis(lossAxis_);
            lostSeries_.push_back(series);
        }
        applyStyle();
    }

    QList<QPointF> points;
    points.reserve(static_cast<qsizetype>(visible));
    const qsizetype budget = std::clamp<qsizetype>(
        2 * static_cast<qsizetype>(chart_->plotArea().width()), kMinLinePoints, kMaxLinePoints);
    const auto lossOf = [&](const StepSnapshot& snapshot, int line) {
        if (!replicas)
            return snapshot.loss;
        const auto w = static_cast<std::size_t>(replicaWorkers_[static_cast<std::size_t>(line)]);
        return w < snapshot.worker_loss.size() ? snapshot.worker_loss[w] : snapshot.loss;
    };
    for (std::size_t a = 0; a < std::max<std::size_t>(attempts, 1); ++a) {
        for (int i = 0; i < count; ++i) {
            points.clear();
            if (attempts > 0)
                for (std::size_t k = starts[a]; k < starts[a + 1]; ++k)
                    if (const double loss = lossOf(snaps[k], i); std::isfinite(loss))
                        points.append(QPointF(static_cast<double>(snaps[k].step), loss));
            const bool current = attempts == 0 || a + 1 == attempts;
            QLineSeries* series =
                current
                    ? lossSeries_[i]
                    : lostSeries_[static_cast<qsizetype>(a) * count + static_cast<qsizetype>(i)];
            series->replace(thinned(points, budget));
        }
    }
    // Accuracy: the current attempt's alone, so it never runs back in time either.
    points.clear();
    for (std::size_t k = attempts > 0 ? starts[attempts - 1] : 0; k < visible; ++k)
        points.append(QPointF(static_cast<double>(snaps[k].step), snaps[k].accuracy * 100.0));
    accuracySeries_->replace(thinned(points, budget));
    // The steps skipped on an overflow, on the current attempt's loss line, each marked.
    points.clear();
    for (std::size_t k = attempts > 0 ? starts[attempts - 1] : 0; k < visible; ++k)
        if (snaps[k].overflow && std::isfinite(snaps[k].loss))
            points.append(QPointF(static_cast<double>(snaps[k].step), snaps[k].loss));
    skippedSeries_->replace(points);

    // Axes cover the whole trace, not just the shown part, so they hold still while playing.
    // A trace whose accuracy is never above zero is a regression run: no accuracy line.
    double firstStep = 0, lastStep = 1, maxLoss = 0;
    bool anyAccuracy = false;
    if (!snaps.empty()) {
        firstStep = static_cast<double>(snaps.front().step);
        lastStep = std::max(firstStep + 1, static_cast<double>(snaps.back().step));
    }
    for (const StepSnapshot& snapshot : snaps) {
        if (std::isfinite(snapshot.loss)) // a diverged run's last losses are not drawn
            maxLoss = std::max(maxLoss, snapshot.loss);
        for (double l : snapshot.worker_loss)
            if (std::isfinite(l))
                maxLoss = std::max(maxLoss, l);
        anyAccuracy = anyAccuracy || snapshot.accuracy > 0;
    }
    if (branchedSeries_->isVisible())
        for (const QPointF& p : branchedSeries_->points()) {
            maxLoss = std::max(maxLoss, p.y());
            lastStep = std::max(lastStep, p.x());
        }
    for (const QLineSeries* series : std::as_const(comparison_))
        for (const QPointF& p : series->points()) {
            if (std::isfinite(p.y()))
                maxLoss = std::max(maxLoss, p.y());
            lastStep = std::max(lastStep, p.x());
        }
    if (!std::isfinite(maxLoss) || maxLoss <= 0)
        maxLoss = 1;
    fit_axis(stepAxis_, firstStep, lastStep);
    fit_axis(lossAxis_, 0, maxLoss * 1.05);
    if (anyAccuracy != accuracyShown_) {
        accuracyShown_ = anyAccuracy;
        accuracySeries_->setVisible(accuracyShown_);
        accuracyAxis_->setVisible(accuracyShown_);
    }
    updateLegend();

    // The header and the accessible description say the same thing.
    QStringList shown, spoken;
    if (visible == 0) {
        shown << tr("No training steps yet");
        spoken << tr("no training steps yet");
    } else {
        const StepSnapshot& last = *(end - 1);
        shown << tr("Step %1").arg(last.step) << tr("loss %1").arg(format_loss(last.loss));
        spoken << tr("step %1").arg(last.step) << tr("loss %1").arg(format_loss(last.loss));
        // Trained, and no longer a number: the run stopped there (a times-only run has no loss).
        const auto diverged = std::find_if(snaps.begin(), end, [](const StepSnapshot& s) {
            return std::isinf(s.loss) || (std::isnan(s.loss) && !s.parameter_hash.empty());
        });
        if (diverged != end) {
            const QString said =
                tr("training diverged in step %1: the loss became %2; the learning rate is "
                   "probably too large")
                    .arg(diverged->step)
                    .arg(std::isnan(diverged->loss) ? tr("not a number") : tr("infinite"));
            shown << said;
            spoken << said;
        }
        if (accuracyShown_) {
            shown << tr("accuracy %1%").arg(format_percent(last.accuracy));
            spoken << tr("accuracy %1%").arg(format_percent(last.accuracy));
        }
        const QString replicaText =
            replicas
                ? (last.replicas_aligned ? tr("replicas identical again") : tr("replicas differ"))
                : tr("replicas identical");
        shown << replicaText;
        spoken << replicaText;
        if (replicas && workers > kMaxReplicaSeries)
            shown << tr("%1 of %2 workers drawn").arg(seriesCount()).arg(workers);
        // Mixed precision: the loss scale the step at the playhead used, and the steps skipped.
        if (last.loss_scale != 1.0) {
            const QString scale = tr("loss scale %1").arg(display_number(last.loss_scale, 'f', 0));
            shown << scale;
            spoken << scale;
        }
        if (const qsizetype skipped = skippedSeries_->count(); skipped > 0) {
            const QString said =
                last.overflow
                    ? tr("step %1 skipped: its summed gradient overflowed, the loss scale is "
                         "halved")
                          .arg(last.step)
                : skipped == 1 ? tr("1 step skipped on an overflow")
                               : tr("%1 steps skipped on an overflow").arg(skipped);
            shown << said;
            spoken << said;
        }
    }
    header_->setText(shown.join(QStringLiteral("  ·  ")));
    setAccessibleDescription(spoken.join(QStringLiteral(", ")));
}

} // namespace lockstep::views
