#include "cli_lessons.h"

#include "cli_options.h"

#include "lockstep_lessons/check.h"
#include "lockstep_lessons/lesson.h"
#include "lockstep_lessons/quiz.h"
#include "lockstep_lessons/quiz_export.h"
#include "lockstep_lessons/study.h"
#include "lockstep_lessons/syllabus.h"

#include "core/error.h"
#include "worksheet.h"

#include <QGuiApplication>

#include <QFile>
#include <QSaveFile>

#include <cstdio>

namespace lockstep::cli {

const char* const kLessonsUsage = R"(
lessons and quizzes (resources from --root DIR, $LOCKSTEP_RESOURCES or the installed ones; your
own lessons beside them from --own-lessons DIR, else ~/.local/share/Lockstep/lessons):
  lessons check [--root DIR]      every lesson, scenario, link and quiz bank; exit 1 with reasons
  lessons list [--root DIR]       the lessons in order, with what they cover
  lessons calculator --one-worker-s 40 --workers 4 --communication-s 6
                                  the worked example: total time and speedup from the engine
  lessons study LESSON            the discussion lesson's model sizes: loss, compute, energy
  quiz export BANK --format moodle-xml|gift|csv [--students FILE] [--variants N] [--out FILE]
  quiz worksheet BANK [--students FILE | --variants N] --out SHEET.pdf [--key KEY.pdf]
                                  a printed page per student with their own numbers, and a key
  quiz ask BANK QUESTION --student NAME        one student's version of a question
  quiz check BANK QUESTION --student NAME --answer TEXT
                                  the verdict and feedback for a typed answer
)";

