#pragma once

#include "lockstep_class/class_api.h"

#include <QAbstractHttpServer>
#include <QElapsedTimer>
#include <QHostAddress>
#include <QList>
#include <QPointer>
#include <QTimer>

#include <deque>
#include <functional>

#include <memory>
#include <vector>

class QWebSocket;

namespace lockstep::classroom {

class AnswerJournal;
class ConnectionTable;

// True for the addresses a classroom network uses: loopback, 10/8, 172.16/12, 192.168/16,
// link-local 169.254/16, and IPv6 loopback, fc00::/7 and fe80::/10.
bool is_private_address(const QHostAddress& address);
// This machine's private addresses, IPv4 first; loopback last.
QList<QHostAddress> lan_addresses();
// --bind's argument: an address (or "localhost") that is private and not "any". Throws
// lockstep::Error saying why not.
QHostAddress parse_bind_address(const QString& text);

// Serves a ClassQuiz over HTTP with Qt's HTTP server: every request goes to ClassApi, and
// /api/live?token=… upgrades to a WebSocket that is told {"version": N} after each change (at
// most ten times a second). Every connection passes a GuardedTcpServer first, which holds it to
// ConnectionLimits (connection_guard.h). Lives on the thread that made it; so does the quiz.
class ClassServer : public QAbstractHttpServer {
    Q_OBJECT
public:
    explicit ClassServer(ClassQuiz& quiz, QObject* parent = nullptr);
    ~ClassServer() override;

    ClassApi& api() { return api_; }
    // Listens on each address (none given: lan_addresses()) at `port` (0: a free one, the same
    // on every address). Returns the port; throws lockstep::Error naming an address that failed.
    // Sets the quiz's addresses to the students' URLs.
    quint16 start(QList<QHostAddress> addresses, quint16 port);
    int live_connections() const { return int(live_.size()); }
    // Journals every change of the quiz in `journal` (which must outlive the server, or be set to
    // nothing first): an answer to a request that changed the quiz waits until the disk holds the
    // change (answer_journal.h's group commit). When the disk fails, those answers are refusals
    // and `on_failure` is told why.
    void set_journal(AnswerJournal* journal, std::function<void(const QString&)> on_failure = {});
    // Answers waiting for the disk.
    int held_answers() const { return int(held_.size()); }

Q_SIGNALS:
    // After every change of the quiz, for the projector.
    void quizChanged();

protected:
    bool handleRequest(const QHttpServerRequest& request, QTcpSocket* socket) override;
    void missingHandler(const QHttpServerRequest& request, QTcpSocket* socket) override;

private:
    void acceptLive();
    void broadcast();
    void synced(qint64 records, bool ok);
    void send(QTcpSocket* socket, const QByteArray& answer);

    ClassQuiz& quiz_;
    ClassApi api_;
    QElapsedTimer clock_;
    QTimer coalesce_;
    QTimer ticks_; // the quiz's clock (ClassQuiz::tick)
    std::shared_ptr<ConnectionTable> connections_;
    struct Live {
        std::unique_ptr<QWebSocket> socket;
        QByteArray token; // whose page it is
    };
    std::vector<Live> live_;
    AnswerJournal* journal_ = nullptr;
    std::function<void(const QString&)> on_journal_failure_;
    struct Held {
        QPointer<QTcpSocket> socket;
        qint64 record; // the answer goes once the disk holds this many records
        QByteArray answer;
    };
    std::deque<Held> held_;
};

// The students' address for a host and port: http://192.168.1.20:8080/ (IPv6 in brackets).
QString student_url(const QHostAddress& address, quint16 port);

} // namespace lockstep::classroom
