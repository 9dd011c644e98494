#include "lesson_pane.h"

#include "study_panel.h"
#include "worked_example_panel.h"
#include "worksheet.h"

#include "core/error.h"
#include "lockstep_views/numbers.h"

#include <QButtonGroup>
#include <QCheckBox>
#include <QComboBox>
#include <QCoreApplication>
#include <QEvent>
#include <QFileDialog>
#include <QFormLayout>
#include <QGridLayout>
#include <QGroupBox>
#include <QHBoxLayout>
#include <QLabel>
#include <QLineEdit>
#include <QMessageBox>
#include <QPushButton>
#include <QRadioButton>
#include <QRegularExpression>
#include <QSaveFile>
#include <QScrollArea>
#include <QScrollBar>
#include <QSplitter>
#include <QTextBrowser>
#include <QTimer>
#include <QToolButton>
#include <QUrl>
#include <QVBoxLayout>

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

LessonPane::LessonPane(lessons::LessonLibrary library, lessons::ProgressStore* progress,
                       QWidget* parent)
    : QWidget(parent)
    , library_(std::move(library))
    , progress_(progress) {
    buildUi();
    refreshStudents();
    refreshContents();
}

LessonPane::~LessonPane() = default;

void LessonPane::setLibrary(lessons::LessonLibrary library) {
    const QString open = currentLesson() ? currentLesson()->id : QString();
    const QString markdown = currentLesson() ? currentLesson()->markdown : QString();
    // The shown question points into the old library: it goes with it.
    instance_.reset();
    library_ = std::move(library);
    current_ = open.isEmpty() ? -1 : library_.index_of(open);
    if (!open.isEmpty() && current_ < 0) {
        // The open lesson was the user's own and is gone with its folder.
        page_->setHtml(welcome_);
        exercise_refs_.clear();
        {
            const QSignalBlocker block(exercise_);
            exercise_->clear();
        }
        exercises_->setVisible(false);
        showExercise(-1);
    } else {
        // The same lesson, perhaps in another language: its page where it was read, the
        // exercises' titles, and the current one with what the student has typed or ticked.
        if (const lessons::Lesson* l = currentLesson(); l && l->markdown != markdown) {
            QScrollBar* bar = page_->verticalScrollBar();
            const double read =
                bar->maximum() > 0 ? static_cast<double>(bar->value()) / bar->maximum() : 0.0;
            page_->document()->setBaseUrl(QUrl::fromLocalFile(l->dir + QLatin1Char('/')));
            page_->setMarkdown(l->markdown);
            (void)page_->document()->size(); // laid out, so the scroll bar has its new range
            bar->setValue(qRound(read * bar->maximum()));
        }
        const int index = exercise_->currentIndex();
        const QString typed = answer_->text();
        {
            const QSignalBlocker block(exercise_);
            for (std::size_t i = 0; i < exercise_refs_.size(); ++i)
                exercise_->setItemText(static_cast<int>(i), exerciseName(i));
        }
        showExercise(index);
        if (instance_ && !typed.isEmpty()) {
            tickChoices(typed);
            answer_->setText(typed);
        }
    }
    refreshContents();
}

void LessonPane::changeEvent(QEvent* event) {
    if (event->type() == QEvent::LanguageChange)
        retranslate();
    QWidget::changeEvent(event);
}

