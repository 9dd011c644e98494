// The speedup chart's look: each line's colour, width and dashes, its markers, and the labels'
// fonts, from the palette in use (Okabe-Ito colours, told apart by shape as well).
#include "lockstep_views/speedup_view.h"

#include "lockstep_views/chart_style.h"
#include "lockstep_views/palette.h"

#include <QChart>
#include <QChartView>
#include <QLabel>
#include <QLineSeries>
#include <QValueAxis>

namespace lockstep::views {

namespace {

QPen series_pen(const QColor& colour, qreal width, Qt::PenStyle style) {
    QPen pen(colour, width, style);
    pen.setCapStyle(Qt::FlatCap);
    pen.setJoinStyle(Qt::RoundJoin);
    return pen;
}

} // namespace

void SpeedupView::applyStyle() {
    using namespace okabe_ito;
    const QPalette pal = palette();
    style_chart(*chart_, *chartView_, pal, font());
    efficiencyAxis_->setGridLineVisible(false);
    const QColor text = pal.color(QPalette::WindowText);
    const QColor window = pal.color(QPalette::Window);

    ideal_->setPen(series_pen(mix(window, text, 0.45), 2.5, Qt::SolidLine));
    amdahl_->setPen(series_pen(reddish_purple, 3.0, Qt::DashLine));
    QPen dotted = series_pen(bluish_green, 3.0, Qt::SolidLine);
    dotted.setDashPattern({1.0, 1.5});
    efficiency_->setPen(dotted);
    measuredSeries_->setPen(series_pen(orange, 3.0, Qt::DashDotLine));
    withoutOverlapSeries_->setPen(series_pen(vermillion, 3.0, Qt::DashLine));
    modelledSeries_->setPen(series_pen(blue, 4.0, Qt::SolidLine));

    auto markers = [&](QLineSeries* series, MarkerShape shape, const QColor& colour) {
        series->setPointsVisible(true);
        series->setMarkerSize(kMarkerSize);
        series->setLightMarker(marker_image(shape, colour, text, kMarkerSize));
    };
    markers(modelledSeries_, MarkerShape::Circle, blue);
    markers(measuredSeries_, MarkerShape::Square, orange);
    markers(withoutOverlapSeries_, MarkerShape::Diamond, vermillion);
    markers(efficiency_, MarkerShape::Triangle, bluish_green);

    QFont bold = font();
    bold.setBold(true);
    header_->setFont(bold);
    QPalette quiet = pal;
    quiet.setColor(QPalette::WindowText, mix(window, text, 0.6));
    computing_->setPalette(quiet);
    QFont italic = font();
    italic.setItalic(true);
    computing_->setFont(italic);
    updateValueLabels();
    updateTexts();
}

} // namespace lockstep::views
