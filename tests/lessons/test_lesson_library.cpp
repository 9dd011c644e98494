#include "cli_test_support.h"
#include "test_support.h"

#include "lockstep_lessons/action.h"
#include "lockstep_lessons/check.h"
#include "lockstep_lessons/lesson.h"

#include "core/error.h"
#include "failures/intervention.h"
#include "scenario/scenario.h"

#include <QDir>
#include <QFile>
#include <QTemporaryDir>
#include <QtTest>

#include <map>
#include <set>

using namespace lockstep;
using namespace lockstep::lessons;
using namespace lockstep::testing;

namespace {

// Copies the shipped resources into `dir`, so a test can break one file.
void copy_tree(const QString& from, const QString& to) {
    QDir().mkpath(to);
    const QDir src(from);
    for (const QFileInfo& fi : src.entryInfoList(QDir::Files | QDir::Dirs | QDir::NoDotAndDotDot)) {
        if (fi.isDir())
            copy_tree(fi.filePath(), to + QLatin1Char('/') + fi.fileName());
        else
            QFile::copy(fi.filePath(), to + QLatin1Char('/') + fi.fileName());
    }
}

void replace_in(const QString& path, const QString& from, const QString& to) {
    QFile f(path);
    QVERIFY(f.open(QIODevice::ReadOnly));
    QString text = QString::fromUtf8(f.readAll());
    f.close();
    QVERIFY2(text.contains(from), qPrintable(path + QStringLiteral(" lacks ") + from));
    text.replace(from, to);
    QVERIFY(f.open(QIODevice::WriteOnly | QIODevice::Truncate));
    f.write(text.toUtf8());
}

} // namespace

// The shipped lessons: each loads, its scenario validates, every link is an action the lab knows,
// the course covers the syllabus; and broken lessons are reported with their reasons.
class TestLessonLibrary : public QObject {
    Q_OBJECT

private Q_SLOTS:
    void every_lesson_loads_data();
    void every_lesson_loads();
    void shipped_resources_pass_the_check();
    void course_covers_the_syllabus();
    void navigation_follows_the_index();
    void lesson_order_builds();
    void a_term_used_before_it_is_taught_is_named();
    void links_parse_into_actions_data();
    void links_parse_into_actions();
    void fault_links_take_the_kinds_ids();
    void bad_links_are_named_data();
    void bad_links_are_named();
    void set_changes_the_worked_example();
    void broken_lesson_is_reported_with_reasons();
    void a_point_without_an_engine_checked_item_is_named();
    void cli_lessons_check();
};

void TestLessonLibrary::every_lesson_loads_data() {
    QTest::addColumn<QString>("id");
    QStringList problems;
    const LessonLibrary lib = LessonLibrary::load(resources(), &problems);
    QVERIFY2(problems.isEmpty(), qPrintable(problems.join('\n')));
    for (const QString& id : lib.listed())
        QTest::newRow(qPrintable(id)) << id;
}

void TestLessonLibrary::every_lesson_loads() {
    QFETCH(QString, id);
    const Lesson l = load_lesson(resources() + QStringLiteral("/lessons/") + id);
    QCOMPARE(l.id, id);
    validate(l.scenario); // throws on an invalid scenario
    QVERIFY(!l.views.isEmpty());
    QVERIFY(!l.exercises.empty());
    int actions = 0;
    for (const Link& link : l.links) {
        if (!is_action_link(link.url))
            continue;
        const Action a = parse_action(link.url);
        ++actions;
        if (a.kind == ActionKind::Set) {
            Scenario s = l.scenario;
            apply_set(a, s); // a valid scenario, or it throws
        }
    }
    QVERIFY2(actions >= 2, qPrintable(id + QStringLiteral(": a lesson drives the lab")));
}

void TestLessonLibrary::shipped_resources_pass_the_check() {
    const QStringList problems = check_resources(resources());
    QVERIFY2(problems.isEmpty(), qPrintable(problems.join('\n')));
}

