// The lesson pane's widgets: how they are laid out, their texts in the language in use, and
// where the calculator and the study go.

#include "lesson_pane.h"

#include "core/error.h"
#include "study_panel.h"
#include "worked_example_panel.h"

#include <QCheckBox>
#include <QComboBox>
#include <QGridLayout>
#include <QGroupBox>
#include <QHBoxLayout>
#include <QLabel>
#include <QLineEdit>
#include <QMessageBox>
#include <QPushButton>
#include <QScrollArea>
#include <QSplitter>
#include <QTextBrowser>
#include <QToolButton>
#include <QUrl>
#include <QVBoxLayout>

namespace lockstep::app {

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
    // Check and Hint side by side, Run it below them: three buttons abreast are wider than the
    // pane on a 1024-pixel screen.
    auto* buttons = new QGridLayout;
    buttons->addWidget(check_, 0, 0);
    buttons->addWidget(hint_, 0, 1);
    buttons->addWidget(run_, 1, 0, 1, 2);
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

} // namespace lockstep::app
