// Checking a typed answer against one student's version of a question, with feedback.
#include "lockstep_lessons/quiz.h"

#include "quiz_text.h"

#include "lockstep_lessons/answer.h"
#include "lockstep_lessons/language.h"

#include <algorithm>
#include <cmath>

namespace lockstep::lessons {

using detail::fill;
using detail::letter;

namespace {

// How far from the answer a typed value still counts as "near" (a rounding slip), in tolerances.
constexpr double kNearFactor = 10.0;

} // namespace

Checked check_answer(const QuestionInstance& in, const QString& typed) {
    Checked out;
    const Question& q = *in.question;
    if (q.type == QuestionType::Numeric) {
        const Parsed<double> p = parse_number(typed, q.unit);
        if (!p.value) {
            out.feedback = p.problem;
            return out;
        }
        const double x = *p.value;
        const QString read = Text::tr("You answered %1%2.")
                                 .arg(localized_number(format_value(x)),
                                      q.unit.isEmpty() ? QString() : QLatin1Char(' ') + q.unit);
        const double off = std::abs(x - in.answer);
        if (off <= in.tolerance) {
            out.verdict = Verdict::Correct;
            out.feedback =
                read + QLatin1Char(' ') + Text::tr("Correct.") + QLatin1Char(' ') + in.explanation;
            return out;
        }
        for (std::size_t i = 0; i < in.traps.size(); ++i) {
            if (std::abs(x - in.traps[i]) <= in.tolerance &&
                std::abs(in.traps[i] - in.answer) > in.tolerance) {
                out.verdict = Verdict::Wrong;
                out.feedback = read + QLatin1Char(' ') + fill(q.mistakes[i].feedback, in, true);
                return out;
            }
        }
        // A fraction typed as a percentage without its sign (62.5 for 0.625).
        if (std::abs(in.answer) <= 1.0 && std::abs(x / 100.0 - in.answer) <= in.tolerance &&
            !typed.contains(QLatin1Char('%'))) {
            out.verdict = Verdict::Near;
            out.feedback = read + QLatin1Char(' ') +
                           Text::tr("If you meant %1%, write the % sign, or write it as a "
                                    "fraction: %2.")
                               .arg(localized_number(format_value(x)),
                                    localized_number(format_value(x / 100.0)));
            return out;
        }
        if (off <= kNearFactor * in.tolerance) {
            out.verdict = Verdict::Near;
            out.feedback = read + QLatin1Char(' ') +
                           Text::tr("Close, but not close enough (within %1 of the answer "
                                    "counts): check your rounding, and keep more digits until "
                                    "the last step.")
                               .arg(localized_number(QString::number(in.tolerance, 'g', 2)));
            return out;
        }
        out.verdict = Verdict::Wrong;
        out.feedback = read + QLatin1Char(' ') + Text::tr("That is not it yet.");
        return out;
    }
    const bool single = q.type == QuestionType::SingleChoice;
    const bool ordering = q.type == QuestionType::Ordering;
    const auto p = parse_choices(typed, static_cast<int>(in.choices.size()), single, ordering);
    if (!p.value) {
        out.feedback = p.problem;
        return out;
    }
    std::vector<int> chosen = *p.value;
    if (ordering) {
        int in_place = 0;
        for (std::size_t i = 0; i < chosen.size(); ++i)
            in_place += chosen[i] == in.correct[i] ? 1 : 0;
        if (in_place == static_cast<int>(chosen.size())) {
            out.verdict = Verdict::Correct;
            out.feedback =
                Text::tr("Correct: that is the order.") + QLatin1Char(' ') + in.explanation;
        } else {
            out.verdict = Verdict::Wrong;
            out.feedback = Text::tr("%1 of the %2 items are in the right place.")
                               .arg(in_place)
                               .arg(chosen.size());
        }
        return out;
    }
    std::sort(chosen.begin(), chosen.end());
    if (chosen == in.correct) {
        out.verdict = Verdict::Correct;
        out.feedback = Text::tr("Correct.") + QLatin1Char(' ') + in.explanation;
        return out;
    }
    out.verdict = Verdict::Wrong;
    if (single) {
        out.feedback =
            Text::tr("You chose (%1): that is not the best answer.").arg(letter(chosen.front()));
        return out;
    }
    int right = 0;
    for (int c : chosen)
        right += std::binary_search(in.correct.begin(), in.correct.end(), c) ? 1 : 0;
    const int wrong = static_cast<int>(chosen.size()) - right;
    const int missing = static_cast<int>(in.correct.size()) - right;
    // One clause per count, singular or plural: "2 of your choices are right, 1 is not, and 0
    // right ones are missing."
    const QString rights = right == 1 ? Text::tr("%1 of your choices is right").arg(right)
                                      : Text::tr("%1 of your choices are right").arg(right);
    const QString wrongs = wrong == 1 ? Text::tr("%1 is not", "of your choices").arg(wrong)
                                      : Text::tr("%1 are not", "of your choices").arg(wrong);
    const QString missed = missing == 1 ? Text::tr("%1 right one is missing").arg(missing)
                                        : Text::tr("%1 right ones are missing").arg(missing);
    out.feedback =
        Text::tr("%1, %2, and %3.", "choices: right, wrong, missing").arg(rights, wrongs, missed);
    return out;
}

} // namespace lockstep::lessons