// Every text the pane shows itself, in the language in use (the lesson's own texts come from
// the library: setLibrary()).
void LessonPane::retranslate() {
    contents_->setAccessibleName(tr("Lessons"));
    contents_->setPlaceholderText(tr("Choose a lesson…"));
    previous_->setToolTip(tr("Previous lesson"));
    previous_->setAccessibleName(tr("Previous lesson"));
    next_->setToolTip(tr("Next lesson"));
    next_->setAccessibleName(tr("Next lesson"));
    student_->lineEdit()->setPlaceholderText(tr("Your name or student ID"));
    student_->setAccessibleName(tr("Student"));
    student_->lineEdit()->setAccessibleName(tr("Student"));
    student_->setToolTip(tr("Choose your name, or type a new one and press Enter: each student "
                            "has their own progress and their own numbers in the exercises"));
    who_label_->setText(tr("&Student:"));
    lock_->setText(tr("Loc&k what the lesson fixes"));
    lock_->setToolTip(tr("Grey out the controls this lesson's scenario fixes, for every student "
                         "until a teacher unlocks them"));
    reveal_->setText(tr("Show the answer"));
    reveal_->setToolTip(tr("The current exercise's answer and reasoning, for this student"));
    reset_->setText(tr("Reset this student…"));
    export_->setText(tr("Class progress as CSV…"));
    worksheets_->setText(tr("Print worksheets…"));
    worksheets_->setToolTip(tr("A page per student with their own numbers, and an answer key, "
                               "for the current exercise's quiz bank"));
    leave_->setText(tr("Leave teacher mode"));
    teacher_->setTitle(tr("Teacher"));
    page_->setAccessibleName(tr("Lesson"));
    exercise_->setAccessibleName(tr("Exercise"));
    answer_->setAccessibleName(tr("Your answer"));
    check_->setText(tr("Check"));
    hint_->setText(tr("Hint"));
    run_->setText(tr("Run it"));
    run_->setToolTip(tr("Predict first, then run the scenario to see the engine's result"));
    feedback_->setAccessibleName(tr("Feedback"));
    exercises_->setTitle(tr("Exercises"));
    choices_->setAccessibleName(tr("Answers to choose from"));
    // What was written from the pane's state: the marks in the contents, how to answer.
    refreshContents();
    showQuestion();
}

