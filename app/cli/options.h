#pragma once

#include "core/error.h"

#include <QCoreApplication>
#include <QString>

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace lockstep::cli {

// lockstep-cli's texts for people (help pages, errors, reports, prompts) translate in this
// context: Cli::tr("...").
struct Cli {
    Q_DECLARE_TR_FUNCTIONS(LockstepCli)
};

// A text as the terminal and lockstep::Error take it (UTF-8).
inline std::string utf8(const QString& text) {
    return text.toStdString();
}
// A std::string (UTF-8: a file name, a flag's value, an engine's sentence) for a %1.
inline QString qs(const std::string& text) {
    return QString::fromStdString(text);
}
// One value as printf writes it with `format` ("%.4g", "%.3f"), for a %1 of a translated
// sentence: the digits are the ones printed before, with the decimal comma where the language
// in use writes one. For the reports a person reads, never for JSON or CSV.
QString decimal(const char* format, double value);
// format_number(value) ("2.5", "16"), the same way.
QString decimal(double value);
// `text` padded with spaces to `width` characters: on the right for a negative width (printf's
// %-16s), on the left for a positive one (%8s). Never cut.
QString pad(const QString& text, int width);
// Writes the text to stdout or stderr, in UTF-8.
void print(const QString& text);
void print_error(const QString& text);
// A note on stderr: something the command did or skipped, and why.
void note(const QString& text);

// The command line after the command word: positional arguments and --flag values. Each command
// names the flags it accepts; anything else is an error that names the flag.
class Options {
public:
    // `valued` flags take the next argument; `switches` take none. Throws lockstep::Error.
    Options(const std::vector<std::string>& args, const std::vector<std::string>& valued,
            const std::vector<std::string>& switches);

    const std::vector<std::string>& positional() const { return positional_; }
    bool has(const std::string& flag) const { return values_.count(flag) > 0; }
    std::optional<std::string> text(const std::string& flag) const; // the last one given
    std::vector<std::string> texts(const std::string& flag) const;  // every one, in order

    std::optional<std::int64_t> integer(const std::string& flag, std::int64_t lo,
                                        std::int64_t hi) const;
    std::optional<double> number(const std::string& flag, double lo, double hi) const;
    std::optional<std::vector<std::int64_t>> integer_list(const std::string& flag, std::int64_t lo,
                                                          std::int64_t hi) const;
    std::optional<std::vector<double>> number_list(const std::string& flag) const;

private:
    std::vector<std::string> positional_;
    std::map<std::string, std::string> values_;
    std::map<std::string, std::vector<std::string>> every_;
};

// "--rule: must be one of sum, mean, weighted-mean, got 'median'".
Error not_one_of(const std::string& flag, const char* allowed, const std::string& got);

// Sets `out` from the flag's value when it is given, read by `parse`; anything else is an error
// listing the `allowed` values.
template <typename E>
void choose(const Options& o, const std::string& flag, E& out, bool (*parse)(std::string_view, E&),
            const char* allowed) {
    if (auto t = o.text(flag)) {
        if (!parse(*t, out))
            throw not_one_of(flag, allowed, *t);
    }
}

// Strict, locale-independent number parsing: the whole text must be the number.
bool parse_integer(const std::string& text, std::int64_t& out);
bool parse_number(const std::string& text, double& out);

// The shortest text that reads back as the same double ("3", "2.5", "0.1").
std::string format_number(double value);

} // namespace lockstep::cli
