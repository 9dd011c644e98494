// Teacher mode: entered with the teacher's PIN only, kept hashed in the settings; the lock, the
// answers, resetting a student and the worksheets live there, not in the student's pane. Students'
// profiles switch from the lesson pane, and presentation mode keeps the page's links at hand.

#include "lab/lesson_pane.h"
#include "lab/main_window.h"
#include "lab/teacher_lock.h"
#include "view_test_support.h"

#include "lockstep_lessons/lesson.h"
#include "lockstep_lessons/profiles.h"

#include <QCheckBox>
#include <QComboBox>
#include <QDir>
#include <QFile>
#include <QGroupBox>
#include <QLabel>
#include <QSettings>
#include <QStandardPaths>
#include <QTemporaryDir>
#include <QTextBrowser>
#include <QToolBar>
#include <QtTest>

#include <algorithm>

using lockstep::app::MainWindow;
using lockstep::app::TeacherLock;

class TestTeacherMode : public QObject {
    Q_OBJECT

private Q_SLOTS:
    void initTestCase() {
        QStandardPaths::setTestModeEnabled(true);
        QDir(QStandardPaths::writableLocation(QStandardPaths::AppDataLocation)).removeRecursively();
        QDir(QStandardPaths::writableLocation(QStandardPaths::AppConfigLocation))
            .removeRecursively();
        qputenv("LOCKSTEP_RESOURCES", LOCKSTEP_SOURCE_DIR "/resources");
        QFile::remove(lockstep::lessons::settings_file());
        QDir(lockstep::lessons::own_lessons_dir()).removeRecursively();
    }

    // The PIN is never written down: the settings hold a salted hash that differs each time.
    void the_pin_is_stored_hashed() {
        QTemporaryDir dir;
        const QString path = dir.filePath(QStringLiteral("settings.ini"));
        QString first;
        {
            QSettings settings(path, QSettings::IniFormat);
            TeacherLock lock(settings);
            QVERIFY(!lock.hasPin());
            QVERIFY(!lock.check(QStringLiteral("2468")));
            QVERIFY(!lock.setPin(QStringLiteral("12")));   // too short
            QVERIFY(!lock.setPin(QStringLiteral("12ab"))); // not digits
            QVERIFY(!lock.hasPin());
            QVERIFY(lock.setPin(QStringLiteral("246813")));
            first = settings.value(QStringLiteral("teacher/pin")).toString();
        }
        QFile f(path);
        QVERIFY(f.open(QIODevice::ReadOnly));
        const QByteArray stored = f.readAll();
        QVERIFY(!stored.contains("246813"));
        QVERIFY(stored.contains("sha256x20000$"));
        QSettings settings(path, QSettings::IniFormat);
        TeacherLock lock(settings);
        QVERIFY(lock.hasPin());
        QVERIFY(lock.check(QStringLiteral("246813")));
        QVERIFY(!lock.check(QStringLiteral("246814")));
        QVERIFY(!lock.check(QString()));
        // The same PIN set again is stored differently (a new salt).
        QVERIFY(lock.setPin(QStringLiteral("246813")));
        QVERIFY(settings.value(QStringLiteral("teacher/pin")).toString() != first);
        QVERIFY(lock.check(QStringLiteral("246813")));
    }

