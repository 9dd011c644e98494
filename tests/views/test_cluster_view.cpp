#include "collectives/schedule.h"
#include "failures/intervention.h"
#include "lockstep_views/cluster_view.h"
#include "lockstep_views/palette.h"
#include "lockstep_views/trace_index.h"
#include "runs/runs.h"
#include "scenario/scenario.h"
#include "trace/trace.h"

#include <QContextMenuEvent>
#include <QCoreApplication>
#include <QDir>
#include <QFontMetricsF>
#include <QImage>
#include <QMenu>
#include <QSignalSpy>
#include <QtTest>

#include <set>

#include <cmath>
#include <functional>
#include <memory>

using namespace lockstep;
using namespace lockstep::views;

Q_DECLARE_METATYPE(lockstep::Algorithm)

namespace {

// A small, fast scenario: `workers` replicas of a tiny MLP on the spiral set.
Scenario small_scenario(int workers, Algorithm algorithm, std::int64_t steps) {
    Scenario s;
    s.name = "cluster-view";
    s.seed = 3;
    s.steps = steps;
    s.workers = workers;
    s.batch = 4;
    s.algorithm = algorithm;
    s.model = ModelShape{{2, 8, 3}, Activation::Tanh, LossKind::SoftmaxCrossEntropy};
    s.dataset = DatasetConfig{"spiral", "", std::max<std::size_t>(600, 4u * workers), 0.1, 3};
    return s;
}

// A real run of the data-parallel trainer, recorded and indexed the way the GUI does it.
struct Recorded {
    Trace trace;
    TraceIndex index;
};

std::unique_ptr<Recorded> record(const Scenario& scenario) {
    auto run = std::make_unique<Recorded>();
    const auto trainer = make_run(scenario, load_dataset(scenario), &run->trace);
    trainer->run_to_end();
    run->index.reset(scenario.workers, scenario.algorithm);
    run->index.append(run->trace.events());
    for (const StepSnapshot& snapshot : run->trace.snapshots())
        run->index.append(snapshot);
    return run;
}

bool close_to(QColor a, QColor b, int tolerance = 14) {
    return std::abs(a.red() - b.red()) <= tolerance &&
           std::abs(a.green() - b.green()) <= tolerance &&
           std::abs(a.blue() - b.blue()) <= tolerance;
}

// The widget as drawn, at the screen's device pixel ratio.
QImage grab(ClusterView& view) {
    return view.grab().toImage().convertToFormat(QImage::Format_ARGB32);
}

// Share of the pixels within `radius` of `centre` (widget coordinates) that have `colour`.
double fraction_of(const QImage& image, QPointF centre, qreal radius, QColor colour) {
    const qreal ratio = image.devicePixelRatio();
    int inside = 0, matching = 0;
    const QPointF c = centre * ratio;
    const qreal r = radius * ratio;
    for (int y = int(c.y() - r); y <= int(c.y() + r); ++y)
        for (int x = int(c.x() - r); x <= int(c.x() + r); ++x) {
            if (std::hypot(x + 0.5 - c.x(), y + 0.5 - c.y()) > r || !image.valid(x, y))
                continue;
            ++inside;
            matching += close_to(image.pixelColor(x, y), colour) ? 1 : 0;
        }
    return inside ? double(matching) / inside : 0.0;
}

// Pixels of `colour` in a rectangle (widget coordinates).
int count_in(const QImage& image, QRectF area, QColor colour) {
    const qreal ratio = image.devicePixelRatio();
    int matching = 0;
    const QRect r = QRectF(area.topLeft() * ratio, area.size() * ratio).toRect();
    for (int y = r.top(); y <= r.bottom(); ++y)
        for (int x = r.left(); x <= r.right(); ++x)
            if (image.valid(x, y) && close_to(image.pixelColor(x, y), colour))
                ++matching;
    return matching;
}

void save_screenshot(ClusterView& view, const QString& name) {
    const QString dir = qEnvironmentVariable("LOCKSTEP_SCREENSHOT_DIR");
    if (!dir.isEmpty())
        QVERIFY(view.grab().save(QDir(dir).filePath(name + QStringLiteral(".png"))));
}

} // namespace

