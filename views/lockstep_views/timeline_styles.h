#pragma once

#include "trace/trace.h"

#include <QColor>
#include <QRectF>
#include <QString>

#include <array>

class QPainter;

// The timeline's table of event styles: where in its lane each kind is drawn, which colour class
// it falls in (one per activity of the palette, so a kind has the same colour here as in every
// other view). Which kind tells most when several meet under the pointer is the engine's
// priority_of (trace/event_kinds.h).
namespace lockstep::views::timeline {

// Which band of the lane a kind occupies.
enum Band { Inner, Upper, Lower, Outer, BandCount };
// The colour classes, in the legend's order.
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

Band band_of(EventKind kind);
PaintClass class_of(EventKind kind);
// A kind of each class, whose palette style the class is drawn in.
inline constexpr std::array<EventKind, ClassCount> kClassKinds{
    EventKind::Compute, EventKind::Communicate,     EventKind::Update, EventKind::Wait,
    EventKind::Pause,   EventKind::CheckpointWrite, EventKind::Failed};
QString class_label(PaintClass c);
// The darker shade a patterned kind draws its pattern in, over its solid colour.
QColor pattern_colour(const QColor& colour);
// The vertical extent of a band inside a lane rectangle, in whole pixels.
QRectF band_rect(const QRectF& lane, Band band);
// Where an event's row lies in its worker's lane. With gradient buckets (`split`) the lane has
// two rows: computation and everything else above, the buckets' collectives (events with a
// bucket) below, so the two are seen at once. Without, the row is the lane.
QRectF row_rect(const QRectF& lane, bool split, bool communication_row);
// Fills `r` the way the timeline draws `kind`: its colour, then its pattern in a darker shade.
void fill_swatch(QPainter& painter, const QRectF& r, EventKind kind);

} // namespace lockstep::views::timeline
