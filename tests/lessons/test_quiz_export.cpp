#include "cli_test_support.h"
#include "test_support.h"

#include "lockstep_lessons/quiz.h"
#include "lockstep_lessons/quiz_export.h"

#include <QFile>
#include <QMap>
#include <QTemporaryDir>
#include <QXmlStreamReader>
#include <QtTest>

using namespace lockstep::lessons;
using namespace lockstep::testing;

namespace {

QuizBank shipped(const QString& id) {
    return load_bank(QStringLiteral(LOCKSTEP_SOURCE_DIR "/resources/quizzes/") + id +
                     QStringLiteral(".json"));
}

// What a Moodle XML file says about each question: its type, its answers and their fractions.
struct MoodleQuestion {
    QString type;
    QString name;
    QStringList answers;
    QStringList fractions;
    QStringList tolerances;
};

std::vector<MoodleQuestion> read_moodle(const QString& xml, QString* error) {
    std::vector<MoodleQuestion> out;
    QXmlStreamReader r(xml);
    QStringList path;
    while (!r.atEnd()) {
        r.readNext();
        if (r.isStartElement()) {
            path << r.name().toString();
            if (r.name() == QLatin1String("question")) {
                out.push_back(
                    {r.attributes().value(QLatin1String("type")).toString(), {}, {}, {}, {}});
            } else if (r.name() == QLatin1String("answer")) {
                out.back().fractions << r.attributes().value(QLatin1String("fraction")).toString();
            } else if (r.name() == QLatin1String("text") && path.size() >= 2) {
                const QString parent = path[path.size() - 2];
                const QString text = r.readElementText();
                path.removeLast();
                if (parent == QLatin1String("answer"))
                    out.back().answers << text;
                else if (parent == QLatin1String("name"))
                    out.back().name = text;
            } else if (r.name() == QLatin1String("tolerance")) {
                out.back().tolerances << r.readElementText();
                path.removeLast();
            }
        } else if (r.isEndElement()) {
            path.removeLast();
        }
    }
    if (r.hasError())
        *error = r.errorString();
    return out;
}

} // namespace

// Exports for learning platforms and teachers: Moodle XML that parses and carries the engine's
// answers for each student, GIFT with its special characters escaped, and a CSV answer key.
class TestQuizExport : public QObject {
    Q_OBJECT

private Q_SLOTS:
    void moodle_xml_is_well_formed_and_answers_match_data();
    void moodle_xml_is_well_formed_and_answers_match();
    void gift_escapes_and_carries_answers();
    void csv_answer_key_per_student();
    void students_file();
    void cli_export();
};

void TestQuizExport::moodle_xml_is_well_formed_and_answers_match_data() {
    QTest::addColumn<QString>("bank");
    for (const char* id : {"reductions", "speedup", "checkpoints", "model-parallel",
                           "fair-comparison", "discussion"})
        QTest::newRow(id) << QString::fromLatin1(id);
}

void TestQuizExport::moodle_xml_is_well_formed_and_answers_match() {
    QFETCH(QString, bank);
    const QuizBank b = shipped(bank);
    const QStringList students{QStringLiteral("Ana"), QStringLiteral("Bo Li")};
    QString error;
    const auto questions = read_moodle(export_bank(b, ExportFormat::MoodleXml, students), &error);
    QVERIFY2(error.isEmpty(), qPrintable(error));
    int numeric = 0;
    for (const MoodleQuestion& mq : questions) {
        if (mq.type == QLatin1String("category"))
            continue;
        // "id (student)" or "id" for questions without variables.
        const QString id = mq.name.section(QLatin1Char(' '), 0, 0);
        const Question* q = b.find(id);
        QVERIFY2(q, qPrintable(mq.name));
        const QString student =
            q->variables.empty() ? QString() : mq.name.section(QLatin1Char('('), 1).chopped(1);
        const QuestionInstance in = instantiate(b, *q, student);
        switch (q->type) {
        case QuestionType::Numeric:
            ++numeric;
            QCOMPARE(mq.type, QStringLiteral("numerical"));
            QCOMPARE(mq.fractions.front(), QStringLiteral("100"));
            QCOMPARE(mq.answers.front().toDouble(), in.answer); // bit for bit, 17 digits
            QCOMPARE(mq.tolerances.front().toDouble(), in.tolerance);
            for (qsizetype i = 1; i < mq.answers.size(); ++i)
                QCOMPARE(mq.fractions[i], QStringLiteral("0")); // known mistakes score nothing
            break;
        case QuestionType::SingleChoice:
        case QuestionType::MultipleChoice: {
            QCOMPARE(mq.type, QStringLiteral("multichoice"));
            QCOMPARE(mq.answers, q->choices);
            double right = 0;
            for (int c : q->correct)
                right += mq.fractions[c].toDouble();
            QVERIFY(std::abs(right - 100.0) < 1e-3);
            break;
        }
        case QuestionType::Ordering:
            QCOMPARE(mq.type, QStringLiteral("ordering"));
            QCOMPARE(mq.answers, q->choices); // the right order
            QCOMPARE(mq.fractions.front(), QStringLiteral("1"));
            break;
        }
    }
    if (bank == QLatin1String("reductions") || bank == QLatin1String("speedup"))
        QVERIFY(numeric >= 8); // every numeric question, once per student
}

