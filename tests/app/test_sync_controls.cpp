// The lab with the looser ways of agreeing: the controls choose the mode and its one setting,
// and a bounded-staleness run streams its pushes, with their staleness, to the timeline.

#include "lab/controls_panel.h"
#include "lab/main_window.h"
#include "lab/playback.h"

#include "scenario/scenario.h"
#include "trace/trace.h"

#include <lockstep_views/cluster_view.h>
#include <lockstep_views/training_view.h>

#include "lockstep_lessons/action.h"

#include <QComboBox>
#include <QLabel>
#include <QLineEdit>
#include <QPushButton>
#include <QSpinBox>
#include <QtTest>

#include <cmath>
#include <vector>

using lockstep::Algorithm;
using lockstep::EventKind;
using lockstep::SyncMode;

namespace {

// `lesson`'s run played to its end (`steps` snapshots), then the compare `link` clicked: the
// Training view once it draws `lines` loss lines, or nullptr.
lockstep::views::TrainingView* compared(lockstep::app::MainWindow& window, const char* lesson,
                                        std::size_t steps, const char* link, int lines) {
    if (!window.openLesson(QString::fromLatin1(lesson)))
        return nullptr;
    const auto at_the_end = [&] {
        window.playback().scrubTo(window.traceIndex().end_time());
        return window.traceIndex().snapshots().size() == steps;
    };
    if (!QTest::qWaitFor(at_the_end, 30000))
        return nullptr;
    window.applyLessonAction(lockstep::lessons::parse_action(QString::fromLatin1(link)));
    auto* training = window.findChild<lockstep::views::TrainingView*>();
    if (!training || !QTest::qWaitFor([&] { return training->comparisonCount() == lines; }, 30000))
        return nullptr;
    return training;
}

QString scenario_path(const char* name) {
    return QStringLiteral(LOCKSTEP_SOURCE_DIR "/resources/scenarios/") + QLatin1String(name);
}

// The Agreement box, chosen as a click on one of its items would.
void choose(QComboBox* box, SyncMode mode) {
    box->setCurrentIndex(box->findData(static_cast<int>(mode)));
    Q_EMIT box->activated(box->currentIndex());
}

// The lab at projector size with the scenario at `path` open, as File → Open would open it.
bool open_lab(lockstep::app::MainWindow& window, const QString& path, QString* error) {
    window.resize(1600, 1000);
    window.show();
    return window.openScenario(path, error, true);
}

} // namespace

class TestSyncControls : public QObject {
    Q_OBJECT

private Q_SLOTS:
    void initTestCase() { qputenv("LOCKSTEP_RESOURCES", LOCKSTEP_SOURCE_DIR "/resources"); }

