#pragma once

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <vector>

namespace lockstep::cli {

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

// Strict, locale-independent number parsing: the whole text must be the number.
bool parse_integer(const std::string& text, std::int64_t& out);
bool parse_number(const std::string& text, double& out);

// The shortest text that reads back as the same double ("3", "2.5", "0.1").
std::string format_number(double value);

} // namespace lockstep::cli
