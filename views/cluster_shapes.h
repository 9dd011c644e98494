// The shapes the cluster is drawn with: a worker's disc, the gradient bar, an arrowhead.
#pragma once

#include "lockstep_views/palette.h"

#include <QColor>
#include <QPointF>
#include <QRectF>

class QPainter;

namespace lockstep::views::cluster {

// A disc in an activity's colour; waiting, paused and failed workers also get the activity's
// hatching on an outer ring, so the state survives without colour and the centre stays plain
// enough to read a number on.
void drawDisc(QPainter& p, QPointF c, qreal r, const ActivityStyle& style, const QColor& outline);
// The empty track of a gradient bar.
void drawGradientTrack(QPainter& p, const QRectF& bar, const QColor& text);
// The fill of a gradient bar, running from the middle `share` (-1 to 1) of the way to either
// end, and the mark in the middle.
void drawGradientValue(QPainter& p, const QRectF& bar, double share, const QColor& text);
// The track and the fill.
void drawGradientBar(QPainter& p, const QRectF& bar, double share, const QColor& text);
// The arrowhead of a link ending at `tip`, pointing along `direction` (a unit vector).
void drawArrowhead(QPainter& p, QPointF tip, QPointF direction, qreal size);

} // namespace lockstep::views::cluster