void LessonPane::buildUi() {
    contents_ = new QComboBox;
    previous_ = new QToolButton;
    previous_->setArrowType(Qt::LeftArrow);
    next_ = new QToolButton;
    next_->setArrowType(Qt::RightArrow);
    auto* nav = new QHBoxLayout;
    nav->addWidget(previous_);
    nav->addWidget(contents_, 1);
    nav->addWidget(next_);

    // Who is working: one profile per student on this computer, each with their own progress
    // and their own numbers. Choose a name, or type a new one and press Enter.
    student_ = new QComboBox;
    student_->setEditable(true);
    student_->setInsertPolicy(QComboBox::NoInsert);
    student_->setSizeAdjustPolicy(QComboBox::AdjustToMinimumContentsLengthWithIcon);
    student_->setMinimumContentsLength(10);
    auto* who = new QHBoxLayout;
    who_label_ = new QLabel;
    who_label_->setBuddy(student_);
    who->addWidget(who_label_);
    who->addWidget(student_, 1);

    // The teacher's controls, shown in teacher mode only (entered with the teacher's PIN).
    lock_ = new QCheckBox;
    lock_->setObjectName(QStringLiteral("lock"));
    reveal_ = new QPushButton;
    reset_ = new QPushButton;
    export_ = new QPushButton;
    worksheets_ = new QPushButton;
    leave_ = new QPushButton;
    teacher_ = new QGroupBox;
    teacher_->setObjectName(QStringLiteral("teacher"));
    auto* t = new QGridLayout(teacher_);
    t->addWidget(lock_, 0, 0, 1, 2);
    t->addWidget(reveal_, 1, 0);
    t->addWidget(reset_, 1, 1);
    t->addWidget(export_, 2, 0);
    t->addWidget(worksheets_, 2, 1);
    t->addWidget(leave_, 3, 0, 1, 2);
    teacher_->hide();

    page_ = new QTextBrowser;
    page_->setOpenLinks(false);
    page_->setMinimumHeight(120);

    exercise_ = new QComboBox;
    // Long titles must not widen the dock: the lists show what fits and elide the rest.
    for (QComboBox* box : {contents_, exercise_}) {
        box->setSizeAdjustPolicy(QComboBox::AdjustToMinimumContentsLengthWithIcon);
        box->setMinimumContentsLength(10);
    }
    question_ = new QLabel;
    question_->setWordWrap(true);
    question_->setTextFormat(Qt::MarkdownText);
    question_->setTextInteractionFlags(Qt::TextSelectableByMouse);
    answer_ = new QLineEdit;
    check_ = new QPushButton;
    hint_ = new QPushButton;
    run_ = new QPushButton;
    feedback_ = new QLabel;
    feedback_->setWordWrap(true);
    // Wrapped text takes the dock's width, never sets it.
    for (QLabel* label : {question_, feedback_})
        label->setMinimumWidth(80);
    auto* buttons = new QHBoxLayout;
    buttons->addWidget(check_);
    buttons->addWidget(hint_);
    buttons->addWidget(run_);
    exercises_ = new QGroupBox;
    exercises_->setObjectName(QStringLiteral("exercises"));
    auto* ex = new QVBoxLayout(exercises_);
    ex->addWidget(exercise_);
    ex->addWidget(question_);
    choices_ = new QWidget;
    // The choices are the bank's words (translated by its language file), not the program's.
    choices_->setProperty("lockstep_content", true);
    new QVBoxLayout(choices_);
    choices_->layout()->setContentsMargins(0, 0, 0, 0);
    choices_->hide();
    ex->addWidget(choices_);
    ex->addWidget(answer_);
    ex->addLayout(buttons);
    ex->addWidget(feedback_);

    calculator_ = new WorkedExamplePanel;
    calculator_->hide();
    study_ = new StudyPanel;
    study_->hide();

    auto* lower = new QWidget;
    auto* lowerLayout = new QVBoxLayout(lower);
    lowerLayout->setContentsMargins(0, 0, 0, 0);
    lowerLayout->addWidget(exercises_);
    lowerLayout->addWidget(calculator_, 1);
    lowerLayout->addWidget(study_, 1);
    // The exercises and tools scroll, so the page keeps its room on a small screen.
    lower_ = new QScrollArea;
    lower_->setWidget(lower);
    lower_->setWidgetResizable(true);
    lower_->setFrameShape(QFrame::NoFrame);
    lower_->setHorizontalScrollBarPolicy(Qt::ScrollBarAlwaysOff);
    auto* split = new QSplitter(Qt::Vertical);
    split->addWidget(page_);
    split->addWidget(lower_);
    split->setCollapsible(0, false);
    split->setStretchFactor(0, 3);
    split->setStretchFactor(1, 2);

    auto* layout = new QVBoxLayout(this);
    layout->addLayout(nav);
    layout->addLayout(who);
    layout->addWidget(teacher_);
    layout->addWidget(split, 1);
    exercises_->hide();
    lower_->hide();
    retranslate();

    connect(contents_, &QComboBox::activated, this, [this](int index) {
        if (index >= 0 && index < static_cast<int>(library_.lessons().size()))
            openLesson(library_.lessons()[static_cast<std::size_t>(index)].id);
    });
    connect(previous_, &QToolButton::clicked, this, [this] {
        if (const auto* l = currentLesson(); l && library_.previous(l->id))
            openLesson(library_.previous(l->id)->id);
    });
    connect(next_, &QToolButton::clicked, this, [this] {
        if (const auto* l = currentLesson(); l && library_.next(l->id))
            openLesson(library_.next(l->id)->id);
    });
    connect(page_, &QTextBrowser::anchorClicked, this,
            [this](const QUrl& url) { activateLink(url.toString()); });
    connect(student_, &QComboBox::textActivated, this, &LessonPane::chooseStudent);
    connect(student_->lineEdit(), &QLineEdit::editingFinished, this,
            [this] { chooseStudent(student_->currentText()); });
    connect(reveal_, &QPushButton::clicked, this, &LessonPane::revealAnswer);
    connect(export_, &QPushButton::clicked, this, &LessonPane::exportClassProgress);
    connect(worksheets_, &QPushButton::clicked, this, [this] { printWorksheets(); });
    connect(leave_, &QPushButton::clicked, this, [this] { setTeacherMode(false); });
    connect(lock_, &QCheckBox::toggled, this, [this](bool on) {
        const auto* l = currentLesson();
        Q_EMIT lockRequested(on && l ? l->locked : QStringList());
    });
    connect(reset_, &QPushButton::clicked, this, [this] {
        if (!progress_)
            return;
        if (QMessageBox::question(this, tr("Reset this student"),
                                  tr("Forget every lesson %1 visited and every answer %1 gave?")
                                      .arg(progress_->student())) != QMessageBox::Yes)
            return;
        try {
            progress_->reset();
        } catch (const Error& e) {
            Q_EMIT message(QString::fromStdString(e.what()));
        }
        refreshContents();
        showExercise(exercise_->currentIndex());
    });
    connect(exercise_, &QComboBox::currentIndexChanged, this, &LessonPane::showExercise);
    connect(check_, &QPushButton::clicked, this, &LessonPane::checkAnswer);
    connect(answer_, &QLineEdit::returnPressed, this, &LessonPane::checkAnswer);
    connect(hint_, &QPushButton::clicked, this, &LessonPane::showHint);
    connect(run_, &QPushButton::clicked, this, [this] {
        if (instance_ && !instance_->run.isEmpty())
            activateLink(instance_->run);
    });
    connect(calculator_, &WorkedExamplePanel::runRequested, this,
            [this](const QString& link) { activateLink(link); });
}

