#pragma once

#include "lockstep_lessons/quiz.h"

#include <QString>
#include <QStringList>

namespace lockstep::lessons {

enum class ExportFormat { MoodleXml, Gift, Csv };

bool parse_export_format(const QString& text, ExportFormat& out); // moodle-xml, gift, csv

// Reads a list of students: one per line (the first comma-separated field), blank lines and
// lines starting with '#' skipped, and a first line "student" or "id" taken as a header. Throws
// lockstep::Error naming the file when it cannot be read or names nobody.
QStringList read_students(const QString& path);

// One CSV field: as it is, or quoted (quotes doubled) when it holds a comma, a quote or a line
// break. The answer key and the class quiz's results share it.
QString csv_field(const QString& text);

// A bank for a learning platform or a teacher's answer key. Each question with variables is
// written once per student (their own numbers and the engine's answers), or, without students,
// as `variants` versions seeded "variant 1", "variant 2", ...; in Moodle XML and GIFT each
// question's versions share a category, so a quiz can draw one at random. Questions without
// variables are written once. Numeric tolerances are written as absolute values.
// CSV is the answer key: student, question, type, values, answer, tolerance.
QString export_bank(const QuizBank& bank, ExportFormat format, const QStringList& students,
                    int variants = 5);

} // namespace lockstep::lessons
