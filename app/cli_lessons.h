#pragma once

#include <string>
#include <vector>

namespace lockstep::cli {

// lockstep-cli lessons check|list|calculator, through the lessons library.
int command_lessons(const std::vector<std::string>& args);
// lockstep-cli quiz export|ask|check, through the lessons library.
int command_quiz(const std::vector<std::string>& args);

extern const char* const kLessonsUsage;

} // namespace lockstep::cli
