#pragma once

#include "lockstep_lessons/engine_answers.h"

#include <QString>
#include <QStringList>

#include <cstdint>
#include <optional>
#include <vector>

namespace lockstep::lessons {

// A number drawn for each student: uniformly or log-uniformly between lo and hi, rounded to
// `decimals` places (0: a whole number, every whole number in range equally likely).
struct Variable {
    QString name;
    double lo = 0;
    double hi = 1;
    bool log_uniform = false;
    int decimals = 0;
};

enum class QuestionType { Numeric, SingleChoice, MultipleChoice, Ordering };

QString to_string(QuestionType type); // "numeric", "single", "multiple", "ordering"

// A typical wrong answer, computed by the engine too (e.g. the sum when the mean was asked),
// with the feedback a student who gave it needs.
struct Mistake {
    EngineCall call;
    QString feedback;
};

// One question of a bank. Text, hints, explanation and feedback may name variables in braces,
// {g1}, and the correct answer as {answer}: each student reads them with their own numbers.
struct Question {
    QString id;
    QString title; // short, for lists ("Which replicas agree?"); optional
    QuestionType type = QuestionType::Numeric;
    QString text;
    QStringList hints; // the k-th shown after k wrong attempts
    QString explanation;
    std::vector<Variable> variables;
    // Numeric
    std::optional<EngineCall> answer;
    double tolerance = 0.01;
    bool relative_tolerance = true;
    QString unit; // accepted after the number, e.g. "s"
    std::vector<Mistake> mistakes;
    // Predict, then run: a lockstep: link (placeholders allowed) that shows the engine's result.
    QString run;
    // Choices (single, multiple): the options and the right ones; ordering: the items in the
    // right order (each student sees them shuffled).
    QStringList choices;
    std::vector<int> correct;
    // Single choice: the engine call that gives the right choice's index instead (correct is
    // then empty until a question is instantiated).
    std::optional<EngineCall> correct_call;
};

// The question's title, or its id in words ("every-replica-uses" -> "Every replica uses").
QString question_title(const Question& q);

struct QuizBank {
    QString id;
    QString title;
    QString path;
    QString base_dir;
    std::vector<Question> questions;

    const Question* find(const QString& question_id) const;
};

// Reads a bank; throws lockstep::Error naming the file and the field ("questions[2].tolerance:
// ..."). Unknown keys are errors, and so is a numeric question without an engine call.
QuizBank load_bank(const QString& path);
QuizBank parse_bank(const QByteArray& json, const QString& path, const QString& base_dir);

// Student names are compared without case and surrounding or repeated spaces.
QString normalise_student(const QString& student);
// The seed of one student's version of one question: the same on every machine, so a teacher
// can reproduce any student's numbers.
std::uint64_t question_seed(const QString& student, const QString& bank, const QString& question);

// One student's version of a question: their numbers, the engine's answer for them, and the
// texts filled in.
struct QuestionInstance {
    const Question* question = nullptr;
    QString bank;
    QString student;
    std::uint64_t seed = 0;
    Values values;
    double answer = 0;         // numeric
    double tolerance = 0;      // absolute, for this answer
    std::vector<double> traps; // the mistakes' values, in order
    QString text;
    QStringList hints;
    QString explanation;
    QString run;
    QStringList choices;      // as shown (orderings shuffled)
    std::vector<int> correct; // indices into `choices`; ordering: the right sequence
    // When a class quiz shows a student the choices in an order of their own: the question's
    // choice each shown one is. Empty: the question's order.
    std::vector<int> choice_order;

    QString answer_text() const; // the correct answer as a person would write it
};

// Throws lockstep::Error when the engine refuses the drawn numbers.
QuestionInstance instantiate(const QuizBank& bank, const Question& question,
                             const QString& student);

enum class Verdict { Correct, Near, Wrong, Unparseable };
QString to_string(Verdict verdict);

struct Checked {
    Verdict verdict = Verdict::Unparseable;
    QString feedback; // what we read, whether it is right, and why; with the student's numbers
};

// Checks a typed answer. Never throws: anything that cannot be read gets Unparseable and a
// gentle message, never a mark.
Checked check_answer(const QuestionInstance& instance, const QString& typed);

// A number as a person would write it: 2.5, 16, 0.125, 1.5e-07.
QString format_value(double value);
// Fills {name} and {answer} in a template with one student's numbers.
QString fill_template(const QString& text, const QuestionInstance& instance);

} // namespace lockstep::lessons
