#include "lockstep_lessons/lesson.h"
#include "lockstep_lessons/progress.h"

#include <QFile>
#include <QTemporaryDir>
#include <QtTest>

using namespace lockstep::lessons;

// A student's progress survives a restart, resets on request, and a damaged file never stops the
// lab.
class TestProgress : public QObject {
    Q_OBJECT

private Q_SLOTS:
    void survives_a_restart();
    void scores_fall_with_wrong_attempts();
    void unreadable_file_is_set_aside();
    void reset_forgets_everything();
    void solved_exercises_per_lesson();
};

void TestProgress::survives_a_restart() {
    QTemporaryDir dir;
    {
        ProgressStore p(dir.path());
        p.setStudent(QStringLiteral("  Ana  Silva "));
        p.markVisited(QStringLiteral("introduction"));
        p.markVisited(QStringLiteral("reductions"));
        p.recordAttempt(QStringLiteral("reductions"), QStringLiteral("mean-two-workers"),
                        QStringLiteral("6"), Verdict::Wrong);
        p.recordAttempt(QStringLiteral("reductions"), QStringLiteral("mean-two-workers"),
                        QStringLiteral("3"), Verdict::Correct);
        p.save();
    }
    const ProgressStore again(dir.path());
    QVERIFY(again.loadProblem().isEmpty());
    QCOMPARE(again.student(), QStringLiteral("Ana Silva"));
    QVERIFY(again.visited(QStringLiteral("introduction")));
    QVERIFY(again.visited(QStringLiteral("reductions")));
    QVERIFY(!again.visited(QStringLiteral("speedup")));
    QCOMPARE(again.lastLesson(), QStringLiteral("reductions"));
    const AttemptRecord r =
        again.attempt(QStringLiteral("reductions"), QStringLiteral("mean-two-workers"));
    QCOMPARE(r.attempts, 2);
    QVERIFY(r.solved);
    QCOMPARE(r.attempts_to_solve, 2);
    QCOMPARE(r.last_answer, QStringLiteral("3"));
    QVERIFY(again.solved(QStringLiteral("reductions"), QStringLiteral("mean-two-workers")));
    QVERIFY(!again.solved(QStringLiteral("reductions"), QStringLiteral("sum-two-workers")));
}

void TestProgress::scores_fall_with_wrong_attempts() {
    QTemporaryDir dir;
    ProgressStore p(dir.path());
    const QString b = QStringLiteral("b");
    p.recordAttempt(b, QStringLiteral("first"), QStringLiteral("1"), Verdict::Correct);
    p.recordAttempt(b, QStringLiteral("second"), QStringLiteral("x"), Verdict::Unparseable);
    p.recordAttempt(b, QStringLiteral("second"), QStringLiteral("1"), Verdict::Near);
    p.recordAttempt(b, QStringLiteral("second"), QStringLiteral("2"), Verdict::Correct);
    p.recordAttempt(b, QStringLiteral("second"), QStringLiteral("9"), Verdict::Wrong);
    p.recordAttempt(b, QStringLiteral("never"), QStringLiteral("9"), Verdict::Wrong);
    QCOMPARE(p.attempt(b, QStringLiteral("first")).score(), 1.0);
    // A typing slip is not an attempt; a solved question stays solved.
    QCOMPARE(p.attempt(b, QStringLiteral("second")).attempts, 3);
    QVERIFY(p.solved(b, QStringLiteral("second")));
    QCOMPARE(p.attempt(b, QStringLiteral("second")).score(), 2.0 / 3.0);
    QCOMPARE(p.attempt(b, QStringLiteral("never")).score(), 0.0);
}

void TestProgress::unreadable_file_is_set_aside() {
    QTemporaryDir dir;
    QFile f(dir.filePath(QStringLiteral("progress.json")));
    QVERIFY(f.open(QIODevice::WriteOnly));
    f.write("{\"version\": 1, \"visited\": [");
    f.close();
    ProgressStore p(dir.path());
    QVERIFY2(p.loadProblem().contains(QStringLiteral("not valid JSON")),
             qPrintable(p.loadProblem()));
    QVERIFY(!p.visited(QStringLiteral("introduction")));
    QVERIFY(QFile::exists(dir.filePath(QStringLiteral("progress.json.unreadable"))));
    p.markVisited(QStringLiteral("introduction"));
    p.save();
    QVERIFY(ProgressStore(dir.path()).visited(QStringLiteral("introduction")));
}

void TestProgress::reset_forgets_everything() {
    QTemporaryDir dir;
    ProgressStore p(dir.path());
    p.markVisited(QStringLiteral("introduction"));
    p.recordAttempt(QStringLiteral("b"), QStringLiteral("q"), QStringLiteral("1"),
                    Verdict::Correct);
    p.save();
    p.reset();
    const ProgressStore again(dir.path());
    QVERIFY(!again.visited(QStringLiteral("introduction")));
    QVERIFY(!again.solved(QStringLiteral("b"), QStringLiteral("q")));
    QVERIFY(again.lastLesson().isEmpty());
}

void TestProgress::solved_exercises_per_lesson() {
    const LessonLibrary lib = LessonLibrary::load(QStringLiteral(LOCKSTEP_SOURCE_DIR "/resources"));
    const Lesson& l = *lib.find(QStringLiteral("reductions"));
    QTemporaryDir dir;
    ProgressStore p(dir.path());
    QCOMPARE(p.solvedExercises(l), 0);
    p.recordAttempt(l.exercises[0].bank, l.exercises[0].question, QStringLiteral("3"),
                    Verdict::Correct);
    p.recordAttempt(l.exercises[1].bank, l.exercises[1].question, QStringLiteral("3"),
                    Verdict::Wrong);
    QCOMPARE(p.solvedExercises(l), 1);
}

QTEST_GUILESS_MAIN(TestProgress)
#include "test_progress.moc"
