#pragma once

#include "lockstep_views/trace_index.h"

#include <QColor>
#include <QPalette>
#include <QString>

namespace lockstep::views {

// Okabe-Ito colours: distinguishable with every common colour-vision deficiency. Each activity
// also has a short label and a pattern, so colour is never the only cue.
struct ActivityStyle {
    QColor colour;
    QString label;  // "computing", "waiting", ...
    QString symbol; // one or two letters drawn on the worker: "C", "W", ...
    Qt::BrushStyle brush = Qt::SolidPattern;
};

ActivityStyle style_for(WorkerActivity activity);
ActivityStyle style_for(EventKind kind);
// A checkpoint event of the timeline, one of six kinds told apart by letters and pattern as
// well as colour: write "Wr", sync "Sy", rename "Rn", commit "Cm", verify "Vf", restore "Rs".
// Other events: style_for(e.kind).
ActivityStyle style_for(const TraceEvent& e);

// WCAG 2's contrast ratio of two opaque colours: 1 (the same) to 21 (black on white).
double contrast_ratio(const QColor& a, const QColor& b);
// The edge drawn round an activity's fill on `background`: a tone of the fill's own hue with at
// least 3:1 against the background (darker on a light one, lighter on a dark one), so a pale
// yellow box on white, or a dark grey "failed" on a dark theme, still has a visible edge.
QColor outline_for(const QColor& fill, const QColor& background);

// View → High Contrast, for projectors: stronger tones of the same hues (each at least 4.5:1
// on white), black text on white, thicker edges. Views read it when they paint.
void set_high_contrast(bool on);
bool high_contrast();
// The application palette of the high-contrast theme.
QPalette high_contrast_palette();

// A gradient's staleness tau, fresh to stale: bluish green (0), yellow (1), orange (2),
// vermillion (3), dark red (4 and more). Tags also print the number, so colour is not the cue.
QColor staleness_colour(int tau);

// `c` with another alpha (0..255).
QColor withAlpha(QColor c, int alpha);
// Black or white, whichever contrasts more with `fill` (WCAG relative luminance).
QColor textOn(const QColor& fill);

// Okabe-Ito base colours.
namespace okabe_ito {
inline const QColor orange{0xE6, 0x9F, 0x00};
inline const QColor sky_blue{0x56, 0xB4, 0xE9};
inline const QColor bluish_green{0x00, 0x9E, 0x73};
inline const QColor yellow{0xF0, 0xE4, 0x42};
inline const QColor blue{0x00, 0x72, 0xB2};
inline const QColor vermillion{0xD5, 0x5E, 0x00};
inline const QColor reddish_purple{0xCC, 0x79, 0xA7};
inline const QColor grey{0x99, 0x99, 0x99};
} // namespace okabe_ito

} // namespace lockstep::views
