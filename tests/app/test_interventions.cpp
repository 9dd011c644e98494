#include "lab/controls_panel.h"
#include "lab/engine_controller.h"
#include "lab/lesson_pane.h"
#include "lab/main_window.h"
#include "lab/playback.h"

#include "lockstep_views/cluster_view.h"
#include "lockstep_views/timeline_view.h"
#include "lockstep_views/training_view.h"
#include "scenario/scenario.h"
#include "trace/trace.h"

#include <QAction>
#include <QApplication>
#include <QComboBox>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QMenu>
#include <QProcess>
#include <QSignalSpy>
#include <QStandardPaths>
#include <QTemporaryDir>
#include <QWindow>
#include <QtTest>

#include "trace_support.h"

#include <cstring>
#include <tuple>
#include <vector>

using lockstep::EventKind;
using lockstep::StepSnapshot;
using lockstep::Ticks;
using lockstep::TraceEvent;
using lockstep::app::EngineController;
using lockstep::app::MainWindow;
using namespace lockstep::testing;

namespace {

QString scenario_path(const char* name) {
    return QStringLiteral(LOCKSTEP_SOURCE_DIR "/resources/scenarios/") + QLatin1String(name);
}

std::vector<TraceEvent> events_of(const MainWindow& w) {
    const auto e = w.traceIndex().events();
    return {e.begin(), e.end()};
}

// Opens the window on a scenario or a lesson and lets the engine stream the whole run in.
bool open_and_finish(MainWindow& window, const QString& what) {
    window.resize(1400, 900);
    window.show();
    QSignalSpy finished(&window.controller(), &EngineController::runFinished);
    if (what.endsWith(QLatin1String(".json"))) {
        if (!window.openScenario(what, nullptr, true))
            return false;
        window.runScenario(lockstep::load_scenario(what.toStdString()));
    } else if (!window.openLesson(what)) {
        return false;
    }
    return finished.wait(60000) || finished.count() > 0;
}

// A real click on worker `worker` in the cluster view inside the window, then a real click on
// the entry of its menu whose action is `action`.
bool click_worker(MainWindow& window, int worker, const QString& action) {
    auto* cluster = window.clusterView();
    QPoint at;
    for (const auto& g : cluster->glyphs())
        if (g.worker == worker)
            at = g.centre.toPoint();
    if (at.isNull())
        return false;
    QTest::mouseClick(cluster, Qt::LeftButton, {}, at);
    auto* menu = qobject_cast<QMenu*>(QApplication::activePopupWidget());
    if (!menu)
        return false;
    for (QAction* a : menu->actions())
        if (a->data().toString() == action) {
            QTest::mouseClick(menu, Qt::LeftButton, {}, menu->actionGeometry(a).center());
            return true;
        }
    menu->close();
    return false;
}

// The middle of the executed step `ordinal` on the run's clock, seen from lane 0.
Ticks middle_of(const MainWindow& window, std::int64_t ordinal) {
    Ticks from = -1, to = -1;
    for (const auto& e : window.traceIndex().lane(0))
        if (e.ordinal == ordinal) {
            from = from < 0 ? e.start : std::min(from, e.start);
            to = std::max(to, e.end);
        }
    return from + (to - from) / 2;
}

} // namespace

class TestInterventions : public QObject {
    Q_OBJECT

private Q_SLOTS:
    void initTestCase() { QStandardPaths::setTestModeEnabled(true); }