// The exercises and tools take room under the page only when the lesson has some.
void LessonPane::showLower() {
    const bool tools = !tools_in_window_ && (!calculator_->isHidden() || !study_->isHidden());
    lower_->setVisible(!exercises_->isHidden() || tools);
}

void LessonPane::showTool(QWidget* tool) {
    if (tools_in_window_) {
        Q_EMIT toolRequested(tool);
        return;
    }
    tool->show();
    showLower();
}

void LessonPane::setToolsInWindow(bool on) {
    if (on == tools_in_window_)
        return;
    tools_in_window_ = on;
    auto* lower = qobject_cast<QVBoxLayout*>(lower_->widget()->layout());
    for (QWidget* tool : {static_cast<QWidget*>(calculator_), static_cast<QWidget*>(study_)}) {
        if (on) {
            lower->removeWidget(tool);
        } else {
            tool->setParent(lower_->widget());
            lower->addWidget(tool, 1);
        }
        tool->hide();
    }
    if (const lessons::Lesson* l = currentLesson(); l && !on) {
        calculator_->setVisible(l->calculator);
        study_->setVisible(l->study.has_value());
    }
    showLower();
    Q_EMIT toolsChanged();
}

void LessonPane::setWelcome(const QString& html) {
    welcome_ = html;
    if (current_ < 0)
        page_->setHtml(html);
}

const lessons::Lesson* LessonPane::currentLesson() const {
    return current_ < 0 ? nullptr : &library_.lessons()[static_cast<std::size_t>(current_)];
}

bool LessonPane::teacherLock() const {
    return lock_->isChecked();
}

void LessonPane::refreshContents() {
    const QSignalBlocker block(contents_);
    contents_->clear();
    int n = 0;
    for (const lessons::Lesson& l : library_.lessons()) {
        QString mark;
        if (progress_) {
            // ✓: done (every exercise solved, or read when it has none); (k/N): k solved.
            const int solved = progress_->solvedExercises(l);
            const int all = static_cast<int>(l.exercises.size());
            if (all == 0 ? progress_->visited(l.id) : solved == all)
                mark = QStringLiteral(" ✓");
            else if (solved > 0 || progress_->visited(l.id))
                mark = QStringLiteral(" (%1/%2)").arg(solved).arg(all);
        }
        if (l.own)
            mark += tr(" · your own");
        contents_->addItem(QStringLiteral("%1. %2%3").arg(++n).arg(l.title, mark));
    }
    contents_->setCurrentIndex(current_);
    // Each exercise solved is ticked in its list too.
    for (std::size_t i = 0; i < exercise_refs_.size(); ++i)
        exercise_->setItemText(static_cast<int>(i), exerciseName(i));
    previous_->setEnabled(current_ > 0);
    next_->setEnabled(current_ >= 0 && current_ + 1 < static_cast<int>(library_.lessons().size()));
}

