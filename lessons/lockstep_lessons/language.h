#pragma once

// The languages Lockstep speaks, and the one in use: its translators (Qt Linguist's .qm files,
// built into the programs from resources/translations/), the lesson pages and quiz banks in that
// language, and numbers written the way it writes them.

#include <QCoreApplication>
#include <QString>
#include <QStringList>

namespace lockstep::lessons {

// The texts of the lessons library (feedback, hints' frames, error sentences) translate in this
// context: Text::tr("...").
struct Text {
    Q_DECLARE_TR_FUNCTIONS(Lockstep)
};

// "en", "de", "es": English first, the language every text is written in.
QStringList languages();
// The language's own name: "English", "Deutsch", "Español".
QString language_name(const QString& code);
// The language in use (set_language's), "en" until one is set.
QString language();
// The language a name asks for: "de", "de_DE.UTF-8", "es-ES", "German"… give "de"; empty for a
// language Lockstep does not speak.
QString language_code(const QString& name);
// Lockstep's language from the environment as gettext reads it (LANGUAGE, a colon-separated
// list; then LC_ALL, LC_MESSAGES, LANG), else the system's locale; "en" when none is spoken.
QString language_from_environment();
// Makes `code` the language in use: its translators go into the running application (the ones
// of the previous language come out, and every widget gets a LanguageChange event). Returns
// false, with the reason in `error`, for a language Lockstep does not speak or a missing .qm.
bool set_language(const QString& code, QString* error = nullptr);
// While it lives, lessons and banks load in English (the checks compare the languages with it);
// the translators stay.
class ReadInEnglish {
public:
    ReadInEnglish();
    ~ReadInEnglish();
    ReadInEnglish(const ReadInEnglish&) = delete;
    ReadInEnglish& operator=(const ReadInEnglish&) = delete;

private:
    QString saved_;
};
// For tests: translate with this .qm file instead (the pseudo-locale); the language stays.
bool use_translation_file(const QString& qm_path, QString* error = nullptr);
// A number as the language in use writes it: 2.5 is "2,5" in German and Spanish. `text` is
// what format_value or QString::number wrote.
QString localized_number(const QString& text);
// A text's numbers (2.5, 0.75, -1.25) in the language's form, leaving everything else alone.
QString localized_numbers_in(const QString& text);
// The file of `path` for the language in use, when there is one: page.md → page.de.md.
QString localized_file(const QString& path, const QString& code);

} // namespace lockstep::lessons
