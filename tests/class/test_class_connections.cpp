// The class server's limits on connections (docs/CLASS.md, "Limits"), each tried as a class that
// wants to break it would, against `lockstep-cli class serve` in its own process: the test reads
// the server's memory and descriptors from /proc, not only the status it answers. Every address
// is on this computer (127.0.0.0/8).
#include "lockstep_class/connection_limits.h"

#include "class_support.h"

#include <QElapsedTimer>
#include <QTest>
#include <QWebSocket>

#include <arpa/inet.h>
#include <netinet/in.h>
#include <poll.h>
#include <sys/socket.h>
#include <unistd.h>

#include <memory>
#include <vector>

using namespace lockstep;
using namespace lockstep::classroom;
using lockstep::testing::open_descriptors;
using lockstep::testing::peak_rss_kib;
using lockstep::testing::ServeProcess;

namespace {

// A plain TCP connection to the server from a loopback address, with blocking calls that wait
// at most as long as they are told.
class Raw {
public:
    Raw(quint16 port, const char* from = "127.0.0.1") {
        fd_ = ::socket(AF_INET, SOCK_STREAM, 0);
        sockaddr_in local{};
        local.sin_family = AF_INET;
        ::inet_pton(AF_INET, from, &local.sin_addr);
        sockaddr_in server{};
        server.sin_family = AF_INET;
        server.sin_port = htons(port);
        ::inet_pton(AF_INET, "127.0.0.1", &server.sin_addr);
        if (fd_ < 0 || ::bind(fd_, reinterpret_cast<sockaddr*>(&local), sizeof local) != 0 ||
            ::connect(fd_, reinterpret_cast<sockaddr*>(&server), sizeof server) != 0) {
            close();
        }
    }
    ~Raw() { close(); }
    Raw(const Raw&) = delete;
    Raw& operator=(const Raw&) = delete;

    bool connected() const { return fd_ >= 0; }

    // Sends all of `bytes`, or stops when the server has closed the connection (false).
    bool send(const QByteArray& bytes) {
        qsizetype done = 0;
        while (fd_ >= 0 && done < bytes.size()) {
            pollfd p{fd_, POLLOUT, 0};
            if (::poll(&p, 1, 5000) != 1 || (p.revents & (POLLERR | POLLHUP)))
                return false;
            const ssize_t n = ::send(fd_, bytes.constData() + done,
                                     std::size_t(bytes.size() - done), MSG_NOSIGNAL | MSG_DONTWAIT);
            if (n < 0 && errno != EAGAIN)
                return false;
            done += n > 0 ? n : 0;
        }
        return fd_ >= 0;
    }

    // What the server sends until it closes the connection or `ms` pass; `closed` says which.
    QByteArray read(int ms, bool* closed = nullptr) {
        QByteArray got;
        QElapsedTimer clock;
        clock.start();
        bool eof = false;
        while (fd_ >= 0 && !eof && clock.elapsed() < ms) {
            pollfd p{fd_, POLLIN, 0};
            if (::poll(&p, 1, int(std::max<qint64>(1, ms - clock.elapsed()))) != 1)
                break;
            char buffer[4096];
            const ssize_t n = ::recv(fd_, buffer, sizeof buffer, 0);
            if (n <= 0)
                eof = true;
            else
                got.append(buffer, n);
        }
        if (closed)
            *closed = eof;
        return got;
    }

    // True when the server has closed the connection (EOF or reset) by now.
    bool closed_by_server() {
        pollfd p{fd_, POLLIN, 0};
        if (fd_ < 0 || ::poll(&p, 1, 0) != 1)
            return fd_ < 0;
        char c = 0;
        const ssize_t n = ::recv(fd_, &c, 1, MSG_PEEK | MSG_DONTWAIT);
        return n == 0 || (n < 0 && errno != EAGAIN);
    }

