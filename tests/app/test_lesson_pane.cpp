#include "lab/controls_panel.h"
#include "lab/engine_controller.h"
#include "lab/lesson_pane.h"
#include "lab/main_window.h"
#include "lab/study_panel.h"
#include "lab/worked_example_panel.h"

#include "lockstep_lessons/profiles.h"
#include "lockstep_lessons/progress.h"
#include "lockstep_views/checkpoint_view.h"
#include "lockstep_views/comparison_view.h"
#include "view_test_support.h"

#include <QChartView>
#include <QCheckBox>
#include <QComboBox>
#include <QDir>
#include <QImage>
#include <QLabel>
#include <QLineEdit>
#include <QProcess>
#include <QPushButton>
#include <QRadioButton>
#include <QSignalSpy>
#include <QStandardPaths>
#include <QTemporaryDir>
#include <QTextBlock>
#include <QTextBrowser>
#include <QTextDocument>
#include <QtTest>

using lockstep::EventKind;

namespace {

// Mean duration of `worker`'s compute events from `first_step` on, in ticks.
double mean_compute(const lockstep::views::TraceIndex& index, int worker, std::int64_t first_step) {
    double total = 0;
    int n = 0;
    for (const auto& e : index.lane(worker))
        if (e.kind == EventKind::Compute && e.step >= first_step) {
            total += static_cast<double>(e.end - e.start);
            ++n;
        }
    return n ? total / n : 0;
}

} // namespace

// The lesson pane in the lab window: opening a lesson loads its scenario, a link clicked in the
// page changes the running simulation, answers are checked and kept, and the headless
// screenshot of a lesson renders.
class TestLessonPane : public QObject {
    Q_OBJECT

private Q_SLOTS:
    void initTestCase();
    void opening_a_lesson_loads_its_scenario();
    void every_rendered_link_is_an_action();
    void clicked_link_changes_the_running_simulation();
    void slow_link_slows_the_worker_in_the_trace();
    void fault_links_name_the_menus_kinds();
    void answers_are_checked_and_kept();
    void predict_then_run_runs_the_students_numbers();
    void checkpoint_lesson_shows_the_commit_phases();
    void crash_link_crashes_and_recovers();
    void pipeline_link_runs_a_pipeline();
    void calculator_shows_the_worked_example();
    void teacher_lock_greys_out_what_the_lesson_fixes();
    void navigation_and_progress_marks();
    void study_link_trains_the_models();
    void choice_questions_are_buttons();
    void fair_comparison_opens_the_compare_tab();
    void lesson_screenshot();
};

void TestLessonPane::initTestCase() {
    QStandardPaths::setTestModeEnabled(true);
    QDir(QStandardPaths::writableLocation(QStandardPaths::AppDataLocation)).removeRecursively();
    qputenv("LOCKSTEP_RESOURCES", LOCKSTEP_SOURCE_DIR "/resources");
}

void TestLessonPane::opening_a_lesson_loads_its_scenario() {
    lockstep::app::MainWindow window;
    QSignalSpy started(&window.controller(), &lockstep::app::EngineController::runStarted);
    QVERIFY(window.openLesson(QStringLiteral("stragglers")));
    QTRY_VERIFY(started.count() >= 1);
    QCOMPARE(window.controller().scenario().name, std::string("straggler"));
    QCOMPARE(window.controller().scenario().delays.slowdown[2], 3.0);
    QCOMPARE(window.controls()->scenario().workers, 4);
    QVERIFY(window.lessonPane()->page()->toPlainText().contains(
        QStringLiteral("Stragglers and waiting")));
    QString error;
    QVERIFY(!window.openLesson(QStringLiteral("nonsense"), &error));
    QVERIFY(error.contains(QStringLiteral("no lesson 'nonsense'")));
}

