// lockstep: the lab window. With --screenshot or --trace-out it runs offscreen and exits, for
// tests, documentation and teachers' slides; --action applies a lesson link at a moment of the
// run there, as a click would.

#include "class/class_window.h"
#include "lab/controls_panel.h"
#include "lab/lesson_pane.h"
#include "lab/main_window.h"
#include "lab/study_panel.h"

#include "core/atomic_file.h"
#include "core/error.h"
#include "lockstep_lessons/action.h"
#include "lockstep_lessons/language.h"
#include "lockstep_lessons/lesson.h"
#include "model/simd.h"
#include "trace/chrome_trace.h"
#include "trace/trace.h"

#include <QApplication>
#include <QCommandLineParser>
#include <QDir>
#include <QFile>
#include <QIcon>
#include <QSettings>
#include <QThread>
#include <QTimer>

#include <algorithm>
#include <cstdio>
#include <limits>
#include <memory>
#include <utility>
#include <vector>

namespace {

// The texts of this file translate in the context "LockstepMain".
struct Main {
    Q_DECLARE_TR_FUNCTIONS(LockstepMain)
};

int fail(const QString& message) {
    std::fprintf(stderr, "lockstep: %s\n", qPrintable(message));
    return 2;
}

} // namespace

int main(int argc, char** argv) {
    // Before any thread starts: a run's temporary checkpoints go when the lab is stopped.
    lockstep::remove_on_signals();
    // What needs no window (a screenshot, a trace, the help, the version) needs no display
    // either, unless QT_QPA_PLATFORM says otherwise.
    for (int i = 1; i < argc; ++i) {
        const QByteArray arg(argv[i]);
        if (arg.startsWith("--screenshot") || arg.startsWith("--trace-out") || arg == "--help" ||
            arg == "-h" || arg == "--help-all" || arg == "--version" || arg == "-v") {
            if (qEnvironmentVariableIsEmpty("QT_QPA_PLATFORM"))
                qputenv("QT_QPA_PLATFORM", "offscreen");
            break;
        }
    }
    QApplication app(argc, argv);
    QApplication::setApplicationName(QStringLiteral("Lockstep"));
    QApplication::setOrganizationName(QStringLiteral("Lockstep"));
    QApplication::setApplicationVersion(QStringLiteral(LOCKSTEP_VERSION));
    QGuiApplication::setDesktopFileName(QStringLiteral(LOCKSTEP_APP_ID));
    QApplication::setWindowIcon(QIcon(QStringLiteral(":/icons/" LOCKSTEP_APP_ID ".svg")));

    // The language, before any text is made: --language, else the one chosen under View →
    // Language, else the environment's (LANGUAGE, LC_ALL, LC_MESSAGES, LANG).
    QString language;
    for (int i = 1; i < argc; ++i) {
        const QByteArray arg(argv[i]);
        if (arg == "--language" && i + 1 < argc)
            language = QString::fromLocal8Bit(argv[i + 1]);
        else if (arg.startsWith("--language="))
            language = QString::fromLocal8Bit(arg.mid(11));
    }
    const bool language_asked = !language.isEmpty();
    if (!language_asked)
        language = QSettings(lockstep::lessons::settings_file(), QSettings::IniFormat)
                       .value(QStringLiteral("language"))
                       .toString();
    if (language.isEmpty())
        language = lockstep::lessons::language_from_environment();
    {
        QString error;
        if (!lockstep::lessons::set_language(language, &error)) {
            if (language_asked)
                return fail(QStringLiteral("--language: ") + error);
            lockstep::lessons::set_language(QStringLiteral("en"));
        }
    }

    QCommandLineParser parser;
    parser.setApplicationDescription(Main::tr("Lockstep: a lab for distributed training"));
    parser.addHelpOption();
    const QCommandLineOption versionOption(
        {QStringLiteral("v"), QStringLiteral("version")},
        Main::tr("Print the version, and where the lessons, scenarios and quiz banks are "
                 "read from."));
    const QCommandLineOption scenarioOption(
        QStringLiteral("scenario"), Main::tr("Scenario file to open."), QStringLiteral("FILE"));
    const QCommandLineOption viewOption(
        QStringLiteral("view"),
        Main::tr("With --screenshot: one view (%1).")
            .arg(lockstep::app::MainWindow::viewNames().join(QStringLiteral(", "))),
        QStringLiteral("NAME"));
    const QCommandLineOption playToOption(
        QStringLiteral("play-to"),
        Main::tr("With --screenshot: place the playhead here (seconds on the run's clock; "
                 "default: the end)."),
        QStringLiteral("SECONDS"));
    const QCommandLineOption screenshotOption(
        QStringLiteral("screenshot"), Main::tr("Render offscreen to this PNG (or .svg) and exit."),
        QStringLiteral("OUT"));
    const QCommandLineOption sizeOption(
        QStringLiteral("size"),
        Main::tr("With --screenshot: window size, WxH (default 1600x1000)."),
        QStringLiteral("WxH"));
    const QCommandLineOption lessonOption(
        QStringLiteral("lesson"),
        Main::tr("Open a lesson (its page, scenario and views), e.g. speedup."),
        QStringLiteral("ID"));
    const QCommandLineOption actionOption(
        QStringLiteral("action"),
        Main::tr("Headless: when the playhead reaches T seconds on the run's clock, apply the "
                 "lesson link LINK as a click would (e.g. 0.1:lockstep:crash?worker=2); T "
                 "'end' applies it after the run has finished, as a click at its end would "
                 "(the run plays again from step 0 with it). Repeatable; applied in time "
                 "order."),
        QStringLiteral("T:LINK"));
    const QCommandLineOption traceOutOption(
        QStringLiteral("trace-out"),
        Main::tr("Headless: write the trace as the lab then holds it (Chrome Trace Event "
                 "JSON, like lockstep-cli run --trace) and exit."),
        QStringLiteral("FILE"));
    const QCommandLineOption replayOption(
        QStringLiteral("replay"),
        Main::tr("Play back a recorded run: the trace of a run over processes "
                 "(lockstep-cli run --transport mpi --trace FILE)."),
        QStringLiteral("TRACE"));
    const QCommandLineOption classOption(
        QStringLiteral("class-quiz"),
        Main::tr("Start a class quiz on the bank BANK (e.g. reductions): the projector's "
                 "window, served on port 8080 of this computer's classroom addresses."),
        QStringLiteral("BANK"));
    const QCommandLineOption languageOption(
        QStringLiteral("language"),
        Main::tr("The language of the window, the lessons and the quizzes: %1 (default: the one "
                 "chosen under View → Language, else the system's).")
            .arg(lockstep::lessons::languages().join(QStringLiteral(", "))),
        QStringLiteral("CODE"));
    const QCommandLineOption contrastOption(
        QStringLiteral("high-contrast"),
        Main::tr("Start in the high-contrast theme for projectors (View → High Contrast)."));
    parser.addOptions({versionOption, scenarioOption, viewOption, playToOption, screenshotOption,
                       sizeOption, lessonOption, actionOption, traceOutOption, replayOption,
                       classOption, languageOption, contrastOption});
    parser.process(app);
    if (parser.isSet(versionOption)) {
        std::fputs(qPrintable(QStringLiteral("Lockstep " LOCKSTEP_VERSION "\n") +
                              lockstep::lessons::describe_resources() +
                              QString::fromStdString(lockstep::simd::describe())),
                   stdout);
        return 0;
    }
    if (!parser.positionalArguments().isEmpty())
        return fail(Main::tr("unexpected argument '%1' (scenarios are opened with --scenario FILE)")
                        .arg(parser.positionalArguments().first()));

    lockstep::app::MainWindow window;
    if (parser.isSet(contrastOption))
        window.setHighContrast(true, false);
    if (parser.isSet(scenarioOption)) {
        QString error;
        if (!window.openScenario(parser.value(scenarioOption), &error,
                                 parser.isSet(screenshotOption)))
            return fail(error);
    }

    const bool replay = parser.isSet(replayOption);
    if (replay) {
        if (parser.isSet(scenarioOption) || parser.isSet(lessonOption))
            return fail(Main::tr("--replay brings its own scenario; leave out --scenario "
                                 "and --lesson"));
        QString error;
        if (!window.openRecording(parser.value(replayOption), &error, true))
            return fail(Main::tr("--replay: ") + error);
    }

    if (parser.isSet(lessonOption)) {
        if (parser.isSet(scenarioOption))
            return fail(Main::tr("--lesson brings its own scenario; leave out --scenario"));
        QString error;
        if (!window.openLesson(parser.value(lessonOption), &error, false))
            return fail(Main::tr("--lesson: ") + error);
    }

    // Each --action, checked before anything runs.
    // T in seconds on the run's clock, or "end": after the run has finished, as a click there.
    constexpr double kAtTheEnd = std::numeric_limits<double>::infinity();
    std::vector<std::pair<double, lockstep::lessons::Action>> actions;
    for (const QString& value : parser.values(actionOption)) {
        const qsizetype colon = value.indexOf(QLatin1Char(':'));
        bool ok = false;
        double t = colon > 0 ? value.left(colon).toDouble(&ok) : 0.0;
        if (colon > 0 && value.left(colon) == QLatin1String("end")) {
            ok = true;
            t = kAtTheEnd;
        }
        if (!ok || !(t >= 0 && (t <= 1e9 || t == kAtTheEnd)))
            return fail(Main::tr("--action: expected T:LINK with T in seconds (a number >= "
                                 "0) or 'end', e.g. 0.1:lockstep:crash?worker=2 or "
                                 "end:lockstep:set?rule=sum, got '%1'")
                            .arg(value));
        try {
            actions.emplace_back(t, lockstep::lessons::parse_action(value.mid(colon + 1)));
        } catch (const std::exception& e) {
            return fail(Main::tr("--action '%1': %2").arg(value, QString::fromUtf8(e.what())));
        }
    }
    std::stable_sort(actions.begin(), actions.end(),
                     [](const auto& a, const auto& b) { return a.first < b.first; });
    const bool headless = parser.isSet(screenshotOption) || parser.isSet(traceOutOption);
    if (!actions.empty() && !headless)
        return fail(Main::tr("--action goes with --screenshot or --trace-out"));

    if (headless && parser.isSet(classOption))
        return fail(Main::tr("--class-quiz opens a window: it does not go with --screenshot "
                             "or --trace-out"));
    if (!headless) {
        if (parser.isSet(viewOption) || parser.isSet(playToOption))
            return fail(Main::tr("--view and --play-to go with --screenshot"));
        // A student working alone finds the lesson where they left it.
        if (!replay && !parser.isSet(lessonOption) && !parser.isSet(scenarioOption))
            window.openLastLesson();
        window.placeOnScreen();
        window.show();
        if (!replay)
            QTimer::singleShot(0, &window,
                               [&window] { window.runScenario(window.controls()->scenario()); });
        if (parser.isSet(classOption)) {
            auto* quiz = window.startClassQuiz(parser.value(classOption), {}, 8080, {});
            if (!quiz)
                return fail(Main::tr("--class-quiz %1: the quiz could not start")
                                .arg(parser.value(classOption)));
            quiz->show();
        }
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
            return fail(Main::tr("--size: expected WxH between 200x150 and 8000x8000, got '%1'")
                            .arg(parser.value(sizeOption)));
    }
    QWidget* target = &window;
    if (parser.isSet(viewOption)) {
        target = window.view(parser.value(viewOption));
        if (!target)
            return fail(Main::tr("--view: must be one of %1, got '%2'")
                            .arg(lockstep::app::MainWindow::viewNames().join(QStringLiteral(", ")),
                                 parser.value(viewOption)));
    }
    window.resize(size);
    window.setAttribute(Qt::WA_DontShowOnScreen);
    window.setHeadless(true);
    window.show();
    // Exactly the size asked for, even below the smallest size the panes fit in (they crop).
    if (window.size() != size) {
        window.setMinimumSize(size.boundedTo(window.minimumSize()));
        window.resize(size);
    }
    if (!replay)
        window.runToCompletion();
    QApplication::processEvents();
    // Each action where the playhead reaches its moment, exactly as the lab takes a click there.
    for (const auto& [t, action] : actions) {
        window.playback().scrubTo(t == kAtTheEnd ? window.traceIndex().end_time()
                                                 : lockstep::to_ticks(t));
        window.applyLessonAction(action);
        QApplication::processEvents();
        // A study trains its models on a thread: the picture shows its results.
        if (action.kind == lockstep::lessons::ActionKind::Study) {
            const auto* study = window.lessonPane()->study();
            while (study->running())
                QApplication::processEvents(QEventLoop::AllEvents, 50);
        }
    }
    if (parser.isSet(traceOutOption)) {
        const QString path = parser.value(traceOutOption);
        try {
            lockstep::write_chrome_trace(path.toStdString(), window.traceIndex().events(),
                                         window.traceIndex().workers(),
                                         window.controller().scenario().name);
        } catch (const lockstep::Error& e) {
            return fail(Main::tr("--trace-out: %1").arg(QString::fromStdString(e.what())));
        }
        if (!parser.isSet(screenshotOption))
            return window.headlessNotices().isEmpty() ? 0 : 1;
    }
    lockstep::Ticks playhead = window.traceIndex().end_time();
    if (parser.isSet(playToOption)) {
        bool ok = false;
        const double seconds = parser.value(playToOption).toDouble(&ok);
        if (!ok || seconds < 0 || seconds > 1e9)
            return fail(Main::tr("--play-to: expected seconds (a number >= 0), got '%1'")
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
    // Let the speedup sweep, the Memory view's outline and a comparison's runs (computed off the
    // GUI thread) arrive before rendering.
    for (int i = 0; i < 200 && (window.speedupPending() || window.memoryPending() ||
                                window.comparisonPending());
         ++i) {
        QApplication::processEvents(QEventLoop::AllEvents, 20);
        QThread::msleep(10);
    }
    QApplication::processEvents();
    QString error;
    if (!window.exportView(target, parser.value(screenshotOption), &error))
        return fail(error.isEmpty() ? Main::tr("cannot write the screenshot") : error);
    // The picture shows the lab after what it refused; the refusal went to stderr.
    return window.headlessNotices().isEmpty() ? 0 : 1;
}
