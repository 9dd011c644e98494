#include "lockstep_views/palette.h"
#include "lockstep_views/timeline_styles.h"
#include "lockstep_views/timeline_view.h"
#include "lockstep_views/trace_index.h"
#include "runs/runs.h"
#include "scenario/scenario.h"
#include "trace/trace.h"
#include "view_test_support.h"

#include <QDir>
#include <QHelpEvent>
#include <QImage>
#include <QSignalSpy>
#include <QToolTip>
#include <QWheelEvent>
#include <QtTest>

#include <algorithm>
#include <cmath>

using namespace lockstep;
using lockstep::views::TimelineView;
using lockstep::views::TraceIndex;

using namespace lockstep::testing;

namespace {

// The straggler lesson in miniature: four workers, worker 2 three times slower, a barrier before a
// fixed 10 ms of communication. Compute is 10 ms a step (30 ms for worker 2), the update 2 ms.
Scenario straggler_scenario(int workers = 4, int slow_worker = 2) {
    Scenario s;
    s.name = "straggler";
    s.seed = 3;
    s.steps = 3;
    s.workers = workers;
    s.batch = 2;
    s.model = ModelShape{{2, 8, 3}, Activation::Tanh, LossKind::SoftmaxCrossEntropy};
    s.dataset = DatasetConfig{"spiral", "", static_cast<std::size_t>(workers) * 8, 0.1, 3};
    s.cost.compute_s_per_sample = 5e-3;
    s.cost.update_s = 2e-3;
    s.cost.communication_s_per_step = 0.01;
    s.delays.slowdown.assign(static_cast<std::size_t>(workers), 1.0);
    s.delays.slowdown[static_cast<std::size_t>(slow_worker)] = 3.0;
    return s;
}

QImage grab(TimelineView& view) {
    QImage image = view.grab().toImage().convertToFormat(QImage::Format_RGB32);
    image.setDevicePixelRatio(1.0);
    return image;
}

QRgb pixel(const QImage& image, double x, double y, double dpr) {
    return image.pixel(static_cast<int>(std::floor(x * dpr)),
                       static_cast<int>(std::floor(y * dpr)));
}

struct Census {
    int total = 0;
    int solid = 0;   // exactly the kind's colour
    int pattern = 0; // the darker shade its pattern is drawn in
};

// Counts, over the inside of `r` (widget coordinates), pixels in `colour` or its pattern shade.
Census census(const QImage& image, const QRectF& r, const QColor& colour, double dpr) {
    Census c;
    const QRgb solid = colour.rgb();
    const QRgb shade = colour.darker(175).rgb();
    for (int y = static_cast<int>(std::ceil(r.top() * dpr)); y < static_cast<int>(r.bottom() * dpr);
         ++y)
        for (int x = static_cast<int>(std::ceil(r.left() * dpr));
             x < static_cast<int>(r.right() * dpr); ++x) {
            const QRgb p = image.pixel(x, y) | 0xff000000u;
            ++c.total;
            c.solid += p == solid;
            c.pattern += p == shade;
        }
    return c;
}

QColor wait_colour() {
    return views::style_for(EventKind::Wait).colour;
}
QColor compute_colour() {
    return views::style_for(EventKind::Compute).colour;
}
// Waiting is drawn in vermillion, hatched with a darker shade of it.
bool is_wait(const QColor& c) {
    return c.rgb() == wait_colour().rgb() || c.rgb() == wait_colour().darker(175).rgb();
}

} // namespace

class TestTimelineView : public QObject {
    Q_OBJECT

private Q_SLOTS:
    void initTestCase();
    void waitIsDrawnExactlyOverTheWaitingInterval();
    void nothingIsDrawnAfterThePlayhead();
    void zoomMapsTimesToPixels_data();
    void zoomMapsTimesToPixels();
    void wheelAndKeysZoomAndPan();
    void followPlayheadScrolls();
    void tooltipGivesExactTimes();
    void eventAtFindsTheEventUnderThePoint();
    void manyWorkersFitInsideTheWidget();
    void clickOnAxisRequestsPlayhead();
    void accessibility();
    void everyKindHasOneColour();
    void screenshots();

private:
    void showView(TimelineView& view, int width = 1000, int height = 380);
    const TraceEvent& firstWait(int worker) const;

