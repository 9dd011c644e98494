// What the class quiz shows: students' and teacher's state, histogram, reveal, results.
#include "lockstep_class/class_quiz.h"

#include "lockstep_lessons/answer.h"
#include "lockstep_lessons/language.h"
#include "lockstep_lessons/quiz_export.h"

#include <QJsonArray>
#include <QRegularExpression>

#include <algorithm>
#include <cmath>

namespace lockstep::classroom {

using lessons::localized_number;
using lessons::QuestionInstance;
using lessons::QuestionType;
using lessons::Verdict;

namespace {

// The first sentence of a mistake's feedback names it on the histogram: "That is the sum of the
// two gradients."
QString first_sentence(const QString& text) {
    const qsizetype end = text.indexOf(QStringLiteral(". "));
    return end < 0 ? text : text.left(end + 1);
}

QString verdict_word(const Response* r) {
    if (!r)
        return QStringLiteral("unanswered");
    return lessons::to_string(r->checked.verdict);
}

// The verdict, in the reader's words.
QString verdict_label(const Response* r) {
    switch (r->checked.verdict) {
    case Verdict::Correct:
        return lessons::Text::tr("right");
    case Verdict::Near:
        return lessons::Text::tr("close, not within the tolerance");
    case Verdict::Wrong:
    case Verdict::Unparseable:
        break;
    }
    return lessons::Text::tr("wrong");
}

// A name or an answer as a spreadsheet should show it: text, never a formula ("=1+1", "@SUM",
// "-1+1", "+cmd"). A plain number such as "-2" stays a number.
QString csv_text(const QString& text) {
    static const QString starts = QStringLiteral("=+-@\t\r");
    static const QRegularExpression plain_number(
        QStringLiteral("^[+-]?(\\d+\\.?\\d*|\\.\\d+)([eE][+-]?\\d+)?$"));
    const bool formula =
        !text.isEmpty() && starts.contains(text.front()) && !plain_number.match(text).hasMatch();
    return lessons::csv_field(formula ? QLatin1Char('\'') + text : text);
}

// The right answer as the students and the projector see it: its number as the language writes
// it (the results' CSV keeps format_value's).
QString shown_answer(const QuestionInstance& in) {
    if (!in.question || in.question->type != QuestionType::Numeric)
        return in.answer_text();
    return localized_number(lessons::format_value(in.answer)) +
           (in.question->unit.isEmpty() ? QString() : QLatin1Char(' ') + in.question->unit);
}

QString example_name(const std::vector<Student>& students) {
    for (const Student& s : students)
        if (!s.removed)
            return s.name;
    return QStringLiteral("example"); // seeds the numbers: stays English
}

} // namespace

QJsonObject ClassQuiz::question_json(int student, int position) {
    const lessons::Question& q = bank_.questions[std::size_t(order_[std::size_t(position)])];
    const QuestionInstance& in = instance(students_[std::size_t(student)].name, position);
    QJsonObject out{{QStringLiteral("id"), q.id},
                    {QStringLiteral("index"), position + 1},
                    {QStringLiteral("count"), question_count()},
                    {QStringLiteral("title"), lessons::question_title(q)},
                    {QStringLiteral("type"), lessons::to_string(q.type)},
                    {QStringLiteral("text"), in.text},
                    {QStringLiteral("unit"), q.unit},
                    {QStringLiteral("choices"), QJsonArray::fromStringList(in.choices)}};
    return out;
}

std::optional<QJsonObject> ClassQuiz::student_question(int student) {
    if (!current_question() || phase_ == Phase::Finished)
        return std::nullopt;
    return question_json(student, current_);
}

QJsonObject ClassQuiz::student_state(int student) {
    const Student& s = students_[std::size_t(student)];
    QJsonObject out{{QStringLiteral("phase"), to_string(phase_)},
                    {QStringLiteral("name"), s.display},
                    {QStringLiteral("students"), student_count()},
                    {QStringLiteral("seconds_left"), seconds_left()},
                    {QStringLiteral("version"), version_}};
    const std::optional<QJsonObject> q = student_question(student);
    out.insert(QStringLiteral("question"), q ? QJsonValue(*q) : QJsonValue());
    const auto r = s.responses.find(current_);
    const bool answered = q && r != s.responses.end();
    out.insert(QStringLiteral("answer"), answered ? QJsonValue(r->second.text) : QJsonValue());
    out.insert(QStringLiteral("changes_left"),
               q ? limits_.answer_changes + (answered ? 1 - r->second.submissions : 0) : 0);
    QJsonValue result;
    if (phase_ == Phase::Revealed && q) {
        const QuestionInstance& in = instance(s.name, current_);
        result = QJsonObject{
            {QStringLiteral("verdict"), verdict_word(answered ? &r->second : nullptr)},
            {QStringLiteral("feedback"),
             answered ? QString(r->second.checked.feedback).remove(in.explanation).trimmed()
                      : lessons::Text::tr("You did not answer this question.")},
            {QStringLiteral("correct"), shown_answer(in)},
            {QStringLiteral("explanation"), in.explanation}};
    }
    out.insert(QStringLiteral("result"), result);
    QJsonValue score;
    if (phase_ == Phase::Finished)
        score = QJsonObject{{QStringLiteral("correct"), correct_count(s)},
                            {QStringLiteral("questions"), question_count()}};
    out.insert(QStringLiteral("score"), score);
    return out;
}

std::vector<Bar> ClassQuiz::histogram() const {
    std::vector<Bar> bars;
    const lessons::Question* q = current_question();
    if (!q)
        return bars;
    auto count = [&](auto&& pick) {
        for (const Student& s : students_) {
            const auto r = s.responses.find(current_);
            if (!s.removed && r != s.responses.end())
                pick(s, r->second);
        }
    };
    if (q->type == QuestionType::SingleChoice) {
        for (int c = 0; c < q->choices.size(); ++c)
            bars.push_back({QStringLiteral("(%1) %2").arg(QChar(u'a' + c)).arg(q->choices[c]), 0,
                            QStringLiteral("choice")});
        count([&](const Student& s, const Response& r) {
            const auto parsed = lessons::parse_choices(r.text, int(q->choices.size()), true, false);
            if (parsed.value && !parsed.value->empty()) {
                // The student's letter names a choice in their own order.
                Bar& b = bars[std::size_t(bank_choice(s, current_, parsed.value->front()))];
                ++b.count;
                if (r.checked.verdict == Verdict::Correct)
                    b.kind = QStringLiteral("right");
            }
        });
        return bars;
    }
    bars.push_back({lessons::Text::tr("right", "histogram bar"), 0, QStringLiteral("right")});
    const std::size_t first_mistake = bars.size();
    if (q->type == QuestionType::Numeric)
        for (const lessons::Mistake& m : q->mistakes)
            bars.push_back({first_sentence(m.feedback), 0, QStringLiteral("mistake")});
    bars.push_back(
        {lessons::Text::tr("close, not within the tolerance"), 0, QStringLiteral("near")});
    bars.push_back({lessons::Text::tr("other", "histogram bar"), 0, QStringLiteral("other")});
    count([&](const Student& s, const Response& r) {
        if (r.checked.verdict == Verdict::Correct) {
            ++bars.front().count;
            return;
        }
        if (r.checked.verdict == Verdict::Near) {
            ++bars[bars.size() - 2].count;
            return;
        }
        if (q->type == QuestionType::Numeric) {
            const auto key = std::make_tuple(lessons::normalise_student(s.name), current_, true);
            const auto in = instances_.find(key);
            const auto x = lessons::parse_number(r.text, q->unit).value;
            if (in != instances_.end() && x) {
                const QuestionInstance& i = in->second;
                for (std::size_t m = 0; m < i.traps.size(); ++m) {
                    if (std::abs(*x - i.traps[m]) <= i.tolerance &&
                        std::abs(i.traps[m] - i.answer) > i.tolerance) {
                        ++bars[first_mistake + m].count;
                        return;
                    }
                }
            }
        }
        ++bars.back().count;
    });
    return bars;
}

QString ClassQuiz::projector_text() {
    if (!current_question())
        return {};
    return instance(example_name(students_), current_, false).text;
}

ClassQuiz::Reveal ClassQuiz::reveal_text() {
    // Worked out once per question: the projector and the teacher's page ask many times, and a
    // scenario question's working is a run of the engine.
    if (reveal_for_ == current_)
        return reveal_;
    Reveal out;
    const lessons::Question* q = current_question();
    if (!q)
        return out;
    out.example = example_name(students_);
    const QuestionInstance& in = instance(out.example, current_, false);
    out.answer = shown_answer(in);
    out.explanation = in.explanation;
    out.working = working(in);
    out.run = in.run;
    reveal_ = out;
    reveal_for_ = current_;
    return out;
}

QJsonObject ClassQuiz::teacher_state() {
    QJsonArray students;
    for (const Student& s : students_) {
        if (s.removed)
            continue;
        students.append(QJsonObject{{QStringLiteral("id"), s.id},
                                    {QStringLiteral("name"), s.display},
                                    {QStringLiteral("answered"), s.responses.count(current_) > 0},
                                    {QStringLiteral("correct"), correct_count(s)}});
    }
    QJsonObject out{
        {QStringLiteral("phase"), to_string(phase_)},
        {QStringLiteral("bank"), bank_.id},
        {QStringLiteral("title"), bank_.title},
        {QStringLiteral("code"), code_},
        {QStringLiteral("wrong_codes"), wrong_codes_},
        {QStringLiteral("code_changes"), code_changes_},
        {QStringLiteral("addresses"), QJsonArray::fromStringList(addresses_)},
        {QStringLiteral("locked"), locked_},
        {QStringLiteral("timer"), timer_},
        {QStringLiteral("view"), QJsonObject{{QStringLiteral("names"), view_.names},
                                             {QStringLiteral("ranking"), view_.ranking},
                                             {QStringLiteral("histogram"), view_.histogram}}},
        {QStringLiteral("can_go_back"),
         phase_ == Phase::Finished || (phase_ != Phase::Lobby && current_ > 0)},
        {QStringLiteral("version"), version_},
        {QStringLiteral("students"), students}};
    QJsonValue question;
    if (const lessons::Question* q = current_question(); q && phase_ != Phase::Finished) {
        const QuestionInstance& in = instance(example_name(students_), current_, false);
        question = QJsonObject{{QStringLiteral("id"), q->id},
                               {QStringLiteral("index"), current_ + 1},
                               {QStringLiteral("count"), question_count()},
                               {QStringLiteral("title"), lessons::question_title(*q)},
                               {QStringLiteral("type"), lessons::to_string(q->type)},
                               {QStringLiteral("text"), in.text},
                               {QStringLiteral("choices"), QJsonArray::fromStringList(in.choices)},
                               {QStringLiteral("answered"), answered_count()},
                               {QStringLiteral("seconds_left"), seconds_left()}};
    }
    out.insert(QStringLiteral("question"), question);
    QJsonValue bars;
    if (phase_ == Phase::Closed || phase_ == Phase::Revealed) {
        QJsonArray list;
        for (const Bar& b : histogram())
            list.append(QJsonObject{{QStringLiteral("label"), b.label},
                                    {QStringLiteral("count"), b.count},
                                    {QStringLiteral("kind"), b.kind}});
        bars = list;
    }
    out.insert(QStringLiteral("histogram"), bars);
    QJsonValue reveal;
    if (phase_ == Phase::Revealed) {
        const Reveal r = reveal_text();
        reveal = QJsonObject{{QStringLiteral("answer"), r.answer},
                             {QStringLiteral("explanation"), r.explanation},
                             {QStringLiteral("working"), r.working},
                             {QStringLiteral("run"), r.run},
                             {QStringLiteral("example"), r.example}};
    }
    out.insert(QStringLiteral("reveal"), reveal);
    return out;
}

QString ClassQuiz::results_csv() {
    QString out = QStringLiteral(
        "student,bank,question,type,values,answer,tolerance,response,verdict,correct,removed\n");
    for (const Student& s : students_) {
        for (int position = 0; position < question_count(); ++position) {
            if (reached_[std::size_t(position)] == Phase::Lobby)
                continue; // not asked yet
            const lessons::Question& q =
                bank_.questions[std::size_t(order_[std::size_t(position)])];
            const QuestionInstance& in = instance(s.name, position);
            QStringList values;
            for (const lessons::Variable& v : q.variables)
                values << v.name + QLatin1Char('=') +
                              lessons::fill_template(QLatin1Char('{') + v.name + QLatin1Char('}'),
                                                     in);
            const auto r = s.responses.find(position);
            const Response* response = r == s.responses.end() ? nullptr : &r->second;
            const bool numeric = q.type == QuestionType::Numeric;
            // Every text field, the bank's too (a teacher's own bank may start one with "="),
            // is text to a spreadsheet.
            out +=
                QStringList{csv_text(s.display),
                            csv_text(bank_.id),
                            csv_text(q.id),
                            lessons::to_string(q.type),
                            csv_text(values.join(QLatin1Char(' '))),
                            csv_text(numeric ? lessons::format_value(in.answer) : in.answer_text()),
                            numeric ? lessons::format_value(in.tolerance) : QString(),
                            csv_text(response ? response->text : QString()),
                            verdict_word(response),
                            response && response->checked.verdict == Verdict::Correct
                                ? QStringLiteral("1")
                                : QStringLiteral("0"),
                            s.removed ? QStringLiteral("1") : QStringLiteral("0")}
                    .join(QLatin1Char(','));
            out += QLatin1Char('\n');
        }
    }
    return out;
}

QString ClassQuiz::working(const QuestionInstance& in) const {
    const lessons::Question& q = *in.question;
    const std::optional<lessons::EngineCall>& call = q.answer ? q.answer : q.correct_call;
    if (!call)
        return {};
    try {
        return lessons::describe_call(*call, in.values, bank_.base_dir);
    } catch (const std::exception& e) {
        return QString::fromStdString(e.what());
    }
}

QString ClassQuiz::student_reports() {
    const auto esc = [](const QString& t) { return t.toHtmlEscaped(); };
    QString out =
        QStringLiteral("<!DOCTYPE html>\n<html lang=\"%1\"><head><meta charset=\"utf-8\">"
                       "<title>%2</title><style>"
                       "body{font-family:sans-serif;max-width:48em;margin:2em auto;color:#111}"
                       "section{break-after:page;page-break-after:always;margin-bottom:3em}"
                       "h1{font-size:1.5em;border-bottom:2px solid #333}h2{font-size:1.1em}"
                       "pre{white-space:pre-wrap;background:#f4f4f4;padding:.5em}"
                       ".correct{color:#146c2e}.wrong,.near,.unanswered{color:#9b1c1c}"
                       "dt{font-weight:bold}dd{margin:0 0 .4em 1.5em}"
                       "</style></head><body>\n")
            .arg(lessons::language(), esc(bank_.title));
    for (const Student& s : students_) {
        out += QStringLiteral("<section><h1>%1</h1><p>%2</p>\n")
                   .arg(esc(s.display), esc(lessons::Text::tr("%1: %2 of %3 questions right.")
                                                .arg(bank_.title)
                                                .arg(correct_count(s))
                                                .arg(question_count())));
        for (int position = 0; position < question_count(); ++position) {
            if (reached_[std::size_t(position)] == Phase::Lobby)
                continue;
            const QuestionInstance& in = instance(s.name, position);
            const auto r = s.responses.find(position);
            const Response* response = r == s.responses.end() ? nullptr : &r->second;
            const QString verdict = verdict_word(response);
            out += QStringLiteral("<h2>%1. %2</h2><p>%3</p>")
                       .arg(position + 1)
                       .arg(esc(lessons::question_title(*in.question)), esc(in.text));
            if (!in.choices.isEmpty()) {
                out += QStringLiteral("<ol type=\"a\">");
                for (const QString& c : in.choices)
                    out += QStringLiteral("<li>%1</li>").arg(esc(c));
                out += QStringLiteral("</ol>");
            }
            out += QStringLiteral("<dl><dt>%1</dt><dd class=\"%2\">%3</dd>")
                       .arg(esc(lessons::Text::tr("Your answer")), verdict,
                            esc(response ? QStringLiteral("%1 (%2)").arg(response->text,
                                                                         verdict_label(response))
                                         : lessons::Text::tr("You did not answer this "
                                                             "question.")));
            if (counts(position)) {
                out += QStringLiteral("<dt>%1</dt><dd>%2</dd><dt>%3</dt><dd>%4</dd>")
                           .arg(esc(lessons::Text::tr("The answer")), esc(shown_answer(in)),
                                esc(lessons::Text::tr("Why")), esc(in.explanation));
                if (const QString w = working(in); !w.isEmpty())
                    out += QStringLiteral("<dt>%1</dt><dd><pre>%2</pre></dd>")
                               .arg(esc(lessons::Text::tr("The engine's working")), esc(w));
            }
            out += QStringLiteral("</dl>\n");
        }
        out += QStringLiteral("</section>\n");
    }
    return out + QStringLiteral("</body></html>\n");
}

} // namespace lockstep::classroom
