#pragma once

#include <QString>

#include <string>
#include <vector>

namespace lockstep::cli {

// lockstep-cli class serve: the live class quiz served from a terminal.
int command_class(const std::vector<std::string>& args);

// The class quiz part of the help.
QString class_usage();

} // namespace lockstep::cli
