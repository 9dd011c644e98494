// Printable worksheets: a page per student holding that student's own numbers, the very text
// `lockstep-cli quiz ask` gives the same name, and an answer key beside it.

#include "cli_test_support.h"
#include "test_support.h"

#include "lockstep_lessons/lesson.h"
#include "lockstep_lessons/quiz.h"
#include "worksheet.h"

#include <QDir>
#include <QFile>
#include <QTemporaryDir>
#include <QTextDocument>
#include <QtTest>

using namespace lockstep;
using namespace lockstep::lessons;
using namespace lockstep::testing;

namespace {

// Pages in a PDF as Qt writes it: one "/Type /Page" object each.
int pdf_pages(const QString& path) {
    QFile f(path);
    if (!f.open(QIODevice::ReadOnly))
        return -1;
    const QByteArray data = f.readAll();
    if (!data.startsWith("%PDF-"))
        return -1;
    return static_cast<int>(data.count("/Type /Page\n"));
}

// The document text of a sheet's HTML, as a reader sees it.
QString plain(const QString& html) {
    QTextDocument doc;
    doc.setHtml(html);
    return doc.toPlainText();
}

} // namespace

class TestWorksheet : public QObject {
    Q_OBJECT

private Q_SLOTS:
    void one_page_per_student_with_the_students_numbers_data();
    void one_page_per_student_with_the_students_numbers();
    void variants_without_a_class_list();
    void bad_requests_are_named();
};

void TestWorksheet::one_page_per_student_with_the_students_numbers_data() {
    QTest::addColumn<QString>("bank");
    QTest::newRow("speedup") << QStringLiteral("speedup");
    QTest::newRow("reductions") << QStringLiteral("reductions");
    QTest::newRow("checkpoints") << QStringLiteral("checkpoints");
}

void TestWorksheet::one_page_per_student_with_the_students_numbers() {
    QFETCH(QString, bank);
    QTemporaryDir dir;
    const QString list = dir.filePath(QStringLiteral("class.txt"));
    {
        QFile f(list);
        QVERIFY(f.open(QIODevice::WriteOnly));
        f.write("Ana Lima\nBo Chen\nCy Diaz\nDee Eze\n");
    }
    const QString sheet = dir.filePath(QStringLiteral("sheet.pdf"));
    const QString key = dir.filePath(QStringLiteral("key.pdf"));
    const QStringList args{QStringLiteral("quiz"),
                           QStringLiteral("worksheet"),
                           bank,
                           QStringLiteral("--students"),
                           list,
                           QStringLiteral("--out"),
                           sheet,
                           QStringLiteral("--key"),
                           key};
    const CliResult r = run_cli(args);
    QVERIFY2(r.finished && r.exit_code == 0, qPrintable(describe(args, r)));
    QCOMPARE(pdf_pages(sheet), 4);
    QVERIFY(pdf_pages(key) >= 1);

    const QuizBank b =
        load_bank(resources() + QStringLiteral("/quizzes/") + bank + QStringLiteral(".json"));
    const auto pages =
        worksheet_pages(b, {QStringLiteral("Ana Lima"), QStringLiteral("Bo Chen")}, 1);
    QCOMPARE(pages.size(), std::size_t{2});
    for (const WorksheetPage& page : pages) {
        const QString text = plain(worksheet_html(b, page, false));
        const QString answers = plain(worksheet_html(b, page, true));
        QVERIFY(text.contains(page.student));
        QCOMPARE(page.questions.size(), b.questions.size());
        for (const QuestionInstance& in : page.questions) {
            // The question as `quiz ask` gives this student, word for word and number for number.
            const QStringList ask{
                QStringLiteral("quiz"), QStringLiteral("ask"),       bank,
                in.question->id,        QStringLiteral("--student"), page.student};
            const CliResult asked = run_cli(ask);
            QVERIFY2(asked.finished && asked.exit_code == 0, qPrintable(describe(ask, asked)));
            const QString first = QString::fromUtf8(asked.out).section(QLatin1Char('\n'), 0, 0);
            QVERIFY2(text.contains(first.trimmed()), qPrintable(first));
            for (const QString& choice : in.choices)
                QVERIFY(text.contains(choice));
            // The answer is on the key, not on the sheet.
            QVERIFY2(answers.contains(QStringLiteral("Answer: ") + in.answer_text()),
                     qPrintable(in.answer_text()));
            if (in.question->type == QuestionType::Numeric)
                QVERIFY(!text.contains(QStringLiteral("Answer: ") + in.answer_text() +
                                       QLatin1Char('.')));
        }
    }
    // Two students, two sets of numbers, where the bank has variables.
    const bool varied = std::any_of(b.questions.begin(), b.questions.end(),
                                    [](const Question& q) { return !q.variables.empty(); });
    if (varied)
        QVERIFY(plain(worksheet_html(b, pages[0], false)).section(QLatin1Char('\n'), 2) !=
                plain(worksheet_html(b, pages[1], false)).section(QLatin1Char('\n'), 2));
    QVERIFY(QFile::copy(sheet, screenshot_path(bank + QStringLiteral("-worksheet.pdf"))) ||
            QFile::exists(screenshot_path(bank + QStringLiteral("-worksheet.pdf"))));
    QFile html(screenshot_path(bank + QStringLiteral("-worksheet.html")));
    QVERIFY(html.open(QIODevice::WriteOnly));
    html.write(worksheet_html(b, pages[0], false).toUtf8());
}

