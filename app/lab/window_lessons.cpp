// The lab window's lessons: opening one (and the last one), the tools it brings beside the views,
// the user's own lessons folder, and teacher mode.

#include "main_window.h"

#include "lesson_pane.h"
#include "study_panel.h"
#include "teacher_lock.h"
#include "worked_example_panel.h"

#include "lockstep_lessons/lesson.h"

#include <QAction>
#include <QDir>
#include <QDockWidget>
#include <QFileDialog>
#include <QInputDialog>
#include <QLineEdit>
#include <QMessageBox>
#include <QSettings>
#include <QTabWidget>

namespace lockstep::app {

bool MainWindow::openLastLesson() {
    const QString id = settings_->value(QStringLiteral("last_lesson")).toString();
    const QString exercise = settings_->value(QStringLiteral("last_exercise")).toString();
    if (id.isEmpty() || !lesson_pane_->library().find(id) || !openLesson(id, nullptr, false))
        return false;
    // And the exercise the student was on, when it is still one of the lesson's.
    const qsizetype slash = exercise.indexOf(QLatin1Char('/'));
    if (slash > 0)
        for (const lessons::ExerciseRef& ref : lesson_pane_->currentLesson()->exercises)
            if (ref.key() == exercise)
                lesson_pane_->selectExercise(exercise.left(slash), exercise.mid(slash + 1));
    return true;
}

bool MainWindow::openLesson(const QString& id, QString* error, bool run) {
    run_opened_lesson_ = run;
    const bool ok = lesson_pane_->openLesson(id, error);
    run_opened_lesson_ = true;
    return ok;
}

void MainWindow::onLessonOpened(const QString& id) {
    const lessons::Lesson* lesson = lesson_pane_->library().find(id);
    if (!lesson)
        return;
    session_.useScenario(lesson->scenario, lesson->scenario_path);
    settings_->setValue(QStringLiteral("last_lesson"), id); // where the next start opens
    title_ = Title::Lesson;
    setWindowTitle(tr("Lockstep — %1").arg(lesson->title));
    refreshLessonLinks();
    if (!lesson->views.isEmpty())
        bringViewToFront(lesson->views.front());
    for (const QString& v : lesson->views)
        if (view(v) && side_tabs_->indexOf(view(v)) >= 0) { // the cluster, when it is a tab
            side_tabs_->setCurrentWidget(view(v));
            break;
        }
    if (run_opened_lesson_)
        runScenario(session_.scenario());
    session_.clearHistory(); // another lesson: nothing before it to undo into
}

// The lesson's calculator and study as tabs beside the views, where their charts and tables have
// room; only while the open lesson has them.
void MainWindow::placeLessonTools() {
    const lessons::Lesson* l = lesson_pane_->currentLesson();
    const auto place = [this](QWidget* tool, bool wanted, const QString& title) {
        const int at = side_tabs_->indexOf(tool);
        if (wanted && at < 0)
            side_tabs_->addTab(tool, title);
        else if (!wanted && at >= 0)
            side_tabs_->removeTab(at);
    };
    place(lesson_pane_->calculator(), l && l->calculator, tr("Worked example"));
    place(lesson_pane_->study(), l && l->study.has_value(), tr("Study"));
}

bool MainWindow::enterTeacherMode(const QString& pin) {
    if (!teacher_lock_->hasPin() ? !teacher_lock_->setPin(pin) : !teacher_lock_->check(pin))
        return false;
    lesson_pane_->setTeacherMode(true);
    lesson_dock_->show();
    return true;
}

int MainWindow::useOwnLessonsFolder(const QString& folder) {
    if (folder.isEmpty())
        settings_->remove(QStringLiteral("lessons/folder"));
    else
        settings_->setValue(QStringLiteral("lessons/folder"), folder);
    settings_->sync();
    QStringList problems;
    const QString dir = folder.isEmpty() ? lessons::own_lessons_dir() : folder;
    lessons::LessonLibrary library = loadLibrary(dir, &problems);
    int added = 0;
    for (const auto& l : library.lessons())
        added += l.own ? 1 : 0;
    lesson_pane_->setLibrary(std::move(library));
    QString text = tr("%n of your own lesson(s) from %1, after the shipped ones.", nullptr, added)
                       .arg(QDir::toNativeSeparators(dir));
    if (!problems.isEmpty())
        text += QLatin1Char(' ') + tr("Left out: %1").arg(problems.join(QStringLiteral("; ")));
    showStatus(text);
    return added;
}

void MainWindow::chooseOwnLessonsFolder() {
    const QString dir = QFileDialog::getExistingDirectory(this, tr("Your Own Lessons Folder"),
                                                          lessons::own_lessons_dir());
    if (!dir.isEmpty())
        useOwnLessonsFolder(dir);
}

// Asks for the PIN (or, the first time, for a new one, twice) and enters teacher mode; a second
// use leaves it.
void MainWindow::askForTeacherMode() {
    if (lesson_pane_->teacherMode()) {
        lesson_pane_->setTeacherMode(false);
        return;
    }
    bool ok = false;
    if (!teacher_lock_->hasPin()) {
        const QString pin = QInputDialog::getText(
            this, tr("Set the teacher's PIN"),
            tr("Choose a PIN of 4 to 12 digits. It protects teacher mode: the lock, the answers "
               "and resetting a student."),
            QLineEdit::Password, QString(), &ok);
        if (!ok)
            return;
        const QString again =
            QInputDialog::getText(this, tr("Set the teacher's PIN"), tr("The same PIN again:"),
                                  QLineEdit::Password, QString(), &ok);
        if (!ok)
            return;
        if (pin != again || !TeacherLock::acceptable(pin)) {
            QMessageBox::information(this, tr("PIN not set"),
                                     pin != again ? tr("The two PINs differ.")
                                                  : tr("A PIN has 4 to 12 digits."));
            teacher_action_->setChecked(false);
            return;
        }
        enterTeacherMode(pin);
        return;
    }
    const QString pin = QInputDialog::getText(this, tr("Teacher mode"), tr("The teacher's PIN:"),
                                              QLineEdit::Password, QString(), &ok);
    if (ok && !enterTeacherMode(pin))
        QMessageBox::information(this, tr("Teacher mode"), tr("That is not the teacher's PIN."));
    teacher_action_->setChecked(lesson_pane_->teacherMode());
}

} // namespace lockstep::app
