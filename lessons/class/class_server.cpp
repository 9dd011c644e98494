#include "lockstep_class/class_server.h"
#include "lockstep_class/answer_journal.h"
#include "lockstep_class/connection_guard.h"

#include "lockstep_lessons/language.h"

#include "core/error.h"

#include <QHttpServerRequest>
#include <QHttpServerResponder>
#include <QJsonDocument>
#include <QJsonObject>
#include <QLoggingCategory>
#include <QNetworkInterface>
#include <QTcpServer>
#include <QTcpSocket>
#include <QUrlQuery>
#include <QWebSocket>

#include <algorithm>

namespace lockstep::classroom {

namespace {

constexpr int kBroadcastMs = 100;
constexpr int kMaxLiveExtra = 50; // sockets beyond one per student: teachers, reloads

QByteArray token_of(const QUrl& url) {
    return QUrlQuery(url).queryItemValue(QStringLiteral("token")).toLatin1();
}

QByteArray method_name(QHttpServerRequest::Method m) {
    switch (m) {
    case QHttpServerRequest::Method::Get:
        return "GET";
    case QHttpServerRequest::Method::Put:
        return "PUT";
    case QHttpServerRequest::Method::Delete:
        return "DELETE";
    case QHttpServerRequest::Method::Post:
        return "POST";
    case QHttpServerRequest::Method::Head:
        return "HEAD";
    case QHttpServerRequest::Method::Options:
        return "OPTIONS";
    case QHttpServerRequest::Method::Patch:
        return "PATCH";
    case QHttpServerRequest::Method::Connect:
        return "CONNECT";
    case QHttpServerRequest::Method::Trace:
        return "TRACE";
    default:
        return "UNKNOWN";
    }
}

} // namespace

bool is_private_address(const QHostAddress& address) {
    if (address.isLoopback())
        return true;
    bool ok = false;
    const quint32 v4 = address.toIPv4Address(&ok);
    if (ok) {
        return (v4 >> 24) == 10 || (v4 >> 20) == ((172u << 4) | 1u) ||
               (v4 >> 16) == ((192u << 8) | 168u) || (v4 >> 16) == ((169u << 8) | 254u);
    }
    if (address.protocol() != QAbstractSocket::IPv6Protocol)
        return false;
    const Q_IPV6ADDR v6 = address.toIPv6Address();
    return (v6[0] & 0xfe) == 0xfc || (v6[0] == 0xfe && (v6[1] & 0xc0) == 0x80);
}

QList<QHostAddress> lan_addresses() {
    QList<QHostAddress> v4;
    QList<QHostAddress> v6;
    for (const QHostAddress& a : QNetworkInterface::allAddresses()) {
        if (a.isLoopback() || !is_private_address(a))
            continue;
        // Link-local IPv6 needs a scope in every URL: browsers do not take it. Leave it out.
        if (a.protocol() == QAbstractSocket::IPv6Protocol && a.isLinkLocal())
            continue;
        (a.protocol() == QAbstractSocket::IPv4Protocol ? v4 : v6).append(a);
    }
    QList<QHostAddress> out = v4 + v6;
    out.append(QHostAddress(QHostAddress::LocalHost));
    return out;
}

QHostAddress parse_bind_address(const QString& text) {
    const QString t = text.trimmed();
    if (t.compare(QLatin1String("localhost"), Qt::CaseInsensitive) == 0)
        return QHostAddress(QHostAddress::LocalHost);
    QHostAddress a;
    if (!a.setAddress(t))
        throw Error(lessons::Text::tr("--bind: '%1' is not an address; give one of this machine's "
                                      "addresses, like 192.168.1.20, or localhost")
                        .arg(t)
                        .toStdString());
    if (a == QHostAddress::AnyIPv4 || a == QHostAddress::AnyIPv6 || a == QHostAddress::Any)
        throw Error(lessons::Text::tr("--bind: '%1' would listen on every address, public ones "
                                      "too; give the classroom network's address")
                        .arg(t)
                        .toStdString());
    if (!is_private_address(a))
        throw Error(
            lessons::Text::tr("--bind: %1 is a public address; a class quiz listens only on "
                              "a private (classroom) network: 10.x, 172.16-31.x, "
                              "192.168.x, 169.254.x, fc00::/7, fe80::/10 or loopback")
                .arg(t)
                .toStdString());
    return a;
}

QString student_url(const QHostAddress& address, quint16 port) {
    const QString host = address.protocol() == QAbstractSocket::IPv6Protocol
                             ? QLatin1Char('[') + address.toString() + QLatin1Char(']')
                             : address.toString();
    return QStringLiteral("http://%1:%2/").arg(host).arg(port);
}

ClassServer::ClassServer(ClassQuiz& quiz, QObject* parent)
    : QAbstractHttpServer(parent)
    , quiz_(quiz)
    , api_(quiz)
    , connections_(std::make_shared<ConnectionTable>(ConnectionLimits{}, quiz.limits().max_body)) {
    clock_.start();
    coalesce_.setSingleShot(true);
    coalesce_.setInterval(kBroadcastMs);
    connect(&coalesce_, &QTimer::timeout, this, &ClassServer::broadcast);
    // A question on a timer closes by itself within a quarter of a second of its time.
    ticks_.setInterval(250);
    connect(&ticks_, &QTimer::timeout, this, [this] { quiz_.tick(clock_.elapsed()); });
    ticks_.start();
    quiz_.set_on_change([this] {
        if (!coalesce_.isActive())
            coalesce_.start();
        Q_EMIT quizChanged();
    });
    connect(this, &QAbstractHttpServer::newWebSocketConnection, this, &ClassServer::acceptLive);
    // Qt's server warns of every refused upgrade; a class that tries sockets without a token
    // would fill the teacher's terminal. The refusal answers the client itself.
    QLoggingCategory::setFilterRules(QStringLiteral("qt.httpserver.warning=false"));
}

ClassServer::~ClassServer() {
    set_journal(nullptr);
    quiz_.set_on_change({});
    // A socket closing as it goes must not call back into the list it is going from.
    for (const Live& live : live_)
        live.socket->disconnect(this);
    live_.clear();
}

quint16 ClassServer::start(QList<QHostAddress> addresses, quint16 port) {
    if (addresses.isEmpty())
        addresses = lan_addresses();
    connections_->set_capacity(
        std::min(connections_->limits().total, connections_the_descriptors_allow()));
    QStringList urls;
    for (const QHostAddress& a : addresses) {
        auto* tcp = new GuardedTcpServer(connections_, this);
        if (!tcp->listen(a, port)) {
            const QString why = tcp->errorString();
            delete tcp;
            throw Error(lessons::Text::tr("class quiz: cannot listen on %1 port %2: %3")
                            .arg(a.toString(), QString::number(port), why)
                            .toStdString());
        }
        port = tcp->serverPort();
        bind(tcp);
        urls << student_url(a, port);
    }
    quiz_.set_addresses(urls);
    return port;
}

bool ClassServer::handleRequest(const QHttpServerRequest& request, QTcpSocket* socket) {
    // Qt's server (6.4) makes a WebSocket of an upgrade request that the handler takes without
    // answering it; one it does not take is closed.
    // Only a student's or the teacher's token (or the teacher's page's cookie) opens a live
    // socket.
    if (request.value("upgrade").compare("websocket", Qt::CaseInsensitive) == 0) {
        const QByteArray token = token_of(request.url());
        return request.url().path() == QLatin1String("/api/live") &&
               (quiz_.may_listen(token, clock_.elapsed()) ||
                (token.isEmpty() && quiz_.is_teacher(teacher_cookie(request.headers()))));
    }
    const qint64 records_before = journal_ ? journal_->written() : 0;
    HttpRequest in;
    in.method = method_name(request.method());
    in.path = request.url().path(QUrl::FullyEncoded).toUtf8();
    in.query = request.url().query(QUrl::FullyEncoded).toUtf8();
    in.headers = request.headers();
    in.body = request.body();
    in.peer = request.remoteAddress().toString();
    in.now_ms = clock_.elapsed();
    const HttpResponse out = api_.handle(in);
    Headers headers = out.headers;
    if (!out.content_type.isEmpty())
        headers.prepend({"Content-Type", out.content_type});
    QByteArray answer = http_answer(out.status, headers, out.body);
    // A request that changed the quiz is answered once the disk holds the change; until then the
    // connection counts as busy, and a second request on it is refused (RequestScanner).
    const qint64 records = journal_ ? journal_->written() : 0;
    if (records > records_before && records > journal_->synced()) {
        held_.push_back(Held{socket, records, std::move(answer)});
        return true;
    }
    send(socket, answer);
    return true;
}

void ClassServer::send(QTcpSocket* socket, const QByteArray& answer) {
    socket->write(answer);
    if (ConnectionWatch* watch = ConnectionWatch::of(socket))
        watch->answered();
}

void ClassServer::set_journal(AnswerJournal* journal,
                              std::function<void(const QString&)> on_failure) {
    if (journal_)
        journal_->set_on_synced({});
    journal_ = journal;
    on_journal_failure_ = std::move(on_failure);
    if (!journal_) {
        quiz_.set_journal({});
        return;
    }
    quiz_.set_journal([journal](const QJsonObject& record) { return journal->write(record); });
    // Called on the journal's thread: the answers go out on this one.
    QPointer<ClassServer> self(this);
    journal_->set_on_synced([self](qint64 records, bool ok) {
        QMetaObject::invokeMethod(
            self.data(), [self, records, ok] { self->synced(records, ok); }, Qt::QueuedConnection);
    });
}

void ClassServer::synced(qint64 records, bool ok) {
    if (!ok) {
        // The disk failed: nothing held is known to be on it. Each is refused, and the journal
        // takes nothing more, so every later change is refused too (ClassQuiz::set_journal).
        const QString why = journal_ ? journal_->error() : QString();
        for (const Held& held : held_)
            if (held.socket)
                send(held.socket,
                     http_answer(
                         503, {{"Content-Type", "application/json; charset=utf-8"}},
                         QJsonDocument(
                             QJsonObject{{QStringLiteral("error"),
                                          lessons::Text::tr("The teacher's computer could not save "
                                                            "this; tell the teacher.")}})
                             .toJson(QJsonDocument::Compact)));
        held_.clear();
        if (on_journal_failure_)
            on_journal_failure_(why);
        return;
    }
    while (!held_.empty() && held_.front().record <= records) {
        if (held_.front().socket)
            send(held_.front().socket, held_.front().answer);
        held_.pop_front();
    }
}

void ClassServer::missingHandler(const QHttpServerRequest& request, QTcpSocket* socket) {
    if (request.value("upgrade").compare("websocket", Qt::CaseInsensitive) == 0) {
        // A socket with no good token, or at another path: refused with a reason, then closed.
        socket->write(closing_answer(
            403, lessons::Text::tr("Live updates are for the students who joined and the "
                                   "teacher: the address needs their token.")));
        return;
    }
    makeResponder(request, socket).write(QHttpServerResponder::StatusCode::NotFound);
    if (ConnectionWatch* watch = ConnectionWatch::of(socket))
        watch->answered();
}

void ClassServer::acceptLive() {
    while (hasPendingWebSocketConnections()) {
        std::unique_ptr<QWebSocket> socket = nextPendingWebSocketConnection();
        if (!socket)
            continue;
        // Students only listen: anything they send is dropped, and a message longer than a
        // kilobyte closes the socket before it is read.
        const ConnectionLimits& limits = connections_->limits();
        socket->setMaxAllowedIncomingFrameSize(quint64(limits.max_live_message));
        socket->setMaxAllowedIncomingMessageSize(quint64(limits.max_live_message));
        const QByteArray token = token_of(socket->requestUrl());
        if (socket->requestUrl().path() != QLatin1String("/api/live") ||
            int(live_.size()) >= quiz_.limits().max_students + kMaxLiveExtra) {
            socket->close(QWebSocketProtocol::CloseCodePolicyViolated);
            socket.release()->deleteLater();
            continue;
        }
        // A page opened again replaces the oldest socket of its token.
        const auto same = [&token](const Live& l) {
            return l.token == token && l.socket->state() == QAbstractSocket::ConnectedState;
        };
        if (std::count_if(live_.begin(), live_.end(), same) >= limits.live_per_token)
            std::find_if(live_.begin(), live_.end(), same)
                ->socket->close(QWebSocketProtocol::CloseCodeNormal);
        QWebSocket* raw = socket.get();
        connect(raw, &QWebSocket::disconnected, this, [this, raw] {
            const auto it = std::find_if(live_.begin(), live_.end(),
                                         [raw](const Live& l) { return l.socket.get() == raw; });
            if (it != live_.end()) {
                it->socket.release()->deleteLater();
                live_.erase(it);
            }
        });
        raw->sendTextMessage(QStringLiteral("{\"version\":%1}").arg(quiz_.version()));
        live_.push_back(Live{std::move(socket), token});
    }
}

void ClassServer::broadcast() {
    const QString message = QStringLiteral("{\"version\":%1}").arg(quiz_.version());
    for (const Live& live : live_)
        live.socket->sendTextMessage(message);
}

} // namespace lockstep::classroom
