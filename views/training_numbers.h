// How the Training view writes a loss and a share in percent.
#pragma once

#include "lockstep_views/numbers.h"

#include <QString>

#include <cmath>

namespace lockstep::views::training {

inline QString format_loss(double loss) {
    return display_number(loss, 'g', 3);
}

inline QString format_percent(double fraction) {
    return QString::number(std::lround(fraction * 100.0));
}

} // namespace lockstep::views::training
