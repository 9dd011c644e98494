// Students' profiles on a shared computer: each keeps its own progress, the last one used comes
// back, an older single-student file becomes a profile, and the class's progress exports as CSV.

#include "test_support.h"

#include "lockstep_lessons/lesson.h"
#include "lockstep_lessons/profiles.h"
#include "lockstep_lessons/progress.h"

#include <QDir>
#include <QFile>
#include <QTemporaryDir>
#include <QtTest>

using namespace lockstep;
using namespace lockstep::lessons;
using namespace lockstep::testing;

class TestProfiles : public QObject {
    Q_OBJECT

private Q_SLOTS:
    void profiles_keep_separate_progress();
    void an_older_progress_file_becomes_a_profile();
    void the_class_exports_as_csv();
    void bad_names_and_strange_folders();
};

void TestProfiles::profiles_keep_separate_progress() {
    QTemporaryDir dir;
    {
        ProfileBook book(dir.path());
        QVERIFY(book.names().isEmpty());
        QCOMPARE(book.current(), QString());
        auto ana = book.open(QStringLiteral("Ana Lima"));
        ana->recordAttempt(QStringLiteral("reductions"), QStringLiteral("which-rule"),
                           QStringLiteral("b"), Verdict::Wrong);
        ana->recordAttempt(QStringLiteral("reductions"), QStringLiteral("which-rule"),
                           QStringLiteral("c"), Verdict::Correct);
        ana->markVisited(QStringLiteral("reductions"));
        ana->save();
        auto bo = book.open(QStringLiteral("Bo Chen"));
        QCOMPARE(bo->attempt(QStringLiteral("reductions"), QStringLiteral("which-rule")).attempts,
                 0);
        QVERIFY(!bo->visited(QStringLiteral("reductions")));
        QCOMPARE(bo->student(), QStringLiteral("Bo Chen"));
        QCOMPARE(book.current(), QStringLiteral("Bo Chen"));
        QVERIFY(book.folderOf(QStringLiteral("Ana Lima")) !=
                book.folderOf(QStringLiteral("Bo Chen")));
        // Names that read alike still get folders of their own.
        QVERIFY(book.folderOf(QStringLiteral("ana lima")) !=
                book.folderOf(QStringLiteral("Ana Lima")));
    }
    // A restart: the same students, the last one used first, each with what they did.
    ProfileBook again(dir.path());
    QCOMPARE(again.names(), (QStringList{QStringLiteral("Ana Lima"), QStringLiteral("Bo Chen")}));
    QCOMPARE(again.current(), QStringLiteral("Bo Chen"));
    const auto ana = again.open(QStringLiteral("  Ana   Lima "));
    const AttemptRecord r =
        ana->attempt(QStringLiteral("reductions"), QStringLiteral("which-rule"));
    QCOMPARE(r.attempts, 2);
    QVERIFY(r.solved);
    QVERIFY(ana->visited(QStringLiteral("reductions")));
    QCOMPARE(again.current(), QStringLiteral("Ana Lima"));
}

void TestProfiles::an_older_progress_file_becomes_a_profile() {
    QTemporaryDir dir;
    {
        ProgressStore old(dir.path());
        old.setStudent(QStringLiteral("Cy Diaz"));
        old.markVisited(QStringLiteral("speedup"));
        old.save();
    }
    const QByteArray before = [&] {
        QFile f(dir.filePath(QStringLiteral("progress.json")));
        return f.open(QIODevice::ReadOnly) ? f.readAll() : QByteArray();
    }();
    ProfileBook book(dir.path());
    QCOMPARE(book.names(), QStringList{QStringLiteral("Cy Diaz")});
    QCOMPARE(book.current(), QStringLiteral("Cy Diaz"));
    QVERIFY(book.open(QStringLiteral("Cy Diaz"))->visited(QStringLiteral("speedup")));
    // The old file is left as it was.
    QFile f(dir.filePath(QStringLiteral("progress.json")));
    QVERIFY(f.open(QIODevice::ReadOnly));
    QCOMPARE(f.readAll(), before);
}

void TestProfiles::the_class_exports_as_csv() {
    QTemporaryDir dir;
    ProfileBook book(dir.path());
    auto ana = book.open(QStringLiteral("Ana, the first"));
    ana->recordAttempt(QStringLiteral("reductions"), QStringLiteral("which-rule"),
                       QStringLiteral("c"), Verdict::Correct);
    ana->save();
    book.open(QStringLiteral("=cmd"))->save();
    const LessonLibrary lib = LessonLibrary::load(QStringLiteral(LOCKSTEP_SOURCE_DIR "/resources"));
    const QStringList lines = book.exportCsv(lib).split(QLatin1Char('\n'), Qt::SkipEmptyParts);
    QCOMPARE(lines.front(), QStringLiteral("student,lesson,bank,question,attempts,solved,score"));
    int exercises = 0;
    for (const Lesson& l : lib.lessons())
        exercises += static_cast<int>(l.exercises.size());
    QCOMPARE(lines.size(), 1 + 2 * exercises);
    QVERIFY(lines.contains(
        QStringLiteral("\"Ana, the first\",reductions,reductions,which-rule,1,yes,1")));
    // A name a spreadsheet would run as a formula stays text.
    QVERIFY(std::none_of(lines.begin(), lines.end(),
                         [](const QString& l) { return l.startsWith(QLatin1Char('=')); }));
    QVERIFY(std::any_of(lines.begin(), lines.end(),
                        [](const QString& l) { return l.startsWith(QStringLiteral("'=cmd,")); }));
}

void TestProfiles::bad_names_and_strange_folders() {
    QTemporaryDir dir;
    ProfileBook book(dir.path());
    QVERIFY(error_message([&] {
                book.open(QStringLiteral("   "));
            }).contains(QStringLiteral("needs a name")));
    QVERIFY(error_message([&] {
                book.open(QString(81, QLatin1Char('x')));
            }).contains(QStringLiteral("at most 80 characters")));
    // A folder the book did not make, or a progress file naming someone else, is no profile.
    QDir(dir.path()).mkpath(QStringLiteral("profiles/stranger"));
    {
        QFile f(dir.filePath(QStringLiteral("profiles/stranger/progress.json")));
        QVERIFY(f.open(QIODevice::WriteOnly));
        f.write(R"({"student": "Eve"})");
    }
    QDir(dir.path()).mkpath(QStringLiteral("profiles/junk"));
    {
        QFile f(dir.filePath(QStringLiteral("profiles/junk/progress.json")));
        QVERIFY(f.open(QIODevice::WriteOnly));
        f.write("not json at all");
    }
    QVERIFY(book.names().isEmpty());
    // A damaged profile opens afresh with the reason, the damaged file set aside.
    auto dee = book.open(QStringLiteral("Dee"));
    dee->save();
    {
        QFile f(
            QDir(book.folderOf(QStringLiteral("Dee"))).filePath(QStringLiteral("progress.json")));
        QVERIFY(f.open(QIODevice::WriteOnly));
        f.write("{\"student\": \"Dee\", \"attempts\": 7}");
    }
    const auto reopened = book.open(QStringLiteral("Dee"));
    QCOMPARE(reopened->student(), QStringLiteral("Dee"));
}

QTEST_GUILESS_MAIN(TestProfiles)
#include "test_profiles.moc"
