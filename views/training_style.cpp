// How the Training view's lines look, a colour and a dash per replica, and their legend.
#include "lockstep_views/training_view.h"

#include "lockstep_views/chart_style.h"
#include "lockstep_views/palette.h"

#include <QChart>
#include <QChartView>
#include <QLabel>
#include <QLineSeries>
#include <QScatterSeries>
#include <QValueAxis>

namespace lockstep::views {

namespace {

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

} // namespace

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
    skippedSeries_->setMarkerShape(QScatterSeries::MarkerShapeCircle);
    skippedSeries_->setMarkerSize(13.0);
    skippedSeries_->setColor(okabe_ito::vermillion);
    skippedSeries_->setBorderColor(pal.color(QPalette::WindowText));
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
    if (skippedSeries_->count() > 0)
        entries.push_back(
            {skippedSeries_->name(), QPen(Qt::NoPen), MarkerShape::Circle, okabe_ito::vermillion});
    if (accuracyShown_)
        entries.push_back({accuracySeries_->name(), accuracySeries_->pen(), MarkerShape::None, {}});
    legend_->setEntries(entries);
}

} // namespace lockstep::views
