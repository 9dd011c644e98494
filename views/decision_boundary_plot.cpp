// The decision-boundary map: the model's class over the input plane, the data on top.
#include "lockstep_views/decision_boundary_plot.h"

#include "core/error.h"
#include "lockstep_views/chart_style.h"
#include "lockstep_views/palette.h"
#include "lockstep_views/training_view.h"
#include "reports/decision_grid.h"

#include <QEvent>
#include <QPainter>

#include <algorithm>
#include <cmath>

namespace lockstep::views {

QColor class_colour(int cls) {
    using namespace okabe_ito;
    static const QColor colours[] = {blue,     orange,     bluish_green, reddish_purple,
                                     sky_blue, vermillion, yellow,       grey};
    return colours[((cls % 8) + 8) % 8];
}

QColor class_tint(int cls, double confidence, const QColor& background) {
    return mix(background, class_colour(cls), 0.12 + 0.38 * std::clamp(confidence, 0.0, 1.0));
}

DecisionBoundaryPlot::DecisionBoundaryPlot(QWidget* parent)
    : QWidget(parent) {
    setMinimumSize(160, 160);
    setSizePolicy(QSizePolicy::Expanding, QSizePolicy::Expanding);
    clear();
}

void DecisionBoundaryPlot::clear() {
    hasModel_ = false;
    given_ = false;
    error_.clear();
    params_.clear();
    data_.reset();
    image_ = QImage();
    grid_ = DecisionGrid();
    correct_ = 0;
    retranslate(); // also repaints
}

void DecisionBoundaryPlot::retranslate() {
    if (!given_)
        message_ = TrainingView::tr("The decision boundary appears here when a run has finished.");
    else if (!error_.isEmpty())
        message_ = TrainingView::tr("The model cannot be drawn: %1").arg(error_);
    else
        message_ = unsupportedReason();
    update();
}

void DecisionBoundaryPlot::setModel(const ModelShape& shape, std::vector<double> parameters,
                                    std::shared_ptr<const Dataset> dataset) {
    clear();
    shape_ = shape;
    params_ = std::move(parameters);
    data_ = std::move(dataset);
    given_ = true;
    message_ = unsupportedReason();
    if (message_.isEmpty()) {
        try {
            computeCells();
            hasModel_ = true;
        } catch (const Error& e) {
            error_ = QString::fromUtf8(e.what());
            message_ = TrainingView::tr("The model cannot be drawn: %1").arg(error_);
        }
    }
    if (!hasModel_) {
        image_ = QImage();
        grid_ = DecisionGrid();
    } else {
        retint();
    }
    update();
}

void DecisionBoundaryPlot::retint() {
    if (grid_.predicted.empty())
        return;
    const int n = grid_.cells;
    const QColor background = palette().color(QPalette::Window);
    QImage image(n, n, QImage::Format_RGB32);
    for (int row = 0; row < n; ++row) {
        auto* line = reinterpret_cast<QRgb*>(image.scanLine(row));
        for (int col = 0; col < n; ++col) {
            const std::size_t i = grid_.index({col, row});
            line[col] = class_tint(grid_.predicted[i], grid_.confidence[i], background).rgb();
        }
    }
    image_ = image;
    update();
}

QPoint DecisionBoundaryPlot::cellAt(QPointF input) const {
    if (!hasModel_)
        return {-1, -1};
    const std::optional<GridCell> cell = grid_.cell_at(input.x(), input.y());
    return cell ? QPoint(cell->column, cell->row) : QPoint(-1, -1);
}

int DecisionBoundaryPlot::predictedClass(QPointF input) const {
    if (!hasModel_)
        return -1;
    return predicted_class(shape_, params_, input.x(), input.y());
}

void DecisionBoundaryPlot::changeEvent(QEvent* event) {
    if (event->type() == QEvent::PaletteChange)
        retint();
    QWidget::changeEvent(event);
}

void DecisionBoundaryPlot::paintEvent(QPaintEvent*) {
    QPainter painter(this);
    painter.setRenderHint(QPainter::Antialiasing);
    const QRectF area = plotRect();
    const QColor text = palette().color(QPalette::WindowText);
    const QColor window = palette().color(QPalette::Window);
    if (!hasModel_) {
        painter.setPen(QPen(mix(window, text, 0.3), 1.5, Qt::DashLine));
        painter.setBrush(Qt::NoBrush);
        painter.drawRect(area.adjusted(1, 1, -1, -1));
        painter.setPen(text);
        const qreal pad = fontMetrics().height();
        painter.drawText(area.adjusted(pad, pad, -pad, -pad), Qt::AlignCenter | Qt::TextWordWrap,
                         message_);
        return;
    }
    painter.setRenderHint(QPainter::SmoothPixmapTransform);
    painter.drawImage(area, image_);
    painter.setPen(QPen(mix(window, text, 0.55), 1.5));
    painter.setBrush(Qt::NoBrush);
    painter.drawRect(area);

    // The data on top: class colour, a shape per class, outlined so points stay visible on
    // their own class's shade.
    const qreal size = std::clamp(area.width() / 48.0, 7.0, 15.0);
    const QPen outline(text, size > 10 ? 1.5 : 1.0);
    const Dataset& set = *data_;
    for (std::size_t i = 0; i < set.size(); ++i) {
        const double* x = set.row(i);
        const int cls = static_cast<int>(set.targets[i]);
        const PlaneSquare& square = grid_.square;
        const QPointF at(area.left() + (x[0] - square.left) / square.side * area.width(),
                         area.top() + (square.top - x[1]) / square.side * area.height());
        draw_marker(painter, marker_for(cls), at, size, class_colour(cls), outline);
    }
}

QString DecisionBoundaryPlot::unsupportedReason() const {
    if (!data_)
        return TrainingView::tr("No data set to draw the decision boundary over.");
    if (data_->task != Task::Classification || shape_.loss != LossKind::SoftmaxCrossEntropy)
        return TrainingView::tr(
            "This model predicts a number (regression), so there are no classes to colour "
            "in. The decision boundary is drawn for classification data.");
    if (data_->dim != 2 || shape_.inputs() != 2)
        return TrainingView::tr("The data has %1 inputs per example. The decision boundary "
                                "can only be drawn over two inputs, as a flat map.")
            .arg(data_->dim);
    if (data_->size() == 0)
        return TrainingView::tr("The data set is empty.");
    return {};
}

void DecisionBoundaryPlot::computeCells() {
    grid_ = decision_grid(shape_, params_, square_around(*data_), TrainingView::kBoundaryCells);
    correct_ = static_cast<int>(correctly_classified(shape_, params_, *data_));
}

QRectF DecisionBoundaryPlot::plotRect() const {
    const QRectF r = QRectF(rect()).adjusted(2, 2, -2, -2);
    const qreal s = std::min(r.width(), r.height());
    return {r.center().x() - s / 2, r.center().y() - s / 2, s, s};
}

} // namespace lockstep::views
