#pragma once

#include <QString>
#include <QStringList>

namespace lockstep::lessons {

// Checks everything a class will meet: every lesson loads and its scenario validates, every link
// resolves to an action the lab knows (and a `set` link makes a valid scenario), every exercise
// names a question that exists, every question of every bank gives an engine answer for sample
// students and names only known placeholders, the lessons cover the whole syllabus, and every
// shipped lesson and bank is there in German and Spanish (a page with the English page's
// lockstep: links in the same order, a title, a bank's overlay with every text and the same
// {placeholders}: translations.h); read in English whatever the language in use. Returns
// one line per problem, each naming its file; empty when all is well.
// With `own_lessons`, the lessons and banks of that folder too (LessonLibrary::add_own_lessons):
// each is checked like a shipped one, but the course's coverage of the syllabus is the shipped
// library's.
QStringList check_resources(const QString& resources_root, const QString& own_lessons = {});

} // namespace lockstep::lessons
