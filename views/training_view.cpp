// The Training view: the loss chart beside the decision-boundary map, and what it answers.
#include "lockstep_views/training_view.h"

#include "training_numbers.h"

#include "lockstep_views/chart_style.h"
#include "lockstep_views/numbers.h"

#include <QChart>
#include <QChartView>
#include <QEvent>
#include <QHBoxLayout>
#include <QLabel>
#include <QLineSeries>
#include <QResizeEvent>
#include <QScatterSeries>
#include <QTimer>
#include <QVBoxLayout>
#include <QValueAxis>

namespace lockstep::views {

using training::format_percent;

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

    skippedSeries_ = new QScatterSeries(chart_);
    chart_->addSeries(skippedSeries_);
    skippedSeries_->attachAxis(stepAxis_);
    skippedSeries_->attachAxis(lossAxis_);

    chartView_ = new QChartView(chart_, this);
    chartView_->setMinimumSize(360,
                               100); // a projector's short view: the header and legend keep room
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
    boundaryCaption_->setVisible(boundary_->hasModel() && captionFits());
}

bool TrainingView::captionFits() const {
    return height() >= fontMetrics().height() * 22;
}

// The texts set once; the loss lines' names are rebuildSeries()'s, said again here.
void TrainingView::retranslate() {
    setAccessibleName(tr("Training view"));
    localize_chart(*chart_);
    stepAxis_->setTitleText(tr("step"));
    lossAxis_->setTitleText(tr("loss"));
    accuracyAxis_->setTitleText(tr("accuracy"));
    accuracySeries_->setName(tr("accuracy (right axis)"));
    skippedSeries_->setName(tr("skipped: overflow"));
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

QList<QPointF> TrainingView::skippedPoints() const {
    return skippedSeries_->points();
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
    boundaryCaption_->setVisible(captionFits());
    boundary_->setAccessibleDescription(
        tr("The model puts %1% of the %2 data points in their own class.").arg(share).arg(total));
}

void TrainingView::runStarted(const TraceIndex& index, const Scenario&) {
    setTrace(&index);
    clearModel();
    setComparison({}); // a comparison belongs to the scenario it was made of
}

void TrainingView::traceChanged() {
    // Curves that move a pixel a step need no more than a few rebuilds a second, which keeps
    // frames coming while the engine streams; a change held back is drawn when its time comes.
    constexpr qint64 kInterval = 150;
    if (!held_back_) {
        held_back_ = new QTimer(this);
        held_back_->setSingleShot(true);
        connect(held_back_, &QTimer::timeout, this, [this] {
            refresh();
            refreshed_.start();
        });
    }
    if (refreshed_.isValid() && refreshed_.elapsed() < kInterval) {
        if (!held_back_->isActive())
            held_back_->start(static_cast<int>(kInterval - refreshed_.elapsed()));
        return;
    }
    held_back_->stop();
    refresh();
    refreshed_.start();
}

void TrainingView::runFinished(const FinishedRun& run) {
    refresh(); // the last steps, whatever traceChanged() held back
    refreshed_.start();
    if (held_back_)
        held_back_->stop();
    if (run.data)
        setModel(run.model, run.parameters, run.data);
    else
        clearModel();
}

SessionView* make_training_view() {
    return new TrainingView;
}

} // namespace lockstep::views
