// The lesson pane: the library, opening a lesson, its page and the links on it.

#include "lesson_pane.h"

#include "core/error.h"
#include "study_panel.h"
#include "worked_example_panel.h"

#include <QCheckBox>
#include <QComboBox>
#include <QEvent>
#include <QGroupBox>
#include <QLineEdit>
#include <QScrollArea>
#include <QScrollBar>
#include <QTextBrowser>
#include <QToolButton>
#include <QUrl>

namespace lockstep::app {

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

} // namespace lockstep::app