    void controls_choose_the_mode_and_its_setting() {
        lockstep::app::LabSession session;
        session.useScenario(lockstep::load_scenario(scenario_path("straggler.json").toStdString()));
        lockstep::app::ControlsPanel panel(session);
        panel.showScenario();
        QComboBox* agreement = nullptr;
        for (auto* box : panel.findChildren<QComboBox*>())
            if (box->accessibleName() == QStringLiteral("Agreement"))
                agreement = box;
        QVERIFY(agreement);
        QSpinBox* setting = nullptr;
        for (auto* spin : panel.findChildren<QSpinBox*>())
            if (spin->accessibleName().startsWith(QStringLiteral("Staleness")))
                setting = spin;
        QVERIFY(setting);
        QVERIFY(!setting->isEnabled()); // bsp has no setting
        QVERIFY(!panel.scenario().sync.has_value());

        choose(agreement, SyncMode::Ssp);
        QVERIFY(setting->isEnabled());
        QCOMPARE(setting->value(), 2);
        setting->setValue(3);
        auto s = panel.scenario();
        QCOMPARE(s.sync_mode(), SyncMode::Ssp);
        QCOMPARE(s.sync->staleness, 3);
        QCOMPARE(s.algorithm, Algorithm::ParameterServer); // ssp goes through the server

        choose(agreement, SyncMode::Local);
        QCOMPARE(setting->accessibleName(), QStringLiteral("Average every"));
        QCOMPARE(setting->value(), 4);
        QCOMPARE(setting->suffix(), QStringLiteral(" steps"));
        setting->setValue(8);
        s = panel.scenario();
        QCOMPARE(s.sync_mode(), SyncMode::Local);
        QCOMPARE(s.sync->local_steps, 8);

        choose(agreement, SyncMode::Ssp); // each mode keeps its own value
        QCOMPARE(setting->value(), 3);
        choose(agreement, SyncMode::Async);
        QVERIFY(!setting->isEnabled());
        QCOMPARE(panel.scenario().sync_mode(), SyncMode::Async);

        // A lesson that fixes the way of agreeing greys it out, and its setting with it.
        choose(agreement, SyncMode::Ssp);
        panel.setLockedControls({QStringLiteral("sync")});
        QVERIFY(!agreement->isEnabled());
        QVERIFY(!setting->isEnabled());
        panel.setLockedControls({});
        QVERIFY(setting->isEnabled());
    }

    // Workers wait for a new run: typing 8 says so under Run at once, and Enter starts it.
    // How a worker's gradient leaves: bucket size, overlap and accumulation, read from the
    // scenario, written back into it, waiting for a new run, and locked together.
    void controls_set_the_buckets_overlap_and_accumulation() {
        lockstep::app::LabSession session;
        session.useScenario(lockstep::load_scenario(scenario_path("straggler.json").toStdString()));
        lockstep::app::ControlsPanel panel(session);
        panel.showScenario();
        QSpinBox *buckets = nullptr, *accumulate = nullptr;
        QComboBox* overlap = nullptr;
        for (auto* spin : panel.findChildren<QSpinBox*>()) {
            if (spin->accessibleName() == QStringLiteral("Buckets"))
                buckets = spin;
            if (spin->accessibleName() == QStringLiteral("Accumulate"))
                accumulate = spin;
        }
        for (auto* box : panel.findChildren<QComboBox*>())
            if (box->accessibleName() == QStringLiteral("Overlap mode"))
                overlap = box;
        QVERIFY(buckets && accumulate && overlap);
        QCOMPARE(buckets->value(), 0);
        QCOMPARE(buckets->text(), QStringLiteral("one bucket"));
        QVERIFY(!panel.scenario().gradients.has_value()); // untouched: the plain step
        QVERIFY(panel.pendingText().isEmpty());

        buckets->setValue(16);
        overlap->setCurrentIndex(overlap->findData(false));
        accumulate->setValue(3);
        const auto s = panel.scenario();
        QVERIFY(s.gradients.has_value());
        QCOMPARE(s.gradients->bucket_kb, std::size_t{16});
        QVERIFY(!s.gradients->overlap);
        QCOMPARE(s.gradients->accumulate, 3);
        const QString pending = panel.pendingText();
        QVERIFY2(pending.contains(QStringLiteral("buckets")) &&
                     pending.contains(QStringLiteral("overlap")) &&
                     pending.contains(QStringLiteral("accumulation 3")),
                 qPrintable(pending));

        // A scenario with buckets fills the fields with its own.
        session.useScenario(s);
        panel.showScenario();
        QCOMPARE(buckets->value(), 16);
        QCOMPARE(overlap->currentData().toBool(), false);
        QCOMPARE(accumulate->value(), 3);
        QVERIFY(panel.pendingText().isEmpty());

        panel.setLockedControls({QStringLiteral("gradients")});
        QVERIFY(!buckets->isEnabled() && !overlap->isEnabled() && !accumulate->isEnabled());
        panel.setLockedControls({});
        QVERIFY(buckets->isEnabled() && overlap->isEnabled() && accumulate->isEnabled());
    }