    void close() {
        if (fd_ >= 0)
            ::close(fd_);
        fd_ = -1;
    }

private:
    int fd_ = -1;
};

// Sends `chunk` up to `times` times, until the server stops taking it; how many times it went.
int stream(Raw& raw, const QByteArray& chunk, int times) {
    int sent = 0;
    while (sent < times && raw.send(chunk))
        ++sent;
    return sent;
}

// Empty when the server's peak RSS grew by less than `kib` since `before`; else by how much.
QString peak_grew_past(qint64 pid, qint64 before, qint64 kib) {
    const qint64 grew = peak_rss_kib(pid) - before;
    return grew < kib ? QString() : QStringLiteral("peak RSS grew %1 KiB").arg(grew);
}

int status_of(const QByteArray& answer) {
    return answer.startsWith("HTTP/1.1 ") ? answer.mid(9, 3).toInt() : 0;
}

// The scanner's verdict on bytes fed in chunks of `chunk` (0: all at once).
RequestScanner::Refusal scan(const QByteArray& bytes, qsizetype chunk = 0) {
    RequestScanner scanner(ConnectionLimits{}, 4096);
    RequestScanner::Refusal r;
    const qsizetype step = chunk > 0 ? chunk : std::max<qsizetype>(1, bytes.size());
    for (qsizetype i = 0; i < bytes.size() && !r; i += step)
        r = scanner.feed(QByteArrayView(bytes).sliced(i, std::min(step, bytes.size() - i)));
    return r;
}

} // namespace

class TestClassConnections : public QObject {
    Q_OBJECT

private Q_SLOTS:
    // The scanner decides from the bytes alone, the same however they are split.
    void the_scanner_refuses_at_the_first_broken_limit() {
        const ConnectionLimits limits;
        const struct {
            QByteArray bytes;
            int status;
        } cases[] = {
            {"GET / HTTP/1.1\r\nHost: a\r\n\r\n", 0},
            {"\r\nGET /api/state HTTP/1.1\nHost: a\n\n", 0},
            {"POST /api/join HTTP/1.1\r\nContent-Length: 5\r\n\r\nhello", 0},
            {"POST /api/join HTTP/1.1\r\nContent-Length: 4097\r\n", 413},
            {"POST /api/join HTTP/1.1\r\nContent-Length: 1073741824\r\n", 413},
            {"POST / HTTP/1.1\r\nTransfer-Encoding: chunked\r\n\r\n", 411},
            {"POST / HTTP/1.1\r\nContent-Length: 12a\r\n\r\n", 400},
            {"POST / HTTP/1.1\r\nContent-Length: 2\r\nContent-Length: 3\r\n\r\n", 400},
            {"GET /" + QByteArray(limits.max_request_line, 'a'), 414},
            {"GET / HTTP/1.1\r\nX: " + QByteArray(limits.max_header_bytes, 'b'), 431},
            {"GET / HTTP/1.1\r\n" + QByteArray("X: y\r\n").repeated(limits.max_headers + 1), 431},
            {"garbage\r\n", 400},
            {"GET / HTTP/1.1\r\nno colon here\r\n", 400},
        };
        for (const auto& c : cases) {
            for (const qsizetype chunk : {qsizetype(0), qsizetype(1), qsizetype(7)}) {
                const auto r = scan(c.bytes, chunk);
                const int expected = c.status;
                if (r.status != expected)
                    QFAIL(qPrintable(QStringLiteral("%1 (chunks of %2): %3, not %4")
                                         .arg(QString::fromLatin1(c.bytes.left(60)))
                                         .arg(chunk)
                                         .arg(r.status)
                                         .arg(expected)));
                QCOMPARE(r.reason.isEmpty(), expected == 0);
            }
        }
        // A second request before the first one's answer (it comes in the same chunk) is
        // refused; after it, it is welcome.
        const QByteArray two = "GET / HTTP/1.1\r\n\r\nGET / HTTP/1.1\r\n\r\n";
        QCOMPARE(scan(two).status, 400);
        QCOMPARE(scan(two, 1).status, 0);
        // A refusal holds for every byte after it.
        RequestScanner refused(limits, 4096);
        QCOMPARE(refused.feed("garbage\r\n").status, 400);
        QCOMPARE(refused.feed("GET / HTTP/1.1\r\n\r\n").status, 400);
    }

