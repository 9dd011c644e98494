#pragma once

#include <QFont>
#include <QtGlobal>

#include <algorithm>

namespace lockstep::views {

// A copy of `base` scaled by `factor`, whether it was sized in points or in pixels.
inline QFont scaledFont(const QFont& base, qreal factor, bool bold = false) {
    QFont f = base;
    if (base.pointSizeF() > 0)
        f.setPointSizeF(std::max(1.0, base.pointSizeF() * factor));
    else
        f.setPixelSize(std::max(1, qRound(base.pixelSize() * factor)));
    f.setBold(bold);
    return f;
}

} // namespace lockstep::views
