#include "model/kernels.h"

#include "core/error.h"

#include <algorithm>
#include <charconv>
#include <cmath>
#include <string>

// The loss at the output layer, and how it reports a label the model cannot have.

namespace lockstep::kernels {

// A double as the shortest text that reads back as the same value, for error messages.
std::string number_text(double value) {
    char text[32];
    const auto end = std::to_chars(text, text + sizeof text, value).ptr;
    return std::string(text, end);
}

namespace {

// The class index a target encodes, or an Error naming the row.
std::size_t class_index(double label, std::size_t classes, std::size_t row) {
    if (!(label >= 0.0 && label < static_cast<double>(classes)) || label != std::floor(label))
        throw Error("batch row " + std::to_string(row) + ": label " + number_text(label) +
                    " is not a class index in [0, " + std::to_string(classes) + ")");
    return static_cast<std::size_t>(label);
}

} // namespace

// Per-row loss of the output layer, summed in row order into `total`; when `delta` is given it
// receives d(mean loss)/d(logits), with `scale` = 1/batch (and 1/outputs for MSE folded in).
// Cross-entropy counts rows whose arg-max (first on ties) is the label. MSE has one target per
// row: with several outputs, every output is compared with that same target.
void output_loss(const ModelShape& shape, const double* logits, const double* targets,
                 std::size_t rows, std::size_t first_row, double scale, double* delta,
                 double& total, std::size_t& correct) {
    const std::size_t m = static_cast<std::size_t>(shape.outputs());
    if (shape.loss == LossKind::SoftmaxCrossEntropy) {
        for (std::size_t b = 0; b < rows; ++b) {
            const double* z = logits + b * m;
            const std::size_t label = class_index(targets[b], m, first_row + b);
            std::size_t arg = 0;
            double top = z[0];
            for (std::size_t o = 1; o < m; ++o)
                if (z[o] > top) {
                    top = z[o];
                    arg = o;
                }
            double sum = 0.0;
            for (std::size_t o = 0; o < m; ++o) {
                const double e = std::exp(z[o] - top);
                if (delta)
                    delta[b * m + o] = e;
                sum += e;
            }
            total += std::log(sum) - (z[label] - top);
            correct += arg == label ? 1 : 0;
            if (delta) {
                double* d = delta + b * m;
                const double inv_sum = 1.0 / sum;
                for (std::size_t o = 0; o < m; ++o)
                    d[o] = d[o] * inv_sum * scale;
                d[label] -= scale;
            }
        }
    } else {
        for (std::size_t b = 0; b < rows; ++b) {
            const double* z = logits + b * m;
            double row_sum = 0.0;
            for (std::size_t o = 0; o < m; ++o) {
                const double diff = z[o] - targets[b];
                row_sum += diff * diff;
                if (delta)
                    delta[b * m + o] = 2.0 * diff * scale;
            }
            total += row_sum;
        }
    }
}

} // namespace lockstep::kernels