    // A click on a worker acts at the playhead, wherever the engine has got: at step 0 before
    // anything plays, in the middle of the run (the engine far ahead), and once the run has
    // finished. The trace before the branch stays as it was; the fault is in the first step
    // that starts after the playhead.
    void clicks_act_at_the_playhead_data() {
        QTest::addColumn<QString>("what");
        QTest::addColumn<QString>("action");
        QTest::addColumn<int>("worker");
        // 0: step 0, 1: mid-run, 2: the last step (the engine finished each time), 3: mid-run
        // while the engine still runs ahead of the playhead.
        QTest::addColumn<int>("moment");
        const QString straggler = scenario_path("straggler.json");
        const QString lesson = QStringLiteral("checkpoints");
        for (int moment : {0, 1, 2, 3})
            for (const auto& [name, what] :
                 {std::pair{"straggler", straggler}, std::pair{"checkpoints lesson", lesson}}) {
                QTest::addRow("%s crash %d", name, moment)
                    << what << QStringLiteral("crash") << 2 << moment;
                QTest::addRow("%s slow %d", name, moment)
                    << what << QStringLiteral("slow") << 1 << moment;
                QTest::addRow("%s pause %d", name, moment)
                    << what << QStringLiteral("pause") << 1 << moment;
            }
    }
    void clicks_act_at_the_playhead() {
        QFETCH(QString, what);
        QFETCH(QString, action);
        QFETCH(int, worker);
        QFETCH(int, moment);
        MainWindow window;
        const bool running = moment == 3;
        if (running) {
            // A long run: the engine stays a bounded way ahead of the playhead, never done.
            window.resize(1400, 900);
            window.show();
            lockstep::Scenario s;
            if (what.endsWith(QLatin1String(".json"))) {
                s = lockstep::load_scenario(what.toStdString());
            } else {
                QVERIFY(window.openLesson(what, nullptr, false));
                s = window.lessonPane()->currentLesson()->scenario;
            }
            s.steps = 100000;
            window.runScenario(s);
            QTRY_VERIFY_WITH_TIMEOUT(window.traceIndex().start_of(20).has_value(), 60000);
        } else {
            QVERIFY(open_and_finish(window, what));
        }
        const auto last = window.traceIndex().last_step();
        QVERIFY(last && last->ordinal > 12);
        // The playhead: at the start, in the middle of step 9, or in the last step's middle.
        const std::int64_t target = moment == 0 ? 0 : moment == 2 ? last->ordinal : 9;
        const Ticks t = moment == 0 ? 0 : middle_of(window, target);
        window.playback().scrubTo(t);
        const std::int64_t at = moment == 0 ? 0 : moment == 2 ? last->ordinal : 10;
        QCOMPARE(window.interventionPoint(), at);
        const std::vector<TraceEvent> original = events_of(window);

        // A pause lasts two of the run's steps as they were when it was clicked.
        const auto& held = window.traceIndex().snapshots();
        const Ticks two_steps =
            held.empty() ? lockstep::to_ticks(0.02)
                         : lockstep::to_ticks(2.0 * lockstep::to_seconds(held.back().time) /
                                              static_cast<double>(held.size()));
        QSignalSpy finished(&window.controller(), &EngineController::runFinished);
        QVERIFY(click_worker(window, worker, action));
        if (running) {
            QVERIFY(window.controller().running());
            QTRY_VERIFY_WITH_TIMEOUT(window.traceIndex().start_of(at + 2).has_value(), 60000);
            window.controller().stop();
        } else {
            QVERIFY(finished.wait(60000) || finished.count() > 0);
        }
        const std::vector<TraceEvent> now = events_of(window);
        QVERIFY(same_events(before(now, at), before(original, at)));

        // The fault is there, in step `at`, and not before.
        bool found = false;
        for (const auto& e : now) {
            const bool fault = e.worker == worker &&
                               ((action == QLatin1String("crash") && e.kind == EventKind::Failed) ||
                                (action == QLatin1String("pause") && e.kind == EventKind::Pause &&
                                 std::abs(e.end - e.start - two_steps) <= 1));
            if (fault) {
                QCOMPARE(e.ordinal, int(at));
                found = true;
                break;
            }
        }
        if (action == QLatin1String("slow")) {
            // From step `at` on the worker computes 3x as long as it did.
            Ticks was = 0, is = 0;
            for (const auto& e : original)
                if (e.worker == worker && e.kind == EventKind::Compute && e.ordinal == at)
                    was = e.end - e.start;
            for (const auto& e : now)
                if (e.worker == worker && e.kind == EventKind::Compute && e.ordinal == at)
                    is = e.end - e.start;
            found = was > 0 && std::abs(double(is) / double(was) - 3.0) < 0.01;
        }
        QVERIFY2(found, qPrintable(action));
        // The timeline marks the branch where it was made.
        const auto marks = window.timelineView()->branchMarks();
        QCOMPARE(marks.size(), qsizetype(1));
        QVERIFY2(marks.front().label.startsWith(QStringLiteral("step ")),
                 qPrintable(marks.front().label));
        // In the lane of the worker it concerns, not stacked over the others.
        QCOMPARE(marks.front().lane, worker);
        window.timelineView()->fitAll();
        const QRectF box = window.timelineView()->branchMarkLabelRect(0);
        QVERIFY(!box.isEmpty());
        QVERIFY(window.timelineView()->laneRect(worker).contains(box.center()));
        QVERIFY(window.session().canUndo());
    }

