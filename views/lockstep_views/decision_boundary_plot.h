// The Training view's decision-boundary map, and the colours of its classes.
#pragma once

#include "data/data.h"
#include "model/model.h"
#include "reports/decision_grid.h"

#include <QColor>
#include <QImage>
#include <QPoint>
#include <QPointF>
#include <QRectF>
#include <QSize>
#include <QString>
#include <QWidget>

#include <cstddef>
#include <memory>
#include <vector>

namespace lockstep::views {

// The colour of class `cls` in the decision boundary (Okabe-Ito, cycling after eight).
QColor class_colour(int cls);
// The shade of a cell predicted as `cls`: the class colour over `background`, stronger the surer
// the model is (`confidence` 0: a coin toss between all classes, 1: certain).
QColor class_tint(int cls, double confidence, const QColor& background);

// The decision-boundary map: draws the engine's decision grid (reports/decision_grid.h) of a square
// around the data, asked for once per model and kept (so a palette change only re-tints), and
// paints the data over it with one marker shape per class. Its texts are the Training view's
// (TrainingView::tr).
class DecisionBoundaryPlot : public QWidget {
public:
    explicit DecisionBoundaryPlot(QWidget* parent);

    void clear();
    // The message shown without a map, in the language in use.
    void retranslate();
    void setModel(const ModelShape& shape, std::vector<double> parameters,
                  std::shared_ptr<const Dataset> dataset);
    // Colours the cells from the current palette's background.
    void retint();

    bool hasModel() const { return hasModel_; }
    const QImage& image() const { return image_; }
    const QString& message() const { return message_; }
    int classes() const { return hasModel_ ? shape_.outputs() : 0; }
    int correct() const { return correct_; }
    std::size_t points() const { return data_ ? data_->size() : 0; }

    QPoint cellAt(QPointF input) const;
    int predictedClass(QPointF input) const;

    bool hasHeightForWidth() const override { return true; }
    int heightForWidth(int width) const override { return width; }
    QSize sizeHint() const override { return {420, 420}; }

protected:
    void changeEvent(QEvent* event) override;
    void paintEvent(QPaintEvent*) override;

private:
    QString unsupportedReason() const;
    // Asks the engine for the grid over the square around the data, and for the points it gets
    // right.
    void computeCells();
    QRectF plotRect() const;

    bool hasModel_ = false;
    bool given_ = false; // setModel() was called since the last clear()
    QString error_;      // why the given model could not be drawn
    ModelShape shape_;
    std::vector<double> params_;
    std::shared_ptr<const Dataset> data_;
    DecisionGrid grid_;
    QImage image_;
    QString message_;
    int correct_ = 0;
};

} // namespace lockstep::views
