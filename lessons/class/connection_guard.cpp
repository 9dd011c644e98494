#include "lockstep_class/connection_guard.h"

#include "lockstep_lessons/language.h"

#include <QJsonDocument>
#include <QJsonObject>
#include <QTcpSocket>

#include <sys/resource.h>

#include <algorithm>

namespace lockstep::classroom {

namespace {

// A client that is refused but never reads its answer is cut off after this long.
constexpr int kLingerMs = 2000;
// Descriptors kept for everything but connections: files, the display, Qt's own.
constexpr rlim_t kSpareDescriptors = 128;

QByteArray reason_phrase(int status) {
    switch (status) {
    case 200:
        return "OK";
    case 204:
        return "No Content";
    case 303:
        return "See Other";
    case 304:
        return "Not Modified";
    case 401:
        return "Unauthorized";
    case 403:
        return "Forbidden";
    case 404:
        return "Not Found";
    case 405:
        return "Method Not Allowed";
    case 409:
        return "Conflict";
    case 415:
        return "Unsupported Media Type";
    case 421:
        return "Misdirected Request";
    case 422:
        return "Unprocessable Content";
    case 429:
        return "Too Many Requests";
    case 500:
        return "Internal Server Error";
    case 400:
        return "Bad Request";
    case 408:
        return "Request Timeout";
    case 411:
        return "Length Required";
    case 413:
        return "Payload Too Large";
    case 414:
        return "URI Too Long";
    case 431:
        return "Request Header Fields Too Large";
    case 503:
        return "Service Unavailable";
    default:
        return "Error";
    }
}

// Writes the answer, lets the socket close after it, and cuts it off if the client never reads.
void close_with(QTcpSocket* socket, const QByteArray& answer) {
    socket->write(answer);
    socket->disconnectFromHost();
    QTimer::singleShot(kLingerMs, socket, [socket] { socket->abort(); });
}

} // namespace

QByteArray http_answer(int status, const QList<std::pair<QByteArray, QByteArray>>& headers,
                       const QByteArray& body) {
    QByteArray out =
        "HTTP/1.1 " + QByteArray::number(status) + ' ' + reason_phrase(status) + "\r\n";
    for (const auto& [key, value] : headers)
        out += key + ": " + value + "\r\n";
    return out + "Content-Length: " + QByteArray::number(body.size()) + "\r\n\r\n" + body;
}

QByteArray closing_answer(int status, const QString& reason) {
    return http_answer(status,
                       {{"Content-Type", "application/json; charset=utf-8"},
                        {"Connection", "close"},
                        {"Cache-Control", "no-store"},
                        {"X-Content-Type-Options", "nosniff"}},
                       QJsonDocument(QJsonObject{{QStringLiteral("error"), reason}})
                           .toJson(QJsonDocument::Compact));
}

int connections_the_descriptors_allow() {
    rlimit limit{};
    if (::getrlimit(RLIMIT_NOFILE, &limit) != 0)
        return 256;
    if (limit.rlim_cur < limit.rlim_max) {
        rlimit raised = limit;
        raised.rlim_cur = limit.rlim_max == RLIM_INFINITY ? rlim_t(65536) : limit.rlim_max;
        if (::setrlimit(RLIMIT_NOFILE, &raised) == 0)
            limit = raised;
    }
    if (limit.rlim_cur == RLIM_INFINITY || limit.rlim_cur > rlim_t(1) << 20)
        return 1 << 20;
    return limit.rlim_cur > 2 * kSpareDescriptors ? int(limit.rlim_cur - kSpareDescriptors)
                                                  : int(limit.rlim_cur / 2);
}

ConnectionTable::ConnectionTable(const ConnectionLimits& limits, qint64 max_body)
    : limits_(limits)
    , max_body_(max_body)
    , capacity_(limits.total) {
    clock_.start();
}

std::optional<QString> ConnectionTable::admit(const QHostAddress& address) {
    if (by_address_.value(address) >= limits_.per_address) {
        return lessons::Text::tr("Too many connections from your address (at most %1); close "
                                 "some pages and try again.")
            .arg(limits_.per_address);
    }
    if (open() >= capacity_) {
        // Full: the connection idle the longest makes room, if there is one.
        ConnectionWatch* oldest = nullptr;
        for (ConnectionWatch* w : watches_)
            if (w->idle() && (!oldest || w->last_active_ms() < oldest->last_active_ms()))
                oldest = w;
        if (!oldest)
            return lessons::Text::tr("The class server is full; try again in a moment.");
        oldest->close_idle();
    }
    return std::nullopt;
}

void ConnectionTable::add(ConnectionWatch* watch) {
    watches_.push_back(watch);
    ++by_address_[watch->address()];
}

void ConnectionTable::forget(ConnectionWatch* watch) {
    const auto it = std::find(watches_.begin(), watches_.end(), watch);
    if (it == watches_.end())
        return;
    watches_.erase(it);
    const auto n = by_address_.find(watch->address());
    if (n != by_address_.end() && --n.value() <= 0)
        by_address_.erase(n);
}

ConnectionWatch::ConnectionWatch(QTcpSocket* socket, const std::shared_ptr<ConnectionTable>& table)
    : QObject(socket)
    , socket_(socket)
    , table_(table)
    , address_(socket->peerAddress())
    , limits_(table->limits())
    , scanner_(limits_, table->max_body())
    , last_active_ms_(table->now_ms()) {
    deadline_.setSingleShot(true);
    connect(&deadline_, &QTimer::timeout, this, &ConnectionWatch::on_deadline);
    // Connected before Qt's server connects its own, so this sees every chunk first.
    connect(socket, &QTcpSocket::readyRead, this, &ConnectionWatch::on_ready_read);
    socket->setReadBufferSize(limits_.read_buffer);
    deadline_.start(limits_.idle_timeout_ms);
    table->add(this);
}

ConnectionWatch::~ConnectionWatch() {
    if (const auto t = table_.lock())
        t->forget(this);
}

ConnectionWatch* ConnectionWatch::of(QTcpSocket* socket) {
    return socket ? socket->findChild<ConnectionWatch*>(QString(), Qt::FindDirectChildrenOnly)
                  : nullptr;
}

bool ConnectionWatch::idle() const {
    return !closing_ && !scanner_.in_request() && !scanner_.upgraded();
}

void ConnectionWatch::close_idle() {
    closing_ = true;
    deadline_.stop();
    socket_->abort();
}

void ConnectionWatch::answered() {
    const auto t = table_.lock();
    if (!t || closing_ || scanner_.upgraded())
        return;
    last_active_ms_ = t->now_ms();
    if (scanner_.close_after()) {
        closing_ = true;
        deadline_.stop();
        socket_->disconnectFromHost();
        return;
    }
    if (!scanner_.in_request())
        deadline_.start(limits_.idle_timeout_ms);
}

void ConnectionWatch::on_ready_read() {
    const auto t = table_.lock();
    if (!t)
        return;
    if (closing_) {
        // Refused: what still comes is read and dropped (the read buffer bounds it).
        socket_->skip(socket_->bytesAvailable());
        return;
    }
    const bool was_in_request = scanner_.in_request();
    const RequestScanner::Refusal refusal = scanner_.feed(socket_->peek(socket_->bytesAvailable()));
    last_active_ms_ = t->now_ms();
    if (refusal) {
        refuse(refusal);
        return;
    }
    if (scanner_.upgraded()) {
        deadline_.stop(); // a live socket: QWebSocket holds it to its own limits
        return;
    }
    // A request's whole deadline starts at its first byte; bytes that trickle do not move it.
    if (scanner_.in_request() && !was_in_request)
        deadline_.start(limits_.header_timeout_ms);
}

void ConnectionWatch::on_deadline() {
    if (closing_ || scanner_.upgraded())
        return;
    if (scanner_.in_request()) {
        refuse({408, lessons::Text::tr("The request took too long to arrive: at most %1 s.")
                         .arg(limits_.header_timeout_ms / 1000)});
        return;
    }
    closing_ = true;
    close_with(socket_, {}); // idle: nothing to say
}

void ConnectionWatch::refuse(const RequestScanner::Refusal& refusal) {
    closing_ = true;
    deadline_.stop();
    // What Qt's parser has not read yet never reaches it: it waits for more, and the socket closes.
    socket_->skip(socket_->bytesAvailable());
    close_with(socket_, closing_answer(refusal.status, refusal.reason));
}

GuardedTcpServer::GuardedTcpServer(std::shared_ptr<ConnectionTable> table, QObject* parent)
    : QTcpServer(parent)
    , table_(std::move(table)) {}

void GuardedTcpServer::incomingConnection(qintptr descriptor) {
    auto* socket = new QTcpSocket(this);
    if (!socket->setSocketDescriptor(descriptor)) {
        delete socket;
        return;
    }
    if (const std::optional<QString> why = table_->admit(socket->peerAddress())) {
        connect(socket, &QTcpSocket::disconnected, socket, &QObject::deleteLater);
        close_with(socket, closing_answer(503, *why));
        return;
    }
    new ConnectionWatch(socket, table_);
    addPendingConnection(socket);
}

} // namespace lockstep::classroom
