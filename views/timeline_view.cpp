#include "lockstep_views/timeline_view.h"

#include "lockstep_views/palette.h"

#include <QFontMetricsF>
#include <QHelpEvent>
#include <QKeyEvent>
#include <QLocale>
#include <QMouseEvent>
#include <QPainter>
#include <QPainterPath>
#include <QToolTip>
#include <QWheelEvent>

#include <algorithm>
#include <array>
#include <cmath>
#include <limits>
#include <vector>

namespace lockstep::views {

namespace {

constexpr Ticks kMinSpan = 1'000; // 1 µs: the deepest zoom

// How the lane draws a kind: which band of the lane it occupies and which colour class.
enum Band { Inner, Upper, Lower, Outer, BandCount };
enum PaintClass {
    ComputeClass,
    CommClass,
    UpdateClass,
    WaitClass,
    PauseClass,
    CheckpointClass,
    FailedClass,
    ClassCount
};

Band band_of(EventKind kind) {
    switch (kind) {
    case EventKind::Send:
        return Upper;
    case EventKind::Receive:
    case EventKind::Reduce:
        return Lower;
    case EventKind::Wait:
    case EventKind::Pause:
    case EventKind::Failed:
    case EventKind::Detect:
    case EventKind::Bubble:
        return Outer;
    case EventKind::Restore:
    case EventKind::Verify:
    case EventKind::Damage:
    case EventKind::Compute:
    case EventKind::Forward:
    case EventKind::Backward:
    case EventKind::Update:
    case EventKind::Communicate:
    case EventKind::CheckpointWrite:
    case EventKind::CheckpointSync:
    case EventKind::CheckpointCommit:
        break;
    }
    return Inner;
}

PaintClass class_of(EventKind kind) {
    switch (kind) {
    case EventKind::Compute:
    case EventKind::Forward:
    case EventKind::Backward:
        return ComputeClass;
    case EventKind::Send:
    case EventKind::Receive:
    case EventKind::Reduce:
    case EventKind::Communicate:
        return CommClass;
    case EventKind::Update:
        return UpdateClass;
    case EventKind::Wait:
    case EventKind::Bubble:
        return WaitClass;
    case EventKind::Pause:
        return PauseClass;
    case EventKind::CheckpointWrite:
    case EventKind::CheckpointSync:
    case EventKind::CheckpointCommit:
    case EventKind::Restore:
    case EventKind::Verify:
    case EventKind::Damage:
        return CheckpointClass;
    case EventKind::Failed:
    case EventKind::Detect:
        return FailedClass;
    }
    return ComputeClass;
}

constexpr std::array<EventKind, ClassCount> kClassKinds{
    EventKind::Compute, EventKind::Communicate,     EventKind::Update, EventKind::Wait,
    EventKind::Pause,   EventKind::CheckpointWrite, EventKind::Failed};

QString class_label(PaintClass c) {
    switch (c) {
    case ComputeClass:
        return TimelineView::tr("compute");
    case CommClass:
        return TimelineView::tr("communicate");
    case UpdateClass:
        return TimelineView::tr("update");
    case WaitClass:
        return TimelineView::tr("wait");
    case PauseClass:
        return TimelineView::tr("pause");
    case CheckpointClass:
        return TimelineView::tr("checkpoint");
    case FailedClass:
        return TimelineView::tr("failed");
    case ClassCount:
        break;
    }
    return {};
}

// The darker shade a patterned kind draws its pattern in, over its solid colour.
QColor pattern_colour(const QColor& colour) {
    return colour.darker(175);
}

// Ranks the kinds by how much they tell when several meet under the pointer.
int rank(EventKind kind) {
    switch (kind) {
    case EventKind::Failed:
    case EventKind::Detect:
        return 7;
    case EventKind::Wait:
    case EventKind::Bubble:
        return 6;
    case EventKind::Pause:
        return 5;
    case EventKind::Send:
    case EventKind::Receive:
        return 4;
    case EventKind::Reduce:
    case EventKind::Communicate:
        return 3;
    case EventKind::CheckpointWrite:
    case EventKind::CheckpointSync:
    case EventKind::CheckpointCommit:
    case EventKind::Restore:
    case EventKind::Verify:
    case EventKind::Damage:
        return 2;
    case EventKind::Compute:
    case EventKind::Forward:
    case EventKind::Backward:
    case EventKind::Update:
        return 1;
    }
    return 0;
}

// Seconds written out to the nanosecond: six decimals when they are exact, nine otherwise.
QString exact_seconds(Ticks t) {
    const bool negative = t < 0;
    const auto magnitude = static_cast<std::uint64_t>(negative ? -t : t);
    const auto whole = magnitude / static_cast<std::uint64_t>(kTicksPerSecond);
    const auto frac = magnitude % static_cast<std::uint64_t>(kTicksPerSecond);
    const QString fraction = frac % 1000 == 0
                                 ? QStringLiteral("%1").arg(frac / 1000, 6, 10, QLatin1Char('0'))
                                 : QStringLiteral("%1").arg(frac, 9, 10, QLatin1Char('0'));
    return QStringLiteral("%1%2.%3 s")
        .arg(negative ? QStringLiteral("-") : QString())
        .arg(whole)
        .arg(fraction);
}

// A unit for time labels: its name and size in ticks.
struct TimeUnit {
    QString name;
    double ticks;
};

TimeUnit unit_for(double magnitude) {
    if (magnitude >= 1e9)
        return {QStringLiteral("s"), 1e9};
    if (magnitude >= 1e6)
        return {QStringLiteral("ms"), 1e6};
    if (magnitude >= 1e3)
        return {QStringLiteral("\u00B5s"), 1e3};
    return {QStringLiteral("ns"), 1.0};
}

TimeUnit smaller(const TimeUnit& unit) {
    return unit_for(unit.ticks / 1000.0);
}

// A short human reading of a duration ("12.5 s", "350 ms"), for the accessible description.
QString concise(Ticks t) {
    const double magnitude = std::abs(static_cast<double>(t));
    const TimeUnit unit = unit_for(magnitude);
    const double value = static_cast<double>(t) / unit.ticks;
    const int decimals = std::abs(value) >= 100 ? 0 : std::abs(value) >= 10 ? 1 : 2;
    QString text = QString::number(value, 'f', decimals);
    if (text.contains(QLatin1Char('.'))) {
        while (text.endsWith(QLatin1Char('0')))
            text.chop(1);
        if (text.endsWith(QLatin1Char('.')))
            text.chop(1);
    }
    return text + QLatin1Char(' ') + unit.name;
}

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

} // namespace

TimelineView::TimelineView(QWidget* parent)
    : QWidget(parent) {
    setAccessibleName(tr("Timeline view"));
    setFocusPolicy(Qt::StrongFocus);
    setAttribute(Qt::WA_OpaquePaintEvent);
    updateAccessibleDescription();
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
    const QString widest = QStringLiteral("worker %1").arg(std::max(n - 1, 10));
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
static QRectF band_rect(const QRectF& lane, Band band) {
    if (band == Outer)
        return lane;
    const double h = lane.height();
    const double inset = h >= 10 ? std::round(h * 0.15) : 0.0;
    const QRectF inner = lane.adjusted(0, inset, 0, -inset);
    if (band == Inner || inner.height() < 2)
        return inner;
    const double mid = inner.top() + std::floor(inner.height() / 2);
    return band == Upper ? QRectF(inner.left(), inner.top(), inner.width(), mid - inner.top())
                         : QRectF(inner.left(), mid, inner.width(), inner.bottom() - mid);
}

QRectF TimelineView::eventRect(const TraceEvent& event) const {
    const QRectF lane = laneRect(event.worker);
    if (lane.isNull())
        return {};
    const QRectF band = band_rect(lane, band_of(event.kind));
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
            (exact == best_exact && rank(it->kind) > rank(best->kind))) {
            best = &*it;
            best_exact = exact;
        }
    }
    return best;
}

