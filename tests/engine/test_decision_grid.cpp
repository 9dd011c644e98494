#include "core/error.h"
#include "reports/decision_grid.h"

#include <QtTest>

#include <cmath>
#include <vector>

using namespace lockstep;

namespace {

// One linear layer whose outputs are its inputs: class 0 where x > y, class 1 where y > x, and
// the softmax of (x, y) rescaled from chance is tanh(|x - y| / 2).
const ModelShape kIdentity{{2, 2}, Activation::Linear, LossKind::SoftmaxCrossEntropy};
const std::vector<double> kIdentityParameters{1, 0, 0, 1, 0, 0}; // weight[out][in], then bias

} // namespace

// A classifier's decision over its input plane (reports/decision_grid.h), which the Training
// view's map draws.
class TestDecisionGrid : public QObject {
    Q_OBJECT

private Q_SLOTS:
    // Centred on the points, a tenth wider than their larger extent.
    void square_around_the_data() {
        Dataset data;
        data.features = {0, 0, 2, 1, 1, 0.5};
        data.targets = {0, 1, 0};
        const PlaneSquare s = square_around(data);
        QVERIFY(std::abs(s.side - 2.2) < 1e-12);
        QVERIFY(std::abs(s.left - (1.0 - 1.1)) < 1e-12);
        QVERIFY(std::abs(s.top - (0.5 + 1.1)) < 1e-12);
        data.dim = 3;
        QVERIFY_THROWS_EXCEPTION(Error, square_around(data));
    }

    // Each cell is the model's class at its centre, row by row from the top left.
    void cells_are_the_model_at_their_centres() {
        const PlaneSquare square{-1.0, 1.0, 2.0};
        const DecisionGrid grid = decision_grid(kIdentity, kIdentityParameters, square, 4);
        QCOMPARE(grid.cells, 4);
        QCOMPARE(grid.predicted.size(), std::size_t{16});
        for (int row = 0; row < 4; ++row)
            for (int col = 0; col < 4; ++col) {
                const double x = -0.75 + 0.5 * col;
                const double y = 0.75 - 0.5 * row;
                const std::size_t i = grid.index({col, row});
                // On the diagonal the outputs tie and the first class wins.
                QCOMPARE(grid.predicted[i], x >= y ? 0 : 1);
                QVERIFY(std::abs(grid.confidence[i] - std::tanh(std::abs(x - y) / 2)) < 1e-12);
                QCOMPARE(predicted_class(kIdentity, kIdentityParameters, x, y), grid.predicted[i]);
                QCOMPARE(grid.cell_at(x, y), std::optional<GridCell>(GridCell{col, row}));
            }
        // The bottom-right cell: x = 0.75, y = -0.75, sure of class 0 by tanh(0.75).
        QCOMPARE(grid.predicted[grid.index({3, 3})], 0);
        QVERIFY(std::abs(grid.confidence[grid.index({3, 3})] - std::tanh(0.75)) < 1e-12);
        // The top-left corner is in the first cell; the right and bottom edges are outside.
        QCOMPARE(grid.cell_at(-1.0, 1.0), std::optional<GridCell>(GridCell{0, 0}));
        QVERIFY(!grid.cell_at(1.0, 0.0));
        QVERIFY(!grid.cell_at(0.0, -1.0));
        QVERIFY(!grid.cell_at(-1.5, 0.0));
    }

    void counts_the_examples_it_gets_right() {
        Dataset data;
        data.features = {1, 0, 0, 1, 2, 1, 0, 3};
        data.targets = {0, 1, 1, 0}; // right, right, wrong, wrong
        QCOMPARE(correctly_classified(kIdentity, kIdentityParameters, data), std::size_t{2});
    }

    void refuses_what_it_cannot_map() {
        const PlaneSquare square;
        const std::vector<double> three{1, 2, 3};
        QVERIFY_THROWS_EXCEPTION(Error, decision_grid(kIdentity, three, square, 4));
        const ModelShape cube{{3, 2}, Activation::Linear, LossKind::SoftmaxCrossEntropy};
        QVERIFY_THROWS_EXCEPTION(Error,
                                 decision_grid(cube, std::vector<double>(8, 0.0), square, 4));
    }
};

QTEST_MAIN(TestDecisionGrid)
#include "test_decision_grid.moc"
