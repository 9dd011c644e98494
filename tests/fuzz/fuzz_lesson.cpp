// Feeds arbitrary text as a lesson's lesson.json to the lesson loader, in the shipped lesson folder
// its "id" names (so that a real lesson.json is read whole, its scenario and page included), or
// in reductions/ when there is none. It must either reject it with a lockstep::Error or return a
// lesson that keeps the promises of lesson.h: its id is its folder's, its scenario validates,
// its syllabus points are 1 to 9, its views and locks are known names, and its links are the
// page's.

#include "lockstep_lessons/lesson.h"

#include "core/error.h"

#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QHash>
#include <QJsonDocument>
#include <QJsonObject>

#include <cstdint>
#include <cstdlib>

namespace {

const QString& lessons_root() {
    static const QString root = QStringLiteral(LOCKSTEP_SOURCE_DIR "/resources/lessons");
    return root;
}

// Each shipped lesson's page, read once.
const QString& page_of(const QString& dir) {
    static QHash<QString, QString> pages;
    auto it = pages.find(dir);
    if (it == pages.end()) {
        QFile file(QDir(dir).filePath(QStringLiteral("page.md")));
        if (!file.open(QIODevice::ReadOnly))
            std::abort(); // the source tree is not where it was built from
        it = pages.insert(dir, QString::fromUtf8(file.readAll()));
    }
    return *it;
}

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    const QByteArray json(reinterpret_cast<const char*>(data), static_cast<qsizetype>(size));
    const QString id =
        QJsonDocument::fromJson(json).object().value(QStringLiteral("id")).toString();
    QString dir = QDir(lessons_root()).filePath(QStringLiteral("reductions"));
    if (!id.isEmpty() && !id.contains(QLatin1Char('/')) && !id.startsWith(QLatin1Char('.')) &&
        QFileInfo(QDir(lessons_root()).filePath(id + QStringLiteral("/page.md"))).isFile())
        dir = QDir(lessons_root()).filePath(id);
    try {
        const lockstep::lessons::Lesson l =
            lockstep::lessons::parse_lesson(json, page_of(dir), dir);
        if (l.id != QFileInfo(dir).fileName())
            std::abort();
        lockstep::validate(l.scenario);
        for (int p : l.syllabus)
            if (p < 1 || p > 9)
                std::abort();
        for (const QString& v : l.views)
            if (!lockstep::lessons::view_names().contains(v))
                std::abort();
        for (const QString& c : l.locked)
            if (!lockstep::lessons::lockable_controls().contains(c))
                std::abort();
        if (l.links.size() != lockstep::lessons::extract_links(l.markdown).size())
            std::abort();
        if (l.study && (l.study->models.size() < 2 || l.study->models.size() > 8))
            std::abort();
    } catch (const lockstep::Error&) {
    }
    return 0;
}