QString TimelineView::describe(const TraceEvent& e) {
    QString head = QStringLiteral("%1 \u00B7 %2 \u00B7 %3")
                       .arg(QString::fromUtf8(to_string(e.kind).data(),
                                              static_cast<qsizetype>(to_string(e.kind).size())),
                            tr("worker %1").arg(e.worker), tr("step %1").arg(e.step));
    if (e.round >= 0)
        head += QStringLiteral(" \u00B7 ") + tr("round %1").arg(e.round);
    QString text =
        head + QLatin1Char('\n') +
        QStringLiteral("%1 \u2192 %2 (%3)")
            .arg(exact_seconds(e.start), exact_seconds(e.end), exact_seconds(e.end - e.start));
    const bool communication = e.kind == EventKind::Send || e.kind == EventKind::Receive ||
                               e.kind == EventKind::Reduce || e.kind == EventKind::Communicate;
    if (communication && e.bytes > 0) {
        const QLocale locale;
        QString bytes = tr("%1 bytes").arg(locale.toString(static_cast<qint64>(e.bytes)));
        if (e.bytes >= 1024)
            bytes += QStringLiteral(" (%1)").arg(locale.formattedDataSize(e.bytes));
        if (e.kind == EventKind::Send && e.peer >= 0)
            bytes += QLatin1Char(' ') + tr("to worker %1").arg(e.peer);
        else if (e.peer >= 0)
            bytes += QLatin1Char(' ') + tr("from worker %1").arg(e.peer);
        text += QLatin1Char('\n') + bytes;
    } else if (communication && e.peer >= 0) {
        text += QLatin1Char('\n') + tr("peer: worker %1").arg(e.peer);
    }
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
    setAccessibleDescription(
        tr("%1, %2 shown, playhead %3").arg(lanes, concise(to_ - from_), concise(playhead_)));
}

