#pragma once

// Audio description of the run, for students who follow it by ear: with it on, each step's key
// event is announced through the accessibility layer as the playhead passes the step's end
// ("Step 12. Worker 2 is 3 times slower; workers 0, 1 and 3 wait up to 8 milliseconds."). Qt
// 6.4 has no announcement event, so the words go into a line of the status bar that screen
// readers are told of as an alert, the way a live region is; sighted students see the same
// line. At a fast playback, steps that pass before the last announcement has had time to be
// heard are summed up by the next one rather than queued.

#include "clocks/clock.h"

#include <QElapsedTimer>
#include <QLabel>
#include <QObject>
#include <QTimer>

namespace lockstep::views {
class TraceIndex;
}

namespace lockstep::app {

class AudioDescription : public QObject {
    Q_OBJECT
public:
    explicit AudioDescription(QObject* parent = nullptr);

    // The status-bar line that carries the announcements (owned by whoever shows it).
    QLabel* line() const { return line_; }
    void setEnabled(bool on);
    bool enabled() const { return enabled_; }
    // The playhead is at `t`: the newest step ended by then, if not yet told, is announced,
    // unless the last announcement is too fresh; then it comes once that one has had its time.
    void follow(const views::TraceIndex& index, Ticks t);
    // Says `text` now.
    void announce(const QString& text);
    QString lastAnnouncement() const { return last_; }
    // Clears what was told, for a new run.
    void reset();

Q_SIGNALS:
    void announced(const QString& text);

private:
    QLabel* line_;
    bool enabled_ = false;
    QString last_;
    std::int64_t told_ordinal_ = -1;
    QElapsedTimer since_;
    QTimer later_; // a step passed while the last one was being said
    const views::TraceIndex* index_ = nullptr;
    Ticks playhead_ = 0;
};

} // namespace lockstep::app
