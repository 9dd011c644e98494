#pragma once

// Lessons and quiz banks in another language. A lesson's page in German is page.de.md beside
// page.md, its title and summary are in lesson.json under "translations": {"de": {...}}; a
// bank's texts in German are an overlay, quizzes/<bank>.de.json, that holds only the texts, by
// question id (docs/TRANSLATING.md). What a language lacks is shown in English.

#include "lockstep_lessons/lesson.h"
#include "lockstep_lessons/quiz.h"

#include <QString>
#include <QStringList>

namespace lockstep::lessons {

// Whether a file of a quizzes/ folder is a bank's translation (reductions.de.json), not a bank.
bool is_bank_translation(const QString& file_name);
// The bank's overlay file for `code` (reductions.json → reductions.de.json).
QString bank_translation_path(const QuizBank& bank, const QString& code);
// Puts the overlay's texts for `code` into `bank` when the file is there; English stays for
// what it lacks. Throws lockstep::Error naming the file and the field for a broken overlay
// (unknown key, a question the bank does not have, a count that differs).
void translate_bank(QuizBank& bank, const QString& code);
// What `lessons check` says about the bank in `code`: the overlay is missing, misses a question
// or a text, or a text's {placeholders} differ from the English. Empty when all is well.
QStringList check_bank_translation(const QuizBank& bank, const QString& code);
// What it says about the lesson in `code`: no page, no title, or the page's lockstep: links are
// not the English page's, in order.
QStringList check_lesson_translation(const Lesson& lesson, const QString& code);

} // namespace lockstep::lessons
