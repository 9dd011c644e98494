// Lockstep in German and Spanish: the language from flags and the environment, the translators,
// lessons and quiz banks read in a language (and back in English for what a language lacks),
// and the checks `lessons check` makes of every language.

#include "test_support.h"

#include "lockstep_lessons/check.h"
#include "lockstep_lessons/language.h"
#include "lockstep_lessons/lesson.h"
#include "lockstep_lessons/quiz.h"
#include "lockstep_lessons/translations.h"

#include "core/error.h"

#include <QDir>
#include <QFile>
#include <QProcess>
#include <QRegularExpression>
#include <QTemporaryDir>
#include <QXmlStreamReader>
#include <QtTest>

using namespace lockstep;
using namespace lockstep::lessons;
using namespace lockstep::testing;

namespace {

void write(const QString& path, const QByteArray& bytes) {
    QDir().mkpath(QFileInfo(path).absolutePath());
    QFile f(path);
    QVERIFY(f.open(QIODevice::WriteOnly | QIODevice::Truncate));
    f.write(bytes);
}

QuizBank shipped(const QString& id) {
    const ReadInEnglish english;
    return load_bank(resources() + QStringLiteral("/quizzes/") + id + QStringLiteral(".json"));
}

// A copy of the shipped resources to break.
QString copy_resources(const QTemporaryDir& dir) {
    const QString root = dir.filePath(QStringLiteral("resources"));
    QProcess cp;
    cp.start(QStringLiteral("cp"), {QStringLiteral("-r"), resources(), root});
    cp.waitForFinished();
    return root;
}

} // namespace