// The keys this view uses itself (the window's playback shortcuts leave them to it): Left and
// Right pan, + and - zoom, Home and 0 show the whole run.
static bool is_timeline_key(const QKeyEvent& key) {
    if (key.modifiers() & (Qt::ControlModifier | Qt::AltModifier | Qt::MetaModifier))
        return false;
    switch (key.key()) {
    case Qt::Key_Plus:
    case Qt::Key_Equal:
    case Qt::Key_Minus:
    case Qt::Key_Underscore:
    case Qt::Key_Left:
    case Qt::Key_Right:
    case Qt::Key_Home:
    case Qt::Key_0:
        return true;
    default:
        return false;
    }
}

bool TimelineView::event(QEvent* event) {
    if (event->type() == QEvent::ShortcutOverride &&
        is_timeline_key(*static_cast<QKeyEvent*>(event))) {
        event->accept();
        return true;
    }
    if (event->type() == QEvent::ToolTip) {
        const auto* help = static_cast<QHelpEvent*>(event);
        if (const TraceEvent* e = eventAt(help->pos())) {
            QToolTip::showText(help->globalPos(), describe(*e), this,
                               eventRect(*e).toAlignedRect());
        } else {
            QToolTip::hideText();
            event->ignore();
        }
        return true;
    }
    return QWidget::event(event);
}

void TimelineView::changeEvent(QEvent* event) {
    if (event->type() == QEvent::FontChange || event->type() == QEvent::PaletteChange) {
        layout_valid_ = false;
        updateGeometry();
        update();
    }
    QWidget::changeEvent(event);
}

void TimelineView::wheelEvent(QWheelEvent* event) {
    const QPoint delta = event->angleDelta();
    if (delta.y() != 0) {
        zoomAround(event->position().x(), std::pow(0.8, delta.y() / 120.0));
    } else if (delta.x() != 0) {
        panByPixels(delta.x() / 120.0 * layout().plot.width() / 10.0);
    }
    event->accept();
}

void TimelineView::mousePressEvent(QMouseEvent* event) {
    if (event->button() != Qt::LeftButton)
        return QWidget::mousePressEvent(event);
    const Layout& l = layout();
    const QPointF pos = event->position();
    const bool on_axis = l.axis.contains(pos);
    if (on_axis || (event->modifiers() & Qt::ShiftModifier)) {
        drag_ = Drag::Scrub;
        const double x = std::clamp(pos.x(), l.plot.left(), l.plot.right());
        Q_EMIT playheadRequested(timeForX(x));
    } else if (l.plot.contains(pos) || l.steps.contains(pos)) {
        drag_ = Drag::Pan;
        drag_x_ = pos.x();
        drag_from_ = from_;
        setCursor(Qt::ClosedHandCursor);
    }
    event->accept();
}

void TimelineView::mouseMoveEvent(QMouseEvent* event) {
    const Layout& l = layout();
    const double x = event->position().x();
    if (drag_ == Drag::Scrub) {
        Q_EMIT playheadRequested(timeForX(std::clamp(x, l.plot.left(), l.plot.right())));
    } else if (drag_ == Drag::Pan) {
        const double span = static_cast<double>(to_ - from_);
        const auto shift =
            static_cast<Ticks>(std::llround((x - drag_x_) / std::max(l.plot.width(), 1.0) * span));
        const Ticks latest = std::max({dataEnd(), playhead_, Ticks{0}});
        const Ticks from = std::clamp<Ticks>(drag_from_ - shift, 0,
                                             std::max<Ticks>(latest - (to_ - from_) / 10, 0));
        fitted_ = false;
        applyRange(from, from + (to_ - from_));
    }
    event->accept();
}