namespace {

QString q(const std::string& s) {
    return QString::fromStdString(s);
}

void print(const QString& text) {
    std::fputs(text.toUtf8().constData(), stdout);
}

QString root_of(const Options& o) {
    if (auto r = o.text("--root"))
        return q(*r);
    return lessons::default_resources_dir();
}

QString own_of(const Options& o) {
    if (auto d = o.text("--own-lessons"))
        return q(*d);
    return lessons::own_lessons_dir();
}

// The shipped library and, after it, the user's own lessons. A lesson of theirs that cannot be
// loaded is named on stderr; the rest still load.
lessons::LessonLibrary library(const Options& o) {
    lessons::LessonLibrary lib = lessons::LessonLibrary::load(root_of(o));
    QStringList problems;
    lib.add_own_lessons(own_of(o), &problems);
    for (const QString& p : problems)
        std::fprintf(stderr, "lockstep-cli: left out: %s\n", p.toUtf8().constData());
    return lib;
}

void expect_positionals(const Options& o, std::size_t n, const char* usage) {
    if (o.positional().size() != n)
        throw Error(std::string("expected: ") + usage);
}

int lessons_check(const Options& o) {
    expect_positionals(o, 0, "lessons check [--root DIR] [--own-lessons DIR]");
    const QString root = root_of(o);
    const QString own = own_of(o);
    const QStringList problems = lessons::check_resources(root, own);
    for (const QString& p : problems)
        std::fprintf(stderr, "%s\n", p.toUtf8().constData());
    if (!problems.isEmpty()) {
        std::fprintf(stderr, "lockstep-cli: lessons check: %lld problem(s) in %s\n",
                     static_cast<long long>(problems.size()), root.toUtf8().constData());
        return 1;
    }
    lessons::LessonLibrary lib = lessons::LessonLibrary::load(root);
    const std::size_t shipped = lib.lessons().size();
    const int added = lib.add_own_lessons(own);
    std::size_t questions = 0;
    for (const auto& b : lib.banks())
        questions += b.questions.size();
    print(QStringLiteral("ok: %1 lessons, %2 quiz banks, %3 questions in %4\n")
              .arg(shipped)
              .arg(lib.banks().size())
              .arg(questions)
              .arg(lib.root()));
    if (added > 0)
        print(QStringLiteral("ok: %1 of your own lesson(s) in %2\n").arg(added).arg(own));
    return 0;
}

int lessons_list(const Options& o) {
    expect_positionals(o, 0, "lessons list [--root DIR]");
    const lessons::LessonLibrary lib = library(o);
    int n = 0;
    bool own_heading = false;
    for (const lessons::Lesson& l : lib.lessons()) {
        if (l.own && !own_heading) {
            print(QStringLiteral("your own lessons, from %1:\n").arg(lib.own_folder()));
            own_heading = true;
        }
        QStringList points;
        for (int p : l.syllabus)
            points << lessons::syllabus_point_label(p);
        print(QStringLiteral("%1. %2 (%3); %4 exercise(s)\n   %5\n   syllabus: %6\n")
                  .arg(++n)
                  .arg(l.title, l.id)
                  .arg(l.exercises.size())
                  .arg(l.summary, points.join(QStringLiteral("; "))));
    }
    return 0;
}

int lessons_calculator(const Options& o) {
    expect_positionals(o, 0, "lessons calculator --one-worker-s S --workers N --communication-s S");
    const double one = o.number("--one-worker-s", 0.001, 1e9).value_or(40.0);
    const int workers = static_cast<int>(o.integer("--workers", 1, 256).value_or(4));
    const double comm = o.number("--communication-s", 0, 1e9).value_or(6.0);
    const QString file = root_of(o) + QStringLiteral("/scenarios/worked-example.json");
    const Scenario base = load_scenario(file.toStdString());
    const int counts[] = {1, 2, 4, 8, 16, 32};
    const auto r = lessons::worked_example(base, one, workers, comm, counts);
    print(QStringLiteral("one worker: %1 s; %2 workers: %3 s of compute each + %4 s of "
                         "communication = %5 s\nspeedup %6 (ideal %2), efficiency %7\n")
              .arg(lessons::format_value(r.baseline_s))
              .arg(workers)
              .arg(lessons::format_value(r.baseline_s / workers))
              .arg(lessons::format_value(comm))
              .arg(lessons::format_value(r.total_s))
              .arg(lessons::format_value(r.speedup))
              .arg(lessons::format_value(r.efficiency)));
    print(QStringLiteral("workers  speedup\n"));
    for (const auto& [n, s] : r.curve)
        print(QStringLiteral("%1  %2\n").arg(n, 7).arg(lessons::format_value(s)));
    return 0;
}

int lessons_study(const Options& o) {
    expect_positionals(o, 1, "lessons study LESSON [--root DIR]");
    const lessons::LessonLibrary lib = library(o);
    const lessons::Lesson* lesson = lib.find(q(o.positional().front()));
    if (!lesson)
        throw Error("lessons study: no lesson '" + o.positional().front() + "'");
    if (!lesson->study)
        throw Error("lessons study: lesson '" + o.positional().front() + "' has no study");
    print(
        QStringLiteral("model          parameters  final_loss  accuracy  compute_s  energy_kJ\n"));
    for (const auto& p : lessons::run_study(lesson->scenario, *lesson->study)) {
        QStringList sizes;
        for (int w : p.layers)
            sizes << QString::number(w);
        print(QStringLiteral("%1 %2 %3 %4 %5 %6\n")
                  .arg(sizes.join(QLatin1Char('-')), -14)
                  .arg(p.parameters, 10)
                  .arg(p.final_loss, 11, 'f', 4)
                  .arg(p.final_accuracy, 9, 'f', 3)
                  .arg(p.compute_s(), 10, 'g', 4)
                  .arg(p.energy_j() / 1000.0, 10, 'g', 4));
    }
    print(QStringLiteral("energy modelled: %1 W per working worker, %2 W per waiting one\n")
              .arg(lesson->study->busy_watts)
              .arg(lesson->study->idle_watts));
    return 0;
}

int quiz_export(const Options& o) {
    expect_positionals(o, 1, "quiz export BANK --format moodle-xml|gift|csv [--students FILE]");
    lessons::ExportFormat format{};
    const auto f = o.text("--format");
    if (!f)
        throw Error("quiz export: --format is required (moodle-xml, gift or csv)");
    if (!lessons::parse_export_format(q(*f), format))
        throw Error("--format: must be one of moodle-xml, gift, csv, got '" + *f + "'");
    const lessons::QuizBank bank = library(o).load_bank_named(q(o.positional().front()));
    QStringList students;
    if (auto s = o.text("--students"))
        students = lessons::read_students(q(*s));
    const int variants = static_cast<int>(o.integer("--variants", 1, 1000).value_or(5));
    const QString text = lessons::export_bank(bank, format, students, variants);
    if (auto out = o.text("--out")) {
        QSaveFile file(q(*out));
        if (!file.open(QIODevice::WriteOnly) || file.write(text.toUtf8()) < 0 || !file.commit())
            throw Error(*out + ": cannot write the export");
    } else {
        print(text);
    }
    return 0;
}

int quiz_worksheet(const Options& o) {
    expect_positionals(
        o, 1,
        "quiz worksheet BANK [--students FILE | --variants N] --out SHEET.pdf [--key KEY.pdf]");
    const auto out = o.text("--out");
    if (!out)
        throw Error("quiz worksheet: --out SHEET.pdf is required");
    if (o.text("--students") && o.text("--variants"))
        throw Error("quiz worksheet: give --students or --variants, not both");
    const lessons::QuizBank bank = library(o).load_bank_named(q(o.positional().front()));
    QStringList students;
    if (auto s = o.text("--students"))
        students = lessons::read_students(q(*s));
    const int variants = static_cast<int>(o.integer("--variants", 1, 1000).value_or(5));
    const auto pages = lessons::worksheet_pages(bank, students, variants);
    // Qt's PDF writer lays text out with the fonts of a GUI application; no display is needed.
    if (qEnvironmentVariableIsEmpty("QT_QPA_PLATFORM"))
        qputenv("QT_QPA_PLATFORM", "offscreen");
    int argc = 1;
    char name[] = "lockstep-cli";
    char* argv[] = {name, nullptr};
    const QGuiApplication app(argc, argv);
    lessons::write_worksheet_pdf(bank, pages, q(*out), false);
    if (auto key = o.text("--key"))
        lessons::write_worksheet_pdf(bank, pages, q(*key), true);
    print(QStringLiteral("%1: %2 page(s), one per %3\n")
              .arg(q(*out))
              .arg(pages.size())
              .arg(students.isEmpty() ? QStringLiteral("variant") : QStringLiteral("student")));
    return 0;
}

struct Asked {
    lessons::QuizBank bank;
    lessons::QuestionInstance instance;
};

Asked ask(const Options& o, const char* usage) {
    expect_positionals(o, 2, usage);
    Asked a{library(o).load_bank_named(q(o.positional()[0])), {}};
    const lessons::Question* question = a.bank.find(q(o.positional()[1]));
    if (!question) {
        QStringList ids;
        for (const auto& x : a.bank.questions)
            ids << x.id;
        throw Error("bank '" + a.bank.id.toStdString() + "' has no question '" + o.positional()[1] +
                    "' (known: " + ids.join(QStringLiteral(", ")).toStdString() + ")");
    }
    const auto student = o.text("--student");
    if (!student || q(*student).trimmed().isEmpty())
        throw Error("--student NAME is required: each student gets their own numbers");
    a.instance = lessons::instantiate(a.bank, *question, q(*student));
    return a;
}

int quiz_ask(const Options& o) {
    const Asked a = ask(o, "quiz ask BANK QUESTION --student NAME");
    print(a.instance.text + QLatin1Char('\n'));
    for (int i = 0; i < a.instance.choices.size(); ++i)
        print(QStringLiteral("  (%1) %2\n")
                  .arg(QChar(QLatin1Char('a').unicode() + i))
                  .arg(a.instance.choices[i]));
    if (o.has("--show-answer"))
        print(QStringLiteral("answer: %1\n").arg(a.instance.answer_text()));
    return 0;
}

int quiz_check(const Options& o) {
    const Asked a = ask(o, "quiz check BANK QUESTION --student NAME --answer TEXT");
    const auto typed = o.text("--answer");
    if (!typed)
        throw Error("--answer TEXT is required");
    const lessons::Checked c = lessons::check_answer(a.instance, q(*typed));
    print(lessons::to_string(c.verdict) + QLatin1Char('\n') + c.feedback + QLatin1Char('\n'));
    return c.verdict == lessons::Verdict::Correct ? 0 : 3;
}

} // namespace

