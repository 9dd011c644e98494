// One student's version of a question: numbers drawn from their seed, answer, texts filled.
#include "lockstep_lessons/quiz.h"

#include "quiz_text.h"

#include "lockstep_lessons/language.h"

#include "core/rng.h"

#include <QRegularExpression>

#include <algorithm>
#include <cmath>

namespace lockstep::lessons {

using detail::fill;
using detail::letter;

namespace {

// The value of a variable as the student sees it.
QString variable_text(const Variable& v, double value) {
    return v.decimals == 0 ? format_value(value) : QString::number(value, 'f', v.decimals);
}

double draw(const Variable& v, Rng& rng) {
    if (v.decimals == 0 && !v.log_uniform) {
        const auto span = static_cast<std::uint64_t>(v.hi - v.lo) + 1;
        return v.lo + static_cast<double>(rng.below(span));
    }
    const double u = rng.uniform();
    const double raw = v.log_uniform
                           ? std::exp(std::log(v.lo) + (std::log(v.hi) - std::log(v.lo)) * u)
                           : v.lo + (v.hi - v.lo) * u;
    const double scale = std::pow(10.0, v.decimals);
    return std::clamp(std::round(raw * scale) / scale, v.lo, v.hi);
}

// The correct answer in a sentence for the student: its number as the language writes it.
QString shown_answer(const QuestionInstance& in) {
    if (in.question && in.question->type != QuestionType::Numeric)
        return in.answer_text();
    const QString unit = in.question ? in.question->unit : QString();
    return localized_number(format_value(in.answer)) +
           (unit.isEmpty() ? QString() : QLatin1Char(' ') + unit);
}

// Whether `at` is inside a lockstep: link's target ("(lockstep:set?p={p})"), read again as a link.
bool in_link(const QString& text, qsizetype at) {
    const qsizetype start = text.lastIndexOf(QLatin1String("lockstep:"), at);
    if (start < 0)
        return false;
    for (qsizetype i = start; i < at; ++i)
        if (text[i].isSpace() || text[i] == QLatin1Char(')') || text[i] == QLatin1Char('>'))
            return false;
    return true;
}

constexpr int kDraws = 16;

// Whether a student's numbers make the question trivial or ambiguous.
bool degenerate(const Question& q, const QuestionInstance& in) {
    for (std::size_t i = 0; i < q.variables.size(); ++i) {
        const Variable& a = q.variables[i];
        const double x = in.values.value(a.name);
        if (x == 0 && !(a.lo == 0 && a.hi == 0))
            return true;
        for (std::size_t j = i + 1; j < q.variables.size(); ++j) {
            const Variable& b = q.variables[j];
            if (a.lo == b.lo && a.hi == b.hi && a.lo < a.hi && x == in.values.value(b.name))
                return true;
        }
    }
    for (double trap : in.traps)
        if (std::abs(trap - in.answer) <= in.tolerance)
            return true;
    return false;
}

} // namespace

namespace detail {

QString letter(int index) {
    return QString(QChar(QLatin1Char('a').unicode() + index));
}

QString fill(const QString& text, const QuestionInstance& in, bool localized) {
    static const QRegularExpression placeholder(QStringLiteral("\\{([A-Za-z_][A-Za-z0-9_]*)\\}"));
    QString out;
    qsizetype last = 0;
    auto it = placeholder.globalMatch(text);
    while (it.hasNext()) {
        const auto m = it.next();
        out += text.mid(last, m.capturedStart() - last);
        const QString name = m.captured(1);
        QString value = m.captured(0);
        const bool shown = localized && !in_link(text, m.capturedStart());
        if (name == QLatin1String("answer"))
            value = shown ? shown_answer(in) : in.answer_text();
        else if (name == QLatin1String("unit") && in.question)
            value = in.question->unit;
        else if (in.question)
            for (const Variable& v : in.question->variables)
                if (v.name == name) {
                    value = variable_text(v, in.values.value(name));
                    if (shown)
                        value = localized_number(value);
                }
        out += value;
        last = m.capturedEnd();
    }
    out += text.mid(last);
    return out;
}

} // namespace detail

QString normalise_student(const QString& student) {
    return student.simplified().toCaseFolded();
}

std::uint64_t question_seed(const QString& student, const QString& bank, const QString& question) {
    // FNV-1a over the UTF-8 bytes: simple, stable across platforms and versions.
    const QByteArray key =
        (normalise_student(student) + QChar(0x1f) + bank + QChar(0x1f) + question).toUtf8();
    std::uint64_t h = 0xcbf29ce484222325ULL;
    for (char c : key) {
        h ^= static_cast<unsigned char>(c);
        h *= 0x100000001b3ULL;
    }
    return h;
}

QuestionInstance instantiate(const QuizBank& bank, const Question& q, const QString& student) {
    QuestionInstance in;
    in.question = &q;
    in.bank = bank.id;
    in.student = normalise_student(student);
    in.seed = question_seed(student, bank.id, q.id);
    Rng rng(in.seed);
    // Numbers that teach nothing are drawn again (a few times at most, the same way for the same
    // student): two gradients alike, a zero, or an answer a typical mistake also gives.
    for (int attempt = 0; attempt < kDraws; ++attempt) {
        in.values.clear();
        for (const Variable& v : q.variables)
            in.values.insert(v.name, draw(v, rng));
        if (q.type == QuestionType::Numeric) {
            in.answer = evaluate(*q.answer, in.values, bank.base_dir);
            in.tolerance = q.relative_tolerance ? std::max(q.tolerance * std::abs(in.answer), 1e-12)
                                                : q.tolerance;
            in.traps.clear();
            for (const Mistake& m : q.mistakes)
                in.traps.push_back(evaluate(m.call, in.values, bank.base_dir));
        }
        if (!degenerate(q, in))
            break;
    }
    in.choices = q.choices;
    in.correct = q.correct;
    if (q.correct_call)
        in.correct = {static_cast<int>(evaluate(*q.correct_call, in.values, bank.base_dir))};
    if (q.type == QuestionType::Ordering) {
        // Each student sees the items in their own order, never already sorted.
        std::vector<int> order(static_cast<std::size_t>(q.choices.size()));
        for (std::size_t i = 0; i < order.size(); ++i)
            order[i] = static_cast<int>(i);
        for (std::size_t i = order.size() - 1; i > 0; --i)
            std::swap(order[i], order[rng.below(i + 1)]);
        if (std::is_sorted(order.begin(), order.end()))
            std::rotate(order.begin(), order.begin() + 1, order.end());
        in.choices.clear();
        in.correct.assign(order.size(), 0);
        for (std::size_t shown = 0; shown < order.size(); ++shown) {
            in.choices << q.choices[order[shown]];
            in.correct[static_cast<std::size_t>(order[shown])] = static_cast<int>(shown);
        }
    }
    in.text = fill(q.text, in, true);
    for (const QString& h : q.hints)
        in.hints << fill(h, in, true);
    in.explanation = fill(q.explanation, in, true);
    in.run = fill_template(q.run, in); // a lockstep: link, read again
    return in;
}

QString QuestionInstance::answer_text() const {
    const QuestionType type = question ? question->type : QuestionType::Numeric;
    if (type == QuestionType::Numeric) {
        const QString unit = question ? question->unit : QString();
        return format_value(answer) + (unit.isEmpty() ? QString() : QLatin1Char(' ') + unit);
    }
    QStringList parts;
    for (int c : correct)
        parts << QStringLiteral("(%1) %2").arg(letter(c), choices[c]);
    return parts.join(type == QuestionType::Ordering ? QStringLiteral(" → ")
                                                     : QStringLiteral("; "));
}

QString format_value(double value) {
    if (value == std::floor(value) && std::abs(value) < 1e15)
        return QString::number(static_cast<qint64>(value));
    return QString::number(value, 'g', 10);
}

QString fill_template(const QString& text, const QuestionInstance& in) {
    return fill(text, in, false);
}

} // namespace lockstep::lessons