void TestLessonLibrary::course_covers_the_syllabus() {
    const LessonLibrary lib = LessonLibrary::load(resources());
    QVERIFY(lib.lessons().size() >= 12);
    std::set<int> covered;
    for (const Lesson& l : lib.lessons())
        covered.insert(l.syllabus.begin(), l.syllabus.end());
    QCOMPARE(covered, (std::set<int>{1, 2, 3, 4, 5, 6, 7, 8, 9}));
    // The worked example and the study are where the issue puts them.
    QVERIFY(lib.find(QStringLiteral("speedup"))->calculator);
    QVERIFY(lib.find(QStringLiteral("is-it-worth-it"))->study.has_value());
    QCOMPARE(lib.lessons().front().id, QStringLiteral("introduction"));
}

void TestLessonLibrary::navigation_follows_the_index() {
    const LessonLibrary lib = LessonLibrary::load(resources());
    const auto& all = lib.lessons();
    QCOMPARE(lib.previous(all.front().id), nullptr);
    QCOMPARE(lib.next(all.back().id), nullptr);
    QCOMPARE(lib.next(all[0].id)->id, all[1].id);
    QCOMPARE(lib.previous(all[2].id)->id, all[1].id);
    QCOMPARE(lib.index_of(QStringLiteral("no-such-lesson")), -1);
}

// Walks the lessons in the index's order: every term a lesson uses was introduced by it or by a
// lesson before it, and every term a lesson lists is on its page. Speedup and efficiency come
// before the lessons that read them (issue 28, point 15).
void TestLessonLibrary::lesson_order_builds() {
    const LessonLibrary lib = LessonLibrary::load(resources());
    std::set<QString> introduced;
    std::map<QString, int> position; // term -> the index of the lesson that introduces it
    for (int i = 0; i < static_cast<int>(lib.lessons().size()); ++i)
        for (const QString& term : lib.lessons()[static_cast<std::size_t>(i)].introduces)
            QVERIFY2(position.emplace(term, i).second, qPrintable(term + " introduced twice"));
    for (const Lesson& l : lib.lessons()) {
        QVERIFY2(!l.introduces.isEmpty(), qPrintable(l.id + ": introduces nothing"));
        if (&l != &lib.lessons().front())
            QVERIFY2(!l.uses.isEmpty(), qPrintable(l.id + ": builds on nothing"));
        for (const QString& term : l.introduces) {
            introduced.insert(term);
            QVERIFY2(l.markdown.contains(term, Qt::CaseInsensitive),
                     qPrintable(l.id + ": introduces '" + term + "' but its page lacks it"));
        }
        for (const QString& term : l.uses) {
            QVERIFY2(introduced.count(term),
                     qPrintable(l.id + ": uses '" + term + "' before any lesson introduces it"));
            QVERIFY2(l.markdown.contains(term, Qt::CaseInsensitive),
                     qPrintable(l.id + ": uses '" + term + "' but its page lacks it"));
        }
    }
    // The lessons that read speedups and efficiencies come after the lesson that teaches them.
    const int speedup = lib.index_of(QStringLiteral("speedup"));
    QVERIFY(speedup >= 1 && speedup <= 3);
    QCOMPARE(position.at(QStringLiteral("efficiency")), speedup);
    for (const char* reader : {"all-reduce-algorithms", "fair-comparison"})
        QVERIFY2(lib.index_of(QLatin1String(reader)) > speedup, reader);
    QVERIFY(lib.find(QStringLiteral("all-reduce-algorithms"))
                ->uses.contains(QStringLiteral("efficiency")));
}

