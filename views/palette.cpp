#include "lockstep_views/palette.h"

#include <QObject>

#include <cmath>

namespace lockstep::views {

ActivityStyle style_for(WorkerActivity activity) {
    using namespace okabe_ito;
    switch (activity) {
    case WorkerActivity::Computing:
        return {blue, QObject::tr("computing"), QStringLiteral("C"), Qt::SolidPattern};
    case WorkerActivity::Sending:
        return {bluish_green, QObject::tr("sending"), QStringLiteral("S"), Qt::SolidPattern};
    case WorkerActivity::Receiving:
        return {bluish_green, QObject::tr("receiving"), QStringLiteral("R"), Qt::SolidPattern};
    case WorkerActivity::Waiting:
        return {vermillion, QObject::tr("waiting"), QStringLiteral("W"), Qt::BDiagPattern};
    case WorkerActivity::Updating:
        return {sky_blue, QObject::tr("updating"), QStringLiteral("U"), Qt::SolidPattern};
    case WorkerActivity::Paused:
        return {reddish_purple, QObject::tr("paused"), QStringLiteral("P"), Qt::Dense4Pattern};
    case WorkerActivity::Checkpointing:
        return {yellow, QObject::tr("checkpointing"), QStringLiteral("K"), Qt::SolidPattern};
    case WorkerActivity::Failed:
        return {QColor(0x30, 0x30, 0x30), QObject::tr("failed"), QStringLiteral("X"),
                Qt::DiagCrossPattern};
    case WorkerActivity::Idle:
        break;
    }
    return {grey, QObject::tr("idle"), QStringLiteral("–"), Qt::SolidPattern};
}

QColor staleness_colour(int tau) {
    switch (tau) {
    case 0:
        return okabe_ito::bluish_green;
    case 1:
        return okabe_ito::yellow;
    case 2:
        return okabe_ito::orange;
    case 3:
        return okabe_ito::vermillion;
    default:
        return {0x8B, 0x1E, 0x1E};
    }
}

QColor withAlpha(QColor c, int alpha) {
    c.setAlpha(alpha);
    return c;
}

// Black or white, whichever contrasts more with `fill` (WCAG relative luminance).
QColor textOn(const QColor& fill) {
    auto channel = [](double c) {
        return c <= 0.03928 ? c / 12.92 : std::pow((c + 0.055) / 1.055, 2.4);
    };
    const double l = 0.2126 * channel(fill.redF()) + 0.7152 * channel(fill.greenF()) +
                     0.0722 * channel(fill.blueF());
    return (l + 0.05) / 0.05 >= 1.05 / (l + 0.05) ? QColor(Qt::black) : QColor(Qt::white);
}

ActivityStyle style_for(EventKind kind) {
    return style_for(activity_of(kind));
}

} // namespace lockstep::views
