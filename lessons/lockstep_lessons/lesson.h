#pragma once

#include "lockstep_lessons/quiz.h"

#include "scenario/scenario.h"

#include <QString>
#include <QStringList>

#include <map>
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
// modelled energy each costs. The energy is the engine's model, with the watts of the lesson's
// scenario ("energy"), the same model every run in the lab uses.
struct StudyConfig {
    std::vector<std::vector<int>> models; // layer sizes of each model
    // Each model trains with this many seeds (the scenario's, then the next ones), and is judged
    // on held-out examples as the mean and spread over them; the curve is the first seed's.
    int seeds = 1;
};

// One lesson: a page of Markdown and its description (lesson.json). The scenario is loaded and
// validated with the lesson, so a lesson that loads can run.
// A lesson's title and summary in another language (lesson.json's "translations").
struct LessonTitle {
    QString title;
    QString summary;
};

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
    // The terms the page teaches, and the terms it relies on (lesson.json's "introduces" and
    // "uses"): lowercase words as the English page writes them. The course's order builds when
    // every term a lesson uses is taught by it or by a lesson before it (lessons check).
    QStringList introduces;
    QStringList uses;
    bool calculator = false; // shows the worked-example calculator
    std::optional<StudyConfig> study;
    bool own = false; // from the user's own lessons folder, not shipped
    // By language ("de", "es"): the title and summary there. Loading in a language puts them,
    // and its page.<code>.md, in place of the English ones.
    std::map<QString, LessonTitle> titles;
    QString language = QStringLiteral("en"); // the language of title, summary and markdown
};

// The controls a lesson may lock (the names the lab's controls panel uses).
QStringList lockable_controls();
QStringList view_names();

// Reads `dir`/lesson.json and `dir`/page.md (page.<code>.md, title and summary in the language
// in use when there are). Throws lockstep::Error naming the file and field.
// A scenario path is relative to the lesson's folder; when `scenarios` is given and no such file
// is there, a bare file name is looked up in that folder (a user's lesson names a shipped
// scenario, "straggler.json").
Lesson load_lesson(const QString& dir, const QString& scenarios = {});
// The same from the two files' contents; `dir` is the lesson's folder (its id, and where its
// scenario is found).
Lesson parse_lesson(const QByteArray& json, const QString& markdown, const QString& dir,
                    const QString& scenarios = {});
// Whether a term of "introduces" or "uses" is well formed: lowercase letters, digits, spaces,
// hyphens and apostrophes, 2 to 40 characters, starting with a letter.
bool is_term(const QString& term);
// Every Markdown link [text](url) and autolink <url> in a page, in order.
std::vector<Link> extract_links(const QString& markdown);

// Every lesson in the order of lessons/index.json, and every quiz bank in quizzes/.
class LessonLibrary {
public:
    // Loads what it can; each lesson or bank that cannot be loaded adds a line to `problems`
    // (naming its file) and is left out. Throws only when the index itself is unusable.
    static LessonLibrary load(const QString& resources_root, QStringList* problems = nullptr);
    // Adds the lessons of a user's own folder after the shipped ones: every sub-folder with a
    // lesson.json, in name order, and the banks of its quizzes/ folder. A lesson or bank whose id
    // is already taken is left out with a line in `problems`. A folder that does not exist adds
    // nothing. Returns how many lessons it added.
    int add_own_lessons(const QString& folder, QStringList* problems = nullptr);

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

    const QString& own_folder() const { return own_folder_; } // empty when none was added

private:
    QString root_;
    QString own_folder_;
    QStringList listed_;
    std::vector<Lesson> lessons_;
    std::vector<QuizBank> banks_;
};

// Where the shipped lessons, scenarios and quiz banks are, and why there.
struct ResourceLocation {
    QString dir;    // empty when none was found
    QString reason; // "$LOCKSTEP_RESOURCES", "found from the program's folder", "not found"
};
// $LOCKSTEP_RESOURCES when set; else the data folder beside the executable's, as installed
// (bin/../share/lockstep). A build tree has the same layout: build/share/lockstep links to the
// sources' resources/ folder. No path of the build machine is compiled in.
ResourceLocation locate_resources();
// locate_resources().dir, or the expected installed folder when nothing was found (so that the
// error that follows names it).
QString default_resources_dir();
// The user's own lessons: the folder named in the settings ("lessons/folder" in
// settings_file()), else ~/.local/share/Lockstep/lessons ($XDG_DATA_HOME/Lockstep/lessons).
QString own_lessons_dir();
// Two lines for --version: where the resources are read from (and why), and the own lessons.
QString describe_resources();
// The lab's settings: ~/.config/Lockstep/Lockstep/settings.ini ($XDG_CONFIG_HOME).
QString settings_file();

} // namespace lockstep::lessons
