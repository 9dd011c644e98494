#include "lockstep_lessons/profiles.h"

#include "lockstep_lessons/language.h"

#include "core/error.h"

#include <QCryptographicHash>
#include <QDir>
#include <QFile>
#include <QJsonDocument>
#include <QJsonObject>
#include <QRegularExpression>
#include <QSaveFile>

#include <algorithm>

namespace lockstep::lessons {

namespace {

constexpr int kMaxName = 80;

QString csv_field(QString text) {
    // A name a spreadsheet would take for a formula is written as text.
    if (!text.isEmpty() && QStringLiteral("=+-@").contains(text.front()))
        text.prepend(QLatin1Char('\''));
    if (!text.contains(QLatin1Char(',')) && !text.contains(QLatin1Char('"')) &&
        !text.contains(QLatin1Char('\n')))
        return text;
    QString quoted = text;
    quoted.replace(QLatin1Char('"'), QStringLiteral("\"\""));
    return QLatin1Char('"') + quoted + QLatin1Char('"');
}

// The student named in a progress file, or "" when it names none.
QString student_in(const QString& progress_json) {
    QFile f(progress_json);
    if (!f.open(QIODevice::ReadOnly) || f.size() > (1 << 24))
        return {};
    return QJsonDocument::fromJson(f.readAll())
        .object()
        .value(QStringLiteral("student"))
        .toString();
}

} // namespace

ProfileBook::ProfileBook(const QString& data_folder)
    : root_(QDir(data_folder).filePath(QStringLiteral("profiles")))
    , legacy_(QDir(data_folder).filePath(QStringLiteral("progress.json"))) {
    QDir().mkpath(root_);
    // The one student of an older version becomes a profile; the old file stays where it was.
    if (names().isEmpty() && QFile::exists(legacy_)) {
        const QString student = student_in(legacy_).simplified();
        const QString name = student.isEmpty() ? QStringLiteral("Student") : student;
        const QString folder = folderOf(name);
        QDir().mkpath(folder);
        QFile::copy(legacy_, QDir(folder).filePath(QStringLiteral("progress.json")));
        open(name)->save();
    }
}

QString ProfileBook::folderOf(const QString& student) const {
    QString slug = student.toLower();
    slug.replace(QRegularExpression(QStringLiteral("[^a-z0-9]+")), QStringLiteral("-"));
    slug = slug.mid(0, 32);
    while (slug.startsWith(QLatin1Char('-')))
        slug.remove(0, 1);
    while (slug.endsWith(QLatin1Char('-')))
        slug.chop(1);
    const QByteArray hash =
        QCryptographicHash::hash(student.toUtf8(), QCryptographicHash::Sha256).toHex().left(8);
    return QDir(root_).filePath((slug.isEmpty() ? QStringLiteral("student") : slug) +
                                QLatin1Char('-') + QString::fromLatin1(hash));
}

QStringList ProfileBook::names() const {
    QStringList out;
    const QDir dir(root_);
    for (const QString& sub : dir.entryList(QDir::Dirs | QDir::NoDotAndDotDot)) {
        const QString path = dir.filePath(sub + QStringLiteral("/progress.json"));
        const QString student = student_in(path).simplified();
        // Only folders this book made: the name inside must lead back to the folder.
        if (!student.isEmpty() && QDir(folderOf(student)) == QDir(dir.filePath(sub)))
            out << student;
    }
    std::sort(out.begin(), out.end(), [](const QString& a, const QString& b) {
        return QString::localeAwareCompare(a, b) < 0;
    });
    return out;
}

QString ProfileBook::current() const {
    QFile f(QDir(root_).filePath(QStringLiteral("current")));
    if (!f.open(QIODevice::ReadOnly) || f.size() > 4096)
        return {};
    const QString name = QString::fromUtf8(f.readAll()).simplified();
    return names().contains(name) ? name : QString();
}

std::unique_ptr<ProgressStore> ProfileBook::open(const QString& student) {
    const QString name = student.simplified();
    if (name.isEmpty())
        throw Error(Text::tr("a student profile needs a name").toStdString());
    if (name.size() > kMaxName)
        throw Error(
            Text::tr("a student's name has at most %1 characters").arg(kMaxName).toStdString());
    const QString folder = folderOf(name);
    QDir().mkpath(folder);
    auto store = std::make_unique<ProgressStore>(folder);
    if (store->student() != name) {
        store->setStudent(name);
        store->save();
    }
    QSaveFile f(QDir(root_).filePath(QStringLiteral("current")));
    if (f.open(QIODevice::WriteOnly)) {
        f.write(name.toUtf8());
        f.commit();
    }
    return store;
}

QString ProfileBook::exportCsv(const LessonLibrary& library) const {
    QString out = QStringLiteral("student,lesson,bank,question,attempts,solved,score\n");
    for (const QString& student : names()) {
        const ProgressStore store(folderOf(student));
        for (const Lesson& l : library.lessons())
            for (const ExerciseRef& e : l.exercises) {
                const AttemptRecord r = store.attempt(e.bank, e.question);
                out += QStringList{csv_field(student),
                                   l.id,
                                   e.bank,
                                   e.question,
                                   QString::number(r.attempts),
                                   r.solved ? QStringLiteral("yes") : QStringLiteral("no"),
                                   QString::number(r.score(), 'g', 3)}
                           .join(QLatin1Char(',')) +
                       QLatin1Char('\n');
            }
    }
    return out;
}

} // namespace lockstep::lessons
