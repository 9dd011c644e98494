#pragma once

#include "lockstep_class/student_names.h"
#include "lockstep_lessons/quiz.h"

#include <QByteArray>
#include <QHash>
#include <QJsonObject>
#include <QSet>
#include <QString>
#include <QStringList>

#include <deque>
#include <functional>
#include <map>
#include <optional>
#include <tuple>
#include <utility>
#include <vector>

// A live class quiz: the teacher moves a bank's questions through lobby, open, closed and
// revealed; students join with a code and a name and answer from their own browsers. This is the
// quiz's state and its rules, with no network: ClassApi (class_api.h) turns HTTP requests into
// these calls, ClassServer serves them, and the lab's projector window reads the same object.
namespace lockstep::classroom {

enum class Phase { Lobby, Open, Closed, Revealed, Finished };
QString to_string(Phase phase); // "lobby", "open", ...

// What the server allows, each refusal an error with a reason (docs/CLASS.md).
struct ClassLimits {
    int max_students = 200;
    int max_name_chars = 40;
    int answer_changes = 5;    // changes to an answer, after the first answer to a question
    int longest_timer = 3600;  // seconds a question may be open on a timer
    int joins_per_minute = 60; // per address: a class behind one router, with retries
    // Wrong join codes a minute, from every address together: then no one joins for the rest of
    // the minute and the code changes. At 30 guesses a minute, a six-digit code is found by chance
    // once in about 500 hours of class.
    int wrong_codes_per_minute = 30;
    // Requests with a token that is no one's, a minute from one address, before it is told to
    // wait (429): a page left open from an earlier quiz asks a few times; guessing asks many.
    int bad_tokens_per_minute = 120;
    double token_rate = 20;    // requests a second per token, sustained
    double token_burst = 40;   // and at once
    qsizetype max_body = 4096; // bytes
};

// A refusal: the HTTP status it maps to and a sentence for the person.
struct Refusal {
    Refusal() = default;
    Refusal(int status_, QString message_)
        : status(status_)
        , message(std::move(message_)) {}
    int status = 400;
    QString message;
};

// One student's answer to one question: the last accepted text and how it was checked.
struct Response {
    QString text;
    lessons::Checked checked;
    int submissions = 0;
};

struct Student {
    QString id;       // "s1", "s2", ... in joining order
    QString name;     // as typed, tidied (normalise_student's spacing, original case)
    QString display;  // the name, with " #2" after one that looks the same
    QString key;      // what names that look alike share (student_names.h)
    QByteArray token; // 32 hex digits
    bool removed = false;
    std::map<int, Response> responses; // by position in the quiz's questions
    // Requests a token may still make now (a token bucket) and when it was last filled.
    double allowance = 0;
    qint64 filled_ms = 0;
};

// What the projector and the teacher's page show. Anonymous by default: no student's name is on
// the screen until the teacher shows the names, and the scores are a count of who got how many
// unless the teacher asks for the ranking.
struct View {
    bool names = false;    // names in the lobby, the example's numbers and the scores
    bool ranking = false;  // the scores as a ranked list of names
    bool histogram = true; // the bars of a closed question
};

// One bar of the histogram of a closed question.
struct Bar {
    QString label;
    int count = 0;
    QString kind; // right, mistake, near, other, choice
};

class ClassQuiz {
public:
    // `questions` are indices into bank.questions, in the order they are asked; empty: all.
    // Throws lockstep::Error when an index is out of range.
    ClassQuiz(lessons::QuizBank bank, std::vector<int> questions, ClassLimits limits = {});

    const lessons::QuizBank& bank() const { return bank_; }
    const ClassLimits& limits() const { return limits_; }
    Phase phase() const { return phase_; }
    int version() const { return version_; }
    QString code() const { return code_; }
    int wrong_codes() const { return wrong_codes_; }   // tried since the quiz began
    int code_changes() const { return code_changes_; } // after too many of them
    // The teacher's own token, for the API (Authorization: Bearer); it never goes in an address.
    QByteArray teacher_token() const { return teacher_token_; }
    // The code of the teacher's one-time link (/teacher?token=CODE): it opens the teacher's page
    // once, and is then replaced.
    QByteArray teacher_link() const { return teacher_link_; }
    bool locked() const { return locked_; }
    int question_count() const { return int(order_.size()); }
    int current() const { return current_; } // position in the quiz, -1 in the lobby
    const lessons::Question* current_question() const;
    const std::vector<Student>& students() const { return students_; }
    int student_count() const;  // joined and not removed
    int answered_count() const; // of the current question
    // Where students open the page, as the server listens; the first is the one to show.
    QStringList addresses() const { return addresses_; }
    void set_addresses(const QStringList& addresses);

