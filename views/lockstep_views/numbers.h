#pragma once

#include <QLocale>
#include <QString>

class QChart;

namespace lockstep::views {

// The default locale (the language in use's: lessons::set_language() sets it) without group
// separators, so a number reads "1234,5" in German and "1234.5" in English, as it did before the
// views spoke other languages.
QLocale display_locale();

// A decimal number for a person to read, written the way the language writes it: "2,5" in
// German and Spanish, "2.5" in English. `format` and `precision` are QString::number()'s, and in
// English the text is QString::number()'s, byte for byte (no group separators, a lower-case "e"
// for 'e' and 'g'). Not for text that is parsed again (files, URLs, scenarios).
QString display_number(double x, char format = 'g', int precision = 6);

// Makes `chart` write its axes' labels and bar values in display_locale() ("0,5" in German);
// in a language that writes numbers as C does (English) they stay exactly as Qt Charts writes
// them unlocalized. Call it again when the language changes (QEvent::LanguageChange).
void localize_chart(QChart& chart);

} // namespace lockstep::views