void TestLessonPane::every_rendered_link_is_an_action() {
    // The links as the page shows them, after Markdown rendering: what a click really sends.
    lockstep::app::MainWindow window;
    auto* pane = window.lessonPane();
    int checked = 0;
    for (const auto& lesson : pane->library().lessons()) {
        QVERIFY(window.openLesson(lesson.id, nullptr, false));
        QStringList hrefs;
        for (QTextBlock b = pane->page()->document()->begin(); b.isValid(); b = b.next())
            for (auto it = b.begin(); !it.atEnd(); ++it) {
                const QString href = it.fragment().charFormat().anchorHref();
                if (!href.isEmpty() && (hrefs.isEmpty() || hrefs.back() != href))
                    hrefs << href;
            }
        int expected = 0;
        for (const auto& link : lesson.links)
            expected += lockstep::lessons::is_action_link(link.url) ? 1 : 0;
        QCOMPARE(hrefs.size(), expected);
        for (const QString& href : hrefs) {
            const QString clicked = QUrl(href).toString();
            const auto action = lockstep::lessons::parse_action(clicked);
            QCOMPARE(action.url, clicked);
            ++checked;
        }
    }
    QVERIFY(checked >= 50);
}

void TestLessonPane::clicked_link_changes_the_running_simulation() {
    lockstep::app::MainWindow window;
    QVERIFY(window.openLesson(QStringLiteral("introduction")));
    QTRY_COMPARE(window.traceIndex().workers(), 4);
    // What a click on the link does: the browser emits anchorClicked with the link's URL.
    Q_EMIT window.lessonPane()->page()->anchorClicked(
        QUrl(QStringLiteral("lockstep:set?workers=8")));
    QTRY_COMPARE(window.controller().scenario().workers, 8);
    QTRY_COMPARE(window.traceIndex().workers(), 8);
    QCOMPARE(window.controls()->scenario().workers, 8);
    QTRY_VERIFY(!window.traceIndex().lane(7).empty()); // worker 7 really ran
    // A link that is not an action changes nothing and says why.
    QSignalSpy said(window.lessonPane(), &lockstep::app::LessonPane::message);
    QVERIFY(!window.lessonPane()->activateLink(QStringLiteral("lockstep:set?workers=999")));
    QCOMPARE(said.count(), 1);
    QVERIFY(said.front().front().toString().contains(QStringLiteral("workers must be")));
    QCOMPARE(window.controller().scenario().workers, 8);
}

void TestLessonPane::slow_link_slows_the_worker_in_the_trace() {
    lockstep::app::MainWindow window;
    QVERIFY(window.openLesson(QStringLiteral("introduction"), nullptr, false));
    QSignalSpy finished(&window.controller(), &lockstep::app::EngineController::runFinished);
    window.runToCompletion();
    // The run is over, the playhead at its start: the link slows worker 2 five times from there,
    // the run goes on again from step 0, and the change is one Ctrl+Z can take back.
    window.playback().scrubTo(0);
    QVERIFY(window.lessonPane()->activateLink(QStringLiteral("lockstep:slow?worker=2&factor=5")));
    QTRY_VERIFY_WITH_TIMEOUT(finished.count() >= 2, 60000);
    const double slow = mean_compute(window.traceIndex(), 2, 0);
    const double fast = mean_compute(window.traceIndex(), 0, 0);
    QVERIFY(fast > 0);
    QCOMPARE(qRound(slow / fast), 5);
    QVERIFY(window.session().canUndo());
}

// A fault link names its change by the worker menu's id: "pause" with a worker stalls that worker
// for the link's seconds, marked in the kind's words, and "pause" alone pauses the playback.
void TestLessonPane::fault_links_name_the_menus_kinds() {
    lockstep::app::MainWindow window;
    QVERIFY(window.openLesson(QStringLiteral("introduction"), nullptr, false));
    QSignalSpy finished(&window.controller(), &lockstep::app::EngineController::runFinished);
    window.runToCompletion();
    window.playback().scrubTo(0);
    QVERIFY(
        window.lessonPane()->activateLink(QStringLiteral("lockstep:pause?worker=2&seconds=0.5")));
    QTRY_VERIFY_WITH_TIMEOUT(finished.count() >= 2, 60000);
    QCOMPARE(window.session().branches().size(), 1);
    QCOMPARE(window.session().branches().back().label,
             QStringLiteral("step 0: worker 2 paused for 0.5 s"));
    int pauses = 0;
    for (const auto& e : window.traceIndex().lane(2))
        if (e.kind == EventKind::Pause) {
            ++pauses;
            QCOMPARE(lockstep::to_seconds(e.end - e.start), 0.5);
        }
    QCOMPARE(pauses, 1);
    for (int w : {0, 1, 3})
        for (const auto& e : window.traceIndex().lane(w))
            QVERIFY(e.kind != EventKind::Pause);
    window.playback().play();
    QVERIFY(window.playback().playing());
    QVERIFY(window.lessonPane()->activateLink(QStringLiteral("lockstep:pause")));
    QVERIFY(!window.playback().playing());
    QCOMPARE(window.session().branches().size(), 1);
}