    TraceIndex index_;
    QString shots_;
};

void TestTimelineView::initTestCase() {
    run_into(straggler_scenario(), index_);
    QVERIFY(!index_.empty());
    QCOMPARE(index_.snapshots().size(), std::size_t{3});
    shots_ = QDir::temp().filePath(QStringLiteral("lockstep-screenshots"));
    QVERIFY(QDir().mkpath(shots_));
}

void TestTimelineView::showView(TimelineView& view, int width, int height) {
    view.resize(width, height);
    view.setTrace(&index_);
    view.setPlayhead(index_.end_time());
    view.fitAll();
    view.show();
    QVERIFY(QTest::qWaitForWindowExposed(&view));
}

const TraceEvent& TestTimelineView::firstWait(int worker) const {
    const auto lane = index_.lane(worker);
    const auto it = std::find_if(lane.begin(), lane.end(),
                                 [](const TraceEvent& e) { return e.kind == EventKind::Wait; });
    Q_ASSERT(it != lane.end());
    return *it;
}

void TestTimelineView::waitIsDrawnExactlyOverTheWaitingInterval() {
    // The trainer's barrier: worker 0 waits from its 10 ms of compute until the straggler's 30 ms.
    const TraceEvent& wait = firstWait(0);
    QCOMPARE(wait.start, to_ticks(0.010));
    QCOMPARE(wait.end, to_ticks(0.030));
    const auto straggler = index_.lane(2);
    QVERIFY(std::none_of(straggler.begin(), straggler.end(),
                         [](const TraceEvent& e) { return e.kind == EventKind::Wait; }));

    TimelineView view;
    showView(view);
    const QRectF r = view.eventRect(wait);
    QCOMPARE(r.left(), view.xForTime(wait.start));
    QCOMPARE(r.right(), view.xForTime(wait.end));
    QCOMPARE(r.top(), view.laneRect(0).top()); // waiting takes the full lane
    QCOMPARE(r.bottom(), view.laneRect(0).bottom());
    QVERIFY(r.width() > 40);

    const QImage image = grab(view);
    const double dpr = view.devicePixelRatioF();
    const Census inside = census(image, r.adjusted(2, 2, -2, -2), wait_colour(), dpr);
    QVERIFY(inside.total > 0);
    QCOMPARE(inside.solid + inside.pattern, inside.total); // nothing but the hatched wait
    QVERIFY2(inside.solid > inside.total * 3 / 4, qPrintable(QString::number(inside.solid)));
    QVERIFY(inside.pattern > 0); // the hatch is there too

    // Just before the wait, worker 0 is computing.
    const double y = view.laneRect(0).center().y();
    QCOMPARE(QColor(pixel(image, r.left() - 3, y, dpr)), compute_colour());
    QCOMPARE(QColor(pixel(image, r.right() + 3, y, dpr)),
             views::style_for(EventKind::Communicate).colour);

    // Over the same interval the straggler computes and never waits.
    const QRectF lane2 = view.laneRect(2);
    const QRectF slow(r.left() + 2, lane2.top(), r.width() - 4, lane2.height());
    const Census straggling = census(image, slow, wait_colour(), dpr);
    QCOMPARE(straggling.solid + straggling.pattern, 0);
    QCOMPARE(QColor(pixel(image, r.center().x(), lane2.center().y(), dpr)), compute_colour());
}

