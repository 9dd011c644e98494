// The projector's window of a class quiz, in the lab: where to join, the names as typed, the
// live count, the histogram, the engine's working, the replay in the lab and the scores.
#include "class/class_window.h"
#include "lab/main_window.h"

#include "lockstep_lessons/lesson.h"

#include "test_support.h"

#include <QApplication>
#include <QCheckBox>
#include <QComboBox>
#include <QFile>
#include <QLabel>
#include <QListWidget>
#include <QMessageBox>
#include <QPushButton>
#include <QSignalSpy>
#include <QTableWidget>
#include <QTemporaryDir>
#include <QTest>
#include <QTimer>

using namespace lockstep;
using namespace lockstep::classroom;

namespace {

lessons::QuizBank bank(const QString& id) {
    return lessons::LessonLibrary::load(testing::resources()).load_bank_named(id);
}

QByteArray join(ClassQuiz& quiz, const QString& name, int n) {
    QByteArray token;
    QString display;
    const auto refused =
        quiz.join(quiz.code(), name, QStringLiteral("127.0.0.%1").arg(n), 0, token, display);
    return refused ? QByteArray() : token;
}

int student_of(ClassQuiz& quiz, const QByteArray& token) {
    int who = -1;
    (void)quiz.authorise(token, 0, who);
    return who;
}

QString answer(ClassQuiz& quiz, const QByteArray& token, const QString& text) {
    QJsonObject reply;
    const auto r = quiz.answer(student_of(quiz, token), quiz.current_question()->id, text, reply);
    return r ? r->message : QString();
}

// Clicks the window's Remove button, from the event loop (it may ask before it removes).
void click_remove(app::ClassWindow& w) {
    QMetaObject::invokeMethod(&w, [&w] {
        for (QPushButton* b : w.findChildren<QPushButton*>())
            if (b->text().contains("Remove"))
                b->click();
    });
}

} // namespace

class TestClassWindow : public QObject {
    Q_OBJECT

private Q_SLOTS:
    // The window's journal goes to the data folder: a temporary one here.
    void initTestCase() { qputenv("XDG_DATA_HOME", data_.path().toUtf8()); }

    void the_projector_follows_the_quiz() {
        app::ClassWindow w(bank("reductions"), {0, 1}, 0, {QHostAddress(QHostAddress::LocalHost)});
        w.resize(1280, 800);
        w.show();
        ClassQuiz& quiz = w.quiz();
        const QString url = QStringLiteral("http://127.0.0.1:%1/").arg(w.port());
        QVERIFY(w.joinLabel()->text().contains(url));
        QCOMPARE(w.qrCode()->accessibleDescription(), url);
        // Names as typed, never as HTML.
        const QByteArray ana = join(quiz, QStringLiteral("<b>Ana</b>"), 1);
        const QByteArray ben = join(quiz, QStringLiteral("Ben"), 2);
        const QByteArray cy = join(quiz, QStringLiteral("Cy"), 3);
        w.refresh();
        QCOMPARE(w.studentList()->count(), 3);
        // No name is on the projector until the teacher shows names.
        QCOMPARE(w.studentList()->item(0)->text(), QStringLiteral("Student 1"));
        for (QLabel* label : w.findChildren<QLabel*>())
            QVERIFY2(!label->text().contains("Ana"), qPrintable(label->text()));
        w.namesBox()->setChecked(true);
        QVERIFY(quiz.view().names);
        QCOMPARE(w.studentList()->item(0)->text(), QStringLiteral("<b>Ana</b>"));
        for (QLabel* label : w.findChildren<QLabel*>())
            QVERIFY2(label->textFormat() == Qt::PlainText || !label->text().contains("<b>Ana"),
                     qPrintable(label->text()));

        w.advance(); // open
        QCOMPARE(quiz.phase(), Phase::Open);
        // Each change reached the journal before it was made.
        QVERIFY(w.journalPath().startsWith(data_.path()));
        QFile journal(w.journalPath());
        QVERIFY(journal.open(QIODevice::ReadOnly));
        const QByteArray written = journal.readAll();
        QVERIFY(written.startsWith("{\"bank\":\"reductions\""));
        QCOMPARE(written.count("\"t\":\"join\""), 3);
        QVERIFY(written.endsWith("{\"t\":\"move\",\"to\":\"open\"}\n"));
        QVERIFY(w.questionLabel()->isVisible());
        // The projector shows the first student's numbers, and says whose they are.
        QVERIFY(w.questionLabel()->text().contains(quiz.instance("<b>Ana</b>", 0).text));
        QCOMPARE(w.countLabel()->text(), QStringLiteral("0 of 3 answered"));
        QVERIFY(answer(quiz, ana, quiz.instance("<b>Ana</b>", 0).answer_text()).isEmpty());
        const auto& ben_values = quiz.instance("Ben", 0).values;
        QVERIFY(answer(quiz, ben,
                       lessons::format_value(ben_values.value("g0") + ben_values.value("g1")))
                    .isEmpty());
        // The count follows within a redraw (at most ten a second).
        QTRY_COMPARE(w.countLabel()->text(), QStringLiteral("2 of 3 answered"));

        w.advance(); // close
        QVERIFY(w.histogram()->isVisible());
        int right = 0;
        int mistakes = 0;
        for (const Bar& b : w.histogram()->bars()) {
            right += b.kind == "right" ? b.count : 0;
            mistakes += b.kind == "mistake" ? b.count : 0;
        }
        QCOMPARE(right, 1);
        QCOMPARE(mistakes, 1);
        QVERIFY(!answer(quiz, cy, "1").isEmpty()); // closed

        w.advance(); // reveal
        QVERIFY(w.revealLabel()->isVisible());
        LOCKSTEP_VERIFY_CONTAINS(w.revealLabel()->text(), QStringLiteral("lockstep::reduce"));
        LOCKSTEP_VERIFY_CONTAINS(w.revealLabel()->text(),
                                 quiz.instance("<b>Ana</b>", 0).answer_text());
        QSignalSpy replay(&w, &app::ClassWindow::replayRequested);
        QVERIFY(w.replayButton()->isEnabled());
        w.replayButton()->click();
        QCOMPARE(replay.count(), 1);
        QCOMPARE(replay.at(0).at(0).toString(), QStringLiteral("lockstep:set?workers=2&rule=mean"));
        w.grab().save(testing::screenshot_path(QStringLiteral("class-projector.png")));

        w.advance(); // next
        QCOMPARE(quiz.current(), 1);
        w.advance();
        w.advance();
        w.advance(); // the scores
        QCOMPARE(quiz.phase(), Phase::Finished);
        QVERIFY(w.scoreTable()->isVisible());
        // Without the ranking: how many got each score, best first, and no name.
        QCOMPARE(w.scoreTable()->rowCount(), 2);
        QCOMPARE(w.scoreTable()->item(0, 0)->text(), QStringLiteral("1 student"));
        QCOMPARE(w.scoreTable()->item(0, 1)->text(), QStringLiteral("1 / 2"));
        QCOMPARE(w.scoreTable()->item(1, 0)->text(), QStringLiteral("2 students"));
        QCOMPARE(w.scoreTable()->item(1, 1)->text(), QStringLiteral("0 / 2"));
        w.rankingBox()->setChecked(true);
        QCOMPARE(w.scoreTable()->rowCount(), 3);
        QCOMPARE(w.scoreTable()->item(0, 0)->text(), QStringLiteral("<b>Ana</b>"));
        QCOMPARE(w.scoreTable()->item(0, 1)->text(), QStringLiteral("1 / 2"));
        QVERIFY(!w.advanceButton()->isEnabled());
        QTemporaryDir dir;
        const QString path = dir.filePath("results.csv");
        QVERIFY(w.exportResults(path));
        QFile f(path);
        QVERIFY(f.open(QIODevice::ReadOnly));
        QCOMPARE(f.readAll().count('\n'), 1 + 3 * 2);
    }

