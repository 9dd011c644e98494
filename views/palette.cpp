#include "lockstep_views/palette.h"

#include <QObject>

#include <algorithm>
#include <cmath>

namespace lockstep::views {

namespace {

bool& contrast_flag() {
    static bool on = false;
    return on;
}

double luminance(const QColor& c) {
    auto channel = [](double v) {
        return v <= 0.03928 ? v / 12.92 : std::pow((v + 0.055) / 1.055, 2.4);
    };
    return 0.2126 * channel(c.redF()) + 0.7152 * channel(c.greenF()) + 0.0722 * channel(c.blueF());
}

// The high-contrast theme's tones: the Okabe-Ito hues, dark enough for 4.5:1 on white.
ActivityStyle strong(ActivityStyle s, WorkerActivity activity) {
    switch (activity) {
    case WorkerActivity::Computing:
        s.colour = QColor(0x00, 0x4C, 0x80);
        break;
    case WorkerActivity::Sending:
    case WorkerActivity::Receiving:
        s.colour = QColor(0x00, 0x6B, 0x4E);
        break;
    case WorkerActivity::Waiting:
        s.colour = QColor(0xA8, 0x3A, 0x00);
        break;
    case WorkerActivity::Updating:
        s.colour = QColor(0x1F, 0x6A, 0x99);
        break;
    case WorkerActivity::Paused:
        s.colour = QColor(0x94, 0x3D, 0x73);
        break;
    case WorkerActivity::Checkpointing:
        s.colour = QColor(0x6E, 0x62, 0x00);
        break;
    case WorkerActivity::Failed:
        s.colour = QColor(Qt::black);
        break;
    case WorkerActivity::Idle:
        s.colour = QColor(0x60, 0x60, 0x60);
        break;
    }
    return s;
}

} // namespace

void set_high_contrast(bool on) {
    contrast_flag() = on;
}

bool high_contrast() {
    return contrast_flag();
}

QPalette high_contrast_palette() {
    QPalette p;
    const QColor black(Qt::black), white(Qt::white);
    for (const auto group : {QPalette::Active, QPalette::Inactive}) {
        p.setColor(group, QPalette::Window, white);
        p.setColor(group, QPalette::WindowText, black);
        p.setColor(group, QPalette::Base, white);
        p.setColor(group, QPalette::AlternateBase, QColor(0xEE, 0xEE, 0xEE));
        p.setColor(group, QPalette::Text, black);
        p.setColor(group, QPalette::Button, QColor(0xF2, 0xF2, 0xF2));
        p.setColor(group, QPalette::ButtonText, black);
        p.setColor(group, QPalette::BrightText, white);
        p.setColor(group, QPalette::Highlight, QColor(0x00, 0x3C, 0x8C));
        p.setColor(group, QPalette::HighlightedText, white);
        p.setColor(group, QPalette::ToolTipBase, white);
        p.setColor(group, QPalette::ToolTipText, black);
        p.setColor(group, QPalette::PlaceholderText, QColor(0x44, 0x44, 0x44));
        p.setColor(group, QPalette::Link, QColor(0x00, 0x3C, 0x8C));
        p.setColor(group, QPalette::LinkVisited, QColor(0x55, 0x1A, 0x8B));
        p.setColor(group, QPalette::Light, white);
        p.setColor(group, QPalette::Midlight, QColor(0xCC, 0xCC, 0xCC));
        p.setColor(group, QPalette::Mid, QColor(0x40, 0x40, 0x40));
        p.setColor(group, QPalette::Dark, black);
        p.setColor(group, QPalette::Shadow, black);
    }
    p.setColor(QPalette::Disabled, QPalette::WindowText, QColor(0x55, 0x55, 0x55));
    p.setColor(QPalette::Disabled, QPalette::Text, QColor(0x55, 0x55, 0x55));
    p.setColor(QPalette::Disabled, QPalette::ButtonText, QColor(0x55, 0x55, 0x55));
    p.setColor(QPalette::Disabled, QPalette::Window, white);
    p.setColor(QPalette::Disabled, QPalette::Base, white);
    p.setColor(QPalette::Disabled, QPalette::Button, QColor(0xF2, 0xF2, 0xF2));
    return p;
}

double contrast_ratio(const QColor& a, const QColor& b) {
    const double la = luminance(a), lb = luminance(b);
    return (std::max(la, lb) + 0.05) / (std::min(la, lb) + 0.05);
}

QColor outline_for(const QColor& fill, const QColor& background) {
    // Along the fill's own hue, towards black on a light background and white on a dark one,
    // until the edge stands out from the background by 3:1 (4.5:1 in high contrast).
    const double wanted = contrast_flag() ? 4.5 : 3.0;
    const bool light = luminance(background) > 0.18;
    QColor c = fill;
    for (int i = 0; i < 20 && contrast_ratio(c, background) < wanted; ++i)
        c = light ? c.darker(115) : c.lighter(120);
    if (contrast_ratio(c, background) < wanted)
        c = light ? QColor(Qt::black) : QColor(Qt::white);
    return c;
}

ActivityStyle style_for(WorkerActivity activity) {
    ActivityStyle base = [activity]() -> ActivityStyle {
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
    }();
    return contrast_flag() ? strong(std::move(base), activity) : base;
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
    const double l = luminance(fill);
    return (l + 0.05) / 0.05 >= 1.05 / (l + 0.05) ? QColor(Qt::black) : QColor(Qt::white);
}

ActivityStyle style_for(EventKind kind) {
    return style_for(activity_of(kind));
}

ActivityStyle style_for(const TraceEvent& e) {
    ActivityStyle s = style_for(e.kind);
    switch (e.kind) {
    case EventKind::CheckpointWrite:
        s.label = QObject::tr("checkpoint: writing");
        s.symbol = QStringLiteral("Wr");
        s.brush = Qt::SolidPattern;
        break;
    case EventKind::CheckpointSync:
        if (e.file == FileStage::Renamed) {
            s.label = QObject::tr("checkpoint: renaming");
            s.symbol = QStringLiteral("Rn");
            s.brush = Qt::VerPattern;
        } else {
            s.label = QObject::tr("checkpoint: syncing");
            s.symbol = QStringLiteral("Sy");
            s.brush = Qt::HorPattern;
        }
        break;
    case EventKind::CheckpointCommit:
        s.label = QObject::tr("checkpoint: committing");
        s.symbol = QStringLiteral("Cm");
        s.brush = Qt::CrossPattern;
        break;
    case EventKind::Verify:
        s.label = QObject::tr("checkpoint: verifying");
        s.symbol = QStringLiteral("Vf");
        s.brush = Qt::FDiagPattern;
        break;
    case EventKind::Restore:
        s.label = QObject::tr("checkpoint: restoring");
        s.symbol = QStringLiteral("Rs");
        s.brush = Qt::Dense3Pattern;
        break;
    default:
        break;
    }
    return s;
}

} // namespace lockstep::views
