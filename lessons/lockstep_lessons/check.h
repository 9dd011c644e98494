#pragma once

#include <QString>
#include <QStringList>

namespace lockstep::lessons {

// Checks everything a class will meet: every lesson loads and its scenario validates, every link
// resolves to an action the lab knows (and a `set` link makes a valid scenario), every exercise
// names a question that exists, every question of every bank gives an engine answer for sample
// students and names only known placeholders, and the lessons cover the whole syllabus. Returns
// one line per problem, each naming its file; empty when all is well.
// With `own_lessons`, the lessons and banks of that folder too (LessonLibrary::add_own_lessons):
// each is checked like a shipped one, but the course's coverage of the syllabus is the shipped
// library's.
QStringList check_resources(const QString& resources_root, const QString& own_lessons = {});

} // namespace lockstep::lessons
