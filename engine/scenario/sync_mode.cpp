#include "scenario/sync_mode.h"

namespace lockstep {

std::string_view to_string(SyncMode mode) {
    switch (mode) {
    case SyncMode::Bsp:
        return "bsp";
    case SyncMode::Ssp:
        return "ssp";
    case SyncMode::Async:
        return "async";
    case SyncMode::Local:
        return "local";
    }
    return "bsp";
}

bool parse_sync_mode(std::string_view text, SyncMode& out) {
    for (SyncMode m : {SyncMode::Bsp, SyncMode::Ssp, SyncMode::Async, SyncMode::Local})
        if (text == to_string(m)) {
            out = m;
            return true;
        }
    return false;
}

} // namespace lockstep