    // Ctrl+Z in the window gives the run back exactly as it was before the click.
    void undo_restores_the_trace_exactly() {
        MainWindow window;
        QVERIFY(open_and_finish(window, QStringLiteral("checkpoints")));
        const std::vector<TraceEvent> original = events_of(window);
        window.playback().scrubTo(middle_of(window, 6));
        QSignalSpy finished(&window.controller(), &EngineController::runFinished);
        QVERIFY(click_worker(window, 2, QStringLiteral("crash")));
        QVERIFY(finished.wait(60000) || finished.count() > 0);
        QVERIFY(!same_events(events_of(window), original));
        QVERIFY(!window.trainingView()->branchedLossPoints().isEmpty());
        const int before_undo = finished.count();
        // The offscreen platform does not give activation back to the window when a popup
        // closes, as a desktop does.
        window.windowHandle()->requestActivate();
        QTRY_COMPARE(QApplication::activeWindow(), static_cast<QWidget*>(&window));
        window.clusterView()->setFocus();
        QTest::keyClick(&window, Qt::Key_Z, Qt::ControlModifier);
        QTRY_VERIFY_WITH_TIMEOUT(finished.count() > before_undo, 60000);
        QVERIFY(same_events(events_of(window), original));
        QVERIFY(window.timelineView()->branchMarks().isEmpty());
        QVERIFY(!window.session().canUndo());
    }

    // A change of rule from a lesson link mid-run bends the loss from the playhead's step on,
    // and leaves every step before it as it was; the old loss stays as a faint line.
    void changed_rule_bends_the_loss_at_the_playhead() {
        MainWindow window;
        QVERIFY(open_and_finish(window, scenario_path("straggler.json")));
        const std::vector<StepSnapshot> original = window.traceIndex().snapshots();
        window.playback().scrubTo(middle_of(window, 29));
        QSignalSpy finished(&window.controller(), &EngineController::runFinished);
        window.applyLessonAction(
            lockstep::lessons::parse_action(QStringLiteral("lockstep:set?rule=sum")));
        QVERIFY(finished.wait(60000) || finished.count() > 0);
        const auto& now = window.traceIndex().snapshots();
        QCOMPARE(now.size(), original.size());
        for (std::size_t k = 0; k < 30; ++k)
            QCOMPARE(now[k].loss, original[k].loss); // the same bits before the change
        QVERIFY(now[30].loss ==
                original[30].loss); // step 30's own loss is measured before its update
        bool bent = false;
        for (std::size_t k = 31; k < now.size(); ++k)
            bent = bent || now[k].loss != original[k].loss;
        QVERIFY(bent);
        QCOMPARE(window.controller().scenario().rule, lockstep::ReductionRule::Sum);
        const auto ghost = window.trainingView()->branchedLossPoints();
        QCOMPARE(ghost.size(), qsizetype(original.size() - 30));
        QCOMPARE(ghost.front().y(), original[30].loss);
        // What only a new run can change starts the run again, and the status bar says so.
        QSignalSpy started(&window.controller(), &EngineController::runStarted);
        window.applyLessonAction(
            lockstep::lessons::parse_action(QStringLiteral("lockstep:set?workers=6")));
        QCOMPARE(started.count(), 1);
        QCOMPARE(window.controller().scenario().workers, 6);
        window.controller().stop();
    }

