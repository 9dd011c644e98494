// lockstep-cli: run, sweep and inspect Lockstep scenarios from a terminal. Every command goes
// through the same engine calls as the GUI; errors print one line on stderr and exit non-zero.

#include "class_command.h"
#include "commands.h"
#include "help.h"
#include "lessons_commands.h"
#include "model_parallel.h"
#include "mpi_command.h"
#include "options.h"

#include "core/atomic_file.h"
#include "core/error.h"

#include "lockstep_lessons/language.h"

#include <QCoreApplication>
#include <QGuiApplication>

#include <clocale>
#include <cstdio>
#include <memory>
#include <optional>
#include <string>
#include <vector>

using lockstep::Error;
using lockstep::cli::Cli;
using lockstep::cli::print;
using lockstep::cli::print_error;
using lockstep::cli::qs;
using lockstep::cli::utf8;

namespace {

// Takes every --language VALUE and --language=VALUE out of the arguments, before or after the
// command, so that the command never sees it; the last one counts. `missing`: a --language at
// the end, without its value.
std::optional<std::string> take_language(std::vector<std::string>& args, bool& missing) {
    std::optional<std::string> language;
    std::vector<std::string> rest;
    for (std::size_t i = 0; i < args.size(); ++i) {
        if (args[i] == "--language") {
            if (i + 1 >= args.size()) {
                missing = true;
                break;
            }
            language = args[++i];
        } else if (args[i].rfind("--language=", 0) == 0) {
            language = args[i].substr(11);
        } else {
            rest.push_back(args[i]);
        }
    }
    args = std::move(rest);
    return language;
}

// quiz worksheet writes PDFs, whose text Qt lays out with the fonts of a GUI application.
bool draws_pages(const std::vector<std::string>& all) {
    return all.size() >= 2 && all[0] == "quiz" && all[1] == "worksheet" &&
           !lockstep::cli::asks_for_help(all);
}

} // namespace

int main(int argc, char** argv) {
    std::vector<std::string> all(argv + 1, argv + argc);
    bool language_missing = false;
    const std::optional<std::string> language = take_language(all, language_missing);
    // Before any thread starts: temporary files and folders go when the command is stopped. The
    // class server takes SIGINT and SIGTERM itself, to write its results first.
    if (all.empty() || all.front() != "class")
        lockstep::remove_on_signals();
    // The application first: the translators go into it. A worksheet's is a GUI application,
    // offscreen (no display is needed); every other command's a core one.
    std::unique_ptr<QCoreApplication> app;
    if (draws_pages(all)) {
        if (qEnvironmentVariableIsEmpty("QT_QPA_PLATFORM"))
            qputenv("QT_QPA_PLATFORM", "offscreen");
        app = std::make_unique<QGuiApplication>(argc, argv);
    } else {
        app = std::make_unique<QCoreApplication>(argc, argv);
    }
    // Qt took the C library's locale from the environment; the engine's printf and strtod and
    // the machine output keep the C one ("2.5", never "2,5").
    std::setlocale(LC_ALL, "C");

    // The language: --language, else the environment's (LANGUAGE, LC_ALL, LC_MESSAGES, LANG),
    // else English.
    if (language_missing) {
        print_error(QStringLiteral("lockstep-cli: --language: ") +
                    Cli::tr("needs a value (%1)")
                        .arg(lockstep::lessons::languages().join(QStringLiteral(", "))) +
                    QLatin1Char('\n'));
        return 2;
    }
    if (language) {
        QString error;
        if (!lockstep::lessons::set_language(qs(*language), &error)) {
            print_error(QStringLiteral("lockstep-cli: --language: ") + error + QLatin1Char('\n'));
            return 2;
        }
    } else if (!lockstep::lessons::set_language(lockstep::lessons::language_from_environment())) {
        lockstep::lessons::set_language(QStringLiteral("en"));
    }

    if (all.empty() || all.front() == "--help" || all.front() == "-h" || all.front() == "help") {
        if (all.empty())
            print_error(lockstep::cli::overview_help());
        else
            print(lockstep::cli::overview_help());
        return all.empty() ? 2 : 0;
    }
    if (all.front() == "--version" || all.front() == "version") {
        print(lockstep::cli::version_text());
        return 0;
    }
    const std::string command = all.front();
    const std::vector<std::string> args(all.begin() + 1, all.end());
    // Every command answers --help with its own page, before any of its flags are read.
    if (lockstep::cli::asks_for_help(args)) {
        const QString page = lockstep::cli::command_help(all);
        if (!page.isEmpty()) {
            print(page);
            return 0;
        }
    }
    try {
        if (command == "run")
            return lockstep::cli::command_run(args);
        if (command == "sweep")
            return lockstep::cli::command_sweep(args);
        if (command == "resume")
            return lockstep::cli::command_resume(args);
        if (command == "checkpoints")
            return lockstep::cli::command_checkpoints(args);
        if (command == "reduce")
            return lockstep::cli::command_reduce(args);
        if (command == "validate")
            return lockstep::cli::command_validate(args);
        if (command == "memory")
            return lockstep::cli::command_memory(args);
        if (command == "bench")
            return lockstep::cli::command_bench(args);
        if (command == "compare")
            return lockstep::cli::command_compare(args);
        if (command == "lessons")
            return lockstep::cli::command_lessons(args);
        if (command == "quiz")
            return lockstep::cli::command_quiz(args);
        if (command == "class")
            return lockstep::cli::command_class(args);
        if (command == "moves")
            return lockstep::cli::command_moves(args);
        throw Error(
            utf8(Cli::tr("unknown command '%1' (try lockstep-cli --help)").arg(qs(command))));
    } catch (const Error& e) {
        if (!lockstep::cli::reported_by_another_rank(e))
            std::fprintf(stderr, "lockstep-cli: %s\n", e.what());
        return 1;
    } catch (const std::exception& e) {
        std::fprintf(stderr, "lockstep-cli: %s\n", e.what());
        return 1;
    }
}
