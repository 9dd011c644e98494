#include "study_panel.h"

#include "lockstep_lessons/quiz.h"

#include "background.h"
#include "core/error.h"
#include "lockstep_views/numbers.h"

#include <QChart>
#include <QChartView>
#include <QComboBox>
#include <QEvent>
#include <QHeaderView>
#include <QLabel>
#include <QLineSeries>
#include <QLogValueAxis>
#include <QPushButton>
#include <QTableWidget>
#include <QVBoxLayout>
#include <QValueAxis>

#include <algorithm>
#include <cmath>
#include <limits>

namespace lockstep::app {

namespace {

// The table's rows, one a model, its figures in the language's digits.
void fill_table(QTableWidget& table, const std::vector<lessons::StudyPoint>& results) {
    using views::display_number;
    table.setRowCount(static_cast<int>(results.size()));
    for (std::size_t i = 0; i < results.size(); ++i) {
        const auto& p = results[i];
        QStringList sizes;
        for (int w : p.layers)
            sizes << QString::number(w);
        const QStringList cells{sizes.join(QStringLiteral("-")),
                                QString::number(p.parameters),
                                display_number(p.final_loss, 'f', 4),
                                display_number(100 * p.final_accuracy, 'f', 1) + QLatin1Char('%'),
                                display_number(p.compute_s(), 'g', 4),
                                display_number(p.energy_j() / 1000.0, 'g', 4),
                                std::isnan(p.held_out_loss)
                                    ? QStringLiteral("—")
                                    : display_number(p.held_out_loss, 'f', 3) +
                                          QStringLiteral(" ± ") +
                                          display_number(p.held_out_loss_sd, 'f', 3)};
        for (int c = 0; c < cells.size(); ++c)
            table.setItem(static_cast<int>(i), c, new QTableWidgetItem(cells[c]));
    }
}

} // namespace

StudyPanel::StudyPanel(QWidget* parent)
    : QWidget(parent)
    , job_(new BackgroundJob(this)) {
    run_ = new QPushButton;
    status_ = new QLabel;
    status_->setWordWrap(true);
    chart_ = new QChartView(new QChart);
    chart_->setRenderHint(QPainter::Antialiasing);
    chart_->setMinimumHeight(220);
    axis_ = new QComboBox;
    axis_->addItem(QString());
    axis_->addItem(QString());
    table_ = new QTableWidget(0, 7);
    retranslate();
    connect(axis_, &QComboBox::currentIndexChanged, this, &StudyPanel::plot);
    table_->verticalHeader()->hide();
    table_->setEditTriggers(QAbstractItemView::NoEditTriggers);
    table_->horizontalHeader()->setSectionResizeMode(QHeaderView::ResizeToContents);
    table_->horizontalHeader()->setStretchLastSection(true);
    table_->setVerticalScrollBarPolicy(Qt::ScrollBarAlwaysOff);
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addWidget(run_);
    layout->addWidget(status_);
    layout->addWidget(axis_);
    layout->addWidget(chart_, 1);
    layout->addWidget(table_);
    connect(run_, &QPushButton::clicked, this, &StudyPanel::start);
}

void StudyPanel::changeEvent(QEvent* event) {
    if (event->type() == QEvent::LanguageChange)
        retranslate();
    QWidget::changeEvent(event);
}

void StudyPanel::retranslate() {
    run_->setText(tr("Run the study"));
    chart_->setAccessibleName(tr("Loss against modelled energy"));
    axis_->setItemText(0, tr("Loss against modelled energy"));
    axis_->setItemText(1, tr("Loss against compute"));
    axis_->setAccessibleName(tr("Horizontal axis"));
    table_->setHorizontalHeaderLabels({tr("model"), tr("parameters"), tr("training loss"),
                                       tr("accuracy"), tr("compute (s)"), tr("energy (kJ)"),
                                       tr("held-out loss")});
    fill_table(*table_, results_); // the figures in the language's digits
    views::localize_chart(*chart_->chart());
    showStatus();
    plot(); // the axes' titles
}

// The status line from the study's state: running, stopped, done, or not yet run.
void StudyPanel::showStatus() {
    if (job_->busy())
        status_->setText(tr("Training %1 models…").arg(study_.models.size()));
    else if (!error_.isEmpty())
        status_->setText(tr("The study stopped: %1").arg(error_));
    else if (!results_.empty())
        status_->setText(
            tr("Every model trained on the same data with the same workers. Training loss and "
               "accuracy: the last step's batch, first seed. Held-out loss: on fresh "
               "examples no model trained on, mean ± sd over the seeds (%1).")
                .arg(results_.front().seeds) +
            QLatin1Char(' ') +
            tr("Energy is modelled per worker: computing %1 W, communicating %2 W, waiting %3 "
               "W, writing checkpoints %4 W, idle %5 W.")
                .arg(views::display_number(scenario_.energy.compute_w))
                .arg(views::display_number(scenario_.energy.communicate_w))
                .arg(views::display_number(scenario_.energy.wait_w))
                .arg(views::display_number(scenario_.energy.checkpoint_w))
                .arg(views::display_number(scenario_.energy.idle_w)));
    else
        status_->setText(tr("Trains every model of the study on the same data."));
}

StudyPanel::~StudyPanel() = default;

bool StudyPanel::running() const {
    return job_->busy();
}

void StudyPanel::setStudy(const Scenario& scenario, const lessons::StudyConfig& study) {
    scenario_ = scenario;
    study_ = study;
}

void StudyPanel::start() {
    if (job_->busy())
        return;
    error_.clear();
    run_->setEnabled(false);
    job_->start(
        [scenario = scenario_, study = study_](const std::atomic<bool>&) {
            return lessons::run_study(scenario, study);
        },
        [this](std::vector<lessons::StudyPoint> points) { showResults(std::move(points), {}); },
        [this](const QString& error) { showResults({}, error); });
    showStatus();
}

void StudyPanel::showResults(std::vector<lessons::StudyPoint> points, const QString& error) {
    run_->setEnabled(true);
    error_ = error;
    if (!error.isEmpty()) {
        showStatus();
        Q_EMIT finished();
        return;
    }
    results_ = std::move(points);
    fill_table(*table_, results_);
    // The table as tall as its rows, no more: the chart takes the rest.
    table_->resizeRowsToContents();
    int rows = table_->horizontalHeader()->height() + 2 * table_->frameWidth();
    for (int r = 0; r < table_->rowCount(); ++r)
        rows += table_->rowHeight(r);
    table_->setFixedHeight(rows);
    plot();
    showStatus();
    Q_EMIT finished();
}

void StudyPanel::plot() {
    QChart* chart = chart_->chart();
    chart->removeAllSeries();
    for (QAbstractAxis* a : chart->axes())
        chart->removeAxis(a);
    if (results_.empty())
        return;
    const bool energy = axis_->currentIndex() == 0;
    auto* x = new QLogValueAxis;
    x->setTitleText(energy ? tr("modelled energy (kJ)") : tr("compute, all workers (s)"));
    x->setLabelFormat(QStringLiteral("%.4g"));
    auto* y = new QValueAxis;
    y->setTitleText(tr("training loss"));
    chart->addAxis(x, Qt::AlignBottom);
    chart->addAxis(y, Qt::AlignLeft);
    double top = 0;
    double left = std::numeric_limits<double>::infinity();
    double right = 0;
    for (const auto& p : results_) {
        QStringList sizes;
        for (int w : p.layers)
            sizes << QString::number(w);
        auto* series = new QLineSeries;
        series->setName(sizes.join(QStringLiteral("-")));
        QList<QPointF> points;
        for (const auto& s : p.curve) {
            const double at = energy ? s.energy_j / 1000.0 : s.compute_s;
            if (at > 0) {
                points << QPointF(at, s.loss);
                top = std::max(top, s.loss);
                left = std::min(left, at);
                right = std::max(right, at);
            }
        }
        series->replace(points);
        chart->addSeries(series);
        series->attachAxis(x);
        series->attachAxis(y);
    }
    y->setRange(0, top * 1.05);
    // Every model's whole curve: the axis does not follow the first series alone.
    if (right > 0)
        x->setRange(left / 1.2, right * 1.2);
}

} // namespace lockstep::app