// The cluster view draws what a real trace says at the playhead.
class TestClusterView : public QObject {
    Q_OBJECT

private Q_SLOTS:
    void initTestCase();
    void straggler_keeps_the_others_waiting();
    void failed_worker_is_drawn_failed_data();
    void failed_worker_is_drawn_failed();
    void packets_travel_on_their_link();
    void alignment_indicator();
    void the_wire_format_is_named();
    void unsynchronised_replicas_differ();
    void parameter_server_sits_in_the_centre();
    void tree_runs_top_down();
    void crowded_circle_is_a_band_of_slices();
    void gradient_is_the_newest_finished_value();
    void layouts_data();
    void layouts();
    void worker_menu_emits_action_data();
    void worker_menu_emits_action();
    void click_opens_worker_menu();
    void follows_dark_palette();
    void presentation_font_draws_larger();
    void no_trace();
    void repaints_after_changes_data();
    void repaints_after_changes();

private:
    std::unique_ptr<Recorded> ring_;
};

void TestClusterView::initTestCase() {
    Scenario s = small_scenario(4, Algorithm::Ring, 5);
    s.delays.slowdown = {1, 1, 3, 1};
    ring_ = record(s);
    QVERIFY(!ring_->trace.events().empty());
    QCOMPARE(ring_->trace.snapshots().size(), std::size_t{5});
}

void TestClusterView::straggler_keeps_the_others_waiting() {
    // Worker 2 is three times slower: find a moment inside its first compute when another worker
    // already waits for it.
    const TraceEvent* compute = nullptr;
    for (const TraceEvent& e : ring_->index.lane(2))
        if (e.kind == EventKind::Compute && e.step == 0)
            compute = &e;
    QVERIFY(compute);
    const TraceEvent* wait = nullptr;
    for (const TraceEvent& e : ring_->trace.events())
        if (e.kind == EventKind::Wait && e.worker != 2 && e.start < compute->end &&
            e.end > compute->start && e.end > e.start) {
            wait = &e;
            break;
        }
    QVERIFY2(wait, "some worker waits while worker 2 computes");
    const Ticks t = (std::max(wait->start, compute->start) + std::min(wait->end, compute->end)) / 2;

    ClusterView view;
    view.resize(800, 600);
    view.setTrace(&ring_->index);
    view.setPlayhead(t);
    const auto glyphs = view.glyphs();
    QCOMPARE(glyphs.size(), 4);
    QCOMPARE(glyphs[2].activity, WorkerActivity::Computing);
    const auto& waiting = glyphs[wait->worker];
    QCOMPARE(waiting.activity, WorkerActivity::Waiting);
    QVERIFY(waiting.radius >= 12.0);

    // The waiting worker's disc is vermillion, the computing one blue (the centre holds the
    // number, so most but not all of the inner disc has the fill colour).
    const QImage image = grab(view);
    QVERIFY(fraction_of(image, waiting.centre, 0.55 * waiting.radius, okabe_ito::vermillion) > 0.5);
    QVERIFY(fraction_of(image, glyphs[2].centre, 0.55 * glyphs[2].radius, okabe_ito::blue) > 0.5);
    QCOMPARE(fraction_of(image, glyphs[2].centre, glyphs[2].radius, okabe_ito::vermillion), 0.0);

    const QString description = view.accessibleDescription();
    QVERIFY2(description.startsWith(QStringLiteral("4 workers, ring")), qPrintable(description));
    QVERIFY2(description.contains(QStringLiteral("worker 2 computing")), qPrintable(description));
    QVERIFY2(description.contains(QStringLiteral("waiting")), qPrintable(description));
    QCOMPARE(view.accessibleName(), QStringLiteral("Cluster view"));
    save_screenshot(view, QStringLiteral("cluster-ring-straggler"));
}

// A failed worker is drawn in the failed colour at its own place, whichever worker it is and
// whether or not it has the focus (the pictures of the discs are kept per activity: failed
// needs its own).
void TestClusterView::failed_worker_is_drawn_failed_data() {
    QTest::addColumn<int>("failed");
    for (int w = 0; w < 4; ++w)
        QTest::addRow("worker %d", w) << w;
}

