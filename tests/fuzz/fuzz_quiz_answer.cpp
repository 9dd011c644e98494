// Feeds arbitrary text as a student's typed answer to one question of the shipped banks (drawn
// once for one student; the input's first byte chooses the question, the rest is the answer): the
// number and choice readers and the checker. check_answer promises
// never to throw, so no exception is caught here. A number it reads is finite, and a numeric
// answer parse_number reads is never called unparseable.

#include "lockstep_lessons/answer.h"
#include "lockstep_lessons/quiz.h"
#include "lockstep_lessons/translations.h"

#include <QDir>

#include <cmath>
#include <cstdint>
#include <cstdlib>
#include <vector>

namespace {

struct Drawn {
    std::vector<lockstep::lessons::QuizBank> banks;
    std::vector<lockstep::lessons::QuestionInstance> instances;
};

const Drawn& drawn() {
    static const Drawn d = [] {
        using namespace lockstep::lessons;
        Drawn out;
        const QDir dir(QStringLiteral(LOCKSTEP_SOURCE_DIR "/resources/quizzes"));
        for (const QString& file : dir.entryList({QStringLiteral("*.json")}, QDir::Files))
            if (!is_bank_translation(file)) // reductions.de.json holds texts, not a bank
                out.banks.push_back(load_bank(dir.filePath(file)));
        for (const QuizBank& bank : out.banks)
            for (const Question& q : bank.questions)
                out.instances.push_back(instantiate(bank, q, QStringLiteral("Ada Lovelace")));
        return out;
    }();
    return d;
}

} // namespace

// The instances are drawn before the first input: some answers train the lesson's models or run
// a scenario with its checkpoints (seconds under the sanitizers), which no input should be timed
// for.
extern "C" int LLVMFuzzerInitialize(int*, char***) {
    (void)drawn();
    return 0;
}

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    using namespace lockstep::lessons;
    if (size == 0)
        return 0;
    const std::vector<QuestionInstance>& instances = drawn().instances;
    const QuestionInstance& in = instances[data[0] % instances.size()];
    const QString typed = QString::fromUtf8(reinterpret_cast<const char*>(data + 1),
                                            static_cast<qsizetype>(size - 1));
    for (const QString& unit : {QString(), QStringLiteral("s")}) {
        const auto n = parse_number(typed, unit);
        if (n.value ? !std::isfinite(*n.value) : n.problem.isEmpty())
            std::abort();
    }
    {
        const Checked c = check_answer(in, typed);
        if (c.feedback.isEmpty())
            std::abort();
        if (in.question->type == QuestionType::Numeric &&
            parse_number(typed, in.question->unit).value && c.verdict == Verdict::Unparseable)
            std::abort();
        if (in.question->type != QuestionType::Numeric) {
            const auto choices = parse_choices(typed, static_cast<int>(in.choices.size()),
                                               in.question->type == QuestionType::SingleChoice,
                                               in.question->type == QuestionType::Ordering);
            if (choices.value)
                for (int k : *choices.value)
                    if (k < 0 || k >= in.choices.size())
                        std::abort();
        }
    }
    return 0;
}
