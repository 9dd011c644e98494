#include "lab/controls_panel.h"
#include "lab/lesson_pane.h"
#include "lab/main_window.h"

#include "lockstep_lessons/lesson.h"
#include "lockstep_views/timeline_view.h"

#include <QAbstractButton>
#include <QAbstractSpinBox>
#include <QApplication>
#include <QComboBox>
#include <QFile>
#include <QFontInfo>
#include <QPushButton>
#include <QScreen>
#include <QStatusBar>
#include <QTemporaryDir>
#include <QTextBrowser>
#include <QtTest>

using lockstep::app::MainWindow;

namespace {

// Two projectors side by side: the screens a class most often gets.
const char* kScreens = R"({"windowFrameMargins": false, "screens": [
  {"name": "xga", "x": 0, "y": 0, "width": 1024, "height": 768, "logicalDpi": 96,
   "logicalBaseDpi": 96, "dpr": 1},
  {"name": "hd", "x": 1024, "y": 0, "width": 1280, "height": 720, "logicalDpi": 96,
   "logicalBaseDpi": 96, "dpr": 1}]})";

// Whether all of `widget` (or its `part`) can be seen inside `window`.
bool whole(const QWidget* widget, const QWidget* window, QRect part = {}) {
    if (part.isNull())
        part = widget->rect();
    const QRect in_window(widget->mapTo(window, part.topLeft()), part.size());
    return widget->isVisible() && !part.isEmpty() &&
           widget->visibleRegion().intersected(part) == QRegion(part) &&
           window->rect().contains(in_window);
}

QScreen* screen_named(const QString& name) {
    for (QScreen* s : QGuiApplication::screens())
        if (s->name() == name)
            return s;
    return nullptr;
}

// The stragglers lesson with eight workers, run to its end: the most lanes a lesson shows.
void open_with_eight_workers(MainWindow& window) {
    window.setHeadless(true);
    QVERIFY(window.openLesson(QStringLiteral("stragglers"), nullptr, false));
    lockstep::Scenario s = window.session().scenario();
    s.workers = 8;
    s.delays.slowdown.assign(8, 1.0);
    QVERIFY(window.session().rerun(s));
    window.playback().scrubTo(window.traceIndex().end_time() / 2);
    QCOMPARE(window.traceIndex().workers(), 8);
}

// Every control of the Controls pane that is shown is whole in the window.
void controls_whole(MainWindow& window) {
    for (QWidget* w : window.controls()->findChildren<QWidget*>()) {
        if (!w->isVisibleTo(window.controls()) ||
            !(qobject_cast<QAbstractButton*>(w) || qobject_cast<QAbstractSpinBox*>(w) ||
              qobject_cast<QComboBox*>(w)))
            continue;
        QVERIFY2(whole(w, &window),
                 qPrintable(QStringLiteral("%1 “%2” is cut off")
                                .arg(QString::fromLatin1(w->metaObject()->className()),
                                     w->accessibleName())));
    }
}

} // namespace

// The window on a projector's screen: where it opens, presentation mode in and out, every lane
// readable, the text large enough for the back of the room, nothing cut off.
class TestProjector : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void initTestCase();
    void screens_data();
    void opens_within_the_screen_data() { screens_data(); }
    void opens_within_the_screen();
    void presentation_mode_in_and_out_data() { screens_data(); }
    void presentation_mode_in_and_out();
    void the_largest_text_is_readable_data() { screens_data(); }
    void the_largest_text_is_readable();
    void the_place_is_remembered_per_screen();
};

void TestProjector::initTestCase() {
    QStandardPaths::setTestModeEnabled(true);
    QFile::remove(lockstep::lessons::settings_file()); // no place or text size from before
}

void TestProjector::screens_data() {
    QTest::addColumn<QString>("screen");
    QTest::newRow("1024x768") << QStringLiteral("xga");
    QTest::newRow("1280x720") << QStringLiteral("hd");
}

void TestProjector::opens_within_the_screen() {
    QFETCH(QString, screen);
    QScreen* here = screen_named(screen);
    QVERIFY(here);
    MainWindow window;
    window.placeOnScreen(here);
    window.show();
    QVERIFY(QTest::qWaitForWindowExposed(&window));
    QTRY_VERIFY(here->availableGeometry().contains(window.frameGeometry()));
    QCOMPARE(window.screen(), here);
    QTRY_COMPARE(window.size(), here->availableGeometry().size());
    controls_whole(window);
    QVERIFY(whole(window.controls()->runButton(), &window));
    QVERIFY(whole(window.timelineView(), &window));
}