    void the_scanner_knows_where_a_request_ends() {
        RequestScanner s(ConnectionLimits{}, 4096);
        QVERIFY(!s.feed("POST /api/answer HTTP/1.1\r\nContent-Length: 10\r\n\r\n12345"));
        QVERIFY(s.in_request());
        QVERIFY(!s.feed("67890"));
        QVERIFY(!s.in_request());
        QCOMPARE(s.requests(), 1);
        QVERIFY(!s.close_after());
        QVERIFY(!s.feed("GET / HTTP/1.1\r\nConnection: keep-alive, close\r\n\r\n"));
        QVERIFY(s.close_after());
        QVERIFY(!s.feed("GET / HTTP/1.0\r\n\r\n"));
        QVERIFY(s.close_after()); // HTTP/1.0 closes unless it asks to stay
        QVERIFY(!s.feed("GET / HTTP/1.0\r\nConnection: keep-alive\r\n\r\n"));
        QVERIFY(!s.close_after());
        // An upgrade: what follows is a WebSocket's frames, not HTTP.
        QVERIFY(!s.feed("GET /api/live?token=x HTTP/1.1\r\nUpgrade: websocket\r\nConnection: "
                        "Upgrade\r\n\r\n"));
        QVERIFY(s.upgraded());
        QVERIFY(!s.feed(QByteArray("\x81\x85\x00\x00\x00\x00hello", 11)));
        QCOMPARE(s.requests(), 5);
    }

    // A gigabyte announced is refused from its Content-Length; streamed anyway, it never
    // reaches the server's memory.
    void a_body_too_large_is_refused_before_it_is_read() {
        ServeProcess serve;
        QVERIFY(serve.start({}, 0, "B"));
        const qint64 before = peak_rss_kib(serve.pid());
        Raw raw(serve.port);
        QVERIFY(raw.connected());
        QVERIFY(raw.send("POST /api/join HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: "
                         "application/json\r\nContent-Length: 1073741824\r\n\r\n"));
        QCOMPARE(status_of(raw.read(5000)), 413);
        const int sent = stream(raw, QByteArray(1 << 20, '0'), 256);
        QVERIFY2(sent < 64, qPrintable(QStringLiteral("the server took %1 MiB").arg(sent)));
        const QString grew = peak_grew_past(serve.pid(), before, 32 * 1024);
        QVERIFY2(grew.isEmpty(), qPrintable(grew));
    }

    // Long addresses, long headers and many headers: refused with their reason, and a stream of
    // them leaves the server's memory where it was.
    void long_addresses_and_headers_are_refused() {
        ServeProcess serve;
        QVERIFY(serve.start({}, 0, "H"));
        const qint64 before = peak_rss_kib(serve.pid());
        const struct {
            QByteArray request;
            int status;
        } cases[] = {
            {"GET /" + QByteArray(3000, 'a') + " HTTP/1.1\r\n\r\n", 414},
            {"GET / HTTP/1.1\r\nCookie: " + QByteArray(9000, 'c') + "\r\n\r\n", 431},
            {"GET / HTTP/1.1\r\n" + QByteArray("X-A: b\r\n").repeated(100) + "\r\n", 431},
        };
        for (const auto& c : cases) {
            Raw raw(serve.port);
            QVERIFY(raw.send(c.request));
            bool closed = false;
            const QByteArray answer = raw.read(5000, &closed);
            QCOMPARE(status_of(answer), c.status);
            QVERIFY(answer.contains("\"error\""));
            QVERIFY(closed);
        }
        // Sixteen mebibytes of one header, and of an address: cut off early.
        for (const QByteArray& start :
             {QByteArray("GET / HTTP/1.1\r\nX-Big: "), QByteArray("GET /")}) {
            Raw raw(serve.port);
            QVERIFY(raw.send(start));
            QVERIFY2(stream(raw, QByteArray(1 << 20, 'z'), 16) < 16,
                     "the server read a 16 MiB header to its end");
        }
        const QString grew = peak_grew_past(serve.pid(), before, 16 * 1024);
        QVERIFY2(grew.isEmpty(), qPrintable(grew));
    }