void TestWorksheet::variants_without_a_class_list() {
    QTemporaryDir dir;
    const QString sheet = dir.filePath(QStringLiteral("v.pdf"));
    const QStringList args{QStringLiteral("quiz"),
                           QStringLiteral("worksheet"),
                           QStringLiteral("speedup"),
                           QStringLiteral("--variants"),
                           QStringLiteral("3"),
                           QStringLiteral("--out"),
                           sheet};
    const CliResult r = run_cli(args);
    QVERIFY2(r.finished && r.exit_code == 0, qPrintable(describe(args, r)));
    QCOMPARE(pdf_pages(sheet), 3);
    QVERIFY(r.out.contains("3 page(s), one per variant"));
    QVERIFY(!QFile::exists(dir.filePath(QStringLiteral("key.pdf"))));
}

void TestWorksheet::bad_requests_are_named() {
    QTemporaryDir dir;
    const auto fails = [](const QStringList& args, const char* message) {
        const CliResult r = run_cli(args);
        QVERIFY2(r.finished && r.exit_code == 1 && r.err.contains(message),
                 qPrintable(describe(args, r)));
    };
    fails({QStringLiteral("quiz"), QStringLiteral("worksheet"), QStringLiteral("speedup")},
          "--out SHEET.pdf is required");
    fails({QStringLiteral("quiz"), QStringLiteral("worksheet"), QStringLiteral("nope"),
           QStringLiteral("--out"), dir.filePath(QStringLiteral("x.pdf"))},
          "no quiz bank 'nope'");
    fails({QStringLiteral("quiz"), QStringLiteral("worksheet"), QStringLiteral("speedup"),
           QStringLiteral("--out"), QStringLiteral("/nonexistent/dir/x.pdf")},
          "/nonexistent/dir/x.pdf: cannot write the worksheet");
    fails({QStringLiteral("quiz"), QStringLiteral("worksheet"), QStringLiteral("speedup"),
           QStringLiteral("--variants"), QStringLiteral("0"), QStringLiteral("--out"),
           dir.filePath(QStringLiteral("x.pdf"))},
          "--variants");
    QVERIFY(!QFile::exists(dir.filePath(QStringLiteral("x.pdf"))));
}

QTEST_MAIN(TestWorksheet)
#include "test_worksheet.moc"
