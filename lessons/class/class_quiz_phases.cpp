// The live class quiz's phases, as the teacher moves it: open, close, reveal, next, skip and back,
// the timer, the lobby's lock and a student removed. Each move is journalled before it counts.
#include "lockstep_class/class_quiz.h"

#include "lockstep_lessons/language.h"

#include <algorithm>

namespace lockstep::classroom {

namespace {

QJsonObject move_record(const char* to) {
    return QJsonObject{{QStringLiteral("t"), QStringLiteral("move")},
                       {QStringLiteral("to"), QLatin1String(to)}};
}

} // namespace

std::optional<Refusal> ClassQuiz::open() {
    if (phase_ != Phase::Lobby)
        return Refusal(409, lessons::Text::tr("The quiz has begun: close, reveal or go to the next "
                                              "question instead."));
    if (auto r = journal(move_record("open")))
        return r;
    enter(0);
    changed();
    return std::nullopt;
}

void ClassQuiz::set_phase(Phase phase) {
    phase_ = phase;
    if (phase == Phase::Open)
        opened_ms_ = -1; // its time starts at the next tick
    if (current_ >= 0 && phase != Phase::Finished && phase > reached_[std::size_t(current_)])
        reached_[std::size_t(current_)] = phase;
}

void ClassQuiz::go_on() {
    if (current_ + 1 >= question_count())
        set_phase(Phase::Finished);
    else
        enter(current_ + 1);
}

void ClassQuiz::enter(int position) {
    current_ = position;
    const Phase was = reached_[std::size_t(position)];
    set_phase(was == Phase::Lobby ? Phase::Open : was);
}

std::optional<Refusal> ClassQuiz::close() {
    if (phase_ != Phase::Open)
        return Refusal(409, lessons::Text::tr("No question is open."));
    if (auto r = journal(move_record("close")))
        return r;
    set_phase(Phase::Closed);
    changed();
    return std::nullopt;
}

std::optional<Refusal> ClassQuiz::reveal() {
    if (phase_ != Phase::Closed)
        return Refusal(409, phase_ == Phase::Open
                                ? lessons::Text::tr("Close the question before revealing it.")
                                : lessons::Text::tr("No closed question to reveal."));
    if (auto r = journal(move_record("reveal")))
        return r;
    set_phase(Phase::Revealed);
    changed();
    return std::nullopt;
}

std::optional<Refusal> ClassQuiz::next() {
    if (phase_ != Phase::Revealed)
        return Refusal(409, lessons::Text::tr("Reveal this question before going on."));
    if (auto r = journal(move_record("next")))
        return r;
    go_on();
    changed();
    return std::nullopt;
}

std::optional<Refusal> ClassQuiz::skip() {
    if (phase_ != Phase::Open && phase_ != Phase::Closed)
        return Refusal(409, phase_ == Phase::Revealed
                                ? lessons::Text::tr("This question is revealed: go to the next one "
                                                    "instead.")
                                : lessons::Text::tr("No question to skip."));
    if (auto r = journal(move_record("skip")))
        return r;
    set_phase(Phase::Closed); // its answers stay, unrevealed
    go_on();
    changed();
    return std::nullopt;
}

std::optional<Refusal> ClassQuiz::back() {
    if (phase_ == Phase::Lobby || (phase_ != Phase::Finished && current_ <= 0))
        return Refusal(409, lessons::Text::tr("There is no question before this one."));
    if (auto r = journal(move_record("back")))
        return r;
    enter(phase_ == Phase::Finished ? current_ : current_ - 1);
    changed();
    return std::nullopt;
}

std::optional<Refusal> ClassQuiz::set_view(const View& view) {
    if (auto r = journal(QJsonObject{{QStringLiteral("t"), QStringLiteral("view")},
                                     {QStringLiteral("names"), view.names},
                                     {QStringLiteral("ranking"), view.ranking},
                                     {QStringLiteral("histogram"), view.histogram}}))
        return r;
    view_ = view;
    changed();
    return std::nullopt;
}

std::optional<Refusal> ClassQuiz::set_timer(int seconds) {
    if (seconds < 0 || seconds > limits_.longest_timer)
        return Refusal(400, lessons::Text::tr("A question's timer is from 0 (none) to %1 seconds.")
                                .arg(limits_.longest_timer));
    if (auto r = journal(QJsonObject{{QStringLiteral("t"), QStringLiteral("timer")},
                                     {QStringLiteral("seconds"), seconds}}))
        return r;
    timer_ = seconds;
    opened_ms_ = -1;
    changed();
    return std::nullopt;
}

int ClassQuiz::seconds_left() const {
    if (phase_ != Phase::Open || timer_ <= 0)
        return -1;
    if (opened_ms_ < 0)
        return timer_;
    const qint64 left_ms = opened_ms_ + qint64(timer_) * 1000 - now_ms_;
    return int(std::max<qint64>(0, (left_ms + 999) / 1000));
}

void ClassQuiz::tick(qint64 now_ms) {
    now_ms_ = now_ms;
    if (phase_ != Phase::Open || timer_ <= 0)
        return;
    if (opened_ms_ < 0)
        opened_ms_ = now_ms;
    else if (now_ms - opened_ms_ >= qint64(timer_) * 1000)
        close(); // refused only when the journal is (then the next tick tries again)
}

void ClassQuiz::set_locked(bool locked) {
    if (locked_ == locked)
        return;
    if (journal(QJsonObject{{QStringLiteral("t"), QStringLiteral("lock")},
                            {QStringLiteral("locked"), locked}}))
        return;
    locked_ = locked;
    changed();
}

std::optional<Refusal> ClassQuiz::remove(const QString& student_id) {
    for (Student& s : students_) {
        if (s.id == student_id && !s.removed) {
            if (auto r = journal(QJsonObject{{QStringLiteral("t"), QStringLiteral("remove")},
                                             {QStringLiteral("student"), s.id}}))
                return r;
            s.removed = true;
            banned_.insert(s.key); // nor as "Ben #2", "ben" or "Веn"
            changed();
            return std::nullopt;
        }
    }
    return Refusal(404, lessons::Text::tr("No student %1 is in the class.").arg(student_id));
}

std::optional<Refusal> ClassQuiz::remove(const QStringList& student_ids) {
    for (const QString& id : student_ids) {
        const int i = student_index(id);
        if (i < 0 || students_[std::size_t(i)].removed)
            return Refusal(404, lessons::Text::tr("No student %1 is in the class.").arg(id));
    }
    for (const QString& id : student_ids)
        if (auto r = remove(id))
            return r;
    return std::nullopt;
}

} // namespace lockstep::classroom