void TestTimelineView::nothingIsDrawnAfterThePlayhead() {
    const TraceEvent& wait = firstWait(0);
    TimelineView view;
    showView(view);
    const QRectF r = view.eventRect(wait).adjusted(2, 2, -2, -2);
    const double dpr = view.devicePixelRatioF();

    view.setPlayhead(wait.start - to_ticks(0.002));
    QCOMPARE(view.playhead(), wait.start - to_ticks(0.002));
    QImage image = grab(view);
    Census c = census(image, r, wait_colour(), dpr);
    QCOMPARE(c.solid + c.pattern, 0);
    QCOMPARE(view.eventAt(view.eventRect(wait).center()), nullptr);
    // Compute before the playhead is drawn.
    QCOMPARE(QColor(pixel(image, view.xForTime(wait.start - to_ticks(0.005)),
                          view.laneRect(0).center().y(), dpr)),
             compute_colour());

    // With the playhead halfway through, the first half is waiting and the rest is blank.
    const Ticks middle = (wait.start + wait.end) / 2;
    view.setPlayhead(middle);
    image = grab(view);
    const double xm = view.xForTime(middle);
    const QRectF before(r.left(), r.top(), xm - 4 - r.left(), r.height());
    const QRectF after(xm + 4, r.top(), r.right() - xm - 4, r.height());
    c = census(image, before, wait_colour(), dpr);
    QCOMPARE(c.solid + c.pattern, c.total);
    c = census(image, after, wait_colour(), dpr);
    QCOMPARE(c.solid + c.pattern, 0);
}

void TestTimelineView::zoomMapsTimesToPixels_data() {
    QTest::addColumn<Ticks>("from");
    QTest::addColumn<Ticks>("to");
    QTest::newRow("whole run") << Ticks{0} << index_.end_time();
    QTest::newRow("around the first wait") << to_ticks(0.005) << to_ticks(0.035);
    QTest::newRow("second step") << to_ticks(0.042) << to_ticks(0.084);
    QTest::newRow("ten microseconds") << to_ticks(0.029995) << to_ticks(0.030005);
}

void TestTimelineView::zoomMapsTimesToPixels() {
    QFETCH(Ticks, from);
    QFETCH(Ticks, to);
    TimelineView view;
    showView(view);
    view.setVisibleRange(from, to);
    QCOMPARE(view.visibleRange(), qMakePair(from, to));

    const QRectF lane = view.laneRect(0);
    QCOMPARE(view.xForTime(from), lane.left());
    QCOMPARE(view.xForTime(to), lane.right());
    const double ticks_per_pixel = static_cast<double>(to - from) / lane.width();
    for (int i = 0; i <= 20; ++i) {
        const Ticks t = from + (to - from) * i / 20;
        QVERIFY(std::abs(static_cast<double>(view.timeForX(view.xForTime(t)) - t)) <=
                ticks_per_pixel);
        const double x = lane.left() + lane.width() * i / 20.0;
        QVERIFY(std::abs(view.xForTime(view.timeForX(x)) - x) <= 1.0);
    }

    // What is drawn follows the zoom: the middle of the visible part of worker 0's wait is waiting.
    const TraceEvent& wait = firstWait(0);
    const Ticks a = std::max(wait.start, from), b = std::min(wait.end, to);
    if (b - a > (to - from) / 50) {
        const QImage image = grab(view);
        const QColor c(
            pixel(image, view.xForTime((a + b) / 2), lane.top() + 3, view.devicePixelRatioF()));
        QVERIFY(is_wait(c));
    }
}

