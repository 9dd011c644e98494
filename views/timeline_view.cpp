#include "lockstep_views/timeline_view.h"

#include "lockstep_views/names.h"
#include "lockstep_views/palette.h"
#include "lockstep_views/timeline_axis.h"
#include "lockstep_views/timeline_styles.h"
#include "trace/event_kinds.h"

#include <QFontMetricsF>
#include <QLocale>

#include <algorithm>
#include <cmath>
#include <limits>

namespace lockstep::views {

using namespace timeline;

namespace {

constexpr Ticks kMinSpan = 1'000; // 1 µs: the deepest zoom

} // namespace

TimelineView::TimelineView(QWidget* parent)
    : QWidget(parent) {
    retranslate();
    setFocusPolicy(Qt::StrongFocus);
    setAttribute(Qt::WA_OpaquePaintEvent);
    updateAccessibleDescription();
}

void TimelineView::retranslate() {
    setAccessibleName(tr("Timeline view"));
}

void TimelineView::setTrace(const TraceIndex* index) {
    index_ = index;
    layout_valid_ = false;
    event_layer_.valid = false;
    fitAll();
    updateGeometry();
}

void TimelineView::refresh() {
    layout_valid_ = false;
    event_layer_.valid = false;
    if (fitted_)
        fitAll();
    keepPlayheadInView();
    updateGeometry();
    updateAccessibleDescription();
    update();
}

void TimelineView::setPlayhead(Ticks t) {
    if (t == playhead_)
        return;
    playhead_ = t;
    if (fitted_ && t > to_)
        fitAll();
    keepPlayheadInView();
    updateAccessibleDescription();
    update();
}

void TimelineView::setVisibleRange(Ticks from, Ticks to) {
    if (to <= from)
        return;
    fitted_ = false;
    applyRange(from, to);
}

void TimelineView::fitAll() {
    const Ticks end = std::max(dataEnd(), playhead_);
    const Ticks to = end > 0 ? std::max(end + end / 50, kMinSpan) : kTicksPerSecond;
    applyRange(0, to);
    fitted_ = true;
}

void TimelineView::setFollowPlayhead(bool follow) {
    follow_ = follow;
    keepPlayheadInView();
}

int TimelineView::workers() const {
    return index_ ? std::max(index_->workers(), 0) : 0;
}

Ticks TimelineView::dataEnd() const {
    return index_ ? index_->end_time() : 0;
}

const TimelineView::Layout& TimelineView::layout() const {
    const int n = workers();
    if (layout_valid_ && layout_.size == size() && layout_.workers == n)
        return layout_;
    const QFontMetricsF fm(font());
    Layout l;
    l.size = size();
    l.workers = n;
    l.line = fm.height();
    l.ascent = fm.ascent();
    l.descent = fm.descent();
    l.tick_spacing = fm.horizontalAdvance(QStringLiteral("000.000 ms")) + l.line * 1.5;
    l.digit_width = fm.horizontalAdvance(QStringLiteral("0123456789")) / 10.0;
    l.step_prefix_width = fm.horizontalAdvance(tr("step %1").arg(QString()));
    const double pad = std::round(l.line * 0.5);
    const QString widest = tr("worker %1").arg(std::max(n - 1, 10));
    l.gutter = std::round(fm.horizontalAdvance(widest) + 2 * pad);
    const double right =
        width() - std::max(pad, std::round(fm.horizontalAdvance(QStringLiteral("00.000 ms")) / 2));
    l.legend = QRectF(0, std::round(pad * 0.5), width(), std::round(l.line * 1.6));
    l.steps = QRectF(l.gutter, l.legend.bottom(), right - l.gutter, std::round(l.line * 1.4));
    const double axis_height = std::round(l.line * 2.0);
    const double available =
        std::max(0.0, height() - l.steps.bottom() - axis_height - std::round(pad * 0.5));
    l.lane_pitch = n > 0 ? std::min(available / n, std::round(l.line * 4.0)) : 0.0;
    const double lanes_height = n > 0 ? std::round(l.lane_pitch * n) : available;
    l.plot = QRectF(l.gutter, l.steps.bottom(), right - l.gutter, lanes_height);
    l.axis = QRectF(l.gutter, l.plot.bottom(), right - l.gutter, axis_height);
    layout_ = l;
    layout_valid_ = true;
    return layout_;
}

// Lanes start and end on whole pixels, with a gap between them when there is room for one.
QRectF TimelineView::Layout::lane(int worker) const {
    if (worker < 0 || worker >= workers)
        return {};
    const double gap = lane_pitch >= 6 ? std::max(1.0, std::round(lane_pitch * 0.12)) : 0.0;
    const double top = std::round(plot.top() + worker * lane_pitch);
    const double bottom =
        std::max(top + 1, std::round(plot.top() + (worker + 1) * lane_pitch) - gap);
    return QRectF(plot.left(), top, plot.width(), bottom - top);
}

QRectF TimelineView::laneRect(int worker) const {
    return layout().lane(worker);
}

QRectF TimelineView::axisRect() const {
    return layout().axis;
}

double TimelineView::xForTime(Ticks t) const {
    const Layout& l = layout();
    const double span = static_cast<double>(to_ - from_);
    return l.plot.left() + static_cast<double>(t - from_) / span * l.plot.width();
}

Ticks TimelineView::timeForX(double x) const {
    const Layout& l = layout();
    const double span = static_cast<double>(to_ - from_);
    const double w = std::max(l.plot.width(), 1.0);
    return from_ + static_cast<Ticks>(std::llround((x - l.plot.left()) / w * span));
}

// The vertical extent of a band inside a lane rectangle, in whole pixels.
QRectF TimelineView::eventRect(const TraceEvent& event) const {
    const QRectF lane = laneRect(event.worker);
    if (lane.isNull())
        return {};
    const QRectF row = row_rect(lane, index_ && index_->has_buckets(), event.bucket >= 0);
    const QRectF band = band_rect(row, band_of(event.kind));
    const double x0 = xForTime(event.start);
    const double x1 = xForTime(event.end);
    return QRectF(x0, band.top(), x1 - x0, band.height());
}

const TraceEvent* TimelineView::eventAt(QPointF pos) const {
    const Layout& l = layout();
    if (!index_ || !l.plot.contains(pos) || l.lane_pitch <= 0)
        return nullptr;
    const int worker = static_cast<int>(std::floor((pos.y() - l.plot.top()) / l.lane_pitch));
    if (!laneRect(worker).contains(pos))
        return nullptr;
    const double tolerance = 2.0; // pixels: thin events stay pickable
    const double played_x = xForTime(std::min(playhead_, to_));
    if (pos.x() > played_x + tolerance)
        return nullptr;
    const Ticks latest = timeForX(pos.x() + tolerance);
    const auto lane = index_->lane(worker);
    auto it = std::upper_bound(lane.begin(), lane.end(), latest,
                               [](Ticks value, const TraceEvent& e) { return value < e.start; });
    const TraceEvent* best = nullptr;
    bool best_exact = false;
    for (int scanned = 0; it != lane.begin() && scanned < 64; ++scanned) {
        --it;
        if (it->end <= it->start || it->start >= playhead_)
            continue;
        const QRectF r = eventRect(*it);
        const bool exact = r.contains(pos);
        if (!exact && !r.adjusted(-tolerance, 0, tolerance, 0).contains(pos))
            continue;
        if (!best || (exact && !best_exact) ||
            (exact == best_exact && priority_of(it->kind) > priority_of(best->kind))) {
            best = &*it;
            best_exact = exact;
        }
    }
    return best;
}

QString TimelineView::describe(const TraceEvent& e) {
    const QString head =
        e.round >= 0
            ? tr("%1 · worker %2 · step %3 · round %4")
                  .arg(event_name(e.kind))
                  .arg(e.worker)
                  .arg(e.step)
                  .arg(e.round)
            : tr("%1 · worker %2 · step %3").arg(event_name(e.kind)).arg(e.worker).arg(e.step);
    QString text =
        head + QLatin1Char('\n') +
        QStringLiteral("%1 \u2192 %2 (%3)")
            .arg(exact_seconds(e.start), exact_seconds(e.end), exact_seconds(e.end - e.start));
    const bool communication = e.kind == EventKind::Send || e.kind == EventKind::Receive ||
                               e.kind == EventKind::Reduce || e.kind == EventKind::Communicate;
    if (communication && e.bytes > 0) {
        const QLocale locale;
        const QString count = locale.toString(static_cast<qint64>(e.bytes));
        QString bytes = e.bytes >= 1024
                            ? tr("%1 bytes (%2)").arg(count, locale.formattedDataSize(e.bytes))
                            : tr("%1 bytes").arg(count);
        if (e.kind == EventKind::Send && e.peer >= 0)
            bytes = tr("%1 to worker %2").arg(bytes).arg(e.peer);
        else if (e.peer >= 0)
            bytes = tr("%1 from worker %2").arg(bytes).arg(e.peer);
        text += QLatin1Char('\n') + bytes;
    } else if (communication && e.peer >= 0) {
        text += QLatin1Char('\n') + tr("peer: worker %1").arg(e.peer);
    }
    if (e.half != CollectiveHalf::None)
        text += QLatin1Char('\n') + half_name(e);
    else if (e.bucket >= 0 && e.layer >= 0 && e.layer_end > e.layer + 1)
        text += QLatin1Char('\n') + tr("bucket %1: the gradients of layers %2 to %3")
                                        .arg(e.bucket)
                                        .arg(e.layer_end - 1)
                                        .arg(e.layer);
    else if (e.bucket >= 0 && e.layer >= 0)
        text += QLatin1Char('\n') +
                tr("bucket %1: the gradient of layer %2").arg(e.bucket).arg(e.layer);
    else if (e.kind == EventKind::Backward && e.layer >= 0)
        text += QLatin1Char('\n') + tr("backward through layer %1: its gradient is ready at the "
                                       "end")
                                        .arg(e.layer);
    if (e.version >= 0 && e.staleness >= 0)
        text += QLatin1Char('\n') +
                tr("gradient computed on version %1 of the model, τ = %2 (%n update(s) "
                   "behind)",
                   nullptr, e.staleness)
                    .arg(e.version)
                    .arg(e.staleness);
    else if (e.version >= 0)
        text += QLatin1Char('\n') + tr("version %1 of the model").arg(e.version);
    return text;
}

QSize TimelineView::sizeHint() const {
    const QFontMetricsF fm(font());
    const int chrome = static_cast<int>(fm.height() * 6);
    const int lanes = static_cast<int>(std::min(workers() * fm.height() * 2.0, 640.0));
    return {900, chrome + std::max(lanes, static_cast<int>(fm.height() * 4))};
}

QSize TimelineView::minimumSizeHint() const {
    const QFontMetricsF fm(font());
    const int chrome = static_cast<int>(fm.height() * 6);
    return {static_cast<int>(fm.height() * 20), chrome + std::max(workers(), 1)};
}

void TimelineView::applyRange(Ticks from, Ticks to) {
    to = std::max(to, from + 1);
    if (from == from_ && to == to_)
        return;
    from_ = from;
    to_ = to;
    updateAccessibleDescription();
    update();
    Q_EMIT visibleRangeChanged(from_, to_);
}

// Zooms by `factor` (below 1: in) keeping the time under `x` where it is.
void TimelineView::zoomAround(double x, double factor) {
    const Layout& l = layout();
    const double span = static_cast<double>(to_ - from_);
    const double max_span = std::max(4.0 * static_cast<double>(std::max(dataEnd(), playhead_)),
                                     static_cast<double>(kTicksPerSecond));
    const double new_span = std::clamp(span * factor, static_cast<double>(kMinSpan), max_span);
    const double fraction =
        std::clamp((x - l.plot.left()) / std::max(l.plot.width(), 1.0), 0.0, 1.0);
    const double anchor = static_cast<double>(from_) + fraction * span;
    auto from = static_cast<Ticks>(std::llround(anchor - fraction * new_span));
    from = std::max<Ticks>(from, 0);
    fitted_ = false;
    applyRange(from, from + static_cast<Ticks>(std::llround(new_span)));
}

void TimelineView::panByPixels(double dx) {
    const Layout& l = layout();
    const double span = static_cast<double>(to_ - from_);
    const auto shift = static_cast<Ticks>(std::llround(dx / std::max(l.plot.width(), 1.0) * span));
    const Ticks latest = std::max({dataEnd(), playhead_, Ticks{0}});
    const Ticks from =
        std::clamp<Ticks>(from_ - shift, 0, std::max<Ticks>(latest - (to_ - from_) / 10, 0));
    fitted_ = false;
    applyRange(from, from + (to_ - from_));
}

void TimelineView::keepPlayheadInView() {
    if (!follow_)
        return;
    const Ticks span = to_ - from_;
    if (playhead_ > from_ + span * 9 / 10) {
        const Ticks from = playhead_ - span * 9 / 10;
        applyRange(from, from + span);
    } else if (playhead_ < from_ + span / 20 && from_ > 0) {
        const Ticks from = std::max<Ticks>(playhead_ - span / 20, 0);
        applyRange(from, from + span);
    }
}

void TimelineView::updateAccessibleDescription() {
    const int n = workers();
    const QString lanes = n == 1 ? tr("1 worker") : tr("%1 workers").arg(n);
    // Told once per step (and when the shown range changes), not on every frame.
    const StepSnapshot* snap = index_ ? index_->snapshot_at(playhead_) : nullptr;
    QString description = tr("%1, %2 shown, %3 steps done")
                              .arg(lanes, concise(to_ - from_))
                              .arg(snap ? snap->step + 1 : 0);
    const QString recovery = recoveryText();
    if (!recovery.isEmpty())
        description += QStringLiteral(". ") + recovery;
    if (description != accessibleDescription())
        setAccessibleDescription(description);
}

void TimelineView::setBranchMarks(QList<BranchMark> marks) {
    marks_ = std::move(marks);
    update();
}

} // namespace lockstep::views
