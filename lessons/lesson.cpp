// Lessons read from lesson.json and page.md, and the library of lessons and quiz banks.
#include "lockstep_lessons/lesson.h"

#include "json_fields.h"
#include "lockstep_lessons/language.h"
#include "lockstep_lessons/translations.h"

#include "core/error.h"

#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QRegularExpression>

namespace lockstep::lessons {

using detail::Fields;

namespace {

// A lesson file, read whole. A device or a pipe (a link to /dev/zero, say) reports no size and
// never ends: only regular files are read, and never more than the limit.
QByteArray read_small(const QString& path, qint64 limit = 1 << 20) {
    if (!QFileInfo(path).isFile())
        throw Error((path + QStringLiteral(": not a regular file")).toStdString());
    QFile file(path);
    if (!file.open(QIODevice::ReadOnly))
        throw Error((path + QStringLiteral(": cannot read the file")).toStdString());
    QByteArray bytes = file.read(limit + 1);
    if (file.size() > limit || bytes.size() > limit)
        throw Error((path + QStringLiteral(": larger than %1 bytes").arg(limit)).toStdString());
    return bytes;
}

// A bank of a quizzes/ folder, whose id must be its file's name.
// Its texts are in the language in use, where the bank has them (translations.h).
QuizBank load_named_bank(const QDir& folder, const QString& name) {
    QuizBank bank = load_bank(folder.filePath(name));
    if (bank.id + QStringLiteral(".json") != name)
        throw Error(
            (bank.path + QStringLiteral(": id: must match the file name, got '%1'").arg(bank.id))
                .toStdString());
    translate_bank(bank, language());
    return bank;
}

// The banks of a quizzes/ folder, without their translations (reductions.de.json).
QStringList bank_files(const QDir& folder) {
    QStringList names;
    for (const QString& name :
         folder.entryList({QStringLiteral("*.json")}, QDir::Files, QDir::Name))
        if (!is_bank_translation(name))
            names << name;
    return names;
}

} // namespace

QStringList lockable_controls() {
    return {QStringLiteral("workers"),   QStringLiteral("algorithm"),
            QStringLiteral("rule"),      QStringLiteral("learning_rate"),
            QStringLiteral("shards"),    QStringLiteral("slowdown"),
            QStringLiteral("clock"),     QStringLiteral("seed"),
            QStringLiteral("steps"),     QStringLiteral("sync"),
            QStringLiteral("gradients"), QStringLiteral("sharding"),
            QStringLiteral("precision"), QStringLiteral("comm_precision")};
}

QStringList view_names() {
    return {QStringLiteral("cluster"), QStringLiteral("timeline"),    QStringLiteral("training"),
            QStringLiteral("speedup"), QStringLiteral("checkpoints"), QStringLiteral("pipeline"),
            QStringLiteral("memory"),  QStringLiteral("comparison")};
}

bool is_term(const QString& term) {
    static const QRegularExpression shape(QStringLiteral("^[a-z][a-z0-9' -]{1,39}$"));
    return shape.match(term).hasMatch() && term == term.simplified();
}

std::vector<Link> extract_links(const QString& markdown) {
    static const QRegularExpression link(
        QStringLiteral("\\[([^\\]]*)\\]\\(\\s*([^)\\s]+)\\s*\\)|<(lockstep:[^>\\s]+)>"));
    std::vector<Link> out;
    auto it = link.globalMatch(markdown);
    while (it.hasNext()) {
        const auto m = it.next();
        if (m.captured(3).isEmpty())
            out.push_back({m.captured(1), m.captured(2)});
        else
            out.push_back({m.captured(3), m.captured(3)});
    }
    return out;
}

Lesson load_lesson(const QString& dir, const QString& scenarios) {
    const QString json_path = QDir(dir).filePath(QStringLiteral("lesson.json"));
    const QByteArray json = read_small(json_path);
    const QString page = QDir(dir).filePath(QStringLiteral("page.md"));
    Lesson l = parse_lesson(json, QString::fromUtf8(read_small(page)), dir, scenarios);
    const QString code = language();
    if (code == QLatin1String("en"))
        return l;
    // The page in the language in use, when it has one; its links are the English page's
    // (lessons check), so the lesson does the same whatever language it is read in.
    const QString translated = localized_file(page, code);
    if (translated != page) {
        l.markdown = QString::fromUtf8(read_small(translated));
        if (l.markdown.trimmed().isEmpty())
            throw Error((translated + QStringLiteral(": the page is empty")).toStdString());
        l.links = extract_links(l.markdown);
        l.language = code;
    }
    if (const auto it = l.titles.find(code); it != l.titles.end()) {
        l.title = it->second.title;
        l.summary = it->second.summary;
    }
    return l;
}

Lesson parse_lesson(const QByteArray& json, const QString& markdown, const QString& dir,
                    const QString& scenarios) {
    const QString json_path = QDir(dir).filePath(QStringLiteral("lesson.json"));
    const Fields f(detail::parse_object(json, json_path), json_path, QString());
    f.only({QStringLiteral("id"), QStringLiteral("title"), QStringLiteral("summary"),
            QStringLiteral("syllabus"), QStringLiteral("scenario"), QStringLiteral("views"),
            QStringLiteral("lock"), QStringLiteral("exercises"), QStringLiteral("calculator"),
            QStringLiteral("study"), QStringLiteral("translations"), QStringLiteral("introduces"),
            QStringLiteral("uses")});
    Lesson l;
    l.dir = QDir(dir).absolutePath();
    l.id = f.text(QStringLiteral("id"));
    if (l.id != QFileInfo(dir).fileName())
        f.fail(QStringLiteral("id"), QStringLiteral("must match the folder name '%1', got '%2'")
                                         .arg(QFileInfo(dir).fileName(), l.id));
    l.title = f.text(QStringLiteral("title"));
    l.summary = f.text(QStringLiteral("summary"));
    const QJsonArray syllabus = f.array(QStringLiteral("syllabus"), true);
    for (qsizetype i = 0; i < syllabus.size(); ++i) {
        const double p = syllabus[i].toDouble(0);
        if (p < 1 || p > 9 || p != static_cast<int>(p))
            f.fail(QStringLiteral("syllabus[%1]").arg(i),
                   QStringLiteral("must be a point of the syllabus, 1 to 9"));
        l.syllabus.push_back(static_cast<int>(p));
    }
    const QString scenario = f.text(QStringLiteral("scenario"));
    l.scenario_path = QDir(l.dir).absoluteFilePath(scenario);
    if (!scenarios.isEmpty() && !QFileInfo::exists(l.scenario_path) &&
        QFileInfo(scenario).fileName() == scenario)
        l.scenario_path = QDir(scenarios).absoluteFilePath(scenario);
    try {
        l.scenario = load_scenario(l.scenario_path.toStdString());
    } catch (const Error& e) {
        f.fail(QStringLiteral("scenario"), QString::fromStdString(e.what()));
    }
    l.views = f.strings(QStringLiteral("views"), true);
    for (const QString& v : l.views)
        if (!view_names().contains(v))
            f.fail(QStringLiteral("views"), QStringLiteral("'%1' is not a view (known: %2)")
                                                .arg(v, view_names().join(QStringLiteral(", "))));
    l.locked = f.strings(QStringLiteral("lock"));
    for (const QString& c : l.locked)
        if (!lockable_controls().contains(c))
            f.fail(QStringLiteral("lock"),
                   QStringLiteral("'%1' is not a control (known: %2)")
                       .arg(c, lockable_controls().join(QStringLiteral(", "))));
    const QJsonArray exercises = f.array(QStringLiteral("exercises"));
    for (qsizetype i = 0; i < exercises.size(); ++i) {
        const Fields e = f.child(QStringLiteral("exercises[%1]").arg(i), exercises[i]);
        e.only({QStringLiteral("bank"), QStringLiteral("question")});
        l.exercises.push_back({e.text(QStringLiteral("bank")), e.text(QStringLiteral("question"))});
    }
    for (const QString& key : {QStringLiteral("introduces"), QStringLiteral("uses")}) {
        const QStringList terms = f.strings(key);
        for (qsizetype i = 0; i < terms.size(); ++i) {
            if (!is_term(terms[i]))
                f.fail(QStringLiteral("%1[%2]").arg(key).arg(i),
                       QStringLiteral("'%1' is not a term: lowercase words as the English page "
                                      "writes them, 2 to 40 characters")
                           .arg(terms[i]));
            if (terms.indexOf(terms[i]) < i)
                f.fail(QStringLiteral("%1[%2]").arg(key).arg(i),
                       QStringLiteral("'%1' is listed twice").arg(terms[i]));
        }
        (key == QLatin1String("introduces") ? l.introduces : l.uses) = terms;
    }
    for (const QString& term : l.uses)
        if (l.introduces.contains(term))
            f.fail(QStringLiteral("uses"),
                   QStringLiteral("'%1' is also in \"introduces\": list it once").arg(term));
    l.calculator = f.boolean(QStringLiteral("calculator"), false);
    if (f.has(QStringLiteral("translations"))) {
        const Fields t = f.child(QStringLiteral("translations"),
                                 f.object().value(QStringLiteral("translations")));
        for (auto it = t.object().begin(); it != t.object().end(); ++it) {
            if (!languages().contains(it.key()) || it.key() == QLatin1String("en"))
                t.fail(it.key(), QStringLiteral("not a language Lockstep speaks (%1)")
                                     .arg(languages().mid(1).join(QStringLiteral(", "))));
            const Fields one = t.child(it.key(), it.value());
            one.only({QStringLiteral("title"), QStringLiteral("summary")});
            l.titles[it.key()] = {one.text(QStringLiteral("title")),
                                  one.text(QStringLiteral("summary"))};
        }
    }
    if (f.has(QStringLiteral("study"))) {
        const Fields s =
            f.child(QStringLiteral("study"), f.object().value(QStringLiteral("study")));
        for (const QString& key : {QStringLiteral("busy_watts"), QStringLiteral("idle_watts")})
            if (s.has(key))
                s.fail(key, QStringLiteral("the study uses the engine's energy model: set the "
                                           "watts in the scenario's \"energy\" (compute_w, "
                                           "communicate_w, wait_w, checkpoint_w, idle_w)"));
        s.only({QStringLiteral("models"), QStringLiteral("seeds")});
        StudyConfig study;
        const QJsonArray models = s.array(QStringLiteral("models"), true);
        if (models.size() < 2 || models.size() > 8)
            s.fail(QStringLiteral("models"), QStringLiteral("needs 2 to 8 models to compare"));
        for (qsizetype i = 0; i < models.size(); ++i) {
            std::vector<int> layers;
            for (const QJsonValue& w : models[i].toArray())
                layers.push_back(w.toInt(0));
            Scenario probe = l.scenario;
            probe.model.layers = layers;
            try {
                validate(probe);
            } catch (const Error& e) {
                s.fail(QStringLiteral("models[%1]").arg(i), QString::fromStdString(e.what()));
            }
            study.models.push_back(layers);
        }
        study.seeds = static_cast<int>(s.number(QStringLiteral("seeds"), 1, 1, 10));
        if (study.seeds != s.number(QStringLiteral("seeds"), 1, 1, 10))
            s.fail(QStringLiteral("seeds"), QStringLiteral("must be a whole number from 1 to 10"));
        l.study = study;
    }
    const QString page = QDir(l.dir).filePath(QStringLiteral("page.md"));
    l.markdown = markdown;
    if (l.markdown.trimmed().isEmpty())
        throw Error((page + QStringLiteral(": the page is empty")).toStdString());
    l.links = extract_links(l.markdown);
    return l;
}

LessonLibrary LessonLibrary::load(const QString& resources_root, QStringList* problems) {
    LessonLibrary lib;
    lib.root_ = QDir(resources_root).absolutePath();
    auto note = [&](const QString& line) {
        if (problems)
            *problems << line;
    };
    const QString index_path = QDir(lib.root_).filePath(QStringLiteral("lessons/index.json"));
    const Fields index(detail::parse_object(read_small(index_path), index_path), index_path,
                       QString());
    index.only({QStringLiteral("lessons")});
    lib.listed_ = index.strings(QStringLiteral("lessons"), true);
    for (const QString& id : lib.listed_) {
        try {
            if (lib.find(id))
                throw Error(
                    (index_path + QStringLiteral(": '%1' is listed twice").arg(id)).toStdString());
            lib.lessons_.push_back(
                load_lesson(QDir(lib.root_).filePath(QStringLiteral("lessons/") + id)));
        } catch (const Error& e) {
            note(QString::fromStdString(e.what()));
        }
    }
    const QDir quizzes(QDir(lib.root_).filePath(QStringLiteral("quizzes")));
    for (const QString& name : bank_files(quizzes)) {
        try {
            lib.banks_.push_back(load_named_bank(quizzes, name));
        } catch (const Error& e) {
            note(QString::fromStdString(e.what()));
        }
    }
    return lib;
}

int LessonLibrary::add_own_lessons(const QString& folder, QStringList* problems) {
    auto note = [&](const QString& line) {
        if (problems)
            *problems << line;
    };
    const QDir dir(folder);
    if (folder.isEmpty() || !dir.exists())
        return 0;
    own_folder_ = dir.absolutePath();
    const QString shipped_scenarios = QDir(root_).filePath(QStringLiteral("scenarios"));
    int added = 0;
    for (const QString& name : dir.entryList(QDir::Dirs | QDir::NoDotAndDotDot, QDir::Name)) {
        const QString lesson_dir = dir.filePath(name);
        if (!QFileInfo::exists(QDir(lesson_dir).filePath(QStringLiteral("lesson.json"))))
            continue;
        try {
            Lesson l = load_lesson(lesson_dir, shipped_scenarios);
            if (find(l.id))
                throw Error((lesson_dir + QStringLiteral(": a lesson '%1' is already in the "
                                                         "library; give this folder another name")
                                              .arg(l.id))
                                .toStdString());
            l.own = true;
            lessons_.push_back(std::move(l));
            ++added;
        } catch (const Error& e) {
            note(QString::fromStdString(e.what()));
        }
    }
    const QDir quizzes(dir.filePath(QStringLiteral("quizzes")));
    for (const QString& name : bank_files(quizzes)) {
        try {
            QuizBank bank = load_named_bank(quizzes, name);
            if (this->bank(bank.id))
                throw Error((bank.path + QStringLiteral(": a quiz bank '%1' is already in the "
                                                        "library; give this file another name")
                                             .arg(bank.id))
                                .toStdString());
            banks_.push_back(std::move(bank));
        } catch (const Error& e) {
            note(QString::fromStdString(e.what()));
        }
    }
    return added;
}

const Lesson* LessonLibrary::find(const QString& id) const {
    const int i = index_of(id);
    return i < 0 ? nullptr : &lessons_[static_cast<std::size_t>(i)];
}

int LessonLibrary::index_of(const QString& id) const {
    for (std::size_t i = 0; i < lessons_.size(); ++i)
        if (lessons_[i].id == id)
            return static_cast<int>(i);
    return -1;
}

const Lesson* LessonLibrary::previous(const QString& id) const {
    const int i = index_of(id);
    return i > 0 ? &lessons_[static_cast<std::size_t>(i - 1)] : nullptr;
}

const Lesson* LessonLibrary::next(const QString& id) const {
    const int i = index_of(id);
    return i >= 0 && i + 1 < static_cast<int>(lessons_.size())
               ? &lessons_[static_cast<std::size_t>(i + 1)]
               : nullptr;
}

const QuizBank* LessonLibrary::bank(const QString& id) const {
    for (const QuizBank& b : banks_)
        if (b.id == id)
            return &b;
    return nullptr;
}

QuizBank LessonLibrary::load_bank_named(const QString& id_or_path) const {
    if (const QuizBank* b = bank(id_or_path))
        return *b;
    if (QFileInfo::exists(id_or_path))
        return load_bank(id_or_path);
    QStringList ids;
    for (const QuizBank& b : banks_)
        ids << b.id;
    throw Error(Text::tr("no quiz bank '%1' (known: %2, or give a file)")
                    .arg(id_or_path, ids.join(QStringLiteral(", ")))
                    .toStdString());
}

} // namespace lockstep::lessons