void TestClusterView::failed_worker_is_drawn_failed() {
    QFETCH(int, failed);
    lockstep::views::TraceIndex index;
    index.reset(4, Algorithm::Ring);
    std::vector<TraceEvent> events;
    for (int w = 0; w < 4; ++w)
        events.push_back({w, w == failed ? EventKind::Failed : EventKind::Compute, 0, 0, 1000});
    index.append(events);
    ClusterView view;
    view.resize(800, 600);
    view.setTrace(&index);
    view.setPlayhead(500);
    const auto glyphs = view.glyphs();
    QCOMPARE(glyphs[failed].activity, WorkerActivity::Failed);
    const QImage image = grab(view);
    const QColor dark = style_for(WorkerActivity::Failed).colour;
    for (const auto& g : glyphs) {
        const double share = fraction_of(image, g.centre, 0.55 * g.radius, dark);
        if (g.worker == failed)
            QVERIFY2(share > 0.3, qPrintable(QString::number(share)));
        else
            QVERIFY2(fraction_of(image, g.centre, 0.55 * g.radius, okabe_ito::blue) > 0.5,
                     qPrintable(QStringLiteral("worker %1").arg(g.worker)));
    }
}

void TestClusterView::packets_travel_on_their_link() {
    // A message of the second step, 40% of the way along.
    const TraceEvent* send = nullptr;
    for (const TraceEvent& e : ring_->trace.events())
        if (e.kind == EventKind::Send && e.step == 1 && e.end - e.start >= 1000) {
            send = &e;
            break;
        }
    QVERIFY(send);
    const Ticks t = send->start + (send->end - send->start) * 2 / 5;
    const double progress = double(t - send->start) / double(send->end - send->start);

    ClusterView view;
    view.resize(800, 600);
    view.setTrace(&ring_->index);
    view.setPlayhead(t);
    const auto glyphs = view.glyphs();
    const auto packets = view.packetGlyphs();
    const QPair<PacketInFlight, QPointF>* found = nullptr;
    for (const auto& packet : packets)
        if (packet.first.src == send->worker && packet.first.dst == send->peer &&
            packet.first.round == send->round)
            found = &packet;
    QVERIFY(found);
    QCOMPARE(found->first.bytes, send->bytes);
    QVERIFY(std::abs(found->first.progress - progress) < 1e-9);

    // On the segment between the two centres, `progress` of the way from rim to rim.
    const QPointF a = glyphs[send->worker].centre;
    const QPointF b = glyphs[send->peer].centre;
    const qreal r = glyphs[send->worker].radius;
    const QPointF p = found->second;
    const qreal ab = QLineF(a, b).length();
    const qreal ap = QLineF(a, p).length();
    QVERIFY(std::abs(ap + QLineF(p, b).length() - ab) < 0.5);
    QVERIFY(std::abs((ap - r) / (ab - 2 * r) - progress) < 0.01);

    const QImage image = grab(view);
    QVERIFY(fraction_of(image, p, 1.5, okabe_ito::bluish_green) > 0.5);
    save_screenshot(view, QStringLiteral("cluster-ring-packets"));
}

void TestClusterView::alignment_indicator() {
    ClusterView view;
    view.resize(800, 600);
    view.setTrace(&ring_->index);
    const qreal line = QFontMetricsF(view.font()).height();
    const QRectF header(0, 0, 800, 2.5 * line);

    const StepSnapshot& first = ring_->trace.snapshots().front();
    view.setPlayhead(first.time - 1);
    QVERIFY(view.accessibleDescription().contains(QStringLiteral("no step finished yet")));
    QVERIFY(!view.accessibleDescription().contains(QStringLiteral("replicas")));
    QImage image = grab(view);
    QCOMPARE(count_in(image, header, okabe_ito::bluish_green), 0);
    QCOMPARE(count_in(image, header, okabe_ito::vermillion), 0);

    QVERIFY(first.replicas_aligned);
    view.setPlayhead(first.time);
    QVERIFY(view.accessibleDescription().contains(QStringLiteral("replicas aligned")));
    image = grab(view);
    QVERIFY(count_in(image, header, okabe_ito::bluish_green) > 30);
    QCOMPARE(count_in(image, header, okabe_ito::vermillion), 0);
}