    // The Controls pane: choosing another rule (from the keyboard, as a user would) changes the
    // run at the playhead; so does another collective, and the cluster is drawn with the new
    // one from that step on only.
    void controls_change_the_run_at_the_playhead() {
        MainWindow window;
        QVERIFY(open_and_finish(window, scenario_path("straggler.json")));
        const std::vector<StepSnapshot> original = window.traceIndex().snapshots();
        const Ticks t = middle_of(window, 39);
        window.playback().scrubTo(t);
        QComboBox* rule = nullptr;
        QComboBox* collective = nullptr;
        for (QComboBox* c : window.controls()->findChildren<QComboBox*>()) {
            if (c->accessibleName() == QLatin1String("Reduction rule"))
                rule = c;
            if (c->accessibleName() == QLatin1String("Collective"))
                collective = c;
        }
        QVERIFY(rule && collective);
        QSignalSpy finished(&window.controller(), &EngineController::runFinished);
        rule->setFocus();
        while (rule->currentText() != QLatin1String("sum"))
            QTest::keyClick(rule, Qt::Key_Down);
        QVERIFY(finished.wait(60000) || finished.count() > 0);
        const auto& now = window.traceIndex().snapshots();
        for (std::size_t k = 0; k <= 40; ++k)
            QCOMPARE(now[k].loss, original[k].loss);
        bool bent = false;
        for (std::size_t k = 41; k < now.size(); ++k)
            bent = bent || now[k].loss != original[k].loss;
        QVERIFY(bent);
        QCOMPARE(window.timelineView()->branchMarks().size(), qsizetype(1));
        QCOMPARE(window.timelineView()->branchMarks().front().label,
                 QStringLiteral("step 40: rule → sum"));
        // A change to the whole run is marked across it, its label above the lanes.
        QCOMPARE(window.timelineView()->branchMarks().front().lane, -1);
        {
            window.timelineView()->fitAll();
            const QRectF box = window.timelineView()->branchMarkLabelRect(0);
            QVERIFY(!box.isEmpty());
            QVERIFY(box.center().y() < window.timelineView()->laneRect(0).top());
        }

        const int runs = finished.count();
        window.playback().scrubTo(middle_of(window, 59));
        collective->setFocus();
        while (collective->currentText() != QLatin1String("tree"))
            QTest::keyClick(collective, Qt::Key_Down);
        QTRY_VERIFY_WITH_TIMEOUT(finished.count() > runs, 60000);
        QCOMPARE(window.traceIndex().algorithm_at(middle_of(window, 59)),
                 lockstep::Algorithm::Ring);
        QCOMPARE(window.traceIndex().algorithm_at(middle_of(window, 61)),
                 lockstep::Algorithm::Tree);
        QCOMPARE(window.controller().scenario().algorithm, lockstep::Algorithm::Tree);
        QCOMPARE(window.controller().scenario().rule, lockstep::ReductionRule::Sum);
        QCOMPARE(window.timelineView()->branchMarks().size(), qsizetype(2));

        // Undo takes the collective back, in the run and in the controls.
        const int before_undo = finished.count();
        QVERIFY(window.undoIntervention());
        QTRY_VERIFY_WITH_TIMEOUT(finished.count() > before_undo, 60000);
        QCOMPARE(window.controller().scenario().algorithm, lockstep::Algorithm::Ring);
        QCOMPARE(collective->currentText(), QStringLiteral("ring"));
        QCOMPARE(window.traceIndex().algorithm_at(middle_of(window, 61)),
                 lockstep::Algorithm::Ring);
        QCOMPARE(rule->currentText(), QStringLiteral("sum"));
    }

