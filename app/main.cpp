// lockstep: the lab window. With --screenshot it renders offscreen and exits, for tests,
// documentation and teachers' slides.

#include "controls_panel.h"
#include "main_window.h"

#include <QApplication>
#include <QCommandLineParser>
#include <QDir>
#include <QThread>
#include <QTimer>

#include <cstdio>
#include <memory>

namespace {

int fail(const QString& message) {
    std::fprintf(stderr, "lockstep: %s\n", qPrintable(message));
    return 2;
}

} // namespace

int main(int argc, char** argv) {
    QApplication app(argc, argv);
    QApplication::setApplicationName(QStringLiteral("Lockstep"));
    QApplication::setOrganizationName(QStringLiteral("Lockstep"));
    QApplication::setApplicationVersion(QStringLiteral(LOCKSTEP_VERSION));

    QCommandLineParser parser;
    parser.setApplicationDescription(QStringLiteral("Lockstep: a lab for distributed training"));
    parser.addHelpOption();
    parser.addVersionOption();
    const QCommandLineOption scenarioOption(QStringLiteral("scenario"),
                                            QStringLiteral("Scenario file to open."),
                                            QStringLiteral("FILE"));
    const QCommandLineOption viewOption(
        QStringLiteral("view"),
        QStringLiteral("With --screenshot: one view (%1).")
            .arg(lockstep::app::MainWindow::viewNames().join(QStringLiteral(", "))),
        QStringLiteral("NAME"));
    const QCommandLineOption playToOption(
        QStringLiteral("play-to"),
        QStringLiteral("With --screenshot: place the playhead here (seconds on the run's clock; "
                       "default: the end)."),
        QStringLiteral("SECONDS"));
    const QCommandLineOption screenshotOption(
        QStringLiteral("screenshot"),
        QStringLiteral("Render offscreen to this PNG (or .svg) and exit."), QStringLiteral("OUT"));
    const QCommandLineOption sizeOption(
        QStringLiteral("size"),
        QStringLiteral("With --screenshot: window size, WxH (default 1600x1000)."),
        QStringLiteral("WxH"));
    const QCommandLineOption lessonOption(
        QStringLiteral("lesson"),
        QStringLiteral("Open a lesson (its page, scenario and views), e.g. speedup."),
        QStringLiteral("ID"));
    parser.addOptions(
        {scenarioOption, viewOption, playToOption, screenshotOption, sizeOption, lessonOption});
    parser.process(app);
    if (!parser.positionalArguments().isEmpty())
        return fail(
            QStringLiteral("unexpected argument '%1' (scenarios are opened with --scenario FILE)")
                .arg(parser.positionalArguments().first()));

    lockstep::app::MainWindow window;
    if (parser.isSet(scenarioOption)) {
        QString error;
        if (!window.openScenario(parser.value(scenarioOption), &error,
                                 parser.isSet(screenshotOption)))
            return fail(error);
    }

    if (parser.isSet(lessonOption)) {
        if (parser.isSet(scenarioOption))
            return fail(QStringLiteral("--lesson brings its own scenario; leave out --scenario"));
        QString error;
        if (!window.openLesson(parser.value(lessonOption), &error, false))
            return fail(QStringLiteral("--lesson: ") + error);
    }

    if (!parser.isSet(screenshotOption)) {
        if (parser.isSet(viewOption) || parser.isSet(playToOption))
            return fail(QStringLiteral("--view and --play-to go with --screenshot"));
        window.show();
        QTimer::singleShot(0, &window,
                           [&window] { window.runScenario(window.controls()->scenario()); });
        return QApplication::exec();
    }

    // Headless: run the whole scenario, place the playhead, render, exit.
    QSize size(1600, 1000);
    if (parser.isSet(sizeOption)) {
        const QStringList parts = parser.value(sizeOption).split(QLatin1Char('x'));
        bool okW = false, okH = false;
        if (parts.size() == 2)
            size = QSize(parts[0].toInt(&okW), parts[1].toInt(&okH));
        if (!okW || !okH || size.width() < 200 || size.height() < 150 || size.width() > 8000 ||
            size.height() > 8000)
            return fail(
                QStringLiteral("--size: expected WxH between 200x150 and 8000x8000, got '%1'")
                    .arg(parser.value(sizeOption)));
    }
    QWidget* target = &window;
    if (parser.isSet(viewOption)) {
        target = window.view(parser.value(viewOption));
        if (!target)
            return fail(QStringLiteral("--view: must be one of %1, got '%2'")
                            .arg(lockstep::app::MainWindow::viewNames().join(QStringLiteral(", ")),
                                 parser.value(viewOption)));
    }
    window.resize(size);
    window.setAttribute(Qt::WA_DontShowOnScreen);
    window.show();
    // Exactly the size asked for, even below the smallest size the panes fit in (they crop).
    if (window.size() != size) {
        window.setMinimumSize(size.boundedTo(window.minimumSize()));
        window.resize(size);
    }
    window.runToCompletion();
    QApplication::processEvents();
    lockstep::Ticks playhead = window.traceIndex().end_time();
    if (parser.isSet(playToOption)) {
        bool ok = false;
        const double seconds = parser.value(playToOption).toDouble(&ok);
        if (!ok || seconds < 0 || seconds > 1e9)
            return fail(QStringLiteral("--play-to: expected seconds (a number >= 0), got '%1'")
                            .arg(parser.value(playToOption)));
        playhead = lockstep::to_ticks(seconds);
    }
    window.playback().scrubTo(playhead);
    std::unique_ptr<QWidget> detached;
    if (target != &window) {
        // One view alone, at the requested size: lift it out of the window's layout.
        detached.reset(target);
        target->setParent(nullptr);
        target->setAttribute(Qt::WA_DontShowOnScreen);
        target->resize(size);
        target->show();
    }
    // Let the speedup sweep (computed off the GUI thread) arrive before rendering.
    for (int i = 0; i < 200 && window.speedupPending(); ++i) {
        QApplication::processEvents(QEventLoop::AllEvents, 20);
        QThread::msleep(10);
    }
    QApplication::processEvents();
    QString error;
    if (!window.exportView(target, parser.value(screenshotOption), &error))
        return fail(error.isEmpty() ? QStringLiteral("cannot write the screenshot") : error);
    return 0;
}