    void the_lobby_can_be_locked_and_a_student_removed() {
        app::ClassWindow w(bank("reductions"), {}, 0, {QHostAddress(QHostAddress::LocalHost)});
        ClassQuiz& quiz = w.quiz();
        join(quiz, "Ana", 1);
        join(quiz, "Ben", 2);
        w.namesBox()->setChecked(true);
        w.studentList()->setCurrentRow(0);
        click_remove(w);
        QTRY_COMPARE(quiz.student_count(), 1);
        QCOMPARE(w.studentList()->count(), 1);
        QCOMPARE(w.studentList()->item(0)->text(), QStringLiteral("Ben"));
        for (QCheckBox* c : w.findChildren<QCheckBox*>())
            c->setChecked(true);
        QVERIFY(quiz.locked());
        QVERIFY(join(quiz, "Cy", 3).isEmpty());
    }

    // The teacher's room in the lab: a timer that counts down and closes the question, skip and
    // back, the histogram hidden, and a flood removed at once.
    void the_teacher_times_skips_and_clears_a_flood() {
        app::ClassWindow w(bank("reductions"), {0, 1, 2}, 0,
                           {QHostAddress(QHostAddress::LocalHost)});
        w.resize(1280, 800);
        w.show();
        ClassQuiz& quiz = w.quiz();
        for (int i = 0; i < 6; ++i)
            join(quiz, QStringLiteral("x%1").arg(i), i + 1);
        join(quiz, QStringLiteral("Real"), 7);
        w.refresh();
        for (int row = 0; row < 6; ++row)
            w.studentList()->item(row)->setSelected(true);
        QTimer::singleShot(0, &w, [] {
            if (auto* box = qobject_cast<QMessageBox*>(QApplication::activeModalWidget()))
                box->button(QMessageBox::Yes)->click();
        });
        click_remove(w);
        QTRY_COMPARE(quiz.student_count(), 1);
        QCOMPARE(w.studentList()->count(), 1);

        w.timerBox()->setCurrentIndex(w.timerBox()->findData(20));
        Q_EMIT w.timerBox()->activated(w.timerBox()->currentIndex());
        QCOMPARE(quiz.timer(), 20);
        QVERIFY(!w.backButton()->isEnabled());
        w.advance(); // open, on the timer
        QTRY_VERIFY(w.phaseLabel()->text().contains("closes in 0:1"));
        // On a 1024x768 projector every control is on the screen.
        w.resize(1024, 768);
        QTRY_VERIFY(w.timerBox()->geometry().bottom() < 768 &&
                    w.skipButton()->geometry().right() < 1024);
        w.grab().save(testing::screenshot_path(QStringLiteral("class-projector-1024.png")));
        w.skipButton()->click();
        QCOMPARE(quiz.current(), 1);
        QCOMPARE(quiz.phase(), Phase::Open);
        w.backButton()->click();
        QCOMPARE(quiz.current(), 0);
        QCOMPARE(quiz.phase(), Phase::Closed);
        QVERIFY(w.histogram()->isVisible());
        w.histogramBox()->setChecked(false);
        QVERIFY(!quiz.view().histogram);
        QVERIFY(!w.histogram()->isVisible());
        QVERIFY(w.revealLabel()->isHidden());
        // A timer of two seconds closes the next question by itself.
        quiz.set_timer(2);
        w.skipButton()->click(); // question 0 stays closed; on to question 1, open again
        QCOMPARE(quiz.phase(), Phase::Open);
        QTRY_COMPARE_WITH_TIMEOUT(quiz.phase(), Phase::Closed, 5000);
        QTRY_VERIFY(!w.phaseLabel()->text().contains("closes in"));
        QTemporaryDir dir;
        QVERIFY(w.exportReports(dir.filePath("reports.html")));
        QFile reports(dir.filePath("reports.html"));
        QVERIFY(reports.open(QIODevice::ReadOnly));
        QCOMPARE(reports.readAll().count("<section>"), 7);
    }