    // The same, headless: an --action crashes worker 2 where the playhead reaches 0.1 s. Every
    // event that ends before that is the plain run's, and the crash comes within a step.
    void headless_action_crashes_at_its_moment() {
        QTemporaryDir dir;
        auto run = [&](const QStringList& extra, const QString& out) {
            QProcess gui;
            QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
            env.insert(QStringLiteral("QT_QPA_PLATFORM"), QStringLiteral("offscreen"));
            gui.setProcessEnvironment(env);
            gui.start(QStringLiteral(LOCKSTEP_GUI_PATH),
                      QStringList{QStringLiteral("--scenario"), scenario_path("straggler.json"),
                                  QStringLiteral("--trace-out"), out} +
                          extra);
            return gui.waitForFinished(120000) && gui.exitCode() == 0;
        };
        const QString plain = dir.filePath(QStringLiteral("plain.json"));
        const QString crashed = dir.filePath(QStringLiteral("crashed.json"));
        QVERIFY(run({}, plain));
        QVERIFY(run({QStringLiteral("--action"), QStringLiteral("0.1:lockstep:crash?worker=2")},
                    crashed));
        auto slices = [](const QString& path) {
            QFile f(path);
            f.open(QIODevice::ReadOnly);
            QList<std::tuple<QString, int, double, double>> out;
            for (const auto& v : QJsonDocument::fromJson(f.readAll())
                                     .object()
                                     .value(QStringLiteral("traceEvents"))
                                     .toArray()) {
                const QJsonObject e = v.toObject();
                if (e.value(QStringLiteral("ph")).toString() == QLatin1String("X"))
                    out.append({e.value(QStringLiteral("name")).toString(),
                                e.value(QStringLiteral("tid")).toInt(),
                                e.value(QStringLiteral("ts")).toDouble(),
                                e.value(QStringLiteral("dur")).toDouble()});
            }
            return out;
        };
        const auto a = slices(plain), b = slices(crashed);
        auto early = [](auto list) {
            QList<std::tuple<QString, int, double, double>> out;
            for (const auto& s : list)
                if (std::get<2>(s) + std::get<3>(s) < 1e5) // ends before 0.1 s (in µs)
                    out.append(s);
            std::sort(out.begin(), out.end());
            return out;
        };
        QVERIFY(!early(a).isEmpty());
        QCOMPARE(early(b), early(a));
        // Worker 2's failed slice starts after 0.1 s and within one step (the straggler's step
        // is about 5 ms).
        double failed = -1, step = 0;
        for (const auto& s : b)
            if (std::get<0>(s) == QLatin1String("failed") && std::get<1>(s) == 2)
                failed = std::get<2>(s);
        for (const auto& s : a)
            if (std::get<0>(s) == QLatin1String("compute") && std::get<1>(s) == 2)
                step = std::max(step, std::get<3>(s));
        QVERIFY(failed >= 1e5);
        QVERIFY2(failed < 1e5 + 2 * step, qPrintable(QString::number(failed)));
        bool detected = false;
        for (const auto& s : b)
            detected =
                detected || (std::get<0>(s) == QLatin1String("detect") && std::get<2>(s) > failed);
        QVERIFY(detected);

        // T "end": applied after the run has finished, as a click at its end would: the run
        // plays again from step 0 with the change. The tree's all-reduce has 4 rounds where the
        // ring has 6, so its messages differ from step 0 on, and every step is there again.
        const QString tree = dir.filePath(QStringLiteral("tree.json"));
        QVERIFY(run({QStringLiteral("--action"), QStringLiteral("end:lockstep:set?algorithm=tree")},
                    tree));
        auto count = [](const QString& path, const char* name, int in_step) {
            QFile f(path);
            f.open(QIODevice::ReadOnly);
            int n = 0;
            for (const auto& v : QJsonDocument::fromJson(f.readAll())
                                     .object()
                                     .value(QStringLiteral("traceEvents"))
                                     .toArray()) {
                const QJsonObject e = v.toObject();
                n += e.value(QStringLiteral("ph")).toString() == QLatin1String("X") &&
                     e.value(QStringLiteral("name")).toString() == QLatin1String(name) &&
                     (in_step < 0 ||
                      e.value(QStringLiteral("args")).toObject().value(QStringLiteral("step")) ==
                          in_step);
            }
            return n;
        };
        QCOMPARE(count(plain, "communicate", 0), 24); // 4 workers, 6 ring rounds
        QCOMPARE(count(tree, "communicate", 0), 12);  // the tree's from the first step on
        QCOMPARE(count(tree, "compute", -1), count(plain, "compute", -1));
        // A bad moment is named.
        QProcess gui;
        gui.start(QStringLiteral(LOCKSTEP_GUI_PATH),
                  {QStringLiteral("--scenario"), scenario_path("straggler.json"),
                   QStringLiteral("--trace-out"), plain, QStringLiteral("--action"),
                   QStringLiteral("soon:lockstep:crash?worker=2")});
        QVERIFY(gui.waitForFinished(60000));
        QCOMPARE(gui.exitCode(), 2);
        QVERIFY(gui.readAllStandardError().contains("--action: expected T:LINK"));
    }

    // A refused headless action (a broadcast in a sharded run, which has no whole optimizer state
    // to copy) does not wait for someone to close a dialog: its reason goes to stderr, the
    // screenshot is still written, and the exit status says something was refused.
    void headless_refusal_ends_with_its_reason() {
        QTemporaryDir dir;
        const QString scenario = dir.filePath(QStringLiteral("sharded.json"));
        QFile file(scenario);
        QVERIFY(file.open(QIODevice::WriteOnly));
        file.write(R"({"workers": 4, "steps": 30, "sharding": "optimizer"})");
        file.close();
        const QString png = dir.filePath(QStringLiteral("shot.png"));
        QProcess gui;
        QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
        env.insert(QStringLiteral("QT_QPA_PLATFORM"), QStringLiteral("offscreen"));
        env.insert(QStringLiteral("LANGUAGE"), QStringLiteral("en"));
        gui.setProcessEnvironment(env);
        gui.start(QStringLiteral(LOCKSTEP_GUI_PATH),
                  {QStringLiteral("--scenario"), scenario, QStringLiteral("--action"),
                   QStringLiteral("0.001:lockstep:broadcast"), QStringLiteral("--screenshot"), png,
                   QStringLiteral("--size"), QStringLiteral("1024x768")});
        QVERIFY2(gui.waitForFinished(60000), "a refused action must not hang the headless lab");
        QCOMPARE(gui.exitCode(), 1);
        const QByteArray err = gui.readAllStandardError();
        QVERIFY2(err.contains("no whole state to copy"), err.constData());
        QVERIFY(QFileInfo(png).size() > 0);
    }
};

QTEST_MAIN(TestInterventions)
#include "test_interventions.moc"