    // Every change (a join, an answer, a move, a lock, a removal) is first given to `journal` as
    // one record; when it returns false (the disk is full, say) the change is refused (503) and
    // nothing changes. So an answer acknowledged is an answer on disk (answer_journal.h).
    void set_journal(std::function<bool(const QJsonObject&)> journal) {
        journal_ = std::move(journal);
    }
    // The journal's first record: the bank, the questions, the join code and the teacher's token,
    // from which a quiz resumes as it was.
    QJsonObject journal_start() const;
    // Applies one record of a journal, as the change it records (before set_journal: nothing is
    // written again). The first must be the start record of this bank and questions. Returns
    // what is wrong with a record that does not apply.
    std::optional<QString> replay(const QJsonObject& record);

    // Called after every change (a join, an answer, a phase), on the thread that made it.
    void set_on_change(std::function<void()> on_change) { on_change_ = std::move(on_change); }

    // Words no name may hold (a school's list, say): a name with one of them as a whole word,
    // in any case or in look-alike letters, is refused. Not journaled: give them again on resume.
    void set_blocked_words(const QStringList& words);

    // Students. Each returns a refusal or does the thing; `now_ms` is a steady clock.
    std::optional<Refusal> join(const QString& code, const QString& name, const QString& address,
                                qint64 now_ms, QByteArray& token_out, QString& display_out);
    // The student of a token, or a refusal (401) naming why; also spends one request of the
    // token's allowance (429 when none is left).
    std::optional<Refusal> authorise(const QByteArray& token, qint64 now_ms, int& student_out);
    std::optional<Refusal> answer(int student, const QString& question_id, const QString& text,
                                  QJsonObject& reply);
    QJsonObject student_state(int student);
    std::optional<QJsonObject> student_question(int student);

    // The teacher.
    bool is_teacher(const QByteArray& token) const;
    // Spends the link's code (or takes the teacher's token) for a new session token, which the
    // teacher's page keeps in a cookie; a new link is made. nullopt for any other code.
    std::optional<QByteArray> exchange_teacher_link(const QByteArray& code);
    // Called after a link was spent, with the next one's code (the CLI prints its address).
    void set_on_teacher_link(std::function<void(const QByteArray&)> on_link) {
        on_link_ = std::move(on_link);
    }
    // Whether a token may open a live socket: the teacher's, or a student's not removed (which
    // spends one of its requests).
    bool may_listen(const QByteArray& token, qint64 now_ms);
    std::optional<Refusal> open();
    std::optional<Refusal> close();
    std::optional<Refusal> reveal();
    std::optional<Refusal> next();
    // Closes the question (without its reveal) and goes on to the next one, as it was left.
    std::optional<Refusal> skip();
    // Goes to the question before, as it was left (closed or revealed).
    std::optional<Refusal> back();
    void set_locked(bool locked);
    std::optional<Refusal> remove(const QString& student_id);
    // Removes several at once (a flood of made-up names): all, or none when one is not there.
    std::optional<Refusal> remove(const QStringList& student_ids);
    const View& view() const { return view_; }
    std::optional<Refusal> set_view(const View& view);
    // Each question closes by itself `seconds` after it opens (0: the teacher closes it). Set
    // while a question is open, its time starts again.
    std::optional<Refusal> set_timer(int seconds);
    int timer() const { return timer_; }
    // Seconds until the open question closes by itself, -1 with no timer.
    int seconds_left() const;
    // The clock, from the server a few times a second: closes the question whose time is up.
    void tick(qint64 now_ms);
    QJsonObject teacher_state();
    std::vector<Bar> histogram() const; // of the current question's answers
    // The reveal for the projector, with the first student's numbers (or an example's).
    struct Reveal {
        QString answer;
        QString explanation;
        QString working; // the engine call and what it returned
        QString run;     // a lockstep: link that replays it in the lab
        QString example; // whose numbers these are
    };
    Reveal reveal_text();
    // The question as the projector shows it (an example's numbers fill the text).
    QString projector_text();
    // Correct answers so far, per student (in students() order).
    int correct_count(const Student& student) const;