    // Connections that say nothing, and one that sends a byte a second, are closed: the idle
    // within 20 s, the slow one at 10 s with 408; the server's descriptors come back.
    void idle_and_slow_connections_are_closed() {
        ServeProcess serve;
        QVERIFY(serve.start({}, 0, "I"));
        const int before = open_descriptors(serve.pid());
        std::vector<std::unique_ptr<Raw>> idle;
        for (int i = 0; i < 40; ++i)
            idle.push_back(std::make_unique<Raw>(serve.port, "127.0.0.4"));
        Raw slow(serve.port, "127.0.0.5");
        QVERIFY(slow.send("GET /api/state HTTP/1.1\r\nX-Slow: "));
        QTRY_VERIFY_WITH_TIMEOUT(open_descriptors(serve.pid()) >= before + 41, 5000);
        QElapsedTimer clock;
        clock.start();
        QByteArray slow_answer;
        bool slow_closed = false;
        while (!slow_closed && clock.elapsed() < 15000) {
            slow.send("a");
            slow_answer += slow.read(1000, &slow_closed);
        }
        QCOMPARE(status_of(slow_answer), 408);
        QVERIFY(slow_closed);
        QVERIFY2(clock.elapsed() >= 9000, "the slow request was cut off before its 10 s");
        QTRY_VERIFY_WITH_TIMEOUT(std::all_of(idle.begin(), idle.end(),
                                             [](const auto& r) { return r->closed_by_server(); }),
                                 30000);
        QTRY_VERIFY_WITH_TIMEOUT(open_descriptors(serve.pid()) <= before, 5000);
    }

    // One address may hold 256 connections; the next is refused with a reason, and the rest of
    // the class is served.
    void one_address_cannot_take_every_connection() {
        ServeProcess serve;
        QVERIFY(serve.start({}, 0, "A"));
        const int before = open_descriptors(serve.pid());
        const ConnectionLimits limits;
        std::vector<std::unique_ptr<Raw>> held;
        for (int i = 0; i < limits.per_address; ++i) {
            held.push_back(std::make_unique<Raw>(serve.port, "127.0.0.2"));
            QVERIFY(held.back()->connected());
        }
        QTRY_VERIFY_WITH_TIMEOUT(open_descriptors(serve.pid()) >= before + limits.per_address,
                                 5000);
        for (int i = 0; i < 5; ++i) {
            Raw more(serve.port, "127.0.0.2");
            bool closed = false;
            const QByteArray answer = more.read(5000, &closed);
            QCOMPARE(status_of(answer), 503);
            QVERIFY(closed);
        }
        QCOMPARE(serve.client->get("/").status, 200);
        QVERIFY(open_descriptors(serve.pid()) <= before + limits.per_address + 2);
    }

    // When every connection the descriptors allow is taken, the one idle the longest makes room.
    void a_full_server_closes_its_longest_idle_connection() {
        ServeProcess serve;
        QVERIFY(serve.start({}, 0, "F", 300)); // room for 300 - 128 connections
        std::vector<std::unique_ptr<Raw>> held;
        for (int i = 0; i < 172; ++i) {
            held.push_back(std::make_unique<Raw>(serve.port, i % 2 ? "127.0.0.6" : "127.0.0.7"));
            QVERIFY(held.back()->connected());
        }
        QTRY_VERIFY_WITH_TIMEOUT(open_descriptors(serve.pid()) >= 172, 5000);
        QCOMPARE(serve.client->get("/").status, 200);
        QTRY_VERIFY_WITH_TIMEOUT(held.front()->closed_by_server(), 5000);
        QVERIFY(!held.back()->closed_by_server());
        QVERIFY(open_descriptors(serve.pid()) <= 300);
    }