// Gradients in fewer bits than float64: the subtitle and the description name their format; a
// float64 run names none.
void TestClusterView::the_wire_format_is_named() {
    Scenario s = small_scenario(4, Algorithm::Ring, 2);
    s.comm_precision = WirePrecision::Float16;
    const auto run = record(s);
    ClusterView view;
    view.resize(800, 600);
    view.runStarted(run->index, s);
    view.setPlayhead(run->trace.snapshots().back().time);
    QVERIFY2(view.accessibleDescription().contains(QStringLiteral("float16 on the wire")),
             qPrintable(view.accessibleDescription()));
    const qreal line = QFontMetricsF(view.font()).height();
    const QRect subtitle(0, 0, 800, static_cast<int>(3 * line));
    const QImage narrow = grab(view).copy(subtitle);

    s.comm_precision = WirePrecision::Float64;
    view.runStarted(run->index, s);
    QVERIFY(!view.accessibleDescription().contains(QStringLiteral("on the wire")));
    QVERIFY(grab(view).copy(subtitle) != narrow); // the words are drawn, and gone again
}

void TestClusterView::unsynchronised_replicas_differ() {
    const auto run = record(small_scenario(4, Algorithm::None, 2));
    const StepSnapshot& first = run->trace.snapshots().front();
    QVERIFY(!first.replicas_aligned);

    ClusterView view;
    view.resize(800, 600);
    view.setTrace(&run->index);
    view.setPlayhead(first.time);
    QVERIFY(view.accessibleDescription().contains(QStringLiteral("replicas differ")));
    QVERIFY(view.accessibleDescription().contains(QStringLiteral("no synchronisation")));
    QVERIFY(view.packetGlyphs().isEmpty());
    const qreal line = QFontMetricsF(view.font()).height();
    const QImage image = grab(view);
    QVERIFY(count_in(image, QRectF(0, 0, 800, 2.5 * line), okabe_ito::vermillion) > 30);

    // Without synchronisation the replicas' last gradients differ, and the bars show it.
    const auto glyphs = view.glyphs();
    QVERIFY(glyphs[0].gradient != glyphs[1].gradient);
    save_screenshot(view, QStringLiteral("cluster-none"));
}

void TestClusterView::parameter_server_sits_in_the_centre() {
    const auto run = record(small_scenario(6, Algorithm::ParameterServer, 1));
    ClusterView view;
    view.resize(800, 600);
    view.setTrace(&run->index);
    view.setPlayhead(run->index.end_time() / 2);
    const auto glyphs = view.glyphs();
    QCOMPARE(glyphs.size(), 6);
    QPointF mean;
    for (int k = 1; k < 6; ++k)
        mean += glyphs[k].centre / 5.0;
    QVERIFY(QLineF(mean, glyphs[0].centre).length() < 1.0);
    const qreal spoke = QLineF(glyphs[0].centre, glyphs[1].centre).length();
    QVERIFY(spoke > 4 * glyphs[0].radius);
    for (int k = 2; k < 6; ++k)
        QVERIFY(std::abs(QLineF(glyphs[0].centre, glyphs[k].centre).length() - spoke) < 0.5);
    save_screenshot(view, QStringLiteral("cluster-parameter-server"));
}

void TestClusterView::tree_runs_top_down() {
    const auto run = record(small_scenario(8, Algorithm::Tree, 1));
    ClusterView view;
    view.resize(800, 600);
    view.setTrace(&run->index);
    view.setPlayhead(run->index.end_time() / 2);
    const auto glyphs = view.glyphs();
    for (int k = 1; k < 8; ++k) {
        QVERIFY(glyphs[0].centre.y() < glyphs[k].centre.y());
        QVERIFY(glyphs[k & (k - 1)].centre.y() < glyphs[k].centre.y()); // parent above child
    }
    save_screenshot(view, QStringLiteral("cluster-tree"));
}

