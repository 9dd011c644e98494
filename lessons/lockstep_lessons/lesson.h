#pragma once

#include "lockstep_lessons/quiz.h"

#include "scenario/scenario.h"

#include <QString>
#include <QStringList>

#include <optional>
#include <vector>

namespace lockstep::lessons {

// An exercise of a lesson: one question of a quiz bank.
struct ExerciseRef {
    QString bank;
    QString question;
    QString key() const { return bank + QLatin1Char('/') + question; }
};

// A link in a lesson page: what it says and where it points.
struct Link {
    QString text;
    QString url;
};

// The discussion lesson's study: the same data trained by models of several sizes, with the
// modelled energy each costs. The power figures are assumptions the lesson states.
struct StudyConfig {
    std::vector<std::vector<int>> models; // layer sizes of each model
    double busy_watts = 250;              // a worker computing or communicating
    double idle_watts = 60;               // a worker waiting
};

// One lesson: a page of Markdown and its description (lesson.json). The scenario is loaded and
// validated with the lesson, so a lesson that loads can run.
struct Lesson {
    QString id;
    QString title;
    QString summary;
    QString dir;
    std::vector<int> syllabus; // points of the syllabus it covers, 1 to 9
    QString scenario_path;
    Scenario scenario;
    QStringList views;  // cluster, timeline, training, speedup, pipeline, comparison: the first
                        // is brought to front
    QStringList locked; // controls the lesson fixes: workers, algorithm, rule, shards, ...
    QString markdown;
    std::vector<Link> links;
    std::vector<ExerciseRef> exercises;
    bool calculator = false; // shows the worked-example calculator
    std::optional<StudyConfig> study;
};

// The controls a lesson may lock (the names the lab's controls panel uses).
QStringList lockable_controls();
QStringList view_names();

// Reads `dir`/lesson.json and `dir`/page.md. Throws lockstep::Error naming the file and field.
Lesson load_lesson(const QString& dir);
// The same from the two files' contents; `dir` is the lesson's folder (its id, and where its
// scenario is found).
Lesson parse_lesson(const QByteArray& json, const QString& markdown, const QString& dir);
// Every Markdown link [text](url) and autolink <url> in a page, in order.
std::vector<Link> extract_links(const QString& markdown);

// Every lesson in the order of lessons/index.json, and every quiz bank in quizzes/.
class LessonLibrary {
public:
    // Loads what it can; each lesson or bank that cannot be loaded adds a line to `problems`
    // (naming its file) and is left out. Throws only when the index itself is unusable.
    static LessonLibrary load(const QString& resources_root, QStringList* problems = nullptr);

    const QString& root() const { return root_; }
    const std::vector<Lesson>& lessons() const { return lessons_; }
    const QStringList& listed() const { return listed_; } // ids in the index, loaded or not
    const std::vector<QuizBank>& banks() const { return banks_; }
    const Lesson* find(const QString& id) const;
    int index_of(const QString& id) const; // -1 when unknown
    const Lesson* previous(const QString& id) const;
    const Lesson* next(const QString& id) const;
    const QuizBank* bank(const QString& id) const;
    // A bank by id, or by a file path.
    QuizBank load_bank_named(const QString& id_or_path) const;

private:
    QString root_;
    QStringList listed_;
    std::vector<Lesson> lessons_;
    std::vector<QuizBank> banks_;
};

// Where the shipped resources are: $LOCKSTEP_RESOURCES, else ./resources, else next to the
// executable (../resources, ../../resources), else the source tree it was built from.
QString default_resources_dir();

} // namespace lockstep::lessons
