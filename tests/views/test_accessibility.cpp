// What a screen reader finds in the views: the workers of the cluster, the lanes of the
// timeline and the boxes of the pipeline as objects with names, values and places; a step's
// story for the audio description; and a palette whose every activity colour stands out from
// its background by 3:1 (WCAG 2's ratio, computed here), on a light and on a dark theme.

#include "view_test_support.h"

#include "lockstep_views/accessibility.h"
#include "lockstep_views/cluster_view.h"
#include "lockstep_views/palette.h"
#include "lockstep_views/pipeline_view.h"
#include "lockstep_views/step_story.h"
#include "lockstep_views/timeline_view.h"
#include "scenario/pipeline_plan.h"
#include "trainers/run.h"

#include <QAccessible>
#include <QtTest>

#include <cmath>

using namespace lockstep;
using namespace lockstep::views;
using namespace lockstep::testing;

namespace {

// Four workers on a ring; worker 2 computes three times slower, so the others wait for it.
Scenario straggler() {
    Scenario s;
    s.name = "accessibility";
    s.seed = 5;
    s.steps = 4;
    s.workers = 4;
    s.batch = 4;
    s.model = ModelShape{{2, 8, 3}, Activation::Tanh, LossKind::SoftmaxCrossEntropy};
    s.dataset = DatasetConfig{"spiral", "", 600, 0.1, 3};
    s.cost.compute_s_per_sample = 1e-3;
    s.cost.update_s = 1e-3;
    s.delays.slowdown = {1.0, 1.0, 3.0, 1.0};
    return s;
}

// The independent WCAG 2 formula, written out again: relative luminance of sRGB.
double wcag_luminance(const QColor& c) {
    auto lin = [](double v) {
        return v <= 0.03928 ? v / 12.92 : std::pow((v + 0.055) / 1.055, 2.4);
    };
    return 0.2126 * lin(c.redF()) + 0.7152 * lin(c.greenF()) + 0.0722 * lin(c.blueF());
}
double wcag_ratio(const QColor& a, const QColor& b) {
    const double x = wcag_luminance(a), y = wcag_luminance(b);
    return (std::max(x, y) + 0.05) / (std::min(x, y) + 0.05);
}

const WorkerActivity kAll[] = {
    WorkerActivity::Idle,      WorkerActivity::Computing,     WorkerActivity::Sending,
    WorkerActivity::Receiving, WorkerActivity::Waiting,       WorkerActivity::Updating,
    WorkerActivity::Paused,    WorkerActivity::Checkpointing, WorkerActivity::Failed};

// The hue of a colour in degrees (-1 for a grey).
int hue(const QColor& c) {
    return c.hsvHue();
}

} // namespace

