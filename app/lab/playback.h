#pragma once

#include "clocks/clock.h"

#include <QElapsedTimer>
#include <QObject>
#include <QTimer>

namespace lockstep::views {
class TraceIndex;
}

namespace lockstep::app {

// The playhead over a trace: play, pause, step event by event, speed, scrub and reset. At 1x
// one training step of the run's clock lasts one second on the wall, whatever the scale of the
// run's times, so a class can follow. The engine may run ahead of the playhead; the playhead
// never passes the end of what the engine has produced. Lives on the GUI thread.
class Playback : public QObject {
    Q_OBJECT
public:
    explicit Playback(QObject* parent = nullptr);

    void setTrace(const views::TraceIndex* index); // not owned
    Ticks playhead() const { return playhead_; }
    bool playing() const { return timer_.isActive(); }
    double speed() const { return speed_; }
    // Trace time that passes per wall second at 1x: the run's mean step time so far.
    Ticks ticksPerSecond() const;

    static constexpr double kMinSpeed = 0.25;
    static constexpr double kMaxSpeed = 8.0;

public Q_SLOTS:
    void play();
    void pause();
    void togglePlay();
    void stepForward(); // to the start of the next event (at the end: the first)
    void stepBack();    // to the start of the previous event
    void setSpeed(double speed);
    void faster(); // doubles the speed, up to 8x
    void slower(); // halves it, down to 0.25x
    void scrubTo(lockstep::Ticks t);
    void reset(); // back to the start, paused

Q_SIGNALS:
    void playheadChanged(lockstep::Ticks t);
    void playingChanged(bool playing);
    void speedChanged(double speed);

private:
    void advance();
    void moveTo(Ticks t);

    const views::TraceIndex* index_ = nullptr;
    Ticks playhead_ = 0;
    double speed_ = 1.0;
    double carry_ = 0.0;
    QTimer timer_;
    QElapsedTimer wall_;
};

} // namespace lockstep::app
