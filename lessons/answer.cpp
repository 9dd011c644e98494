#include "lockstep_lessons/answer.h"

#include "lockstep_lessons/language.h"

#include <QLocale>
#include <QRegularExpression>

#include <cmath>
#include <set>

namespace lockstep::lessons {

namespace {

// Shown in the language in use, so looked up each time.
QString example() {
    return Text::tr("for example 2.5, 2,5 or 5/2");
}

// Every group after the first has exactly three digits: "1 000 000", "12,345".
bool grouped_by_thousands(const QStringList& groups) {
    static const QRegularExpression first(QStringLiteral("^[+-]?\\d{1,3}$"));
    static const QRegularExpression rest(QStringLiteral("^\\d{3}$"));
    if (groups.size() < 2 || !first.match(groups.front()).hasMatch())
        return false;
    for (qsizetype i = 1; i < groups.size(); ++i)
        if (!rest.match(groups[i]).hasMatch())
            return false;
    return true;
}

// One plain decimal number, in either notation, without a fraction bar.
Parsed<double> parse_decimal(QString s) {
    Parsed<double> out;
    s = s.trimmed();
    if (s.isEmpty()) {
        out.problem = Text::tr("Part of the answer is missing (%1).").arg(example());
        return out;
    }
    static const QRegularExpression foreign(QStringLiteral("[^0-9.,+\\-eE ]"));
    if (s.contains(foreign)) {
        out.problem = Text::tr("'%1' is not a number I can read (%2).").arg(s, example());
        return out;
    }
    if (s.contains(QLatin1Char(' '))) {
        static const QRegularExpression separator(QStringLiteral("[.,]"));
        const qsizetype sep = s.indexOf(separator);
        const QString whole = sep < 0 ? s : s.left(sep);
        if (!grouped_by_thousands(whole.split(QLatin1Char(' ')))) {
            out.problem = Text::tr("'%1' has a space inside the number: write it as one "
                                   "number (%2).")
                              .arg(s, example());
            return out;
        }
        s.remove(QLatin1Char(' '));
    }
    const qsizetype commas = s.count(QLatin1Char(','));
    const qsizetype dots = s.count(QLatin1Char('.'));
    if (commas > 0 && dots > 0) {
        // The last separator is the decimal one: "1,234.5" and "1.234,5".
        const QChar decimal = s.lastIndexOf(QLatin1Char(',')) > s.lastIndexOf(QLatin1Char('.'))
                                  ? QLatin1Char(',')
                                  : QLatin1Char('.');
        const QChar thousands = decimal == QLatin1Char(',') ? QLatin1Char('.') : QLatin1Char(',');
        const QString whole = s.left(s.lastIndexOf(decimal));
        if (s.count(decimal) != 1 || !grouped_by_thousands(whole.split(thousands))) {
            out.problem = Text::tr("'%1' mixes commas and points in a way that is not "
                                   "clear: use one decimal separator (%2).")
                              .arg(s, example());
            return out;
        }
        s.remove(thousands);
        s.replace(decimal, QLatin1Char('.'));
    } else if (commas + dots > 1) {
        const QChar sep = commas > 0 ? QLatin1Char(',') : QLatin1Char('.');
        if (!grouped_by_thousands(s.split(sep))) {
            out.problem =
                Text::tr("'%1' has more than one decimal separator (%2).").arg(s, example());
            return out;
        }
        s.remove(sep);
    } else if (commas == 1) {
        static const QRegularExpression ambiguous(QStringLiteral("^[+-]?\\d{1,3},\\d{3}$"));
        if (ambiguous.match(s).hasMatch() && !s.startsWith(QLatin1String("0,")) &&
            !s.startsWith(QLatin1String("-0,"))) {
            out.problem = Text::tr("'%1' could be read two ways (a thousands separator or "
                                   "a decimal comma): write %2 or %3.")
                              .arg(s, QString(s).remove(QLatin1Char(',')),
                                   QString(s).replace(QLatin1Char(','), QLatin1Char('.')));
            return out;
        }
        s.replace(QLatin1Char(','), QLatin1Char('.'));
    }
    static const QRegularExpression number(
        QStringLiteral("^[+-]?(\\d+\\.?\\d*|\\.\\d+)([eE][+-]?\\d+)?$"));
    if (!number.match(s).hasMatch()) {
        out.problem = Text::tr("'%1' is not a number I can read (%2).").arg(s, example());
        return out;
    }
    bool ok = false;
    const double v = QLocale::c().toDouble(s, &ok);
    if (!ok || !std::isfinite(v)) {
        out.problem = Text::tr("'%1' is too large to be a useful answer.").arg(s);
        return out;
    }
    out.value = v;
    return out;
}

} // namespace

Parsed<double> parse_number(const QString& text, const QString& unit) {
    Parsed<double> out;
    QString s = text;
    s.replace(QChar(0x2212), QLatin1Char('-')); // minus sign
    s.replace(QChar(0x2013), QLatin1Char('-')); // en dash, often typed for minus
    for (QChar space : {QChar(0x00A0), QChar(0x202F), QChar(0x2009), QChar(QLatin1Char('\t'))})
        s.replace(space, QLatin1Char(' '));
    s = s.simplified();
    if (s.isEmpty()) {
        out.problem = Text::tr("Type a number, %1.").arg(example());
        return out;
    }
    const QString trimmed_unit = unit.trimmed();
    if (!trimmed_unit.isEmpty() && s.endsWith(trimmed_unit, Qt::CaseInsensitive) &&
        s.size() > trimmed_unit.size())
        s = s.left(s.size() - trimmed_unit.size()).trimmed();
    double scale = 1.0;
    if (s.endsWith(QLatin1Char('%'))) {
        scale = 0.01;
        s = s.left(s.size() - 1).trimmed();
    }
    const QStringList parts = s.split(QLatin1Char('/'));
    const QString unit_note =
        trimmed_unit.isEmpty()
            ? QString()
            : QLatin1Char(' ') + Text::tr("The unit, if you write one, is %1.").arg(trimmed_unit);
    if (parts.size() > 2) {
        out.problem = Text::tr("'%1' has more than one '/': write one fraction such as "
                               "5/2.")
                          .arg(text.trimmed());
        return out;
    }
    Parsed<double> top = parse_decimal(parts.front());
    if (!top.value) {
        top.problem += unit_note;
        return top;
    }
    double value = *top.value;
    if (parts.size() == 2) {
        Parsed<double> bottom = parse_decimal(parts.back());
        if (!bottom.value)
            return bottom;
        if (*bottom.value == 0.0) {
            out.problem = Text::tr("'%1' divides by zero: the number below the line "
                                   "cannot be 0.")
                              .arg(text.trimmed());
            return out;
        }
        value /= *bottom.value;
    }
    out.value = value * scale;
    return out;
}

Parsed<std::vector<int>> parse_choices(const QString& text, int count, bool exactly_one,
                                       bool all_once) {
    Parsed<std::vector<int>> out;
    const QString last_letter = QString(QChar(QLatin1Char('a').unicode() + count - 1));
    const QString how = Text::tr("letters a to %1 or numbers 1 to %2").arg(last_letter).arg(count);
    // Compiled once: a pattern costs far more to build than to match a short answer.
    static const QRegularExpression gaps(QStringLiteral("[\\s,;]+"));
    const QStringList tokens = text.trimmed().split(gaps, Qt::SkipEmptyParts);
    if (tokens.isEmpty()) {
        out.problem = exactly_one ? Text::tr("Choose one answer (%1).").arg(how)
                                  : Text::tr("Choose your answers (%1).").arg(how);
        return out;
    }
    std::vector<int> chosen;
    std::set<int> seen;
    for (QString token : tokens) {
        token = token.toLower();
        if (token.endsWith(QLatin1Char(')')) || token.endsWith(QLatin1Char('.')))
            token.chop(1);
        int index = -1;
        bool ok = false;
        const int n = token.toInt(&ok);
        if (ok)
            index = n - 1;
        else if (token.size() == 1 && token[0] >= QLatin1Char('a') && token[0] <= QLatin1Char('z'))
            index = token[0].unicode() - QLatin1Char('a').unicode();
        if (index < 0 || index >= count) {
            out.problem = Text::tr("'%1' is not one of the choices (%2).").arg(token, how);
            return out;
        }
        if (!seen.insert(index).second) {
            out.problem = Text::tr("'%1' is there twice: name each choice once.").arg(token);
            return out;
        }
        chosen.push_back(index);
    }
    if (exactly_one && chosen.size() != 1) {
        out.problem = Text::tr("Choose exactly one answer (%1).").arg(how);
        return out;
    }
    if (all_once && chosen.size() != static_cast<std::size_t>(count)) {
        out.problem = Text::tr("Put all %1 items in order, each once (for example "
                               "c, a, b, ...).")
                          .arg(count);
        return out;
    }
    out.value = chosen;
    return out;
}

} // namespace lockstep::lessons