void TimelineView::mouseReleaseEvent(QMouseEvent* event) {
    if (drag_ == Drag::Pan)
        unsetCursor();
    drag_ = Drag::None;
    event->accept();
}

void TimelineView::keyPressEvent(QKeyEvent* event) {
    if (!is_timeline_key(*event))
        return QWidget::keyPressEvent(event);
    const Layout& l = layout();
    const double playhead_x = xForTime(playhead_);
    const double anchor = playhead_x >= l.plot.left() && playhead_x <= l.plot.right()
                              ? playhead_x
                              : l.plot.center().x();
    switch (event->key()) {
    case Qt::Key_Plus:
    case Qt::Key_Equal:
        zoomAround(anchor, 0.8);
        break;
    case Qt::Key_Minus:
    case Qt::Key_Underscore:
        zoomAround(anchor, 1.25);
        break;
    case Qt::Key_Left:
        panByPixels(l.plot.width() / 10.0);
        break;
    case Qt::Key_Right:
        panByPixels(-l.plot.width() / 10.0);
        break;
    case Qt::Key_Home:
    case Qt::Key_0:
        fitAll();
        break;
    default:
        return QWidget::keyPressEvent(event);
    }
    event->accept();
}

void TimelineView::paintEvent(QPaintEvent*) {
    QPainter painter(this);
    painter.fillRect(rect(), palette().color(QPalette::Base));
    painter.setRenderHint(QPainter::Antialiasing, true);
    painter.setRenderHint(QPainter::TextAntialiasing, true);
    painter.setFont(font());
    const Layout& l = layout();
    paintLegend(painter, l);
    paintLanes(painter, l);
    paintEvents(painter, l);
    paintSteps(painter, l);
    paintAxis(painter, l);
    paintBranchMarks(painter, l);
    paintPlayhead(painter, l);
    if (hasFocus()) {
        QPen pen(palette().color(QPalette::Highlight), 2);
        painter.setPen(pen);
        painter.setBrush(Qt::NoBrush);
        painter.drawRect(QRectF(rect()).adjusted(1, 1, -1, -1));
    }
}

// Draws `text` from `x`, centred vertically on `cy`. Placing by baseline skips the text layout
// pass that rectangle-aligned text costs, which matters with dozens of labels per frame.
static void draw_label(QPainter& painter, double x, double cy, const QString& text, double ascent,
                       double descent) {
    painter.drawText(QPointF(x, std::round(cy + (ascent - descent) / 2)), text);
}

// Fills `r` the way the timeline draws `kind`: its colour, then its pattern in a darker shade.
static void fill_swatch(QPainter& painter, const QRectF& r, EventKind kind) {
    const ActivityStyle style = style_for(kind);
    painter.fillRect(r, style.colour);
    if (style.brush != Qt::SolidPattern)
        painter.fillRect(r, QBrush(pattern_colour(style.colour), style.brush));
}

void TimelineView::paintLegend(QPainter& painter, const Layout& l) const {
    const QFontMetricsF fm(font());
    const double line = fm.height();
    const double swatch_w = std::round(line * 1.4);
    const double swatch_h = std::round(line * 0.8);
    double x = l.gutter;
    const double cy = l.legend.center().y();
    painter.setPen(palette().color(QPalette::Text));
    for (int c = 0; c < ClassCount; ++c) {
        const QString label = class_label(static_cast<PaintClass>(c));
        const QRectF swatch(x, std::round(cy - swatch_h / 2), swatch_w, swatch_h);
        const double label_w = fm.horizontalAdvance(label);
        if (swatch.left() + swatch_w + line * 0.4 + label_w > width())
            break;
        painter.setRenderHint(QPainter::Antialiasing, false);
        fill_swatch(painter, swatch, kClassKinds[static_cast<std::size_t>(c)]);
        painter.setRenderHint(QPainter::Antialiasing, true);
        const double text_x = swatch.right() + line * 0.4;
        draw_label(painter, text_x, cy, label, l.ascent, l.descent);
        x = text_x + label_w + line * 1.3;
    }
}