// 256 workers around a parameter server: too many for numbered discs, so each worker is a slice
// of one band, in its own activity's colour; the server is a disc in the middle.
void TestClusterView::crowded_circle_is_a_band_of_slices() {
    const auto run = record(small_scenario(256, Algorithm::ParameterServer, 1));
    ClusterView view;
    view.resize(900, 700);
    view.setTrace(&run->index);
    view.setPlayhead(run->index.end_time() / 3);
    const auto glyphs = view.glyphs();
    QCOMPARE(glyphs.size(), 256);
    const QImage image = grab(view);
    auto shows = [&](const ClusterView::WorkerGlyph& g) {
        const QColor colour = style_for(g.activity).colour;
        int hits = 0;
        for (int dy = -2; dy <= 2; ++dy)
            for (int dx = -2; dx <= 2; ++dx)
                hits += close_to(image.pixelColor(g.centre.toPoint() + QPoint(dx, dy)), colour, 30)
                            ? 1
                            : 0;
        return hits >= 4;
    };
    std::set<WorkerActivity> seen;
    for (const auto& g : glyphs) {
        QVERIFY2(shows(g), qPrintable(QStringLiteral("worker %1 is not drawn %2")
                                          .arg(g.worker)
                                          .arg(style_for(g.activity).label)));
        seen.insert(g.activity);
    }
    QVERIFY(seen.size() >= 2); // the server's queue: some compute or send while others wait
    // The server's disc is bigger than a slice; the slices touch.
    const QPointF centre = glyphs[0].centre;
    QVERIFY(glyphs[0].radius > 2 * glyphs[1].radius);
    QVERIFY(QLineF(glyphs[1].centre, glyphs[2].centre).length() < 4 * glyphs[1].radius);
    // Every slice answers a click, edge to edge: a point just inside the slice's outer edge too.
    for (int k : {1, 100, 255}) {
        const QPointF out = glyphs[k].centre - centre;
        const QPointF edge = glyphs[k].centre + out / std::hypot(out.x(), out.y()) * 0.8 *
                                                    (std::hypot(out.x(), out.y()) * 0.04);
        QCOMPARE(view.workerAt(edge), k);
    }
    QCOMPARE(view.workerAt(centre), 0);
}

// Each worker's gradient value is that of its newest Compute or Update finished by the playhead
// (one still running is not known yet), checked against the raw trace at many playheads.
void TestClusterView::gradient_is_the_newest_finished_value() {
    const auto run = record(small_scenario(4, Algorithm::Ring, 6));
    ClusterView view;
    view.resize(600, 400);
    view.setTrace(&run->index);
    const Ticks end = run->index.end_time();
    int known = 0;
    for (int i = 0; i <= 97; ++i) {
        const Ticks t = end * i / 97;
        view.setPlayhead(t);
        for (const auto& g : view.glyphs()) {
            double expected = 0.0;
            Ticks newest = -1;
            for (const TraceEvent& e : run->trace.events())
                if (e.worker == g.worker &&
                    (e.kind == EventKind::Compute || e.kind == EventKind::Update) && e.end <= t &&
                    e.end > newest) {
                    newest = e.end;
                    expected = e.value;
                }
            QCOMPARE(g.gradient, expected);
            known += newest >= 0 ? 1 : 0;
        }
    }
    QVERIFY(known > 200); // most playheads come after a first compute
}

void TestClusterView::layouts_data() {
    QTest::addColumn<Algorithm>("algorithm");
    QTest::addColumn<int>("workers");
    const std::pair<Algorithm, const char*> algorithms[] = {
        {Algorithm::Ring, "ring"},
        {Algorithm::ParameterServer, "parameter-server"},
        {Algorithm::Tree, "tree"},
        {Algorithm::None, "none"}};
    for (const auto& [algorithm, name] : algorithms)
        for (int workers : {1, 2, 5, 32, 256})
            QTest::addRow("%s-%d", name, workers) << algorithm << workers;
}