void TestLessonPane::checkpoint_lesson_shows_the_commit_phases() {
    lockstep::app::MainWindow window;
    QVERIFY(window.openLesson(QStringLiteral("checkpoints"), nullptr, false));
    window.runToCompletion();
    // Every 5th of 40 steps ends with a checkpoint: write, sync and commit on every lane.
    for (int w = 0; w < 4; ++w) {
        std::vector<std::int64_t> commits;
        int writes = 0;
        for (const auto& e : window.traceIndex().lane(w)) {
            writes += e.kind == EventKind::CheckpointWrite ? 1 : 0;
            if (e.kind == EventKind::CheckpointCommit)
                commits.push_back(e.step);
        }
        QCOMPARE(writes, 8);
        QCOMPARE(commits, (std::vector<std::int64_t>{4, 9, 14, 19, 24, 29, 34, 39}));
    }
    // The lesson's link checkpoints more often: the run is redone with the new policy.
    QSignalSpy finished(&window.controller(), &lockstep::app::EngineController::runFinished);
    QVERIFY(window.lessonPane()->activateLink(QStringLiteral("lockstep:checkpoint?every=2")));
    QVERIFY(finished.wait(60000));
    int commits = 0;
    for (const auto& e : window.traceIndex().lane(0))
        commits += e.kind == EventKind::CheckpointCommit ? 1 : 0;
    QCOMPARE(commits, 20);
}

// The recovery lesson's link: worker 2 dies writing the checkpoint of step 20, the scan skips it
// as partial, and everyone goes back to step 16; the restore link switches to weights alone.
void TestLessonPane::crash_link_crashes_and_recovers() {
    lockstep::app::MainWindow window;
    QVERIFY(window.openLesson(QStringLiteral("recovery-points"), nullptr, false));
    window.runToCompletion();
    QSignalSpy finished(&window.controller(), &lockstep::app::EngineController::runFinished);
    QVERIFY(window.lessonPane()->activateLink(
        QStringLiteral("lockstep:crash?worker=2&step=20&phase=before-fsync")));
    QVERIFY(finished.wait(60000));
    const auto& failures = window.controller().scenario().failures.events;
    QCOMPARE(failures.size(), std::size_t{1});
    QCOMPARE(failures[0].phase, lockstep::CrashPhase::CheckpointBeforeFsync);
    bool failed = false;
    for (const auto& e : window.traceIndex().lane(2))
        failed = failed || e.kind == EventKind::Failed;
    QVERIFY(failed);
    // The scan, newest first: step 20 partial (skipped), then step 16 complete (loaded).
    std::vector<std::pair<int, int>> verdicts;
    for (const auto& e : window.traceIndex().lane(0))
        if (e.kind == EventKind::Verify)
            verdicts.emplace_back(e.round, e.peer);
    QCOMPARE(verdicts, (std::vector<std::pair<int, int>>{{20, 1}, {16, 0}}));
    const auto full = window.traceIndex().snapshots().back().loss;
    // The Checkpoints tab gets the same crash rerun both ways.
    QSignalSpy compared(&window.restoreComparer(), &lockstep::app::RestoreComparer::ready);
    QTRY_COMPARE_WITH_TIMEOUT(compared.count(), 1, 60000);
    auto* shelf =
        qobject_cast<lockstep::views::CheckpointView*>(window.view(QStringLiteral("checkpoints")));
    QVERIFY(shelf && shelf->restoreComparison());
    QCOMPARE(shelf->restoreComparison()->restored_step, std::int64_t(16));
    QVERIFY(shelf->restoreComparison()->full_identical);
    QCOMPARE(shelf->restoreComparison()->full.loss.back(), full);
    const double weights_only = shelf->restoreComparison()->weights_only.loss.back();

    QVERIFY(
        window.lessonPane()->activateLink(QStringLiteral("lockstep:restore?mode=weights-only")));
    QVERIFY(finished.wait(60000));
    QCOMPARE(window.controller().scenario().checkpoint->restore,
             lockstep::RestoreMode::WeightsOnly);
    QVERIFY(window.traceIndex().snapshots().back().loss != full);
    // The comparison's weights-only run was this run, and the view now marks that mode.
    QCOMPARE(window.traceIndex().snapshots().back().loss, weights_only);
    QCOMPARE(shelf->restoreMode(), lockstep::RestoreMode::WeightsOnly);
}