void TimelineView::paintLanes(QPainter& painter, const Layout& l) const {
    const int n = workers();
    const QColor text = palette().color(QPalette::Text);
    if (n == 0) {
        painter.setPen(palette().color(QPalette::PlaceholderText));
        painter.drawText(l.plot, Qt::AlignCenter, tr("No run yet"));
        return;
    }
    const QFontMetricsF fm(font());
    const double line = fm.height();
    // Thin lanes: label every stride-th one, so labels never overlap.
    int stride = 1;
    while (stride < n && stride * l.lane_pitch < line * 1.05)
        stride *= 2;
    const QColor stripe = palette().color(QPalette::AlternateBase);
    painter.setRenderHint(QPainter::Antialiasing, false);
    for (int k = 0; k < n; k += 2)
        painter.fillRect(laneRect(k), stripe);
    painter.setRenderHint(QPainter::Antialiasing, true);
    painter.setPen(text);
    const double pad = std::round(line * 0.5);
    for (int k = 0; k < n; k += stride) {
        const QRectF lane = laneRect(k);
        const QString label = tr("worker %1").arg(k);
        draw_label(painter, l.gutter - pad - fm.horizontalAdvance(label), lane.center().y(), label,
                   l.ascent, l.descent);
        if (stride > 1) {
            painter.setRenderHint(QPainter::Antialiasing, false);
            painter.drawLine(QPointF(l.gutter - pad * 0.6, lane.center().y()),
                             QPointF(l.gutter - 1, lane.center().y()));
            painter.setRenderHint(QPainter::Antialiasing, true);
        }
    }
}

// Fills whole-pixel rectangles (widget coordinates) of one opaque colour into `image`, whose
// top-left corner is at `origin`.
static void fill_rects(QImage& image, const std::vector<QRect>& rects, QPointF origin, qreal dpr,
                       const QColor& colour) {
    const QRgb pixel = colour.rgb();
    const int width = image.width();
    const int height = image.height();
    const auto stride = static_cast<std::size_t>(image.bytesPerLine()) / sizeof(QRgb);
    auto* bits = reinterpret_cast<QRgb*>(image.bits());
    auto device = [&](double v, double o) { return static_cast<int>(std::lround((v - o) * dpr)); };
    for (const QRect& r : rects) {
        const int x0 = std::max(device(r.left(), origin.x()), 0);
        const int x1 = std::min(device(r.left() + r.width(), origin.x()), width);
        const int y0 = std::max(device(r.top(), origin.y()), 0);
        const int y1 = std::min(device(r.top() + r.height(), origin.y()), height);
        for (int y = y0; y < y1; ++y) {
            QRgb* line = bits + static_cast<std::size_t>(y) * stride;
            std::fill(line + x0, line + std::max(x0, x1), pixel);
        }
    }
}

