#include "data/data.h"

#include "core/error.h"

#include <algorithm>
#include <charconv>
#include <cmath>
#include <filesystem>
#include <fstream>
#include <limits>
#include <numbers>
#include <system_error>
#include <utility>

// A dataset from a CSV file: strict about its shape, each error naming the line and the field.

namespace lockstep {

namespace {

constexpr int max_csv_classes = 1024;

std::string_view trim(std::string_view s) {
    const auto is_space = [](char ch) { return ch == ' ' || ch == '\t'; };
    while (!s.empty() && is_space(s.front()))
        s.remove_prefix(1);
    while (!s.empty() && is_space(s.back()))
        s.remove_suffix(1);
    return s;
}

bool is_blank(std::string_view line) {
    return trim(line).empty();
}

// Parses a whole field as a double in the C locale; false when any character is left over.
bool parse_double(std::string_view field, double& value, std::errc& error) {
    if (field.size() > 1 && field.front() == '+' && field[1] != '-' && field[1] != '+')
        field.remove_prefix(1);
    const char* end = field.data() + field.size();
    const auto result = std::from_chars(field.data(), end, value);
    error = result.ec;
    return result.ec == std::errc{} && result.ptr == end;
}

std::string quoted_field(std::string_view field) {
    constexpr std::size_t shown = 40;
    if (field.size() <= shown)
        return "'" + std::string(field) + "'";
    return "'" + std::string(field.substr(0, shown)) + "...'";
}

// Splits text into lines ending in '\n', "\r\n" or a '\r' alone (old Mac files).
std::vector<std::string_view> split_lines(std::string_view text) {
    std::vector<std::string_view> lines;
    while (!text.empty()) {
        const auto end = text.find_first_of("\r\n");
        lines.push_back(text.substr(0, end));
        if (end == std::string_view::npos)
            break;
        const bool crlf = text[end] == '\r' && end + 1 < text.size() && text[end + 1] == '\n';
        text.remove_prefix(end + (crlf ? 2 : 1));
    }
    return lines;
}

void split_fields(std::string_view line, std::vector<std::string_view>& fields) {
    fields.clear();
    while (true) {
        const auto comma = line.find(',');
        fields.push_back(trim(line.substr(0, comma)));
        if (comma == std::string_view::npos)
            return;
        line.remove_prefix(comma + 1);
    }
}

std::string where(std::string_view source, std::size_t line) {
    return std::string(source) + ":" + std::to_string(line);
}

} // namespace

Dataset parse_csv(std::string_view text, std::string_view source_name, const CsvLimits& limits) {
    const std::string source(source_name);
    if (text.size() > limits.max_bytes)
        throw Error(source + ": " + std::to_string(text.size()) +
                    " bytes, more than the limit of " + std::to_string(limits.max_bytes));
    if (text.starts_with("\xEF\xBB\xBF"))
        text.remove_prefix(3);

    std::vector<std::string_view> lines = split_lines(text);
    while (!lines.empty() && is_blank(lines.back()))
        lines.pop_back();
    if (lines.empty())
        throw Error(source + ": the file is empty");

    std::vector<std::string_view> fields;
    split_fields(lines[0], fields);
    const std::size_t columns = fields.size();
    if (columns < 2)
        throw Error(where(source, 1) +
                    ": need at least 2 columns (features, then the label), found " +
                    std::to_string(columns));
    if (columns > limits.max_columns)
        throw Error(where(source, 1) + ": " + std::to_string(columns) +
                    " columns, more than the limit of " + std::to_string(limits.max_columns));

    double probe = 0.0;
    std::errc probe_error{};
    const bool has_header = !parse_double(fields[0], probe, probe_error) &&
                            probe_error != std::errc::result_out_of_range;
    const std::size_t first_data = has_header ? 1 : 0;
    const std::size_t rows = lines.size() - first_data;
    if (rows == 0)
        throw Error(source + ": has a header but no data rows");
    if (rows > limits.max_rows)
        throw Error(source + ": more than " + std::to_string(limits.max_rows) + " rows (limit)");

    Dataset data;
    data.name = source;
    data.dim = columns - 1;
    data.features.reserve(rows * data.dim);
    data.targets.reserve(rows);

    for (std::size_t l = first_data; l < lines.size(); ++l) {
        const std::size_t line_number = l + 1;
        if (is_blank(lines[l]))
            throw Error(where(source, line_number) + ": blank line between data rows");
        split_fields(lines[l], fields);
        if (fields.size() != columns)
            throw Error(where(source, line_number) + ": expected " + std::to_string(columns) +
                        " fields like line 1, found " + std::to_string(fields.size()));
        for (std::size_t col = 0; col < columns; ++col) {
            const std::string at =
                where(source, line_number) + ", column " + std::to_string(col + 1) + ": ";
            double value = 0.0;
            std::errc error{};
            if (fields[col].empty())
                throw Error(at + "empty field, expected a number");
            if (!parse_double(fields[col], value, error)) {
                if (error == std::errc::result_out_of_range)
                    throw Error(at + quoted_field(fields[col]) + " is out of range for a double");
                throw Error(at + quoted_field(fields[col]) + " is not a number");
            }
            if (!std::isfinite(value))
                throw Error(at + quoted_field(fields[col]) + " is not a finite number");
            if (col + 1 < columns)
                data.features.push_back(value);
            else
                data.targets.push_back(value);
        }
    }

    // Whole-number labels in [0, 1024) are class indices; anything else makes a regression set.
    const bool whole_labels = std::all_of(data.targets.begin(), data.targets.end(), [](double y) {
        return y >= 0.0 && y < max_csv_classes && y == std::floor(y);
    });
    if (whole_labels) {
        data.task = Task::Classification;
        double highest = 0.0;
        for (double& y : data.targets) {
            y = std::floor(y) + 0.0; // turns -0 into 0
            highest = std::max(highest, y);
        }
        data.classes = static_cast<int>(highest) + 1;
    } else {
        data.task = Task::Regression;
        data.classes = 1;
    }
    return data;
}

Dataset load_csv(const std::string& path, const CsvLimits& limits) {
    std::error_code ec;
    const std::filesystem::path file(path);
    if (std::filesystem::is_directory(file, ec))
        throw Error("cannot open '" + path + "': it is a directory");
    const auto bytes = std::filesystem::file_size(file, ec);
    if (ec)
        throw Error("cannot open '" + path + "': " + ec.message());
    if (bytes > limits.max_bytes)
        throw Error(path + ": " + std::to_string(bytes) + " bytes, more than the limit of " +
                    std::to_string(limits.max_bytes));

    std::ifstream in(file, std::ios::binary);
    if (!in)
        throw Error("cannot open '" + path + "' for reading");
    std::string text(static_cast<std::size_t>(bytes), '\0');
    in.read(text.data(), static_cast<std::streamsize>(text.size()));
    if (static_cast<std::uintmax_t>(in.gcount()) != bytes)
        throw Error(path + ": could not read the whole file");

    Dataset data = parse_csv(text, path, limits);
    data.name = file.filename().string();
    return data;
}

} // namespace lockstep
