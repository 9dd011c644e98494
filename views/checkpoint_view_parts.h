// What the Checkpoints view's files share: bytes and states in words, the legend's states.
#pragma once

#include "lockstep_views/checkpoint_shelf.h"

#include <QString>

#include <cstdint>

namespace lockstep::views::checkpoints {

// "2.2 KB", in the language in use.
QString bytesText(std::int64_t bytes);
// "saving", "committed", "partial", "corrupt".
QString shelfStatusText(ShelfStatus status);

// The file states the legend explains, in its order.
inline constexpr FileState kLegendStates[] = {
    FileState::Writing, FileState::Synced,  FileState::Renamed, FileState::Committed,
    FileState::Partial, FileState::Corrupt, FileState::Missing};

} // namespace lockstep::views::checkpoints
