#include "lockstep_views/training_view.h"

#include "core/error.h"
#include "lockstep_views/chart_style.h"
#include "lockstep_views/numbers.h"
#include "lockstep_views/palette.h"
#include "lockstep_views/trace_index.h"

#include <QChart>
#include <QChartView>
#include <QEvent>
#include <QHBoxLayout>
#include <QLabel>
#include <QLineSeries>
#include <QPainter>
#include <QResizeEvent>
#include <QVBoxLayout>
#include <QValueAxis>

#include <algorithm>
#include <cmath>

namespace lockstep::views {

namespace {

// Points a line draws at most: two per pixel column of the plot (its lowest and highest), never
// more than kMaxLinePoints. Drawing all of a long run's steps would slow every frame as the run
// goes on, and shows nothing more.
constexpr qsizetype kMaxLinePoints = 1000;
constexpr qsizetype kMinLinePoints = 200;

// At most `budget` of `points`, in their order: for each run of consecutive points its lowest
// and highest (so a spike stays), and always the first and the last.
QList<QPointF> thinned(const QList<QPointF>& points, qsizetype budget) {
    const qsizetype n = points.size();
    if (n <= budget)
        return points;
    QList<QPointF> out;
    out.reserve(budget + 2);
    out.append(points.front());
    const qsizetype buckets = budget / 2 - 1;
    for (qsizetype b = 0; b < buckets; ++b) {
        const qsizetype from = 1 + (n - 2) * b / buckets;
        const qsizetype to = 1 + (n - 2) * (b + 1) / buckets;
        qsizetype low = from, high = from;
        for (qsizetype i = from; i < to; ++i) {
            if (points[i].y() < points[low].y())
                low = i;
            if (points[i].y() > points[high].y())
                high = i;
        }
        if (from >= to)
            continue;
        out.append(points[std::min(low, high)]);
        if (low != high)
            out.append(points[std::max(low, high)]);
    }
    out.append(points.back());
    return out;
}

// Replica lines: colour and dash both change from one worker to the next. Accuracy is drawn in
// the text colour, which no replica line uses.
QColor replica_colour(int index) {
    using namespace okabe_ito;
    static const QColor colours[] = {blue,     orange,     bluish_green, reddish_purple,
                                     sky_blue, vermillion, yellow,       grey};
    return colours[index % 8];
}

QPen replica_pen(int index) {
    QPen pen(replica_colour(index), 2.5);
    pen.setCapStyle(Qt::FlatCap);
    pen.setJoinStyle(Qt::RoundJoin);
    switch (index % 6) {
    case 0:
        pen.setStyle(Qt::SolidLine);
        break;
    case 1:
        pen.setStyle(Qt::DashLine);
        break;
    case 2:
        pen.setStyle(Qt::DashDotLine);
        break;
    case 3:
        pen.setDashPattern({1.0, 1.5});
        break;
    case 4:
        pen.setDashPattern({6.0, 2.0, 1.0, 2.0, 1.0, 2.0});
        break;
    default:
        pen.setDashPattern({8.0, 3.0});
        break;
    }
    return pen;
}

QPen mean_loss_pen() {
    QPen pen(okabe_ito::blue, 4.0);
    pen.setJoinStyle(Qt::RoundJoin);
    return pen;
}

// The run before a change: broad and faint, so the new line reads on top of it.
QPen branched_loss_pen(const QPalette& palette) {
    QColor c = palette.color(QPalette::WindowText);
    c.setAlphaF(0.3);
    QPen pen(c, 7.0);
    pen.setJoinStyle(Qt::RoundJoin);
    pen.setCapStyle(Qt::RoundCap);
    return pen;
}

QPen accuracy_pen(const QPalette& palette) {
    QPen pen(palette.color(QPalette::WindowText), 2.5);
    pen.setDashPattern({1.0, 1.2});
    pen.setCapStyle(Qt::FlatCap);
    return pen;
}

// Which workers get their own line: all of them up to `limit`, else evenly spread ones.
std::vector<int> chosen_replicas(int workers, int limit) {
    std::vector<int> chosen;
    if (workers <= limit) {
        for (int k = 0; k < workers; ++k)
            chosen.push_back(k);
        return chosen;
    }
    for (int i = 0; i < limit; ++i)
        chosen.push_back(static_cast<int>(
            std::lround(static_cast<double>(i) * (workers - 1) / static_cast<double>(limit - 1))));
    return chosen;
}

QString format_loss(double loss) {
    return display_number(loss, 'g', 3);
}

QString format_percent(double fraction) {
    return QString::number(std::lround(fraction * 100.0));
}

} // namespace

QColor class_colour(int cls) {
    using namespace okabe_ito;
    static const QColor colours[] = {blue,     orange,     bluish_green, reddish_purple,
                                     sky_blue, vermillion, yellow,       grey};
    return colours[((cls % 8) + 8) % 8];
}

QColor class_tint(int cls, double confidence, const QColor& background) {
    return mix(background, class_colour(cls), 0.12 + 0.38 * std::clamp(confidence, 0.0, 1.0));
}

// The decision-boundary map: predicts every cell of a square over the data once per model, keeps
// each cell's class and confidence (so a palette change only re-tints), and paints the data over
// it with one marker shape per class.
class DecisionBoundaryPlot : public QWidget {
public:
    explicit DecisionBoundaryPlot(QWidget* parent)
        : QWidget(parent) {
        setMinimumSize(160, 160);
        setSizePolicy(QSizePolicy::Expanding, QSizePolicy::Expanding);
        clear();
    }

