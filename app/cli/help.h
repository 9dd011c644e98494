#pragma once

// What lockstep-cli prints for --help and --version: the overview of every command, and each
// command's own page (`lockstep-cli COMMAND --help`, `lockstep-cli lessons check --help`).

#include <QString>

#include <string>
#include <vector>

namespace lockstep::cli {

// The overview: every command, the --language flag, the run flags, the lessons and quizzes.
QString overview_help();
// The page of one command (the words before the first flag: "run", "bench allreduce",
// "lessons check"); the overview's section for a command group when only its name is given.
// Empty when the command is unknown.
QString command_help(const std::vector<std::string>& words);
// True when the arguments after the command ask for help (--help or -h anywhere).
bool asks_for_help(const std::vector<std::string>& args);
// The version, and where the lessons, scenarios and quiz banks are read from.
QString version_text();

} // namespace lockstep::cli