void TestClusterView::layouts() {
    QFETCH(Algorithm, algorithm);
    QFETCH(int, workers);
    const auto run = record(small_scenario(workers, algorithm, 1));

    ClusterView view;
    view.resize(800, 600);
    view.setTrace(&run->index);
    view.setPlayhead(run->index.end_time() / 3);
    const auto glyphs = view.glyphs();
    QCOMPARE(glyphs.size(), workers);
    const QRectF bounds(0, 0, 800, 600);
    for (const auto& g : glyphs) {
        QVERIFY(g.radius >= 1.0);
        QVERIFY2(bounds.contains(QRectF(g.centre - QPointF(g.radius, g.radius),
                                        QSizeF(2 * g.radius, 2 * g.radius))),
                 qPrintable(QStringLiteral("worker %1 outside").arg(g.worker)));
        QCOMPARE(view.workerAt(g.centre), g.worker);
    }
    // No two workers overlap, so every one of them stays visible.
    for (int i = 0; i < workers; ++i)
        for (int j = i + 1; j < workers; ++j)
            QVERIFY(QLineF(glyphs[i].centre, glyphs[j].centre).length() >=
                    glyphs[i].radius + glyphs[j].radius);
    QCOMPARE(view.workerAt(QPointF(-50, -50)), -1);
    for (const auto& packet : view.packetGlyphs())
        QVERIFY(bounds.contains(packet.second));
    QVERIFY(!grab(view).isNull());

    // At its minimum size every worker still lies inside the widget.
    view.resize(view.minimumSizeHint());
    const QRectF small(QPointF(0, 0), QSizeF(view.size()));
    for (const auto& g : view.glyphs())
        QVERIFY(small.contains(g.centre));
    QVERIFY(!grab(view).isNull());
    view.resize(800, 600);
    if (workers == 256 || workers == 32)
        save_screenshot(
            view, QStringLiteral("cluster-%1").arg(QString::fromLatin1(QTest::currentDataTag())));
}

void TestClusterView::worker_menu_emits_action_data() {
    QTest::addColumn<QString>("id");
    QTest::addColumn<QString>("text");
    QTest::newRow("slow") << QStringLiteral("slow") << QStringLiteral("Slow down 3×");
    QTest::newRow("pause") << QStringLiteral("pause") << QStringLiteral("Pause for 2 steps");
    QTest::newRow("crash") << QStringLiteral("crash") << QStringLiteral("Crash");
    QTest::newRow("crash-checkpoint")
        << QStringLiteral("crash-checkpoint") << QStringLiteral("Crash during next checkpoint");
}

// What the lab offers (LabSession::workerMenu()): the engine's kinds, in their words.
static QList<lockstep::views::WorkerAction> kinds_offered() {
    QList<lockstep::views::WorkerAction> offers;
    for (const lockstep::FaultKind* kind : lockstep::fault_kinds())
        if (kind->menu_text)
            offers.append({QString::fromLatin1(kind->id),
                           QCoreApplication::translate("Fault", kind->menu_text),
                           {}});
    return offers;
}

void TestClusterView::worker_menu_emits_action() {
    QFETCH(QString, id);
    QFETCH(QString, text);
    ClusterView view;
    view.setTrace(&ring_->index);
    QList<lockstep::views::WorkerAction> offers = kinds_offered();
    view.setWorkerMenu(offers);
    QSignalSpy spy(&view, &ClusterView::workerActionRequested);
    std::unique_ptr<QMenu> menu(view.buildWorkerMenu(3));
    QAction* chosen = nullptr;
    for (QAction* action : menu->actions())
        if (action->data().toString() == id)
            chosen = action;
    QVERIFY(chosen);
    QCOMPARE(chosen->text(), text);
    chosen->trigger();
    QCOMPARE(spy.count(), 1);
    QCOMPARE(spy.at(0).at(0).toInt(), 3);
    QCOMPARE(spy.at(0).at(1).toString(), id);

    // What the run cannot take stays in the menu, greyed, with the reason as its tip.
    for (lockstep::views::WorkerAction& offer : offers)
        if (offer.id == id)
            offer.unavailable = QStringLiteral("Not here.");
    view.setWorkerMenu(offers);
    std::unique_ptr<QMenu> again(view.buildWorkerMenu(3));
    for (QAction* action : again->actions())
        if (action->data().toString() == id) {
            QVERIFY(!action->isEnabled());
            QCOMPARE(action->toolTip(), QStringLiteral("Not here."));
        }
    QVERIFY(again->toolTipsVisible());
}

