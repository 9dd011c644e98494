#pragma once

#include "lockstep_class/connection_limits.h"

#include <QElapsedTimer>
#include <QHash>
#include <QHostAddress>
#include <QTcpServer>
#include <QTimer>

#include <memory>
#include <optional>
#include <vector>

class QTcpSocket;

// The door of the class server: every connection passes it before Qt's HTTP server sees it, and
// is held to ConnectionLimits for as long as it lasts (docs/CLASS.md, "Limits").
namespace lockstep::classroom {

class ConnectionWatch;

// The connections open now, by address, and what the limits did to them.
class ConnectionTable {
public:
    ConnectionTable(const ConnectionLimits& limits, qint64 max_body);

    const ConnectionLimits& limits() const { return limits_; }
    qint64 max_body() const { return max_body_; }
    // The total the descriptors allow: limits().total, or fewer.
    int capacity() const { return capacity_; }
    void set_capacity(int capacity) { capacity_ = capacity; }

    int open() const { return int(watches_.size()); }

    // A new connection from `address`: nullopt when it may stay (the longest idle connection may
    // have been closed for it), else why not.
    std::optional<QString> admit(const QHostAddress& address);
    void add(ConnectionWatch* watch);
    void forget(ConnectionWatch* watch);
    qint64 now_ms() const { return clock_.elapsed(); }

private:
    ConnectionLimits limits_;
    qint64 max_body_;
    int capacity_;
    std::vector<ConnectionWatch*> watches_;
    QHash<QHostAddress, int> by_address_;
    QElapsedTimer clock_;
};

// One connection's guard, a child of its socket: it reads ahead of Qt's parser (a peek, so the
// parser still gets every byte), closes the connection at the first broken limit with a status
// and a sentence, and closes it when it is idle or slow. Lives as long as the socket.
class ConnectionWatch : public QObject {
    Q_OBJECT
public:
    ConnectionWatch(QTcpSocket* socket, const std::shared_ptr<ConnectionTable>& table);
    ~ConnectionWatch() override;

    // The guard of a socket Qt's server handed to a handler, or null.
    static ConnectionWatch* of(QTcpSocket* socket);

    // A request was answered: the idle time starts again, and the connection closes if the
    // request asked for it.
    void answered();
    // Idle: no request under way and no WebSocket, so it may be closed for a new connection.
    bool idle() const;
    qint64 last_active_ms() const { return last_active_ms_; }
    QHostAddress address() const { return address_; }
    // Closes the connection now (it was idle the longest when the server was full).
    void close_idle();

private:
    void on_ready_read();
    void on_deadline();
    void refuse(const RequestScanner::Refusal& refusal);

    QTcpSocket* socket_;
    std::weak_ptr<ConnectionTable> table_; // the server's, which may go first
    QHostAddress address_;
    ConnectionLimits limits_;
    RequestScanner scanner_;
    QTimer deadline_;
    qint64 last_active_ms_ = 0;
    bool closing_ = false;
};

// A QTcpServer that admits each connection through a ConnectionTable and gives it a
// ConnectionWatch before handing it on (QAbstractHttpServer::bind() takes it from here).
class GuardedTcpServer : public QTcpServer {
    Q_OBJECT
public:
    GuardedTcpServer(std::shared_ptr<ConnectionTable> table, QObject* parent = nullptr);

protected:
    void incomingConnection(qintptr descriptor) override;

private:
    std::shared_ptr<ConnectionTable> table_;
};

// Raises this process's limit of open descriptors as far as the system lets it, and returns the
// connections it leaves room for (some descriptors stay for files and the GUI).
int connections_the_descriptors_allow();

// An HTTP/1.1 answer with a JSON {"error": reason} body that closes the connection, for a
// refusal made before Qt's server has the request.
QByteArray closing_answer(int status, const QString& reason);
// An HTTP/1.1 answer: the status line, the headers, Content-Length and the body.
QByteArray http_answer(int status, const QList<std::pair<QByteArray, QByteArray>>& headers,
                       const QByteArray& body);

} // namespace lockstep::classroom