// The order check names the lesson, the term, and where it is taught.
void TestLessonLibrary::a_term_used_before_it_is_taught_is_named() {
    QTemporaryDir tmp;
    const QString root = tmp.filePath(QStringLiteral("resources"));
    copy_tree(resources(), root);
    // The speedup lesson back where it was, after the lessons that use it.
    replace_in(root + QStringLiteral("/lessons/index.json"), QStringLiteral("    \"speedup\",\n"),
               QString());
    replace_in(root + QStringLiteral("/lessons/index.json"),
               QStringLiteral("    \"measured-run\",\n"),
               QStringLiteral("    \"measured-run\",\n    \"speedup\",\n"));
    const QStringList problems = check_resources(root);
    const QString all = problems.join('\n');
    QVERIFY2(all.contains(QStringLiteral("all-reduce-algorithms/lesson.json: uses: 'efficiency' is "
                                         "taught only later, in lesson 'speedup'")),
             qPrintable(all));
    // A term no lesson teaches, and one a page does not mention.
    replace_in(root + QStringLiteral("/lessons/stragglers/lesson.json"),
               QStringLiteral("\"barrier\","), QStringLiteral("\"barrier\", \"quorum\","));
    const QString again = check_resources(root).join('\n');
    QVERIFY2(again.contains(QStringLiteral("stragglers/lesson.json: introduces: 'quorum' is not "
                                           "on the page")),
             qPrintable(again));
    replace_in(root + QStringLiteral("/lessons/stragglers/lesson.json"),
               QStringLiteral("\"quorum\","), QString());
    replace_in(root + QStringLiteral("/lessons/why-wait/lesson.json"),
               QStringLiteral("\"straggler\","), QStringLiteral("\"straggler\", \"gossip\","));
    const QString third = check_resources(root).join('\n');
    QVERIFY2(
        third.contains(QStringLiteral("why-wait/lesson.json: uses: no lesson teaches 'gossip'")),
        qPrintable(third));
}

void TestLessonLibrary::links_parse_into_actions_data() {
    QTest::addColumn<QString>("url");
    QTest::addColumn<int>("kind");
    QTest::addColumn<QString>("key");
    QTest::addColumn<QString>("value");
    QTest::newRow("slow") << "lockstep:slow?worker=2&factor=3" << int(ActionKind::Fault) << "factor"
                          << "3";
    QTest::newRow("crash") << "lockstep:crash?worker=1" << int(ActionKind::Fault) << "worker"
                           << "1";
    QTest::newRow("set") << "lockstep:set?workers=8" << int(ActionKind::Set) << "workers"
                         << "8";
    QTest::newRow("play") << "lockstep:play" << int(ActionKind::Play) << ""
                          << "";
    QTest::newRow("pipeline") << "lockstep:pipeline?stages=4&microbatches=8&schedule=1f1b"
                              << int(ActionKind::Pipeline) << "schedule"
                              << "1f1b";
    QTest::newRow("list") << "lockstep:set?slowdown=1,1,3,1" << int(ActionKind::Set) << "slowdown"
                          << "1,1,3,1";
    QTest::newRow("compare") << "lockstep:compare?sync=bsp,async,local&local_steps=8"
                             << int(ActionKind::Compare) << "sync"
                             << "bsp,async,local";
    QTest::newRow("compare formats") << "lockstep:compare?comm_precision=float64,float16,bfloat16"
                                     << int(ActionKind::Compare) << "comm_precision"
                                     << "float64,float16,bfloat16";
    QTest::newRow("switch") << "lockstep:set?sync=ssp&staleness=3" << int(ActionKind::Set)
                            << "staleness"
                            << "3";
}

void TestLessonLibrary::links_parse_into_actions() {
    QFETCH(QString, url);
    QFETCH(int, kind);
    QFETCH(QString, key);
    QFETCH(QString, value);
    const Action a = parse_action(url);
    QCOMPARE(int(a.kind), kind);
    if (!key.isEmpty())
        QCOMPARE(a.text(key), value);
}

