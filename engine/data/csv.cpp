#include "data/data.h"

#include "core/error.h"

#include <algorithm>
#include <charconv>
#include <cmath>
#include <filesystem>
#include <fstream>
#include <limits>
#include <memory>
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

// A CSV read a piece at a time, a line at a time: it holds one line and the values read so far,
// never the file, and stops at the first line past a limit. Lines end in '\n', "\r\n" or a
// '\r' alone (old Mac files), even when a piece ends between the '\r' and the '\n'.
class CsvReader::State {
public:
    State(std::string source, const CsvLimits& limits)
        : source_(std::move(source))
        , limits_(limits) {}

    void feed(std::string_view piece) {
        bytes_ += piece.size();
        if (bytes_ > limits_.max_bytes)
            throw Error(source_ + ": more than the limit of " + std::to_string(limits_.max_bytes) +
                        " bytes");
        if (!at_start_)
            return split(piece);
        // The first three bytes decide whether there is a byte-order mark to skip.
        const std::size_t wanted = 3 - start_.size();
        if (piece.size() < wanted) {
            start_.append(piece);
            return;
        }
        at_start_ = false;
        const std::string first = start_ + std::string(piece.substr(0, wanted));
        if (first == "\xEF\xBB\xBF")
            return split(piece.substr(wanted));
        split(start_);
        split(piece);
    }

    Dataset finish() {
        if (at_start_) {
            at_start_ = false;
            split(start_);
        }
        if (!line_.empty())
            take_line(line_);
        if (columns_ == 0)
            throw Error(source_ + ": the file is empty");
        if (rows_ == 0)
            throw Error(source_ + ": has a header but no data rows");
        label_classes();
        return std::move(data_);
    }

private:
    void split(std::string_view text) {
        if (last_was_cr_ && !text.empty() && text.front() == '\n')
            text.remove_prefix(1); // the '\n' of a "\r\n" cut between two pieces
        last_was_cr_ = false;
        while (!text.empty()) {
            const auto end = text.find_first_of("\r\n");
            if (end == std::string_view::npos) {
                append(text);
                return;
            }
            if (line_.empty()) {
                take_line(text.substr(0, end)); // the whole line is in this piece
            } else {
                append(text.substr(0, end));
                take_line(line_);
                line_.clear();
            }
            const bool cr = text[end] == '\r';
            if (cr && end + 1 < text.size() && text[end + 1] == '\n')
                text.remove_prefix(end + 2);
            else {
                text.remove_prefix(end + 1);
                last_was_cr_ = cr && text.empty();
            }
        }
    }

    void append(std::string_view part) {
        if (line_.size() + part.size() > max_line_bytes)
            throw Error(where(source_, line_number_ + 1) + ": longer than " +
                        std::to_string(max_line_bytes) + " bytes");
        line_.append(part);
    }

    void take_line(std::string_view line) {
        ++line_number_;
        if (line.size() > max_line_bytes)
            throw Error(where(source_, line_number_) + ": longer than " +
                        std::to_string(max_line_bytes) + " bytes");
        if (is_blank(line)) {
            if (blank_from_ == 0)
                blank_from_ = line_number_;
            return; // an error only when a row follows
        }
        if (blank_from_ != 0) {
            if (columns_ == 0) // blank lines first: line 1 is the header or the first row
                throw Error(where(source_, 1) +
                            ": need at least 2 columns (features, then the label), found 1");
            throw Error(where(source_, blank_from_) + ": blank line between data rows");
        }
        split_fields(line, fields_);
        if (columns_ == 0)
            return first_line();
        if (fields_.size() != columns_)
            throw Error(where(source_, line_number_) + ": expected " + std::to_string(columns_) +
                        " fields like line 1, found " + std::to_string(fields_.size()));
        if (rows_ + 1 > limits_.max_rows)
            throw Error(source_ + ": more than " + std::to_string(limits_.max_rows) +
                        " rows (limit)");
        if ((rows_ + 1) * columns_ > limits_.max_values)
            throw Error(where(source_, line_number_) + ": more than " +
                        std::to_string(limits_.max_values) + " values in all (limit)");
        add_row();
    }

