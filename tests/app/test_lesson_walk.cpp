#include "lab/lesson_pane.h"
#include "lab/main_window.h"
#include "lab/study_panel.h"
#include "lab/worked_example_panel.h"

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

// The views a link is about, as the class sees them: the one it names (a view link, the
// Pipeline view for a pipeline, the Training view for a comparison), the lesson pane's exercise
// or tool for the pane's own links, and for every link that changes the run the lesson's views
// that are on screen. The lesson pane's page is never among them: a visited link changing
// colour is not the effect.
QList<QWidget*> named_views(MainWindow& window, const lessons::Action& action,
                            const lessons::Lesson& lesson) {
    using lessons::ActionKind;
    QList<QWidget*> out;
    switch (action.kind) {
    case ActionKind::View:
        out << window.view(action.text(QStringLiteral("name")));
        return out;
    case ActionKind::Quiz:
        out << window.lessonPane()->findChild<QWidget*>(QStringLiteral("exercises"));
        return out;
    case ActionKind::Calculator:
        out << window.lessonPane()->calculator();
        return out;
    case ActionKind::Study:
        out << window.lessonPane()->study();
        return out;
    case ActionKind::Pipeline:
        out << window.view(QStringLiteral("pipeline"));
        break;
    case ActionKind::Compare:
        out << window.view(QStringLiteral("training"));
        break;
    default:
        break;
    }
    for (const QString& name : lesson.views)
        if (QWidget* v = window.view(name); v && !out.contains(v))
            out << v;
    return out;
}

// Those views' pixels, as far as they are on screen (a view in a hidden tab shows nothing).
QImage picture(const QList<QWidget*>& views) {
    QList<QImage> shots;
    int width = 0, height = 0;
    for (QWidget* v : views) {
        if (!v || !v->isVisible() || v->visibleRegion().isEmpty())
            continue;
        shots << v->grab().toImage();
        width += shots.back().width();
        height = std::max(height, shots.back().height());
    }
    QImage all(std::max(width, 1), std::max(height, 1), QImage::Format_RGB32);
    all.fill(Qt::black);
    QPainter p(&all);
    int x = 0;
    for (const QImage& shot : shots) {
        p.drawImage(x, 0, shot);
        x += shot.width();
    }
    return all;
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
// link changes the pixels of the view it names (named_views()), and the status line says what
// happened, always, in plain words.
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
        const QList<QWidget*> views = named_views(window, action, *l);
        const QImage before = picture(views);
        QVERIFY2(window.lessonPane()->activateLink(link.url), qPrintable(what));
        if (action.kind == lessons::ActionKind::View) {
            // A view link brings its view in front: it is there to be seen, whole.
            QWidget* v = views.front();
            QVERIFY2(v && v->isVisible() && !v->visibleRegion().isEmpty(), qPrintable(what));
            QVERIFY2(v->visibleRegion().boundingRect().size() == v->size(), qPrintable(what));
        } else {
            if (!QTest::qWaitFor([&] { return picture(views) != before; }, 30000)) {
                // What the class saw, for whoever mends it (LOCKSTEP_SCREENSHOT_DIR).
                const QString name = QStringLiteral("walk-%1-%2").arg(lesson).arg(where);
                before.save(lockstep::testing::screenshot_path(name + QStringLiteral(".png")));
                QFAIL(qPrintable(what + QStringLiteral(": nothing changed in the view it names")));
            }
        }
        // Every link says what it did, in a student's words.
        QTRY_VERIFY2_WITH_TIMEOUT(plain_words(window.statusBar()->currentMessage()),
                                  qPrintable(what + QStringLiteral(" → “") +
                                             window.statusBar()->currentMessage() +
                                             QStringLiteral("”")),
                                  5000);
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
