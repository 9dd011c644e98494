// lockstep-pseudo-ts IN.ts OUT.ts: the pseudo-locale. Every message of IN (a translation made by
// lupdate) gets, as its translation, its English source in brackets and 40 % longer:
// "&Play" becomes "[&Play··]". A text on screen without brackets escaped tr(); a label that no
// longer fits will clip in a longer language. Placeholders (%1, %n), accelerators and markup
// stay as they are.

#include <QCoreApplication>
#include <QFile>
#include <QXmlStreamReader>
#include <QXmlStreamWriter>

#include <cstdio>

namespace {

QString pseudo(const QString& source) {
    const qsizetype extra = (source.size() * 4 + 9) / 10;
    return QStringLiteral("[") + source + QString(extra, QChar(0x00B7)) + QStringLiteral("]");
}

} // namespace

int main(int argc, char** argv) {
    QCoreApplication app(argc, argv);
    if (argc != 3) {
        std::fputs("usage: lockstep-pseudo-ts IN.ts OUT.ts\n", stderr);
        return 2;
    }
    QFile in(QString::fromLocal8Bit(argv[1]));
    QFile out(QString::fromLocal8Bit(argv[2]));
    if (!in.open(QIODevice::ReadOnly) || !out.open(QIODevice::WriteOnly | QIODevice::Truncate)) {
        std::fprintf(stderr, "lockstep-pseudo-ts: cannot open %s or %s\n", argv[1], argv[2]);
        return 1;
    }
    QXmlStreamReader r(&in);
    QXmlStreamWriter w(&out);
    w.setAutoFormatting(true);
    w.writeStartDocument();
    w.writeDTD(QStringLiteral("<!DOCTYPE TS>"));
    QString source;
    bool numerus = false;
    while (!r.atEnd()) {
        r.readNext();
        if (r.isStartElement()) {
            const auto name = r.name();
            if (name == QLatin1String("TS")) {
                w.writeStartElement(QStringLiteral("TS"));
                w.writeAttribute(QStringLiteral("version"), QStringLiteral("2.1"));
                w.writeAttribute(QStringLiteral("language"), QStringLiteral("en_US"));
            } else if (name == QLatin1String("context")) {
                w.writeStartElement(QStringLiteral("context"));
            } else if (name == QLatin1String("name")) {
                w.writeTextElement(QStringLiteral("name"), r.readElementText());
            } else if (name == QLatin1String("message")) {
                w.writeStartElement(QStringLiteral("message"));
                numerus = r.attributes().value(QStringLiteral("numerus")) == QLatin1String("yes");
                if (numerus)
                    w.writeAttribute(QStringLiteral("numerus"), QStringLiteral("yes"));
            } else if (name == QLatin1String("source")) {
                source = r.readElementText();
                w.writeTextElement(QStringLiteral("source"), source);
            } else if (name == QLatin1String("comment")) {
                w.writeTextElement(QStringLiteral("comment"), r.readElementText());
            } else if (name == QLatin1String("translation")) {
                r.skipCurrentElement();
                w.writeStartElement(QStringLiteral("translation"));
                if (numerus) {
                    // English has two forms.
                    w.writeTextElement(QStringLiteral("numerusform"), pseudo(source));
                    w.writeTextElement(QStringLiteral("numerusform"), pseudo(source));
                } else {
                    w.writeCharacters(pseudo(source));
                }
                w.writeEndElement();
            } else {
                r.skipCurrentElement();
            }
        } else if (r.isEndElement()) {
            const auto name = r.name();
            if (name == QLatin1String("TS") || name == QLatin1String("context") ||
                name == QLatin1String("message"))
                w.writeEndElement();
        }
    }
    if (r.hasError()) {
        std::fprintf(stderr, "lockstep-pseudo-ts: %s: %s\n", argv[1], qPrintable(r.errorString()));
        return 1;
    }
    w.writeEndDocument();
    return 0;
}