void TestTimelineView::wheelAndKeysZoomAndPan() {
    TimelineView view;
    showView(view);
    view.setVisibleRange(0, to_ticks(0.1));
    const QRectF lane = view.laneRect(1);
    const QPointF at(lane.left() + lane.width() * 0.3, lane.center().y());
    const Ticks under = view.timeForX(at.x());
    QWheelEvent wheel(at, view.mapToGlobal(at), QPoint(), QPoint(0, 120), Qt::NoButton,
                      Qt::NoModifier, Qt::NoScrollPhase, false);
    QApplication::sendEvent(&view, &wheel);
    auto [from, to] = view.visibleRange();
    QVERIFY(to - from < to_ticks(0.1));
    // The time under the cursor stays under the cursor.
    QVERIFY(std::abs(view.xForTime(under) - at.x()) <= 1.0);

    view.setFocus();
    const Ticks span = to - from;
    QTest::keyClick(&view, Qt::Key_Plus);
    QVERIFY(view.visibleRange().second - view.visibleRange().first < span);
    QTest::keyClick(&view, Qt::Key_Minus);
    QTest::keyClick(&view, Qt::Key_Minus);
    QVERIFY(view.visibleRange().second - view.visibleRange().first > span);
    const Ticks before = view.visibleRange().first;
    QTest::keyClick(&view, Qt::Key_Right);
    QVERIFY(view.visibleRange().first > before);
    QTest::keyClick(&view, Qt::Key_Left);
    QCOMPARE(view.visibleRange().first, before);

    // Dragging the lanes pans: content moves with the mouse.
    const Ticks grabbed = view.timeForX(at.x());
    QTest::mousePress(&view, Qt::LeftButton, {}, at.toPoint());
    QMouseEvent move(QEvent::MouseMove, at - QPointF(100, 0),
                     view.mapToGlobal(at - QPointF(100, 0)), Qt::NoButton, Qt::LeftButton,
                     Qt::NoModifier);
    QApplication::sendEvent(&view, &move);
    QTest::mouseRelease(&view, Qt::LeftButton, {}, (at - QPointF(100, 0)).toPoint());
    QVERIFY(std::abs(view.xForTime(grabbed) - (at.x() - 100)) <= 1.0);
}

void TestTimelineView::followPlayheadScrolls() {
    TimelineView view;
    showView(view);
    view.setPlayhead(0);
    view.setVisibleRange(0, to_ticks(0.02));
    view.setFollowPlayhead(true);
    view.setPlayhead(to_ticks(0.1));
    auto [from, to] = view.visibleRange();
    QCOMPARE(to - from, to_ticks(0.02));
    QVERIFY(from <= to_ticks(0.1) && to_ticks(0.1) <= to);
    view.setFollowPlayhead(false);
    view.setPlayhead(to_ticks(0.01));
    QCOMPARE(view.visibleRange().first, from);
}

void TestTimelineView::tooltipGivesExactTimes() {
    const TraceEvent& wait = firstWait(1);
    const QString text = TimelineView::describe(wait);
    QVERIFY2(text.startsWith(QStringLiteral("wait \u00B7 worker 1 \u00B7 step 0")),
             qPrintable(text));
    QVERIFY2(text.contains(QStringLiteral("0.010000 s \u2192 0.030000 s (0.020000 s)")),
             qPrintable(text));
    // A time that is not a whole microsecond is written to the nanosecond.
    TraceEvent odd = wait;
    odd.start = 1'250'000'001;
    odd.end = 1'500'000'000;
    QVERIFY(
        TimelineView::describe(odd).contains(QStringLiteral("1.250000001 s \u2192 1.500000 s")));

    const auto lane = index_.lane(1);
    const auto comm = std::find_if(lane.begin(), lane.end(), [](const TraceEvent& e) {
        return e.kind == EventKind::Communicate;
    });
    QVERIFY(comm != lane.end());
    QVERIFY(comm->bytes > 0);
    QVERIFY(TimelineView::describe(*comm).contains(QStringLiteral(" bytes")));
    TraceEvent send = *comm;
    send.kind = EventKind::Send;
    send.peer = 2;
    QVERIFY(TimelineView::describe(send).contains(QStringLiteral("to worker 2")));

    // Hovering the wait shows that text.
    TimelineView view;
    showView(view);
    const QPoint pos = view.eventRect(wait).center().toPoint();
    QHelpEvent help(QEvent::ToolTip, pos, view.mapToGlobal(pos));
    QApplication::sendEvent(&view, &help);
    QTRY_COMPARE(QToolTip::text(), text);
}