// The model-parallelism lesson's link: the same model as a real pipeline of 4 stages.
void TestLessonPane::pipeline_link_runs_a_pipeline() {
    lockstep::app::MainWindow window;
    QVERIFY(window.openLesson(QStringLiteral("model-parallelism"), nullptr, false));
    window.runToCompletion();
    QSignalSpy finished(&window.controller(), &lockstep::app::EngineController::runFinished);
    QVERIFY(window.lessonPane()->activateLink(
        QStringLiteral("lockstep:pipeline?stages=4&microbatches=8&schedule=1f1b")));
    QVERIFY(finished.wait(60000));
    const auto& p = window.controller().scenario().parallelism;
    QVERIFY(p.has_value());
    QCOMPARE(p->stages, 4);
    QCOMPARE(p->microbatches, 8);
    QCOMPARE(p->schedule, lockstep::PipelineSchedule::OneFOneB);
    // Every stage ran forwards and backwards of all eight micro-batches, and idled in between.
    for (int stage = 0; stage < 4; ++stage) {
        int forwards = 0, bubbles = 0;
        for (const auto& e : window.traceIndex().lane(stage)) {
            forwards += e.kind == EventKind::Forward && e.step == 0 ? 1 : 0;
            bubbles += e.kind == EventKind::Bubble ? 1 : 0;
        }
        QCOMPARE(forwards, 8);
        QVERIFY(bubbles > 0);
    }
}

void TestLessonPane::answers_are_checked_and_kept() {
    const QString data = QStandardPaths::writableLocation(QStandardPaths::AppDataLocation);
    {
        lockstep::app::MainWindow window;
        QVERIFY(window.openLesson(QStringLiteral("reductions"), nullptr, false));
        auto* pane = window.lessonPane();
        QVERIFY(pane->selectExercise(QStringLiteral("reductions"), QStringLiteral("which-rule")));
        QCOMPARE(pane->answer(QStringLiteral("b")).verdict, lockstep::lessons::Verdict::Wrong);
        QCOMPARE(pane->answer(QStringLiteral("xyz")).verdict,
                 lockstep::lessons::Verdict::Unparseable);
        QCOMPARE(pane->answer(QStringLiteral("c")).verdict, lockstep::lessons::Verdict::Correct);
        // Solved: ticked in the exercises' list, and counted in the lesson list.
        auto* exercises = pane->findChildren<QComboBox*>().at(2);
        bool ticked = false;
        for (int i = 0; i < exercises->count(); ++i)
            ticked |= exercises->itemText(i).contains(QStringLiteral("Which rule")) &&
                      exercises->itemText(i).endsWith(QStringLiteral(" ✓"));
        QVERIFY2(ticked, qPrintable(exercises->itemText(exercises->currentIndex())));
        // A link to a whole bank brings every question of it into the exercises.
        QVERIFY(pane->activateLink(QStringLiteral("lockstep:quiz?bank=speedup")));
        QCOMPARE(pane->currentExercise(), QStringLiteral("speedup/worked-example-total"));
        QVERIFY(
            pane->selectExercise(QStringLiteral("speedup"), QStringLiteral("ring-versus-server")));
    }
    // A new window (a restart) finds the progress where it was left.
    const lockstep::lessons::ProfileBook book(data);
    const lockstep::lessons::ProgressStore again(book.folderOf(book.current()));
    const auto record = again.attempt(QStringLiteral("reductions"), QStringLiteral("which-rule"));
    QCOMPARE(record.attempts, 2);
    QVERIFY(record.solved);
    QVERIFY(again.visited(QStringLiteral("reductions")));
}