    // The student's pane has no lock; the PIN opens teacher mode, a wrong one does not, and the
    // lock stays on when the teacher leaves.
    void the_pin_is_needed_to_unlock() {
        MainWindow window;
        window.resize(1600, 1000);
        window.show();
        QVERIFY(window.openLesson(QStringLiteral("reductions"), nullptr, false));
        auto* pane = window.lessonPane();
        auto* lock = pane->findChild<QCheckBox*>(QStringLiteral("lock"));
        auto* teacher = pane->findChild<QGroupBox*>(QStringLiteral("teacher"));
        QVERIFY(lock && teacher);
        QVERIFY(!lock->isVisible());
        QVERIFY(!pane->teacherMode());
        if (!window.teacherLock().hasPin())
            QVERIFY(window.enterTeacherMode(QStringLiteral("8642"))); // the first use sets it
        pane->setTeacherMode(false);
        QVERIFY(!window.enterTeacherMode(QStringLiteral("1111")));
        QVERIFY(!pane->teacherMode());
        QVERIFY(!lock->isVisible());
        QVERIFY(window.enterTeacherMode(QStringLiteral("8642")));
        QVERIFY(lock->isVisible());
        QVERIFY(window.grab().save(lockstep::testing::screenshot_path("teacher_mode.png")));
        lock->setChecked(true);
        pane->setTeacherMode(false);
        QVERIFY(!lock->isVisible());
        QVERIFY(pane->teacherLock()); // still locked for the students
        // The settings file does not hold the PIN.
        QFile f(lockstep::lessons::settings_file());
        QVERIFY(f.open(QIODevice::ReadOnly));
        const QByteArray stored = f.readAll();
        QVERIFY(stored.contains("sha256x20000$"));
        QVERIFY(!stored.contains("8642"));
    }

    // Two students at one computer: the second does not inherit the first one's marks, and a
    // worksheet has a page for each of them.
    void students_switch_in_the_pane() {
        QTemporaryDir out;
        {
            MainWindow window;
            window.show();
            QVERIFY(window.openLesson(QStringLiteral("reductions"), nullptr, false));
            auto* pane = window.lessonPane();
            QVERIFY(pane->chooseStudent(QStringLiteral("Ana")));
            QVERIFY(
                pane->selectExercise(QStringLiteral("reductions"), QStringLiteral("which-rule")));
            QCOMPARE(pane->answer(QStringLiteral("c")).verdict,
                     lockstep::lessons::Verdict::Correct);
            QVERIFY(pane->progress()->solved(QStringLiteral("reductions"),
                                             QStringLiteral("which-rule")));
            QVERIFY(pane->chooseStudent(QStringLiteral("Bo")));
            QCOMPARE(pane->student(), QStringLiteral("Bo"));
            QVERIFY(!pane->progress()->solved(QStringLiteral("reductions"),
                                              QStringLiteral("which-rule")));
            auto* students = pane->findChild<QComboBox*>();
            for (auto* box : pane->findChildren<QComboBox*>())
                if (box->accessibleName() == QStringLiteral("Student"))
                    students = box;
            QVERIFY(students->findText(QStringLiteral("Ana")) >= 0);
            QVERIFY(students->findText(QStringLiteral("Bo")) >= 0);
            QCOMPARE(students->currentText(), QStringLiteral("Bo"));
            QVERIFY(pane->chooseStudent(QStringLiteral("Ana")));
            QVERIFY(pane->progress()->solved(QStringLiteral("reductions"),
                                             QStringLiteral("which-rule")));
            const QString sheet = pane->printWorksheets(out.filePath(QStringLiteral("w.pdf")));
            QCOMPARE(sheet, out.filePath(QStringLiteral("w.pdf")));
            QFile pdf(sheet);
            QVERIFY(pdf.open(QIODevice::ReadOnly));
            const lockstep::lessons::ProfileBook book(
                QStandardPaths::writableLocation(QStandardPaths::AppDataLocation));
            QCOMPARE(static_cast<int>(pdf.readAll().count("/Type /Page\n")),
                     static_cast<int>(book.names().size()));
            QVERIFY(QFile::exists(out.filePath(QStringLiteral("w-key.pdf"))));
        }
        // After a restart the last student comes back.
        MainWindow again;
        QCOMPARE(again.lessonPane()->student(), QStringLiteral("Ana"));
    }