class TestTranslations : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void cleanup() { QVERIFY(set_language(QStringLiteral("en"))); }

    void languageCodes_data() {
        QTest::addColumn<QString>("name");
        QTest::addColumn<QString>("code");
        QTest::newRow("de") << "de"
                            << "de";
        QTest::newRow("de_DE.UTF-8") << "de_DE.UTF-8"
                                     << "de";
        QTest::newRow("es-ES") << "es-ES"
                               << "es";
        QTest::newRow("Deutsch") << "Deutsch"
                                 << "de";
        QTest::newRow("Spanish") << "Spanish"
                                 << "es";
        QTest::newRow("C") << "C"
                           << "en";
        QTest::newRow("en_GB") << "en_GB"
                               << "en";
        QTest::newRow("fr_FR") << "fr_FR"
                               << "";
        QTest::newRow("empty") << ""
                               << "";
    }
    void languageCodes() {
        QFETCH(QString, name);
        QFETCH(QString, code);
        QCOMPARE(language_code(name), code);
    }

    void languageFromEnvironment() {
        const QByteArray saved[4] = {qgetenv("LANGUAGE"), qgetenv("LC_ALL"), qgetenv("LC_MESSAGES"),
                                     qgetenv("LANG")};
        qunsetenv("LC_MESSAGES");
        qputenv("LANG", "es_ES.UTF-8");
        qunsetenv("LC_ALL");
        qunsetenv("LANGUAGE");
        QCOMPARE(language_from_environment(), QStringLiteral("es"));
        // gettext's list of preferences: the first language spoken wins.
        qputenv("LANGUAGE", "fr:de:es");
        QCOMPARE(language_from_environment(), QStringLiteral("de"));
        // LC_ALL comes before LANG; LANGUAGE is ignored under the C locale.
        qputenv("LC_ALL", "C");
        QCOMPARE(language_from_environment(), QStringLiteral("en"));
        qputenv("LC_ALL", "fr_FR.UTF-8");
        qunsetenv("LANGUAGE");
        QCOMPARE(language_from_environment(), QStringLiteral("en"));
        const char* names[4] = {"LANGUAGE", "LC_ALL", "LC_MESSAGES", "LANG"};
        for (int i = 0; i < 4; ++i) {
            if (saved[i].isNull())
                qunsetenv(names[i]);
            else
                qputenv(names[i], saved[i]);
        }
    }

    void translatorsSwitch() {
        QCOMPARE(QCoreApplication::translate("Names", "parameter server"),
                 QStringLiteral("parameter server"));
        QVERIFY(set_language(QStringLiteral("de")));
        QCOMPARE(language(), QStringLiteral("de"));
        QCOMPARE(QCoreApplication::translate("Names", "parameter server"),
                 QStringLiteral("Parameterserver"));
        QVERIFY(set_language(QStringLiteral("es_ES")));
        QCOMPARE(QCoreApplication::translate("Names", "parameter server"),
                 QStringLiteral("servidor de parámetros"));
        // Plural forms come from the translation.
        QVERIFY(set_language(QStringLiteral("de")));
        QString error;
        QVERIFY(!set_language(QStringLiteral("klingon"), &error));
        QVERIFY2(error.contains(QStringLiteral("klingon")), qPrintable(error));
        QCOMPARE(language(), QStringLiteral("de")); // a refused language changes nothing
        QVERIFY(set_language(QStringLiteral("en")));
        QCOMPARE(QCoreApplication::translate("Names", "parameter server"),
                 QStringLiteral("parameter server"));
    }

    void numbersInTheLanguagesForm() {
        QCOMPARE(localized_number(QStringLiteral("2.5")), QStringLiteral("2.5"));
        QVERIFY(set_language(QStringLiteral("de")));
        QCOMPARE(localized_number(QStringLiteral("2.5")), QStringLiteral("2,5"));
        QCOMPARE(localized_number(QStringLiteral("-0.125")), QStringLiteral("-0,125"));
        QCOMPARE(localized_number(QStringLiteral("16")), QStringLiteral("16"));
        QCOMPARE(localized_numbers_in(QStringLiteral("(30 × 2 + 10 × 4) / 40 = 2.5.")),
                 QStringLiteral("(30 × 2 + 10 × 4) / 40 = 2,5."));
        // Versions, addresses and file names keep their dots.
        QCOMPARE(localized_numbers_in(QStringLiteral("Lockstep 0.1.0 at 192.168.1.5, a.json")),
                 QStringLiteral("Lockstep 0.1.0 at 192.168.1.5, a.json"));
    }

    void lessonsInALanguage() {
        QVERIFY(set_language(QStringLiteral("de")));
        const Lesson de = load_lesson(resources() + QStringLiteral("/lessons/reductions"));
        QCOMPARE(de.language, QStringLiteral("de"));
        QVERIFY(de.markdown.startsWith(QStringLiteral("# ")));
        QVERIFY2(de.markdown.contains(QStringLiteral("Mittelwert")),
                 qPrintable(de.markdown.left(200)));
        QCOMPARE(de.title,
                 QStringLiteral("Reduktionen: Summe, Mittelwert, gewichteter Mittelwert"));
        QVERIFY(set_language(QStringLiteral("en")));
        const Lesson en = load_lesson(resources() + QStringLiteral("/lessons/reductions"));
        QCOMPARE(en.language, QStringLiteral("en"));
        QCOMPARE(en.title, QStringLiteral("Reductions: sum, mean, weighted mean"));
        // The same links in both: the lesson does the same whatever language it is read in.
        QCOMPARE(de.links.size(), en.links.size());
        for (std::size_t i = 0; i < en.links.size(); ++i)
            QCOMPARE(de.links[i].url, en.links[i].url);
        // A language the lesson lacks falls back to English.
        QTemporaryDir dir;
        const QString root = copy_resources(dir);
        QVERIFY(QFile::remove(root + QStringLiteral("/lessons/reductions/page.es.md")));
        QVERIFY(set_language(QStringLiteral("es")));
        const Lesson fallback = load_lesson(root + QStringLiteral("/lessons/reductions"));
        QCOMPARE(fallback.language, QStringLiteral("en"));
        QCOMPARE(fallback.markdown, en.markdown);
        QCOMPARE(fallback.title, QStringLiteral("Reducciones: suma, media, media ponderada"));
    }

    void banksInALanguage() {
        const QuizBank en = shipped(QStringLiteral("reductions"));
        QVERIFY(set_language(QStringLiteral("es")));
        // load_bank reads the file as it is; translate_bank (the library) puts the texts in.
        QuizBank translated = en;
        translate_bank(translated, QStringLiteral("es"));
        QVERIFY(translated.title != en.title);
        QCOMPARE(translated.questions.size(), en.questions.size());
        const Question& q_en = en.questions.front();
        const Question& q_es = translated.questions.front();
        QVERIFY(q_es.text != q_en.text);
        QVERIFY(q_es.text.contains(QStringLiteral("{g0}")));
        // The same numbers and the same answer for the same student: only the words change.
        const QuestionInstance a = instantiate(en, q_en, QStringLiteral("Ada"));
        const QuestionInstance b = instantiate(translated, q_es, QStringLiteral("Ada"));
        QCOMPARE(a.values, b.values);
        QCOMPARE(a.answer, b.answer);
        // Answers are read with a comma or a point, and feedback writes the language's form.
        const QString comma = localized_number(format_value(b.answer));
        QCOMPARE(check_answer(b, comma).verdict, Verdict::Correct);
        QCOMPARE(check_answer(b, format_value(b.answer)).verdict, Verdict::Correct);
        // The library's banks come in the language in use; English is the fallback.
        LessonLibrary lib = LessonLibrary::load(resources());
        QCOMPARE(lib.bank(QStringLiteral("reductions"))->title, translated.title);
        QVERIFY(set_language(QStringLiteral("en")));
        lib = LessonLibrary::load(resources());
        QCOMPARE(lib.bank(QStringLiteral("reductions"))->title, en.title);
        // Overlays are not banks.
        QVERIFY(!lib.bank(QStringLiteral("reductions.es")));
        QVERIFY(is_bank_translation(QStringLiteral("reductions.de.json")));
        QVERIFY(!is_bank_translation(QStringLiteral("reductions.json")));
        QVERIFY(!is_bank_translation(QStringLiteral("my.bank.json")));
    }

    void brokenOverlaysAreNamed_data() {
        QTest::addColumn<QByteArray>("overlay");
        QTest::addColumn<QString>("expected");
        QTest::newRow("not json") << QByteArray("{") << "reductions.de.json";
        QTest::newRow("wrong bank")
            << QByteArray(R"({"bank": "speedup", "language": "de", "title": "x", "questions": []})")
            << "bank: must be 'reductions'";
        QTest::newRow("unknown question")
            << QByteArray(R"({"bank": "reductions", "language": "de", "title": "x",
                             "questions": [{"id": "nope", "text": "?"}]})")
            << "the bank has no question 'nope'";
        QTest::newRow("hint count")
            << QByteArray(R"({"bank": "reductions", "language": "de", "title": "x",
                             "questions": [{"id": "mean-two-workers", "hints": ["one"]}]})")
            << "questions[0].hints: has 1 texts; the bank has 2";
        QTest::newRow("unknown key")
            << QByteArray(R"({"bank": "reductions", "language": "de", "title": "x",
                             "questions": [{"id": "mean-two-workers", "answer": 3}]})")
            << "answer";
    }
    void brokenOverlaysAreNamed() {
        QFETCH(QByteArray, overlay);
        QFETCH(QString, expected);
        QTemporaryDir dir;
        const QString root = copy_resources(dir);
        write(root + QStringLiteral("/quizzes/reductions.de.json"), overlay);
        QuizBank bank;
        {
            const ReadInEnglish english;
            bank = load_bank(root + QStringLiteral("/quizzes/reductions.json"));
        }
        try {
            translate_bank(bank, QStringLiteral("de"));
            QFAIL("a broken overlay was taken");
        } catch (const Error& e) {
            const QString message = QString::fromUtf8(e.what());
            QVERIFY2(message.contains(QStringLiteral("reductions.de.json")), qPrintable(message));
            QVERIFY2(message.contains(expected), qPrintable(message));
        }
        // The library names the problem and goes on with the others.
        QVERIFY(set_language(QStringLiteral("de")));
        QStringList problems;
        const LessonLibrary lib = LessonLibrary::load(root, &problems);
        QVERIFY(!lib.bank(QStringLiteral("reductions")));
        QVERIFY(lib.bank(QStringLiteral("speedup")));
        QVERIFY(!problems.isEmpty());
    }

    // Every string of the program has its German and Spanish text, with the same placeholders
    // and markup: a string added without translation fails here (lupdate marks it unfinished).
    void everyMessageIsTranslated_data() {
        QTest::addColumn<QString>("code");
        QTest::newRow("de") << "de";
        QTest::newRow("es") << "es";
    }
    void everyMessageIsTranslated() {
        QFETCH(QString, code);
        QFile ts(
            QStringLiteral(LOCKSTEP_SOURCE_DIR "/resources/translations/lockstep_%1.ts").arg(code));
        QVERIFY(ts.open(QIODevice::ReadOnly));
        QXmlStreamReader xml(&ts);
        static const QRegularExpression placeholder(QStringLiteral("%L?(\\d+|n)"));
        static const QRegularExpression tag(QStringLiteral("</?[a-z0-9]+[^>]*>"));
        auto sorted_matches = [](const QRegularExpression& re, const QString& text) {
            QStringList found;
            auto it = re.globalMatch(text);
            while (it.hasNext())
                found << it.next().captured(0).remove(QLatin1Char('L'));
            found.sort();
            return found;
        };
        int messages = 0;
        QString context, source;
        QStringList problems;
        while (!xml.atEnd()) {
            xml.readNext();
            if (!xml.isStartElement())
                continue;
            if (xml.name() == QLatin1String("name"))
                context = xml.readElementText();
            else if (xml.name() == QLatin1String("source"))
                source = xml.readElementText();
            else if (xml.name() == QLatin1String("translation")) {
                ++messages;
                const bool unfinished =
                    xml.attributes().value(QStringLiteral("type")) == QLatin1String("unfinished");
                const QString text = xml.readElementText(QXmlStreamReader::IncludeChildElements);
                const QString where = context + QStringLiteral(": ") + source.left(60);
                if (unfinished || text.isEmpty())
                    problems << QStringLiteral("not translated: ") + where;
                else if (sorted_matches(placeholder, text) != sorted_matches(placeholder, source) &&
                         !source.contains(QLatin1String("%n")))
                    problems << QStringLiteral("placeholders differ: ") + where;
                else if (sorted_matches(tag, text) != sorted_matches(tag, source))
                    problems << QStringLiteral("markup differs: ") + where;
            }
        }
        QVERIFY(!xml.hasError());
        QVERIFY(messages > 1000);
        QVERIFY2(problems.isEmpty(), qPrintable(problems.join(QLatin1Char('\n'))));
    }

    // lockstep-cli speaks the language asked for, by flag or by the environment; what programs
    // read (JSON) is the same in every language.
    void cliInEveryLanguage() {
        auto run = [](const QStringList& args, const QByteArray& language_env = {}) {
            QProcess p;
            QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
            env.remove(QStringLiteral("LANGUAGE"));
            env.insert(QStringLiteral("LANG"), QStringLiteral("C.UTF-8"));
            env.remove(QStringLiteral("LC_ALL"));
            env.remove(QStringLiteral("LC_MESSAGES"));
            if (!language_env.isEmpty())
                env.insert(QStringLiteral("LANGUAGE"), QString::fromLatin1(language_env));
            if (!language_env.isEmpty())
                env.insert(QStringLiteral("LANG"), QStringLiteral("en_US.UTF-8"));
            p.setProcessEnvironment(env);
            p.start(QStringLiteral(LOCKSTEP_CLI_PATH), args);
            p.waitForFinished(120000);
            return std::make_pair(p.exitCode(),
                                  p.readAllStandardOutput() + p.readAllStandardError());
        };
        const QStringList small{QStringLiteral("run"), QStringLiteral("--workers"),
                                QStringLiteral("2"), QStringLiteral("--steps"),
                                QStringLiteral("3")};
        const auto [en_code, en] = run(small);
        QCOMPARE(en_code, 0);
        QVERIFY(en.contains("final loss"));
        const auto [de_code, de] =
            run(QStringList{QStringLiteral("--language"), QStringLiteral("de")} + small);
        QCOMPARE(de_code, 0);
        QVERIFY2(de.contains("Endverlust"), de.constData());
        // The flag after the command, and its = form.
        const auto [after_code, after] = run(small + QStringList{QStringLiteral("--language=es")});
        QCOMPARE(after_code, 0);
        QVERIFY2(QString::fromUtf8(after).contains(QStringLiteral("pérdida")), after.constData());
        // gettext's LANGUAGE.
        const auto [help_code, help] = run({QStringLiteral("--help")}, "es");
        QCOMPARE(help_code, 0);
        QVERIFY2(help.contains("comandos:"), help.constData());
        const auto [bad_code, bad] =
            run({QStringLiteral("--language"), QStringLiteral("xx"), QStringLiteral("run")});
        QCOMPARE(bad_code, 2);
        QVERIFY2(bad.contains("--language: ") && bad.contains("'xx'"), bad.constData());
        const QStringList json = small + QStringList{QStringLiteral("--json")};
        QCOMPARE(run(QStringList{QStringLiteral("--language"), QStringLiteral("de")} + json).second,
                 run(json).second);
    }

    void checksOfEveryLanguage() {
        QVERIFY(check_resources(resources()).isEmpty());
        QTemporaryDir dir;
        const QString root = copy_resources(dir);
        // A missing page, a link that differs, a placeholder lost, an untranslated text.
        QVERIFY(QFile::remove(root + QStringLiteral("/lessons/speedup/page.es.md")));
        QFile page(root + QStringLiteral("/lessons/reductions/page.de.md"));
        QVERIFY(page.open(QIODevice::ReadOnly));
        QString text = QString::fromUtf8(page.readAll());
        page.close();
        text.replace(QStringLiteral("(lockstep:set?rule=sum)"),
                     QStringLiteral("(lockstep:set?rule=mean)"));
        write(page.fileName(), text.toUtf8());
        QFile bank(root + QStringLiteral("/quizzes/reductions.es.json"));
        QVERIFY(bank.open(QIODevice::ReadOnly));
        QString overlay = QString::fromUtf8(bank.readAll());
        bank.close();
        overlay.replace(QStringLiteral("{g0}"), QStringLiteral("g0"));
        write(bank.fileName(), overlay.toUtf8());
        const QString problems = check_resources(root).join(QLatin1Char('\n'));
        QVERIFY2(problems.contains(QStringLiteral("speedup/page.es.md: missing")),
                 qPrintable(problems));
        QVERIFY2(problems.contains(QStringLiteral("reductions/page.de.md: its lockstep: links "
                                                  "differ from page.md's")),
                 qPrintable(problems));
        QVERIFY2(problems.contains(QStringLiteral("reductions.es.json: mean-two-workers.text: "
                                                  "its {placeholders} differ from the English")),
                 qPrintable(problems));
    }
};

QTEST_GUILESS_MAIN(TestTranslations)
#include "test_translations.moc"