    void controls_set_the_precision_and_the_wire_format() {
        lockstep::app::LabSession session;
        session.useScenario(lockstep::load_scenario(scenario_path("straggler.json").toStdString()));
        lockstep::app::ControlsPanel panel(session);
        panel.showScenario();
        QComboBox *precision = nullptr, *wire = nullptr;
        for (auto* box : panel.findChildren<QComboBox*>()) {
            if (box->accessibleName() == QStringLiteral("Precision"))
                precision = box;
            if (box->accessibleName() == QStringLiteral("On the wire"))
                wire = box;
        }
        QVERIFY(precision && wire);
        QCOMPARE(precision->currentText(), QStringLiteral("float64"));
        QCOMPARE(wire->currentText(), QStringLiteral("as the model"));
        QVERIFY(panel.pendingText().isEmpty());

        precision->setCurrentIndex(precision->findData(int(lockstep::Precision::Float32)));
        wire->setCurrentIndex(wire->findData(int(lockstep::WirePrecision::Float16)));
        const auto s = panel.scenario();
        QVERIFY(s.model.precision == lockstep::Precision::Float32);
        QVERIFY(s.comm_precision == lockstep::WirePrecision::Float16);
        lockstep::validate(s); // a run the engine takes
        const QString pending = panel.pendingText();
        QVERIFY2(pending.contains(QStringLiteral("precision")) &&
                     pending.contains(QStringLiteral("wire format")),
                 qPrintable(pending));

        session.useScenario(s);
        panel.showScenario();
        QCOMPARE(precision->currentText(), QStringLiteral("float32"));
        QCOMPARE(wire->currentText(), QStringLiteral("float16"));
        QVERIFY(panel.pendingText().isEmpty());
        panel.setLockedControls({QStringLiteral("precision"), QStringLiteral("comm_precision")});
        QVERIFY(!precision->isEnabled() && !wire->isEnabled());
    }

    void settings_for_a_new_run_say_so_and_enter_runs_them() {
        lockstep::app::MainWindow window;
        QString error;
        QVERIFY2(open_lab(window, scenario_path("straggler.json"), &error), qPrintable(error));
        window.runScenario(window.controls()->scenario());
        QTRY_VERIFY_WITH_TIMEOUT(!window.traceIndex().snapshots().empty(), 30000);
        QCOMPARE(window.traceIndex().workers(), 4);
        QCOMPARE(window.controls()->scenario().workers, 4);
        QVERIFY(window.controls()->pendingText().isEmpty());
        auto* pending = window.controls()->findChild<QLabel*>(QStringLiteral("pending"));
        QVERIFY(pending);
        QVERIFY(!pending->isVisible());
        QSpinBox* workers = nullptr;
        for (auto* box : window.controls()->findChildren<QSpinBox*>())
            if (box->accessibleName() == QStringLiteral("Workers"))
                workers = box;
        QVERIFY(workers);
        window.activateWindow();
        workers->setFocus();
        workers->selectAll();
        QTest::keyClicks(workers, QStringLiteral("8"));
        QCOMPARE(workers->value(), 8);
        QVERIFY2(window.controls()->pendingText().contains(QStringLiteral("workers 8")),
                 qPrintable(window.controls()->pendingText()));
        QVERIFY(pending->isVisible());
        QCOMPARE(window.traceIndex().workers(), 4); // nothing ran yet
        QTest::keyClick(workers, Qt::Key_Return);
        QTRY_COMPARE_WITH_TIMEOUT(window.traceIndex().workers(), 8, 30000);
        QTRY_VERIFY(window.controls()->pendingText().isEmpty());
        QVERIFY(!pending->isVisible());
        QVERIFY(window.session().canUndo()); // a new run by Enter is undone as one by Run
    }

