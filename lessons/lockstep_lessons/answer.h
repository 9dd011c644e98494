#pragma once

#include <QString>

#include <optional>
#include <vector>

namespace lockstep::lessons {

// A typed answer read the way a person means it, or a gentle message saying why it could not be.
template <typename T> struct Parsed {
    std::optional<T> value;
    QString problem; // set when value is empty: what to type instead
};

// Reads "2.5", "2,5", " 2.5 ", "5/2", "-3", "−3", "1e6", "1 000", "62.5%", and "16 s" when `unit`
// is "s". Thousands separators are accepted only when unambiguous: "1,000" alone could be one
// thousand or one, so it is refused with a message rather than guessed.
Parsed<double> parse_number(const QString& text, const QString& unit = {});

// Reads choices as letters ("b", "a, c") or numbers from 1 ("2", "1 3"), 0-based in the result.
// `exactly_one`: a single-choice answer. `all_once`: an ordering, each of the `count` items once.
Parsed<std::vector<int>> parse_choices(const QString& text, int count, bool exactly_one,
                                       bool all_once);

} // namespace lockstep::lessons