int command_lessons(const std::vector<std::string>& args) {
    if (args.empty())
        throw Error("lessons: expected check, list, calculator or study");
    const std::vector<std::string> rest(args.begin() + 1, args.end());
    const Options o(
        rest, {"--root", "--own-lessons", "--one-worker-s", "--workers", "--communication-s"}, {});
    if (args.front() == "check")
        return lessons_check(o);
    if (args.front() == "list")
        return lessons_list(o);
    if (args.front() == "calculator")
        return lessons_calculator(o);
    if (args.front() == "study")
        return lessons_study(o);
    throw Error("lessons: unknown subcommand '" + args.front() +
                "' (check, list, calculator or study)");
}

int command_quiz(const std::vector<std::string>& args) {
    if (args.empty())
        throw Error("quiz: expected export, worksheet, ask or check");
    const std::vector<std::string> rest(args.begin() + 1, args.end());
    const Options o(rest,
                    {"--root", "--own-lessons", "--format", "--students", "--variants", "--out",
                     "--key", "--student", "--answer"},
                    {"--show-answer"});
    if (args.front() == "worksheet")
        return quiz_worksheet(o);
    if (args.front() == "export")
        return quiz_export(o);
    if (args.front() == "ask")
        return quiz_ask(o);
    if (args.front() == "check")
        return quiz_check(o);
    throw Error("quiz: unknown subcommand '" + args.front() +
                "' (export, worksheet, ask or check)");
}

} // namespace lockstep::cli