class TestAccessibility : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void initTestCase() {
        install_accessibility();
        QAccessible::setActive(true);
    }

    void clusterWorkersAreObjects() {
        const Scenario s = straggler();
        const Trace trace = recorded(s);
        TraceIndex index;
        index_into(s, trace, index);
        ClusterView view;
        view.resize(800, 600);
        view.setTrace(&index);
        view.show();
        QVERIFY(QTest::qWaitForWindowExposed(&view));
        QAccessibleInterface* iface = QAccessible::queryAccessibleInterface(&view);
        QVERIFY(iface);
        QCOMPARE(iface->role(), QAccessible::List);
        QCOMPARE(iface->text(QAccessible::Name), QStringLiteral("Cluster view"));
        QCOMPARE(iface->childCount(), 4);
        // While worker 2 still computes the first step, the others wait: for worker 2.
        const Ticks fast_end = [&] {
            for (const TraceEvent& e : index.lane(0))
                if (e.kind == EventKind::Wait)
                    return (e.start + e.end) / 2;
            return Ticks(0);
        }();
        QVERIFY(fast_end > 0);
        view.setPlayhead(fast_end);
        for (int k = 0; k < 4; ++k) {
            QAccessibleInterface* worker = iface->child(k);
            QVERIFY(worker);
            QCOMPARE(worker->role(), QAccessible::ListItem);
            QCOMPARE(worker->text(QAccessible::Name), QStringLiteral("Worker %1").arg(k));
            QCOMPARE(worker->parent(), iface);
            QCOMPARE(iface->indexOfChild(worker), k);
            QVERIFY(!worker->rect().isEmpty());
            // Its place on screen: the child under the middle of its rectangle is itself.
            QCOMPARE(iface->childAt(worker->rect().center().x(), worker->rect().center().y()),
                     worker);
        }
        const QString slow = iface->child(2)->text(QAccessible::Value);
        QVERIFY2(slow.startsWith(QStringLiteral("computing")), qPrintable(slow));
        const QString waiting = iface->child(0)->text(QAccessible::Value);
        QVERIFY2(waiting.startsWith(QStringLiteral("waiting")), qPrintable(waiting));
        QVERIFY2(waiting.contains(QStringLiteral("gradient")), qPrintable(waiting));
        // The same interface for the same child, every time it is asked.
        QCOMPARE(iface->child(1), iface->child(1));
    }

    void descriptionChangesPerStepNotPerFrame() {
        const Scenario s = straggler();
        const Trace trace = recorded(s);
        TraceIndex index;
        index_into(s, trace, index);
        ClusterView view;
        view.setTrace(&index);
        const Ticks first_end = index.snapshots().front().time;
        view.setPlayhead(first_end + 1);
        const QString at_step = view.accessibleDescription();
        QVERIFY(at_step.contains(QStringLiteral("step")));
        // Sixty frames inside the next step: the description stays as it was.
        const Ticks next_end = index.snapshots()[1].time;
        for (int frame = 1; frame < 60; ++frame) {
            view.setPlayhead(first_end + (next_end - first_end) * frame / 61);
            QCOMPARE(view.accessibleDescription(), at_step);
        }
        view.setPlayhead(next_end + 1);
        QVERIFY(view.accessibleDescription() != at_step);
    }

    void timelineLanesAreObjects() {
        const Scenario s = straggler();
        const Trace trace = recorded(s);
        TraceIndex index;
        index_into(s, trace, index);
        TimelineView view;
        view.resize(900, 400);
        view.setTrace(&index);
        view.show();
        QVERIFY(QTest::qWaitForWindowExposed(&view));
        view.setPlayhead(index.lane(2).front().start + 1);
        QAccessibleInterface* iface = QAccessible::queryAccessibleInterface(&view);
        QVERIFY(iface);
        QCOMPARE(iface->childCount(), 4);
        QAccessibleInterface* lane = iface->child(2);
        QCOMPARE(lane->text(QAccessible::Name), QStringLiteral("Lane of worker 2"));
        QVERIFY2(lane->text(QAccessible::Value).startsWith(QStringLiteral("compute · worker 2")),
                 qPrintable(lane->text(QAccessible::Value)));
        QCOMPARE(lane->rect().height(), qRound(view.laneRect(2).height()));
    }

    void pipelineBoxesAreObjects() {
        Scenario s = straggler();
        s.delays.slowdown.clear();
        s.workers = 2;
        s.parallelism = ParallelismConfig{Parallelism::Pipeline, 2, 3};
        s.model = ModelShape{{2, 8, 8, 3}, Activation::Tanh, LossKind::SoftmaxCrossEntropy};
        Trace trace;
        const auto trainer = make_run(s, load_dataset(s), &trace);
        trainer->run_to_end();
        TraceIndex index;
        index_into(s, trace, index);
        PipelineView view;
        view.resize(900, 500);
        view.setIndex(&index);
        view.setPlayhead(index.snapshots().front().time - 1);
        view.show();
        QVERIFY(QTest::qWaitForWindowExposed(&view));
        QAccessibleInterface* iface = QAccessible::queryAccessibleInterface(&view);
        const PipelineGrid& grid = view.currentGrid();
        QVERIFY(!grid.empty());
        const int widgets =
            iface->childCount() - static_cast<int>(grid.boxes.size() + grid.bubbles.size());
        QVERIFY(widgets >= 0);
        const QAccessibleInterface* first = iface->child(widgets);
        QVERIFY2(first->text(QAccessible::Name)
                     .startsWith(QStringLiteral("Stage 0: forward of "
                                                "micro-batch 0")),
                 qPrintable(first->text(QAccessible::Name)));
        QVERIFY2(first->text(QAccessible::Value).endsWith(QStringLiteral("done")),
                 qPrintable(first->text(QAccessible::Value)));
    }

    void storyOfAStragglerStep() {
        const Scenario s = straggler();
        const Trace trace = recorded(s);
        TraceIndex index;
        index_into(s, trace, index);
        const StepSnapshot& step = index.snapshots()[1];
        const QString story = describe_step(index, step);
        QVERIFY2(story.startsWith(QStringLiteral("Step 1. Worker 2 is 3 times slower; workers 0, "
                                                 "1 and 3 wait up to ")),
                 qPrintable(story));
        QVERIFY2(story.contains(QStringLiteral("milliseconds")), qPrintable(story));
        // All equal: nobody waits.
        Scenario even = s;
        even.delays.slowdown.clear();
        const Trace even_trace = recorded(even);
        TraceIndex even_index;
        index_into(even, even_trace, even_index);
        QCOMPARE(describe_step(even_index, even_index.snapshots()[1]),
                 QStringLiteral("Step 1. All 4 workers compute and agree without waiting."));
        QCOMPARE(list_in_words({QStringLiteral("0"), QStringLiteral("1"), QStringLiteral("3")}),
                 QStringLiteral("0, 1 and 3"));
    }

    void contrastOfEveryActivity_data() {
        QTest::addColumn<QColor>("background");
        QTest::addColumn<bool>("strong");
        QTest::newRow("light") << QColor(Qt::white) << false;
        QTest::newRow("dark") << QColor(0x2A, 0x2A, 0x2A) << false;
        QTest::newRow("high contrast") << QColor(Qt::white) << true;
    }
    void contrastOfEveryActivity() {
        QFETCH(QColor, background);
        QFETCH(bool, strong);
        set_high_contrast(strong);
        for (WorkerActivity a : kAll) {
            const ActivityStyle style = style_for(a);
            const QColor edge = outline_for(style.colour, background);
            const double fill_ratio = wcag_ratio(style.colour, background);
            const double edge_ratio = wcag_ratio(edge, background);
            // The fill or its edge stands out from the background by 3:1 (4.5:1 in high
            // contrast, where the fills themselves must manage it on white).
            const double wanted = strong ? 4.5 : 3.0;
            QVERIFY2(std::max(fill_ratio, edge_ratio) >= wanted,
                     qPrintable(QStringLiteral("%1: fill %2:1, edge %3:1")
                                    .arg(style.label)
                                    .arg(fill_ratio)
                                    .arg(edge_ratio)));
            if (strong)
                QVERIFY2(fill_ratio >= 4.5, qPrintable(style.label));
            // The edge keeps the fill's hue (a darker or lighter tone, not another colour).
            if (hue(style.colour) >= 0 && hue(edge) >= 0 && style.colour.hsvSaturation() > 60)
                QVERIFY2(std::abs(hue(edge) - hue(style.colour)) <= 12 ||
                             std::abs(hue(edge) - hue(style.colour)) >= 348,
                         qPrintable(style.label));
            // The library's ratio is WCAG's.
            QVERIFY(std::abs(contrast_ratio(style.colour, background) - fill_ratio) < 1e-9);
        }
        set_high_contrast(false);
        // What was too pale before: yellow 1.3:1 and sky blue 2.3:1 on white, alone.
        QVERIFY(wcag_ratio(okabe_ito::yellow, Qt::white) < 1.5);
        QVERIFY(wcag_ratio(outline_for(okabe_ito::yellow, Qt::white), Qt::white) >= 3.0);
    }

    void failedIsVisibleOnADarkTheme() {
        const ActivityStyle failed = style_for(WorkerActivity::Failed);
        const QColor dark(0x2A, 0x2A, 0x2A);
        QVERIFY(wcag_ratio(failed.colour, dark) < 1.5); // the fill alone would vanish
        QVERIFY(wcag_ratio(outline_for(failed.colour, dark), dark) >= 3.0);
        QVERIFY(failed.brush != Qt::SolidPattern); // and it is hatched as well
    }

    void sixCheckpointKindsDiffer() {
        TraceEvent e;
        QSet<QString> symbols, labels;
        QSet<int> brushes;
        const std::pair<EventKind, FileStage> kinds[] = {
            {EventKind::CheckpointWrite, FileStage::Written},
            {EventKind::CheckpointSync, FileStage::Synced},
            {EventKind::CheckpointSync, FileStage::Renamed},
            {EventKind::CheckpointCommit, FileStage::Committed},
            {EventKind::Verify, FileStage::None},
            {EventKind::Restore, FileStage::None}};
        for (const auto& [kind, stage] : kinds) {
            e.kind = kind;
            e.file = stage;
            const ActivityStyle s = style_for(e);
            symbols.insert(s.symbol);
            labels.insert(s.label);
            brushes.insert(static_cast<int>(s.brush));
        }
        QCOMPARE(symbols.size(), 6);
        QCOMPARE(labels.size(), 6);
        QCOMPARE(brushes.size(), 6);
    }
};

QTEST_MAIN(TestAccessibility)
#include "test_accessibility.moc"
