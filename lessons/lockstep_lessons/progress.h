#pragma once

#include "lockstep_lessons/quiz.h"

#include <QDateTime>
#include <QMap>
#include <QSet>
#include <QString>

namespace lockstep::lessons {

struct Lesson;

// One question's record for this student: every attempt counts; the score falls by a third for
// each wrong attempt before the right one (as a learning platform's penalty would).
struct AttemptRecord {
    int attempts = 0;
    bool solved = false;
    int attempts_to_solve = 0;
    QString last_answer;
    QString last_verdict;

    double score() const;
};

// What a student has done: lessons visited, attempts per question, the lesson open last. Kept as
// `progress.json` in a folder (the app passes its data folder), written whole to a temporary
// file and renamed, so a crash never leaves half a file. A file that cannot be read is set
// aside as `progress.json.unreadable` and the student starts afresh, with the reason in
// loadProblem(): bad input never stops the lab.
class ProgressStore {
public:
    explicit ProgressStore(const QString& folder);

    const QString& path() const { return path_; }
    const QString& loadProblem() const { return load_problem_; }

    QString student() const { return student_; }
    void setStudent(const QString& student);
    QString lastLesson() const { return last_lesson_; }

    void markVisited(const QString& lesson);
    bool visited(const QString& lesson) const { return visited_.contains(lesson); }
    // Counts one attempt; a question stays solved once solved.
    void recordAttempt(const QString& bank, const QString& question, const QString& typed,
                       Verdict verdict);
    AttemptRecord attempt(const QString& bank, const QString& question) const;
    bool solved(const QString& bank, const QString& question) const;
    int solvedExercises(const Lesson& lesson) const;

    // Forgets everything and saves.
    void reset();
    // Writes the file; throws lockstep::Error naming it when it cannot.
    void save() const;

private:
    void load();

    QString folder_;
    QString path_;
    QString load_problem_;
    QString student_;
    QString last_lesson_;
    QSet<QString> visited_;
    QMap<QString, AttemptRecord> attempts_; // "bank/question"
};

} // namespace lockstep::lessons
