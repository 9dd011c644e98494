// View → Language at run time: the menus, the docks, the tabs, the open lesson's page and its
// exercise change language at once, the lesson stays open, and the views' accessible names
// follow; back to English, every text is as before. And the lab's audio description: a
// straggler step announced once, in words.

#include "lab/audio_description.h"
#include "lab/lesson_pane.h"
#include "lab/main_window.h"

#include "lockstep_lessons/language.h"
#include "lockstep_views/cluster_view.h"
#include "lockstep_views/timeline_view.h"
#include "lockstep_views/trace_index.h"

#include <QAccessible>
#include <QApplication>
#include <QComboBox>
#include <QDockWidget>
#include <QMenuBar>
#include <QSignalSpy>
#include <QTabWidget>
#include <QTextBrowser>
#include <QtTest>

using lockstep::app::MainWindow;

namespace {

QStringList menu_titles(MainWindow& w) {
    QStringList titles;
    for (QAction* a : w.menuBar()->actions())
        titles << a->text();
    return titles;
}

QString source_path(const char* relative) {
    return QStringLiteral(LOCKSTEP_SOURCE_DIR "/") + QLatin1String(relative);
}

} // namespace

class TestLanguageSwitch : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void initTestCase() { QStandardPaths::setTestModeEnabled(true); }
    void cleanup() { lockstep::lessons::set_language(QStringLiteral("en")); }

    void switchesAtOnce() {
        MainWindow window;
        QVERIFY(window.openLesson(QStringLiteral("reductions"), nullptr, false));
        window.show();
        QVERIFY(QTest::qWaitForWindowExposed(&window));
        const QStringList english = menu_titles(window);
        QCOMPARE(english.front(), QStringLiteral("&File"));
        const QString english_page = window.lessonPane()->page()->toPlainText();
        QVERIFY(english_page.contains(QStringLiteral("Equal-weight mean")));

        QVERIFY(window.setLanguage(QStringLiteral("de")));
        QApplication::processEvents();
        const QStringList german = menu_titles(window);
        QCOMPARE(german.size(), english.size());
        QCOMPARE(german.front(), QStringLiteral("&Datei"));
        QVERIFY(german != english);
        // The lesson stays open, now in German, with its German title in the window's title.
        QCOMPARE(window.lessonPane()->currentLesson()->id, QStringLiteral("reductions"));
        const QString german_page = window.lessonPane()->page()->toPlainText();
        QVERIFY2(german_page.contains(QStringLiteral("gewichteter Mittelwert")),
                 qPrintable(german_page.left(300)));
        QVERIFY2(window.windowTitle().contains(QStringLiteral("Reduktionen")),
                 qPrintable(window.windowTitle()));
        // The views name themselves in German for a screen reader.
        QVERIFY(window.clusterView()->accessibleName() != QStringLiteral("Cluster view"));
        // Numbers in the language's form.
        QCOMPARE(QLocale().decimalPoint(), QStringLiteral(","));

        QVERIFY(window.setLanguage(QStringLiteral("es")));
        QApplication::processEvents();
        QCOMPARE(menu_titles(window).front(), QStringLiteral("&Archivo"));
        QVERIFY(window.lessonPane()->page()->toPlainText().contains(QStringLiteral("media")));

        QVERIFY(window.setLanguage(QStringLiteral("en")));
        QApplication::processEvents();
        QCOMPARE(menu_titles(window), english);
        QCOMPARE(window.lessonPane()->page()->toPlainText(), english_page);
        QCOMPARE(window.clusterView()->accessibleName(), QStringLiteral("Cluster view"));

        QString error;
        QVERIFY(!window.setLanguage(QStringLiteral("xx"), &error));
        QVERIFY(error.contains(QStringLiteral("xx")));
    }

    // View → High Contrast, told by pixels: the cluster's computing workers change from
    // Okabe-Ito blue to the darker blue of the high-contrast set, the background to pure white,
    // and back again.
    void highContrastByPixels() {
        MainWindow window;
        QVERIFY(
            window.openScenario(source_path("resources/scenarios/straggler.json"), nullptr, true));
        window.resize(1400, 900);
        window.show();
        QVERIFY(QTest::qWaitForWindowExposed(&window));
        window.setHighContrast(false, false); // whatever an earlier run left in the settings
        window.runToCompletion();
        // Worker 2 is still computing here while the others wait.
        lockstep::Ticks t = 0;
        for (const lockstep::TraceEvent& e : window.traceIndex().lane(0))
            if (e.kind == lockstep::EventKind::Wait) {
                t = (e.start + e.end) / 2;
                break;
            }
        window.playback().scrubTo(t);
        QApplication::processEvents();
        auto count = [](const QImage& image, QColor c) {
            int n = 0;
            for (int y = 0; y < image.height(); ++y)
                for (int x = 0; x < image.width(); ++x) {
                    const QColor p = image.pixelColor(x, y);
                    n += std::abs(p.red() - c.red()) <= 6 && std::abs(p.green() - c.green()) <= 6 &&
                         std::abs(p.blue() - c.blue()) <= 6;
                }
            return n;
        };
        const QColor okabe_blue(0x00, 0x72, 0xB2), strong_blue(0x00, 0x4C, 0x80);
        const QImage normal = window.clusterView()->grab().toImage();
        QVERIFY(count(normal, okabe_blue) > 200);
        QVERIFY(count(normal, strong_blue) < 60); // (edges blend into it here and there)
        // The timeline's compute bars too, painted once into a layer that must be made again.
        const QImage bars = window.timelineView()->grab().toImage();
        QVERIFY(count(bars, okabe_blue) > 200);
        window.setHighContrast(true);
        QApplication::processEvents();
        const QImage strong = window.clusterView()->grab().toImage();
        QVERIFY(count(strong, strong_blue) > 200);
        QVERIFY(count(strong, okabe_blue) < 60);
        const QImage strong_bars = window.timelineView()->grab().toImage();
        QVERIFY(count(strong_bars, strong_blue) > 200);
        QVERIFY(count(strong_bars, okabe_blue) < 60);
        QCOMPARE(strong.pixelColor(2, 2), QColor(Qt::white));
        QCOMPARE(QApplication::palette().color(QPalette::WindowText), QColor(Qt::black));
        window.setHighContrast(false);
        QApplication::processEvents();
        QVERIFY(count(window.clusterView()->grab().toImage(), okabe_blue) > 200);
    }

    void audioDescriptionOfAStraggler() {
        MainWindow window;
        QVERIFY(
            window.openScenario(source_path("resources/scenarios/straggler.json"), nullptr, true));
        window.show();
        QVERIFY(QTest::qWaitForWindowExposed(&window));
        window.runToCompletion();
        window.setAudioDescription(true);
        QSignalSpy said(&window.audioDescription(), &lockstep::app::AudioDescription::announced);
        const auto& snaps = window.traceIndex().snapshots();
        QVERIFY(snaps.size() > 3);
        // Past the end of step 2: its story is said once, at once or after "Audio description
        // on" has had its time.
        window.playback().scrubTo(snaps[2].time + 1);
        QTRY_COMPARE(said.count(), 1);
        const QString text = said.at(0).at(0).toString();
        QVERIFY2(text.startsWith(QStringLiteral("Step 2. Worker 2 is 3 times slower; workers 0, 1 "
                                                "and 3 wait up to ")),
                 qPrintable(text));
        // The status-bar line a screen reader is alerted to carries the same words.
        QCOMPARE(window.audioDescription().line()->text(), text);
        QAccessibleInterface* line =
            QAccessible::queryAccessibleInterface(window.audioDescription().line());
        QCOMPARE(line->text(QAccessible::Name), text);
        // A frame later in the same step: nothing new is said.
        window.playback().scrubTo(snaps[2].time + 2);
        QApplication::processEvents();
        QCOMPARE(said.count(), 1);
        window.setAudioDescription(false);
    }
};

QTEST_MAIN(TestLanguageSwitch)
#include "test_language_switch.moc"
