#include "reports/decision_grid.h"

#include "core/error.h"

#include <algorithm>
#include <cmath>
#include <string>

namespace lockstep {

namespace {

void check_two_inputs(const ModelShape& shape) {
    if (shape.inputs() != 2)
        throw Error("a decision map needs a model of two inputs, this one has " +
                    std::to_string(shape.inputs()));
}

std::size_t arg_max(const double* values, std::size_t count) {
    return static_cast<std::size_t>(std::max_element(values, values + count) - values);
}

} // namespace

PlaneSquare square_around(const Dataset& data) {
    if (data.dim != 2 || data.size() == 0)
        throw Error("a decision map needs a data set of two inputs with at least one row");
    double x0min = data.row(0)[0], x0max = x0min, x1min = data.row(0)[1], x1max = x1min;
    for (std::size_t i = 0; i < data.size(); ++i) {
        const double* x = data.row(i);
        x0min = std::min(x0min, x[0]);
        x0max = std::max(x0max, x[0]);
        x1min = std::min(x1min, x[1]);
        x1max = std::max(x1max, x[1]);
    }
    PlaneSquare s;
    s.side = std::max({x0max - x0min, x1max - x1min, 1e-6}) * 1.1;
    s.left = (x0min + x0max) / 2 - s.side / 2;
    s.top = (x1min + x1max) / 2 + s.side / 2;
    return s;
}

std::optional<GridCell> DecisionGrid::cell_at(double x, double y) const {
    const double u = (x - square.left) / square.side;
    const double v = (square.top - y) / square.side;
    if (cells <= 0 || !(u >= 0 && u < 1 && v >= 0 && v < 1))
        return std::nullopt;
    return GridCell{std::min(cells - 1, static_cast<int>(u * cells)),
                    std::min(cells - 1, static_cast<int>(v * cells))};
}

DecisionGrid decision_grid(const ModelShape& shape, std::span<const double> parameters,
                           const PlaneSquare& square, int cells) {
    check_two_inputs(shape);
    DecisionGrid grid;
    grid.square = square;
    grid.cells = std::max(cells, 0);
    const auto n = static_cast<std::size_t>(grid.cells);
    const std::size_t count = n * n;
    const auto classes = static_cast<std::size_t>(shape.outputs());
    std::vector<double> features(count * 2);
    for (std::size_t row = 0; row < n; ++row)
        for (std::size_t col = 0; col < n; ++col) {
            const std::size_t i = row * n + col;
            features[2 * i] = square.left + (static_cast<double>(col) + 0.5) * square.side /
                                                static_cast<double>(n);
            features[2 * i + 1] = square.top - (static_cast<double>(row) + 0.5) * square.side /
                                                   static_cast<double>(n);
        }
    std::vector<double> logits(count * classes);
    Workspace work;
    predict(shape, parameters, features.data(), count, logits, work);

    grid.predicted.assign(count, 0);
    grid.confidence.assign(count, 0.0);
    const double chance = 1.0 / static_cast<double>(classes);
    for (std::size_t i = 0; i < count; ++i) {
        const double* l = logits.data() + i * classes;
        const std::size_t best = arg_max(l, classes);
        double sum = 0.0;
        for (std::size_t c = 0; c < classes; ++c)
            sum += std::exp(l[c] - l[best]);
        const double p = 1.0 / sum; // the softmax probability of the winning class
        grid.predicted[i] = static_cast<int>(best);
        grid.confidence[i] = classes > 1 ? (p - chance) / (1.0 - chance) : 1.0;
    }
    return grid;
}

int predicted_class(const ModelShape& shape, std::span<const double> parameters, double x,
                    double y) {
    check_two_inputs(shape);
    const double row[2] = {x, y};
    std::vector<double> out(static_cast<std::size_t>(shape.outputs()));
    Workspace work;
    predict(shape, parameters, row, 1, out, work);
    return static_cast<int>(arg_max(out.data(), out.size()));
}

std::size_t correctly_classified(const ModelShape& shape, std::span<const double> parameters,
                                 const Dataset& data) {
    const auto classes = static_cast<std::size_t>(shape.outputs());
    std::vector<double> out(data.size() * classes);
    Workspace work;
    predict(shape, parameters, data.features.data(), data.size(), out, work);
    std::size_t correct = 0;
    for (std::size_t i = 0; i < data.size(); ++i)
        if (arg_max(out.data() + i * classes, classes) == static_cast<std::size_t>(data.targets[i]))
            ++correct;
    return correct;
}

} // namespace lockstep
