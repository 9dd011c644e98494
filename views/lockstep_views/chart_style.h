#pragma once

#include <QColor>
#include <QImage>
#include <QList>
#include <QPen>
#include <QPointF>
#include <QString>
#include <QWidget>

class QAbstractAxis;
class QChart;
class QChartView;
class QPainter;
class QPalette;

namespace lockstep::views {

// Shapes that tell series and classes apart without relying on colour.
enum class MarkerShape { None, Circle, Square, Triangle, Diamond, InvertedTriangle, Cross };

// The marker for the n-th series or class, cycling through the shapes.
MarkerShape marker_for(int index);

// Draws one marker centred on `centre`, `size` pixels across.
void draw_marker(QPainter& painter, MarkerShape shape, QPointF centre, qreal size,
                 const QColor& fill, const QPen& outline);

// A marker as an image for QXYSeries::setLightMarker, drawn at twice `size` so it stays sharp.
QImage marker_image(MarkerShape shape, const QColor& fill, const QColor& outline, int size);

bool is_dark(const QPalette& palette);

// `a` moved towards `b` by `t` (0: a, 1: b).
QColor mix(const QColor& a, const QColor& b, double t);

// Styles a chart for a projector: light or dark theme from the palette, the palette's background
// and text colours, the widget's font for titles and labels, no animation and no built-in legend
// (the views draw a SeriesLegend with longer line samples). Reapply series pens afterwards:
// changing the theme resets them.
void style_chart(QChart& chart, QChartView& view, const QPalette& palette, const QFont& font);
void style_axis(QAbstractAxis& axis, const QPalette& palette, const QFont& font);

// One entry of a SeriesLegend: a line sample in `pen` (Qt::NoPen for none) with `marker` on it.
struct LegendEntry {
    QString label;
    QPen pen;
    MarkerShape marker = MarkerShape::None;
    QColor marker_fill;
};

// A legend whose line samples are long enough to show dash styles and markers from the back of a
// room. Entries flow left to right and wrap onto more rows when the widget is narrow.
class SeriesLegend : public QWidget {
    Q_OBJECT

public:
    explicit SeriesLegend(QWidget* parent = nullptr);

    void setEntries(QList<LegendEntry> entries);
    const QList<LegendEntry>& entries() const { return entries_; }

    bool hasHeightForWidth() const override { return true; }
    int heightForWidth(int width) const override;
    QSize sizeHint() const override;
    QSize minimumSizeHint() const override;

protected:
    void paintEvent(QPaintEvent* event) override;
    void resizeEvent(QResizeEvent* event) override;

private:
    void fitHeight();
    QList<QRect> entryRects(int width) const;
    int sampleWidth(const LegendEntry& entry) const;
    int rowHeight() const;

    QList<LegendEntry> entries_;
};

} // namespace lockstep::views
