// Feeds arbitrary text to the CSV dataset loader. It must either reject it with a lockstep::Error
// or return a dataset whose values are all finite, whose shape is consistent, and which, written
// back as CSV, reads back as the same dataset; fed to the reader a few bytes at a time, it must
// give the same dataset or the same error.

#include "data/data.h"

#include "core/error.h"

#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <string_view>

namespace {

std::string to_csv(const lockstep::Dataset& d) {
    std::string out;
    char number[40];
    for (std::size_t i = 0; i < d.size(); ++i) {
        for (std::size_t j = 0; j < d.dim; ++j) {
            std::snprintf(number, sizeof number, "%.17g,", d.row(i)[j]);
            out += number;
        }
        std::snprintf(number, sizeof number, "%.17g\n", d.targets[i]);
        out += number;
    }
    return out;
}

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    const std::string_view text(reinterpret_cast<const char*>(data), size);
    // Small limits, so that the fuzzer reaches the limit checks with small inputs too.
    const lockstep::CsvLimits limits{64, 16, 64 * 8, 1 << 16};
    // The same text a few bytes at a time, as a file is read: the same dataset or the same error.
    std::string in_pieces;
    lockstep::Dataset streamed;
    try {
        lockstep::CsvReader reader("fuzz.csv", limits);
        const std::size_t piece = 1 + size % 7;
        for (std::size_t at = 0; at < size; at += piece)
            reader.feed(text.substr(at, piece));
        streamed = reader.finish();
    } catch (const lockstep::Error& e) {
        in_pieces = e.what();
    }
    try {
        const lockstep::Dataset d = lockstep::parse_csv(text, "fuzz.csv", limits);
        if (!in_pieces.empty() || streamed.features != d.features || streamed.targets != d.targets)
            std::abort();
        if (d.size() == 0 || d.dim == 0 || d.features.size() != d.size() * d.dim ||
            d.size() > limits.max_rows || d.dim + 1 > limits.max_columns)
            std::abort();
        for (double v : d.features)
            if (!std::isfinite(v))
                std::abort();
        for (double y : d.targets) {
            if (!std::isfinite(y))
                std::abort();
            if (d.task == lockstep::Task::Classification &&
                (y < 0 || y >= d.classes || y != std::floor(y)))
                std::abort();
        }
        const lockstep::Dataset again = lockstep::parse_csv(to_csv(d), "again.csv", limits);
        if (again.task != d.task || again.dim != d.dim || again.classes != d.classes ||
            again.features != d.features || again.targets != d.targets)
            std::abort();
    } catch (const lockstep::Error& e) {
        // Over the byte limit, the whole text is refused before any line is read; in pieces, the
        // first bad line may come first. Either way it is refused.
        if (in_pieces.empty() || (size <= limits.max_bytes && in_pieces != e.what()))
            std::abort();
    }
    return 0;
}