void TestClusterView::click_opens_worker_menu() {
    ClusterView view;
    view.resize(800, 600);
    view.setTrace(&ring_->index);
    view.setWorkerMenu(kinds_offered());
    view.show();
    QVERIFY(QTest::qWaitForWindowExposed(&view));
    const auto glyphs = view.glyphs();
    QTest::mouseClick(&view, Qt::LeftButton, {}, glyphs[1].centre.toPoint());
    QMenu* menu = nullptr;
    QTRY_VERIFY((menu = view.findChild<QMenu*>()) && menu->isVisible());
    // The "Worker 1" section, then every change to one worker of failures/intervention.h, in order.
    QStringList offered, vocabulary;
    for (QAction* a : menu->actions())
        if (!a->isSeparator())
            offered << a->data().toString();
    for (const FaultKind* kind : fault_kinds())
        if (kind->menu_text)
            vocabulary << QString::fromLatin1(kind->id);
    QCOMPARE(offered, vocabulary);
    QCOMPARE(menu->actions().size(), 1 + static_cast<int>(vocabulary.size()));
    QSignalSpy spy(&view, &ClusterView::workerActionRequested);
    menu->actions().back()->trigger();
    QCOMPARE(spy.count(), 1);
    QCOMPARE(spy.at(0).at(0).toInt(), 1);
    QCOMPARE(spy.at(0).at(1).toString(), vocabulary.back()); // the last entry's kind
    menu->close();
    QTRY_VERIFY(!view.findChild<QMenu*>()); // deleted once closed

    // The right button (a context menu event) offers the same menu for the worker under it.
    const QPoint at = glyphs[2].centre.toPoint();
    QContextMenuEvent right(QContextMenuEvent::Mouse, at, view.mapToGlobal(at));
    QCoreApplication::sendEvent(&view, &right);
    QTRY_VERIFY((menu = view.findChild<QMenu*>()) && menu->isVisible());
    menu->actions().at(1)->trigger();
    QCOMPARE(spy.count(), 2);
    QCOMPARE(spy.at(1).at(0).toInt(), 2);
    QCOMPARE(spy.at(1).at(1).toString(), QStringLiteral("slow"));
    menu->close();
}

void TestClusterView::follows_dark_palette() {
    ClusterView view;
    QPalette dark = view.palette();
    dark.setColor(QPalette::Window, QColor(0x20, 0x22, 0x25));
    dark.setColor(QPalette::WindowText, QColor(0xf0, 0xf0, 0xf0));
    view.setPalette(dark);
    view.resize(800, 600);
    view.setTrace(&ring_->index);
    view.setPlayhead(ring_->trace.snapshots().front().time);
    const QImage image = grab(view);
    QCOMPARE(image.pixelColor(2, 2), QColor(0x20, 0x22, 0x25));
    // The header's text is drawn in the palette's text colour.
    const qreal line = QFontMetricsF(view.font()).height();
    QVERIFY(count_in(image, QRectF(0, 0, 400, 2.5 * line), QColor(0xf0, 0xf0, 0xf0)) > 20);
    save_screenshot(view, QStringLiteral("cluster-dark"));

    // A larger (presentation) font asks for more room.
    const QSize normal = view.minimumSizeHint();
    QFont big = view.font();
    big.setPointSizeF(big.pointSizeF() * 2);
    view.setFont(big);
    QVERIFY(view.minimumSizeHint().width() > normal.width());
}

