#pragma once

#include <QJsonObject>
#include <QString>

#include <memory>
#include <vector>

// A class quiz's journal: every change (a join, an answer, a move) as one JSON line, written and
// flushed to the disk (fdatasync) before the change is acknowledged (ClassQuiz::set_journal). A
// SIGKILL, a closed terminal or a power cut loses no acknowledged answer, and a quiz started again
// from its journal goes on with the same join code, tokens and question (docs/CLASS.md).
namespace lockstep::classroom {

class AnswerJournal {
public:
    // A new journal at `path` (its folder made if needed), readable by its owner only. Refuses a
    // file that is already there: a journal is never written over. Throws lockstep::Error naming
    // the path and why.
    static std::unique_ptr<AnswerJournal> create(const QString& path);
    // An existing journal, its records read into `records` (the start record first), opened to go
    // on. A last line cut off in the middle of writing is dropped (`dropped` says so); any other
    // line that is not a record is an error naming the file and the line.
    static std::unique_ptr<AnswerJournal>
    resume(const QString& path, std::vector<QJsonObject>& records, bool* dropped = nullptr);
    // Where a journal goes when none is named: <the user's data folder>/class/BANK-DATE.journal.
    static QString default_path(const QString& bank);

    ~AnswerJournal();
    AnswerJournal(const AnswerJournal&) = delete;
    AnswerJournal& operator=(const AnswerJournal&) = delete;

    // Writes one record and waits for the disk; false (and error()) when it could not.
    bool append(const QJsonObject& record);
    QString path() const { return path_; }
    QString error() const { return error_; }

private:
    AnswerJournal(int fd, QString path);

    int fd_;
    QString path_;
    QString error_;
};

} // namespace lockstep::classroom
