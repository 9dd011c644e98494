// What the class's pages are made of: their files, built in from resources/class/, the words they
// show in the language in use, and the QR code of the class's address.
#include "lockstep_class/class_api.h"
#include "lockstep_class/class_page_texts.h"

#include "lockstep_lessons/language.h"

#include <QCoreApplication>
#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>

#include <qrencode.h>

#include <memory>

namespace lockstep::classroom {

QByteArray strings_script() {
    // The pages' words in the language in use, english → translation; a word without one is
    // left out, and the page shows the English it has.
    QJsonObject strings;
    for (const char* english : class_page_texts()) {
        const QString translated = QCoreApplication::translate("ClassPage", english);
        if (translated != QString::fromUtf8(english))
            strings.insert(QString::fromUtf8(english), translated);
    }
    const QByteArray json = QJsonDocument(strings).toJson(QJsonDocument::Compact);
    const QByteArray language =
        QJsonDocument(QJsonArray{lessons::language()}).toJson(QJsonDocument::Compact);
    // JSON is JavaScript; "</" cannot end a script that is its own file, and the JSON writer
    // escapes every quote and control character.
    return "window.lockstepLanguage = " + language.mid(1, language.size() - 2) +
           ";\nwindow.lockstepStrings = " + json + ";\n";
}

QByteArray page_file(const QString& name) {
    QFile f(QStringLiteral(":/class/") + name);
    if (!f.open(QIODevice::ReadOnly))
        return {};
    return f.readAll();
}

std::vector<std::vector<bool>> qr_modules(const QString& text) {
    const QByteArray utf8 = text.toUtf8();
    std::unique_ptr<QRcode, decltype(&QRcode_free)> code(
        QRcode_encodeString(utf8.constData(), 0, QR_ECLEVEL_M, QR_MODE_8, 1), &QRcode_free);
    std::vector<std::vector<bool>> rows;
    if (!code)
        return rows;
    const int n = code->width;
    rows.assign(std::size_t(n), std::vector<bool>(std::size_t(n), false));
    for (int y = 0; y < n; ++y)
        for (int x = 0; x < n; ++x)
            rows[std::size_t(y)][std::size_t(x)] = (code->data[y * n + x] & 1) != 0;
    return rows;
}

QByteArray qr_svg(const QString& text) {
    const auto rows = qr_modules(text);
    if (rows.empty())
        return {};
    const int n = int(rows.size());
    const int size = n + 8;
    QByteArray path;
    for (int y = 0; y < n; ++y)
        for (int x = 0; x < n; ++x)
            if (rows[std::size_t(y)][std::size_t(x)])
                path +=
                    "M" + QByteArray::number(x + 4) + "," + QByteArray::number(y + 4) + "h1v1h-1z";
    return "<svg xmlns=\"http://www.w3.org/2000/svg\" viewBox=\"0 0 " + QByteArray::number(size) +
           " " + QByteArray::number(size) + "\" shape-rendering=\"crispEdges\"><title>" +
           lessons::Text::tr("QR code of the class address").toHtmlEscaped().toUtf8() +
           "</title><rect width=\"100%\" height=\"100%\" fill=\"#fff\"/><path fill=\"#000\" d=\"" +
           path + "\"/></svg>";
}

} // namespace lockstep::classroom