    void first_line() {
        columns_ = fields_.size();
        if (columns_ < 2)
            throw Error(where(source_, 1) +
                        ": need at least 2 columns (features, then the label), found " +
                        std::to_string(columns_));
        if (columns_ > limits_.max_columns)
            throw Error(where(source_, 1) + ": " + std::to_string(columns_) +
                        " columns, more than the limit of " + std::to_string(limits_.max_columns));
        data_.name = source_;
        data_.dim = columns_ - 1;
        double probe = 0.0;
        std::errc probe_error{};
        const bool header = !parse_double(fields_[0], probe, probe_error) &&
                            probe_error != std::errc::result_out_of_range;
        if (!header) {
            if (limits_.max_rows == 0)
                throw Error(source_ + ": more than 0 rows (limit)");
            add_row();
        }
    }

    void add_row() {
        for (std::size_t col = 0; col < columns_; ++col) {
            const auto at = [&] {
                return where(source_, line_number_) + ", column " + std::to_string(col + 1) + ": ";
            };
            double value = 0.0;
            std::errc error{};
            if (fields_[col].empty())
                throw Error(at() + "empty field, expected a number");
            if (!parse_double(fields_[col], value, error)) {
                if (error == std::errc::result_out_of_range)
                    throw Error(at() + quoted_field(fields_[col]) +
                                " is out of range for a double");
                throw Error(at() + quoted_field(fields_[col]) + " is not a number");
            }
            if (!std::isfinite(value))
                throw Error(at() + quoted_field(fields_[col]) + " is not a finite number");
            if (col + 1 < columns_)
                data_.features.push_back(value);
            else
                data_.targets.push_back(value);
        }
        ++rows_;
    }

    // Whole-number labels in [0, 1024) are class indices; anything else makes a regression set.
    void label_classes() {
        auto& targets = data_.targets;
        const bool whole_labels = std::all_of(targets.begin(), targets.end(), [](double y) {
            return y >= 0.0 && y < max_csv_classes && y == std::floor(y);
        });
        if (whole_labels) {
            data_.task = Task::Classification;
            double highest = 0.0;
            for (double& y : targets) {
                y = std::floor(y) + 0.0; // turns -0 into 0
                highest = std::max(highest, y);
            }
            data_.classes = static_cast<int>(highest) + 1;
        } else {
            data_.task = Task::Regression;
            data_.classes = 1;
        }
        data_.features.shrink_to_fit();
        targets.shrink_to_fit();
    }

    std::string source_;
    CsvLimits limits_;
    std::uint64_t bytes_ = 0;
    bool at_start_ = true;     // the byte-order mark not yet looked for
    std::string start_;        // the first bytes, while that is undecided
    std::string line_;         // the line being read
    bool last_was_cr_ = false; // the last piece ended in '\r'
    std::size_t line_number_ = 0, blank_from_ = 0;
    std::size_t columns_ = 0, rows_ = 0;
    std::vector<std::string_view> fields_;
    Dataset data_;
};

CsvReader::CsvReader(std::string source, const CsvLimits& limits)
    : state_(std::make_unique<State>(std::move(source), limits)) {}

CsvReader::~CsvReader() = default;

void CsvReader::feed(std::string_view piece) {
    state_->feed(piece);
}

Dataset CsvReader::finish() {
    return state_->finish();
}

std::size_t CsvLimits::memory_bound_bytes() const {
    // The values in their vectors, which may hold up to twice what they need and, while one
    // grows, its old buffer too; one line; the piece being read.
    return 3 * max_values * sizeof(double) + max_line_bytes + csv_piece_bytes;
}

Dataset parse_csv(std::string_view text, std::string_view source_name, const CsvLimits& limits) {
    CsvReader reader{std::string(source_name), limits};
    reader.feed(text);
    return reader.finish();
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
    CsvReader reader{path, limits};
    std::vector<char> piece(csv_piece_bytes);
    while (in) {
        in.read(piece.data(), static_cast<std::streamsize>(piece.size()));
        const auto got = static_cast<std::size_t>(in.gcount());
        if (got > 0)
            reader.feed(std::string_view(piece.data(), got));
    }
    if (in.bad())
        throw Error(path + ": could not read the whole file");
    Dataset data = reader.finish();
    data.name = file.filename().string();
    return data;
}

} // namespace lockstep