void TestLessonPane::predict_then_run_runs_the_students_numbers() {
    lockstep::app::MainWindow window;
    QVERIFY(window.openLesson(QStringLiteral("speedup"), nullptr, false));
    auto* pane = window.lessonPane();
    QVERIFY(
        pane->selectExercise(QStringLiteral("speedup"), QStringLiteral("worked-example-speedup")));
    QPushButton* run = nullptr;
    for (auto* b : pane->findChildren<QPushButton*>())
        if (b->text() == QLatin1String("Run it"))
            run = b;
    QVERIFY(run && !run->isHidden());
    QSignalSpy started(&window.controller(), &lockstep::app::EngineController::runStarted);
    run->click();
    QTRY_COMPARE(started.count(), 1);
    // The run uses the figures this student was given in the question.
    const lockstep::Scenario& s = window.controller().scenario();
    QLabel* question = nullptr;
    for (auto* l : pane->findChildren<QLabel*>())
        if (l->text().startsWith(QLatin1String("The same job")))
            question = l;
    QVERIFY(question);
    QVERIFY2(question->text().contains(
                 QStringLiteral("job: %1 s on one worker").arg(*s.cost.one_worker_compute_s)) &&
                 question->text().contains(QStringLiteral("on %1 workers").arg(s.workers)),
             qPrintable(question->text()));
}

void TestLessonPane::calculator_shows_the_worked_example() {
    lockstep::app::MainWindow window;
    QVERIFY(window.openLesson(QStringLiteral("speedup"), nullptr, false));
    auto* calc = window.lessonPane()->calculator();
    // A tab beside the views, where it has room; shown when the page's link asks for it.
    QVERIFY(window.showsLessonTool(calc));
    QVERIFY2(calc->resultText().contains(QStringLiteral("<b>16 s</b>")) &&
                 calc->resultText().contains(QStringLiteral("<b>2.5</b>")),
             qPrintable(calc->resultText()));
    calc->setFigures(40, 8, 6);
    QVERIFY2(calc->resultText().contains(QStringLiteral("<b>11 s</b>")),
             qPrintable(calc->resultText()));
    window.show();
    QVERIFY(window.lessonPane()->activateLink(QStringLiteral("lockstep:calculator")));
    QVERIFY(calc->isVisible());
    QVERIFY(calc->width() > window.lessonPane()->width());
    // Other lessons have no calculator.
    QVERIFY(window.openLesson(QStringLiteral("reductions"), nullptr, false));
    QVERIFY(!window.showsLessonTool(calc));
    QVERIFY(calc->isHidden());
}

void TestLessonPane::teacher_lock_greys_out_what_the_lesson_fixes() {
    lockstep::app::MainWindow window;
    window.show();
    QVERIFY(window.openLesson(QStringLiteral("reductions"), nullptr, false));
    auto* lock = window.lessonPane()->findChild<QCheckBox*>();
    QVERIFY(lock);
    auto find = [&](const QString& name) -> QWidget* {
        for (QWidget* w : window.controls()->findChildren<QWidget*>())
            if (w->accessibleName() == name)
                return w;
        return nullptr;
    };
    QVERIFY(find(QStringLiteral("Shard sizes"))->isEnabled());
    lock->setChecked(true);
    QVERIFY(!find(QStringLiteral("Shard sizes"))->isEnabled());
    QVERIFY(find(QStringLiteral("Workers"))->isEnabled());
    lock->setChecked(false);
    QVERIFY(find(QStringLiteral("Shard sizes"))->isEnabled());
}

