#include "lab/controls_panel.h"
#include "lab/lesson_pane.h"
#include "lab/main_window.h"

#include "lockstep_views/timeline_view.h"

#include <QApplication>
#include <QFile>
#include <QGroupBox>
#include <QImage>
#include <QProcess>
#include <QPushButton>
#include <QScreen>
#include <QTabWidget>
#include <QTemporaryDir>
#include <QTextBrowser>
#include <QtTest>

using lockstep::app::MainWindow;

namespace {

QString source_path(const char* relative) {
    return QStringLiteral(LOCKSTEP_SOURCE_DIR "/") + QLatin1String(relative);
}

// Where `widget` is in the window, and whether all of it can be seen there: inside the window,
// shown, not covered or cut off by a scroll area or splitter it sits in.
struct Placement {
    QRect in_window;
    bool whole = false;
};

Placement place(const QWidget* widget, const QWidget* window, QRect part = {}) {
    if (part.isNull())
        part = widget->rect();
    Placement p;
    p.in_window = QRect(widget->mapTo(window, part.topLeft()), part.size());
    p.whole = widget->isVisible() && !part.isEmpty() &&
              widget->visibleRegion().intersected(part) == QRegion(part);
    return p;
}

QImage same_format(const QImage& image) {
    return image.convertToFormat(QImage::Format_RGB32);
}

// A window of exactly `size` with the straggler scenario or a lesson, run to the end, the
// playhead at the end, as the headless picture is made.
void show_at(MainWindow& window, const QString& lesson, QSize size) {
    if (lesson.isEmpty())
        QVERIFY(
            window.openScenario(source_path("resources/scenarios/straggler.json"), nullptr, true));
    else
        QVERIFY(window.openLesson(lesson, nullptr, false));
    window.resize(size);
    window.show();
    QVERIFY(QTest::qWaitForWindowExposed(&window));
    window.runToCompletion();
    window.playback().scrubTo(window.traceIndex().end_time());
    QApplication::processEvents();
    QApplication::processEvents();
}

// The offscreen platform with two screens side by side, a monitor and a projector, so the test can
// tell whether presentation mode fills the screen the window is on.
const char* kScreens = R"({"windowFrameMargins": false, "screens": [
  {"name": "monitor", "x": 0, "y": 0, "width": 1920, "height": 1080, "logicalDpi": 96,
   "logicalBaseDpi": 96, "dpr": 1},
  {"name": "projector", "x": 1920, "y": 0, "width": 1024, "height": 768, "logicalDpi": 96,
   "logicalBaseDpi": 96, "dpr": 1}]})";

} // namespace

// The window at the sizes of the screens in front of a class: everything a teacher needs to
// reach is in the picture, whole, at 1024x768 and up.
class TestWindowSizes : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void initTestCase();
    void everything_needed_is_in_the_window_data();
    void everything_needed_is_in_the_window();
    void headless_picture_has_the_size_asked_for_data();
    void headless_picture_has_the_size_asked_for();
    void presentation_mode_fills_the_screen_it_is_on();
    void the_cluster_follows_the_window_size();
};

void TestWindowSizes::initTestCase() {
    QStandardPaths::setTestModeEnabled(true);
}

static void add_sizes() {
    QTest::addColumn<QString>("lesson");
    QTest::addColumn<QSize>("size");
    for (const QSize size : {QSize(1024, 768), QSize(1280, 800), QSize(1920, 1080)}) {
        const QString wxh = QStringLiteral("%1x%2").arg(size.width()).arg(size.height());
        QTest::newRow(qPrintable(QStringLiteral("straggler ") + wxh)) << QString() << size;
        QTest::newRow(qPrintable(QStringLiteral("checkpoints lesson ") + wxh))
            << QStringLiteral("checkpoints") << size;
    }
    // Lessons whose exercises hold long words (a command, a link), on the smallest screen.
    for (const char* lesson : {"sharing-memory", "how-many-bits"})
        QTest::newRow(lesson) << QString::fromLatin1(lesson) << QSize(1024, 768);
}

void TestWindowSizes::everything_needed_is_in_the_window_data() {
    add_sizes();
}