// Draws every visible event, whole run, into an image of the lanes. Touching events of a class
// merge into one rectangle, and a pixel column holding several sub-pixel events shows the class
// that covers most of it. Lanes are sorted by start, so each lane costs a binary search plus its
// visible events.
void TimelineView::renderEventLayer(const Layout& l, qreal dpr) const {
    EventLayer& cache = event_layer_;
    cache.index = index_;
    cache.revision = index_ ? index_->revision() : 0;
    cache.from = from_;
    cache.to = to_;
    cache.plot = l.plot;
    cache.pitch = l.lane_pitch;
    cache.dpr = dpr;
    cache.valid = true;
    const QSize pixels = (l.plot.size() * dpr).toSize();
    if (cache.image.size() != pixels.expandedTo(QSize(1, 1)))
        cache.image = QImage(pixels.expandedTo(QSize(1, 1)), QImage::Format_ARGB32_Premultiplied);
    cache.image.setDevicePixelRatio(dpr);
    cache.image.fill(Qt::transparent);
    const int n = workers();
    if (n == 0 || l.plot.width() <= 0)
        return;
    const double scale = l.plot.width() / static_cast<double>(to_ - from_);
    const double left = l.plot.left();
    auto x_of = [&](Ticks t) { return left + static_cast<double>(t - from_) * scale; };

    struct Run {
        int cls = -1; // the run being extended, or none
        int x0 = 0, x1 = 0;
        QRectF band;
    };
    std::array<std::vector<QRect>, ClassCount> rects;
    auto flush_run = [&](Run& r) {
        if (r.cls >= 0)
            rects[static_cast<std::size_t>(r.cls)].emplace_back(
                r.x0, static_cast<int>(r.band.top()), r.x1 - r.x0,
                static_cast<int>(r.band.height()));
        r.cls = -1;
    };
    auto extend = [&](Run& r, int cls, int x0, int x1, const QRectF& band) {
        x1 = std::max(x1, x0 + 1);
        if (r.cls == cls && x0 <= r.x1 && r.band == band) {
            r.x1 = std::max(r.x1, x1);
            return;
        }
        flush_run(r);
        r = {cls, x0, x1, band};
    };

    for (int k = 0; k < n; ++k) {
        const auto lane = index_->lane(k);
        if (lane.empty())
            continue;
        const QRectF lane_rect = l.lane(k);
        std::array<QRectF, BandCount> band;
        for (int b = 0; b < BandCount; ++b)
            band[static_cast<std::size_t>(b)] = band_rect(lane_rect, static_cast<Band>(b));
        // Events of a pixel or more are drawn in their own band. Narrower ones share pixel
        // columns: each column shows, over the whole lane, the class that covers most of it.
        std::array<Run, BandCount> wide;
        Run narrow;
        int column = std::numeric_limits<int>::min();
        std::array<double, ClassCount> covered{};
        auto flush_column = [&] {
            if (column == std::numeric_limits<int>::min())
                return;
            const auto cls = static_cast<int>(std::max_element(covered.begin(), covered.end()) -
                                              covered.begin());
            const bool outer = cls == WaitClass || cls == PauseClass;
            extend(narrow, cls, column, column + 1, band[outer ? Outer : Inner]);
            column = std::numeric_limits<int>::min();
            covered.fill(0.0);
        };

        // The first event starting at or after `from_`, then back over the few reaching into it.
        auto first =
            std::lower_bound(lane.begin(), lane.end(), from_,
                             [](const TraceEvent& e, Ticks value) { return e.start < value; });
        for (auto back = first; back != lane.begin() && first - back < 16;) {
            --back;
            if (back->end > from_)
                first = back;
        }
        for (auto it = first; it != lane.end() && it->start < to_; ++it) {
            if (it->end <= from_ || it->end <= it->start)
                continue;
            const double x0 = x_of(std::max(it->start, from_));
            const double x1 = x_of(std::min(it->end, to_));
            const int cls = class_of(it->kind);
            if (x1 - x0 >= 1.0) {
                const auto b = static_cast<std::size_t>(band_of(it->kind));
                extend(wide[b], cls, static_cast<int>(std::lround(x0)),
                       static_cast<int>(std::lround(x1)), band[b]);
            } else {
                const int c = static_cast<int>(std::floor((x0 + x1) / 2));
                if (c != column) {
                    flush_column();
                    column = c;
                }
                covered[static_cast<std::size_t>(cls)] += x1 - x0;
            }
        }
        flush_column();
        flush_run(narrow);
        for (auto& r : wide)
            flush_run(r);
    }

    // Solid fills go straight into the pixels (thousands of small rectangles cost a painter far
    // more); patterns are then laid over their kinds' rectangles with a painter.
    QPainter painter;
    for (int c = 0; c < ClassCount; ++c) {
        const auto& list = rects[static_cast<std::size_t>(c)];
        if (list.empty())
            continue;
        const ActivityStyle style = style_for(kClassKinds[static_cast<std::size_t>(c)]);
        fill_rects(cache.image, list, l.plot.topLeft(), dpr, style.colour);
        if (style.brush != Qt::SolidPattern) {
            if (!painter.isActive()) {
                painter.begin(&cache.image);
                painter.translate(-l.plot.topLeft());
                painter.setPen(Qt::NoPen);
            }
            painter.setBrush(QBrush(pattern_colour(style.colour), style.brush));
            painter.drawRects(list.data(), static_cast<int>(list.size()));
        }
    }
}

// Draws the visible events, cut at the playhead. The event layer is redrawn only when the
// window, the geometry or the trace changes, so playback over a fixed window costs one blit.
void TimelineView::paintEvents(QPainter& painter, const Layout& l) const {
    const Ticks limit = std::min(to_, playhead_);
    if (workers() == 0 || limit <= from_ || l.plot.width() <= 0)
        return;
    const qreal dpr = painter.device()->devicePixelRatioF();
    const EventLayer& cache = event_layer_;
    if (!cache.valid || cache.index != index_ || cache.revision != index_->revision() ||
        cache.from != from_ || cache.to != to_ || cache.plot != l.plot ||
        cache.pitch != l.lane_pitch || cache.dpr != dpr)
        renderEventLayer(l, dpr);
    painter.save();
    const double played = std::round(xForTime(limit));
    painter.setClipRect(
        QRectF(l.plot.left(), l.plot.top(), played - l.plot.left(), l.plot.height()));
    painter.drawImage(l.plot.topLeft(), cache.image);
    painter.restore();
}

