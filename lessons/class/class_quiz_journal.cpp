// The class quiz's journal: each accepted join, answer and move is written before it counts, and
// a quiz that stopped is rebuilt by replaying what was written, in order.
#include "lockstep_class/class_quiz.h"

#include "lockstep_lessons/language.h"

#include "core/error.h"

#include <QJsonArray>

#include <algorithm>

namespace lockstep::classroom {

std::vector<int> journal_questions(const lessons::QuizBank& bank, const QJsonObject& start) {
    std::vector<int> order;
    for (const QJsonValue& id : start.value(QStringLiteral("questions")).toArray()) {
        const auto it =
            std::find_if(bank.questions.begin(), bank.questions.end(),
                         [&id](const lessons::Question& q) { return q.id == id.toString(); });
        if (it == bank.questions.end())
            throw Error(lessons::Text::tr("the journal asks question '%1', which bank '%2' does "
                                          "not have")
                            .arg(id.toString(), bank.id)
                            .toStdString());
        order.push_back(int(it - bank.questions.begin()));
    }
    if (order.empty())
        throw Error(lessons::Text::tr("the journal names no questions").toStdString());
    return order;
}

void replay_journal(ClassQuiz& quiz, const std::vector<QJsonObject>& records, const QString& path) {
    for (std::size_t i = 0; i < records.size(); ++i)
        if (const auto why = quiz.replay(records[i]))
            throw Error(lessons::Text::tr("class journal %1, record %2: %3")
                            .arg(path)
                            .arg(i + 1)
                            .arg(*why)
                            .toStdString());
}

std::optional<Refusal> ClassQuiz::journal(const QJsonObject& record) {
    if (!journal_ || journal_(record))
        return std::nullopt;
    return Refusal(503, lessons::Text::tr("The teacher's computer could not save this; try again "
                                          "in a moment."));
}

QJsonObject ClassQuiz::journal_start() const {
    QJsonArray questions;
    for (int i : order_)
        questions.append(bank_.questions[std::size_t(i)].id);
    return QJsonObject{{QStringLiteral("t"), QStringLiteral("start")},
                       {QStringLiteral("bank"), bank_.id},
                       {QStringLiteral("questions"), questions},
                       {QStringLiteral("code"), code_},
                       {QStringLiteral("teacher"), QString::fromLatin1(teacher_token_)},
                       {QStringLiteral("secret"), QString::fromLatin1(secret_)}};
}

std::optional<QString> ClassQuiz::replay(const QJsonObject& record) {
    const QString t = record.value(QStringLiteral("t")).toString();
    const auto text = [&record](const char* key) {
        return record.value(QLatin1String(key)).toString();
    };
    if (t == QLatin1String("start")) {
        if (text("bank") != bank_.id || record.value(QStringLiteral("questions")) !=
                                            journal_start().value(QStringLiteral("questions")))
            return lessons::Text::tr("it is a journal of another quiz (bank %1)").arg(text("bank"));
        if (text("code").size() < 4 || text("teacher").size() != 32 || text("secret").size() != 32)
            return lessons::Text::tr("its start holds no join code, teacher's token and secret");
        code_ = text("code");
        teacher_token_ = text("teacher").toLatin1();
        secret_ = text("secret").toLatin1();
        instances_.clear();
        return std::nullopt;
    }
    if (t == QLatin1String("join")) {
        const QByteArray token = text("token").toLatin1();
        if (text("id") != QStringLiteral("s%1").arg(students_.size() + 1) || token.size() != 32 ||
            text("name").simplified().isEmpty() || by_token_.contains(token))
            return lessons::Text::tr("a join is not the next student's");
        StudentName read;
        if (read_student_name(text("name"), limits_.max_name_chars, read))
            return lessons::Text::tr("a join is not the next student's");
        Student s;
        s.id = text("id");
        s.name = read.shown;
        s.key = read.key;
        s.display = unique_display(read);
        s.token = token;
        s.allowance = limits_.token_burst;
        by_token_.insert(s.token, int(students_.size()));
        students_.push_back(std::move(s));
        changed();
        return std::nullopt;
    }
    if (t == QLatin1String("answer")) {
        const int who = student_index(text("student"));
        QJsonObject reply;
        if (who < 0)
            return lessons::Text::tr("an answer is from no student in it");
        if (const auto r = answer(who, text("question"), text("answer"), reply))
            return r->message;
        return std::nullopt;
    }
    if (t == QLatin1String("move")) {
        const QString to = text("to");
        std::optional<Refusal> r = to == QLatin1String("open")     ? open()
                                   : to == QLatin1String("close")  ? close()
                                   : to == QLatin1String("reveal") ? reveal()
                                   : to == QLatin1String("next")   ? next()
                                   : to == QLatin1String("skip")   ? skip()
                                   : to == QLatin1String("back")
                                       ? back()
                                       : std::optional<Refusal>(Refusal{400, to});
        if (r)
            return r->message;
        return std::nullopt;
    }
    if (t == QLatin1String("code")) {
        if (text("code").size() < 4)
            return lessons::Text::tr("a new join code is not one");
        code_ = text("code");
        ++code_changes_;
        return std::nullopt;
    }
    if (t == QLatin1String("view")) {
        View v;
        v.names = record.value(QStringLiteral("names")).toBool();
        v.ranking = record.value(QStringLiteral("ranking")).toBool();
        v.histogram = record.value(QStringLiteral("histogram")).toBool(true);
        if (const auto r = set_view(v))
            return r->message;
        return std::nullopt;
    }
    if (t == QLatin1String("timer")) {
        if (const auto r = set_timer(record.value(QStringLiteral("seconds")).toInt(-1)))
            return r->message;
        return std::nullopt;
    }
    if (t == QLatin1String("lock")) {
        set_locked(record.value(QStringLiteral("locked")).toBool());
        return std::nullopt;
    }
    if (t == QLatin1String("remove")) {
        if (const auto r = remove(text("student")))
            return r->message;
        return std::nullopt;
    }
    return lessons::Text::tr("a record of an unknown kind \"%1\"").arg(t);
}

} // namespace lockstep::classroom