void TestClusterView::presentation_font_draws_larger() {
    ClusterView view;
    view.resize(1280, 800);
    view.setTrace(&ring_->index);
    view.setPlayhead(ring_->trace.snapshots().front().time);
    const double normal = view.glyphs().front().radius;
    QFont big = view.font();
    big.setPointSizeF(big.pointSizeF() * 1.8);
    view.setFont(big);
    const auto glyphs = view.glyphs();
    QVERIFY(glyphs.front().radius > 1.3 * normal);
    for (const auto& g : glyphs)
        QVERIFY(QRectF(0, 0, 1280, 800).contains(g.centre));
    save_screenshot(view, QStringLiteral("cluster-presentation"));
}

void TestClusterView::no_trace() {
    ClusterView view;
    view.resize(640, 480);
    QVERIFY(view.glyphs().isEmpty());
    QVERIFY(view.packetGlyphs().isEmpty());
    QCOMPARE(view.workerAt(QPointF(320, 240)), -1);
    QCOMPARE(view.accessibleDescription(), QStringLiteral("No run loaded"));
    QVERIFY(!grab(view).isNull());
    view.setTrace(&ring_->index);
    QCOMPARE(view.glyphs().size(), 4);
    view.setTrace(nullptr);
    QVERIFY(view.glyphs().isEmpty());
    QCOMPARE(view.sizeHint(), QSize(640, 480));
}

void TestClusterView::repaints_after_changes_data() {
    QTest::addColumn<QString>("change");
    for (const char* change :
         {"playhead", "resize", "palette", "font", "more-workers", "other-algorithm", "no-trace"})
        QTest::newRow(change) << QString::fromLatin1(change);
}

// What stays put while the playhead moves is painted once and kept; a view that has painted and
// then changes paints exactly what a new view in the changed state paints.
void TestClusterView::repaints_after_changes() {
    QFETCH(QString, change);
    const auto six = record(small_scenario(6, Algorithm::Ring, 2));
    const auto tree = record(small_scenario(4, Algorithm::Tree, 2));
    QPalette dark;
    dark.setColor(QPalette::Window, QColor(0x20, 0x22, 0x25));
    dark.setColor(QPalette::WindowText, QColor(0xf0, 0xf0, 0xf0));
    QFont big;
    big.setPointSizeF(big.pointSizeF() * 1.5);

    // The state after the change, and how to reach it from the first one.
    QSize size(800, 600);
    const TraceIndex* index = &ring_->index;
    Ticks t = ring_->trace.snapshots().front().time;
    QPalette palette;
    QFont font;
    std::function<void(ClusterView&)> apply;
    if (change == QStringLiteral("playhead")) {
        t = ring_->index.end_time() / 3;
        apply = [&](ClusterView& v) { v.setPlayhead(t); };
    } else if (change == QStringLiteral("resize")) {
        size = QSize(700, 520);
        apply = [&](ClusterView& v) { v.resize(size); };
    } else if (change == QStringLiteral("palette")) {
        palette = dark;
        apply = [&](ClusterView& v) { v.setPalette(palette); };
    } else if (change == QStringLiteral("font")) {
        font = big;
        apply = [&](ClusterView& v) { v.setFont(font); };
    } else {
        index = change == QStringLiteral("more-workers")      ? &six->index
                : change == QStringLiteral("other-algorithm") ? &tree->index
                                                              : nullptr;
        apply = [&](ClusterView& v) { v.setTrace(index); };
    }

    ClusterView view;
    view.resize(800, 600);
    view.setTrace(&ring_->index);
    view.setPlayhead(ring_->trace.snapshots().front().time);
    const QImage before = grab(view);
    apply(view);
    const QImage after = grab(view);

    ClusterView fresh;
    fresh.setPalette(palette);
    fresh.setFont(font);
    fresh.resize(size);
    fresh.setTrace(index);
    fresh.setPlayhead(t);
    QVERIFY(after != before);
    QCOMPARE(after, grab(fresh));

    // Back where it started, the first picture again.
    view.resize(800, 600);
    view.setPalette(QPalette());
    view.setFont(QFont());
    view.setTrace(&ring_->index);
    view.setPlayhead(ring_->trace.snapshots().front().time);
    QCOMPARE(grab(view), before);
}

QTEST_MAIN(TestClusterView)
#include "test_cluster_view.moc"
