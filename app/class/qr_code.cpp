#include "qr_code.h"

#include "lockstep_class/class_api.h"

#include <QCoreApplication>
#include <QEvent>
#include <QPainter>

#include <algorithm>

namespace lockstep::app {

QrCode::QrCode(QWidget* parent)
    : QWidget(parent) {
    setMinimumSize(160, 160);
    setSizePolicy(QSizePolicy::Fixed, QSizePolicy::Fixed);
    setFixedSize(220, 220);
    retranslate();
}

void QrCode::setText(const QString& text) {
    modules_ = classroom::qr_modules(text);
    setAccessibleDescription(text);
    update();
}

void QrCode::changeEvent(QEvent* event) {
    if (event->type() == QEvent::LanguageChange)
        retranslate();
    QWidget::changeEvent(event);
}

void QrCode::paintEvent(QPaintEvent*) {
    QPainter p(this);
    p.fillRect(rect(), Qt::white);
    if (modules_.empty())
        return;
    const int n = int(modules_.size()) + 8; // a quiet zone of four modules each side
    const double cell = double(std::min(width(), height())) / n;
    p.setPen(Qt::NoPen);
    p.setBrush(Qt::black);
    for (int y = 0; y < int(modules_.size()); ++y)
        for (int x = 0; x < int(modules_.size()); ++x)
            if (modules_[std::size_t(y)][std::size_t(x)])
                p.drawRect(QRectF((x + 4) * cell, (y + 4) * cell, cell + 0.5, cell + 0.5));
}

void QrCode::retranslate() {
    setAccessibleName(QCoreApplication::translate("QrCode", "QR code of the students' address"));
}

} // namespace lockstep::app
