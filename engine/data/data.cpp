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

namespace lockstep {

namespace {

constexpr std::size_t max_synthetic_samples = 1'000'000;
constexpr double max_synthetic_noise = 10.0;
constexpr int min_classes = 2;
constexpr int max_classes = 8;
constexpr int max_csv_classes = 1024;
constexpr int max_workers = 256;

const std::vector<std::string>& known_synthetic_names() {
    static const std::vector<std::string> names{"spiral", "circles", "xor", "clusters",
                                                "regression"};
    return names;
}

std::string joined_names() {
    std::string out;
    for (const auto& name : known_synthetic_names()) {
        if (!out.empty())
            out += ", ";
        out += name;
    }
    return out;
}

// Checks a synthetic spec and returns how many classes the set will have.
int checked_classes(const SyntheticSpec& spec) {
    if (!is_synthetic_dataset(spec.name))
        throw Error("unknown synthetic dataset '" + spec.name + "' (known: " + joined_names() +
                    ")");
    if (spec.samples < 1 || spec.samples > max_synthetic_samples)
        throw Error("synthetic dataset samples must be in 1..1000000, got " +
                    std::to_string(spec.samples));
    if (!(spec.noise >= 0.0 && spec.noise <= max_synthetic_noise))
        throw Error("synthetic dataset noise must be in 0..10, got " + std::to_string(spec.noise));
    if (spec.name == "regression")
        return 1;
    if (spec.name == "circles" || spec.name == "xor") {
        if (spec.classes != 2)
            throw Error("synthetic dataset '" + spec.name + "' always has 2 classes, got " +
                        std::to_string(spec.classes));
        return 2;
    }
    if (spec.classes < min_classes || spec.classes > max_classes)
        throw Error("synthetic dataset '" + spec.name + "' classes must be in 2..8, got " +
                    std::to_string(spec.classes));
    return spec.classes;
}

// One point of class c; the position along the arm is random so that any subset of rows covers
// the whole arm, not just its inner end.
void spiral_point(Rng& rng, int c, int classes, double noise, double* x) {
    const double t = rng.uniform();
    const double angle = 2.0 * std::numbers::pi * c / classes + 4.0 * t;
    x[0] = t * std::cos(angle) + noise * rng.normal();
    x[1] = t * std::sin(angle) + noise * rng.normal();
}

// Class 0 on a ring of radius 0.5, class 1 on a ring of radius 1.
void circles_point(Rng& rng, int c, double noise, double* x) {
    const double radius = c == 0 ? 0.5 : 1.0;
    const double angle = rng.uniform(0.0, 2.0 * std::numbers::pi);
    x[0] = radius * std::cos(angle) + noise * rng.normal();
    x[1] = radius * std::sin(angle) + noise * rng.normal();
}

// Uniform in [-1,1]^2 restricted to the quadrants of class c: 0 where x0*x1 > 0, 1 where < 0.
void xor_point(Rng& rng, int c, double noise, double* x) {
    const double sign = rng.below(2) == 0 ? 1.0 : -1.0;
    const double a = rng.uniform();
    const double b = rng.uniform();
    x[0] = sign * a + noise * rng.normal();
    x[1] = (c == 0 ? sign : -sign) * b + noise * rng.normal();
}

// A Gaussian blob of width 0.15 around a centre on the unit circle.
void cluster_point(Rng& rng, int c, int classes, double noise, double* x) {
    constexpr double blob_width = 0.15;
    const double angle = 2.0 * std::numbers::pi * c / classes;
    x[0] = std::cos(angle) + blob_width * rng.normal() + noise * rng.normal();
    x[1] = std::sin(angle) + blob_width * rng.normal() + noise * rng.normal();
}

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

// Splits text into lines on '\n', dropping a '\r' before it.
std::vector<std::string_view> split_lines(std::string_view text) {
    std::vector<std::string_view> lines;
    while (!text.empty()) {
        const auto newline = text.find('\n');
        std::string_view line = text.substr(0, newline);
        if (!line.empty() && line.back() == '\r')
            line.remove_suffix(1);
        lines.push_back(line);
        if (newline == std::string_view::npos)
            break;
        text.remove_prefix(newline + 1);
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

bool is_synthetic_dataset(std::string_view name) {
    const auto& names = known_synthetic_names();
    return std::find(names.begin(), names.end(), name) != names.end();
}

std::vector<std::string> synthetic_dataset_names() {
    return known_synthetic_names();
}

Dataset make_synthetic(const SyntheticSpec& spec) {
    const int classes = checked_classes(spec);
    Dataset data;
    data.name = spec.name;
    data.dim = 2;
    data.classes = classes;
    data.task = spec.name == "regression" ? Task::Regression : Task::Classification;
    data.features.resize(spec.samples * data.dim);
    data.targets.resize(spec.samples);

    Rng rng(spec.seed);
    for (std::size_t i = 0; i < spec.samples; ++i) {
        double* x = data.features.data() + i * data.dim;
        // Classes are interleaved so that any run of rows, and so any contiguous shard, holds
        // every class in equal measure.
        const int c = static_cast<int>(i % static_cast<std::size_t>(classes));
        if (spec.name == "spiral") {
            spiral_point(rng, c, classes, spec.noise, x);
        } else if (spec.name == "circles") {
            circles_point(rng, c, spec.noise, x);
        } else if (spec.name == "xor") {
            xor_point(rng, c, spec.noise, x);
        } else if (spec.name == "clusters") {
            cluster_point(rng, c, classes, spec.noise, x);
        } else {
            x[0] = rng.uniform(-3.0, 3.0);
            x[1] = rng.uniform(-3.0, 3.0);
            data.targets[i] = std::sin(x[0]) + x[1] / 2.0 + spec.noise * rng.normal();
            continue;
        }
        data.targets[i] = static_cast<double>(c);
    }
    return data;
}

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

std::vector<Shard> equal_shards(std::size_t rows, int workers) {
    if (workers < 1 || workers > max_workers)
        throw Error("workers must be in 1..256, got " + std::to_string(workers));
    const auto n = static_cast<std::size_t>(workers);
    if (rows < n)
        throw Error("cannot split " + std::to_string(rows) + " rows among " +
                    std::to_string(workers) + " workers: every worker needs at least one row");
    // floor(k*rows/n) without overflow: k*(q*n + r)/n = k*q + floor(k*r/n), with k*r < 256^2.
    const std::size_t q = rows / n;
    const std::size_t r = rows % n;
    const auto boundary = [&](std::size_t k) { return k * q + (k * r) / n; };
    std::vector<Shard> shards(n);
    for (std::size_t k = 0; k < n; ++k)
        shards[k] = Shard{boundary(k), boundary(k + 1)};
    return shards;
}

std::vector<Shard> sized_shards(std::size_t rows, std::span<const std::size_t> sizes) {
    if (sizes.empty() || sizes.size() > static_cast<std::size_t>(max_workers))
        throw Error("shard sizes must list 1..256 workers, got " + std::to_string(sizes.size()));
    std::vector<Shard> shards;
    shards.reserve(sizes.size());
    std::size_t begin = 0;
    for (std::size_t k = 0; k < sizes.size(); ++k) {
        if (sizes[k] == 0)
            throw Error("shard size of worker " + std::to_string(k) +
                        " is 0; every worker needs "
                        "at least one row");
        if (sizes[k] > rows - begin)
            throw Error("shard sizes need more rows than the dataset has (" + std::to_string(rows) +
                        ") by worker " + std::to_string(k));
        shards.push_back(Shard{begin, begin + sizes[k]});
        begin += sizes[k];
    }
    return shards;
}

DataCursor::DataCursor(Shard shard, bool shuffle, Rng rng)
    : shard_(shard)
    , shuffle_(shuffle)
    , rng_(rng) {
    if (shard_.end <= shard_.begin)
        throw Error("a data cursor needs a shard with at least one row");
    if (shard_.size() > std::numeric_limits<std::uint32_t>::max())
        throw Error("a shard of " + std::to_string(shard_.size()) + " rows is too large");
    if (shuffle_)
        start_epoch();
}

// Draws this epoch's order: a Fisher-Yates shuffle of the shard's positions.
void DataCursor::start_epoch() {
    const std::size_t n = shard_.size();
    order_.resize(n);
    for (std::size_t i = 0; i < n; ++i)
        order_[i] = static_cast<std::uint32_t>(i);
    for (std::size_t i = n - 1; i > 0; --i) {
        const auto j = static_cast<std::size_t>(rng_.below(i + 1));
        std::swap(order_[i], order_[j]);
    }
}

void DataCursor::next_batch(std::size_t batch, std::vector<std::size_t>& rows) {
    rows.clear();
    rows.reserve(batch);
    const std::size_t n = shard_.size();
    for (std::size_t b = 0; b < batch; ++b) {
        const std::size_t offset = shuffle_ ? order_[position_] : position_;
        rows.push_back(shard_.begin + offset);
        if (++position_ == n) {
            position_ = 0;
            ++epoch_;
            if (shuffle_)
                start_epoch();
        }
    }
}

DataCursor::State DataCursor::state() const {
    return State{position_, epoch_, order_, rng_.state()};
}

// Restores a saved position; the state may come from a file, so it is checked first.
void DataCursor::set_state(const State& state) {
    const std::size_t n = shard_.size();
    if (state.position >= n)
        throw Error("data cursor state: position " + std::to_string(state.position) +
                    " is outside the shard of " + std::to_string(n) + " rows");
    if (shuffle_) {
        if (state.order.size() != n)
            throw Error("data cursor state: order has " + std::to_string(state.order.size()) +
                        " entries, the shard has " + std::to_string(n) + " rows");
        std::vector<bool> seen(n, false);
        for (const std::uint32_t i : state.order) {
            if (i >= n || seen[i])
                throw Error("data cursor state: order is not a permutation of the shard's rows");
            seen[i] = true;
        }
    } else if (!state.order.empty()) {
        throw Error("data cursor state: an order is given but shuffling is off");
    }
    position_ = state.position;
    epoch_ = state.epoch;
    order_ = state.order;
    rng_.set_state(state.rng);
}

void gather_rows(const Dataset& data, std::span<const std::size_t> rows,
                 std::vector<double>& features, std::vector<double>& targets) {
    const std::size_t dim = data.dim;
    features.resize(rows.size() * dim);
    targets.resize(rows.size());
    for (std::size_t i = 0; i < rows.size(); ++i) {
        const std::size_t r = rows[i];
        if (r >= data.size())
            throw Error("row " + std::to_string(r) + " is outside the dataset of " +
                        std::to_string(data.size()) + " rows");
        std::copy_n(data.row(r), dim, features.data() + i * dim);
        targets[i] = data.targets[r];
    }
}

} // namespace lockstep