void TestTimelineView::eventAtFindsTheEventUnderThePoint() {
    TimelineView view;
    showView(view);
    const TraceEvent& wait = firstWait(3);
    const TraceEvent* hit = view.eventAt(view.eventRect(wait).center());
    QVERIFY(hit);
    QCOMPARE(hit->kind, EventKind::Wait);
    QCOMPARE(hit->worker, 3);
    QCOMPARE(hit->start, wait.start);

    // The straggler's lane at the same time: its compute.
    const QPointF straggler(view.eventRect(wait).center().x(), view.laneRect(2).center().y());
    hit = view.eventAt(straggler);
    QVERIFY(hit);
    QCOMPARE(hit->kind, EventKind::Compute);
    QCOMPARE(hit->worker, 2);

    // After the wait, worker 3 communicates.
    hit = view.eventAt(QPointF(view.xForTime(to_ticks(0.035)), view.laneRect(3).center().y()));
    QVERIFY(hit);
    QCOMPARE(hit->kind, EventKind::Communicate);

    // Outside the lanes there is nothing.
    QCOMPARE(view.eventAt(QPointF(5, view.laneRect(0).center().y())), nullptr);
    QCOMPARE(view.eventAt(view.axisRect().center()), nullptr);
}

void TestTimelineView::manyWorkersFitInsideTheWidget() {
    TraceIndex many;
    run_into(straggler_scenario(256, 100), many);
    TimelineView view;
    view.resize(1000, 720);
    view.setTrace(&many);
    view.setPlayhead(many.end_time());
    view.show();
    QVERIFY(QTest::qWaitForWindowExposed(&view));

    const QImage image = grab(view);
    image.save(QDir(shots_).filePath(QStringLiteral("timeline_256_workers.png")));
    const double dpr = view.devicePixelRatioF();
    const Ticks waiting = to_ticks(0.020); // everyone but worker 100 waits for it here
    double previous_bottom = 0;
    for (int k = 0; k < 256; ++k) {
        const QRectF lane = view.laneRect(k);
        QVERIFY2(QRectF(view.rect()).contains(lane), qPrintable(QString::number(k)));
        QVERIFY(lane.height() >= 1);
        QVERIFY(lane.top() >= previous_bottom);
        previous_bottom = lane.bottom();
        const QColor c(pixel(image, view.xForTime(waiting), lane.top(), dpr));
        if (k == 100)
            QCOMPARE(c, compute_colour());
        else
            QVERIFY2(is_wait(c), qPrintable(QString::number(k)));
    }
    QVERIFY(previous_bottom <= view.axisRect().top());
    QVERIFY(view.laneRect(255).height() <= 3);
}

void TestTimelineView::clickOnAxisRequestsPlayhead() {
    TimelineView view;
    showView(view);
    QSignalSpy spy(&view, &TimelineView::playheadRequested);
    const QRectF axis = view.axisRect();
    const QPoint click(static_cast<int>(axis.left() + axis.width() * 0.37),
                       static_cast<int>(axis.center().y()));
    QTest::mouseClick(&view, Qt::LeftButton, {}, click);
    QCOMPARE(spy.count(), 1);
    const auto t = qvariant_cast<Ticks>(spy.at(0).at(0));
    QVERIFY(std::abs(view.xForTime(t) - click.x()) <= 1.0);

    // Shift+click on a lane scrubs too; a plain click on a lane does not.
    const QPoint lane = view.laneRect(1).center().toPoint();
    QTest::mouseClick(&view, Qt::LeftButton, Qt::ShiftModifier, lane);
    QCOMPARE(spy.count(), 2);
    QVERIFY(std::abs(view.xForTime(qvariant_cast<Ticks>(spy.at(1).at(0))) - lane.x()) <= 1.0);
    QTest::mouseClick(&view, Qt::LeftButton, {}, lane);
    QCOMPARE(spy.count(), 2);
}