    // Run hands the session the fields' scenario; with a bad field it names that field and
    // hands over nothing.
    void run_hands_over_the_fields_or_names_the_bad_one() {
        lockstep::app::LabSession session;
        session.useScenario(lockstep::load_scenario(scenario_path("straggler.json").toStdString()));
        std::vector<lockstep::Scenario> handed; // outlive the panel that fills them
        QStringList refused;
        lockstep::app::ControlsPanel panel(session);
        panel.showScenario();
        connect(&panel, &lockstep::app::ControlsPanel::runRequested, &panel,
                [&](const lockstep::Scenario& s) { handed.push_back(s); });
        connect(&panel, &lockstep::app::ControlsPanel::cannotRun, &panel,
                [&](const QString& message) { refused << message; });
        QLineEdit* shards = nullptr;
        QSpinBox* workers = nullptr;
        for (auto* edit : panel.findChildren<QLineEdit*>())
            if (edit->accessibleName() == QStringLiteral("Shard sizes"))
                shards = edit;
        for (auto* box : panel.findChildren<QSpinBox*>())
            if (box->accessibleName() == QStringLiteral("Workers"))
                workers = box;
        QVERIFY(shards && workers);
        shards->setText(QStringLiteral("ten"));
        QTest::mouseClick(panel.runButton(), Qt::LeftButton);
        QCOMPARE(handed.size(), std::size_t{0});
        QCOMPARE(refused.size(), 1);
        QVERIFY2(refused.first().contains(QStringLiteral("Shard sizes")),
                 qPrintable(refused.first()));
        shards->clear();
        workers->setValue(6);
        QTest::mouseClick(panel.runButton(), Qt::LeftButton);
        QCOMPARE(refused.size(), 1);
        QCOMPARE(handed.size(), std::size_t{1});
        QCOMPARE(handed.front().workers, 6);
        QCOMPARE(session.scenario().workers, 4); // the panel edits nothing before the run
    }

    void a_bounded_staleness_run_reaches_the_timeline() {
        lockstep::app::MainWindow window;
        QString error;
        QVERIFY2(open_lab(window, scenario_path("why-wait.json"), &error), qPrintable(error));
        QCOMPARE(window.controls()->scenario().sync_mode(), SyncMode::Ssp);
        window.runScenario(window.controls()->scenario());
        // The engine streams a few steps ahead of the playhead: follow it to the end.
        auto to_the_end = [&] {
            window.playback().scrubTo(window.traceIndex().end_time());
            return window.traceIndex().snapshots().size() == 100;
        };
        QTRY_VERIFY_WITH_TIMEOUT(to_the_end(), 30000);
        int pushes = 0, waits = 0, stale = 0;
        for (int k = 0; k < 4; ++k)
            for (const auto& e : window.traceIndex().lane(k)) {
                if (e.kind == EventKind::Send && e.staleness >= 0) {
                    ++pushes;
                    QVERIFY(e.staleness <= 2);
                    stale += e.staleness > 0;
                }
                waits += e.kind == EventKind::Wait;
            }
        QCOMPARE(pushes, 400);
        QVERIFY(stale > 0); // the fast workers run ahead on older versions
        QVERIFY(waits > 0); // and wait when the bound bites
    }

