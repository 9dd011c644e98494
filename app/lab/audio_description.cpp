#include "audio_description.h"

#include "lockstep_views/step_story.h"
#include "lockstep_views/trace_index.h"

#include <QAccessible>

namespace lockstep::app {

namespace {

// Time for a screen reader to say one step's story before the next one takes its place.
constexpr qint64 kSayMs = 1800;

} // namespace

AudioDescription::AudioDescription(QObject* parent)
    : QObject(parent)
    , line_(new QLabel) {
    line_->setObjectName(QStringLiteral("audio-description"));
    line_->setTextFormat(Qt::PlainText);
    line_->hide();
    later_.setSingleShot(true);
    connect(&later_, &QTimer::timeout, this, [this] {
        if (index_)
            follow(*index_, playhead_);
    });
}

void AudioDescription::setEnabled(bool on) {
    enabled_ = on;
    line_->setVisible(on);
    if (!on)
        line_->clear();
    told_ordinal_ = -1;
}

void AudioDescription::reset() {
    later_.stop();
    told_ordinal_ = -1;
    last_.clear();
    line_->clear();
}

void AudioDescription::follow(const views::TraceIndex& index, Ticks t) {
    index_ = &index;
    playhead_ = t;
    const StepSnapshot* snapshot = index.snapshot_at(t);
    if (!enabled_ || !snapshot || snapshot->ordinal == told_ordinal_)
        return;
    if (since_.isValid() && since_.elapsed() < kSayMs && told_ordinal_ >= 0) {
        // Still being said: the newest step then, not every step in between.
        later_.start(static_cast<int>(kSayMs - since_.elapsed()));
        return;
    }
    const QString story = views::describe_step(index, *snapshot);
    told_ordinal_ = snapshot->ordinal;
    if (!story.isEmpty())
        announce(story);
}

void AudioDescription::announce(const QString& text) {
    last_ = text;
    line_->setText(text);
    line_->setAccessibleName(text);
    since_.start();
    // The line is not focused: an alert is what makes a screen reader speak it at once.
    QAccessibleEvent name(line_, QAccessible::NameChanged);
    QAccessible::updateAccessibility(&name);
    QAccessibleEvent alert(line_, QAccessible::Alert);
    QAccessible::updateAccessibility(&alert);
    Q_EMIT announced(text);
}

} // namespace lockstep::app