void TestLessonPane::navigation_and_progress_marks() {
    lockstep::app::MainWindow window;
    QVERIFY(window.openLesson(QStringLiteral("introduction"), nullptr, false));
    auto* pane = window.lessonPane();
    auto* contents = pane->findChild<QComboBox*>();
    QVERIFY(contents);
    QCOMPARE(contents->count(), 17);
    // Visited, nothing solved yet: how many of its exercises are solved, not a tick.
    QVERIFY2(contents->itemText(0).contains(QStringLiteral("(0/")),
             qPrintable(contents->itemText(0)));
    QVERIFY(!contents->itemText(0).contains(QStringLiteral("✓")));
    QCOMPARE(pane->currentLesson()->id, QStringLiteral("introduction"));
}

void TestLessonPane::study_link_trains_the_models() {
    lockstep::app::MainWindow window;
    QVERIFY(window.openLesson(QStringLiteral("is-it-worth-it"), nullptr, false));
    auto* study = window.lessonPane()->study();
    QVERIFY(window.showsLessonTool(study));
    QSignalSpy done(study, &lockstep::app::StudyPanel::finished);
    window.resize(1600, 1000);
    window.show();
    QVERIFY(window.lessonPane()->activateLink(QStringLiteral("lockstep:study")));
    // The study is the tab in front, wider than the lesson pane: room for its chart and table.
    QVERIFY(study->isVisible());
    QVERIFY2(study->width() > window.lessonPane()->width(),
             qPrintable(
                 QStringLiteral("%1 vs %2").arg(study->width()).arg(window.lessonPane()->width())));
    QVERIFY(done.wait(120000));
    const auto& results = study->results();
    QCOMPARE(results.size(), std::size_t{4});
    QCOMPARE(results.front().curve.size(), std::size_t{300}); // the lesson's whole run
    QVERIFY(results.back().energy_j() > results.front().energy_j());
    // Loss against compute instead of energy: one line per model either way.
    auto* axis = study->findChild<QComboBox*>();
    QVERIFY(axis);
    axis->setCurrentIndex(1);
    auto* chart = study->findChild<QChartView*>()->chart();
    QCOMPARE(chart->series().size(), 4);
    QVERIFY(chart->axes(Qt::Horizontal).front()->titleText().contains(QStringLiteral("compute")));
    // A lesson without a study has no study link.
    QVERIFY(window.openLesson(QStringLiteral("speedup"), nullptr, false));
    QVERIFY(!window.showsLessonTool(study));
    QVERIFY(study->isHidden());
}

