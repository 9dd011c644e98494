#include "lockstep_lessons/quiz_export.h"

#include "lockstep_lessons/language.h"

#include "core/error.h"

#include <QFile>
#include <QXmlStreamWriter>

#include <vector>

namespace lockstep::lessons {

namespace {

// Who each question is written for.
std::vector<QString> owners(const Question& q, const QStringList& students, int variants) {
    if (q.variables.empty())
        return {QString()};
    std::vector<QString> out;
    if (!students.isEmpty()) {
        for (const QString& s : students)
            out.push_back(s);
    } else {
        for (int i = 1; i <= variants; ++i)
            out.push_back(QStringLiteral("variant %1").arg(i)); // seeds the numbers: stays English
    }
    return out;
}

QString name_of(const Question& q, const QString& owner) {
    return owner.isEmpty() ? q.id : q.id + QStringLiteral(" (") + owner + QLatin1Char(')');
}

QString category_of(const QuizBank& bank, const Question& q) {
    return QStringLiteral("$course$/top/Lockstep/") + bank.id + QLatin1Char('/') + q.id;
}

// Moodle accepts only these grade fractions (percent).
QString fraction(double percent) {
    return QString::number(percent, 'f', 5);
}

void write_text(QXmlStreamWriter& xml, const QString& element, const QString& text,
                const QString& format = QStringLiteral("markdown")) {
    xml.writeStartElement(element);
    if (!format.isEmpty())
        xml.writeAttribute(QStringLiteral("format"), format);
    xml.writeTextElement(QStringLiteral("text"), text);
    xml.writeEndElement();
}

QString shown_text(const QuestionInstance& in) {
    QString text = in.text;
    if (in.question->type == QuestionType::Ordering)
        text += QStringLiteral("\n\n") + Text::tr("Put these in order.");
    if (!in.question->unit.isEmpty())
        text += QLatin1Char(' ') + Text::tr("(in %1)", "the answer's unit").arg(in.question->unit);
    return text;
}

void moodle_question(QXmlStreamWriter& xml, const QuestionInstance& in, const QString& name) {
    const Question& q = *in.question;
    static const char* types[] = {"numerical", "multichoice", "multichoice", "ordering"};
    xml.writeStartElement(QStringLiteral("question"));
    xml.writeAttribute(QStringLiteral("type"),
                       QString::fromLatin1(types[static_cast<int>(q.type)]));
    xml.writeStartElement(QStringLiteral("name"));
    xml.writeTextElement(QStringLiteral("text"), name);
    xml.writeEndElement();
    write_text(xml, QStringLiteral("questiontext"), shown_text(in));
    write_text(xml, QStringLiteral("generalfeedback"), in.explanation);
    xml.writeTextElement(QStringLiteral("defaultgrade"), QStringLiteral("1"));
    xml.writeTextElement(QStringLiteral("penalty"), QStringLiteral("0.3333333"));
    xml.writeTextElement(QStringLiteral("hidden"), QStringLiteral("0"));
    xml.writeTextElement(QStringLiteral("idnumber"), QString());
    switch (q.type) {
    case QuestionType::Numeric:
        xml.writeStartElement(QStringLiteral("answer"));
        xml.writeAttribute(QStringLiteral("fraction"), QStringLiteral("100"));
        xml.writeAttribute(QStringLiteral("format"), QStringLiteral("moodle_auto_format"));
        xml.writeTextElement(QStringLiteral("text"), QString::number(in.answer, 'g', 17));
        xml.writeTextElement(QStringLiteral("tolerance"), QString::number(in.tolerance, 'g', 17));
        write_text(xml, QStringLiteral("feedback"), in.explanation);
        xml.writeEndElement();
        for (std::size_t i = 0; i < in.traps.size(); ++i) {
            if (std::abs(in.traps[i] - in.answer) <= in.tolerance)
                continue;
            xml.writeStartElement(QStringLiteral("answer"));
            xml.writeAttribute(QStringLiteral("fraction"), QStringLiteral("0"));
            xml.writeAttribute(QStringLiteral("format"), QStringLiteral("moodle_auto_format"));
            xml.writeTextElement(QStringLiteral("text"), QString::number(in.traps[i], 'g', 17));
            xml.writeTextElement(QStringLiteral("tolerance"),
                                 QString::number(in.tolerance, 'g', 17));
            write_text(xml, QStringLiteral("feedback"), fill_template(q.mistakes[i].feedback, in));
            xml.writeEndElement();
        }
        break;
    case QuestionType::SingleChoice:
    case QuestionType::MultipleChoice: {
        const bool single = q.type == QuestionType::SingleChoice;
        xml.writeTextElement(QStringLiteral("single"),
                             single ? QStringLiteral("true") : QStringLiteral("false"));
        xml.writeTextElement(QStringLiteral("shuffleanswers"), QStringLiteral("1"));
        xml.writeTextElement(QStringLiteral("answernumbering"), QStringLiteral("abc"));
        const double right = 100.0 / static_cast<double>(in.correct.size());
        const auto wrong_count =
            static_cast<double>(in.choices.size()) - static_cast<double>(in.correct.size());
        for (int c = 0; c < in.choices.size(); ++c) {
            const bool is_right =
                std::find(in.correct.begin(), in.correct.end(), c) != in.correct.end();
            double percent = is_right ? right : 0.0;
            if (!is_right && !single && wrong_count > 0)
                percent = -100.0 / wrong_count;
            xml.writeStartElement(QStringLiteral("answer"));
            xml.writeAttribute(QStringLiteral("fraction"), fraction(percent));
            xml.writeAttribute(QStringLiteral("format"), QStringLiteral("markdown"));
            xml.writeTextElement(QStringLiteral("text"), in.choices[c]);
            xml.writeEndElement();
        }
        break;
    }
    case QuestionType::Ordering:
        xml.writeTextElement(QStringLiteral("layouttype"), QStringLiteral("VERTICAL"));
        xml.writeTextElement(QStringLiteral("selecttype"), QStringLiteral("ALL"));
        xml.writeTextElement(QStringLiteral("selectcount"), QStringLiteral("0"));
        xml.writeTextElement(QStringLiteral("gradingtype"), QStringLiteral("ABSOLUTE_POSITION"));
        // The ordering question type reads the right order from the fractions 1, 2, 3, ...
        for (qsizetype pos = 0; pos < q.choices.size(); ++pos) {
            xml.writeStartElement(QStringLiteral("answer"));
            xml.writeAttribute(QStringLiteral("fraction"), QString::number(pos + 1));
            xml.writeAttribute(QStringLiteral("format"), QStringLiteral("markdown"));
            xml.writeTextElement(QStringLiteral("text"), q.choices[pos]);
            xml.writeEndElement();
        }
        break;
    }
    for (const QString& hint : in.hints)
        write_text(xml, QStringLiteral("hint"), hint);
    xml.writeEndElement();
}

QString moodle_xml(const QuizBank& bank, const QStringList& students, int variants) {
    QString out;
    QXmlStreamWriter xml(&out);
    xml.setAutoFormatting(true);
    xml.writeStartDocument();
    xml.writeStartElement(QStringLiteral("quiz"));
    for (const Question& q : bank.questions) {
        xml.writeStartElement(QStringLiteral("question"));
        xml.writeAttribute(QStringLiteral("type"), QStringLiteral("category"));
        xml.writeStartElement(QStringLiteral("category"));
        xml.writeTextElement(QStringLiteral("text"), category_of(bank, q));
        xml.writeEndElement();
        xml.writeEndElement();
        for (const QString& owner : owners(q, students, variants))
            moodle_question(xml, instantiate(bank, q, owner), name_of(q, owner));
    }
    xml.writeEndElement();
    xml.writeEndDocument();
    return out;
}

// GIFT reserves ~ = # { } : and the backslash; a newline must be written as \n.
QString gift_escape(const QString& text) {
    QString out;
    for (QChar c : text) {
        if (QStringLiteral("~=#{}:\\").contains(c))
            out += QLatin1Char('\\');
        if (c == QLatin1Char('\n')) {
            out += QStringLiteral("\\n");
            continue;
        }
        out += c;
    }
    return out;
}

QString gift_question(const QuestionInstance& in, const QString& name) {
    const Question& q = *in.question;
    QString out =
        QStringLiteral("::%1::[markdown]%2 {").arg(gift_escape(name), gift_escape(shown_text(in)));
    switch (q.type) {
    case QuestionType::Numeric:
        out += QStringLiteral("#\n    =%1:%2 #%3")
                   .arg(QString::number(in.answer, 'g', 17), QString::number(in.tolerance, 'g', 17),
                        gift_escape(in.explanation));
        for (std::size_t i = 0; i < in.traps.size(); ++i)
            if (std::abs(in.traps[i] - in.answer) > in.tolerance)
                out += QStringLiteral("\n    =%0%") + QString::number(in.traps[i], 'g', 17) +
                       QLatin1Char(':') + QString::number(in.tolerance, 'g', 17) +
                       QStringLiteral(" #") +
                       gift_escape(fill_template(q.mistakes[i].feedback, in));
        break;
    case QuestionType::SingleChoice:
        for (int c = 0; c < in.choices.size(); ++c)
            out += QStringLiteral("\n    %1%2")
                       .arg(c == in.correct.front() ? QStringLiteral("=") : QStringLiteral("~"),
                            gift_escape(in.choices[c]));
        break;
    case QuestionType::MultipleChoice: {
        const double right = 100.0 / static_cast<double>(in.correct.size());
        const double wrong =
            -100.0 /
            std::max<double>(1.0, static_cast<double>(in.choices.size() -
                                                      static_cast<qsizetype>(in.correct.size())));
        for (int c = 0; c < in.choices.size(); ++c) {
            const bool is_right =
                std::find(in.correct.begin(), in.correct.end(), c) != in.correct.end();
            out += QStringLiteral("\n    ~%") + fraction(is_right ? right : wrong) +
                   QLatin1Char('%') + gift_escape(in.choices[c]);
        }
        break;
    }
    case QuestionType::Ordering:
        // GIFT has no ordering type: a matching question pairs each step with its place.
        for (qsizetype pos = 0; pos < q.choices.size(); ++pos)
            out += QStringLiteral("\n    =%1 -> %2").arg(gift_escape(q.choices[pos])).arg(pos + 1);
        break;
    }
    if (!in.explanation.isEmpty())
        out += QStringLiteral("\n    ####") + gift_escape(in.explanation);
    out += QStringLiteral("\n}\n\n");
    return out;
}

QString gift(const QuizBank& bank, const QStringList& students, int variants) {
    QString out = QStringLiteral("// %1 — exported from Lockstep; answers computed by its "
                                 "engine\n\n")
                      .arg(gift_escape(bank.title));
    for (const Question& q : bank.questions) {
        out += QStringLiteral("$CATEGORY: %1\n\n").arg(category_of(bank, q));
        for (const QString& owner : owners(q, students, variants))
            out += gift_question(instantiate(bank, q, owner), name_of(q, owner));
    }
    return out;
}

} // namespace

QString csv_field(const QString& text) {
    if (!text.contains(QLatin1Char(',')) && !text.contains(QLatin1Char('"')) &&
        !text.contains(QLatin1Char('\n')) && !text.contains(QLatin1Char('\r')))
        return text;
    return QLatin1Char('"') + QString(text).replace(QStringLiteral("\""), QStringLiteral("\"\"")) +
           QLatin1Char('"');
}

namespace {

QString csv(const QuizBank& bank, const QStringList& students, int variants) {
    QString out = QStringLiteral("student,bank,question,type,values,answer,tolerance\n");
    QStringList who = students;
    if (who.isEmpty())
        for (int i = 1; i <= variants; ++i)
            who << QStringLiteral("variant %1").arg(i);
    for (const QString& student : who) {
        for (const Question& q : bank.questions) {
            const QuestionInstance in = instantiate(bank, q, student);
            QStringList values;
            for (const Variable& v : q.variables)
                values << v.name + QLatin1Char('=') +
                              fill_template(QLatin1Char('{') + v.name + QLatin1Char('}'), in);
            const bool numeric = q.type == QuestionType::Numeric;
            out += QStringList{csv_field(student),
                               csv_field(bank.id),
                               csv_field(q.id),
                               to_string(q.type),
                               csv_field(values.join(QLatin1Char(' '))),
                               csv_field(numeric ? format_value(in.answer) : in.answer_text()),
                               numeric ? format_value(in.tolerance) : QString()}
                       .join(QLatin1Char(','));
            out += QLatin1Char('\n');
        }
    }
    return out;
}

// The first field of a CSV line, quotes honoured: "Silva, Ana",ana@example.org -> Silva, Ana.
QString first_csv_field(const QString& line) {
    if (!line.startsWith(QLatin1Char('"')))
        return line.section(QLatin1Char(','), 0, 0).trimmed();
    QString out;
    for (qsizetype i = 1; i < line.size(); ++i) {
        if (line[i] == QLatin1Char('"')) {
            if (i + 1 < line.size() && line[i + 1] == QLatin1Char('"')) {
                out += QLatin1Char('"');
                ++i;
                continue;
            }
            break;
        }
        out += line[i];
    }
    return out.trimmed();
}

} // namespace

bool parse_export_format(const QString& text, ExportFormat& out) {
    if (text == QLatin1String("moodle-xml"))
        out = ExportFormat::MoodleXml;
    else if (text == QLatin1String("gift"))
        out = ExportFormat::Gift;
    else if (text == QLatin1String("csv"))
        out = ExportFormat::Csv;
    else
        return false;
    return true;
}

QStringList read_students(const QString& path) {
    QFile file(path);
    if (!file.open(QIODevice::ReadOnly | QIODevice::Text))
        throw Error(Text::tr("%1: cannot read the list of students").arg(path).toStdString());
    QStringList out;
    bool first = true;
    while (!file.atEnd()) {
        QString line = QString::fromUtf8(file.readLine()).trimmed();
        if (first && line.startsWith(QChar(0xFEFF))) // a byte-order mark from a spreadsheet
            line = line.mid(1).trimmed();
        if (line.isEmpty() || line.startsWith(QLatin1Char('#')))
            continue;
        const QString id = first_csv_field(line);
        const bool header =
            first && (id.compare(QLatin1String("student"), Qt::CaseInsensitive) == 0 ||
                      id.compare(QLatin1String("id"), Qt::CaseInsensitive) == 0);
        first = false;
        if (!header && !id.isEmpty())
            out << id;
    }
    if (out.isEmpty())
        throw Error(Text::tr("%1: names no student (one per line)").arg(path).toStdString());
    return out;
}

QString export_bank(const QuizBank& bank, ExportFormat format, const QStringList& students,
                    int variants) {
    switch (format) {
    case ExportFormat::MoodleXml:
        return moodle_xml(bank, students, variants);
    case ExportFormat::Gift:
        return gift(bank, students, variants);
    case ExportFormat::Csv:
        return csv(bank, students, variants);
    }
    return {};
}

} // namespace lockstep::lessons
