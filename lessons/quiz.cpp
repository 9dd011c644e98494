// Quiz banks read strictly from their JSON, and the names of question types and verdicts.
#include "lockstep_lessons/quiz.h"

#include "json_fields.h"

#include "core/error.h"

#include <QFile>
#include <QFileInfo>
#include <QRegularExpression>

#include <algorithm>
#include <cmath>
#include <set>

namespace lockstep::lessons {

using detail::Fields;

namespace {

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
            // first of its modes to reach the target, so its modes are the choices, in order;
            // most_overflows the index of the run that skips the most steps, one run a choice.
            if (q.type != QuestionType::SingleChoice)
                f.fail(QStringLiteral("correct"),
                       QStringLiteral("only a single-choice question's answer is an engine call"));
            q.correct_call = engine_call(QStringLiteral("correct"), right);
            const QJsonObject& spec = q.correct_call->spec;
            const QString engine = spec.value(QStringLiteral("engine")).toString();
            const bool modes = engine == QLatin1String("first_to_target");
            if (!modes && engine != QLatin1String("most_overflows"))
                f.fail(QStringLiteral("correct.engine"),
                       QStringLiteral("a choice's engine call must be first_to_target or "
                                      "most_overflows"));
            const QString list = modes ? QStringLiteral("modes") : QStringLiteral("runs");
            if (spec.value(list).toArray().size() != q.choices.size())
                f.fail(QStringLiteral("correct.") + list,
                       QStringLiteral("one %1 per choice, in the choices' order (%2)")
                           .arg(modes ? QStringLiteral("mode") : QStringLiteral("run"))
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