// A multiple-choice question is answered with check boxes and a single one with radio buttons,
// each beside its choice's text (a click on the text ticks it); the list names the questions.
void TestLessonPane::choice_questions_are_buttons() {
    const QString data = QStandardPaths::writableLocation(QStandardPaths::AppDataLocation);
    QDir(data).removeRecursively();
    {
        lockstep::app::MainWindow window;
        window.resize(1600, 1000);
        window.show();
        QVERIFY(window.openLesson(QStringLiteral("checkpoints"), nullptr, false));
        auto* pane = window.lessonPane();
        QCOMPARE(pane->currentExercise(), QStringLiteral("checkpoints/what-to-save"));
        QComboBox* list = nullptr;
        for (auto* box : pane->findChildren<QComboBox*>())
            if (box->accessibleName() == QStringLiteral("Exercise"))
                list = box;
        QVERIFY(list);
        QCOMPARE(list->itemText(0), QStringLiteral("1. What a checkpoint must hold"));
        QCOMPARE(list->itemText(1), QStringLiteral("2. Resuming from the weights alone"));
        const auto* q = pane->library()
                            .bank(QStringLiteral("checkpoints"))
                            ->find(QStringLiteral("what-to-save"));
        QVERIFY(q);
        auto boxes = [&] {
            QList<QCheckBox*> out;
            for (auto* b : pane->findChildren<QCheckBox*>())
                if (b->objectName() != QStringLiteral("lock") && b->isVisible())
                    out << b;
            return out;
        };
        QCOMPARE(boxes().size(), q->choices.size());
        QCOMPARE(boxes().front()->accessibleName(), q->choices.front());
        QLineEdit* typed = nullptr;
        for (auto* e : pane->findChildren<QLineEdit*>())
            if (e->accessibleName() == QStringLiteral("Your answer"))
                typed = e;
        QVERIFY(typed);
        QVERIFY(!typed->isVisible());
        // A click on a choice's words ticks its box; a second click clears it.
        QLabel* words = nullptr;
        for (auto* l : pane->findChildren<QLabel*>())
            if (l->text() == q->choices.front() && l->isVisible())
                words = l;
        QVERIFY(words);
        QTest::mouseClick(words, Qt::LeftButton);
        QVERIFY(boxes().front()->isChecked());
        QCOMPARE(typed->text(), QStringLiteral("a"));
        QTest::mouseClick(words, Qt::LeftButton);
        QVERIFY(!boxes().front()->isChecked());
        // The right ones ticked by clicks, then Check.
        for (int i : q->correct)
            QTest::mouseClick(boxes()[i], Qt::LeftButton);
        QPushButton* check = nullptr;
        for (auto* b : pane->findChildren<QPushButton*>())
            if (b->text() == QStringLiteral("Check"))
                check = b;
        QVERIFY(check);
        QTest::mouseClick(check, Qt::LeftButton);
        // The single-choice question: radio buttons, one at a time.
        QVERIFY(
            pane->selectExercise(QStringLiteral("checkpoints"), QStringLiteral("weights-only")));
        QVERIFY(boxes().isEmpty());
        QList<QRadioButton*> radios;
        for (auto* r : pane->findChildren<QRadioButton*>())
            if (r->isVisible())
                radios << r;
        QCOMPARE(radios.size(), 4);
        QTest::mouseClick(radios[0], Qt::LeftButton);
        QTest::mouseClick(radios[1], Qt::LeftButton);
        QVERIFY(!radios[0]->isChecked() && radios[1]->isChecked());
        QCOMPARE(typed->text(), QStringLiteral("b"));
        QCOMPARE(pane->answer(QStringLiteral("c")).verdict, lockstep::lessons::Verdict::Wrong);
        QVERIFY(radios[2]->isChecked() && !radios[1]->isChecked());
    }
    const lockstep::lessons::ProfileBook book(data);
    const lockstep::lessons::ProgressStore again(book.folderOf(book.current()));
    QVERIFY(again.attempt(QStringLiteral("checkpoints"), QStringLiteral("what-to-save")).solved);
    QCOMPARE(again.attempt(QStringLiteral("checkpoints"), QStringLiteral("weights-only")).attempts,
             1);
}

