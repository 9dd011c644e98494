#pragma once

#include "core/rng.h"

#include <cstddef>
#include <cstdint>
#include <memory>
#include <span>
#include <string>
#include <string_view>
#include <vector>

namespace lockstep {

enum class Task { Classification, Regression };

// Rows of `dim` features (row-major) and one target per row: a class index stored as a double
// for classification, a value for regression.
struct Dataset {
    std::string name;
    Task task = Task::Classification;
    std::size_t dim = 2;
    int classes = 2; // classification only; 1 for regression
    std::vector<double> features;
    std::vector<double> targets;

    std::size_t size() const { return targets.size(); }
    const double* row(std::size_t i) const { return features.data() + i * dim; }
};

// Built-in 2-D sets: "spiral", "circles", "xor", "clusters" (classification) and "regression"
// (y = sin(x0) + x1/2 plus noise). Same spec, same rows.
struct SyntheticSpec {
    std::string name = "spiral";
    std::size_t samples = 512;
    double noise = 0.1;
    int classes = 2; // spiral and clusters accept 2..8; circles and xor are always 2
    std::uint64_t seed = 1;
};

bool is_synthetic_dataset(std::string_view name);
std::vector<std::string> synthetic_dataset_names();
Dataset make_synthetic(const SyntheticSpec& spec); // throws lockstep::Error on a bad spec

struct CsvLimits {
    std::size_t max_rows = 1'000'000;
    std::size_t max_columns = 1024;
    std::size_t max_values = 16'000'000; // rows times columns: 128 MB of doubles
    std::size_t max_bytes = 256u * 1024u * 1024u;
    // The most memory the reader holds at once, whatever the file: it never holds the file, only
    // one line and the values read so far, and it stops at the first line past a limit.
    std::size_t memory_bound_bytes() const;
};
// The reader reads a file this many bytes at a time; a line may be at most max_line_bytes long.
inline constexpr std::size_t csv_piece_bytes = 1u << 20;
inline constexpr std::size_t max_line_bytes = 1u << 20;

// CSV: an optional header row (detected when its first field is not a number), then rows of
// features followed by the label in the last column. Labels that are all whole numbers in
// [0, 1024) make a classification set with max+1 classes; any other label makes regression.
// Throws lockstep::Error naming the file, line and column for ragged rows, non-numbers, empty
// files and files over the limits, at the first line that breaks one: a file is read as a stream,
// never whole.
Dataset parse_csv(std::string_view text, std::string_view source_name,
                  const CsvLimits& limits = {});
Dataset load_csv(const std::string& path, const CsvLimits& limits = {});

// The reader both use, for text that arrives a piece at a time: feed() each piece in order (a
// line, a "\r\n" or the byte-order mark may be cut anywhere between two), then finish(). Each
// throws lockstep::Error as parse_csv() does, at the first line past a limit.
class CsvReader {
public:
    explicit CsvReader(std::string source_name, const CsvLimits& limits = {});
    ~CsvReader();
    CsvReader(const CsvReader&) = delete;
    CsvReader& operator=(const CsvReader&) = delete;
    void feed(std::string_view piece);
    Dataset finish();

private:
    class State;
    std::unique_ptr<State> state_;
};

// Half-open row range [begin, end) of the dataset that one worker trains on.
struct Shard {
    std::size_t begin = 0;
    std::size_t end = 0;
    std::size_t size() const { return end - begin; }
};

// Worker k gets rows floor(k*n/N) .. floor((k+1)*n/N)-1.
std::vector<Shard> equal_shards(std::size_t rows, int workers);
// Consecutive shards of the given sizes; throws when a size is 0 or they need more than `rows`.
std::vector<Shard> sized_shards(std::size_t rows, std::span<const std::size_t> sizes);

// Where one worker is in its shard: the next position, the epoch, and (with shuffling) this
// epoch's order, reshuffled from the worker's own generator at every epoch start.
class DataCursor {
public:
    struct State {
        std::size_t position = 0;
        std::uint64_t epoch = 0;
        std::vector<std::uint32_t> order; // permutation of 0..shard.size()-1
        Rng::State rng{};
    };

    DataCursor(Shard shard, bool shuffle, Rng rng);

    // Row indices of the next batch, taken in order and wrapping around the shard.
    void next_batch(std::size_t batch, std::vector<std::size_t>& rows);

    const Shard& shard() const { return shard_; }
    bool shuffle() const { return shuffle_; }
    State state() const;
    void set_state(const State& state);

private:
    void start_epoch();

    Shard shard_;
    bool shuffle_ = false;
    Rng rng_;
    std::size_t position_ = 0;
    std::uint64_t epoch_ = 0;
    std::vector<std::uint32_t> order_;
};

// Copies the given rows into contiguous feature and target buffers.
void gather_rows(const Dataset& data, std::span<const std::size_t> rows,
                 std::vector<double>& features, std::vector<double>& targets);

} // namespace lockstep