// A link names a fault by its kind's id, the one the worker menu uses, with the kind's own
// amount; "pause" alone is the playback's, and the names lessons used before still read.
void TestLessonLibrary::fault_links_take_the_kinds_ids() {
    int linked = 0;
    for (const lockstep::FaultKind* kind : lockstep::fault_kinds()) {
        if (!kind->menu_text)
            continue;
        const QString id = QString::fromLatin1(kind->id);
        const Action a = parse_action(QStringLiteral("lockstep:%1?worker=1").arg(id));
        QCOMPARE(int(a.kind), int(ActionKind::Fault));
        QCOMPARE(a.fault, id);
        QCOMPARE(action_name(a), id);
        ++linked;
    }
    QVERIFY(linked >= 6);
    QCOMPARE(int(parse_action(QStringLiteral("lockstep:pause")).kind), int(ActionKind::Pause));
    const Action pause = parse_action(QStringLiteral("lockstep:pause?worker=3&seconds=0.5"));
    QCOMPARE(pause.fault, QStringLiteral("pause"));
    QCOMPARE(pause.number(QStringLiteral("seconds")), 0.5);
    QCOMPARE(parse_action(QStringLiteral("lockstep:stall?worker=3&seconds=2")).fault,
             QStringLiteral("pause"));
    QCOMPARE(parse_action(QStringLiteral("lockstep:misorder?worker=2")).fault,
             QStringLiteral("bucket-order"));
    QCOMPARE(parse_action(QStringLiteral("lockstep:slow-link?worker=2&factor=40")).fault,
             QStringLiteral("slow-link"));
    const Action broadcast = parse_action(QStringLiteral("lockstep:broadcast"));
    QCOMPARE(broadcast.fault, QStringLiteral("broadcast"));
    QVERIFY(!action_worker(broadcast));
    try {
        parse_action(QStringLiteral("lockstep:slow?worker=1&factor=101"));
        QFAIL("a factor over the kind's 100 was taken");
    } catch (const lockstep::Error& e) {
        QVERIFY2(QString::fromUtf8(e.what()).contains(QStringLiteral("from 1 to 100")), e.what());
    }
    try {
        parse_action(QStringLiteral("lockstep:retune?worker=1"));
        QFAIL("retune is no link: lockstep:set changes the settings");
    } catch (const lockstep::Error& e) {
        QVERIFY2(QString::fromUtf8(e.what()).contains(QStringLiteral("unknown action 'retune'")),
                 e.what());
    }
}

void TestLessonLibrary::bad_links_are_named_data() {
    QTest::addColumn<QString>("url");
    QTest::addColumn<QString>("message");
    QTest::newRow("unknown action") << "lockstep:explode"
                                    << "unknown action 'explode'";
    QTest::newRow("unknown parameter") << "lockstep:slow?worker=1&speed=3"
                                       << "'slow' has no parameter 'speed'";
    QTest::newRow("missing worker") << "lockstep:slow?factor=3"
                                    << "'slow' needs worker";
    QTest::newRow("out of range") << "lockstep:set?workers=300"
                                  << "workers must be a whole number from 1 to 256, got '300'";
    QTest::newRow("not a number") << "lockstep:slow?worker=two"
                                  << "worker must be";
    QTest::newRow("bad choice") << "lockstep:set?rule=median"
                                << "rule must be one of sum, mean, weighted-mean";
    QTest::newRow("twice") << "lockstep:set?workers=2&workers=3"
                           << "'workers' given twice";
    QTest::newRow("empty set") << "lockstep:set"
                               << "'set' needs at least one setting";
    QTest::newRow("no pair") << "lockstep:set?workers"
                             << "is not key=value";
    QTest::newRow("compare one") << "lockstep:compare?sync=async"
                                 << "sync must be two or more of bsp, ssp, async, local";
    QTest::newRow("compare twice")
        << "lockstep:compare?sync=bsp,bsp"
        << "sync must be two or more of bsp, ssp, async, local, each once";
    QTest::newRow("compare unknown") << "lockstep:compare?sync=bsp,hogwild"
                                     << "got 'bsp,hogwild'";
    QTest::newRow("compare none") << "lockstep:compare"
                                  << "'compare' needs one of sync, precision or comm_precision";
    QTest::newRow("compare two things")
        << "lockstep:compare?sync=bsp,async&precision=float64,float32"
        << "'compare' needs one of sync, precision or comm_precision";
    QTest::newRow("compare a format twice") << "lockstep:compare?comm_precision=float16,float16"
                                            << "comm_precision must be two or more of float64, "
                                               "float32, float16, bfloat16, each once";
}

