#include "worksheet.h"

#include "core/error.h"

#include <QAbstractTextDocumentLayout>
#include <QPageLayout>
#include <QPageSize>
#include <QPainter>
#include <QPdfWriter>
#include <QSaveFile>
#include <QTextDocument>

#include <algorithm>
#include <utility>

namespace lockstep::lessons {

namespace {

QString escaped(const QString& text) {
    return text.toHtmlEscaped().replace(QLatin1Char('\n'), QStringLiteral("<br>"));
}

QString letter(int i) {
    return QString(QChar(QLatin1Char('a').unicode() + i));
}

QString how_to_answer(QuestionType type) {
    switch (type) {
    case QuestionType::Numeric:
        return QStringLiteral("Answer: ____________________");
    case QuestionType::SingleChoice:
        return QStringLiteral("Circle one letter.");
    case QuestionType::MultipleChoice:
        return QStringLiteral("Circle every right letter.");
    case QuestionType::Ordering:
        return QStringLiteral("Write the letters in the right order: ____________________");
    }
    return {};
}

constexpr int kDpi = 300;

} // namespace

std::vector<WorksheetPage> worksheet_pages(const QuizBank& bank, const QStringList& students,
                                           int variants) {
    QStringList who = students;
    if (who.isEmpty())
        for (int i = 1; i <= std::max(1, variants); ++i)
            who << QStringLiteral("variant %1").arg(i);
    std::vector<WorksheetPage> pages;
    for (const QString& student : who) {
        WorksheetPage page{student, {}};
        for (const Question& q : bank.questions)
            page.questions.push_back(instantiate(bank, q, student));
        pages.push_back(std::move(page));
    }
    return pages;
}

QString worksheet_html(const QuizBank& bank, const WorksheetPage& page, bool key) {
    QString html = QStringLiteral("<h2>%1%2</h2><p><b>%3</b></p>")
                       .arg(escaped(bank.title), key ? QStringLiteral(": answers") : QString(),
                            escaped(page.student));
    int n = 0;
    for (const QuestionInstance& in : page.questions) {
        html += QStringLiteral("<p><b>%1. %2</b><br>%3</p>")
                    .arg(++n)
                    .arg(escaped(question_title(*in.question)), escaped(in.text));
        if (!in.choices.isEmpty()) {
            html += QStringLiteral("<p>");
            for (int i = 0; i < in.choices.size(); ++i)
                html += QStringLiteral("(%1) %2<br>").arg(letter(i), escaped(in.choices[i]));
            html += QStringLiteral("</p>");
        }
        if (key)
            html += QStringLiteral("<p><i>Answer: %1.</i> %2</p>")
                        .arg(escaped(in.answer_text()), escaped(in.explanation));
        else
            html += QStringLiteral("<p>%1</p>").arg(how_to_answer(in.question->type));
    }
    return html;
}

void write_worksheet_pdf(const QuizBank& bank, const std::vector<WorksheetPage>& pages,
                         const QString& path, bool key) {
    QSaveFile file(path);
    if (!file.open(QIODevice::WriteOnly))
        throw Error(path.toStdString() + ": cannot write the worksheet (" +
                    file.errorString().toStdString() + ")");
    {
        QPdfWriter pdf(&file);
        pdf.setResolution(kDpi);
        pdf.setPageLayout(QPageLayout(QPageSize(QPageSize::A4), QPageLayout::Portrait,
                                      QMarginsF(15, 15, 15, 15), QPageLayout::Millimeter));
        pdf.setTitle(bank.title + (key ? QStringLiteral(": answers") : QString()));
        pdf.setCreator(QStringLiteral("Lockstep"));
        QPainter painter(&pdf);
        const QRectF area(QPointF(0, 0), QSizeF(pdf.width(), pdf.height()));
        QFont font(QStringLiteral("DejaVu Sans"));
        font.setPointSizeF(11);
        bool first = true;
        const auto draw = [&](const QString& html, bool one_page) {
            QTextDocument doc;
            doc.setDefaultFont(font);
            doc.documentLayout()->setPaintDevice(&pdf);
            doc.setHtml(html);
            doc.setTextWidth(area.width());
            const double tall = doc.size().height();
            if (one_page || tall <= area.height()) {
                if (!std::exchange(first, false))
                    pdf.newPage();
                painter.save();
                const double scale = tall > area.height() ? area.height() / tall : 1.0;
                painter.scale(scale, scale);
                doc.drawContents(&painter, QRectF(0, 0, area.width(), tall));
                painter.restore();
                return;
            }
            // A key longer than a page goes on over the next pages.
            for (double top = 0; top < tall; top += area.height()) {
                if (!std::exchange(first, false))
                    pdf.newPage();
                painter.save();
                painter.translate(0, -top);
                doc.drawContents(&painter, QRectF(0, top, area.width(), area.height()));
                painter.restore();
            }
        };
        for (const WorksheetPage& page : pages)
            draw(worksheet_html(bank, page, key), !key);
        if (pages.empty())
            draw(QStringLiteral("<p>No students.</p>"), true);
    }
    if (!file.commit())
        throw Error(path.toStdString() + ": cannot write the worksheet (" +
                    file.errorString().toStdString() + ")");
}

} // namespace lockstep::lessons