void TimelineView::paintSteps(QPainter& painter, const Layout& l) const {
    if (!index_ || index_->snapshots().empty())
        return;
    const double pad = l.line * 0.5;
    QColor line_colour = palette().color(QPalette::Text);
    line_colour.setAlphaF(0.45);
    QColor label_colour = palette().color(QPalette::Text);
    label_colour.setAlphaF(0.8);
    const auto& snapshots = index_->snapshots();
    // Snapshots are in step order; start from the first one that ends inside the window.
    auto it = std::lower_bound(snapshots.begin(), snapshots.end(), from_,
                               [](const StepSnapshot& s, Ticks value) { return s.time < value; });
    Ticks previous = it == snapshots.begin() ? 0 : (it - 1)->time;
    std::vector<QLineF> barriers;
    painter.save();
    painter.setClipRect(l.steps.united(l.plot));
    painter.setPen(label_colour);
    for (; it != snapshots.end() && previous < to_ && previous <= playhead_; ++it) {
        const Ticks end = it->time;
        if (end <= playhead_ && end >= from_ && end <= to_) {
            const double x = std::round(xForTime(end));
            barriers.emplace_back(x, l.steps.bottom() - std::round(pad * 0.6), x, l.plot.bottom());
        }
        // The label sits over the part of the step that has happened and is visible; step
        // numbers are digits, so their width is known without measuring each label.
        const double x0 = xForTime(std::max(previous, from_));
        const double x1 = xForTime(std::min({end, playhead_, to_}));
        // After a rollback the step numbers go back: that span holds the failure, the recovery
        // and the first step done again, marked as such.
        const bool again = it != snapshots.begin() && it->step <= (it - 1)->step;
        const QString number =
            again ? QStringLiteral("↺") + QString::number(it->step) : QString::number(it->step);
        const double room = x1 - x0 - pad;
        const double brief_w = static_cast<double>(number.size()) * l.digit_width;
        const double full_w =
            again
                ? QFontMetricsF(painter.font()).horizontalAdvance(tr("step %1 again").arg(it->step))
                : l.step_prefix_width + brief_w;
        if (brief_w <= room) {
            const bool full = full_w <= room;
            draw_label(painter, (x0 + x1 - (full ? full_w : brief_w)) / 2, l.steps.center().y(),
                       full
                           ? (again ? tr("step %1 again").arg(it->step) : tr("step %1").arg(number))
                           : number,
                       l.ascent, l.descent);
        }
        previous = end;
    }
    painter.setRenderHint(QPainter::Antialiasing, false);
    painter.setPen(QPen(line_colour, 1));
    painter.drawLines(barriers.data(), static_cast<int>(barriers.size()));
    painter.restore();
}

void TimelineView::paintAxis(QPainter& painter, const Layout& l) const {
    const QFontMetricsF fm(font());
    const double line = fm.height();
    const QColor text = palette().color(QPalette::Text);
    const double tick = std::round(line * 0.35);
    const double baseline = std::round(l.axis.top()) + 0.5;
    painter.setPen(QPen(text, 1));
    painter.drawLine(QPointF(l.axis.left(), baseline), QPointF(l.axis.right(), baseline));
    const AxisScale scale = axis_scale(from_, to_, l.axis.width(), l.tick_spacing);
    // Tick labels give way to the playhead's own label.
    const QRectF playhead_box = playheadLabelRect(l).adjusted(-line * 0.3, 0, line * 0.3, 0);
    const double first = std::ceil(static_cast<double>(from_) / scale.step) * scale.step;
    double last_right = -1e9;
    for (double t = first; t <= static_cast<double>(to_) + 0.5; t += scale.step) {
        const double x = std::round(xForTime(static_cast<Ticks>(std::llround(t)))) + 0.5;
        painter.drawLine(QPointF(x, baseline), QPointF(x, baseline + tick));
        const QString label = scale.label(t);
        const double w = fm.horizontalAdvance(label);
        const double left = std::clamp(x - w / 2, 2.0, std::max(2.0, width() - w - 2));
        if (left < last_right + line * 0.5 ||
            (playhead_box.isValid() && left < playhead_box.right() &&
             left + w > playhead_box.left()))
            continue;
        draw_label(painter, left, baseline + tick + line * 0.7, label, l.ascent, l.descent);
        last_right = left + w;
    }
}

