#include "model/kernels.h"

#include "core/error.h"

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

// Throws an Error naming the row unless the target is a class index.
void check_label(double label, std::size_t classes, std::size_t row) {
    if (!(label >= 0.0 && label < static_cast<double>(classes)) || label != std::floor(label))
        throw Error("batch row " + std::to_string(row) + ": label " + number_text(label) +
                    " is not a class index in [0, " + std::to_string(classes) + ")");
}

} // namespace

// Per-row loss of the output layer, summed in row order into `total`; `delta` receives
// d(mean loss)/d(logits), with `scale` = 1/batch (and 1/outputs for MSE folded in). Every label
// is checked before anything is added, then the vector kernels do the rest.
template <class T>
void output_loss(const ModelShape& shape, const T* logits, const double* targets, std::size_t rows,
                 std::size_t first_row, double scale, T* delta, double& total,
                 std::size_t& correct) {
    const std::size_t m = static_cast<std::size_t>(shape.outputs());
    if (shape.loss == LossKind::SoftmaxCrossEntropy)
        for (std::size_t b = 0; b < rows; ++b)
            check_label(targets[b], m, first_row + b);
    vector_kernels_of<T>().output_loss(shape.loss, logits, targets, rows, m, scale, delta, total,
                                       correct);
}

template void output_loss(const ModelShape&, const double*, const double*, std::size_t, std::size_t,
                          double, double*, double&, std::size_t&);
template void output_loss(const ModelShape&, const float*, const double*, std::size_t, std::size_t,
                          double, float*, double&, std::size_t&);

} // namespace lockstep::kernels