    // Presentation mode hides the page; a strip keeps its links, and a click on one acts.
    void presentation_keeps_the_pages_links() {
        MainWindow window;
        window.resize(1600, 1000);
        window.show();
        QVERIFY(window.openLesson(QStringLiteral("stragglers"), nullptr, false));
        QToolBar* strip = window.lessonLinksBar();
        QVERIFY(!strip->isVisible());
        window.setPresentationMode(true);
        QVERIFY(strip->isVisible());
        QVERIFY(!window.lessonPane()->isVisible());
        QAction* slow = nullptr;
        for (QAction* a : strip->actions())
            if (a->toolTip().startsWith(QStringLiteral("lockstep:slow")))
                slow = a;
        QVERIFY(slow);
        window.runToCompletion();
        const auto before = window.session().scenario().delays.slowdown;
        slow->trigger();
        QTRY_VERIFY_WITH_TIMEOUT(window.session().scenario().delays.slowdown != before ||
                                     window.controller().canUndo(),
                                 30000);
        QVERIFY(window.grab().save(lockstep::testing::screenshot_path("presentation_links.png")));
        window.setPresentationMode(false);
        QVERIFY(!strip->isVisible());
    }

    // A teacher's own lessons folder, chosen in the File menu: its lessons join the contents at
    // once, after the shipped ones, open like them, and are there again at the next start.
    void own_lessons_folder_adds_lessons_at_once() {
        QTemporaryDir folder;
        const QString lesson = folder.filePath(QStringLiteral("our-slow-worker"));
        QVERIFY(QDir().mkpath(lesson));
        QFile json(lesson + QStringLiteral("/lesson.json"));
        QVERIFY(json.open(QIODevice::WriteOnly));
        json.write(
            R"({"id": "our-slow-worker", "title": "Our slow worker", "summary": "A straggler.",
                       "syllabus": [4], "scenario": "straggler.json", "views": ["timeline"],
                       "exercises": [{"bank": "reductions", "question": "mean-two-workers"}]})");
        json.close();
        QFile page(lesson + QStringLiteral("/page.md"));
        QVERIFY(page.open(QIODevice::WriteOnly));
        page.write("# Our slow worker\n\nWorker 2 is slow. [Play it](lockstep:play)\n");
        page.close();

        const int shipped = [] {
            MainWindow window;
            return static_cast<int>(window.lessonPane()->library().lessons().size());
        }();
        QCOMPARE(shipped, 17);
        {
            MainWindow window;
            window.resize(1600, 1000);
            window.show();
            QCOMPARE(window.useOwnLessonsFolder(folder.path()), 1);
            auto* contents = window.lessonPane()->findChild<QComboBox*>();
            QVERIFY(contents);
            QStringList items;
            for (int i = 0; i < contents->count(); ++i)
                items << contents->itemText(i);
            QVERIFY2(items.contains(QStringLiteral("18. Our slow worker · your own")) ||
                         std::any_of(items.begin(), items.end(),
                                     [](const QString& t) {
                                         return t.startsWith(
                                                    QStringLiteral("18. Our slow worker")) &&
                                                t.endsWith(QStringLiteral("your own"));
                                     }),
                     qPrintable(items.join(QLatin1Char('|'))));
            QVERIFY(window.openLesson(QStringLiteral("our-slow-worker"), nullptr, false));
            QVERIFY(window.lessonPane()->page()->toPlainText().contains(
                QStringLiteral("Worker 2 is slow")));
            QCOMPARE(window.lessonPane()->currentLesson()->scenario.name,
                     QStringLiteral("straggler").toStdString());
        }
        {
            MainWindow window; // the next start: the folder was kept in the settings
            QCOMPARE(static_cast<int>(window.lessonPane()->library().lessons().size()),
                     shipped + 1);
            QVERIFY(window.lessonPane()->library().lessons().back().own);
            QCOMPARE(window.useOwnLessonsFolder(QString()), 0); // back to the default, empty
            QCOMPARE(static_cast<int>(window.lessonPane()->library().lessons().size()), shipped);
        }
    }
};

QTEST_MAIN(TestTeacherMode)
#include "test_teacher_mode.moc"