void TestLessonLibrary::bad_links_are_named() {
    QFETCH(QString, url);
    QFETCH(QString, message);
    const QString got = error_message([&] { parse_action(url); });
    QVERIFY2(got.contains(message) && got.contains(url), qPrintable(got));
}

void TestLessonLibrary::set_changes_the_worked_example() {
    Scenario s = load_scenario(LOCKSTEP_SOURCE_DIR "/resources/scenarios/worked-example.json");
    QCOMPARE(*s.cost.communication_s_per_step, 0.75);
    apply_set(parse_action(QStringLiteral("lockstep:set?workers=8&communication_s=12")), s);
    QCOMPARE(s.workers, 8);
    QCOMPARE(*s.cost.communication_s_per_step, 12.0 / 8.0); // 12 s over the run's 8 steps
    const QString bad = error_message([&] {
        apply_set(parse_action(QStringLiteral("lockstep:set?slowdown=1,1,3,1,1,1,1,1,1")), s);
    });
    QVERIFY2(bad.contains(QStringLiteral("slowdown")), qPrintable(bad));
    // The measured clock with paced links, and buckets that wait for backward.
    Scenario t = load_scenario(LOCKSTEP_SOURCE_DIR "/resources/scenarios/straggler.json");
    QVERIFY(!t.cost.paced_links);
    apply_set(parse_action(QStringLiteral(
                  "lockstep:set?clock=measured&paced_links=on&bucket_kb=1&overlap=off")),
              t);
    QCOMPARE(t.clock, ClockKind::Measured);
    QVERIFY(t.cost.paced_links);
    QCOMPARE(t.gradients->bucket_kb, std::size_t{1});
    QVERIFY(!t.gradients->overlap);
    apply_set(parse_action(QStringLiteral("lockstep:set?paced_links=off")), t);
    QVERIFY(!t.cost.paced_links);
}

void TestLessonLibrary::broken_lesson_is_reported_with_reasons() {
    QTemporaryDir tmp;
    QVERIFY(tmp.isValid());
    const QString root = tmp.filePath(QStringLiteral("resources"));
    copy_tree(resources(), root);
    // The lessons' scenarios may point at the shared ones: keep the relative paths working.
    replace_in(root + QStringLiteral("/lessons/stragglers/page.md"),
               QStringLiteral("lockstep:slow?worker=1&factor=5"),
               QStringLiteral("lockstep:slow?worker=9&factor=5"));
    replace_in(root + QStringLiteral("/lessons/speedup/page.md"), QStringLiteral("lockstep:run"),
               QStringLiteral("lockstep:rnu"));
    replace_in(root + QStringLiteral("/lessons/reductions/lesson.json"),
               QStringLiteral("\"question\": \"which-rule\""),
               QStringLiteral("\"question\": \"which-rules\""));
    const QString problems = check_resources(root).join('\n');
    QVERIFY2(
        problems.contains(QStringLiteral("stragglers/page.md: lockstep:slow?worker=9&factor=5: "
                                         "worker 9 does not exist")),
        qPrintable(problems));
    QVERIFY2(problems.contains(QStringLiteral("speedup/page.md: lockstep:rnu: unknown action")),
             qPrintable(problems));
    QVERIFY2(problems.contains(QStringLiteral("bank 'reductions' has no question 'which-rules'")),
             qPrintable(problems));

    // A lesson.json with an unknown key does not load, and the reason names the field.
    replace_in(root + QStringLiteral("/lessons/introduction/lesson.json"),
               QStringLiteral("\"views\""), QStringLiteral("\"viewz\""));
    const QString message =
        error_message([&] { load_lesson(root + QStringLiteral("/lessons/introduction")); });
    QVERIFY2(message.contains(QStringLiteral("lesson.json: viewz: unknown key")),
             qPrintable(message));

    // A page that is a link to a device that never ends is refused, not read for ever.
    const QString page = root + QStringLiteral("/lessons/speedup/page.md");
    QVERIFY(QFile::remove(page));
    QVERIFY(QFile::link(QStringLiteral("/dev/zero"), page));
    const QString endless =
        error_message([&] { load_lesson(root + QStringLiteral("/lessons/speedup")); });
    QVERIFY2(endless.contains(QStringLiteral("page.md: not a regular file")), qPrintable(endless));
}

