#include "lessons_commands.h"

#include "options.h"

#include "lockstep_lessons/check.h"
#include "lockstep_lessons/language.h"
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

#include <cmath>
#include <cstdio>

namespace lockstep::cli {

QString lessons_usage() {
    return Cli::tr(R"(
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
)");
}

namespace {

QString q(const std::string& s) {
    return QString::fromStdString(s);
}

// A value the lessons library wrote (format_value), as the language in use writes numbers.
QString value(double v) {
    return lessons::localized_number(lessons::format_value(v));
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

// Names on stderr each of the user's own lessons that could not be loaded.
void report_left_out(const QStringList& problems) {
    for (const QString& p : problems)
        print_error(QStringLiteral("lockstep-cli: ") + Cli::tr("left out: %1").arg(p) +
                    QLatin1Char('\n'));
}

// The shipped library and, after it, the user's own lessons. A lesson of theirs that cannot be
// loaded is named on stderr; the rest still load.
lessons::LessonLibrary library(const Options& o) {
    lessons::LessonLibrary lib = lessons::LessonLibrary::load(root_of(o));
    QStringList problems;
    lib.add_own_lessons(own_of(o), &problems);
    report_left_out(problems);
    return lib;
}

void expect_positionals(const Options& o, std::size_t n, const char* usage) {
    if (o.positional().size() != n)
        throw Error(utf8(Cli::tr("expected: %1").arg(QString::fromUtf8(usage))));
}

int lessons_check(const Options& o) {
    expect_positionals(o, 0, "lessons check [--root DIR] [--own-lessons DIR]");
    const QString root = root_of(o);
    const QString own = own_of(o);
    const QStringList problems = lessons::check_resources(root, own);
    for (const QString& p : problems)
        print_error(p + QLatin1Char('\n'));
    if (!problems.isEmpty()) {
        print_error(
            QStringLiteral("lockstep-cli: ") +
            Cli::tr("lessons check: %n problem(s) in %1", nullptr, int(problems.size())).arg(root) +
            QLatin1Char('\n'));
        return 1;
    }
    lessons::LessonLibrary lib = lessons::LessonLibrary::load(root);
    const std::size_t shipped = lib.lessons().size();
    const int added = lib.add_own_lessons(own);
    std::size_t questions = 0;
    for (const auto& b : lib.banks())
        questions += b.questions.size();
    print(Cli::tr("ok: %1 lessons, %2 quiz banks, %3 questions in %4\n")
              .arg(QString::number(shipped), QString::number(lib.banks().size()),
                   QString::number(questions), lib.root()));
    if (added > 0)
        print(Cli::tr("ok: %n of your own lesson(s) in %1\n", nullptr, added).arg(own));
    return 0;
}

int lessons_list(const Options& o) {
    expect_positionals(o, 0, "lessons list [--root DIR]");
    const lessons::LessonLibrary lib = library(o);
    int n = 0;
    bool own_heading = false;
    for (const lessons::Lesson& l : lib.lessons()) {
        if (l.own && !own_heading) {
            print(Cli::tr("your own lessons, from %1:\n").arg(lib.own_folder()));
            own_heading = true;
        }
        QStringList points;
        for (int p : l.syllabus)
            points << lessons::syllabus_point_label(p);
        print(Cli::tr("%1. %2 (%3); %n exercise(s)\n   %4\n   syllabus: %5\n", nullptr,
                      int(l.exercises.size()))
                  .arg(QString::number(++n), l.title, l.id, l.summary,
                       points.join(QStringLiteral("; "))));
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
    print(Cli::tr("one worker: %1 s; %2 workers: %3 s of compute each + %4 s of "
                  "communication = %5 s\nspeedup %6 (ideal %2), efficiency %7\n")
              .arg(value(r.baseline_s), QString::number(workers), value(r.baseline_s / workers),
                   value(comm), value(r.total_s), value(r.speedup), value(r.efficiency)));
    print(Cli::tr("workers  speedup\n"));
    for (const auto& [n, s] : r.curve)
        print(QStringLiteral("%1  %2\n").arg(n, 7).arg(value(s)));
    return 0;
}

int lessons_study(const Options& o) {
    expect_positionals(o, 1, "lessons study LESSON [--root DIR]");
    const lessons::LessonLibrary lib = library(o);
    const lessons::Lesson* lesson = lib.find(q(o.positional().front()));
    if (!lesson)
        throw Error(utf8(Cli::tr("lessons study: no lesson '%1'").arg(q(o.positional().front()))));
    if (!lesson->study)
        throw Error(utf8(
            Cli::tr("lessons study: lesson '%1' has no study").arg(q(o.positional().front()))));
    // A number in a column, as the language in use writes it.
    auto cell = [](double v, int width, char format, int precision) {
        return lessons::localized_number(QStringLiteral("%1").arg(v, width, format, precision));
    };
    print(Cli::tr("model          parameters  train_loss  accuracy  compute_s  energy_kJ  "
                  "held_out_loss (mean ± sd)\n"));
    for (const auto& p : lessons::run_study(lesson->scenario, *lesson->study)) {
        QStringList sizes;
        for (int w : p.layers)
            sizes << QString::number(w);
        const QString held_out = std::isnan(p.held_out_loss)
                                     ? QStringLiteral("-")
                                     : cell(p.held_out_loss, 0, 'f', 4) + QStringLiteral(" ± ") +
                                           cell(p.held_out_loss_sd, 0, 'f', 4);
        print(QStringLiteral("%1 %2 %3 %4 %5 %6  %7\n")
                  .arg(sizes.join(QLatin1Char('-')), -14)
                  .arg(p.parameters, 10)
                  .arg(cell(p.final_loss, 11, 'f', 4), cell(p.final_accuracy, 9, 'f', 3),
                       cell(p.compute_s(), 10, 'g', 4), cell(p.energy_j() / 1000.0, 10, 'g', 4),
                       held_out));
    }
    const EnergyConfig& e = lesson->scenario.energy;
    const auto watts = [](double w) { return lessons::localized_number(QString::number(w)); };
    print(
        Cli::tr("train_loss and accuracy: the last step's batch, first seed; held_out_loss: fresh "
                "examples, mean ± sd over the seeds (%1)\n")
            .arg(lesson->study->seeds));
    print(Cli::tr("energy modelled per worker: computing %1 W, communicating %2 W, waiting %3 W, "
                  "writing checkpoints %4 W, idle %5 W\n")
              .arg(watts(e.compute_w), watts(e.communicate_w), watts(e.wait_w),
                   watts(e.checkpoint_w), watts(e.idle_w)));
    return 0;
}

int quiz_export(const Options& o) {
    expect_positionals(o, 1, "quiz export BANK --format moodle-xml|gift|csv [--students FILE]");
    lessons::ExportFormat format{};
    const auto f = o.text("--format");
    if (!f)
        throw Error(utf8(Cli::tr("quiz export: --format is required (moodle-xml, gift or csv)")));
    if (!lessons::parse_export_format(q(*f), format))
        throw Error(
            utf8(Cli::tr("--format: must be one of moodle-xml, gift, csv, got '%1'").arg(q(*f))));
    const lessons::QuizBank bank = library(o).load_bank_named(q(o.positional().front()));
    QStringList students;
    if (auto s = o.text("--students"))
        students = lessons::read_students(q(*s));
    const int variants = static_cast<int>(o.integer("--variants", 1, 1000).value_or(5));
    const QString text = lessons::export_bank(bank, format, students, variants);
    if (auto out = o.text("--out")) {
        QSaveFile file(q(*out));
        if (!file.open(QIODevice::WriteOnly) || file.write(text.toUtf8()) < 0 || !file.commit())
            throw Error(utf8(Cli::tr("%1: cannot write the export").arg(q(*out))));
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
        throw Error(utf8(Cli::tr("quiz worksheet: --out SHEET.pdf is required")));
    if (o.text("--students") && o.text("--variants"))
        throw Error(utf8(Cli::tr("quiz worksheet: give --students or --variants, not both")));
    const lessons::QuizBank bank = library(o).load_bank_named(q(o.positional().front()));
    QStringList students;
    if (auto s = o.text("--students"))
        students = lessons::read_students(q(*s));
    const int variants = static_cast<int>(o.integer("--variants", 1, 1000).value_or(5));
    const auto pages = lessons::worksheet_pages(bank, students, variants);
    // Qt's PDF writer lays text out with the fonts of a GUI application: main() made this
    // command's application a QGuiApplication (offscreen: no display is needed).
    if (!qobject_cast<QGuiApplication*>(QCoreApplication::instance()))
        throw Error("quiz worksheet: needs a QGuiApplication");
    lessons::write_worksheet_pdf(bank, pages, q(*out), false);
    if (auto key = o.text("--key"))
        lessons::write_worksheet_pdf(bank, pages, q(*key), true);
    const int count = int(pages.size());
    print(students.isEmpty()
              ? Cli::tr("%1: %n page(s), one per variant\n", nullptr, count).arg(q(*out))
              : Cli::tr("%1: %n page(s), one per student\n", nullptr, count).arg(q(*out)));
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
        throw Error(
            utf8(Cli::tr("bank '%1' has no question '%2' (known: %3)")
                     .arg(a.bank.id, q(o.positional()[1]), ids.join(QStringLiteral(", ")))));
    }
    const auto student = o.text("--student");
    if (!student || q(*student).trimmed().isEmpty())
        throw Error(
            utf8(Cli::tr("--student NAME is required: each student gets their own numbers")));
    a.instance = lessons::instantiate(a.bank, *question, q(*student));
    return a;
}

int quiz_ask(const Options& o) {
    const Asked a = ask(o, "quiz ask BANK QUESTION --student NAME");
    print(a.instance.text + QLatin1Char('\n'));
    for (int i = 0; i < a.instance.choices.size(); ++i)
        print(QStringLiteral("  (%1) %2\n")
                  .arg(QString(QChar(QLatin1Char('a').unicode() + i)), a.instance.choices[i]));
    if (o.has("--show-answer"))
        print(Cli::tr("answer: %1\n").arg(a.instance.answer_text()));
    return 0;
}

// The verdict's word, as a person reads it.
QString verdict_text(lessons::Verdict verdict) {
    switch (verdict) {
    case lessons::Verdict::Correct:
        return Cli::tr("correct", "verdict");
    case lessons::Verdict::Near:
        return Cli::tr("near", "verdict");
    case lessons::Verdict::Wrong:
        return Cli::tr("wrong", "verdict");
    case lessons::Verdict::Unparseable:
        return Cli::tr("unparseable", "verdict");
    }
    return lessons::to_string(verdict);
}

int quiz_check(const Options& o) {
    const Asked a = ask(o, "quiz check BANK QUESTION --student NAME --answer TEXT");
    const auto typed = o.text("--answer");
    if (!typed)
        throw Error(utf8(Cli::tr("--answer TEXT is required")));
    const lessons::Checked c = lessons::check_answer(a.instance, q(*typed));
    print(verdict_text(c.verdict) + QLatin1Char('\n') + c.feedback + QLatin1Char('\n'));
    return c.verdict == lessons::Verdict::Correct ? 0 : 3;
}

} // namespace

int command_lessons(const std::vector<std::string>& args) {
    if (args.empty())
        throw Error(utf8(Cli::tr("lessons: expected check, list, calculator or study")));
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
    throw Error(utf8(Cli::tr("lessons: unknown subcommand '%1' (check, list, calculator or study)")
                         .arg(q(args.front()))));
}

int command_quiz(const std::vector<std::string>& args) {
    if (args.empty())
        throw Error(utf8(Cli::tr("quiz: expected export, worksheet, ask or check")));
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
    throw Error(utf8(Cli::tr("quiz: unknown subcommand '%1' (export, worksheet, ask or check)")
                         .arg(q(args.front()))));
}

} // namespace lockstep::cli