void TestProjector::presentation_mode_in_and_out() {
    QFETCH(QString, screen);
    QScreen* here = screen_named(screen);
    MainWindow window;
    window.placeOnScreen(here);
    window.show();
    QVERIFY(QTest::qWaitForWindowExposed(&window));
    open_with_eight_workers(window);
    QTRY_COMPARE(window.size(), here->availableGeometry().size());
    const QRect before = window.geometry();

    QTest::keyClick(&window, Qt::Key_F11);
    QVERIFY(window.presentationMode());
    QTRY_COMPARE(window.geometry(), here->geometry());
    QTRY_VERIFY(window.isFullScreen());
    QApplication::processEvents();
    // Every lane of the eight at least 18 px tall and whole on the screen; the status bar too.
    auto* timeline = window.timelineView();
    QTRY_VERIFY2(timeline->laneRect(7).height() >= 18,
                 qPrintable(QStringLiteral("%1 px a lane").arg(timeline->laneRect(7).height())));
    for (int lane = 0; lane < 8; ++lane) {
        const QRect r = timeline->laneRect(lane).toAlignedRect();
        QVERIFY2(r.height() >= 18,
                 qPrintable(QStringLiteral("lane %1: %2 px").arg(lane).arg(r.height())));
        QVERIFY2(whole(timeline, &window, r), qPrintable(QStringLiteral("lane %1").arg(lane)));
    }
    QVERIFY(window.minimumSizeHint().height() <= here->geometry().height());
    QVERIFY(whole(window.statusBar(), &window));

    QTest::keyClick(&window, Qt::Key_F11);
    QVERIFY(!window.presentationMode());
    QTRY_VERIFY(!window.isFullScreen());
    QTRY_COMPARE(window.geometry(), before);
    QVERIFY(here->availableGeometry().contains(window.frameGeometry()));
}

void TestProjector::the_largest_text_is_readable() {
    QFETCH(QString, screen);
    QScreen* here = screen_named(screen);
    MainWindow window;
    window.placeOnScreen(here);
    window.show();
    QVERIFY(QTest::qWaitForWindowExposed(&window));
    QVERIFY(window.openLesson(QStringLiteral("stragglers"), nullptr, false));
    window.runToCompletion();
    window.setTextSize(0);
    const auto normal_again = qScopeGuard([&window] { window.setTextSize(0); });
    const int normal = QFontInfo(window.lessonPane()->page()->font()).pixelSize();
    for (int i = 0; i < MainWindow::kTextSizes + 2; ++i)
        QTest::keyClick(&window, Qt::Key_Equal, Qt::ControlModifier);
    QCOMPARE(window.textSize(), MainWindow::kTextSizes - 1);
    QApplication::processEvents();
    const int large = QFontInfo(window.lessonPane()->page()->font()).pixelSize();
    QVERIFY2(large >= 20, qPrintable(QStringLiteral("%1 px").arg(large)));
    QVERIFY(large > normal);
    QVERIFY(whole(window.lessonPane()->page()->viewport(), &window));
    // Nothing pushed off the screen, every lane readable, and the Controls within reach: beside
    // or under the views, or a tab beside the lesson.
    QTRY_VERIFY(window.minimumSizeHint().height() <= here->availableGeometry().height());
    QTRY_COMPARE(window.size(), here->availableGeometry().size());
    auto* timeline = window.timelineView();
    QTRY_VERIFY2(timeline->laneRect(3).height() >= 18,
                 qPrintable(QStringLiteral("%1 px a lane").arg(timeline->laneRect(3).height())));
    QVERIFY(whole(timeline, &window, timeline->laneRect(3).toAlignedRect()));
    QVERIFY(window.controls()->isVisible() ||
            window.controls()->parentWidget()->parentWidget()->isVisibleTo(&window));
    QTest::keyClick(&window, Qt::Key_0, Qt::ControlModifier);
    QCOMPARE(window.textSize(), 0);
    QTRY_COMPARE(QFontInfo(window.lessonPane()->page()->font()).pixelSize(), normal);
}

void TestProjector::the_place_is_remembered_per_screen() {
    QScreen* xga = screen_named(QStringLiteral("xga"));
    QScreen* hd = screen_named(QStringLiteral("hd"));
    const QRect chosen(QPoint(1024 + 40, 30), QSize(1100, 650));
    {
        MainWindow window;
        window.placeOnScreen(hd);
        window.show();
        QVERIFY(QTest::qWaitForWindowExposed(&window));
        window.showNormal();
        window.setGeometry(chosen);
        QTRY_COMPARE(window.geometry(), chosen);
        window.close();
    }
    {
        MainWindow window;
        window.placeOnScreen(hd);
        window.show();
        QVERIFY(QTest::qWaitForWindowExposed(&window));
        QTRY_COMPARE(window.geometry(), chosen);
        QVERIFY(!window.isMaximized());
    }
    {
        // Another screen has its own place: the whole of it.
        MainWindow window;
        window.placeOnScreen(xga);
        window.show();
        QVERIFY(QTest::qWaitForWindowExposed(&window));
        QTRY_COMPARE(window.size(), xga->availableGeometry().size());
    }
}

int main(int argc, char** argv) {
    QTemporaryDir dir;
    const QString config = dir.filePath(QStringLiteral("screens.json"));
    QFile file(config);
    if (!file.open(QIODevice::WriteOnly) || file.write(kScreens) < 0)
        return 2;
    file.close();
    qputenv("QT_QPA_PLATFORM", ("offscreen:configfile=" + config).toLocal8Bit());
    QApplication app(argc, argv);
    TestProjector test;
    return QTest::qExec(&test, argc, argv);
}

#include "test_projector.moc"
