#pragma once

#include <QJsonObject>
#include <QString>

#include <condition_variable>
#include <functional>
#include <memory>
#include <mutex>
#include <thread>
#include <vector>

// A class quiz's journal: every change (a join, an answer, a move) as one JSON line, written and
// flushed to the disk (fdatasync) before the change is acknowledged (ClassQuiz::set_journal). A
// SIGKILL, a closed terminal or a power cut loses no acknowledged answer, and a quiz started again
// from its journal goes on with the same join code, tokens and question (docs/CLASS.md).
//
// The flush is a group commit: write() puts a record in the file at once, and a thread of the
// journal's own flushes every record written so far with one fdatasync, then says up to which
// record the disk holds (set_on_synced). The server holds each answer until then. While one flush
// waits for the disk, the records that come meanwhile wait for the next one: 300 students joining
// and answering at once (bench_class) cost about 110 flushes, not 600, and the window never waits
// for the disk.
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
    // Writes one record and has the journal's thread flush it soon; false (and error()) when it
    // could not be written, or an earlier flush failed: then nothing more is taken.
    bool write(const QJsonObject& record);
    // Records written so far (each write() one more), and how many of them the disk holds.
    qint64 written() const;
    qint64 synced() const;
    // Called on the journal's thread after each flush with the records the disk now holds, or
    // with ok false when the flush failed (then error() says why). Set it to nothing before
    // whatever it calls goes away.
    void set_on_synced(std::function<void(qint64 synced, bool ok)> on_synced);
    // While held, no flush starts (written records wait): the tests' slow disk.
    void hold_flushes(bool held);
    QString path() const { return path_; }
    QString error() const;

private:
    AnswerJournal(int fd, QString path);
    bool write_line(const QJsonObject& record); // under mutex_
    void flush_loop();

    int fd_;
    QString path_;
    mutable std::mutex mutex_;
    std::condition_variable wake_;
    QString error_;
    qint64 written_ = 0;
    qint64 synced_ = 0;
    bool failed_ = false;
    bool stopping_ = false;
    bool held_ = false;
    std::function<void(qint64, bool)> on_synced_;
    std::thread flusher_; // last: it starts once the rest is made
};

} // namespace lockstep::classroom
