// The lab window's speed: rendering the cluster and timeline views for 32 workers (median per
// frame), the longest gap between frames while the engine trains at full speed, and the time from
// an empty process to the window's first frame. Prints one JSON object per line. Run offscreen:
//   QT_QPA_PLATFORM=offscreen build/tests/bench/bench_gui

#include "lab/main_window.h"

#include "lockstep_views/cluster_view.h"
#include "lockstep_views/timeline_view.h"
#include "runs/runs.h"

#include <QApplication>
#include <QElapsedTimer>
#include <QImage>
#include <QPainter>
#include <QStringList>
#include <QTimer>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <vector>

namespace {

double median(std::vector<double> v) {
    std::sort(v.begin(), v.end());
    return v[v.size() / 2];
}

// Resident memory of this process, in MiB (Linux; 0 elsewhere).
double resident_mb() {
    std::FILE* f = std::fopen("/proc/self/statm", "r");
    if (!f)
        return 0;
    long pages = 0, resident = 0;
    const int read = std::fscanf(f, "%ld %ld", &pages, &resident);
    std::fclose(f);
    return read == 2 ? static_cast<double>(resident) * 4096.0 / (1024.0 * 1024.0) : 0.0;
}

} // namespace

int main(int argc, char** argv) {
    QElapsedTimer since_start;
    since_start.start();
    QApplication app(argc, argv);

    // Time to first frame: the window built, shown and painted once.
    {
        lockstep::app::MainWindow window;
        window.resize(1600, 1000);
        window.show();
        QImage frame(window.size(), QImage::Format_ARGB32_Premultiplied);
        QPainter painter(&frame);
        window.render(&painter);
        painter.end();
        std::printf("{\"bench\":\"first-frame\",\"ms\":%.1f}\n", since_start.nsecsElapsed() / 1e6);
    }

    // Rendering: 32 workers, ring, 20 steps of trace; the playhead sweeps across the run.
    lockstep::Scenario s;
    s.workers = 32;
    s.steps = 20;
    lockstep::Trace trace;
    const auto trainer = lockstep::make_run(s, lockstep::load_dataset(s), &trace);
    trainer->run_to_end();
    lockstep::views::TraceIndex index;
    index.reset(s.workers, s.algorithm);
    index.append(trace.events());
    for (const auto& snap : trace.snapshots())
        index.append(snap);

    lockstep::views::ClusterView cluster;
    lockstep::views::TimelineView timeline;
    cluster.setTrace(&index);
    timeline.setTrace(&index);
    cluster.resize(960, 640);
    timeline.resize(1600, 360);
    timeline.setFollowPlayhead(true);
    QImage top(cluster.size(), QImage::Format_ARGB32_Premultiplied);
    QImage bottom(timeline.size(), QImage::Format_ARGB32_Premultiplied);
    std::vector<double> frames, cluster_ms, timeline_ms;
    const int count = 400;
    for (int i = 0; i < count; ++i) {
        const lockstep::Ticks t = index.end_time() * i / count;
        QElapsedTimer frame;
        frame.start();
        cluster.setPlayhead(t);
        timeline.setPlayhead(t);
        QPainter p1(&top);
        cluster.render(&p1);
        p1.end();
        const double first = frame.nsecsElapsed() / 1e6;
        QPainter p2(&bottom);
        timeline.render(&p2);
        p2.end();
        frames.push_back(frame.nsecsElapsed() / 1e6);
        cluster_ms.push_back(first);
        timeline_ms.push_back(frames.back() - first);
    }
    std::printf(
        "{\"bench\":\"render-each\",\"cluster_median_ms\":%.2f,\"timeline_median_ms\":%.2f}\n",
        median(cluster_ms), median(timeline_ms));
    std::printf(
        "{\"bench\":\"render\",\"views\":\"cluster+timeline\",\"workers\":32,\"events\":%zu,"
        "\"median_ms\":%.2f,\"max_ms\":%.2f}\n",
        index.events().size(), median(frames), *std::max_element(frames.begin(), frames.end()));

    // 256 workers on a ring and around a parameter server, drawn as a band of slices.
    for (const auto algorithm : {lockstep::Algorithm::Ring, lockstep::Algorithm::ParameterServer}) {
        lockstep::Scenario crowd;
        crowd.workers = 256;
        crowd.steps = 4;
        crowd.batch = 4;
        crowd.algorithm = algorithm;
        crowd.dataset.samples = 2048;
        lockstep::Trace crowd_trace;
        const auto crowd_trainer =
            lockstep::make_run(crowd, lockstep::load_dataset(crowd), &crowd_trace);
        crowd_trainer->run_to_end();
        lockstep::views::TraceIndex crowd_index;
        crowd_index.reset(crowd.workers, crowd.algorithm);
        crowd_index.append(crowd_trace.events());
        lockstep::views::ClusterView view;
        view.setTrace(&crowd_index);
        view.resize(960, 640);
        QImage image(view.size(), QImage::Format_ARGB32_Premultiplied);
        std::vector<double> times;
        for (int i = 0; i < 200; ++i) {
            QElapsedTimer frame;
            frame.start();
            view.setPlayhead(crowd_index.end_time() * i / 200);
            QPainter p(&image);
            view.render(&p);
            p.end();
            times.push_back(frame.nsecsElapsed() / 1e6);
        }
        std::printf("{\"bench\":\"render-crowd\",\"view\":\"cluster\",\"workers\":256,"
                    "\"algorithm\":\"%s\",\"events\":%zu,\"median_ms\":%.2f}\n",
                    algorithm == lockstep::Algorithm::Ring ? "ring" : "parameter-server",
                    crowd_index.events().size(), median(times));
    }

    // Frame gaps while the engine trains flat out and the window plays the trace, for 5 s or
    // LOCKSTEP_BENCH_SECONDS; the resident memory at 1 s and at the end.
    {
        const int seconds =
            std::clamp(qEnvironmentVariableIntValue("LOCKSTEP_BENCH_SECONDS"), 0, 3600) > 0
                ? qEnvironmentVariableIntValue("LOCKSTEP_BENCH_SECONDS")
                : 5;
        lockstep::app::MainWindow window;
        window.resize(1600, 1000);
        window.show();
        lockstep::Scenario live;
        live.workers = 32;
        live.steps = std::max(3000, seconds * 1000);
        window.runScenario(live);
        window.playback().setSpeed(8.0);
        window.playback().play();
        QElapsedTimer clock;
        clock.start();
        qint64 last = 0;
        double longest = 0, longest_at = 0, steady = 0, longest_paint = 0;
        double rss_at_1s = 0;
        std::vector<double> per_ten_seconds;     // the longest gap in each 10 s
        std::vector<double> rss_per_ten_seconds; // resident memory at the start of each 10 s
        int ticks = 0;
        QTimer frame;
        frame.setInterval(16);
        QObject::connect(&frame, &QTimer::timeout, [&] {
            const qint64 now = clock.nsecsElapsed();
            if (ticks > 0 && now / 1e9 > 1.0)
                steady = std::max(steady, (now - last) / 1e6); // after start-up
            if (rss_at_1s == 0 && now / 1e9 > 1.0)
                rss_at_1s = resident_mb();
            const auto window_index = static_cast<std::size_t>(now / 10'000'000'000LL);
            if (per_ten_seconds.size() <= window_index) {
                per_ten_seconds.resize(window_index + 1, 0.0);
                rss_per_ten_seconds.push_back(resident_mb());
            }
            if (ticks > 0)
                per_ten_seconds[window_index] =
                    std::max(per_ten_seconds[window_index], (now - last) / 1e6);
            if (ticks++ > 0 && (now - last) / 1e6 > longest) {
                longest = (now - last) / 1e6;
                longest_at = now / 1e9;
            }
            last = now;
            window.repaint(); // a full frame of the whole window, as a display would ask
            longest_paint = std::max(longest_paint, (clock.nsecsElapsed() - now) / 1e6);
        });
        frame.start();
        QTimer::singleShot(seconds * 1000, &app, &QApplication::quit);
        QApplication::exec();
        QStringList gaps;
        for (double gap : per_ten_seconds)
            gaps << QString::number(gap, 'f', 0);
        const QByteArray tens = gaps.join(QLatin1Char(',')).toLatin1();
        QStringList memory;
        for (double mb : rss_per_ten_seconds)
            memory << QString::number(mb, 'f', 0);
        const QByteArray rss = memory.join(QLatin1Char(',')).toLatin1();
        std::printf("{\"bench\":\"frame-gap\",\"workers\":32,\"seconds\":%d,\"frames\":%d,"
                    "\"longest_gap_ms\":%.1f,"
                    "\"longest_gap_at_s\":%.2f,\"longest_gap_after_1s_ms\":%.1f,"
                    "\"longest_repaint_ms\":%.1f,\"longest_gap_per_10s_ms\":[%s],"
                    "\"rss_mb_per_10s\":[%s],"
                    "\"steps_shown\":%zu,\"rss_mb_at_1s\":%.0f,\"rss_mb_at_end\":%.0f,"
                    "\"engine_still_running\":%s}\n",
                    seconds, ticks, longest, longest_at, steady, longest_paint, tens.constData(),
                    rss.constData(), window.traceIndex().snapshots().size(), rss_at_1s,
                    resident_mb(), window.controller().running() ? "true" : "false");
    }
    return 0;
}