    // The lab goes on with a quiz from its journal after the window (or the lab) went away:
    // the same code, the same students with their tokens and answers, at the same question.
    void the_lab_resumes_a_quiz_from_its_journal() {
        QString journal;
        QString code;
        QByteArray ana;
        {
            app::ClassWindow w(bank("reductions"), {0, 1}, 0,
                               {QHostAddress(QHostAddress::LocalHost)});
            ana = join(w.quiz(), "Ana", 1);
            join(w.quiz(), "Ben", 2);
            w.quiz().set_timer(60);
            w.advance(); // open
            QVERIFY(answer(w.quiz(), ana, "5").isEmpty());
            journal = w.journalPath();
            code = w.quiz().code();
        } // gone, as in a crash: the journal stays
        app::MainWindow lab;
        app::ClassWindow* w =
            lab.resumeClassQuiz(journal, 0, {QHostAddress(QHostAddress::LocalHost)});
        QVERIFY(w);
        QCOMPARE(w->journalPath(), journal);
        ClassQuiz& quiz = w->quiz();
        QCOMPARE(quiz.code(), code);
        QCOMPARE(quiz.student_count(), 2);
        QCOMPARE(quiz.phase(), Phase::Open);
        QCOMPARE(quiz.timer(), 60);
        QCOMPARE(quiz.students()[0].responses.at(0).text, QStringLiteral("5"));
        // Ana's page goes on with her token, and her next change is journaled again.
        QVERIFY(answer(quiz, ana, "6").isEmpty());
        w->advance(); // close
        QFile f(journal);
        QVERIFY(f.open(QIODevice::ReadOnly));
        const QByteArray all = f.readAll();
        QCOMPARE(all.count("\"t\":\"start\""), 1);
        QVERIFY(all.endsWith("{\"t\":\"move\",\"to\":\"close\"}\n"));
        // A journal that is not one is refused, saying so, and no window opens.
        QTemporaryDir dir;
        QFile bad(dir.filePath("bad.journal"));
        QVERIFY(bad.open(QIODevice::WriteOnly));
        bad.write("not a journal\n");
        bad.close();
        delete w;
        QTimer::singleShot(0, &lab, [] {
            if (auto* box = qobject_cast<QMessageBox*>(QApplication::activeModalWidget())) {
                QVERIFY(box->text().contains("bad.journal"));
                box->accept();
            }
        });
        QVERIFY(!lab.resumeClassQuiz(bad.fileName(), 0, {QHostAddress(QHostAddress::LocalHost)}));
    }

    void replay_in_the_lab_plays_the_question_s_run() {
        app::MainWindow lab;
        app::ClassWindow* w = lab.startClassQuiz(QStringLiteral("reductions"), {0}, 0,
                                                 {QHostAddress(QHostAddress::LocalHost)});
        QVERIFY(w);
        QCOMPARE(lab.classWindow(), w);
        QCOMPARE(lab.startClassQuiz(QStringLiteral("reductions"), {}, 0, {}), w); // one at a time
        join(w->quiz(), "Ana", 1);
        w->advance();
        w->advance();
        w->advance();
        w->replayButton()->click();
        QCOMPARE(lab.session().scenario().workers, 2);
        QCOMPARE(lab.session().scenario().rule, ReductionRule::Mean);
    }

private:
    QTemporaryDir data_;
};

QTEST_MAIN(TestClassWindow)
#include "test_class_window.moc"
