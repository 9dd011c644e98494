#include "lockstep_views/comparison_view.h"

#include "lockstep_views/chart_style.h"
#include "lockstep_views/numbers.h"
#include "lockstep_views/palette.h"

#include <QBarCategoryAxis>
#include <QBarSeries>
#include <QBarSet>
#include <QChart>
#include <QChartView>
#include <QEvent>
#include <QGridLayout>
#include <QLabel>
#include <QRegularExpression>
#include <QValueAxis>

#include <algorithm>
#include <cmath>

namespace lockstep::views {

namespace {

constexpr int kQuantities = 5;

// A round axis maximum a little above `v`: 1, 2 or 5 times a power of ten.
double nice_ceiling(double v) {
    if (!(v > 0.0))
        return 1.0;
    const double p = std::pow(10.0, std::floor(std::log10(v)));
    for (double m : {1.0, 2.0, 5.0, 10.0})
        if (v * 1.08 <= m * p)
            return m * p;
    return 10.0 * p;
}

} // namespace

ComparisonView::ComparisonView(QWidget* parent)
    : QWidget(parent) {
    auto* grid = new QGridLayout(this);
    grid->setContentsMargins(6, 6, 6, 6);
    grid->setSpacing(4);
    for (int i = 0; i < kQuantities; ++i) {
        auto* chart = new QChart;
        auto* view = new QChartView(chart, this);
        view->setMinimumSize(160, 140);
        views_.push_back(view);
        grid->addWidget(view, i / 3, i % 3);
    }
    key_ = new QLabel(this);
    key_->setWordWrap(true);
    key_->setAlignment(Qt::AlignTop | Qt::AlignLeft);
    key_->setTextFormat(Qt::RichText);
    grid->addWidget(key_, 1, 2);
    retranslate();
    rebuild();
}

void ComparisonView::retranslate() {
    setAccessibleName(tr("Comparison view"));
    for (QChartView* view : views_)
        localize_chart(*view->chart());
    key_->setAccessibleName(tr("Runs compared"));
}

void ComparisonView::addRun(ComparedRun run) {
    runs_.push_back(std::move(run));
    while (runs_.size() > kMaxRuns)
        runs_.erase(runs_.begin());
    rebuild();
}

void ComparisonView::clear() {
    runs_.clear();
    rebuild();
}

std::vector<ComparisonMetric> ComparisonView::metrics(const std::vector<ComparedRun>& runs) {
    using namespace okabe_ito;
    std::vector<ComparisonMetric> out{{tr("Useful work"), tr("samples/s"), bluish_green, {}},
                                      {tr("Synchronisation"), tr("s per worker"), blue, {}},
                                      {tr("Waiting"), tr("s per worker"), vermillion, {}},
                                      {tr("Lost work"), tr("worker-s"), reddish_purple, {}},
                                      {tr("Energy"), tr("J"), orange, {}}};
    for (const ComparedRun& r : runs) {
        const RunMetrics& m = r.metrics;
        // Goodput counts only the samples that survived rollbacks; a run that reports no useful
        // samples apart (a model-parallel one: nothing fails) counts all it processed.
        const double useful = m.useful_samples > 0 || m.failures > 0 ? m.goodput : m.throughput;
        out[0].values.push_back(useful);
        out[1].values.push_back(m.communication_s);
        out[2].values.push_back(m.waiting_s);
        out[3].values.push_back(m.lost_worker_s);
        out[4].values.push_back(m.energy_j);
    }
    // Times under a second read better in milliseconds, large rates in thousands.
    for (std::size_t i = 1; i <= 3; ++i) {
        const auto& v = out[i].values;
        if (!v.empty() && *std::max_element(v.begin(), v.end()) < 1.0) {
            out[i].scale = 1e3;
            out[i].unit = i == 3 ? tr("worker-ms") : tr("ms per worker");
        }
    }
    if (!out[0].values.empty() &&
        *std::max_element(out[0].values.begin(), out[0].values.end()) >= 1e4) {
        out[0].scale = 1e-3;
        out[0].unit = tr("thousand samples/s");
    }
    return out;
}

QChart* ComparisonView::chart(std::size_t i) const {
    return i < views_.size() ? views_[i]->chart() : nullptr;
}

QString ComparisonView::keyText() const {
    return key_->text();
}

void ComparisonView::rebuild() {
    const auto quantities = metrics(runs_);
    QStringList categories;
    for (std::size_t r = 0; r < runs_.size(); ++r)
        categories << QStringLiteral("#%1").arg(r + 1);
    for (std::size_t i = 0; i < quantities.size(); ++i) {
        const ComparisonMetric& q = quantities[i];
        QChart* chart = views_[i]->chart();
        chart->removeAllSeries();
        chart->setTitle(QStringLiteral("%1 (%2)").arg(q.title, q.unit));
        auto* set = new QBarSet(q.title);
        for (double v : q.values)
            set->append(v * q.scale);
        auto* series = new QBarSeries;
        series->append(set);
        series->setLabelsVisible(true);
        series->setLabelsPosition(QAbstractBarSeries::LabelsOutsideEnd);
        series->setLabelsFormat(QStringLiteral("@value"));
        series->setLabelsPrecision(3);
        series->setBarWidth(0.6);
        chart->addSeries(series);
        // The same two axes every time: axes removed and made again left their old labels drawn
        // under the new ones (0, 0.5, 1 beside 0, 10, 20).
        auto* x = qobject_cast<QBarCategoryAxis*>(chart->axes(Qt::Horizontal).value(0));
        auto* y = qobject_cast<QValueAxis*>(chart->axes(Qt::Vertical).value(0));
        if (!x || !y) {
            x = new QBarCategoryAxis;
            y = new QValueAxis;
            chart->addAxis(x, Qt::AlignBottom);
            chart->addAxis(y, Qt::AlignLeft);
        }
        x->clear();
        x->append(categories.isEmpty() ? QStringList{QString()} : categories);
        const double top =
            q.values.empty() ? 0.0 : *std::max_element(q.values.begin(), q.values.end()) * q.scale;
        y->setRange(0.0, nice_ceiling(top));
        y->setLabelFormat(QStringLiteral("%.4g"));
        y->setTickCount(3);
        series->attachAxis(x);
        series->attachAxis(y);
        views_[i]->setAccessibleName(q.title);
        QStringList values;
        for (std::size_t r = 0; r < q.values.size(); ++r)
            values << QStringLiteral("#%1 %2 %3")
                          .arg(r + 1)
                          .arg(display_number(q.values[r] * q.scale, 'g', 4))
                          .arg(q.unit);
        views_[i]->setAccessibleDescription(values.join(QStringLiteral(", ")));
    }
    QString key;
    if (runs_.empty()) {
        key = QStringLiteral("<b>%1</b><br>%2")
                  .arg(tr("Runs compared"),
                       tr("None yet: every run that finishes in this session appears here, the "
                          "last %1 side by side.")
                           .arg(kMaxRuns));
    } else {
        key = QStringLiteral("<b>%1</b>").arg(tr("Runs compared"));
        for (std::size_t r = 0; r < runs_.size(); ++r) {
            key +=
                QStringLiteral("<br><b>#%1</b> %2").arg(r + 1).arg(runs_[r].name.toHtmlEscaped());
        }
        key += QStringLiteral("<br><br>") +
               tr("Lower is better except useful work. Energy uses assumed power per state, not "
                  "a meter.");
    }
    key_->setText(key);
    setAccessibleDescription(QString(key).remove(QRegularExpression(QStringLiteral("<[^>]*>"))));
    applyStyle();
}

void ComparisonView::changeEvent(QEvent* event) {
    if (event->type() == QEvent::LanguageChange) {
        retranslate();
        rebuild(); // chart titles, the key and the descriptions
    }
    if (event->type() == QEvent::PaletteChange || event->type() == QEvent::FontChange)
        applyStyle();
    QWidget::changeEvent(event);
}

void ComparisonView::applyStyle() {
    const auto quantities = metrics(runs_);
    const QPalette pal = palette();
    for (std::size_t i = 0; i < views_.size(); ++i) {
        QChart* chart = views_[i]->chart();
        style_chart(*chart, *views_[i], pal, font());
        const auto series = chart->series();
        if (series.isEmpty())
            continue;
        auto* bars = static_cast<QBarSeries*>(series.front());
        bars->setLabelsVisible(true);
        for (QBarSet* set : bars->barSets()) {
            set->setColor(quantities[i].colour);
            set->setBorderColor(quantities[i].colour.darker(130));
            set->setLabelColor(pal.color(QPalette::WindowText));
            QFont f = font();
            f.setBold(true);
            set->setLabelFont(f);
        }
    }
}

SessionView* make_comparison_view() {
    return new ComparisonView;
}

} // namespace lockstep::views
