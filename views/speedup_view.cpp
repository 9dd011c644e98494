// The speedup chart: modelled, measured and ideal speedup, efficiency and the Amdahl fit against
// the worker count (its look in speedup_style.cpp).
#include "lockstep_views/speedup_view.h"

#include "lockstep_views/chart_style.h"
#include "lockstep_views/numbers.h"
#include "lockstep_views/palette.h"
#include "reports/amdahl.h"

#include <QChart>
#include <QChartView>
#include <QEvent>
#include <QGraphicsSimpleTextItem>
#include <QHBoxLayout>
#include <QLabel>
#include <QLineSeries>
#include <QResizeEvent>
#include <QVBoxLayout>
#include <QValueAxis>

#include <algorithm>
#include <cmath>
#include <limits>

namespace lockstep::views {

namespace {

// A tick interval for 0..top that is a power of two (worker counts usually are), at most about
// `ticks` ticks.
double power_of_two_interval(double top, double ticks = 8.0) {
    double interval = 1.0;
    while (top / interval > ticks)
        interval *= 2.0;
    return interval;
}

QString format_speedup(double speedup) {
    return display_number(speedup, 'g', speedup < 10 ? 2 : 3);
}

// An efficiency as a percentage with at most one decimal: "45", "62.5".
QString format_efficiency(double fraction) {
    QString text = display_number(fraction * 100.0, 'f', 1);
    const QString whole = display_locale().decimalPoint() + QLatin1Char('0');
    if (text.endsWith(whole))
        text.chop(whole.size());
    return text;
}

QString format_fraction_percent(double fraction) {
    const double percent = fraction * 100.0;
    if (percent >= 9.95)
        return QString::number(std::lround(percent));
    QString text = display_number(percent, 'f', 1); // "4.5", "0.3"; "4,5" in German
    const QString whole = display_locale().decimalPoint() + QLatin1Char('0');
    if (text.endsWith(whole))
        text.chop(whole.size());
    return text;
}

} // namespace

SpeedupView::SpeedupView(QWidget* parent)
    : QWidget(parent)
    , serialFraction_(std::numeric_limits<double>::quiet_NaN()) {
    chart_ = new QChart;
    workersAxis_ = new QValueAxis(chart_);
    speedupAxis_ = new QValueAxis(chart_);
    efficiencyAxis_ = new QValueAxis(chart_);
    workersAxis_->setLabelFormat(QStringLiteral("%.0f"));
    speedupAxis_->setLabelFormat(QStringLiteral("%.4g"));
    efficiencyAxis_->setLabelFormat(QStringLiteral("%.0f%"));
    chart_->addAxis(workersAxis_, Qt::AlignBottom);
    chart_->addAxis(speedupAxis_, Qt::AlignLeft);
    chart_->addAxis(efficiencyAxis_, Qt::AlignRight);

    // Added bottom to top: later series are drawn over earlier ones.
    auto add = [this](QValueAxis* y) {
        auto* series = new QLineSeries(chart_);
        chart_->addSeries(series);
        series->attachAxis(workersAxis_);
        series->attachAxis(y);
        return series;
    };
    ideal_ = add(speedupAxis_);
    amdahl_ = add(speedupAxis_);
    efficiency_ = add(efficiencyAxis_);
    measuredSeries_ = add(speedupAxis_);
    withoutOverlapSeries_ = add(speedupAxis_);
    modelledSeries_ = add(speedupAxis_);
    measuredSeries_->setVisible(false);
    withoutOverlapSeries_->setVisible(false);
    amdahl_->setVisible(false);

    chartView_ = new QChartView(chart_, this);
    chartView_->setMinimumSize(360,
                               100); // a projector's short view: the header and legend keep room
    connect(chart_, &QChart::plotAreaChanged, this, [this] { updateValueLabels(); });

    header_ = new QLabel(this);
    header_->setTextFormat(Qt::PlainText);
    header_->setWordWrap(true);
    computing_ = new QLabel(this);
    computing_->setTextFormat(Qt::PlainText);
    computing_->setAlignment(Qt::AlignRight | Qt::AlignVCenter);
    QSizePolicy keep = computing_->sizePolicy();
    keep.setRetainSizeWhenHidden(true); // the header does not jump when it comes and goes
    computing_->setSizePolicy(keep);
    computing_->hide();
    legend_ = new SeriesLegend(this);

    auto* top = new QHBoxLayout;
    top->addWidget(header_, 1);
    top->addWidget(computing_);
    auto* layout = new QVBoxLayout(this);
    layout->addLayout(top);
    layout->addWidget(chartView_, 1);
    layout->addWidget(legend_);

    retranslate();
    applyStyle();
    showPoints({});
}

SpeedupView::~SpeedupView() = default;

void SpeedupView::retranslate() {
    setAccessibleName(tr("Speedup view"));
    localize_chart(*chart_);
    workersAxis_->setTitleText(tr("workers"));
    speedupAxis_->setTitleText(tr("speedup (×)"));
    efficiencyAxis_->setTitleText(tr("efficiency"));
    ideal_->setName(tr("ideal: speedup = workers"));
    efficiency_->setName(tr("efficiency (right axis)"));
    measuredSeries_->setName(tr("measured on this computer"));
    withoutOverlapSeries_->setName(tr("without overlap: buckets wait for backward"));
    modelledSeries_->setName(tr("modelled speedup"));
    if (std::isfinite(serialFraction_))
        amdahl_->setName(amdahlLabel());
    computing_->setText(tr("computing…"));
}

void SpeedupView::setPoints(const std::vector<SweepPoint>& modelled,
                            const std::vector<SweepPoint>& withoutOverlap) {
    ++revision_;
    awaiting_ = false;
    error_.clear();
    withoutOverlap_ = withoutOverlap;
    std::sort(withoutOverlap_.begin(), withoutOverlap_.end(),
              [](const SweepPoint& a, const SweepPoint& b) { return a.workers < b.workers; });
    showPoints(modelled);
}

void SpeedupView::setMeasured(const std::vector<SweepPoint>& measured) {
    measured_ = measured;
    std::sort(measured_.begin(), measured_.end(),
              [](const SweepPoint& a, const SweepPoint& b) { return a.workers < b.workers; });
    showPoints(modelled_);
}

void SpeedupView::setComputing(bool computing) {
    awaiting_ = computing;
    updateTexts();
}

void SpeedupView::showSweepError(const QString& message) {
    awaiting_ = false;
    error_ = message;
    updateTexts();
}

void SpeedupView::showPoints(const std::vector<SweepPoint>& modelled) {
    modelled_ = modelled;
    std::sort(modelled_.begin(), modelled_.end(),
              [](const SweepPoint& a, const SweepPoint& b) { return a.workers < b.workers; });

    QList<QPointF> speedup, efficiency, measured, ideal, plain;
    std::vector<int> counts;
    for (const SweepPoint& p : modelled_) {
        speedup.append(QPointF(p.workers, p.metrics.speedup));
        efficiency.append(QPointF(p.workers, p.metrics.efficiency * 100.0));
        counts.push_back(p.workers);
    }
    for (const SweepPoint& p : measured_) {
        measured.append(QPointF(p.workers, p.metrics.speedup));
        counts.push_back(p.workers);
    }
    for (const SweepPoint& p : withoutOverlap_)
        plain.append(QPointF(p.workers, p.metrics.speedup));
    std::sort(counts.begin(), counts.end());
    counts.erase(std::unique(counts.begin(), counts.end()), counts.end());
    for (int n : counts)
        ideal.append(QPointF(n, n));

    modelledSeries_->replace(speedup);
    efficiency_->replace(efficiency);
    measuredSeries_->replace(measured);
    measuredSeries_->setVisible(!measured.isEmpty());
    withoutOverlapSeries_->replace(plain);
    withoutOverlapSeries_->setVisible(!plain.isEmpty());
    ideal_->replace(ideal);

    // The engine's fit to the modelled points, its curve across every worker count shown.
    std::vector<SpeedupPoint> fitted;
    for (const SweepPoint& p : modelled_)
        fitted.push_back({static_cast<double>(p.workers), p.metrics.speedup});
    const AmdahlFit fit = fit_amdahl(fitted, counts.empty() ? 0.0 : counts.back());
    serialFraction_ = fit.serial_fraction;
    QList<QPointF> curve;
    for (const SpeedupPoint& p : fit.curve)
        curve.append(QPointF(p.workers, p.speedup));
    if (!curve.isEmpty())
        amdahl_->setName(amdahlLabel());
    amdahl_->replace(curve);
    amdahl_->setVisible(!curve.isEmpty());

    updateAxes();
    updateValueLabels();
    updateTexts();
}

// Both axes start at zero with the same power-of-two ticks, so the ideal line is a diagonal.
void SpeedupView::updateAxes() {
    double maxWorkers = 2.0, maxSpeedup = 2.0, maxEfficiency = 100.0;
    for (const SweepPoint& p : modelled_) {
        maxWorkers = std::max(maxWorkers, static_cast<double>(p.workers));
        maxSpeedup = std::max(maxSpeedup, p.metrics.speedup);
        maxEfficiency = std::max(maxEfficiency, p.metrics.efficiency * 100.0);
    }
    for (const SweepPoint& p : measured_) {
        maxWorkers = std::max(maxWorkers, static_cast<double>(p.workers));
        maxSpeedup = std::max(maxSpeedup, p.metrics.speedup);
    }
    for (const SweepPoint& p : withoutOverlap_)
        maxSpeedup = std::max(maxSpeedup, p.metrics.speedup);
    maxSpeedup = std::max(maxSpeedup, maxWorkers);
    // Half a tick of room past the last point, so its marker and value label are not clipped.
    const double xStep = power_of_two_interval(maxWorkers);
    // As many speedup ticks as the chart's height has room for, a line and a half apart, after
    // about four lines for the workers axis, its title and the margins (a projector's short view
    // would otherwise elide every label to "..."). From the widget's height, not the plot's,
    // which the ticks themselves change.
    const double line = fontMetrics().height();
    const double rows = (chartView_->height() - 4.0 * line) / (1.5 * line);
    const double yStep = power_of_two_interval(maxSpeedup, std::clamp(rows, 2.0, 8.0));
    workersAxis_->setTickType(QValueAxis::TicksDynamic);
    workersAxis_->setTickAnchor(0);
    workersAxis_->setTickInterval(xStep);
    workersAxis_->setRange(0, std::ceil(maxWorkers / xStep) * xStep + xStep / 2);
    speedupAxis_->setTickType(QValueAxis::TicksDynamic);
    speedupAxis_->setTickAnchor(0);
    speedupAxis_->setTickInterval(yStep);
    speedupAxis_->setRange(0, std::ceil(maxSpeedup / yStep) * yStep + yStep / 2);
    efficiencyAxis_->setTickType(QValueAxis::TicksDynamic);
    efficiencyAxis_->setTickAnchor(0);
    efficiencyAxis_->setTickInterval(20);
    efficiencyAxis_->setRange(0, std::ceil(maxEfficiency / 20.0) * 20.0 + 10.0);
}

// Writes each modelled speedup beside its marker, so "2.5×" can be read off the projector.
void SpeedupView::updateValueLabels() {
    while (valueLabels_.size() > static_cast<qsizetype>(modelled_.size()))
        delete valueLabels_.takeLast();
    while (valueLabels_.size() < static_cast<qsizetype>(modelled_.size()))
        valueLabels_.append(new QGraphicsSimpleTextItem(chart_));
    QFont bold = font();
    bold.setBold(true);
    const QColor text = palette().color(QPalette::WindowText);
    for (std::size_t i = 0; i < modelled_.size(); ++i) {
        QGraphicsSimpleTextItem* label = valueLabels_[static_cast<qsizetype>(i)];
        const SweepPoint& p = modelled_[i];
        label->setFont(bold);
        label->setBrush(text);
        label->setText(format_speedup(p.metrics.speedup) + QStringLiteral("×"));
        const QPointF at =
            chart_->mapToPosition(QPointF(p.workers, p.metrics.speedup), modelledSeries_);
        // Below and to the right: the curve rises to the right, so that corner is free.
        label->setPos(at + QPointF(kMarkerSize * 0.6, kMarkerSize * 0.2));
        label->setZValue(10);
        label->setVisible(chart_->plotArea().contains(at));
    }
}

QList<QPointF> SpeedupView::modelledPoints() const {
    return modelledSeries_->points();
}

QList<QPointF> SpeedupView::idealPoints() const {
    return ideal_->points();
}

QList<QPointF> SpeedupView::measuredPoints() const {
    return measuredSeries_->points();
}

QList<QPointF> SpeedupView::withoutOverlapPoints() const {
    return withoutOverlapSeries_->points();
}

QList<QPointF> SpeedupView::efficiencyPoints() const {
    return efficiency_->points();
}

QList<QPointF> SpeedupView::amdahlPoints() const {
    return amdahl_->points();
}

QString SpeedupView::amdahlLabel() const {
    if (!std::isfinite(serialFraction_))
        return {};
    return tr("Amdahl fit, serial fraction %1%").arg(format_fraction_percent(serialFraction_));
}

void SpeedupView::setRunWorkers(int workers) {
    runWorkers_ = workers;
    updateTexts();
}

QString SpeedupView::summary() const {
    return accessibleDescription();
}

void SpeedupView::updateTexts() {
    QString headline;
    if (!error_.isEmpty()) {
        headline = tr("Cannot compute the speedup: %1").arg(error_);
    } else if (modelled_.empty()) {
        headline = tr("No speedup computed yet");
    } else {
        const auto own = std::find_if(modelled_.begin(), modelled_.end(), [&](const SweepPoint& q) {
            return q.workers == runWorkers_;
        });
        const SweepPoint& p = own != modelled_.end() ? *own : modelled_.back();
        const QString workers = p.workers == 1 ? tr("1 worker") : tr("%1 workers").arg(p.workers);
        headline = tr("%1: speedup %2× of an ideal %3×, efficiency %4%")
                       .arg(workers, format_speedup(p.metrics.speedup))
                       .arg(p.workers)
                       .arg(format_efficiency(p.metrics.efficiency));
        const auto plain =
            std::find_if(withoutOverlap_.begin(), withoutOverlap_.end(),
                         [&](const SweepPoint& q) { return q.workers == p.workers; });
        if (plain != withoutOverlap_.end())
            headline += QStringLiteral("; ") +
                        tr("without overlap %1×").arg(format_speedup(plain->metrics.speedup));
    }
    header_->setText(headline);
    computing_->setVisible(awaiting_);
    QString description = headline;
    if (!amdahlLabel().isEmpty() && error_.isEmpty())
        description += QStringLiteral("; ") + amdahlLabel();
    if (awaiting_)
        description += QStringLiteral("; ") + tr("computing");
    setAccessibleDescription(description);

    QList<LegendEntry> entries;
    auto entry = [](QLineSeries* series, MarkerShape marker) {
        return LegendEntry{series->name(), series->pen(), marker, series->color()};
    };
    entries.push_back(entry(modelledSeries_, MarkerShape::Circle));
    if (measuredSeries_->isVisible())
        entries.push_back(entry(measuredSeries_, MarkerShape::Square));
    if (withoutOverlapSeries_->isVisible())
        entries.push_back(entry(withoutOverlapSeries_, MarkerShape::Diamond));
    entries.push_back(entry(ideal_, MarkerShape::None));
    if (amdahl_->isVisible())
        entries.push_back(entry(amdahl_, MarkerShape::None));
    entries.push_back(entry(efficiency_, MarkerShape::Triangle));
    legend_->setEntries(entries);
}

// The chart's new height may hold more or fewer ticks (its layout has already set it).
void SpeedupView::resizeEvent(QResizeEvent* event) {
    QWidget::resizeEvent(event);
    updateAxes();
}

void SpeedupView::changeEvent(QEvent* event) {
    if (event->type() == QEvent::LanguageChange) {
        retranslate();
        updateTexts();       // the headline, the description and the legend
        updateValueLabels(); // "2.5×" beside the markers, in the language's digits
    }
    if (event->type() == QEvent::PaletteChange || event->type() == QEvent::FontChange)
        applyStyle();
    QWidget::changeEvent(event);
}

SessionView* make_speedup_view() {
    return new SpeedupView;
}

} // namespace lockstep::views
