#include "lockstep_lessons/check.h"

#include "lockstep_lessons/action.h"
#include "lockstep_lessons/language.h"
#include "lockstep_lessons/lesson.h"
#include "lockstep_lessons/syllabus.h"
#include "lockstep_lessons/translations.h"

#include "core/error.h"
#include "trace/recording.h"

#include <QDir>
#include <QFileInfo>
#include <QRegularExpression>

#include <algorithm>
#include <map>
#include <set>

namespace lockstep::lessons {

namespace {

constexpr std::size_t kMinLessons = 11;

void check_lesson(const Lesson& l, const LessonLibrary& lib, QStringList& problems) {
    const QString page = QDir(l.dir).filePath(QStringLiteral("page.md"));
    auto problem = [&](const QString& what) { problems << page + QStringLiteral(": ") + what; };
    // Worker numbers may refer to any worker count the page sets.
    int workers = l.scenario.workers;
    std::vector<Action> actions;
    for (const Link& link : l.links) {
        if (link.url.startsWith(QLatin1String("https://")) ||
            link.url.startsWith(QLatin1String("http://")))
            continue;
        if (!is_action_link(link.url)) {
            problem(QStringLiteral("link '%1' is neither a lockstep: action nor a web address")
                        .arg(link.url));
            continue;
        }
        try {
            actions.push_back(parse_action(link.url));
        } catch (const Error& e) {
            problem(QString::fromStdString(e.what()));
        }
    }
    for (const Action& a : actions) {
        if (a.kind == ActionKind::Set) {
            Scenario s = l.scenario;
            try {
                apply_set(a, s);
                workers = std::max(workers, s.workers);
            } catch (const Error& e) {
                problem(QString::fromStdString(e.what()));
            }
        }
    }
    for (const Action& a : actions) {
        if (auto w = action_worker(a); w && *w >= workers)
            problem(QStringLiteral("%1: worker %2 does not exist (the lesson has workers 0 to %3)")
                        .arg(a.url)
                        .arg(*w)
                        .arg(workers - 1));
        if (a.kind == ActionKind::Scenario) {
            const QString file = QDir(l.dir).filePath(a.text(QStringLiteral("file")));
            try {
                (void)load_scenario(file.toStdString());
            } catch (const Error& e) {
                problem(a.url + QStringLiteral(": ") + QString::fromStdString(e.what()));
            }
        }
        if (a.kind == ActionKind::Replay) {
            const QString file = QDir(l.dir).filePath(a.text(QStringLiteral("file")));
            try {
                (void)read_recording(file.toStdString());
            } catch (const Error& e) {
                problem(a.url + QStringLiteral(": ") + QString::fromStdString(e.what()));
            }
        }
        if (a.kind == ActionKind::Quiz) {
            const QuizBank* bank = lib.bank(a.text(QStringLiteral("bank")));
            if (!bank)
                problem(QStringLiteral("%1: no quiz bank '%2'")
                            .arg(a.url, a.text(QStringLiteral("bank"))));
            else if (a.has(QStringLiteral("question")) &&
                     !bank->find(a.text(QStringLiteral("question"))))
                problem(QStringLiteral("%1: bank '%2' has no question '%3'")
                            .arg(a.url, bank->id, a.text(QStringLiteral("question"))));
        }
        if (a.kind == ActionKind::Study && !l.study)
            problem(a.url + QStringLiteral(": the lesson has no study in lesson.json"));
        if (a.kind == ActionKind::Calculator && !l.calculator)
            problem(a.url + QStringLiteral(": the lesson does not set \"calculator\": true"));
    }
    const QString json = QDir(l.dir).filePath(QStringLiteral("lesson.json"));
    if (l.exercises.empty())
        problems << json + QStringLiteral(": exercises: a lesson needs at least one exercise");
    for (const ExerciseRef& e : l.exercises) {
        const QuizBank* bank = lib.bank(e.bank);
        if (!bank)
            problems << json + QStringLiteral(": exercises: no quiz bank '%1'").arg(e.bank);
        else if (!bank->find(e.question))
            problems << json + QStringLiteral(": exercises: bank '%1' has no question '%2'")
                                   .arg(e.bank, e.question);
    }
    if (actions.empty())
        problem(QStringLiteral("no lockstep: link: a lesson should drive the lab at least once"));
}

void check_bank(const QuizBank& bank, QStringList& problems) {
    static const QRegularExpression placeholder(QStringLiteral("\\{([A-Za-z_][A-Za-z0-9_]*)\\}"));
    for (const Question& q : bank.questions) {
        const QString where = bank.path + QStringLiteral(": ") + q.id + QStringLiteral(": ");
        QStringList known{QStringLiteral("answer"), QStringLiteral("unit")};
        for (const Variable& v : q.variables)
            known << v.name;
        QStringList texts{q.text, q.explanation};
        texts << q.hints;
        for (const Mistake& m : q.mistakes)
            texts << m.feedback;
        for (const QString& t : texts) {
            auto it = placeholder.globalMatch(t);
            while (it.hasNext()) {
                const QString name = it.next().captured(1);
                if (!known.contains(name))
                    problems << where + QStringLiteral("{%1} is not a variable").arg(name);
            }
        }
        for (const QString& student : {QStringLiteral("check-a"), QStringLiteral("check-b")}) {
            try {
                const QuestionInstance in = instantiate(bank, q, student);
                if (q.type == QuestionType::Numeric && !std::isfinite(in.answer))
                    problems << where + QStringLiteral("the engine's answer is not a number");
                if (!in.run.isEmpty())
                    (void)parse_action(in.run); // the link with this student's numbers
            } catch (const Error& e) {
                problems << where + QString::fromStdString(e.what());
            }
        }
    }
}

// A numeric question whose answer the engine computes (not one typed into the bank).
bool engine_checked(const LessonLibrary& lib, const ExerciseRef& e) {
    const QuizBank* bank = lib.bank(e.bank);
    const Question* q = bank ? bank->find(e.question) : nullptr;
    return q && q->type == QuestionType::Numeric && q->answer.has_value();
}

// Every point of the syllabus: a lesson's page covers it, with a live scenario, an exercise and
// an engine-checked item among its lessons.
void check_syllabus(const LessonLibrary& lib, const QString& index, QStringList& problems) {
    for (int point = 1; point <= kSyllabusPoints; ++point) {
        QStringList lessons;
        bool page = false, scenario = false, exercise = false, engine = false;
        for (const Lesson& l : lib.lessons()) {
            if (std::find(l.syllabus.begin(), l.syllabus.end(), point) == l.syllabus.end())
                continue;
            lessons << l.id;
            page = page || !l.markdown.trimmed().isEmpty();
            scenario = scenario || !l.scenario_path.isEmpty();
            exercise = exercise || !l.exercises.empty();
            for (const ExerciseRef& e : l.exercises)
                engine = engine || engine_checked(lib, e);
        }
        const QString where =
            index + QStringLiteral(": point %1: ").arg(syllabus_point_label(point));
        if (lessons.isEmpty()) {
            problems << where + QStringLiteral("no lesson covers it");
            continue;
        }
        const QString in =
            QStringLiteral(" in its lessons (%1)").arg(lessons.join(QStringLiteral(", ")));
        if (!page)
            problems << where + QStringLiteral("no page") + in;
        if (!scenario)
            problems << where + QStringLiteral("no live scenario") + in;
        if (!exercise)
            problems << where + QStringLiteral("no exercise") + in;
        if (!engine)
            problems << where +
                            QStringLiteral("no engine-checked item%1: an exercise whose numeric "
                                           "answer the engine computes")
                                .arg(in);
    }
}

// The course's order builds: every term a lesson uses is taught by it or by a lesson before it,
// no term is taught twice, and each term a lesson lists is on its English page.
void check_terms(const std::vector<Lesson>& lessons, QStringList& problems) {
    std::map<QString, QString> taught_by; // term -> the lesson that introduces it
    for (const Lesson& l : lessons)
        for (const QString& term : l.introduces)
            if (!taught_by.try_emplace(term, l.id).second)
                problems << QDir(l.dir).filePath(QStringLiteral("lesson.json")) +
                                QStringLiteral(": introduces: '%1' is already taught in lesson "
                                               "'%2'")
                                    .arg(term, taught_by[term]);
    std::set<QString> known;
    for (const Lesson& l : lessons) {
        const QString json = QDir(l.dir).filePath(QStringLiteral("lesson.json"));
        const QString english = l.language == QLatin1String("en") ? l.markdown : QString();
        for (const QString& term : l.introduces) {
            known.insert(term);
            if (!english.isEmpty() && !english.contains(term, Qt::CaseInsensitive))
                problems << json +
                                QStringLiteral(": introduces: '%1' is not on the page").arg(term);
        }
        for (const QString& term : l.uses) {
            if (!english.isEmpty() && !english.contains(term, Qt::CaseInsensitive))
                problems << json + QStringLiteral(": uses: '%1' is not on the page").arg(term);
            if (known.count(term))
                continue;
            const auto later = taught_by.find(term);
            problems << json + (later == taught_by.end()
                                    ? QStringLiteral(": uses: no lesson teaches '%1'").arg(term)
                                    : QStringLiteral(": uses: '%1' is taught only later, in lesson "
                                                     "'%2'")
                                          .arg(term, later->second));
        }
    }
}

} // namespace

QStringList check_resources(const QString& resources_root, const QString& own_lessons) {
    const ReadInEnglish english; // the shipped texts, to compare each language with
    QStringList problems;
    LessonLibrary lib;
    try {
        lib = LessonLibrary::load(resources_root, &problems);
    } catch (const Error& e) {
        problems << QString::fromStdString(e.what());
        return problems;
    }
    const QString index = QDir(lib.root()).filePath(QStringLiteral("lessons/index.json"));
    if (lib.lessons().size() < kMinLessons)
        problems << index + QStringLiteral(": %1 lessons load; the course needs at least %2")
                                .arg(lib.lessons().size())
                                .arg(kMinLessons);
    for (const Lesson& l : lib.lessons())
        check_lesson(l, lib, problems);
    check_syllabus(lib, index, problems);
    check_terms(lib.lessons(), problems);
    // Lesson folders that the index forgets.
    const QDir lessons(QDir(lib.root()).filePath(QStringLiteral("lessons")));
    for (const QString& dir : lessons.entryList(QDir::Dirs | QDir::NoDotAndDotDot))
        if (!lib.listed().contains(dir) &&
            QFileInfo::exists(lessons.filePath(dir + QStringLiteral("/lesson.json"))))
            problems << index +
                            QStringLiteral(": lesson '%1' has a folder but is not listed").arg(dir);
    const std::size_t shipped_banks = lib.banks().size();
    for (const QuizBank& bank : lib.banks())
        check_bank(bank, problems);
    // Every shipped lesson and bank in every language, with the same links on every page.
    for (const QString& code : languages().mid(1)) {
        for (const Lesson& l : lib.lessons())
            problems << check_lesson_translation(l, code);
        for (const QuizBank& bank : lib.banks())
            problems << check_bank_translation(bank, code);
    }
    lib.add_own_lessons(own_lessons, &problems);
    for (const Lesson& l : lib.lessons())
        if (l.own)
            check_lesson(l, lib, problems);
    for (std::size_t i = shipped_banks; i < lib.banks().size(); ++i)
        check_bank(lib.banks()[i], problems);
    return problems;
}

} // namespace lockstep::lessons
