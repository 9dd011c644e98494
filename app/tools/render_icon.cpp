// lockstep-render-icon: draws the application icon's SVG into a square PNG with Qt's own SVG
// renderer, for the install's hicolor icon sizes (resources/CMakeLists.txt). Run offscreen.
//   lockstep-render-icon ICON.svg OUT.png SIZE

#include <QGuiApplication>
#include <QImage>
#include <QPainter>
#include <QSvgRenderer>

#include <cstdio>

int main(int argc, char** argv) {
    QGuiApplication app(argc, argv);
    const QStringList args = QGuiApplication::arguments();
    bool ok = false;
    const int size = args.size() == 4 ? args[3].toInt(&ok) : 0;
    if (!ok || size < 16 || size > 1024) {
        std::fputs("usage: lockstep-render-icon ICON.svg OUT.png SIZE (16 to 1024)\n", stderr);
        return 2;
    }
    QSvgRenderer svg(args[1]);
    if (!svg.isValid()) {
        std::fprintf(stderr, "lockstep-render-icon: %s: not an SVG Qt can draw\n",
                     qPrintable(args[1]));
        return 1;
    }
    QImage image(size, size, QImage::Format_ARGB32_Premultiplied);
    image.fill(Qt::transparent);
    QPainter painter(&image);
    painter.setRenderHint(QPainter::Antialiasing);
    svg.render(&painter);
    painter.end();
    if (!image.save(args[2], "PNG")) {
        std::fprintf(stderr, "lockstep-render-icon: %s: cannot write the PNG\n",
                     qPrintable(args[2]));
        return 1;
    }
    return 0;
}
