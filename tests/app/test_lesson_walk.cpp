#include "lesson_pane.h"
#include "main_window.h"

#include "lockstep_lessons/action.h"
#include "lockstep_lessons/lesson.h"

#include "test_support.h"

#include <QDockWidget>
#include <QPainter>
#include <QRegularExpression>
#include <QStatusBar>
#include <QtTest>

using lockstep::Ticks;
using lockstep::app::MainWindow;
namespace lessons = lockstep::lessons;

namespace {

enum class Where { Start, Middle, End };

// Where the playhead stands when the link is clicked: before the first step, in the middle of
// the run, or at the end of the finished run.
void place(MainWindow& window, Where where) {
    const Ticks end = window.traceIndex().end_time();
    window.playback().pause();
    window.playback().scrubTo(where == Where::Start ? 0 : where == Where::Middle ? end / 2 : end);
}

// What the class sees of the lab: the views, the lesson pane and its tools.
QImage picture(MainWindow& window) {
    QImage views = window.centralWidget()->grab().toImage();
    const QImage pane = window.lessonPane()->grab().toImage();
    QImage both(views.width() + pane.width(), std::max(views.height(), pane.height()),
                QImage::Format_RGB32);
    both.fill(Qt::black);
    QPainter p(&both);
    p.drawImage(0, 0, views);
    p.drawImage(views.width(), 0, pane);
    return both;
}

// A status line in a student's words: no link syntax, no parameter lists.
bool plain_words(const QString& text) {
    static const QRegularExpression syntax(QStringLiteral("lockstep:|[a-z_]+=[^ ]|&[a-z_]+="));
    return !text.trimmed().isEmpty() && !syntax.match(text).hasMatch();
}

// The run, its changes and any work started beside it (a sweep, a comparison, a study) done.
bool settled(MainWindow& window) {
    return window.session().runComplete() && !window.speedupPending();
}

} // namespace

// Every shipped lesson opened in the real window at 1280x720, every link of its page followed in
// page order with the playhead at the start, in the middle and at the end of the run: each
// link changes what the class sees, and the status line says what happened in plain words.
class TestLessonWalk : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void every_link_shows_its_effect_data();
    void every_link_shows_its_effect();
};

void TestLessonWalk::every_link_shows_its_effect_data() {
    QTest::addColumn<QString>("lesson");
    QTest::addColumn<int>("where");
    MainWindow window;
    for (const lessons::Lesson& l : window.lessonPane()->library().lessons()) {
        if (l.own)
            continue;
        for (const auto& [name, where] :
             {std::pair{"start", Where::Start}, std::pair{"middle", Where::Middle},
              std::pair{"end", Where::End}})
            QTest::newRow(qPrintable(l.id + QLatin1Char(' ') + QLatin1String(name)))
                << l.id << static_cast<int>(where);
    }
}

void TestLessonWalk::every_link_shows_its_effect() {
    QFETCH(QString, lesson);
    QFETCH(int, where);
    MainWindow window;
    window.resize(1280, 720);
    window.show();
    QVERIFY(QTest::qWaitForWindowExposed(&window));
    window.activateWindow(); // a focused field shows its frame and cursor, as on a desktop
    QVERIFY(QTest::qWaitForWindowActive(&window));
    // Every run and change goes to its end at once (the pictures are the same as when the
    // engine streams them in), so the walk takes seconds, not the runs' playing time; the
    // playback is the window's.
    window.session().setInlineRuns(true);
    QVERIFY(window.openLesson(lesson, nullptr, false));
    window.runToCompletion();
    QTRY_VERIFY_WITH_TIMEOUT(settled(window), 30000);
    const lessons::Lesson* l = window.lessonPane()->currentLesson();
    QVERIFY(l);
    QStringList seen;
    for (const lessons::Link& link : lessons::extract_links(l->markdown)) {
        if (!lessons::is_action_link(link.url) || seen.contains(link.url))
            continue;
        seen << link.url;
        const lessons::Action action = lessons::parse_action(link.url);
        const QString what = QStringLiteral("%1 at %2: %3").arg(lesson).arg(where).arg(link.url);
        place(window, static_cast<Where>(where));
        QApplication::processEvents();
        window.statusBar()->clearMessage();
        const QImage before = picture(window);
        QVERIFY2(window.lessonPane()->activateLink(link.url), qPrintable(what));
        if (action.kind == lessons::ActionKind::View) {
            // A view link brings its view in front: it is there to be seen.
            QWidget* v = window.view(action.text(QStringLiteral("name")));
            QVERIFY2(v && v->isVisible() && !v->visibleRegion().isEmpty(), qPrintable(what));
        } else {
            if (!QTest::qWaitFor([&] { return picture(window) != before; }, 30000)) {
                // What the class saw, for whoever mends it (LOCKSTEP_SCREENSHOT_DIR).
                const QString name = QStringLiteral("walk-%1-%2").arg(lesson).arg(where);
                before.save(lockstep::testing::screenshot_path(name + QStringLiteral(".png")));
                QFAIL(qPrintable(what + QStringLiteral(": nothing changed on screen")));
            }
        }
        const QString status = window.statusBar()->currentMessage();
        QVERIFY2(status.isEmpty() || plain_words(status),
                 qPrintable(what + QStringLiteral(" → ") + status));
        // The next link meets a finished run, as a class that waited would.
        window.playback().pause();
        QTRY_VERIFY2_WITH_TIMEOUT(
            settled(window),
            qPrintable(what + QStringLiteral(" (run complete: %1, speedup pending: %2)")
                                  .arg(window.session().runComplete())
                                  .arg(window.speedupPending())),
            60000);
    }
}

QTEST_MAIN(TestLessonWalk)
#include "test_lesson_walk.moc"
