// How long a teacher waits for an intervention at the playhead: from the click on a worker's
// menu entry to the first frame that shows the change, in the real lab window. For every
// lesson's scenario (the playhead in the middle of the run, the engine already finished) and for
// 32 workers at step 1,000 (the engine running ahead). Prints one JSON object per line. Run
// offscreen:
//   QT_QPA_PLATFORM=offscreen build/tests/bench/bench_branch

#include "lab/engine_controller.h"
#include "lab/lesson_pane.h"
#include "lab/main_window.h"
#include "lab/playback.h"

#include "lockstep_lessons/lesson.h"
#include "lockstep_views/cluster_view.h"

#include <QAction>
#include <QApplication>
#include <QElapsedTimer>
#include <QMenu>
#include <QThread>

#include <algorithm>
#include <cstdio>
#include <vector>

using lockstep::Ticks;
using lockstep::app::EngineController;
using lockstep::app::MainWindow;

namespace {

// Runs the event loop until `done` holds or `ms` pass; false on the time-out.
template <typename F> bool spin(F done, int ms) {
    QElapsedTimer t;
    t.start();
    while (!done()) {
        if (t.elapsed() > ms)
            return false;
        QApplication::processEvents(QEventLoop::AllEvents, 5);
    }
    return true;
}

// The middle of executed step `ordinal`, from the index's step starts.
Ticks middle_of(const MainWindow& w, std::int64_t ordinal) {
    const auto a = w.traceIndex().start_of(ordinal);
    const auto b = w.traceIndex().start_of(ordinal + 1);
    if (!a)
        return 0;
    return b ? a->start + (b->start - a->start) / 2 : a->start;
}

// Chooses `action` in worker `worker`'s menu, as a click does, and times it until the window
// has drawn a frame with the changed step in it. Milliseconds, or -1 on a time-out.
double time_click(MainWindow& window, int worker, const QString& action) {
    const std::int64_t at = window.interventionPoint();
    QMenu* menu = window.clusterView()->buildWorkerMenu(worker);
    QAction* entry = nullptr;
    for (QAction* a : menu->actions())
        if (a->data().toString() == action)
            entry = a;
    QElapsedTimer clock;
    clock.start();
    entry->trigger();
    // The new branch's step `at` has arrived in the views...
    const bool arrived = spin(
        [&] {
            const auto start = window.traceIndex().start_of(at);
            return start.has_value() && window.traceIndex().last_step()->ordinal > at;
        },
        20000);
    // ...and the window has painted it.
    window.repaint();
    const double ms = static_cast<double>(clock.nsecsElapsed()) / 1e6;
    delete menu;
    return arrived ? ms : -1.0;
}

// What a run's end sets going (the comparison's charts laid out, the decision boundary, a
// restore comparison on its thread) is let finish before the next click: a teacher does not
// click again within milliseconds of a run ending.
void settle() {
    QElapsedTimer t;
    t.start();
    while (t.elapsed() < 400)
        QApplication::processEvents(QEventLoop::AllEvents, 20);
}

double median(std::vector<double> v) {
    std::sort(v.begin(), v.end());
    return v.empty() ? 0 : v[v.size() / 2];
}

} // namespace

int main(int argc, char** argv) {
    QApplication app(argc, argv);
    MainWindow window;
    window.resize(1600, 1000);
    window.show();

    // Every lesson: its run finished, the playhead in the middle, crash and slow worker 1.
    const auto& library = window.lessonPane()->library();
    double worst = 0;
    for (const auto& lesson : library.lessons()) {
        if (lesson.scenario.model_parallel() || lesson.scenario.workers < 2)
            continue;
        bool finished = false;
        auto c = QObject::connect(&window.controller(), &EngineController::runFinished,
                                  [&] { finished = true; });
        window.openLesson(lesson.id);
        spin([&] { return finished; }, 60000);
        settle();
        std::vector<double> times;
        for (int round = 0; round < 5; ++round)
            for (const char* action : {"crash", "slow", "pause"}) {
                finished = false;
                const auto last = window.traceIndex().last_step();
                window.playback().scrubTo(middle_of(window, last ? last->ordinal / 2 : 0));
                times.push_back(time_click(window, 1, QString::fromLatin1(action)));
                spin([&] { return finished; }, 60000);
                settle();
            }
        QObject::disconnect(c);
        const double longest = *std::max_element(times.begin(), times.end());
        worst = std::max(worst, longest);
        std::printf("{\"bench\":\"branch-lesson\",\"lesson\":\"%s\",\"steps\":%lld,\"workers\":%d,"
                    "\"median_ms\":%.1f,\"max_ms\":%.1f}\n",
                    qPrintable(lesson.id), static_cast<long long>(lesson.scenario.steps),
                    lesson.scenario.workers, median(times), longest);
        std::fflush(stdout);
    }
    std::printf("{\"bench\":\"branch-lessons\",\"max_ms\":%.1f,\"target_ms\":100}\n", worst);

    // 32 workers, the playhead at step 1,000 and the engine running ahead of it.
    lockstep::Scenario s;
    s.name = "thirty-two";
    s.workers = 32;
    s.steps = 1400;
    window.runScenario(s);
    const bool reached = spin(
        [&] {
            const auto last = window.traceIndex().last_step();
            if (last && last->ordinal >= 1010)
                return true;
            window.playback().scrubTo(window.traceIndex().end_time());
            return false;
        },
        600000);
    if (!reached) {
        std::printf("{\"bench\":\"branch-32\",\"error\":\"the run did not reach step 1000\"}\n");
        return 1;
    }
    std::vector<double> times;
    for (int round = 0; round < 5; ++round)
        for (const char* action : {"crash", "slow", "pause"}) {
            window.playback().scrubTo(middle_of(window, 1000));
            times.push_back(time_click(window, 1 + round, QString::fromLatin1(action)));
            settle();
        }
    std::printf("{\"bench\":\"branch-32\",\"workers\":32,\"step\":1000,\"median_ms\":%.1f,"
                "\"max_ms\":%.1f,\"target_ms\":250,\"engine_running\":%s}\n",
                median(times), *std::max_element(times.begin(), times.end()),
                window.controller().running() ? "true" : "false");
    window.controller().stop();
    return 0;
}
