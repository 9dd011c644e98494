#pragma once

#include "lockstep_lessons/quiz.h"

#include <QString>
#include <QStringList>

#include <vector>

namespace lockstep::lessons {

// One student's sheet: every question of the bank with that student's own numbers, the same
// instances the lab, `quiz ask` and the Moodle export give that name.
struct WorksheetPage {
    QString student;
    std::vector<QuestionInstance> questions;
};

// A sheet per student, or per variant ("variant 1", ...) when there are no students.
std::vector<WorksheetPage> worksheet_pages(const QuizBank& bank, const QStringList& students,
                                           int variants);

// A sheet as HTML: the questions with room to answer, or (key) the answers and their reasoning.
QString worksheet_html(const QuizBank& bank, const WorksheetPage& page, bool key);

// Writes the sheets as a PDF with Qt's PDF writer: one A4 page per student (a long sheet is
// scaled down to fit its page), or the answer key, each student's answers after the last one's.
// Needs a QGuiApplication. Throws lockstep::Error naming the file when it cannot be written.
void write_worksheet_pdf(const QuizBank& bank, const std::vector<WorksheetPage>& pages,
                         const QString& path, bool key);

} // namespace lockstep::lessons
