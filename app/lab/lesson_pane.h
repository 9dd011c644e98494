#pragma once

#include "lockstep_lessons/action.h"
#include "lockstep_lessons/lesson.h"
#include "lockstep_lessons/profiles.h"
#include "lockstep_lessons/progress.h"
#include "lockstep_lessons/quiz.h"

#include <QWidget>

#include <memory>
#include <optional>
#include <vector>

class QAbstractButton;
class QButtonGroup;
class QCheckBox;
class QComboBox;
class QEvent;
class QGroupBox;
class QLabel;
class QLineEdit;
class QPushButton;
class QScrollArea;
class QTextBrowser;
class QToolButton;

namespace lockstep::app {

class StudyPanel;
class WorkedExamplePanel;

// The lesson pane: contents, previous and next, the lesson's page with its live links, the
// lesson's exercises (answers checked on the spot, hints, attempts kept), and the worked-example
// calculator or the model-size study where a lesson has them. Links that act on the lab are
// emitted as actionRequested(); the main window applies them. Progress goes to a ProgressStore.
class LessonPane : public QWidget {
    Q_OBJECT
public:
    LessonPane(lessons::LessonLibrary library, lessons::ProgressStore* progress,
               QWidget* parent = nullptr);
    ~LessonPane() override;

    // What the pane shows before a lesson is opened.
    void setWelcome(const QString& html);
    // Opens a lesson by id; returns false (and says why in `error`) when there is none.
    bool openLesson(const QString& id, QString* error = nullptr);
    const lessons::Lesson* currentLesson() const;
    const lessons::LessonLibrary& library() const { return library_; }
    // A new library (the user's own lessons folder changed, or the language): the open lesson
    // stays open when the new library has it, its page and exercises shown again from the new
    // library (the page where it was scrolled to, the answer typed so far kept); otherwise the
    // pane goes back to its welcome page. The student and their progress stay.
    void setLibrary(lessons::LessonLibrary library);
    // Follows a link as a click on it would. Returns false when the link is not an action.
    bool activateLink(const QString& url);
    // The same for a parsed link: the pane's own (quiz, calculator, study) are done here, the
    // others emitted as actionRequested().
    bool applyAction(const lessons::Action& action);
    // Types an answer to the current exercise and checks it, as the Check button does (for a
    // choice question: ticks the lettered buttons, as clicks would).
    lessons::Checked answer(const QString& typed);
    QString currentExercise() const; // "bank/question"
    bool selectExercise(const QString& bank, const QString& question);
    bool teacherLock() const;
    // Students' profiles: the pane shows them to choose from and keeps the chosen one's progress
    // (typing a new name makes a new profile). Not owned; without it, the pane keeps one student.
    void setProfiles(lessons::ProfileBook* book);
    bool chooseStudent(const QString& name);
    QString student() const;
    lessons::ProgressStore* progress() const { return progress_; }
    // Teacher mode: the lock, the answers, resetting a student, the class's progress and the
    // worksheets. The window asks for the PIN before it turns this on.
    void setTeacherMode(bool on);
    bool teacherMode() const;
    // Writes the worksheets of the current exercise's bank for every student to `path` (asks
    // where when empty) and the key beside it; returns the path written, or "".
    QString printWorksheets(const QString& path = {});
    QTextBrowser* page() const { return page_; }
    WorkedExamplePanel* calculator() const { return calculator_; }
    StudyPanel* study() const { return study_; }
    // The lab window shows the calculator and the study as tabs beside its views, where a chart
    // and a table have room (toolsChanged, toolRequested). A pane alone keeps them under its
    // exercises.
    void setToolsInWindow(bool on);
    bool toolsInWindow() const { return tools_in_window_; }

Q_SIGNALS:
    void lessonOpened(const QString& id);
    // The exercise shown under the page changed ("bank/question"; empty for none).
    void exerciseShown(const QString& key);
    void actionRequested(const lockstep::lessons::Action& action);
    // The teacher's lock was switched: lock these controls (empty: none).
    void lockRequested(const QStringList& controls);
    void message(const QString& text);
    // With the tools in the window: the lesson just opened has or lacks a calculator or a study.
    void toolsChanged();
    // ... and a link asked for one of them.
    void toolRequested(QWidget* tool);
    void teacherModeChanged(bool on);

protected:
    void changeEvent(QEvent* event) override;

private:
    void showFeedback();
    void buildUi();
    void retranslate();
    void refreshContents();
    void showExercise(int index);
    void showQuestion();
    void tickChoices(const QString& typed);
    void checkAnswer();
    void showHint();
    void saveProgress();
    void showLower();
    void showTool(QWidget* tool);
    void showChoices(lessons::QuestionType type);
    void refreshStudents();
    void revealAnswer();
    void exportClassProgress();
    QString exerciseName(std::size_t i) const;
    bool eventFilter(QObject* watched, QEvent* event) override;

    lessons::LessonLibrary library_;
    lessons::ProgressStore* progress_ = nullptr;
    int current_ = -1;
    QString welcome_;

    QComboBox* contents_ = nullptr;
    QToolButton* previous_ = nullptr;
    QToolButton* next_ = nullptr;
    QComboBox* student_ = nullptr;
    QLabel* who_label_ = nullptr;
    QGroupBox* teacher_ = nullptr;
    QCheckBox* lock_ = nullptr;
    QPushButton* reveal_ = nullptr;
    QPushButton* reset_ = nullptr;
    QPushButton* export_ = nullptr;
    QPushButton* worksheets_ = nullptr;
    QPushButton* leave_ = nullptr;
    lessons::ProfileBook* profiles_ = nullptr;
    std::unique_ptr<lessons::ProgressStore> owned_; // the chosen profile's
    QTextBrowser* page_ = nullptr;
    QGroupBox* exercises_ = nullptr;
    QComboBox* exercise_ = nullptr;
    QLabel* question_ = nullptr;
    QLineEdit* answer_ = nullptr;
    QWidget* choices_ = nullptr; // radio buttons or check boxes for a choice question
    std::vector<QAbstractButton*> choice_buttons_;
    QButtonGroup* choice_group_ = nullptr;
    QPushButton* check_ = nullptr;
    QPushButton* hint_ = nullptr;
    QPushButton* run_ = nullptr;
    QLabel* feedback_ = nullptr;
    WorkedExamplePanel* calculator_ = nullptr;
    StudyPanel* study_ = nullptr;
    QScrollArea* lower_ = nullptr; // exercises, calculator and study, scrolling
    bool tools_in_window_ = false;

    std::vector<lessons::ExerciseRef> exercise_refs_;
    std::optional<lessons::QuestionInstance> instance_;
    int hints_shown_ = 0;
};

} // namespace lockstep::app