// Every point of the syllabus needs an item the engine answers among its lessons' exercises:
// take those of point 6 away and the check names the point, its lessons and what is missing.
void TestLessonLibrary::a_point_without_an_engine_checked_item_is_named() {
    QVERIFY2(check_resources(resources()).isEmpty(),
             qPrintable(check_resources(resources()).join('\n')));
    QTemporaryDir tmp;
    const QString root = tmp.filePath(QStringLiteral("resources"));
    copy_tree(resources(), root);
    for (const char* question : {"steps-redone", "weights-bytes"})
        replace_in(root + QStringLiteral("/lessons/checkpoints/lesson.json"),
                   QStringLiteral("\"question\": \"%1\"").arg(QLatin1String(question)),
                   QStringLiteral("\"question\": \"what-to-save\""));
    const QStringList problems = check_resources(root);
    QCOMPARE(problems.size(), 1);
    QVERIFY2(problems.front().contains(QStringLiteral(
                 "point 6 a checkpoint holds everything: no engine-checked item in its lessons "
                 "(checkpoints)")),
             qPrintable(problems.front()));
    // A point no lesson covers at all.
    replace_in(root + QStringLiteral("/lessons/is-it-worth-it/lesson.json"),
               QStringLiteral("\"syllabus\": [\n    9,\n    8\n  ]"),
               QStringLiteral("\"syllabus\": [\n    8\n  ]"));
    const QString again = check_resources(root).join('\n');
    QVERIFY2(again.contains(QStringLiteral("point 9 is a small gain worth the cost?: no lesson "
                                           "covers it")),
             qPrintable(again));
}

void TestLessonLibrary::cli_lessons_check() {
    const QStringList good{QStringLiteral("lessons"), QStringLiteral("check"),
                           QStringLiteral("--root"), resources()};
    const CliResult ok = run_cli(good);
    QVERIFY2(ok.finished && ok.exit_code == 0, qPrintable(describe(good, ok)));
    QVERIFY(ok.out.contains("17 lessons"));

    QTemporaryDir tmp;
    const QString root = tmp.filePath(QStringLiteral("resources"));
    copy_tree(resources(), root);
    replace_in(root + QStringLiteral("/lessons/introduction/page.md"),
               QStringLiteral("lockstep:set?workers=8"), QStringLiteral("lockstep:set?workers=0"));
    const QStringList bad{QStringLiteral("lessons"), QStringLiteral("check"),
                          QStringLiteral("--root"), root};
    const CliResult broken = run_cli(bad);
    QVERIFY2(broken.finished && broken.exit_code == 1, qPrintable(describe(bad, broken)));
    QVERIFY2(broken.err.contains("introduction/page.md: lockstep:set?workers=0: workers must be"),
             qPrintable(describe(bad, broken)));
}

QTEST_GUILESS_MAIN(TestLessonLibrary)
#include "test_lesson_library.moc"