void TestTimelineView::accessibility() {
    TimelineView view;
    QCOMPARE(view.accessibleName(), QStringLiteral("Timeline view"));
    showView(view);
    view.setVisibleRange(0, to_ticks(0.125));
    view.setPlayhead(to_ticks(0.032));
    QCOMPARE(view.accessibleDescription(), QStringLiteral("4 workers, 125 ms shown, 0 steps done"));
    // Within a step the description stays, so a screen reader is not told of every frame.
    const QString before = view.accessibleDescription();
    view.setPlayhead(to_ticks(0.033));
    QCOMPARE(view.accessibleDescription(), before);
    view.setTrace(nullptr);
    QVERIFY(view.eventAt(QPointF(view.width() / 2.0, view.height() / 2.0)) == nullptr);
    grab(view); // an empty view paints without a trace
}

// A kind has one colour in every view: the timeline draws each kind in the palette's style of
// its activity. A Detect (a live worker's heartbeat giving up on a dead peer) ends a wait, so it
// is waiting, on the timeline as in the cluster and the palette.
void TestTimelineView::everyKindHasOneColour() {
    for (int k = 0; k <= static_cast<int>(EventKind::Bubble); ++k) {
        const auto kind = static_cast<EventKind>(k);
        const EventKind drawnAs =
            views::timeline::kClassKinds[static_cast<std::size_t>(views::timeline::class_of(kind))];
        QVERIFY2(views::style_for(drawnAs).colour == views::style_for(kind).colour,
                 to_string(kind).data());
        QCOMPARE(views::style_for(kind).colour, views::style_for(views::activity_of(kind)).colour);
    }
    QCOMPARE(views::activity_of(EventKind::Detect), views::WorkerActivity::Waiting);
    QCOMPARE(views::timeline::class_of(EventKind::Detect), views::timeline::WaitClass);
    QCOMPARE(views::style_for(EventKind::Detect).colour, views::okabe_ito::vermillion);
}

void TestTimelineView::screenshots() {
    for (const bool dark : {false, true}) {
        TimelineView view;
        QFont font = view.font();
        font.setPointSizeF(font.pointSizeF() * 1.4); // as on a projector
        view.setFont(font);
        if (dark) {
            QPalette p = view.palette();
            p.setColor(QPalette::Base, QColor(0x1e, 0x1e, 0x1e));
            p.setColor(QPalette::AlternateBase, QColor(0x2a, 0x2a, 0x2a));
            p.setColor(QPalette::Text, QColor(0xee, 0xee, 0xee));
            view.setPalette(p);
        }
        showView(view, 1200, 460);
        view.setPlayhead(to_ticks(0.105));
        const QImage image = grab(view);
        const QString path = QDir(shots_).filePath(dark ? QStringLiteral("timeline_dark.png")
                                                        : QStringLiteral("timeline_light.png"));
        QVERIFY(image.save(path));
        qInfo("screenshot: %s", qPrintable(path));

        // The background follows the palette, and worker 0's first compute shows in its colour.
        const double dpr = view.devicePixelRatioF();
        QCOMPARE(QColor(pixel(image, view.width() - 8, view.height() - 8, dpr)),
                 view.palette().color(QPalette::Base));
        QCOMPARE(QColor(pixel(image, view.xForTime(to_ticks(0.005)), view.laneRect(0).center().y(),
                              dpr)),
                 compute_colour());
        // The legend's wait swatch is there, hatched like the lanes.
        int legend_wait = 0;
        for (int y = 0; y < static_cast<int>(view.laneRect(0).top() * dpr) - 1; ++y)
            for (int x = 0; x < image.width(); ++x)
                legend_wait += QColor(image.pixel(x, y)) == wait_colour();
        QVERIFY(legend_wait > 50);
    }
}

QTEST_MAIN(TestTimelineView)
#include "test_timeline_view.moc"
