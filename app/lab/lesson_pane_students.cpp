// The lesson pane's students and teacher mode: profiles, the answer revealed, the class's
// progress and its worksheets.

#include "lesson_pane.h"

#include "core/error.h"
#include "worksheet.h"

#include <QComboBox>
#include <QFileDialog>
#include <QGroupBox>
#include <QLabel>
#include <QPushButton>
#include <QSaveFile>

namespace lockstep::app {

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

} // namespace lockstep::app
