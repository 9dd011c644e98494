#include "worked_example_panel.h"

#include "lockstep_lessons/language.h"
#include "lockstep_lessons/quiz.h"
#include "lockstep_lessons/study.h"

#include "core/error.h"
#include "lockstep_views/numbers.h"

#include <QChart>
#include <QChartView>
#include <QDoubleSpinBox>
#include <QEvent>
#include <QFormLayout>
#include <QLabel>
#include <QLineSeries>
#include <QPushButton>
#include <QSpinBox>
#include <QVBoxLayout>
#include <QValueAxis>

namespace lockstep::app {

namespace {

constexpr int kCurve[] = {1, 2, 4, 8, 16, 32};

} // namespace

WorkedExamplePanel::WorkedExamplePanel(QWidget* parent)
    : QWidget(parent) {
    one_worker_ = new QDoubleSpinBox;
    one_worker_->setRange(0.1, 1e6);
    one_worker_->setValue(40);
    workers_ = new QSpinBox;
    workers_->setRange(1, ScenarioLimits::max_workers);
    workers_->setValue(4);
    communication_ = new QDoubleSpinBox;
    communication_->setRange(0, 1e6);
    communication_->setValue(6);
    auto* form = new QFormLayout;
    one_worker_label_ = new QLabel;
    workers_label_ = new QLabel;
    communication_label_ = new QLabel;
    one_worker_label_->setBuddy(one_worker_);
    workers_label_->setBuddy(workers_);
    communication_label_->setBuddy(communication_);
    form->addRow(one_worker_label_, one_worker_);
    form->addRow(workers_label_, workers_);
    form->addRow(communication_label_, communication_);

    result_ = new QLabel;
    result_->setWordWrap(true);
    result_->setTextFormat(Qt::RichText);

    ideal_ = new QLineSeries;
    modelled_ = new QLineSeries;
    auto* chart = new QChart;
    chart->addSeries(ideal_);
    chart->addSeries(modelled_);
    x_ = new QValueAxis;
    x_->setLabelFormat(QStringLiteral("%d"));
    y_ = new QValueAxis;
    chart->addAxis(x_, Qt::AlignBottom);
    chart->addAxis(y_, Qt::AlignLeft);
    for (QLineSeries* s : {ideal_, modelled_}) {
        s->attachAxis(x_);
        s->attachAxis(y_);
    }
    chart->legend()->setAlignment(Qt::AlignBottom);
    chart->setMargins(QMargins(2, 2, 2, 2));
    chart_ = new QChartView(chart);
    chart_->setRenderHint(QPainter::Antialiasing);
    chart_->setMinimumHeight(200);

    run_ = new QPushButton;
    retranslate();
    connect(run_, &QPushButton::clicked, this, [this] {
        Q_EMIT runRequested(QStringLiteral("lockstep:set?one_worker_s=%1&workers=%2&"
                                           "communication_s=%3")
                                .arg(one_worker_->value())
                                .arg(workers_->value())
                                .arg(communication_->value()));
    });

    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addLayout(form);
    layout->addWidget(result_);
    layout->addWidget(chart_, 1);
    layout->addWidget(run_);
    for (QDoubleSpinBox* box : {one_worker_, communication_})
        connect(box, &QDoubleSpinBox::valueChanged, this, &WorkedExamplePanel::recompute);
    connect(workers_, &QSpinBox::valueChanged, this, &WorkedExamplePanel::recompute);
}

void WorkedExamplePanel::changeEvent(QEvent* event) {
    if (event->type() == QEvent::LanguageChange)
        retranslate();
    QWidget::changeEvent(event);
}

void WorkedExamplePanel::retranslate() {
    one_worker_->setSuffix(tr(" s"));
    communication_->setSuffix(tr(" s"));
    one_worker_label_->setText(tr("Time on one worker"));
    workers_label_->setText(tr("Workers"));
    communication_label_->setText(tr("Communication in all"));
    one_worker_->setAccessibleName(tr("Time on one worker"));
    workers_->setAccessibleName(tr("Workers"));
    communication_->setAccessibleName(tr("Communication time"));
    result_->setAccessibleName(tr("Calculator result"));
    ideal_->setName(tr("ideal"));
    modelled_->setName(tr("with communication"));
    x_->setTitleText(tr("workers"));
    y_->setTitleText(tr("speedup"));
    run_->setText(tr("Show it in the lab"));
    views::localize_chart(*chart_->chart());
    if (!result_->text().isEmpty())
        recompute(); // the result's sentence, once there is one
}

void WorkedExamplePanel::setScenario(const Scenario& scenario) {
    scenario_ = scenario;
    recompute();
}

void WorkedExamplePanel::setFigures(double one_worker_s, int workers, double communication_s) {
    const QSignalBlocker a(one_worker_), b(workers_), c(communication_);
    one_worker_->setValue(one_worker_s);
    workers_->setValue(workers);
    communication_->setValue(communication_s);
    recompute();
}

QString WorkedExamplePanel::resultText() const {
    return result_->text();
}

void WorkedExamplePanel::recompute() {
    // format_value()'s figures in the language's digits: "2,5" in German.
    auto format_value = [](double v) {
        return lessons::localized_number(lessons::format_value(v));
    };
    try {
        const auto r = lessons::worked_example(scenario_, one_worker_->value(), workers_->value(),
                                               communication_->value(), kCurve);
        result_->setText(tr("<b>%1 s</b> on %2 workers (%3 s of compute each + %4 s of "
                            "communication): a speedup of <b>%5</b> against %6 s on one worker, "
                            "ideal %2; efficiency %7%.")
                             .arg(format_value(r.total_s))
                             .arg(r.workers)
                             .arg(format_value(r.baseline_s / r.workers))
                             .arg(format_value(r.communication_s))
                             .arg(views::display_number(r.speedup, 'g', 4))
                             .arg(format_value(r.baseline_s))
                             .arg(views::display_number(100 * r.efficiency, 'g', 3)));
        QList<QPointF> ideal, modelled;
        double top = 1;
        for (const auto& [n, s] : r.curve) {
            ideal << QPointF(n, n);
            modelled << QPointF(n, s);
            top = std::max(top, s);
        }
        ideal_->replace(ideal);
        modelled_->replace(modelled);
        const auto axes = chart_->chart()->axes();
        axes[0]->setRange(1, kCurve[std::size(kCurve) - 1]);
        axes[1]->setRange(0, std::max(top * 1.2, 4.0));
        static_cast<QValueAxis*>(axes[1])->applyNiceNumbers();
    } catch (const Error& e) {
        result_->setText(QString::fromStdString(e.what()).toHtmlEscaped());
    }
}

} // namespace lockstep::app
