#include "lockstep_class/answer_journal.h"

#include "lockstep_lessons/language.h"

#include "core/error.h"

#include <QDateTime>
#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QJsonDocument>
#include <QStandardPaths>

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <fcntl.h>
#include <unistd.h>

namespace lockstep::classroom {

namespace {

[[noreturn]] void fail(const QString& path, const QString& why) {
    throw Error(lessons::Text::tr("class journal %1: %2").arg(path, why).toStdString());
}

QString system_error() {
    return QString::fromLocal8Bit(std::strerror(errno));
}

} // namespace

AnswerJournal::AnswerJournal(int fd, QString path)
    : fd_(fd)
    , path_(std::move(path))
    , flusher_([this] { flush_loop(); }) {}

AnswerJournal::~AnswerJournal() {
    {
        std::lock_guard lock(mutex_);
        stopping_ = true;
    }
    wake_.notify_one();
    flusher_.join(); // after flushing what was written
    ::close(fd_);
}

void AnswerJournal::flush_loop() {
    std::unique_lock lock(mutex_);
    for (;;) {
        wake_.wait(lock,
                   [this] { return stopping_ || (written_ > synced_ && !failed_ && !held_); });
        if (written_ <= synced_ || failed_)
            return; // stopping, and nothing left to flush
        const qint64 target = written_;
        lock.unlock();
        // Records written from here on wait for the next flush.
        const bool ok = ::fdatasync(fd_) == 0;
        const QString why = ok ? QString() : system_error();
        lock.lock();
        if (ok) {
            synced_ = std::max(synced_, target); // append() may have flushed further meanwhile
        } else {
            failed_ = true;
            error_ = why;
        }
        if (on_synced_)
            on_synced_(synced_, ok);
    }
}

void AnswerJournal::hold_flushes(bool held) {
    {
        std::lock_guard lock(mutex_);
        held_ = held;
    }
    wake_.notify_one();
}

void AnswerJournal::set_on_synced(std::function<void(qint64, bool)> on_synced) {
    std::lock_guard lock(mutex_);
    on_synced_ = std::move(on_synced);
}

qint64 AnswerJournal::written() const {
    std::lock_guard lock(mutex_);
    return written_;
}

qint64 AnswerJournal::synced() const {
    std::lock_guard lock(mutex_);
    return synced_;
}

QString AnswerJournal::error() const {
    std::lock_guard lock(mutex_);
    return error_;
}

QString AnswerJournal::default_path(const QString& bank) {
    const QString folder =
        QStandardPaths::writableLocation(QStandardPaths::GenericDataLocation) + "/lockstep/class";
    return folder + QLatin1Char('/') + bank + QLatin1Char('-') +
           QDateTime::currentDateTime().toString(QStringLiteral("yyyyMMdd-HHmmss")) +
           QStringLiteral(".journal");
}

std::unique_ptr<AnswerJournal> AnswerJournal::create(const QString& path) {
    QDir().mkpath(QFileInfo(path).absolutePath());
    const int fd = ::open(QFile::encodeName(path).constData(),
                          O_WRONLY | O_CREAT | O_EXCL | O_APPEND | O_CLOEXEC, 0600);
    if (fd < 0)
        fail(path, errno == EEXIST ? lessons::Text::tr("it is already there; a journal is never "
                                                       "written over (--resume goes on with it)")
                                   : system_error());
    return std::unique_ptr<AnswerJournal>(new AnswerJournal(fd, path));
}

std::unique_ptr<AnswerJournal>
AnswerJournal::resume(const QString& path, std::vector<QJsonObject>& records, bool* dropped) {
    QFile file(path);
    if (!file.open(QIODevice::ReadOnly))
        fail(path, file.errorString());
    const QByteArray all = file.readAll();
    file.close();
    records.clear();
    qsizetype kept = 0; // bytes of whole lines
    qsizetype start = 0;
    int line = 0;
    bool cut = false;
    while (start < all.size()) {
        ++line;
        const qsizetype end = all.indexOf('\n', start);
        if (end < 0) { // the last line, never finished
            cut = true;
            break;
        }
        QJsonParseError problem{};
        const QJsonDocument doc = QJsonDocument::fromJson(all.mid(start, end - start), &problem);
        if (problem.error != QJsonParseError::NoError || !doc.isObject() ||
            !doc.object().value(QStringLiteral("t")).isString())
            fail(path, lessons::Text::tr("line %1 is not a record of a class quiz").arg(line));
        records.push_back(doc.object());
        start = kept = end + 1;
    }
    if (records.empty() ||
        records.front().value(QStringLiteral("t")).toString() != QLatin1String("start"))
        fail(path, lessons::Text::tr("it does not begin with the start of a class quiz"));
    const int fd = ::open(QFile::encodeName(path).constData(), O_WRONLY | O_APPEND | O_CLOEXEC);
    if (fd < 0)
        fail(path, system_error());
    // A line cut off by a power cut is no record: the journal goes on after the last whole one.
    if (cut && ::ftruncate(fd, kept) != 0) {
        const QString why = system_error();
        ::close(fd);
        fail(path, why);
    }
    if (dropped)
        *dropped = cut;
    return std::unique_ptr<AnswerJournal>(new AnswerJournal(fd, path));
}

bool AnswerJournal::append(const QJsonObject& record) {
    std::lock_guard lock(mutex_);
    if (!write_line(record))
        return false;
    if (::fdatasync(fd_) != 0) {
        failed_ = true;
        error_ = system_error();
        return false;
    }
    synced_ = written_;
    return true;
}

bool AnswerJournal::write(const QJsonObject& record) {
    {
        std::lock_guard lock(mutex_);
        if (!write_line(record))
            return false;
    }
    wake_.notify_one();
    return true;
}

bool AnswerJournal::write_line(const QJsonObject& record) {
    if (failed_)
        return false;
    const QByteArray line = QJsonDocument(record).toJson(QJsonDocument::Compact) + '\n';
    const off_t before = ::lseek(fd_, 0, SEEK_END);
    qsizetype done = 0;
    while (done < line.size()) {
        const ssize_t n = ::write(fd_, line.constData() + done, std::size_t(line.size() - done));
        if (n < 0 && errno == EINTR)
            continue;
        if (n <= 0) {
            // A disk that filled up mid-line: the part written goes, so the journal stays whole.
            error_ = system_error();
            if (before >= 0 && ::ftruncate(fd_, before) != 0)
                error_ += QStringLiteral("; ") + system_error();
            return false;
        }
        done += n;
    }
    ++written_;
    return true;
}

} // namespace lockstep::classroom
