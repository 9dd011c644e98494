// Where the shipped resources, the user's own lessons and the lab's settings file are.
#include "lockstep_lessons/lesson.h"

#include "lockstep_lessons/language.h"

#include <QCoreApplication>
#include <QDir>
#include <QFileInfo>
#include <QSettings>
#include <QStandardPaths>

namespace lockstep::lessons {

namespace {

// The folder of the running executable (lockstep-cli has no QCoreApplication).
QString executable_dir() {
    if (QCoreApplication::instance())
        return QCoreApplication::applicationDirPath();
    return QFileInfo(QFileInfo(QStringLiteral("/proc/self/exe")).symLinkTarget()).absolutePath();
}

QString installed_resources_dir() {
    return QDir::cleanPath(
        QDir(executable_dir()).absoluteFilePath(QStringLiteral(LOCKSTEP_DATA_FROM_BIN)));
}

} // namespace

ResourceLocation locate_resources() {
    const QString env = qEnvironmentVariable("LOCKSTEP_RESOURCES");
    if (!env.isEmpty())
        return {QDir(env).absolutePath(), QStringLiteral("$LOCKSTEP_RESOURCES")};
    const QString dir = installed_resources_dir();
    if (QFileInfo::exists(dir + QStringLiteral("/lessons/index.json")))
        return {QFileInfo(dir).canonicalFilePath(), Text::tr("found from the program's folder")};
    return {QString(), Text::tr("not found")};
}

QString default_resources_dir() {
    const ResourceLocation where = locate_resources();
    return where.dir.isEmpty() ? installed_resources_dir() : where.dir;
}

QString describe_resources() {
    const ResourceLocation where = locate_resources();
    QString text;
    if (where.dir.isEmpty())
        text = Text::tr("resources: not found (expected in %1; set LOCKSTEP_RESOURCES to the "
                        "folder that holds lessons/, scenarios/ and quizzes/)\n")
                   .arg(default_resources_dir());
    else
        text = Text::tr("resources: %1 (%2)\n").arg(where.dir, where.reason);
    QString own = own_lessons_dir();
    const QString home = QDir::homePath();
    if (home.size() > 1 && own.startsWith(home + QLatin1Char('/')))
        own = QStringLiteral("~") + own.mid(home.size());
    return text + (QFileInfo(own_lessons_dir()).isDir()
                       ? Text::tr("your own lessons: %1\n").arg(own)
                       : Text::tr("your own lessons: %1 (none yet)\n").arg(own));
}

QString settings_file() {
    return QStandardPaths::writableLocation(QStandardPaths::GenericConfigLocation) +
           QStringLiteral("/Lockstep/Lockstep/settings.ini");
}

QString own_lessons_dir() {
    const QSettings settings(settings_file(), QSettings::IniFormat);
    const QString chosen = settings.value(QStringLiteral("lessons/folder")).toString();
    if (!chosen.isEmpty())
        return chosen;
    return QStandardPaths::writableLocation(QStandardPaths::GenericDataLocation) +
           QStringLiteral("/Lockstep/lessons");
}

} // namespace lockstep::lessons
