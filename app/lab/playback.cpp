#include "playback.h"

#include "lockstep_views/trace_index.h"

#include <algorithm>
#include <cmath>

namespace lockstep::app {

Playback::Playback(QObject* parent)
    : QObject(parent) {
    timer_.setInterval(16);
    timer_.setTimerType(Qt::PreciseTimer);
    connect(&timer_, &QTimer::timeout, this, &Playback::advance);
}

void Playback::setTrace(const views::TraceIndex* index) {
    index_ = index;
    reset();
}

Ticks Playback::ticksPerSecond() const {
    if (!index_ || index_->snapshots().empty())
        return kTicksPerSecond / 100; // before the first step: 10 ms of trace per wall second
    const auto& snaps = index_->snapshots();
    const Ticks step = snaps.back().time / static_cast<Ticks>(snaps.size());
    return std::max<Ticks>(step, 1000);
}

void Playback::play() {
    if (timer_.isActive())
        return;
    if (index_ && playhead_ >= index_->end_time() && index_->end_time() > 0 && !index_->empty())
        moveTo(0); // at the end: play from the start again
    wall_.start();
    carry_ = 0.0;
    timer_.start();
    Q_EMIT playingChanged(true);
}

void Playback::pause() {
    if (!timer_.isActive())
        return;
    timer_.stop();
    Q_EMIT playingChanged(false);
}

void Playback::togglePlay() {
    playing() ? pause() : play();
}

void Playback::stepForward() {
    pause();
    if (!index_)
        return;
    if (playhead_ >= index_->end_time() && !index_->empty())
        moveTo(0); // at the end: the first event again, as play starts again
    else
        moveTo(std::min(index_->next_event_start(playhead_), index_->end_time()));
}

void Playback::stepBack() {
    pause();
    if (index_)
        moveTo(std::max(index_->previous_event_start(playhead_), index_->earliest_retained_time()));
}

void Playback::setSpeed(double speed) {
    speed = std::clamp(speed, kMinSpeed, kMaxSpeed);
    if (speed == speed_)
        return;
    speed_ = speed;
    Q_EMIT speedChanged(speed_);
}

void Playback::faster() {
    setSpeed(speed_ * 2.0);
}
void Playback::slower() {
    setSpeed(speed_ / 2.0);
}

void Playback::scrubTo(Ticks t) {
    const Ticks end = index_ ? index_->end_time() : 0;
    const Ticks earliest = index_ ? std::min(index_->earliest_retained_time(), end) : 0;
    moveTo(std::clamp<Ticks>(t, earliest, end));
}

void Playback::reset() {
    pause();
    moveTo(0);
}

void Playback::advance() {
    const double elapsed = static_cast<double>(wall_.nsecsElapsed()) / 1e9;
    wall_.restart();
    const double ticks = elapsed * speed_ * static_cast<double>(ticksPerSecond()) + carry_;
    const auto whole = static_cast<Ticks>(std::floor(ticks));
    carry_ = ticks - static_cast<double>(whole);
    const Ticks end = index_ ? index_->end_time() : 0;
    moveTo(std::min(playhead_ + whole, end));
}

void Playback::moveTo(Ticks t) {
    if (t == playhead_)
        return;
    playhead_ = t;
    Q_EMIT playheadChanged(playhead_);
}

} // namespace lockstep::app
