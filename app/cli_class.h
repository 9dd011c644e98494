#pragma once

#include <string>
#include <vector>

namespace lockstep::cli {

// lockstep-cli class serve: the live class quiz served from a terminal.
int command_class(const std::vector<std::string>& args);

extern const char* const kClassUsage;

} // namespace lockstep::cli