    // The results: the answer key's columns, then response, verdict, correct and removed.
    QString results_csv();
    // One page per student (HTML, to print): their numbers, answers, and for each revealed
    // question the answer, why, and the engine's working with their numbers.
    QString student_reports();

    // One student's version of a question; cached by name, since names seed the numbers, with the
    // class's own secret: `lockstep-cli quiz ask --student` gives other numbers.
    // Each student sees the choices of a choice question in an order of their own (from the same
    // secret); `own_order` false keeps the bank's order, as the projector shows them.
    const lessons::QuestionInstance& instance(const QString& name, int position,
                                              bool own_order = true);
    // Whether position's answers count in the scores (revealed, or the quiz is over).
    bool counts(int position) const;

private:
    void changed();
    std::optional<Refusal> journal(const QJsonObject& record);
    int student_index(const QString& id) const;
    QJsonObject question_json(int student, int position);
    QString unique_display(const StudentName& name) const;
    QString working(const lessons::QuestionInstance& in) const; // the engine call and its result
    void new_code(); // a new join code, after too many wrong ones
    // Moves to `position` as it was left (a question never opened opens).
    void enter(int position);
    void go_on(); // to the next question, or the end after the last
    void set_phase(Phase phase);
    // Which of the bank's choices a student's shown choice is.
    int bank_choice(const Student& student, int position, int shown) const;

    lessons::QuizBank bank_;
    std::vector<int> order_;
    ClassLimits limits_;
    Phase phase_ = Phase::Lobby;
    int current_ = -1;
    int version_ = 1;
    bool locked_ = false;
    QString code_;
    QByteArray teacher_token_;
    QByteArray teacher_link_;
    QByteArray secret_; // seeds every student's numbers with their name (instance())
    std::deque<QByteArray> teacher_sessions_; // the newest few, for the page's cookie
    std::function<void(const QByteArray&)> on_link_;
    std::function<bool(const QJsonObject&)> journal_;
    QStringList addresses_;
    std::vector<Student> students_;
    QHash<QByteArray, int> by_token_;
    QHash<QString, std::deque<qint64>> joins_; // per address: recent join times
    std::deque<qint64> wrong_;                 // recent wrong join codes, from anywhere
    int wrong_codes_ = 0;                      // since the quiz began
    int code_changes_ = 0;
    QSet<QString> banned_;  // the keys of the names the teacher removed
    QSet<QString> blocked_; // the keys of the words no name may hold
    std::map<std::tuple<QString, int, bool>, lessons::QuestionInstance> instances_;
    // Per question (in the quiz's order), where it has been: Lobby (not yet), Open, Closed or
    // Revealed, the furthest.
    std::vector<Phase> reached_;
    View view_;
    int timer_ = 0;         // seconds, 0: none
    qint64 opened_ms_ = -1; // when the open question's time began (-1: at the next tick)
    qint64 now_ms_ = 0;     // the last tick
    std::function<void()> on_change_;
    Reveal reveal_; // the reveal of the question at position reveal_for_
    int reveal_for_ = -1;
};

// The questions a journal's start record asks (AnswerJournal::resume), as indices into `bank`.
// Throws lockstep::Error naming a question the bank does not have.
std::vector<int> journal_questions(const lessons::QuizBank& bank, const QJsonObject& start);
// Replays a journal's records into `quiz`, made with journal_questions(). Throws lockstep::Error
// naming the file (`path`), the record and what is wrong with it.
void replay_journal(ClassQuiz& quiz, const std::vector<QJsonObject>& records, const QString& path);

// 128 random bits from the system's generator, as 32 hex digits.
QByteArray random_token();
// A six-digit join code, not starting with 0.
QString random_code();
// Compares without leaking where two tokens differ.
bool same_token(const QByteArray& a, const QByteArray& b);

} // namespace lockstep::classroom
