// A question's texts for one student: a choice's letter, a template filled with their numbers.
#pragma once

#include "lockstep_lessons/quiz.h"

#include <QString>

namespace lockstep::lessons::detail {

// "a" for choice 0, "b" for 1, ...
QString letter(int index);
// fill_template(), with the numbers as the language writes them when `localized` (texts the
// student reads; never a link's numbers or an export's values).
QString fill(const QString& text, const QuestionInstance& in, bool localized);

} // namespace lockstep::lessons::detail
