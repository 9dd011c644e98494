#pragma once

#include "data/data.h"
#include "model/model.h"

#include <cstddef>
#include <optional>
#include <span>
#include <vector>

namespace lockstep {

// A square of a two-input model's input plane: the first input from `left` to left + side, the
// second from `top` down to top - side.
struct PlaneSquare {
    double left = 0.0;
    double top = 0.0;
    double side = 1.0;
};

// The square a map of a two-input data set shows: centred on its points, its side a tenth more
// than their larger extent (never zero). Throws lockstep::Error unless the set has rows of two
// inputs.
PlaneSquare square_around(const Dataset& data);

// One cell of a grid: its column from the left, its row from the top.
struct GridCell {
    int column = 0;
    int row = 0;
    bool operator==(const GridCell&) const = default;
};

// A classifier's decision over a square of its input plane, cut into cells x cells: each cell's
// class (the largest output at its centre) and how sure the model is there (0: a coin toss
// between all classes, 1: certain; the softmax probability of that class rescaled from chance
// to one). Cells run row by row from the top left.
struct DecisionGrid {
    PlaneSquare square;
    int cells = 0;
    std::vector<int> predicted;
    std::vector<double> confidence;

    // The cell holding the input point (x, y); nullopt outside the square.
    std::optional<GridCell> cell_at(double x, double y) const;
    std::size_t index(GridCell cell) const {
        return static_cast<std::size_t>(cell.row) * static_cast<std::size_t>(cells) +
               static_cast<std::size_t>(cell.column);
    }
};

// Predicts every cell's centre once. Throws lockstep::Error when the model does not take two
// inputs or the parameters do not fit its shape.
DecisionGrid decision_grid(const ModelShape& shape, std::span<const double> parameters,
                           const PlaneSquare& square, int cells);

// The class the model predicts at one point (x, y) of its input plane.
int predicted_class(const ModelShape& shape, std::span<const double> parameters, double x,
                    double y);

// How many of the data set's examples the model puts in their own class.
std::size_t correctly_classified(const ModelShape& shape, std::span<const double> parameters,
                                 const Dataset& data);

} // namespace lockstep
