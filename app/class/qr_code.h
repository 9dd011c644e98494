#pragma once

#include <QWidget>

#include <vector>

namespace lockstep::app {

// The QR code of the students' address, drawn from libqrencode's modules.
class QrCode : public QWidget {
public:
    explicit QrCode(QWidget* parent);
    void setText(const QString& text);

protected:
    void changeEvent(QEvent* event) override;
    void paintEvent(QPaintEvent*) override;

private:
    void retranslate();

    std::vector<std::vector<bool>> modules_;
};

} // namespace lockstep::app