// The fair-comparison page's link brings the Compare tab to the front, showing the lesson's run
// (with its crash) drawn in the window: the pixels where the tab is change from the training
// charts to the comparison's bars.
void TestLessonPane::fair_comparison_opens_the_compare_tab() {
    lockstep::app::MainWindow window;
    window.resize(1600, 1000);
    window.show();
    QVERIFY(QTest::qWaitForWindowExposed(&window));
    QVERIFY(window.openLesson(QStringLiteral("fair-comparison"), nullptr, false));
    window.runToCompletion();
    QApplication::processEvents();
    auto* compare =
        qobject_cast<lockstep::views::ComparisonView*>(window.view(QStringLiteral("comparison")));
    QVERIFY(compare);
    QTRY_COMPARE(compare->runs().size(), std::size_t{1});
    QCOMPARE(compare->runs().front().metrics.failures, std::int64_t{1});
    // Another tab in front first (the lesson opens on the training charts).
    QVERIFY(window.lessonPane()->activateLink(QStringLiteral("lockstep:view?name=training")));
    QApplication::processEvents();
    QVERIFY(!compare->isVisible());
    const QRect where(compare->mapTo(&window, QPoint(0, 0)), compare->size());
    const QImage before = window.grab().toImage();
    // The page's own link, as rendered.
    QString link;
    const QTextDocument* doc = window.lessonPane()->page()->document();
    for (QTextBlock b = doc->begin(); b.isValid() && link.isEmpty(); b = b.next())
        for (auto it = b.begin(); !it.atEnd(); ++it)
            if (it.fragment().charFormat().anchorHref().contains(QStringLiteral("comparison")))
                link = it.fragment().charFormat().anchorHref();
    QCOMPARE(link, QStringLiteral("lockstep:view?name=comparison"));
    QVERIFY(window.lessonPane()->activateLink(link));
    QApplication::processEvents();
    QVERIFY(compare->isVisible());
    const QImage after = window.grab().toImage();
    QVERIFY(after.save(lockstep::testing::screenshot_path("fair_comparison_compare.png")));
    const qreal dpr = after.devicePixelRatio();
    int changed = 0, inked = 0;
    const QRect r(compare->mapTo(&window, QPoint(0, 0)), compare->size());
    QCOMPARE(r, where);
    const QColor base = compare->palette().color(QPalette::Base);
    for (int y = r.top(); y < r.bottom(); y += 3)
        for (int x = r.left(); x < r.right(); x += 3) {
            const QPoint p(static_cast<int>(x * dpr), static_cast<int>(y * dpr));
            const QColor a = after.pixelColor(p);
            changed += a != before.pixelColor(p) ? 1 : 0;
            inked += std::abs(a.lightness() - base.lightness()) > 40 ? 1 : 0;
        }
    const int samples = (r.width() / 3) * (r.height() / 3);
    QVERIFY2(changed > samples / 10,
             qPrintable(QStringLiteral("%1 of %2").arg(changed).arg(samples)));
    QVERIFY2(inked > samples / 50, qPrintable(QStringLiteral("%1 of %2").arg(inked).arg(samples)));
}

void TestLessonPane::lesson_screenshot() {
    QTemporaryDir dir;
    const QString out = dir.filePath(QStringLiteral("lesson.png"));
    QProcess gui;
    QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
    env.insert(QStringLiteral("QT_QPA_PLATFORM"), QStringLiteral("offscreen"));
    env.insert(QStringLiteral("LOCKSTEP_RESOURCES"),
               QStringLiteral(LOCKSTEP_SOURCE_DIR "/resources"));
    env.insert(QStringLiteral("XDG_DATA_HOME"), dir.filePath(QStringLiteral("data")));
    gui.setProcessEnvironment(env);
    gui.start(QStringLiteral(LOCKSTEP_GUI_PATH),
              {QStringLiteral("--lesson"), QStringLiteral("speedup"),
               QStringLiteral("--screenshot"), out, QStringLiteral("--size"),
               QStringLiteral("1600x1000")});
    QVERIFY(gui.waitForFinished(120000));
    QVERIFY2(gui.exitCode() == 0, gui.readAllStandardError().constData());
    const QImage image(out);
    QCOMPARE(image.size(), QSize(1600, 1000));
    // The lesson pane on the left carries the page: dark text on a light page.
    const QRect pane(10, 120, 300, 300);
    int dark = 0;
    for (int y = pane.top(); y <= pane.bottom(); ++y)
        for (int x = pane.left(); x <= pane.right(); ++x)
            dark += qGray(image.pixel(x, y)) < 100 ? 1 : 0;
    QVERIFY2(dark > 500, qPrintable(QString::number(dark)));

    QProcess bad;
    bad.setProcessEnvironment(env);
    bad.start(
        QStringLiteral(LOCKSTEP_GUI_PATH),
        {QStringLiteral("--lesson"), QStringLiteral("nope"), QStringLiteral("--screenshot"), out});
    QVERIFY(bad.waitForFinished(60000));
    QCOMPARE(bad.exitCode(), 2);
    QVERIFY(bad.readAllStandardError().contains("--lesson: no lesson 'nope'"));
}

QTEST_MAIN(TestLessonPane)
#include "test_lesson_pane.moc"