    // Choosing another way of agreeing while the run goes on changes it at the playhead, as
    // every change does: the steps before it stay as they were, the run goes on from there.
    void the_agreement_changes_at_the_playhead() {
        lockstep::app::MainWindow window;
        QString error;
        QVERIFY2(open_lab(window, scenario_path("why-wait.json"), &error), qPrintable(error));
        window.runScenario(window.controls()->scenario());
        QTRY_VERIFY_WITH_TIMEOUT(window.traceIndex().snapshots().size() >= 40, 30000);
        const auto at = window.traceIndex().start_of(20);
        QVERIFY(at);
        window.playback().scrubTo(at->start);
        const std::vector<lockstep::StepSnapshot> before(
            window.traceIndex().snapshots().begin(), window.traceIndex().snapshots().begin() + 20);

        QComboBox* agreement = nullptr;
        for (auto* box : window.controls()->findChildren<QComboBox*>())
            if (box->accessibleName() == QStringLiteral("Agreement"))
                agreement = box;
        QVERIFY(agreement);
        choose(agreement, SyncMode::Async);
        QCOMPARE(window.session().branches().size(), 1);
        QVERIFY2(window.session().branches().front().label.contains(QStringLiteral("async")),
                 qPrintable(window.session().branches().front().label));
        QCOMPARE(window.controls()->scenario().sync_mode(), SyncMode::Async);

        auto to_the_end = [&] {
            window.playback().scrubTo(window.traceIndex().end_time());
            return window.traceIndex().snapshots().size() == 100;
        };
        QTRY_VERIFY_WITH_TIMEOUT(to_the_end(), 30000);
        const auto& snaps = window.traceIndex().snapshots();
        for (int k = 0; k < 20; ++k) {
            QCOMPARE(snaps[k].loss, before[k].loss);
            QCOMPARE(snaps[k].parameter_hash, before[k].parameter_hash);
        }
        // From step 20 on, each gradient is applied as it comes: τ beyond ssp's bound of 2.
        int beyond = 0;
        for (int k = 0; k < 4; ++k)
            for (const auto& e : window.traceIndex().lane(k))
                if (e.kind == EventKind::Send && e.staleness > 2) {
                    QVERIFY(e.step >= 20);
                    ++beyond;
                }
        QVERIFY(beyond > 0);
    }

    // Between two averagings of local SGD the cluster view says how far each replica is from
    // their mean, with the engine's own distances; after an averaging it says they agree.
    void the_cluster_view_shows_how_far_apart_the_replicas_are() {
        lockstep::app::MainWindow window;
        QString error;
        QVERIFY2(open_lab(window,
                          QStringLiteral(LOCKSTEP_SOURCE_DIR
                                         "/resources/lessons/why-wait/scenario.json"),
                          &error),
                 qPrintable(error));
        auto s = window.controls()->scenario();
        s.sync = lockstep::SyncConfig{};
        s.sync->mode = SyncMode::Local;
        s.sync->local_steps = 4;
        s.steps = 12;
        window.runScenario(s);
        QTRY_VERIFY_WITH_TIMEOUT(window.traceIndex().snapshots().size() == 12, 30000);
        const auto& snaps = window.traceIndex().snapshots();
        auto* cluster = window.findChild<lockstep::views::ClusterView*>();
        QVERIFY(cluster);
        // Step 1 is between averagings (after steps 3, 7 and 11).
        QVERIFY(!snaps[1].replicas_aligned);
        QCOMPARE(snaps[1].replica_distance.size(), std::size_t(4));
        window.playback().scrubTo(snaps[1].time + 1);
        QTRY_VERIFY(
            cluster->accessibleDescription().contains(QStringLiteral("distance from their mean")));
        const QString d1 = QString::number(snaps[1].replica_distance[1], 'g', 2);
        QVERIFY2(cluster->accessibleDescription().contains(QStringLiteral("worker 1 ") + d1),
                 qPrintable(cluster->accessibleDescription()));
        QVERIFY(snaps[3].replicas_aligned);
        QVERIFY(snaps[3].replica_distance.empty());
        window.playback().scrubTo(snaps[3].time + 1);
        QTRY_VERIFY(cluster->accessibleDescription().contains(QStringLiteral("replicas aligned")));
    }