    void clear() {
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

    // The message shown without a map, in the language in use.
    void retranslate() {
        if (!given_)
            message_ =
                TrainingView::tr("The decision boundary appears here when a run has finished.");
        else if (!error_.isEmpty())
            message_ = TrainingView::tr("The model cannot be drawn: %1").arg(error_);
        else
            message_ = unsupportedReason();
        update();
    }

    void setModel(const ModelShape& shape, std::vector<double> parameters,
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

    // Colours the cells from the current palette's background.
    void retint() {
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

    bool hasModel() const { return hasModel_; }
    const QImage& image() const { return image_; }
    const QString& message() const { return message_; }
    int classes() const { return hasModel_ ? shape_.outputs() : 0; }
    int correct() const { return correct_; }
    std::size_t points() const { return data_ ? data_->size() : 0; }

    QPoint cellAt(QPointF input) const {
        if (!hasModel_)
            return {-1, -1};
        const int n = TrainingView::kBoundaryCells;
        const double u = (input.x() - left_) / side_;
        const double v = (top_ - input.y()) / side_;
        if (u < 0 || u >= 1 || v < 0 || v >= 1)
            return {-1, -1};
        return {std::min(n - 1, static_cast<int>(u * n)), std::min(n - 1, static_cast<int>(v * n))};
    }

    int predictedClass(QPointF input) const {
        if (!hasModel_)
            return -1;
        const double row[2] = {input.x(), input.y()};
        std::vector<double> out(static_cast<std::size_t>(shape_.outputs()));
        Workspace work;
        predict(shape_, params_, row, 1, out, work);
        return static_cast<int>(std::max_element(out.begin(), out.end()) - out.begin());
    }

    bool hasHeightForWidth() const override { return true; }
    int heightForWidth(int width) const override { return width; }
    QSize sizeHint() const override { return {420, 420}; }

protected:
    void changeEvent(QEvent* event) override {
        if (event->type() == QEvent::PaletteChange)
            retint();
        QWidget::changeEvent(event);
    }

    void paintEvent(QPaintEvent*) override {
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
            painter.drawText(area.adjusted(pad, pad, -pad, -pad),
                             Qt::AlignCenter | Qt::TextWordWrap, message_);
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

private:
    QString unsupportedReason() const {
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

    // Predicts every cell once: a square over the data, with a margin around it.
    void computeCells() {
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

    QRectF plotRect() const {
        const QRectF r = QRectF(rect()).adjusted(2, 2, -2, -2);
        const qreal s = std::min(r.width(), r.height());
        return {r.center().x() - s / 2, r.center().y() - s / 2, s, s};
    }

    bool hasModel_ = false;
    bool given_ = false; // setModel() was called since the last clear()
    QString error_;      // why the given model could not be drawn
    ModelShape shape_;
    std::vector<double> params_;
    std::shared_ptr<const Dataset> data_;
    double left_ = 0, top_ = 0, side_ = 1; // the mapped square in input coordinates
    std::vector<int> cellClass_;
    std::vector<double> cellConfidence_;
    QImage image_;
    QString message_;
    int correct_ = 0;
};

TrainingView::TrainingView(QWidget* parent)
    : QWidget(parent) {
    chart_ = new QChart;
    stepAxis_ = new QValueAxis(chart_);
    lossAxis_ = new QValueAxis(chart_);
    accuracyAxis_ = new QValueAxis(chart_);
    stepAxis_->setLabelFormat(QStringLiteral("%.0f"));
    lossAxis_->setLabelFormat(QStringLiteral("%.4g"));
    accuracyAxis_->setLabelFormat(QStringLiteral("%.0f%"));
    accuracyAxis_->setRange(0, 100);
    accuracyAxis_->setTickCount(6);
    chart_->addAxis(stepAxis_, Qt::AlignBottom);
    chart_->addAxis(lossAxis_, Qt::AlignLeft);
    chart_->addAxis(accuracyAxis_, Qt::AlignRight);

    branchedSeries_ = new QLineSeries(chart_);
    chart_->addSeries(branchedSeries_);
    branchedSeries_->attachAxis(stepAxis_);
    branchedSeries_->attachAxis(lossAxis_);
    branchedSeries_->setVisible(false);

    accuracySeries_ = new QLineSeries(chart_);
    chart_->addSeries(accuracySeries_);
    accuracySeries_->attachAxis(stepAxis_);
    accuracySeries_->attachAxis(accuracyAxis_);

    chartView_ = new QChartView(chart_, this);
    chartView_->setMinimumSize(360, 160);
    header_ = new QLabel(this);
    header_->setTextFormat(Qt::PlainText);
    header_->setWordWrap(true);
    legend_ = new SeriesLegend(this);

    boundaryTitle_ = new QLabel(this);
    boundary_ = new DecisionBoundaryPlot(this);
    classLegend_ = new SeriesLegend(this);
    boundaryCaption_ = new QLabel(this);
    boundaryCaption_->setTextFormat(Qt::PlainText);
    boundaryCaption_->setWordWrap(true);

    auto* left = new QVBoxLayout;
    left->addWidget(header_);
    left->addWidget(chartView_, 1);
    left->addWidget(legend_);
    auto* right = new QVBoxLayout;
    right->addWidget(boundaryTitle_);
    right->addWidget(boundary_, 1);
    right->addWidget(classLegend_);
    right->addWidget(boundaryCaption_);
    auto* root = new QHBoxLayout(this);
    root->addLayout(left, 3);
    root->addSpacing(fontMetrics().height());
    root->addLayout(right, 2);

    retranslate();
    rebuildSeries(1, false); // also styles the chart
    updateSeries(true);
    updateBoundaryCaption();
}

TrainingView::~TrainingView() = default;

void TrainingView::resizeEvent(QResizeEvent* event) {
    QWidget::resizeEvent(event);
    boundaryCaption_->setVisible(height() >= fontMetrics().height() * 22);
}

// The texts set once; the loss lines' names are rebuildSeries()'s, said again here.
void TrainingView::retranslate() {
    setAccessibleName(tr("Training view"));
    localize_chart(*chart_);
    stepAxis_->setTitleText(tr("step"));
    lossAxis_->setTitleText(tr("loss"));
    accuracyAxis_->setTitleText(tr("accuracy"));
    accuracySeries_->setName(tr("accuracy (right axis)"));
    boundaryTitle_->setText(tr("Decision boundary at the end of the run"));
    boundary_->setAccessibleName(tr("Decision boundary"));
    for (qsizetype i = 0; i < lossSeries_.size(); ++i)
        lossSeries_[i]->setName(lossSeriesTitle(static_cast<int>(i)));
    boundary_->retranslate();
}

QString TrainingView::lossSeriesTitle(int series) const {
    return replicaMode_ ? tr("worker %1").arg(replicaWorkers_[static_cast<std::size_t>(series)])
                        : tr("loss (mean over workers)");
}

void TrainingView::setTrace(const TraceIndex* trace) {
    trace_ = trace;
    updateSeries(true);
}

void TrainingView::setPlayhead(Ticks t) {
    playhead_ = t;
    updateSeries(false);
}

void TrainingView::refresh() {
    updateSeries(true);
}

void TrainingView::setModel(const ModelShape& shape, std::vector<double> parameters,
                            std::shared_ptr<const Dataset> dataset) {
    boundary_->setModel(shape, std::move(parameters), std::move(dataset));
    updateBoundaryCaption();
}

void TrainingView::clearModel() {
    boundary_->clear();
    updateBoundaryCaption();
}

int TrainingView::seriesCount() const {
    return static_cast<int>(lossSeries_.size());
}

QList<QPointF> TrainingView::lossPoints(int series) const {
    if (series < 0 || series >= seriesCount())
        return {};
    return lossSeries_[series]->points();
}

QString TrainingView::lossSeriesName(int series) const {
    if (series < 0 || series >= seriesCount())
        return {};
    return lossSeries_[series]->name();
}

void TrainingView::setBranchedLoss(QList<QPointF> points, const QString& name) {
    branchedSeries_->setName(name);
    branchedSeries_->setVisible(!points.isEmpty());
    branchedSeries_->replace(points);
    updateSeries(true);
}

void TrainingView::setComparison(const QList<ComparisonLine>& lines) {
    for (QLineSeries* series : std::as_const(comparison_)) {
        chart_->removeSeries(series);
        delete series;
    }
    comparison_.clear();
    for (const ComparisonLine& line : lines) {
        auto* series = new QLineSeries(chart_);
        series->setName(line.name);
        series->replace(line.points);
        chart_->addSeries(series);
        series->attachAxis(stepAxis_);
        series->attachAxis(lossAxis_);
        comparison_.push_back(series);
    }
    applyStyle();
    updateSeries(true);
}

QList<QPointF> TrainingView::comparisonPoints(int line) const {
    return line >= 0 && line < comparison_.size() ? comparison_[line]->points() : QList<QPointF>();
}

QString TrainingView::comparisonName(int line) const {
    return line >= 0 && line < comparison_.size() ? comparison_[line]->name() : QString();
}

QList<QPointF> TrainingView::branchedLossPoints() const {
    return branchedSeries_->points();
}

QList<QPointF> TrainingView::lostSegmentPoints(int segment) const {
    return segment >= 0 && segment < lostSeries_.size() ? lostSeries_[segment]->points()
                                                        : QList<QPointF>();
}

QList<QPointF> TrainingView::accuracyPoints() const {
    return accuracySeries_->points();
}

QString TrainingView::summary() const {
    return accessibleDescription();
}

QImage TrainingView::boundaryImage() const {
    return boundary_->image();
}

QPoint TrainingView::boundaryCellAt(QPointF input) const {
    return boundary_->cellAt(input);
}

int TrainingView::predictedClassAt(QPointF input) const {
    return boundary_->predictedClass(input);
}

QString TrainingView::boundaryMessage() const {
    return boundary_->hasModel() ? QString() : boundary_->message();
}

void TrainingView::changeEvent(QEvent* event) {
    if (event->type() == QEvent::LanguageChange) {
        retranslate();
        updateSeries(true);      // the header, the description and the legend
        updateBoundaryCaption(); // the class names and the caption
    }
    if (event->type() == QEvent::PaletteChange || event->type() == QEvent::FontChange)
        applyStyle();
    QWidget::changeEvent(event);
}

// Replaces the loss lines when their number or meaning changes (one mean line, or one per
// replica); otherwise updateSeries() only replaces their points.
void TrainingView::rebuildSeries(int count, bool replicas) {
    for (QLineSeries* series : std::as_const(lossSeries_)) {
        chart_->removeSeries(series);
        delete series;
    }
    lossSeries_.clear();
    replicaMode_ = replicas;
    for (int i = 0; i < count; ++i) {
        auto* series = new QLineSeries(chart_);
        series->setName(lossSeriesTitle(i));
        chart_->addSeries(series);
        series->attachAxis(stepAxis_);
        series->attachAxis(lossAxis_);
        lossSeries_.push_back(series);
    }
    applyStyle();
}

void TrainingView::applyStyle() {
    const QPalette pal = palette();
    style_chart(*chart_, *chartView_, pal, font());
    accuracyAxis_->setGridLineVisible(false);
    for (qsizetype i = 0; i < lossSeries_.size(); ++i)
        lossSeries_[i]->setPen(replicaMode_ ? replica_pen(static_cast<int>(i)) : mean_loss_pen());
    for (qsizetype k = 0; k < lostSeries_.size(); ++k) {
        const qsizetype line = lossSeries_.isEmpty() ? 0 : k % lossSeries_.size();
        QPen pen = replicaMode_ ? replica_pen(static_cast<int>(line)) : mean_loss_pen();
        QColor faint = pen.color();
        faint.setAlphaF(0.55);
        pen.setColor(faint);
        pen.setStyle(Qt::DashLine);
        lostSeries_[k]->setPen(pen);
    }
    accuracySeries_->setPen(accuracy_pen(pal));
    branchedSeries_->setPen(branched_loss_pen(pal));
    // The compared runs: the palette's other colours, never the playing run's blue, each with
    // its own dash so they stay apart in grey too.
    static const QColor kCompared[] = {okabe_ito::orange,         okabe_ito::bluish_green,
                                       okabe_ito::reddish_purple, QColor(0x55, 0x55, 0x55),
                                       okabe_ito::vermillion,     okabe_ito::sky_blue};
    static const Qt::PenStyle kDashes[] = {Qt::DashLine,       Qt::DotLine,  Qt::DashDotLine,
                                           Qt::DashDotDotLine, Qt::DashLine, Qt::DotLine};
    for (qsizetype i = 0; i < comparison_.size(); ++i) {
        QPen pen(kCompared[i % 6], 2.5, kDashes[i % 6], Qt::RoundCap, Qt::RoundJoin);
        comparison_[i]->setPen(pen);
    }
    QFont bold = font();
    bold.setBold(true);
    header_->setFont(bold);
    boundaryTitle_->setFont(bold);
    updateLegend();
    updateBoundaryCaption();
}

void TrainingView::updateLegend() {
    QList<LegendEntry> entries;
    for (QLineSeries* series : std::as_const(lossSeries_))
        entries.push_back({series->name(), series->pen(), MarkerShape::None, {}});
    if (!lostSeries_.isEmpty())
        entries.push_back(
            {tr("work lost in a restart"), lostSeries_.front()->pen(), MarkerShape::None, {}});
    if (branchedSeries_->isVisible())
        entries.push_back({branchedSeries_->name(), branchedSeries_->pen(), MarkerShape::None, {}});
    for (QLineSeries* series : std::as_const(comparison_))
        entries.push_back({series->name(), series->pen(), MarkerShape::None, {}});
    if (accuracyShown_)
        entries.push_back({accuracySeries_->name(), accuracySeries_->pen(), MarkerShape::None, {}});
    legend_->setEntries(entries);
}

// Reads the snapshots up to the playhead into the lines. Skipped when nothing visible changed,
// so moving the playhead inside a step costs nothing.
// Moves an axis only when the data has left it or fills less than 40 % of it: a new range lays
// the whole chart out again, far too slow to do every frame while a run streams in.
static void fit_axis(QValueAxis* axis, double low, double high) {
    const double span = axis->max() - axis->min();
    if (low >= axis->min() && high <= axis->max() && high - low >= 0.4 * span)
        return;
    axis->setRange(low, high);
    axis->applyNiceNumbers();
}

void TrainingView::updateSeries(bool force) {
    static const std::vector<StepSnapshot> none;
    const std::vector<StepSnapshot>& snaps = trace_ ? trace_->snapshots() : none;
    const auto end =
        std::upper_bound(snaps.begin(), snaps.end(), playhead_,
                         [](Ticks t, const StepSnapshot& snapshot) { return t < snapshot.time; });
    const auto visible = static_cast<std::size_t>(end - snaps.begin());
    if (!force && visible == shownSnapshots_ && snaps.size() == knownSnapshots_)
        return;
    shownSnapshots_ = visible;
    knownSnapshots_ = snaps.size();

    // One line per replica as soon as a shown step ended with replicas that differ; beside
    // compared runs, the playing run's mean alone, so every line there is one run.
    const bool replicas =
        comparison_.isEmpty() && std::any_of(snaps.begin(), end, [](const StepSnapshot& snapshot) {
            return !snapshot.replicas_aligned;
        });
    int workers = trace_ ? trace_->workers() : 0;
    for (auto it = snaps.begin(); it != end; ++it)
        workers = std::max(workers, static_cast<int>(it->worker_loss.size()));
    std::vector<int> chosen =
        replicas ? chosen_replicas(workers, kMaxReplicaSeries) : std::vector<int>{};
    const int count = replicas ? static_cast<int>(chosen.size()) : 1;
    if (replicas != replicaMode_ || chosen != replicaWorkers_ || count != seriesCount()) {
        replicaWorkers_ = std::move(chosen);
        rebuildSeries(count, replicas);
    }

    // A restart (the step number going back) begins a new attempt: each attempt is its own
    // segment, so no line ever runs back in time.
    std::vector<std::size_t> starts{0};
    for (std::size_t k = 1; k < visible; ++k)
        if (snaps[k].step <= snaps[k - 1].step)
            starts.push_back(k);
    starts.push_back(visible);
    const std::size_t attempts = starts.size() - 1;
    const std::size_t lost = attempts > 0 ? (attempts - 1) * static_cast<std::size_t>(count) : 0;
    if (static_cast<std::size_t>(lostSeries_.size()) != lost) {
        for (QLineSeries* series : std::as_const(lostSeries_)) {
            chart_->removeSeries(series);
            delete series;
        }
        lostSeries_.clear();
        for (std::size_t k = 0; k < lost; ++k) {
            auto* series = new QLineSeries(chart_);
            chart_->addSeries(series);
            series->attachAxis(stepAxis_);
            series->attachAxis(lossAxis_);
            lostSeries_.push_back(series);
        }
        applyStyle();
    }

    QList<QPointF> points;
    points.reserve(static_cast<qsizetype>(visible));
    const qsizetype budget = std::clamp<qsizetype>(
        2 * static_cast<qsizetype>(chart_->plotArea().width()), kMinLinePoints, kMaxLinePoints);
    const auto lossOf = [&](const StepSnapshot& snapshot, int line) {
        if (!replicas)
            return snapshot.loss;
        const auto w = static_cast<std::size_t>(replicaWorkers_[static_cast<std::size_t>(line)]);
        return w < snapshot.worker_loss.size() ? snapshot.worker_loss[w] : snapshot.loss;
    };
    for (std::size_t a = 0; a < std::max<std::size_t>(attempts, 1); ++a) {
        for (int i = 0; i < count; ++i) {
            points.clear();
            if (attempts > 0)
                for (std::size_t k = starts[a]; k < starts[a + 1]; ++k)
                    points.append(QPointF(static_cast<double>(snaps[k].step), lossOf(snaps[k], i)));
            const bool current = attempts == 0 || a + 1 == attempts;
            QLineSeries* series =
                current
                    ? lossSeries_[i]
                    : lostSeries_[static_cast<qsizetype>(a) * count + static_cast<qsizetype>(i)];
            series->replace(thinned(points, budget));
        }
    }
    // Accuracy: the current attempt's alone, so it never runs back in time either.
    points.clear();
    for (std::size_t k = attempts > 0 ? starts[attempts - 1] : 0; k < visible; ++k)
        points.append(QPointF(static_cast<double>(snaps[k].step), snaps[k].accuracy * 100.0));
    accuracySeries_->replace(thinned(points, budget));

    // Axes cover the whole trace, not just the shown part, so they hold still while playing.
    // A trace whose accuracy is never above zero is a regression run: no accuracy line.
    double firstStep = 0, lastStep = 1, maxLoss = 0;
    bool anyAccuracy = false;
    if (!snaps.empty()) {
        firstStep = static_cast<double>(snaps.front().step);
        lastStep = std::max(firstStep + 1, static_cast<double>(snaps.back().step));
    }
    for (const StepSnapshot& snapshot : snaps) {
        maxLoss = std::max(maxLoss, snapshot.loss);
        for (double l : snapshot.worker_loss)
            maxLoss = std::max(maxLoss, l);
        anyAccuracy = anyAccuracy || snapshot.accuracy > 0;
    }
    if (branchedSeries_->isVisible())
        for (const QPointF& p : branchedSeries_->points()) {
            maxLoss = std::max(maxLoss, p.y());
            lastStep = std::max(lastStep, p.x());
        }
    for (const QLineSeries* series : std::as_const(comparison_))
        for (const QPointF& p : series->points()) {
            if (std::isfinite(p.y()))
                maxLoss = std::max(maxLoss, p.y());
            lastStep = std::max(lastStep, p.x());
        }
    if (!std::isfinite(maxLoss) || maxLoss <= 0)
        maxLoss = 1;
    fit_axis(stepAxis_, firstStep, lastStep);
    fit_axis(lossAxis_, 0, maxLoss * 1.05);
    if (anyAccuracy != accuracyShown_) {
        accuracyShown_ = anyAccuracy;
        accuracySeries_->setVisible(accuracyShown_);
        accuracyAxis_->setVisible(accuracyShown_);
    }
    updateLegend();

    // The header and the accessible description say the same thing.
    QStringList shown, spoken;
    if (visible == 0) {
        shown << tr("No training steps yet");
        spoken << tr("no training steps yet");
    } else {
        const StepSnapshot& last = *(end - 1);
        shown << tr("Step %1").arg(last.step) << tr("loss %1").arg(format_loss(last.loss));
        spoken << tr("step %1").arg(last.step) << tr("loss %1").arg(format_loss(last.loss));
        if (accuracyShown_) {
            shown << tr("accuracy %1%").arg(format_percent(last.accuracy));
            spoken << tr("accuracy %1%").arg(format_percent(last.accuracy));
        }
        const QString replicaText =
            replicas
                ? (last.replicas_aligned ? tr("replicas identical again") : tr("replicas differ"))
                : tr("replicas identical");
        shown << replicaText;
        spoken << replicaText;
        if (replicas && workers > kMaxReplicaSeries)
            shown << tr("%1 of %2 workers drawn").arg(seriesCount()).arg(workers);
    }
    header_->setText(shown.join(QStringLiteral("  ·  ")));
    setAccessibleDescription(spoken.join(QStringLiteral(", ")));
}

void TrainingView::updateBoundaryCaption() {
    if (!boundary_->hasModel()) {
        classLegend_->setEntries({});
        classLegend_->hide();
        boundaryCaption_->setText(QString());
        boundaryCaption_->hide();
        boundary_->setAccessibleDescription(boundary_->message());
        return;
    }
    QList<LegendEntry> entries;
    for (int c = 0; c < boundary_->classes(); ++c)
        entries.push_back({tr("class %1").arg(c), QPen(Qt::NoPen), marker_for(c), class_colour(c)});
    classLegend_->setEntries(entries);
    classLegend_->show();
    const auto total = boundary_->points();
    const QString share =
        total
            ? format_percent(static_cast<double>(boundary_->correct()) / static_cast<double>(total))
            : QStringLiteral("0");
    boundaryCaption_->setText(
        tr("Shade: the class the model predicts, paler where it is less sure. Marks: the data by "
           "true class; %1% lie in their own class's shade.")
            .arg(share));
    boundaryCaption_->show();
    boundary_->setAccessibleDescription(
        tr("The model puts %1% of the %2 data points in their own class.").arg(share).arg(total));
}

} // namespace lockstep::views
