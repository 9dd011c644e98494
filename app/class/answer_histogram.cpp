// The histogram of a class quiz's answers, drawn large for a projector.

#include "class_window.h"

#include "lockstep_views/palette.h"

#include <QCoreApplication>
#include <QEvent>
#include <QPainter>

#include <algorithm>

namespace lockstep::app {

namespace {

// The label of the histogram's bar of right answers, as the quiz names it (lessons' texts).
QString right_bar_label() {
    return QCoreApplication::translate("Lockstep", "right", "histogram bar");
}

} // namespace

AnswerHistogram::AnswerHistogram(QWidget* parent)
    : QWidget(parent) {
    retranslate();
}

void AnswerHistogram::retranslate() {
    setAccessibleName(tr("The class's answers"));
    update(); // the "right" tick is painted
}

void AnswerHistogram::changeEvent(QEvent* event) {
    if (event->type() == QEvent::LanguageChange)
        retranslate();
    QWidget::changeEvent(event);
}

void AnswerHistogram::setBars(std::vector<classroom::Bar> bars) {
    bars_ = std::move(bars);
    QStringList parts;
    for (const classroom::Bar& b : bars_)
        parts << QStringLiteral("%1: %2").arg(b.label).arg(b.count);
    setAccessibleDescription(parts.join(QStringLiteral("; ")));
    setFixedHeight(sizeHint().height());
    update();
}

QSize AnswerHistogram::sizeHint() const {
    return {600, std::max(120, int(bars_.size()) * 36 + 8)};
}

void AnswerHistogram::paintEvent(QPaintEvent*) {
    QPainter p(this);
    p.setRenderHint(QPainter::Antialiasing);
    if (bars_.empty())
        return;
    int most = 1;
    for (const classroom::Bar& b : bars_)
        most = std::max(most, b.count);
    QFont f = font();
    f.setPointSize(13);
    p.setFont(f);
    const int label_w = std::min(width() / 2, 420);
    const int row = std::max(24, std::min(36, (height() - 8) / int(bars_.size())));
    int y = 4;
    for (const classroom::Bar& b : bars_) {
        const bool right = b.kind == QLatin1String("right");
        const bool mistake = b.kind == QLatin1String("mistake");
        QColor fill = right     ? views::okabe_ito::bluish_green
                      : mistake ? views::okabe_ito::vermillion
                                : QColor(0x6b, 0x6b, 0x6b);
        const QRect text(8, y, label_w - 16, row - 6);
        p.setPen(palette().color(QPalette::WindowText));
        const QString label =
            right && b.label != right_bar_label() ? tr("%1  ✓ right").arg(b.label) : b.label;
        p.drawText(text, Qt::AlignVCenter | Qt::AlignRight | Qt::TextSingleLine,
                   p.fontMetrics().elidedText(label, Qt::ElideRight, text.width()));
        const int full = width() - label_w - 70;
        const int w = b.count == 0 ? 2 : std::max(6, full * b.count / most);
        p.fillRect(QRect(label_w, y + 4, w, row - 14), fill);
        p.drawText(QRect(label_w + w + 8, y, 60, row - 6), Qt::AlignVCenter | Qt::AlignLeft,
                   QString::number(b.count));
        y += row;
    }
}

} // namespace lockstep::app
