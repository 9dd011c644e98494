#pragma once

#include "lockstep_lessons/lesson.h"
#include "lockstep_lessons/progress.h"

#include <QString>
#include <QStringList>

#include <memory>

namespace lockstep::lessons {

// The students of one computer, each with progress of their own: `profiles/<folder>/progress.json`
// under the app's data folder, one folder per student (named from the student's name, with a
// short hash so that two names never share one), and `profiles/current` naming the last one
// used. A progress file from before profiles (`progress.json` in the data folder) becomes the
// first profile, copied and left in place.
class ProfileBook {
public:
    explicit ProfileBook(const QString& data_folder);

    // Every student with a profile, in alphabetical order.
    QStringList names() const;
    // The student used last ("" when there is none yet).
    QString current() const;
    // Opens (or creates) the profile of `student`, which becomes the current one. Throws
    // lockstep::Error for an empty name or one longer than 80 characters.
    std::unique_ptr<ProgressStore> open(const QString& student);
    // Every profile's progress through the library's exercises, one CSV row per student and
    // exercise: student, lesson, bank, question, attempts, solved, score.
    QString exportCsv(const LessonLibrary& library) const;

    QString folderOf(const QString& student) const;

private:
    QString root_;   // .../profiles
    QString legacy_; // the data folder's progress.json from before profiles
};

} // namespace lockstep::lessons