void TestWindowSizes::everything_needed_is_in_the_window() {
    QFETCH(QString, lesson);
    QFETCH(QSize, size);
    MainWindow window;
    show_at(window, lesson, size);
    QCOMPARE(window.size(), size);
    QVERIFY(window.minimumSizeHint().width() <= 1024);
    QVERIFY(window.minimumSizeHint().height() <= 768);
    const QImage picture = window.grab().toImage();
    QCOMPARE(picture.size(), size);
    const QRect frame = window.rect();

    // The Controls: the Run button whole, and its pixels in the window's picture.
    QPushButton* run = window.controls()->runButton();
    const Placement button = place(run, &window);
    QVERIFY2(button.whole, "the Run button is hidden, cut off or scrolled away");
    QVERIFY(frame.contains(button.in_window));
    QCOMPARE(same_format(picture.copy(button.in_window)), same_format(run->grab().toImage()));

    // The timeline's last lane, whole and readable, drawn where the window shows it.
    auto* timeline = window.timelineView();
    const int last = window.traceIndex().workers() - 1;
    QCOMPARE(last + 1, window.controls()->scenario().workers);
    const QRect lane = timeline->laneRect(last).toAlignedRect();
    QVERIFY(lane.height() >= 12);
    const Placement lane_place = place(timeline, &window, lane);
    QVERIFY2(lane_place.whole, "the timeline's last lane is off-screen or covered");
    QVERIFY(frame.contains(lane_place.in_window));
    QCOMPARE(same_format(picture.copy(lane_place.in_window)),
             same_format(timeline->grab(lane).toImage()));

    // The lesson's page, where its links are: shown and big enough to read a paragraph.
    QWidget* page = window.lessonPane()->page()->viewport();
    const Placement links = place(page, &window);
    QVERIFY2(links.whole, "the lesson's page is hidden or cut off");
    QVERIFY(frame.contains(links.in_window));
    QVERIFY(links.in_window.width() >= 200);
    QVERIFY(links.in_window.height() >= 150);

    // The exercises, when the lesson has some: no wider than the pane that scrolls them, so that
    // nothing in them is cut off at its right edge.
    if (auto* exercises = window.lessonPane()->findChild<QGroupBox*>(QStringLiteral("exercises"));
        exercises && exercises->isVisible()) {
        QWidget* viewport = exercises->parentWidget()->parentWidget();
        QStringList widths;
        for (QWidget* w : exercises->findChildren<QWidget*>())
            if (w->isVisible())
                widths << QStringLiteral("%1 %2")
                              .arg(QString::fromLatin1(w->metaObject()->className()))
                              .arg(w->minimumSizeHint().width());
        QVERIFY2(exercises->width() <= viewport->width(),
                 qPrintable(QStringLiteral("exercises %1 wide in %2: %3")
                                .arg(exercises->width())
                                .arg(viewport->width())
                                .arg(widths.join(QStringLiteral(", ")))));
    }

    // Nothing else hangs over the window's edge: every shown pane ends inside it.
    for (QWidget* w : {static_cast<QWidget*>(window.controls()),
                       static_cast<QWidget*>(window.lessonPane()), static_cast<QWidget*>(timeline)})
        QVERIFY(frame.contains(QRect(w->mapTo(&window, QPoint(0, 0)), w->size())));
}

// Made larger, a window whose cluster was in the tabs shows it beside them, and made small again
// puts it back in the tabs: at no size does the cluster go missing.
void TestWindowSizes::the_cluster_follows_the_window_size() {
    MainWindow window;
    show_at(window, QString(), QSize(1440, 900)); // the lab's first size on a 1600x1000 screen
    QWidget* cluster = window.view(QStringLiteral("cluster"));
    QVERIFY(cluster);
    QVERIFY(qobject_cast<QTabWidget*>(cluster->parentWidget()->parentWidget()));
    auto tabs_of = [&] {
        return qobject_cast<QTabWidget*>(cluster->parentWidget()->parentWidget());
    };
    for (int round = 0; round < 2; ++round) {
        // Another view in front, as a class leaves it, then a larger window.
        tabs_of()->setCurrentIndex(tabs_of()->count() - 1);
        QApplication::processEvents();
        QVERIFY(!cluster->isVisible());
        window.resize(1600, 1000);
        QTRY_VERIFY(!tabs_of());
        QTRY_VERIFY2(cluster->isVisible(), "the cluster left the tabs but is not shown");
        QTRY_VERIFY(cluster->width() > 200);
        window.resize(1440, 900);
        QTRY_VERIFY2(tabs_of(), "the cluster did not go back into the tabs");
        tabs_of()->setCurrentWidget(cluster);
        QTRY_VERIFY(cluster->isVisible());
    }
}

void TestWindowSizes::headless_picture_has_the_size_asked_for_data() {
    add_sizes();
}

void TestWindowSizes::headless_picture_has_the_size_asked_for() {
    QFETCH(QString, lesson);
    QFETCH(QSize, size);
    QTemporaryDir dir;
    const QString out = dir.filePath(QStringLiteral("window.png"));
    QStringList args{QStringLiteral("--size"),
                     QStringLiteral("%1x%2").arg(size.width()).arg(size.height()),
                     QStringLiteral("--screenshot"), out};
    if (lesson.isEmpty())
        args << QStringLiteral("--scenario") << source_path("resources/scenarios/straggler.json");
    else
        args << QStringLiteral("--lesson") << lesson;
    QProcess gui;
    QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
    env.insert(QStringLiteral("QT_QPA_PLATFORM"), QStringLiteral("offscreen"));
    gui.setProcessEnvironment(env);
    gui.start(QStringLiteral(LOCKSTEP_GUI_PATH), args);
    QVERIFY(gui.waitForFinished(60000));
    QCOMPARE(gui.exitCode(), 0);
    const QImage picture(out);
    QCOMPARE(picture.size(), size);
}

void TestWindowSizes::presentation_mode_fills_the_screen_it_is_on() {
    const QList<QScreen*> screens = QGuiApplication::screens();
    QCOMPARE(screens.size(), 2);
    for (QScreen* screen : screens) {
        MainWindow window;
        QVERIFY(
            window.openScenario(source_path("resources/scenarios/straggler.json"), nullptr, true));
        const QRect area = screen->geometry();
        window.setGeometry(QRect(area.topLeft() + QPoint(20, 20), QSize(900, 700)));
        window.show();
        QVERIFY(QTest::qWaitForWindowExposed(&window));
        window.setPresentationMode(true);
        QTRY_COMPARE(window.geometry(), area);
        QCOMPARE(window.screen(), screen);
        window.setPresentationMode(false);
        QTRY_VERIFY(!window.isFullScreen());
    }
}

int main(int argc, char** argv) {
    // Two screens, so that "the screen it is on" means something.
    QTemporaryDir dir;
    const QString config = dir.filePath(QStringLiteral("screens.json"));
    QFile file(config);
    if (!file.open(QIODevice::WriteOnly) || file.write(kScreens) < 0)
        return 2;
    file.close();
    qputenv("QT_QPA_PLATFORM", ("offscreen:configfile=" + config).toLocal8Bit());
    QApplication app(argc, argv);
    TestWindowSizes test;
    return QTest::qExec(&test, argc, argv);
}

#include "test_window_sizes.moc"