bool LessonPane::openLesson(const QString& id, QString* error) {
    const int index = library_.index_of(id);
    if (index < 0) {
        QStringList ids;
        for (const auto& l : library_.lessons())
            ids << l.id;
        if (error)
            *error = tr("no lesson '%1' (known: %2)").arg(id, ids.join(QStringLiteral(", ")));
        return false;
    }
    current_ = index;
    const lessons::Lesson& l = *currentLesson();
    page_->document()->setBaseUrl(QUrl::fromLocalFile(l.dir + QLatin1Char('/')));
    page_->setMarkdown(l.markdown);
    if (progress_) {
        progress_->markVisited(l.id);
        saveProgress();
    }
    exercise_refs_ = l.exercises;
    {
        const QSignalBlocker block(exercise_);
        exercise_->clear();
        for (std::size_t i = 0; i < exercise_refs_.size(); ++i)
            exercise_->addItem(exerciseName(i));
    }
    exercises_->setVisible(!exercise_refs_.empty());
    showExercise(exercise_refs_.empty() ? -1 : 0);
    if (!tools_in_window_) {
        calculator_->setVisible(l.calculator);
        study_->setVisible(l.study.has_value());
    }
    if (l.calculator) {
        calculator_->setScenario(l.scenario);
        calculator_->setFigures(40, 4, 6);
    }
    if (l.study)
        study_->setStudy(l.scenario, *l.study);
    showLower();
    refreshContents();
    if (tools_in_window_)
        Q_EMIT toolsChanged();
    Q_EMIT lessonOpened(l.id);
    Q_EMIT lockRequested(lock_->isChecked() ? l.locked : QStringList());
    return true;
}

bool LessonPane::activateLink(const QString& url) {
    if (!lessons::is_action_link(url)) {
        Q_EMIT message(tr("“%1” is not a lab action; open it in a web browser.").arg(url));
        return false;
    }
    lessons::Action action;
    try {
        action = lessons::parse_action(url);
    } catch (const Error& e) {
        Q_EMIT message(QString::fromStdString(e.what()));
        return false;
    }
    return applyAction(action);
}

bool LessonPane::applyAction(const lessons::Action& action) {
    switch (action.kind) {
    case lessons::ActionKind::Quiz: {
        const QString bank = action.text(QStringLiteral("bank"));
        const QString question = action.text(QStringLiteral("question"));
        if (!question.isEmpty()) {
            const bool shown = selectExercise(bank, question);
            if (shown)
                Q_EMIT message(tr("The exercise is under the page; the answer field is ready."));
            return shown;
        }
        // The whole bank: every question joins the exercises, the first one shown.
        const lessons::QuizBank* b = library_.bank(bank);
        if (!b) {
            Q_EMIT message(tr("There is no quiz bank %1.").arg(bank));
            return false;
        }
        for (const lessons::Question& q : b->questions)
            selectExercise(bank, q.id);
        const bool shown = selectExercise(bank, b->questions.front().id);
        // Where the student answers: ready for typing, whatever was shown before.
        showLower();
        answer_->setFocus(Qt::OtherFocusReason);
        answer_->selectAll();
        lower_->ensureWidgetVisible(answer_); // scrolled to, however long the question
        Q_EMIT message(tr("%n question(s) of the quiz under the page; the first is shown, the "
                          "answer field is ready.",
                          nullptr, static_cast<int>(b->questions.size())));
        return shown;
    }
    case lessons::ActionKind::Calculator:
        showTool(calculator_);
        calculator_->setFocus();
        Q_EMIT message(tr("The worked-example calculator is open: change a figure and see the "
                          "time and the speedup."));
        return true;
    case lessons::ActionKind::Study:
        showTool(study_);
        study_->start();
        Q_EMIT message(tr("The study trains each model of the lesson on the same data."));
        return true;
    default:
        Q_EMIT actionRequested(action);
        return true;
    }
}

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

void LessonPane::setProfiles(lessons::ProfileBook* book) {
    profiles_ = book;
    QString name = book ? book->current() : QString();
    if (book && name.isEmpty())
        name = book->names().value(0, tr("Student"));
    refreshStudents();
    if (!name.isEmpty())
        chooseStudent(name);
}

void LessonPane::refreshStudents() {
    const QSignalBlocker block(student_);
    const QString shown = progress_ ? progress_->student() : student_->currentText();
    student_->clear();
    if (profiles_)
        student_->addItems(profiles_->names());
    student_->setCurrentText(shown);
}

