#include "options.h"

#include "core/error.h"

#include "lockstep_lessons/language.h"

#include <algorithm>
#include <charconv>
#include <cmath>
#include <cstdio>

namespace lockstep::cli {

bool parse_integer(const std::string& text, std::int64_t& out) {
    const char* begin = text.data();
    const char* end = begin + text.size();
    if (begin != end && *begin == '+')
        ++begin;
    auto [ptr, ec] = std::from_chars(begin, end, out);
    return ec == std::errc() && ptr == end && begin != end;
}

bool parse_number(const std::string& text, double& out) {
    const char* begin = text.data();
    const char* end = begin + text.size();
    if (begin != end && *begin == '+')
        ++begin;
    auto [ptr, ec] = std::from_chars(begin, end, out);
    return ec == std::errc() && ptr == end && begin != end && std::isfinite(out);
}

std::string format_number(double value) {
    char buffer[64];
    auto [ptr, ec] = std::to_chars(buffer, buffer + sizeof buffer, value);
    return ec == std::errc() ? std::string(buffer, ptr) : std::string("nan");
}

QString decimal(const char* format, double value) {
    char buffer[128];
    std::snprintf(buffer, sizeof buffer, format, value);
    return lessons::localized_number(QString::fromLatin1(buffer));
}

QString decimal(double value) {
    return lessons::localized_number(QString::fromStdString(format_number(value)));
}

QString pad(const QString& text, int width) {
    return width < 0 ? text.leftJustified(-width) : text.rightJustified(width);
}

void print(const QString& text) {
    std::fputs(text.toUtf8().constData(), stdout);
}

void print_error(const QString& text) {
    std::fputs(text.toUtf8().constData(), stderr);
}

void note(const QString& text) {
    print_error(QStringLiteral("lockstep-cli: ") + text + QLatin1Char('\n'));
}

Error not_one_of(const std::string& flag, const char* allowed, const std::string& got) {
    return Error(utf8(Cli::tr("%1: must be one of %2, got '%3'")
                          .arg(qs(flag), QString::fromUtf8(allowed), qs(got))));
}

static std::vector<std::string> split(const std::string& text) {
    std::vector<std::string> parts;
    std::string current;
    for (char c : text) {
        if (c == ',') {
            parts.push_back(current);
            current.clear();
        } else if (c != ' ') {
            current += c;
        }
    }
    parts.push_back(current);
    return parts;
}

Options::Options(const std::vector<std::string>& args, const std::vector<std::string>& valued,
                 const std::vector<std::string>& switches) {
    auto is = [](const std::vector<std::string>& list, const std::string& flag) {
        return std::find(list.begin(), list.end(), flag) != list.end();
    };
    for (std::size_t i = 0; i < args.size(); ++i) {
        std::string arg = args[i];
        if (arg.size() < 2 || arg.rfind("--", 0) != 0) {
            if (arg.size() > 1 && arg[0] == '-')
                throw Error(utf8(Cli::tr("unknown option %1").arg(qs(arg))));
            positional_.push_back(arg);
            continue;
        }
        std::string value;
        bool inline_value = false;
        if (const auto eq = arg.find('='); eq != std::string::npos) {
            value = arg.substr(eq + 1);
            arg = arg.substr(0, eq);
            inline_value = true;
        }
        if (is(switches, arg)) {
            if (inline_value)
                throw Error(utf8(Cli::tr("%1 takes no value").arg(qs(arg))));
            values_[arg] = "";
        } else if (is(valued, arg)) {
            if (!inline_value) {
                if (i + 1 >= args.size())
                    throw Error(utf8(Cli::tr("%1 needs a value").arg(qs(arg))));
                value = args[++i];
            }
            values_[arg] = value;
            every_[arg].push_back(value);
        } else {
            throw Error(utf8(Cli::tr("unknown option %1").arg(qs(arg))));
        }
    }
}

std::vector<std::string> Options::texts(const std::string& flag) const {
    auto it = every_.find(flag);
    return it == every_.end() ? std::vector<std::string>{} : it->second;
}

std::optional<std::string> Options::text(const std::string& flag) const {
    auto it = values_.find(flag);
    if (it == values_.end())
        return std::nullopt;
    return it->second;
}

std::optional<std::int64_t> Options::integer(const std::string& flag, std::int64_t lo,
                                             std::int64_t hi) const {
    auto t = text(flag);
    if (!t)
        return std::nullopt;
    std::int64_t value = 0;
    if (!parse_integer(*t, value) || value < lo || value > hi)
        throw Error(utf8(Cli::tr("%1: expected a whole number between %2 and %3, got '%4'")
                             .arg(qs(flag), QString::number(lo), QString::number(hi), qs(*t))));
    return value;
}

std::optional<double> Options::number(const std::string& flag, double lo, double hi) const {
    auto t = text(flag);
    if (!t)
        return std::nullopt;
    double value = 0;
    if (!parse_number(*t, value) || value < lo || value > hi)
        throw Error(utf8(Cli::tr("%1: expected a number between %2 and %3, got '%4'")
                             .arg(qs(flag), qs(format_number(lo)), qs(format_number(hi)), qs(*t))));
    return value;
}

std::optional<std::vector<std::int64_t>>
Options::integer_list(const std::string& flag, std::int64_t lo, std::int64_t hi) const {
    auto t = text(flag);
    if (!t)
        return std::nullopt;
    std::vector<std::int64_t> out;
    for (const auto& part : split(*t)) {
        std::int64_t value = 0;
        if (!parse_integer(part, value) || value < lo || value > hi)
            throw Error(utf8(
                Cli::tr("%1: expected whole numbers between %2 and %3 separated by commas, got "
                        "'%4' in '%5'")
                    .arg(qs(flag), QString::number(lo), QString::number(hi), qs(part), qs(*t))));
        out.push_back(value);
    }
    if (out.size() > 4096)
        throw Error(
            utf8(Cli::tr("%1: too many values (at most %2)").arg(qs(flag), QString::number(4096))));
    return out;
}

std::optional<std::vector<double>> Options::number_list(const std::string& flag) const {
    auto t = text(flag);
    if (!t)
        return std::nullopt;
    std::vector<double> out;
    for (const auto& part : split(*t)) {
        double value = 0;
        if (!parse_number(part, value))
            throw Error(utf8(Cli::tr("%1: expected numbers separated by commas, got '%2' in '%3'")
                                 .arg(qs(flag), qs(part), qs(*t))));
        out.push_back(value);
    }
    if (out.size() > 4096)
        throw Error(
            utf8(Cli::tr("%1: too many values (at most %2)").arg(qs(flag), QString::number(4096))));
    return out;
}

} // namespace lockstep::cli