void TestQuizExport::gift_escapes_and_carries_answers() {
    const QuizBank b = shipped(QStringLiteral("reductions"));
    const QString gift = export_bank(b, ExportFormat::Gift, {QStringLiteral("Ana")});
    const QuestionInstance in =
        instantiate(b, *b.find(QStringLiteral("weighted-unequal-shards")), QStringLiteral("Ana"));
    QVERIFY(gift.contains(QStringLiteral("::weighted-unequal-shards (Ana)::")));
    QVERIFY(gift.contains(
        QStringLiteral("=%1:%2 #")
            .arg(QString::number(in.answer, 'g', 17), QString::number(in.tolerance, 'g', 17))));
    QVERIFY(
        gift.contains(QStringLiteral("$CATEGORY: $course$/top/Lockstep/reductions/which-rule")));
    // "Only the sample-weighted mean ...: 30 samples" has a colon, which GIFT reserves.
    QVERIFY(gift.contains(QStringLiteral("counts every sample once\\: 30 samples")));
    const QString order =
        export_bank(shipped(QStringLiteral("checkpoints")), ExportFormat::Gift, {});
    QVERIFY(order.contains(
        QStringLiteral("=Every worker writes its shard under a temporary name -> 1")));
}

void TestQuizExport::csv_answer_key_per_student() {
    const QuizBank b = shipped(QStringLiteral("speedup"));
    const QStringList students{QStringLiteral("Ana"), QStringLiteral("Bo, Jr.")};
    const QStringList lines =
        export_bank(b, ExportFormat::Csv, students).split('\n', Qt::SkipEmptyParts);
    QCOMPARE(lines.front(), QStringLiteral("student,bank,question,type,values,answer,tolerance"));
    QCOMPARE(lines.size(), 1 + students.size() * static_cast<qsizetype>(b.questions.size()));
    const QuestionInstance in = instantiate(b, *b.find(QStringLiteral("worked-example-speedup")),
                                            QStringLiteral("Bo, Jr."));
    const QString row = QStringLiteral("\"Bo, Jr.\",speedup,worked-example-speedup,numeric,"
                                       "t1=%1 p=%2 c=%3,%4,")
                            .arg(format_value(in.values["t1"]), format_value(in.values["p"]),
                                 format_value(in.values["c"]), format_value(in.answer));
    QVERIFY2(std::any_of(lines.begin(), lines.end(),
                         [&](const QString& l) { return l.startsWith(row); }),
             qPrintable(row));
}

void TestQuizExport::students_file() {
    QTemporaryDir dir;
    const QString path = dir.filePath(QStringLiteral("students.csv"));
    QFile f(path);
    QVERIFY(f.open(QIODevice::WriteOnly));
    f.write(
        "\xEF\xBB\xBFstudent,email\n# a comment\nAna,ana@example.org\n\n  Bo Li  ,bo@example.org\n"
        "\"Silva, Ana \"\"Nita\"\"\",nita@example.org\n");
    f.close();
    QCOMPARE(read_students(path), (QStringList{QStringLiteral("Ana"), QStringLiteral("Bo Li"),
                                               QStringLiteral("Silva, Ana \"Nita\"")}));
    const QString missing =
        error_message([&] { read_students(dir.filePath(QStringLiteral("none"))); });
    QVERIFY(missing.contains(QStringLiteral("cannot read the list of students")));
}

void TestQuizExport::cli_export() {
    QTemporaryDir dir;
    const QString students = dir.filePath(QStringLiteral("students.txt"));
    QFile f(students);
    QVERIFY(f.open(QIODevice::WriteOnly));
    f.write("Ana\nBo\n");
    f.close();
    const QString out = dir.filePath(QStringLiteral("reductions.xml"));
    const QStringList args{QStringLiteral("quiz"),
                           QStringLiteral("export"),
                           QStringLiteral("reductions"),
                           QStringLiteral("--format"),
                           QStringLiteral("moodle-xml"),
                           QStringLiteral("--students"),
                           students,
                           QStringLiteral("--out"),
                           out,
                           QStringLiteral("--root"),
                           QStringLiteral(LOCKSTEP_SOURCE_DIR "/resources")};
    const CliResult r = run_cli(args);
    QVERIFY2(r.finished && r.exit_code == 0, qPrintable(describe(args, r)));
    QFile xml(out);
    QVERIFY(xml.open(QIODevice::ReadOnly));
    QString error;
    const auto questions = read_moodle(QString::fromUtf8(xml.readAll()), &error);
    QVERIFY2(error.isEmpty(), qPrintable(error));
    QVERIFY(std::any_of(questions.begin(), questions.end(), [](const MoodleQuestion& q) {
        return q.name == QLatin1String("mean-two-workers (Bo)");
    }));

    const QStringList bad{QStringLiteral("quiz"), QStringLiteral("export"),
                          QStringLiteral("reductions"), QStringLiteral("--format"),
                          QStringLiteral("docx")};
    const CliResult refused = run_cli(bad);
    QCOMPARE(refused.exit_code, 1);
    QVERIFY(refused.err.contains("--format: must be one of moodle-xml, gift, csv, got 'docx'"));
}

QTEST_GUILESS_MAIN(TestQuizExport)
#include "test_quiz_export.moc"
