// How long the class waits for what the teacher clicked: from a page link, a control or a click
// on a worker to the first frame that shows its effect, in the real lab window, at 8 workers
// while the run plays and at 32 workers with the playhead at step 1,000; and from choosing a
// lesson to its first frame with a trace. Prints one JSON object per line; the targets are 100 ms
// median and 250 ms worst for a change, 300 ms to open a lesson. Run offscreen:
//   LOCKSTEP_RESOURCES=resources QT_QPA_PLATFORM=offscreen build/tests/bench/bench_latency

#include "lab/lesson_pane.h"
#include "lab/main_window.h"

#include "lockstep_lessons/action.h"
#include "lockstep_lessons/lesson.h"
#include "lockstep_views/cluster_view.h"

#include <QAction>
#include <QApplication>
#include <QElapsedTimer>
#include <QMenu>

#include <algorithm>
#include <cstdio>
#include <functional>
#include <vector>

using lockstep::Ticks;
using lockstep::app::MainWindow;

namespace {

template <typename F> bool spin(F done, int ms) {
    QElapsedTimer t;
    t.start();
    while (!done()) {
        if (t.elapsed() > ms)
            return false;
        QApplication::processEvents(QEventLoop::AllEvents, 1);
    }
    return true;
}

double median(std::vector<double> v) {
    std::sort(v.begin(), v.end());
    return v.empty() ? 0 : v[v.size() / 2];
}

// Applies a change and times it until the branch's first step is in the views and the window
// has painted it. Milliseconds, or -1 on a time-out.
double time_change(MainWindow& window, const std::function<void()>& change) {
    const std::int64_t at = window.interventionPoint();
    QElapsedTimer clock;
    clock.start();
    change();
    const bool arrived = spin(
        [&] {
            const auto last = window.traceIndex().last_step();
            return window.traceIndex().start_of(at).has_value() && last && last->ordinal > at;
        },
        20000);
    window.repaint();
    return arrived ? static_cast<double>(clock.nsecsElapsed()) / 1e6 : -1.0;
}

void settle(int ms) {
    QElapsedTimer t;
    t.start();
    while (t.elapsed() < ms)
        QApplication::processEvents(QEventLoop::AllEvents, 10);
}

void click_worker(MainWindow& window, int worker, const char* action) {
    QMenu* menu = window.clusterView()->buildWorkerMenu(worker);
    for (QAction* a : menu->actions())
        if (a->data().toString() == QLatin1String(action))
            a->trigger();
    delete menu;
}

// Links, a control and clicks, in turn, `rounds` times.
std::vector<double> changes(MainWindow& window, int rounds, const std::function<void()>& place) {
    const QStringList links = {QStringLiteral("lockstep:set?algorithm=tree"),
                               QStringLiteral("lockstep:set?algorithm=ring"),
                               QStringLiteral("lockstep:slow?worker=1&factor=3"),
                               QStringLiteral("lockstep:set?rule=sum"),
                               QStringLiteral("lockstep:set?rule=mean")};
    std::vector<double> times;
    for (int round = 0; round < rounds; ++round) {
        for (const QString& link : links) {
            place();
            times.push_back(time_change(
                window, [&] { window.applyLessonAction(lockstep::lessons::parse_action(link)); }));
            settle(100);
        }
        place();
        lockstep::Scenario s = window.session().scenario();
        s.optimizer.learning_rate = round % 2 ? 0.1 : 0.05;
        times.push_back(time_change(
            window, [&] { window.changeScenario(s, QStringLiteral("learning rate")); }));
        settle(100);
        place();
        times.push_back(time_change(window, [&] { click_worker(window, 2, "slow"); }));
        settle(100);
    }
    return times;
}

void report(const char* name, const std::vector<double>& times, const char* extra) {
    const bool timed_out = std::find(times.begin(), times.end(), -1.0) != times.end();
    std::printf("{\"bench\":\"%s\",%s\"changes\":%zu,\"median_ms\":%.1f,\"max_ms\":%.1f,"
                "\"target_median_ms\":100,\"target_max_ms\":250%s}\n",
                name, extra, times.size(), median(times),
                *std::max_element(times.begin(), times.end()),
                timed_out ? ",\"error\":\"a change never showed\"" : "");
    std::fflush(stdout);
}

} // namespace

int main(int argc, char** argv) {
    QApplication app(argc, argv);
    MainWindow window;
    window.resize(1280, 720);
    window.show();

    // Opening each lesson: its page, its views and the first steps of its run on screen.
    std::vector<double> opens;
    QStringList ids;
    for (const auto& lesson : window.lessonPane()->library().lessons())
        ids << lesson.id;
    for (const QString& id : ids) {
        QElapsedTimer clock;
        clock.start();
        window.openLesson(id);
        spin([&] { return window.traceIndex().last_step().has_value(); }, 20000);
        window.repaint();
        const double ms = static_cast<double>(clock.nsecsElapsed()) / 1e6;
        opens.push_back(ms);
        std::printf("{\"bench\":\"open-lesson\",\"lesson\":\"%s\",\"ms\":%.1f}\n", qPrintable(id),
                    ms);
        std::fflush(stdout);
        settle(300);
    }
    if (opens.empty()) {
        std::printf("{\"bench\":\"open-lessons\",\"error\":\"no lessons found: set "
                    "LOCKSTEP_RESOURCES to the resources folder\"}\n");
        return 1;
    }
    std::printf("{\"bench\":\"open-lessons\",\"median_ms\":%.1f,\"max_ms\":%.1f,"
                "\"target_ms\":300}\n",
                median(opens), *std::max_element(opens.begin(), opens.end()));
    std::fflush(stdout);

    // 8 workers, the run playing at 8x: every change lands at the moving playhead.
    lockstep::Scenario eight;
    eight.name = "eight";
    eight.workers = 8;
    eight.steps = 4000;
    window.session().rerun(eight);
    spin([&] { return window.traceIndex().snapshots().size() > 50; }, 60000);
    window.playback().setSpeed(8.0);
    window.playback().play();
    settle(500);
    const auto playing = changes(window, 4, [&] {
        if (!window.playback().playing())
            window.playback().play();
    });
    window.playback().pause();
    report("change-8-playing", playing, "\"workers\":8,");

    // 32 workers, the playhead at step 1,000, the engine running ahead of it.
    lockstep::Scenario s;
    s.name = "thirty-two";
    s.workers = 32;
    s.steps = 1400;
    window.session().rerun(s);
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
        std::printf("{\"bench\":\"change-32\",\"error\":\"the run did not reach step 1000\"}\n");
        return 1;
    }
    const auto at_1000 = changes(window, 3, [&] {
        const auto a = window.traceIndex().start_of(1000);
        const auto b = window.traceIndex().start_of(1001);
        if (a && b)
            window.playback().scrubTo(a->start + (b->start - a->start) / 2);
    });
    report("change-32-step-1000", at_1000, "\"workers\":32,\"step\":1000,");
    window.session().controller().stop();
    return 0;
}
