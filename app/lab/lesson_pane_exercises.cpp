// The lesson pane's exercises: choosing one, its question and how to answer it, checking the
// answer, hints, and the attempts kept in the student's progress.

#include "lesson_pane.h"

#include "core/error.h"
#include "lockstep_views/numbers.h"

#include <QAbstractButton>
#include <QButtonGroup>
#include <QCheckBox>
#include <QComboBox>
#include <QCoreApplication>
#include <QEvent>
#include <QGroupBox>
#include <QHBoxLayout>
#include <QLabel>
#include <QLineEdit>
#include <QPushButton>
#include <QRadioButton>
#include <QRegularExpression>
#include <QScrollArea>
#include <QTimer>

namespace lockstep::app {

namespace {

// After this many attempts without the right answer, the reasoning is shown.
constexpr int kAttemptsBeforeReasoning = 3;

QString choice_lines(const lessons::QuestionInstance& in) {
    QString out;
    for (int i = 0; i < in.choices.size(); ++i)
        out += QStringLiteral("\n- (%1) %2")
                   .arg(QChar(QLatin1Char('a').unicode() + i))
                   .arg(in.choices[i]);
    return out;
}

QString how_to_answer(lessons::QuestionType type) {
    switch (type) {
    case lessons::QuestionType::Numeric:
        return QCoreApplication::translate("lockstep::app::LessonPane",
                                           "Type a number: 2.5, 2,5 and 5/2 all work.");
    case lessons::QuestionType::SingleChoice:
        return QCoreApplication::translate("lockstep::app::LessonPane", "Choose one answer.");
    case lessons::QuestionType::MultipleChoice:
        return QCoreApplication::translate("lockstep::app::LessonPane", "Tick every right answer.");
    case lessons::QuestionType::Ordering:
        return QCoreApplication::translate("lockstep::app::LessonPane",
                                           "Type the letters in order, e.g. c, a, b, …");
    }
    return {};
}

} // namespace

bool LessonPane::selectExercise(const QString& bank, const QString& question) {
    for (std::size_t i = 0; i < exercise_refs_.size(); ++i)
        if (exercise_refs_[i].bank == bank && exercise_refs_[i].question == question) {
            exercise_->setCurrentIndex(static_cast<int>(i));
            showExercise(static_cast<int>(i));
            return true;
        }
    const lessons::QuizBank* b = library_.bank(bank);
    if (!b || !b->find(question)) {
        Q_EMIT message(tr("There is no question %1/%2.").arg(bank, question));
        return false;
    }
    exercise_refs_.push_back({bank, question});
    exercise_->addItem(exerciseName(exercise_refs_.size() - 1));
    exercises_->show();
    showLower();
    exercise_->setCurrentIndex(static_cast<int>(exercise_refs_.size()) - 1);
    return true;
}

// "2. Which replicas agree?": the question's title, numbered, in the list of exercises.
QString LessonPane::exerciseName(std::size_t i) const {
    const lessons::ExerciseRef& ref = exercise_refs_[i];
    const lessons::QuizBank* bank = library_.bank(ref.bank);
    const lessons::Question* q = bank ? bank->find(ref.question) : nullptr;
    const bool solved = progress_ && progress_->solved(ref.bank, ref.question);
    return QStringLiteral("%1. %2%3")
        .arg(i + 1)
        .arg(q ? lessons::question_title(*q) : ref.question,
             solved ? QStringLiteral(" ✓") : QString());
}

QString LessonPane::currentExercise() const {
    const int i = exercise_->currentIndex();
    return i < 0 || i >= static_cast<int>(exercise_refs_.size())
               ? QString()
               : exercise_refs_[static_cast<std::size_t>(i)].key();
}

void LessonPane::showExercise(int index) {
    Q_EMIT exerciseShown(index >= 0 && index < static_cast<int>(exercise_refs_.size())
                             ? exercise_refs_[static_cast<std::size_t>(index)].key()
                             : QString());
    instance_.reset();
    hints_shown_ = 0;
    feedback_->clear();
    answer_->clear();
    if (index < 0 || index >= static_cast<int>(exercise_refs_.size())) {
        question_->clear();
        return;
    }
    const auto& ref = exercise_refs_[static_cast<std::size_t>(index)];
    const lessons::QuizBank* bank = library_.bank(ref.bank);
    const lessons::Question* q = bank ? bank->find(ref.question) : nullptr;
    if (!q) {
        question_->setText(tr("This exercise (%1) cannot be found.").arg(ref.key()));
        return;
    }
    try {
        instance_ = lessons::instantiate(*bank, *q, progress_ ? progress_->student() : QString());
    } catch (const Error& e) {
        question_->setText(QString::fromStdString(e.what()));
        return;
    }
    const bool choose = q->type == lessons::QuestionType::SingleChoice ||
                        q->type == lessons::QuestionType::MultipleChoice;
    showQuestion();
    showChoices(choose ? q->type : lessons::QuestionType::Numeric);
    hint_->setEnabled(!instance_->hints.isEmpty());
    run_->setVisible(!instance_->run.isEmpty());
    if (progress_) {
        const auto record = progress_->attempt(ref.bank, ref.question);
        if (record.solved)
            feedback_->setText(tr("Solved (score %1). You may answer again.")
                                   .arg(views::display_number(record.score(), 'g', 2)));
        else if (record.attempts > 0)
            feedback_->setText(tr("%n attempt(s) so far.", nullptr, record.attempts));
    }
}

// The current exercise's question, its choices when they are typed, and how to answer it.
void LessonPane::showQuestion() {
    if (!instance_ || !instance_->question)
        return;
    const lessons::QuestionType type = instance_->question->type;
    const bool choose = type == lessons::QuestionType::SingleChoice ||
                        type == lessons::QuestionType::MultipleChoice;
    question_->setText(instance_->text + (choose ? QString() : choice_lines(*instance_)) +
                       QStringLiteral("\n\n*") + how_to_answer(type) + QLatin1Char('*'));
}

// Radio buttons for a single choice, check boxes for a multiple one, each with its choice's text
// wrapped beside it (a button's own text would not wrap and would widen the pane). A click on the
// text ticks the button. The buttons write the letters into the answer, which is what is checked.
void LessonPane::showChoices(lessons::QuestionType type) {
    for (QWidget* w : choices_->findChildren<QWidget*>(QString(), Qt::FindDirectChildrenOnly))
        delete w;
    delete choice_group_;
    choice_group_ = nullptr;
    choice_buttons_.clear();
    const bool single = type == lessons::QuestionType::SingleChoice;
    const bool shown = single || type == lessons::QuestionType::MultipleChoice;
    choices_->setVisible(shown);
    answer_->setVisible(!shown);
    if (!shown || !instance_)
        return;
    auto* group = choice_group_ = new QButtonGroup(choices_);
    group->setExclusive(single);
    for (int i = 0; i < instance_->choices.size(); ++i) {
        auto* row = new QWidget(choices_);
        auto* layout = new QHBoxLayout(row);
        layout->setContentsMargins(0, 0, 0, 0);
        const QString letter = QStringLiteral("(%1)").arg(QChar(QLatin1Char('a').unicode() + i));
        QAbstractButton* button = single ? static_cast<QAbstractButton*>(new QRadioButton(letter))
                                         : static_cast<QAbstractButton*>(new QCheckBox(letter));
        button->setAccessibleName(instance_->choices[i]);
        group->addButton(button, i);
        auto* text = new QLabel(instance_->choices[i]);
        text->setWordWrap(true);
        text->setMinimumWidth(80);
        text->setTextFormat(Qt::PlainText);
        text->setBuddy(button);
        text->installEventFilter(this);
        layout->addWidget(button, 0, Qt::AlignTop);
        layout->addWidget(text, 1);
        choices_->layout()->addWidget(row);
        row->setVisible(true); // at once, not when the layout next runs
        choice_buttons_.push_back(button);
        connect(button, &QAbstractButton::toggled, this, [this] {
            QStringList letters;
            for (std::size_t k = 0; k < choice_buttons_.size(); ++k)
                if (choice_buttons_[k]->isChecked())
                    letters << QString(QChar(QLatin1Char('a').unicode() + static_cast<int>(k)));
            answer_->setText(letters.join(QStringLiteral(", ")));
        });
    }
}

bool LessonPane::eventFilter(QObject* watched, QEvent* event) {
    if (event->type() == QEvent::MouseButtonRelease)
        if (auto* label = qobject_cast<QLabel*>(watched); label && label->buddy())
            if (auto* button = qobject_cast<QAbstractButton*>(label->buddy())) {
                button->click();
                return true;
            }
    return QWidget::eventFilter(watched, event);
}

lessons::Checked LessonPane::answer(const QString& typed) {
    // The buttons as the letters say (a student's clicks), then the check.
    tickChoices(typed);
    answer_->setText(typed);
    checkAnswer();
    if (!instance_)
        return {};
    return lessons::check_answer(*instance_, typed);
}

// Ticks the choice buttons the letters in `typed` name, and clears the others, without their
// signals.
void LessonPane::tickChoices(const QString& typed) {
    const bool exclusive = choice_group_ && choice_group_->exclusive();
    if (choice_group_)
        choice_group_->setExclusive(false); // so that a radio button can be cleared
    for (std::size_t k = 0; k < choice_buttons_.size(); ++k) {
        const QString letter(QChar(QLatin1Char('a').unicode() + static_cast<int>(k)));
        const QSignalBlocker block(choice_buttons_[k]);
        choice_buttons_[k]->setChecked(
            typed.split(QRegularExpression(QStringLiteral("[,\\s]+")), Qt::SkipEmptyParts)
                .contains(letter, Qt::CaseInsensitive));
    }
    if (choice_group_)
        choice_group_->setExclusive(exclusive);
}

void LessonPane::checkAnswer() {
    if (!instance_)
        return;
    const lessons::Checked c = lessons::check_answer(*instance_, answer_->text());
    QString text = c.feedback;
    const auto& ref = exercise_refs_[static_cast<std::size_t>(exercise_->currentIndex())];
    if (progress_) {
        progress_->recordAttempt(ref.bank, ref.question, answer_->text(), c.verdict);
        saveProgress();
        const auto record = progress_->attempt(ref.bank, ref.question);
        if (c.verdict != lessons::Verdict::Correct && c.verdict != lessons::Verdict::Unparseable &&
            !record.solved && record.attempts >= kAttemptsBeforeReasoning)
            text += QStringLiteral("\n\n") +
                    tr("After %1 attempts, here is the reasoning: %2 The answer is %3.")
                        .arg(record.attempts)
                        .arg(instance_->explanation, instance_->answer_text());
        refreshContents();
    }
    if (c.verdict == lessons::Verdict::Correct && !instance_->run.isEmpty())
        text += QStringLiteral("\n\n") + tr("Now press Run it and compare with the engine.");
    feedback_->setText(text);
    showFeedback();
}

// The feedback where the student reads it without scrolling, once the label has its new height.
void LessonPane::showFeedback() {
    QTimer::singleShot(0, this, [this] { lower_->ensureWidgetVisible(feedback_, 0, 8); });
}

void LessonPane::showHint() {
    if (!instance_ || instance_->hints.isEmpty())
        return;
    hints_shown_ = std::min<int>(hints_shown_ + 1, static_cast<int>(instance_->hints.size()));
    QStringList shown;
    for (int i = 0; i < hints_shown_; ++i)
        shown << tr("Hint %1: %2").arg(i + 1).arg(instance_->hints[i]);
    feedback_->setText(shown.join(QLatin1Char('\n')));
    showFeedback();
}

void LessonPane::saveProgress() {
    if (!progress_)
        return;
    try {
        progress_->save();
    } catch (const Error& e) {
        Q_EMIT message(QString::fromStdString(e.what()));
    }
}

} // namespace lockstep::app
