#include "lockstep_lessons/language.h"

#include <QDir>
#include <QFileInfo>
#include <QLibraryInfo>
#include <QLocale>
#include <QRegularExpression>
#include <QTranslator>

#include <memory>
#include <vector>

namespace lockstep::lessons {

namespace {

QString& current() {
    static QString code = QStringLiteral("en");
    return code;
}

// The translators installed for the language in use (Lockstep's own, then Qt's for its
// dialogs' buttons), owned here so that a switch takes them out again.
std::vector<std::unique_ptr<QTranslator>>& installed() {
    static std::vector<std::unique_ptr<QTranslator>> translators;
    return translators;
}

void remove_translators() {
    for (const auto& t : installed())
        QCoreApplication::removeTranslator(t.get());
    installed().clear();
}

} // namespace

QStringList languages() {
    return {QStringLiteral("en"), QStringLiteral("de"), QStringLiteral("es")};
}

QString language_name(const QString& code) {
    if (code == QLatin1String("de"))
        return QStringLiteral("Deutsch");
    if (code == QLatin1String("es"))
        return QStringLiteral("Español");
    if (code == QLatin1String("en"))
        return QStringLiteral("English");
    return code;
}

QString language() {
    return current();
}

QString language_code(const QString& name) {
    const QString n = name.trimmed().toLower();
    for (const QString& code : languages()) {
        if (n == code || n.startsWith(code + QLatin1Char('_')) ||
            n.startsWith(code + QLatin1Char('-')) || n.startsWith(code + QLatin1Char('.')) ||
            n == language_name(code).toLower())
            return code;
    }
    if (n == QLatin1String("german"))
        return QStringLiteral("de");
    if (n == QLatin1String("spanish") || n == QLatin1String("español"))
        return QStringLiteral("es");
    if (n == QLatin1String("c") || n == QLatin1String("posix") || n.startsWith(QLatin1String("c.")))
        return QStringLiteral("en");
    return QString();
}

QString language_from_environment() {
    // gettext's order: LANGUAGE is a list of preferences, used unless the locale is C.
    const QString all = qEnvironmentVariable("LC_ALL");
    const QString messages = qEnvironmentVariable("LC_MESSAGES");
    const QString lang = qEnvironmentVariable("LANG");
    const QString locale = !all.isEmpty() ? all : !messages.isEmpty() ? messages : lang;
    const bool c_locale = language_code(locale) == QLatin1String("en") &&
                          !locale.startsWith(QLatin1String("en"), Qt::CaseInsensitive);
    if (!c_locale) {
        for (const QString& pick :
             qEnvironmentVariable("LANGUAGE").split(QLatin1Char(':'), Qt::SkipEmptyParts)) {
            const QString code = language_code(pick);
            if (!code.isEmpty())
                return code;
        }
    }
    if (!locale.isEmpty()) {
        const QString code = language_code(locale);
        return code.isEmpty() ? QStringLiteral("en") : code;
    }
    const QString system = language_code(QLocale::system().name());
    return system.isEmpty() ? QStringLiteral("en") : system;
}

bool set_language(const QString& code, QString* error) {
    const QString picked = language_code(code);
    if (picked.isEmpty()) {
        if (error)
            *error = Text::tr("Lockstep does not speak '%1' (it speaks %2)")
                         .arg(code, languages().join(QStringLiteral(", ")));
        return false;
    }
    remove_translators();
    current() = picked;
    QLocale::setDefault(picked == QLatin1String("en")
                            ? QLocale(QLocale::English, QLocale::UnitedKingdom)
                            : QLocale(picked));
    if (picked == QLatin1String("en"))
        return true;
    auto own = std::make_unique<QTranslator>();
    if (!own->load(QStringLiteral(":/i18n/lockstep_%1.qm").arg(picked))) {
        if (error)
            *error = QStringLiteral("the translation lockstep_%1.qm is missing from the program")
                         .arg(picked);
        current() = QStringLiteral("en");
        return false;
    }
    QCoreApplication::installTranslator(own.get());
    installed().push_back(std::move(own));
    // Qt's own words (a dialog's Cancel, a file dialog), when Debian's qt6-translations-l10n
    // is there.
    auto qt = std::make_unique<QTranslator>();
    if (qt->load(QLocale(picked), QStringLiteral("qtbase"), QStringLiteral("_"),
                 QLibraryInfo::path(QLibraryInfo::TranslationsPath))) {
        QCoreApplication::installTranslator(qt.get());
        installed().push_back(std::move(qt));
    }
    return true;
}

ReadInEnglish::ReadInEnglish()
    : saved_(current()) {
    current() = QStringLiteral("en");
}

ReadInEnglish::~ReadInEnglish() {
    current() = saved_;
}

bool use_translation_file(const QString& qm_path, QString* error) {
    auto t = std::make_unique<QTranslator>();
    if (!t->load(qm_path)) {
        if (error)
            *error = QStringLiteral("%1: not a translation file").arg(qm_path);
        return false;
    }
    remove_translators();
    QCoreApplication::installTranslator(t.get());
    installed().push_back(std::move(t));
    return true;
}

QString localized_number(const QString& text) {
    if (current() == QLatin1String("en"))
        return text;
    QString out = text;
    const qsizetype dot = out.indexOf(QLatin1Char('.'));
    if (dot > 0 && dot + 1 < out.size() && out[dot - 1].isDigit() && out[dot + 1].isDigit())
        out[dot] = QLatin1Char(',');
    return out;
}

QString localized_numbers_in(const QString& text) {
    if (current() == QLatin1String("en"))
        return text;
    // A decimal point between digits, not part of a version, an address or a file name.
    static const QRegularExpression number(
        QStringLiteral("(?<![\\w.,/:])(-?\\d+)\\.(\\d+)(?!\\w|\\.\\d|,\\d)"));
    QString out = text;
    out.replace(number, QStringLiteral("\\1,\\2"));
    return out;
}

QString localized_file(const QString& path, const QString& code) {
    if (code.isEmpty() || code == QLatin1String("en"))
        return path;
    const QFileInfo info(path);
    const QString candidate = info.dir().filePath(info.completeBaseName() + QLatin1Char('.') +
                                                  code + QLatin1Char('.') + info.suffix());
    return QFileInfo(candidate).isFile() ? candidate : path;
}

} // namespace lockstep::lessons
