#include "lockstep_lessons/progress.h"

#include "lockstep_lessons/language.h"
#include "lockstep_lessons/lesson.h"

#include "core/error.h"

#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QSaveFile>

#include <algorithm>

namespace lockstep::lessons {

namespace {

constexpr int kVersion = 1;

QString key_of(const QString& bank, const QString& question) {
    return bank + QLatin1Char('/') + question;
}

} // namespace

double AttemptRecord::score() const {
    if (!solved)
        return 0.0;
    return std::max(0.0, 1.0 - (attempts_to_solve - 1) / 3.0);
}

ProgressStore::ProgressStore(const QString& folder)
    : folder_(folder)
    , path_(QDir(folder).filePath(QStringLiteral("progress.json"))) {
    load();
}

void ProgressStore::load() {
    QFile file(path_);
    if (!file.exists())
        return;
    auto unreadable = [&](const QString& why) {
        load_problem_ = Text::tr("%1: %2; it was set aside as %1.unreadable and progress "
                                 "starts afresh")
                            .arg(path_, why);
        file.close();
        QFile::remove(path_ + QStringLiteral(".unreadable"));
        QFile::rename(path_, path_ + QStringLiteral(".unreadable"));
        visited_.clear();
        attempts_.clear();
    };
    constexpr qint64 limit = 16 << 20;
    if (!QFileInfo(path_).isFile() || !file.open(QIODevice::ReadOnly) || file.size() > limit)
        return unreadable(Text::tr("cannot be read"));
    const QByteArray bytes = file.read(limit + 1);
    if (bytes.size() > limit)
        return unreadable(Text::tr("cannot be read"));
    QJsonParseError error;
    const QJsonDocument doc = QJsonDocument::fromJson(bytes, &error);
    if (error.error != QJsonParseError::NoError || !doc.isObject())
        return unreadable(Text::tr("not valid JSON (%1)").arg(error.errorString()));
    const QJsonObject top = doc.object();
    if (top.value(QStringLiteral("version")).toInt() != kVersion)
        return unreadable(Text::tr("version must be %1").arg(kVersion));
    student_ = top.value(QStringLiteral("student")).toString();
    last_lesson_ = top.value(QStringLiteral("last_lesson")).toString();
    for (const QJsonValue& v : top.value(QStringLiteral("visited")).toArray())
        visited_.insert(v.toString());
    const QJsonObject attempts = top.value(QStringLiteral("attempts")).toObject();
    for (auto it = attempts.begin(); it != attempts.end(); ++it) {
        const QJsonObject o = it.value().toObject();
        AttemptRecord r;
        r.attempts = std::max(0, o.value(QStringLiteral("attempts")).toInt());
        r.solved = o.value(QStringLiteral("solved")).toBool();
        r.attempts_to_solve = std::max(0, o.value(QStringLiteral("attempts_to_solve")).toInt());
        r.last_answer = o.value(QStringLiteral("last_answer")).toString();
        r.last_verdict = o.value(QStringLiteral("last_verdict")).toString();
        attempts_.insert(it.key(), r);
    }
}

void ProgressStore::setStudent(const QString& student) {
    student_ = student.simplified();
}

void ProgressStore::markVisited(const QString& lesson) {
    visited_.insert(lesson);
    last_lesson_ = lesson;
}

void ProgressStore::recordAttempt(const QString& bank, const QString& question,
                                  const QString& typed, Verdict verdict) {
    AttemptRecord& r = attempts_[key_of(bank, question)];
    if (verdict == Verdict::Unparseable)
        return; // a typing slip is not an attempt
    ++r.attempts;
    r.last_answer = typed;
    r.last_verdict = to_string(verdict);
    if (verdict == Verdict::Correct && !r.solved) {
        r.solved = true;
        r.attempts_to_solve = r.attempts;
    }
}

AttemptRecord ProgressStore::attempt(const QString& bank, const QString& question) const {
    return attempts_.value(key_of(bank, question));
}

bool ProgressStore::solved(const QString& bank, const QString& question) const {
    return attempts_.value(key_of(bank, question)).solved;
}

int ProgressStore::solvedExercises(const Lesson& lesson) const {
    int n = 0;
    for (const ExerciseRef& e : lesson.exercises)
        n += solved(e.bank, e.question) ? 1 : 0;
    return n;
}

void ProgressStore::reset() {
    visited_.clear();
    attempts_.clear();
    last_lesson_.clear();
    save();
}

void ProgressStore::save() const {
    if (!QDir().mkpath(folder_))
        throw Error(Text::tr("%1: cannot create the folder").arg(folder_).toStdString());
    QJsonObject top;
    top.insert(QStringLiteral("version"), kVersion);
    top.insert(QStringLiteral("student"), student_);
    top.insert(QStringLiteral("last_lesson"), last_lesson_);
    QStringList visited(visited_.begin(), visited_.end());
    visited.sort();
    top.insert(QStringLiteral("visited"), QJsonArray::fromStringList(visited));
    QJsonObject attempts;
    for (auto it = attempts_.begin(); it != attempts_.end(); ++it) {
        QJsonObject o;
        o.insert(QStringLiteral("attempts"), it->attempts);
        o.insert(QStringLiteral("solved"), it->solved);
        o.insert(QStringLiteral("attempts_to_solve"), it->attempts_to_solve);
        o.insert(QStringLiteral("last_answer"), it->last_answer);
        o.insert(QStringLiteral("last_verdict"), it->last_verdict);
        o.insert(QStringLiteral("score"), it->score());
        attempts.insert(it.key(), o);
    }
    top.insert(QStringLiteral("attempts"), attempts);
    QSaveFile file(path_);
    if (!file.open(QIODevice::WriteOnly) ||
        file.write(QJsonDocument(top).toJson(QJsonDocument::Indented)) < 0 || !file.commit())
        throw Error(
            Text::tr("%1: cannot write progress: %2").arg(path_, file.errorString()).toStdString());
}

} // namespace lockstep::lessons