    // Compare Ways of Agreeing: the scenario trained whole under each mode, one loss line each
    // in the Training view, the bsp line the very run the lab plays.
    void one_loss_line_per_mode() {
        lockstep::app::MainWindow window;
        window.resize(1600, 1000);
        window.show();
        auto* training =
            compared(window, "why-wait", 100, "lockstep:compare?sync=bsp,ssp,async,local", 4);
        QVERIFY(training);
        QVERIFY(training->comparisonName(0).startsWith(QStringLiteral("bsp")));
        QVERIFY(training->comparisonName(1).startsWith(QStringLiteral("ssp, S = 2")));
        QVERIFY(training->comparisonName(2).startsWith(QStringLiteral("async")));
        QVERIFY(training->comparisonName(3).startsWith(QStringLiteral("local SGD, every 4")));
        const auto& snaps = window.traceIndex().snapshots();
        for (int line = 0; line < 4; ++line)
            QCOMPARE(training->comparisonPoints(line).size(), 100);
        const auto bsp = training->comparisonPoints(0);
        for (int k = 0; k < 100; k += 33)
            QCOMPARE(bsp[k].y(), snaps[k].loss); // the run the lab plays, step for step
        QVERIFY(training->comparisonPoints(2).back().y() != bsp.back().y());
        // A new run takes the comparison away.
        window.runScenario(window.controls()->scenario());
        QCOMPARE(training->comparisonCount(), 0);
    }

    // The lesson "How many bits?": one loss line per wire format and per model precision, the
    // float64 line the very run the lab plays; then a loss scale of 2^24 whose first eight steps
    // overflow, each marked on the Training view's loss line.
    void one_loss_line_per_number_format() {
        lockstep::app::MainWindow window;
        window.resize(1280, 720);
        window.show();
        auto* training = compared(window, "how-many-bits", 40,
                                  "lockstep:compare?comm_precision=float64,float16,bfloat16", 3);
        QVERIFY(training);
        QVERIFY(training->comparisonName(0).startsWith(QStringLiteral("float64 on the wire")));
        QVERIFY(training->comparisonName(1).startsWith(QStringLiteral("float16 on the wire")));
        QVERIFY(training->comparisonName(2).startsWith(QStringLiteral("bfloat16 on the wire")));
        const auto& snaps = window.traceIndex().snapshots();
        const auto plain = training->comparisonPoints(0);
        QCOMPARE(plain.size(), 40);
        for (int k = 0; k < 40; k += 13)
            QCOMPARE(plain[k].y(), snaps[k].loss);
        // Rounded gradients: close to float64's losses, and not equal to them.
        const auto half = training->comparisonPoints(1);
        QCOMPARE(half.size(), 40);
        QVERIFY(half.back().y() != plain.back().y());
        QVERIFY(std::abs(half.back().y() - plain.back().y()) < 1e-4);

        window.applyLessonAction(lockstep::lessons::parse_action(
            QStringLiteral("lockstep:compare?precision=float64,float32")));
        QTRY_VERIFY_WITH_TIMEOUT(
            training->comparisonName(0).startsWith(QStringLiteral("float64 model")), 30000);
        QVERIFY(training->comparisonName(1).startsWith(QStringLiteral("float32 model")));
        QCOMPARE(training->comparisonPoints(0), plain);
        QVERIFY(training->comparisonPoints(1).back().y() != plain.back().y());

        window.applyLessonAction(lockstep::lessons::parse_action(
            QStringLiteral("lockstep:set?comm_precision=float16&loss_scale=16777216")));
        QCOMPARE(training->comparisonCount(), 0); // a new run takes the comparison away
        QTRY_VERIFY_WITH_TIMEOUT(window.session().runComplete(), 30000);
        window.playback().scrubTo(window.traceIndex().end_time());
        QTRY_COMPARE_WITH_TIMEOUT(training->skippedPoints().size(), 8, 10000);
        for (int k = 0; k < 8; ++k)
            QCOMPARE(training->skippedPoints()[k].x(), double(k));
        QVERIFY2(training->summary().contains(QStringLiteral("loss scale 65536")),
                 qPrintable(training->summary()));
    }
};

QTEST_MAIN(TestSyncControls)
#include "test_sync_controls.moc"
