// The decision-boundary map: the model's class over the input plane, the data on top.
#include "lockstep_views/decision_boundary_plot.h"

#include "core/error.h"
#include "lockstep_views/chart_style.h"
#include "lockstep_views/palette.h"
#include "lockstep_views/training_view.h"

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
    cellClass_.clear();
    cellConfidence_.clear();
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
        cellClass_.clear();
        cellConfidence_.clear();
    } else {
        retint();
    }
    update();
}

void DecisionBoundaryPlot::retint() {
    if (cellClass_.empty())
        return;
    const int n = TrainingView::kBoundaryCells;
    const QColor background = palette().color(QPalette::Window);
    QImage image(n, n, QImage::Format_RGB32);
    for (int row = 0; row < n; ++row) {
        auto* line = reinterpret_cast<QRgb*>(image.scanLine(row));
        for (int col = 0; col < n; ++col) {
            const auto i = static_cast<std::size_t>(row * n + col);
            line[col] = class_tint(cellClass_[i], cellConfidence_[i], background).rgb();
        }
    }
    image_ = image;
    update();
}

QPoint DecisionBoundaryPlot::cellAt(QPointF input) const {
    if (!hasModel_)
        return {-1, -1};
    const int n = TrainingView::kBoundaryCells;
    const double u = (input.x() - left_) / side_;
    const double v = (top_ - input.y()) / side_;
    if (u < 0 || u >= 1 || v < 0 || v >= 1)
        return {-1, -1};
    return {std::min(n - 1, static_cast<int>(u * n)), std::min(n - 1, static_cast<int>(v * n))};
}

int DecisionBoundaryPlot::predictedClass(QPointF input) const {
    if (!hasModel_)
        return -1;
    const double row[2] = {input.x(), input.y()};
    std::vector<double> out(static_cast<std::size_t>(shape_.outputs()));
    Workspace work;
    predict(shape_, params_, row, 1, out, work);
    return static_cast<int>(std::max_element(out.begin(), out.end()) - out.begin());
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
        const QPointF at(area.left() + (x[0] - left_) / side_ * area.width(),
                         area.top() + (top_ - x[1]) / side_ * area.height());
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
    const Dataset& set = *data_;
    double x0min = set.row(0)[0], x0max = x0min, x1min = set.row(0)[1], x1max = x1min;
    for (std::size_t i = 0; i < set.size(); ++i) {
        const double* x = set.row(i);
        x0min = std::min(x0min, x[0]);
        x0max = std::max(x0max, x[0]);
        x1min = std::min(x1min, x[1]);
        x1max = std::max(x1max, x[1]);
    }
    side_ = std::max({x0max - x0min, x1max - x1min, 1e-6}) * 1.1;
    left_ = (x0min + x0max) / 2 - side_ / 2;
    top_ = (x1min + x1max) / 2 + side_ / 2;

    const int n = TrainingView::kBoundaryCells;
    const auto cells = static_cast<std::size_t>(n * n);
    const auto classes = static_cast<std::size_t>(shape_.outputs());
    std::vector<double> features(cells * 2);
    for (int row = 0; row < n; ++row) {
        for (int col = 0; col < n; ++col) {
            const auto i = static_cast<std::size_t>(row * n + col);
            features[2 * i] = left_ + (col + 0.5) * side_ / n;
            features[2 * i + 1] = top_ - (row + 0.5) * side_ / n;
        }
    }
    std::vector<double> logits(cells * classes);
    Workspace work;
    predict(shape_, params_, features.data(), cells, logits, work);

    cellClass_.assign(cells, 0);
    cellConfidence_.assign(cells, 0.0);
    for (std::size_t i = 0; i < cells; ++i) {
        const double* l = logits.data() + i * classes;
        const auto best = static_cast<std::size_t>(std::max_element(l, l + classes) - l);
        double sum = 0.0;
        for (std::size_t c = 0; c < classes; ++c)
            sum += std::exp(l[c] - l[best]);
        const double p = 1.0 / sum; // softmax probability of the winning class
        const double chance = 1.0 / static_cast<double>(classes);
        cellClass_[i] = static_cast<int>(best);
        cellConfidence_[i] = classes > 1 ? (p - chance) / (1.0 - chance) : 1.0;
    }

    std::vector<double> out(set.size() * classes);
    predict(shape_, params_, set.features.data(), set.size(), out, work);
    correct_ = 0;
    for (std::size_t i = 0; i < set.size(); ++i) {
        const double* l = out.data() + i * classes;
        if (std::max_element(l, l + classes) - l == static_cast<std::ptrdiff_t>(set.targets[i]))
            ++correct_;
    }
}

QRectF DecisionBoundaryPlot::plotRect() const {
    const QRectF r = QRectF(rect()).adjusted(2, 2, -2, -2);
    const qreal s = std::min(r.width(), r.height());
    return {r.center().x() - s / 2, r.center().y() - s / 2, s, s};
}

} // namespace lockstep::views
