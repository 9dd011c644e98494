// The live class quiz's rules: joining, tokens and answers (its phases in class_quiz_phases.cpp,
// its journal in class_quiz_journal.cpp).
#include "lockstep_class/class_quiz.h"
#include "lockstep_class/student_names.h"

#include "lockstep_lessons/answer.h"
#include "lockstep_lessons/language.h"

#include "core/error.h"

#include <QJsonArray>
#include <QRandomGenerator>
#include <QRegularExpression>

#include <algorithm>
#include <cmath>
#include <numeric>
#include <random>

namespace lockstep::classroom {

using lessons::localized_number;
using lessons::QuestionInstance;
using lessons::QuestionType;
using lessons::Verdict;

namespace {

constexpr qint64 kJoinWindowMs = 60'000;

// What the server read in an answer: the number as the app writes it ("5/2" -> "2.5", "2,5" in
// German), or the text itself for choices.
QString read_as(const lessons::Question& q, const QString& text) {
    if (q.type != QuestionType::Numeric)
        return text;
    const auto x = lessons::parse_number(text, q.unit).value;
    if (!x)
        return text;
    return localized_number(lessons::format_value(*x)) +
           (q.unit.isEmpty() ? QString() : QLatin1Char(' ') + q.unit);
}

} // namespace

QString to_string(Phase phase) {
    switch (phase) {
    case Phase::Lobby:
        return QStringLiteral("lobby");
    case Phase::Open:
        return QStringLiteral("open");
    case Phase::Closed:
        return QStringLiteral("closed");
    case Phase::Revealed:
        return QStringLiteral("revealed");
    case Phase::Finished:
        return QStringLiteral("finished");
    }
    return {};
}

QByteArray random_token() {
    quint32 words[4];
    QRandomGenerator::system()->fillRange(words);
    return QByteArray(reinterpret_cast<const char*>(words), sizeof words).toHex();
}

QString random_code() {
    return QString::number(QRandomGenerator::system()->bounded(100000, 1000000));
}

bool same_token(const QByteArray& a, const QByteArray& b) {
    if (a.size() != b.size())
        return false;
    unsigned char diff = 0;
    for (qsizetype i = 0; i < a.size(); ++i)
        diff |= static_cast<unsigned char>(a[i] ^ b[i]);
    return diff == 0;
}

ClassQuiz::ClassQuiz(lessons::QuizBank bank, std::vector<int> questions, ClassLimits limits)
    : bank_(std::move(bank))
    , order_(std::move(questions))
    , limits_(limits)
    , code_(random_code())
    , teacher_token_(random_token())
    , teacher_link_(random_token())
    , secret_(random_token()) {
    if (order_.empty())
        for (int i = 0; i < int(bank_.questions.size()); ++i)
            order_.push_back(i);
    for (int i : order_)
        if (i < 0 || i >= int(bank_.questions.size()))
            throw Error(lessons::Text::tr("class quiz: bank '%1' has no question %2")
                            .arg(bank_.id)
                            .arg(i + 1)
                            .toStdString());
    if (order_.empty())
        throw Error(lessons::Text::tr("class quiz: bank '%1' has no questions")
                        .arg(bank_.id)
                        .toStdString());
    reached_.assign(order_.size(), Phase::Lobby);
}

const lessons::Question* ClassQuiz::current_question() const {
    if (current_ < 0 || current_ >= question_count())
        return nullptr;
    return &bank_.questions[std::size_t(order_[std::size_t(current_)])];
}

int ClassQuiz::student_count() const {
    return int(std::count_if(students_.begin(), students_.end(),
                             [](const Student& s) { return !s.removed; }));
}

int ClassQuiz::answered_count() const {
    return int(std::count_if(students_.begin(), students_.end(), [&](const Student& s) {
        return !s.removed && s.responses.count(current_) > 0;
    }));
}

void ClassQuiz::set_addresses(const QStringList& addresses) {
    addresses_ = addresses;
    changed();
}

int ClassQuiz::student_index(const QString& id) const {
    for (std::size_t i = 0; i < students_.size(); ++i)
        if (students_[i].id == id)
            return int(i);
    return -1;
}

void ClassQuiz::changed() {
    ++version_;
    if (on_change_)
        on_change_();
}

const QuestionInstance& ClassQuiz::instance(const QString& name, int position, bool own_order) {
    const auto key = std::make_tuple(lessons::normalise_student(name), position, own_order);
    auto it = instances_.find(key);
    if (it != instances_.end())
        return it->second;
    const lessons::Question& q = bank_.questions[std::size_t(order_[std::size_t(position)])];
    // The class's secret seeds the numbers with the name: the CLI and the exports, which know
    // the name only, cannot work out a live quiz's answers.
    const QString seed = QString::fromLatin1(secret_) + QChar(0x1f) + name;
    QuestionInstance in = lessons::instantiate(bank_, q, seed);
    if (own_order &&
        (q.type == QuestionType::SingleChoice || q.type == QuestionType::MultipleChoice)) {
        // The student's own order of the choices: a neighbour's "b" is not theirs.
        std::mt19937_64 rng(
            lessons::question_seed(seed + QStringLiteral("/order"), bank_.id, q.id));
        std::vector<int> order(std::size_t(in.choices.size()));
        std::iota(order.begin(), order.end(), 0);
        for (std::size_t i = order.size(); i > 1; --i)
            std::swap(order[i - 1], order[std::size_t(rng() % i)]);
        QStringList shown;
        for (int c : order)
            shown << in.choices[c];
        for (int& c : in.correct)
            c = int(std::find(order.begin(), order.end(), c) - order.begin());
        std::sort(in.correct.begin(), in.correct.end());
        in.choices = shown;
        in.choice_order = order;
    }
    return instances_.emplace(key, std::move(in)).first->second;
}

int ClassQuiz::bank_choice(const Student& student, int position, int shown) const {
    // The student's instance was made when they answered.
    const auto in =
        instances_.find(std::make_tuple(lessons::normalise_student(student.name), position, true));
    if (in == instances_.end() || in->second.choice_order.empty())
        return shown;
    return in->second.choice_order[std::size_t(shown)];
}

QString ClassQuiz::unique_display(const StudentName& name) const {
    // Names that look alike ("Ana", "ana", "Аna" with a Cyrillic А, "Ana #2") are numbered.
    const auto same = std::count_if(students_.begin(), students_.end(),
                                    [&name](const Student& s) { return s.key == name.key; });
    return same == 0 ? name.shown : QStringLiteral("%1 #%2").arg(name.shown).arg(same + 1);
}

void ClassQuiz::new_code() {
    QString code;
    do
        code = random_code();
    while (code == code_);
    if (journal(QJsonObject{{QStringLiteral("t"), QStringLiteral("code")},
                            {QStringLiteral("code"), code}}))
        return;
    code_ = code;
    ++code_changes_;
    changed();
}

namespace {

// The words of a name's key: what a blocked word is compared with, whole.
QStringList key_words(const QString& key) {
    static const QRegularExpression apart(QStringLiteral("[^\\p{L}\\p{N}]+"));
    return key.split(apart, Qt::SkipEmptyParts);
}

} // namespace

void ClassQuiz::set_blocked_words(const QStringList& words) {
    blocked_.clear();
    for (const QString& word : words) {
        StudentName read;
        if (!read_student_name(word, 1000, read))
            for (const QString& w : key_words(read.key))
                blocked_.insert(w);
    }
}

std::optional<Refusal> ClassQuiz::join(const QString& code, const QString& name,
                                       const QString& address, qint64 now_ms, QByteArray& token_out,
                                       QString& display_out) {
    // Guessing the code is limited for the whole class, from every address together: after too
    // many wrong codes in a minute, no one joins until the minute is over, and the code changes
    // (the projector shows the new one), so what was guessed is lost.
    while (!wrong_.empty() && now_ms - wrong_.front() >= kJoinWindowMs)
        wrong_.pop_front();
    if (int(wrong_.size()) >= limits_.wrong_codes_per_minute)
        return Refusal(429, lessons::Text::tr("Too many wrong join codes were tried in this class, "
                                              "so the code has changed. Wait a minute, then type "
                                              "the code on the projector."));
    // Joins per address: enough for a class behind one router.
    std::deque<qint64>& recent = joins_[address];
    while (!recent.empty() && now_ms - recent.front() >= kJoinWindowMs)
        recent.pop_front();
    if (int(recent.size()) >= limits_.joins_per_minute)
        return Refusal(429,
                       lessons::Text::tr("Too many joins from this computer; wait a minute and "
                                         "try again."));
    recent.push_back(now_ms);
    if (code.trimmed() != code_) {
        ++wrong_codes_;
        wrong_.push_back(now_ms);
        if (int(wrong_.size()) >= limits_.wrong_codes_per_minute)
            new_code();
        return Refusal(403, lessons::Text::tr("That join code is not this class's. Check the code "
                                              "on the projector."));
    }
    StudentName read;
    if (const auto problem = read_student_name(name, limits_.max_name_chars, read))
        return Refusal(400, *problem);
    if (banned_.contains(read.key))
        return Refusal(403, lessons::Text::tr("The teacher removed this name from the quiz."));
    for (const QString& word : key_words(read.key))
        if (blocked_.contains(word))
            return Refusal(400, lessons::Text::tr("That name is not allowed in this class; choose "
                                                  "another."));
    const QString tidy = read.shown;
    if (locked_)
        return Refusal(409, lessons::Text::tr("The teacher has locked the lobby: no one can join "
                                              "now."));
    if (student_count() >= limits_.max_students)
        return Refusal(
            503, lessons::Text::tr("The class is full (%1 students).").arg(limits_.max_students));
    Student s;
    s.id = QStringLiteral("s%1").arg(students_.size() + 1);
    s.name = tidy;
    s.key = read.key;
    s.display = unique_display(read);
    s.token = random_token();
    s.allowance = limits_.token_burst;
    s.filled_ms = now_ms;
    if (auto r = journal(QJsonObject{{QStringLiteral("t"), QStringLiteral("join")},
                                     {QStringLiteral("id"), s.id},
                                     {QStringLiteral("name"), s.name},
                                     {QStringLiteral("token"), QString::fromLatin1(s.token)}}))
        return r;
    by_token_.insert(s.token, int(students_.size()));
    token_out = s.token;
    display_out = s.display;
    students_.push_back(std::move(s));
    changed();
    return std::nullopt;
}

std::optional<Refusal> ClassQuiz::authorise(const QByteArray& token, qint64 now_ms,
                                            int& student_out) {
    const auto it = by_token_.constFind(token);
    if (it == by_token_.constEnd())
        return Refusal(401, lessons::Text::tr("This page is not in the class quiz: join again."));
    Student& s = students_[std::size_t(*it)];
    if (s.removed)
        return Refusal(401, lessons::Text::tr("The teacher removed you from this quiz."));
    const double elapsed = double(std::max<qint64>(0, now_ms - s.filled_ms)) / 1000.0;
    s.allowance = std::min(limits_.token_burst, s.allowance + elapsed * limits_.token_rate);
    s.filled_ms = now_ms;
    if (s.allowance < 1.0)
        return Refusal(429, lessons::Text::tr("Too many requests from this page; slow down."));
    s.allowance -= 1.0;
    student_out = *it;
    return std::nullopt;
}

std::optional<Refusal> ClassQuiz::answer(int student, const QString& question_id,
                                         const QString& text, QJsonObject& reply) {
    const lessons::Question* q = current_question();
    if (phase_ != Phase::Open || !q)
        return Refusal(409,
                       phase_ == Phase::Lobby
                           ? lessons::Text::tr("The first question is not open yet.")
                           : lessons::Text::tr("This question is closed: answers are no longer "
                                               "taken."));
    if (question_id != q->id)
        return Refusal(409, lessons::Text::tr("That answer is for another question; the question "
                                              "open now is \"%1\".")
                                .arg(lessons::question_title(*q)));
    Student& s = students_[std::size_t(student)];
    Response& r = s.responses[current_];
    if (r.submissions > limits_.answer_changes) { // the first answer and its changes
        if (r.submissions == 0)
            s.responses.erase(current_);
        return Refusal(429, lessons::Text::tr("You have changed this answer %1 times, the most "
                                              "allowed; your last answer counts.")
                                .arg(limits_.answer_changes));
    }
    const QuestionInstance& in = instance(s.name, current_);
    const lessons::Checked checked = lessons::check_answer(in, text);
    if (checked.verdict == Verdict::Unparseable) {
        if (r.submissions == 0)
            s.responses.erase(current_);
        return Refusal(422, checked.feedback);
    }
    if (auto refusal = journal(QJsonObject{{QStringLiteral("t"), QStringLiteral("answer")},
                                           {QStringLiteral("student"), s.id},
                                           {QStringLiteral("question"), question_id},
                                           {QStringLiteral("answer"), text}})) {
        if (r.submissions == 0)
            s.responses.erase(current_);
        return refusal;
    }
    r.text = text.trimmed();
    r.checked = checked;
    ++r.submissions;
    reply =
        QJsonObject{{QStringLiteral("accepted"), true},
                    {QStringLiteral("answer"), r.text},
                    {QStringLiteral("read"), read_as(*q, r.text)},
                    {QStringLiteral("changes_left"), limits_.answer_changes + 1 - r.submissions}};
    changed();
    return std::nullopt;
}

bool ClassQuiz::counts(int position) const {
    return phase_ == Phase::Finished || reached_[std::size_t(position)] == Phase::Revealed;
}

int ClassQuiz::correct_count(const Student& s) const {
    int n = 0;
    for (const auto& [position, r] : s.responses)
        if (counts(position))
            n += r.checked.verdict == Verdict::Correct ? 1 : 0;
    return n;
}

bool ClassQuiz::is_teacher(const QByteArray& token) const {
    if (same_token(token, teacher_token_))
        return true;
    return std::any_of(teacher_sessions_.begin(), teacher_sessions_.end(),
                       [&token](const QByteArray& s) { return same_token(token, s); });
}

std::optional<QByteArray> ClassQuiz::exchange_teacher_link(const QByteArray& code) {
    const bool link = same_token(code, teacher_link_);
    if (!link && !same_token(code, teacher_token_))
        return std::nullopt;
    // A few pages at once (the teacher's laptop and the projector's browser); the oldest goes.
    constexpr std::size_t kSessions = 8;
    teacher_sessions_.push_back(random_token());
    if (teacher_sessions_.size() > kSessions)
        teacher_sessions_.pop_front();
    if (link) {
        teacher_link_ = random_token();
        if (on_link_)
            on_link_(teacher_link_);
    }
    return teacher_sessions_.back();
}

bool ClassQuiz::may_listen(const QByteArray& token, qint64 now_ms) {
    int student = -1;
    return is_teacher(token) || !authorise(token, now_ms, student);
}

} // namespace lockstep::classroom
