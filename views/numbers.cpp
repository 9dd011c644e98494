#include "lockstep_views/numbers.h"

#include <QChart>

namespace lockstep::views {

QLocale display_locale() {
    QLocale locale;
    locale.setNumberOptions(locale.numberOptions() | QLocale::OmitGroupSeparator);
    return locale;
}

QString display_number(double x, char format, int precision) {
    const QLocale locale = display_locale();
    QString text = locale.toString(x, format, precision);
    // CLDR's exponent is "E" in English, German and Spanish; QString::number() writes "e" unless
    // the format asks for capitals.
    if (format == 'e' || format == 'g') {
        const QString exponent = locale.exponential();
        text.replace(exponent, exponent.toLower());
    }
    return text;
}

void localize_chart(QChart& chart) {
    const QLocale locale = display_locale();
    chart.setLocale(locale);
    // Where the language writes numbers as C does (English), the charts keep C's formatting: the
    // localized one would write the exponent of "%g" labels and bar values as "E" ("5E+03").
    const bool like_c = locale.decimalPoint() == QLatin1String(".") &&
                        locale.negativeSign() == QLatin1String("-") &&
                        locale.zeroDigit() == QLatin1String("0");
    chart.setLocalizeNumbers(!like_c);
}

} // namespace lockstep::views
