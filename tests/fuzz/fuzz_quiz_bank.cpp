// Feeds arbitrary text to the quiz bank parser. It must either reject it with a lockstep::Error
// or return a bank whose every question is found by its id, and whose question chosen by the
// input's length (drawing one runs the engine, so one a run keeps the target fast), drawn for a
// student, is refused by the engine with a
// lockstep::Error or gives an instance whose right answer, typed, is read: a numeric answer as a
// number (never "unparseable"), a choice or an ordering as its letters, marked correct.

#include "lockstep_lessons/answer.h"
#include "lockstep_lessons/quiz.h"

#include "core/error.h"

#include <tbb/global_control.h>

#include <cstdint>
#include <cstdlib>

namespace {

// Drawing a pipeline question runs the engine; on one thread, so that no idle TBB worker spins
// beside the fuzzer.
const tbb::global_control one_thread(tbb::global_control::max_allowed_parallelism, 1);

// The letters a student types for the right choices, in order: "a, c".
QString letters(const std::vector<int>& correct) {
    QStringList parts;
    for (int c : correct)
        parts << QString(QChar(u'a' + c));
    return parts.join(QStringLiteral(", "));
}

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    using namespace lockstep::lessons;
    const QByteArray json(reinterpret_cast<const char*>(data), static_cast<qsizetype>(size));
    QuizBank bank;
    try {
        bank = parse_bank(json, QStringLiteral("/fuzz/bank.json"),
                          QStringLiteral(LOCKSTEP_SOURCE_DIR "/resources/quizzes"));
    } catch (const lockstep::Error&) {
        return 0;
    }
    if (bank.questions.empty())
        std::abort();
    for (const Question& q : bank.questions)
        if (bank.find(q.id) == nullptr)
            std::abort();
    {
        const Question& q = bank.questions[size % bank.questions.size()];
        QuestionInstance in;
        try {
            in = instantiate(bank, q, QStringLiteral("Ada Lovelace"));
        } catch (const lockstep::Error&) {
            return 0;
        }
        const Checked right = check_answer(
            in, q.type == QuestionType::Numeric ? in.answer_text() : letters(in.correct));
        if (q.type == QuestionType::Numeric ? right.verdict == Verdict::Unparseable
                                            : right.verdict != Verdict::Correct)
            std::abort();
        (void)fill_template(q.text, in);
    }
    return 0;
}
