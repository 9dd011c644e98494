#include "lockstep_lessons/quiz.h"

#include "json_fields.h"
#include "lockstep_lessons/answer.h"
#include "lockstep_lessons/language.h"

#include "core/error.h"
#include "core/rng.h"

#include <QFile>
#include <QFileInfo>
#include <QRegularExpression>
#include <QSet>

#include <algorithm>
#include <cmath>
#include <set>

namespace lockstep::lessons {

using detail::Fields;

namespace {

// How far from the answer a typed value still counts as "near" (a rounding slip), in tolerances.
constexpr double kNearFactor = 10.0;

QuestionType parse_type(const Fields& f) {
    const QString t = f.text(QStringLiteral("type"));
    for (auto type : {QuestionType::Numeric, QuestionType::SingleChoice,
                      QuestionType::MultipleChoice, QuestionType::Ordering})
        if (t == to_string(type))
            return type;
    f.fail(QStringLiteral("type"),
           QStringLiteral("must be numeric, single, multiple or ordering, got '%1'").arg(t));
}

Variable parse_variable(const Fields& f) {
    f.only({QStringLiteral("name"), QStringLiteral("min"), QStringLiteral("max"),
            QStringLiteral("distribution"), QStringLiteral("decimals")});
    Variable v;
    v.name = f.text(QStringLiteral("name"));
    static const QRegularExpression identifier(QStringLiteral("^[A-Za-z_][A-Za-z0-9_]*$"));
    if (!identifier.match(v.name).hasMatch() || v.name == QLatin1String("answer") ||
        v.name == QLatin1String("unit"))
        f.fail(QStringLiteral("name"),
               QStringLiteral("must be a plain name (letters, digits, _), not 'answer' or 'unit'"));
    v.lo = f.number(QStringLiteral("min"), 0, -1e12, 1e12, true);
    v.hi = f.number(QStringLiteral("max"), 0, -1e12, 1e12, true);
    if (v.hi < v.lo)
        f.fail(QStringLiteral("max"), QStringLiteral("must not be below min"));
    const QString dist = f.text(QStringLiteral("distribution"), false, QStringLiteral("uniform"));
    if (dist == QLatin1String("log-uniform"))
        v.log_uniform = true;
    else if (dist != QLatin1String("uniform"))
        f.fail(QStringLiteral("distribution"),
               QStringLiteral("must be uniform or log-uniform, got '%1'").arg(dist));
    if (v.log_uniform && v.lo <= 0)
        f.fail(QStringLiteral("min"), QStringLiteral("must be above 0 for a log-uniform variable"));
    v.decimals = f.integer(QStringLiteral("decimals"), 0, 0, 9);
    if (v.decimals == 0 && (v.lo != std::floor(v.lo) || v.hi != std::floor(v.hi)))
        f.fail(QStringLiteral("min"),
               QStringLiteral("min and max must be whole numbers when decimals is 0"));
    return v;
}

Question parse_question(const Fields& f, const QString& base_dir) {
    f.only({QStringLiteral("id"), QStringLiteral("title"), QStringLiteral("type"),
            QStringLiteral("text"), QStringLiteral("hints"), QStringLiteral("explanation"),
            QStringLiteral("variables"), QStringLiteral("answer"), QStringLiteral("tolerance"),
            QStringLiteral("unit"), QStringLiteral("mistakes"), QStringLiteral("run"),
            QStringLiteral("choices"), QStringLiteral("correct"), QStringLiteral("items")});
    Question q;
    q.id = f.text(QStringLiteral("id"));
    static const QRegularExpression identifier(QStringLiteral("^[a-z0-9][a-z0-9-]*$"));
    if (!identifier.match(q.id).hasMatch())
        f.fail(QStringLiteral("id"),
               QStringLiteral("must be lower-case letters, digits and dashes, got '%1'").arg(q.id));
    q.title = f.text(QStringLiteral("title"), false).simplified();
    if (q.title.size() > 80)
        f.fail(QStringLiteral("title"),
               QStringLiteral("at most 80 characters, got %1").arg(q.title.size()));
    q.type = parse_type(f);
    q.text = f.text(QStringLiteral("text"));
    q.hints = f.strings(QStringLiteral("hints"));
    q.explanation = f.text(QStringLiteral("explanation"));
    QStringList names;
    const QJsonArray vars = f.array(QStringLiteral("variables"));
    for (qsizetype i = 0; i < vars.size(); ++i) {
        q.variables.push_back(
            parse_variable(f.child(QStringLiteral("variables[%1]").arg(i), vars[i])));
        if (names.contains(q.variables.back().name))
            f.fail(QStringLiteral("variables[%1].name").arg(i), QStringLiteral("used twice"));
        names << q.variables.back().name;
    }
    auto engine_call = [&](const QString& key, const QJsonValue& v) {
        const Fields call = f.child(key, v);
        EngineCall c{call.object()};
        try {
            check_engine_call(c, names, base_dir);
        } catch (const Error& e) {
            f.fail(key, QString::fromStdString(e.what()));
        }
        return c;
    };
    const bool numeric = q.type == QuestionType::Numeric;
    for (const QString& key :
         {QStringLiteral("answer"), QStringLiteral("tolerance"), QStringLiteral("unit"),
          QStringLiteral("mistakes"), QStringLiteral("run")})
        if (!numeric && f.has(key))
            f.fail(key, QStringLiteral("only numeric questions have it"));
    if (numeric) {
        if (!f.has(QStringLiteral("answer")))
            f.fail(QStringLiteral("answer"),
                   QStringLiteral("missing: a numeric question's answer is an engine call"));
        q.answer =
            engine_call(QStringLiteral("answer"), f.object().value(QStringLiteral("answer")));
        if (f.has(QStringLiteral("tolerance"))) {
            const Fields tol =
                f.child(QStringLiteral("tolerance"), f.object().value(QStringLiteral("tolerance")));
            tol.only({QStringLiteral("absolute"), QStringLiteral("relative")});
            if (tol.has(QStringLiteral("absolute")) == tol.has(QStringLiteral("relative")))
                tol.fail({}, QStringLiteral("give either absolute or relative"));
            q.relative_tolerance = tol.has(QStringLiteral("relative"));
            q.tolerance = q.relative_tolerance
                              ? tol.number(QStringLiteral("relative"), 0, 1e-9, 0.5, true)
                              : tol.number(QStringLiteral("absolute"), 0, 1e-12, 1e12, true);
        }
        q.unit = f.text(QStringLiteral("unit"), false);
        const QJsonArray mistakes = f.array(QStringLiteral("mistakes"));
        for (qsizetype i = 0; i < mistakes.size(); ++i) {
            const QString key = QStringLiteral("mistakes[%1]").arg(i);
            const Fields m = f.child(key, mistakes[i]);
            m.only({QStringLiteral("answer"), QStringLiteral("feedback")});
            q.mistakes.push_back({engine_call(key + QStringLiteral(".answer"),
                                              m.object().value(QStringLiteral("answer"))),
                                  m.text(QStringLiteral("feedback"))});
        }
        q.run = f.text(QStringLiteral("run"), false);
        if (f.has(QStringLiteral("choices")) || f.has(QStringLiteral("correct")) ||
            f.has(QStringLiteral("items")))
            f.fail(QStringLiteral("choices"), QStringLiteral("a numeric question has no choices"));
        return q;
    }
    if (q.type == QuestionType::Ordering) {
        if (f.has(QStringLiteral("choices")) || f.has(QStringLiteral("correct")))
            f.fail(QStringLiteral("items"),
                   QStringLiteral("an ordering lists its items in the right order under 'items'"));
        q.choices = f.strings(QStringLiteral("items"), true);
        if (q.choices.size() < 3 || q.choices.size() > 12)
            f.fail(QStringLiteral("items"), QStringLiteral("an ordering needs 3 to 12 items"));
        for (int i = 0; i < q.choices.size(); ++i)
            q.correct.push_back(i);
    } else {
        if (f.has(QStringLiteral("items")))
            f.fail(QStringLiteral("items"), QStringLiteral("only orderings have items"));
        q.choices = f.strings(QStringLiteral("choices"), true);
        if (q.choices.size() < 2 || q.choices.size() > 12)
            f.fail(QStringLiteral("choices"), QStringLiteral("needs 2 to 12 choices"));
        const QJsonValue right = f.object().value(QStringLiteral("correct"));
        if (right.isObject()) {
            // The engine says which choice is right: first_to_target gives the index of the
            // first of its modes to reach the target, so its modes are the choices, in order.
            if (q.type != QuestionType::SingleChoice)
                f.fail(QStringLiteral("correct"),
                       QStringLiteral("only a single-choice question's answer is an engine call"));
            q.correct_call = engine_call(QStringLiteral("correct"), right);
            const QJsonObject& spec = q.correct_call->spec;
            if (spec.value(QStringLiteral("engine")).toString() != QLatin1String("first_to_target"))
                f.fail(QStringLiteral("correct.engine"),
                       QStringLiteral("a choice's engine call must be first_to_target"));
            if (spec.value(QStringLiteral("modes")).toArray().size() != q.choices.size())
                f.fail(QStringLiteral("correct.modes"),
                       QStringLiteral("one mode per choice, in the choices' order (%1)")
                           .arg(q.choices.size()));
            return q;
        }
        const QJsonArray correct = f.array(QStringLiteral("correct"), true);
        std::set<int> seen;
        for (qsizetype i = 0; i < correct.size(); ++i) {
            const double c = correct[i].toDouble(-1);
            if (!correct[i].isDouble() || c != std::floor(c) || c < 0 || c >= q.choices.size() ||
                !seen.insert(static_cast<int>(c)).second)
                f.fail(QStringLiteral("correct[%1]").arg(i),
                       QStringLiteral("must be a choice's index from 0 to %1, each once")
                           .arg(q.choices.size() - 1));
            q.correct.push_back(static_cast<int>(c));
        }
        if (q.correct.empty() || (q.type == QuestionType::SingleChoice && q.correct.size() != 1))
            f.fail(QStringLiteral("correct"),
                   q.type == QuestionType::SingleChoice
                       ? QStringLiteral("a single-choice question has exactly one right choice")
                       : QStringLiteral("name at least one right choice"));
        std::sort(q.correct.begin(), q.correct.end());
    }
    return q;
}

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

QString letter(int index) {
    return QString(QChar(QLatin1Char('a').unicode() + index));
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

// fill_template(), with the numbers as the language writes them when `localized` (texts the
// student reads; never a link's numbers or an export's values).
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

} // namespace

QString to_string(QuestionType type) {
    switch (type) {
    case QuestionType::Numeric:
        return QStringLiteral("numeric");
    case QuestionType::SingleChoice:
        return QStringLiteral("single");
    case QuestionType::MultipleChoice:
        return QStringLiteral("multiple");
    case QuestionType::Ordering:
        return QStringLiteral("ordering");
    }
    return {};
}

QString to_string(Verdict verdict) {
    switch (verdict) {
    case Verdict::Correct:
        return QStringLiteral("correct");
    case Verdict::Near:
        return QStringLiteral("near");
    case Verdict::Wrong:
        return QStringLiteral("wrong");
    case Verdict::Unparseable:
        return QStringLiteral("unparseable");
    }
    return {};
}

const Question* QuizBank::find(const QString& question_id) const {
    for (const Question& q : questions)
        if (q.id == question_id)
            return &q;
    return nullptr;
}

QuizBank parse_bank(const QByteArray& json, const QString& path, const QString& base_dir) {
    const Fields top(detail::parse_object(json, path), path, QString());
    top.only({QStringLiteral("id"), QStringLiteral("title"), QStringLiteral("questions")});
    QuizBank bank;
    bank.path = path;
    bank.base_dir = base_dir;
    bank.id = top.text(QStringLiteral("id"));
    bank.title = top.text(QStringLiteral("title"));
    const QJsonArray questions = top.array(QStringLiteral("questions"), true);
    if (questions.isEmpty())
        top.fail(QStringLiteral("questions"), QStringLiteral("must hold at least one question"));
    for (qsizetype i = 0; i < questions.size(); ++i) {
        bank.questions.push_back(parse_question(
            top.child(QStringLiteral("questions[%1]").arg(i), questions[i]), base_dir));
        for (qsizetype j = 0; j < i; ++j)
            if (bank.questions[static_cast<std::size_t>(j)].id == bank.questions.back().id)
                top.fail(QStringLiteral("questions[%1].id").arg(i),
                         QStringLiteral("'%1' is used twice").arg(bank.questions.back().id));
    }
    return bank;
}

QuizBank load_bank(const QString& path) {
    constexpr qint64 limit = 4 << 20;
    if (!QFileInfo(path).isFile())
        throw Error((path + QStringLiteral(": not a regular file")).toStdString());
    QFile file(path);
    if (!file.open(QIODevice::ReadOnly))
        throw Error((path + QStringLiteral(": cannot read the quiz bank")).toStdString());
    const QByteArray bytes = file.read(limit + 1); // bounded, whatever the file claims
    if (file.size() > limit || bytes.size() > limit)
        throw Error((path + QStringLiteral(": larger than 4 MiB")).toStdString());
    return parse_bank(bytes, path, QFileInfo(path).absolutePath());
}

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

namespace {

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

QString question_title(const Question& q) {
    if (!q.title.isEmpty())
        return q.title;
    QString words = q.id;
    words.replace(QLatin1Char('-'), QLatin1Char(' '));
    if (!words.isEmpty())
        words[0] = words[0].toUpper();
    return words;
}

} // namespace lockstep::lessons