    void connection_close_is_honoured() {
        ServeProcess serve;
        QVERIFY(serve.start({}, 0, "C"));
        Raw raw(serve.port);
        QVERIFY(
            raw.send("GET /class.css HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n"));
        bool closed = false;
        const QByteArray answer = raw.read(5000, &closed);
        QCOMPARE(status_of(answer), 200);
        QVERIFY(closed);
    }

    // A live socket needs a student's or the teacher's token; tokenless ones are closed and
    // give back their descriptors; a long message closes the socket before it is read; a token
    // holds at most three.
    void live_sockets_need_a_token_and_stay_small() {
        ServeProcess serve;
        QVERIFY(serve.start({}, 1, "W"));
        const int before = open_descriptors(serve.pid());
        const QString base = QStringLiteral("ws://127.0.0.1:%1/api/live").arg(serve.port);

        std::vector<std::unique_ptr<QWebSocket>> strangers;
        int refused = 0;
        for (int i = 0; i < 60; ++i) {
            strangers.push_back(std::make_unique<QWebSocket>());
            connect(strangers.back().get(), &QWebSocket::stateChanged, this,
                    [&](QAbstractSocket::SocketState state) {
                        refused += state == QAbstractSocket::UnconnectedState ? 1 : 0;
                    });
            strangers.back()->open(QUrl(base + (i % 2 ? "?token=0123456789abcdef" : "")));
        }
        QTRY_COMPARE_WITH_TIMEOUT(refused, 60, 10000);
        QTRY_VERIFY_WITH_TIMEOUT(open_descriptors(serve.pid()) <= before, 5000);

        const QString mine = base + "?token=" + QString::fromLatin1(serve.tokens.front());
        QWebSocket socket;
        QStringList messages;
        bool closed = false;
        connect(&socket, &QWebSocket::textMessageReceived, this,
                [&](const QString& m) { messages << m; });
        connect(&socket, &QWebSocket::disconnected, this, [&] { closed = true; });
        socket.open(QUrl(mine));
        QTRY_VERIFY_WITH_TIMEOUT(!messages.isEmpty(), 5000);
        QVERIFY(messages.front().contains("version"));

        std::vector<std::unique_ptr<QWebSocket>> again;
        int open_again = 0;
        for (int i = 0; i < 4; ++i) {
            again.push_back(std::make_unique<QWebSocket>());
            connect(again.back().get(), &QWebSocket::connected, this, [&] { ++open_again; });
            again.back()->open(QUrl(mine));
        }
        QTRY_COMPARE_WITH_TIMEOUT(open_again, 4, 5000);
        QTRY_VERIFY_WITH_TIMEOUT(closed, 5000); // the oldest of five made room
        const auto still_open = [&again] {
            return std::count_if(again.begin(), again.end(), [](const auto& s) {
                return s->state() == QAbstractSocket::ConnectedState;
            });
        };
        QTRY_COMPARE_WITH_TIMEOUT(still_open(), 3, 5000);

        const qint64 rss = peak_rss_kib(serve.pid());
        QWebSocket* talker = again.back().get();
        bool talker_closed = false;
        connect(talker, &QWebSocket::disconnected, this, [&] { talker_closed = true; });
        talker->sendTextMessage(QString(32 << 20, QLatin1Char('x')));
        QTRY_VERIFY_WITH_TIMEOUT(talker_closed, 10000);
        const QString grew = peak_grew_past(serve.pid(), rss, 8 * 1024);
        QVERIFY2(grew.isEmpty(), qPrintable(grew));
    }
};

QTEST_GUILESS_MAIN(TestClassConnections)
#include "test_class_connections.moc"
