#pragma once

#include <QString>

#include <string>
#include <vector>

namespace lockstep::cli {

// lockstep-cli lessons check|list|calculator, through the lessons library.
int command_lessons(const std::vector<std::string>& args);
// lockstep-cli quiz export|ask|check, through the lessons library.
int command_quiz(const std::vector<std::string>& args);

// The lessons and quizzes part of the help.
QString lessons_usage();

} // namespace lockstep::cli
