#include "lockstep_lessons/syllabus.h"

#include <QCoreApplication>

#include <array>

namespace lockstep::lessons {

QString syllabus_point_name(int point) {
    static const std::array<const char*, kSyllabusPoints> names = {
        QT_TRANSLATE_NOOP("Syllabus", "speedup is not automatic"),
        QT_TRANSLATE_NOOP("Syllabus", "every replica holds the whole model"),
        QT_TRANSLATE_NOOP("Syllabus", "reductions must be explicit"),
        QT_TRANSLATE_NOOP("Syllabus", "a late worker makes the others wait"),
        QT_TRANSLATE_NOOP("Syllabus", "model parallelism moves activations"),
        QT_TRANSLATE_NOOP("Syllabus", "a checkpoint holds everything"),
        QT_TRANSLATE_NOOP("Syllabus", "a partial file is not a recovery point"),
        QT_TRANSLATE_NOOP("Syllabus", "a fair comparison counts useful work"),
        QT_TRANSLATE_NOOP("Syllabus", "is a small gain worth the cost?"),
    };
    if (point < 1 || point > kSyllabusPoints)
        return {};
    return QCoreApplication::translate("Syllabus", names[static_cast<std::size_t>(point - 1)]);
}

QString syllabus_point_label(int point) {
    return QStringLiteral("%1 %2").arg(point).arg(syllabus_point_name(point));
}

} // namespace lockstep::lessons