QString LessonPane::student() const {
    return progress_ ? progress_->student() : QString();
}

bool LessonPane::chooseStudent(const QString& name) {
    const QString wanted = name.simplified();
    if (wanted.isEmpty() || (progress_ && progress_->student() == wanted)) {
        refreshStudents();
        return !wanted.isEmpty();
    }
    if (!profiles_) {
        if (!progress_)
            return false;
        progress_->setStudent(wanted);
        saveProgress();
    } else {
        try {
            owned_ = profiles_->open(wanted);
        } catch (const Error& e) {
            Q_EMIT message(QString::fromStdString(e.what()));
            refreshStudents();
            return false;
        }
        progress_ = owned_.get();
        if (!progress_->loadProblem().isEmpty())
            Q_EMIT message(progress_->loadProblem());
        Q_EMIT message(tr("Working as %1: your own progress and your own numbers.").arg(wanted));
    }
    refreshStudents();
    refreshContents();
    if (const lessons::Lesson* l = currentLesson(); l && progress_) {
        progress_->markVisited(l->id);
        saveProgress();
    }
    showExercise(exercise_->currentIndex()); // new numbers for the new name
    return true;
}

void LessonPane::setTeacherMode(bool on) {
    teacher_->setVisible(on);
    if (on)
        reveal_->setFocus();
    Q_EMIT teacherModeChanged(on);
}

bool LessonPane::teacherMode() const {
    return !teacher_->isHidden();
}

void LessonPane::revealAnswer() {
    if (!instance_)
        return;
    feedback_->setText(tr("For %1 the answer is %2. %3")
                           .arg(student().isEmpty() ? tr("this student") : student(),
                                instance_->answer_text(), instance_->explanation));
}

void LessonPane::exportClassProgress() {
    if (!profiles_)
        return;
    const QString path =
        QFileDialog::getSaveFileName(this, tr("Class progress as CSV"),
                                     QStringLiteral("class-progress.csv"), tr("CSV files (*.csv)"));
    if (path.isEmpty())
        return;
    QSaveFile file(path);
    if (!file.open(QIODevice::WriteOnly) ||
        file.write(profiles_->exportCsv(library_).toUtf8()) < 0 || !file.commit()) {
        Q_EMIT message(tr("%1: cannot write the class's progress").arg(path));
        return;
    }
    Q_EMIT message(tr("The progress of %n student(s) written to %1", nullptr,
                      static_cast<int>(profiles_->names().size()))
                       .arg(path));
}

// The current exercise's bank (or the lesson's first), a page for each student with a profile.
QString LessonPane::printWorksheets(const QString& to) {
    QString bank_id;
    if (const int i = exercise_->currentIndex();
        i >= 0 && i < static_cast<int>(exercise_refs_.size()))
        bank_id = exercise_refs_[static_cast<std::size_t>(i)].bank;
    const lessons::QuizBank* bank = library_.bank(bank_id);
    if (!bank) {
        Q_EMIT message(tr("Open a lesson with exercises to print its quiz bank."));
        return {};
    }
    QString path = to;
    if (path.isEmpty())
        path = QFileDialog::getSaveFileName(this, tr("Print worksheets"),
                                            bank->id + QStringLiteral("-worksheets.pdf"),
                                            tr("PDF files (*.pdf)"));
    if (path.isEmpty())
        return {};
    QString key = path;
    if (key.endsWith(QStringLiteral(".pdf"), Qt::CaseInsensitive))
        key.chop(4);
    key += QStringLiteral("-key.pdf");
    const QStringList students = profiles_ ? profiles_->names() : QStringList{student()};
    try {
        const auto pages = lessons::worksheet_pages(*bank, students, 1);
        lessons::write_worksheet_pdf(*bank, pages, path, false);
        lessons::write_worksheet_pdf(*bank, pages, key, true);
    } catch (const Error& e) {
        Q_EMIT message(QString::fromStdString(e.what()));
        return {};
    }
    Q_EMIT message(tr("Worksheets for %n student(s) in %1, the answers in %2", nullptr,
                      static_cast<int>(students.size()))
                       .arg(path, key));
    return path;
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