QRectF TimelineView::playheadLabelRect(const Layout& l, QString* label) const {
    if (playhead_ < from_ || playhead_ > to_)
        return {};
    const QFontMetricsF fm(font());
    const double line = fm.height();
    const AxisScale scale = axis_scale(from_, to_, l.axis.width(), l.tick_spacing);
    const QString text = scale.label(static_cast<double>(playhead_), 1);
    if (label)
        *label = text;
    const double w = fm.horizontalAdvance(text) + line * 0.8;
    const double h = line * 1.25;
    const double left =
        std::clamp(xForTime(playhead_) - w / 2, 2.0, std::max(2.0, width() - w - 2));
    return QRectF(left, l.axis.top() + std::round(line * 0.35) + (line * 1.4 - h) / 2, w, h);
}

void TimelineView::setBranchMarks(QList<BranchMark> marks) {
    marks_ = std::move(marks);
    update();
}

void TimelineView::paintBranchMarks(QPainter& painter, const Layout& l) const {
    // Reddish purple (Okabe-Ito), apart from every activity's colour.
    const QColor colour = palette().color(QPalette::Base).lightness() < 128
                              ? QColor(0xE0, 0x9C, 0xC4)
                              : QColor(0xA8, 0x4A, 0x82);
    const QFontMetricsF fm(font());
    double label_right = l.plot.left() - 1; // labels never overlap: a later one moves down
    int row = 0;
    for (const BranchMark& m : marks_) {
        if (m.at < from_ || m.at > to_)
            continue;
        const double x = std::round(xForTime(m.at)) + 0.5;
        painter.setPen(QPen(colour, std::max(1.5, std::round(l.line / 10)), Qt::DashLine));
        painter.drawLine(QPointF(x, l.plot.top()), QPointF(x, l.plot.bottom()));
        const double w = fm.horizontalAdvance(m.label) + l.line * 0.5;
        row = x < label_right ? row + 1 : 0;
        QRectF box(std::min(x, l.plot.right() - w), l.plot.top() + row * l.line * 1.1, w,
                   l.line * 1.05);
        painter.setPen(Qt::NoPen);
        painter.setBrush(colour);
        painter.drawRoundedRect(box, l.line * 0.2, l.line * 0.2);
        painter.setPen(palette().color(QPalette::Base));
        draw_label(painter, box.left() + l.line * 0.25, box.center().y(), m.label, l.ascent,
                   l.descent);
        label_right = std::max(label_right, box.right());
    }
}

void TimelineView::paintPlayhead(QPainter& painter, const Layout& l) const {
    if (playhead_ < from_ || playhead_ > to_)
        return;
    const QFontMetricsF fm(font());
    const double line = fm.height();
    const QColor strong = palette().color(QPalette::Text);
    const double x = xForTime(playhead_);
    const double pen_width = std::max(2.0, std::round(line / 7));
    painter.setPen(QPen(strong, pen_width, Qt::SolidLine, Qt::FlatCap));
    painter.drawLine(QPointF(x, l.steps.top() + line * 0.4),
                     QPointF(x, l.axis.top() + std::round(line * 0.35)));
    // A handle at the top, like a scrubber's.
    const double h = std::round(line * 0.45);
    QPainterPath handle;
    handle.moveTo(x - h, l.steps.top());
    handle.lineTo(x + h, l.steps.top());
    handle.lineTo(x, l.steps.top() + h * 1.3);
    handle.closeSubpath();
    painter.fillPath(handle, strong);
    // Its time, in a box over the axis labels.
    QString label;
    const QRectF box = playheadLabelRect(l, &label);
    const double box_h = box.height();
    painter.setPen(Qt::NoPen);
    painter.setBrush(strong);
    painter.drawRoundedRect(box, box_h * 0.25, box_h * 0.25);
    painter.setPen(palette().color(QPalette::Base));
    draw_label(painter, box.center().x() - QFontMetricsF(font()).horizontalAdvance(label) / 2,
               box.center().y(), label, l.ascent, l.descent);
}

} // namespace lockstep::views
