#pragma once

#include <QByteArray>
#include <QByteArrayView>
#include <QString>

// What one connection to the class server may cost it, and the scanner that holds a client's
// bytes to it before Qt's HTTP parser reads them (docs/CLASS.md, "Limits"). A class of teenagers
// will open connections and never speak, speak one byte a second, or send a gigabyte: each is
// refused from what arrives first, so that no client holds more than a few kilobytes of the
// server's memory or one of its descriptors for long.
namespace lockstep::classroom {

// Every limit on a connection, with its reason. ClassLimits (class_quiz.h) holds the quiz's
// own: students, names, answers, joins, requests a second and the body's size.
struct ConnectionLimits {
    // A request, its line, headers and body, must all arrive within 10 s of its first byte: a
    // client that sends a byte now and then (slowloris) cannot hold a connection open. A browser
    // on a classroom network sends a request in one packet.
    int header_timeout_ms = 10'000;
    // A connection that asks nothing for 20 s is closed; a browser opens another when it needs
    // one (Chromium keeps an idle one for up to 5 minutes otherwise).
    int idle_timeout_ms = 20'000;
    // The longest address the pages ask for is under 100 bytes.
    int max_request_line = 2048;
    // A browser sends under 2 KiB of headers here: the pages set one cookie.
    int max_header_bytes = 8192;
    int max_headers = 48;
    // Connections from one address at once: a class of 30 behind one router (NAT), each browser
    // with its six connections and the live socket, stays under it; one machine cannot take
    // the server's descriptors. An address over it is refused (503), the others go on.
    int per_address = 256;
    // Connections at once in all; the server lowers it to what its descriptors allow. When it
    // is reached, the connection idle the longest is closed for the new one.
    int total = 2000;
    // Bytes a connection may have waiting unread: the largest request the limits allow, twice.
    qint64 read_buffer = 64 * 1024;
    // The live socket only sends; students have nothing to say on it. A longer message closes it.
    qint64 max_live_message = 1024;
    // Live sockets per token: a page opened again replaces its oldest.
    int live_per_token = 3;
};

// Follows the requests a client sends on one connection, from the bytes alone, and stops at the
// first that breaks a limit: a request line or headers too long, too many headers, a body
// announced too large or sent without a length, a second request sent before the first was
// answered. It never keeps more than one request's headers. The server feeds it each new chunk
// before Qt's parser reads it.
class RequestScanner {
public:
    struct Refusal {
        int status = 0; // 0: nothing wrong; else 400, 408, 411, 413, 414 or 431
        QString reason; // a sentence for the person
        explicit operator bool() const { return status != 0; }
    };

    RequestScanner(const ConnectionLimits& limits, qint64 max_body);

    // The connection's next bytes. Returns the refusal at the first byte that breaks a limit, and
    // the same refusal on every call after it.
    Refusal feed(QByteArrayView bytes);

    // Between the first byte of a request and the last of its body.
    bool in_request() const { return state_ != State::Idle && state_ != State::Upgraded; }
    // The last request asked to close the connection after its answer (Connection: close, or
    // HTTP/1.0 without keep-alive).
    bool close_after() const { return close_after_; }
    // A WebSocket upgrade's headers ended: what follows is the socket's frames, not HTTP.
    bool upgraded() const { return state_ == State::Upgraded; }
    int requests() const { return requests_; } // complete ones
    const Refusal& refusal() const { return refusal_; }

private:
    enum class State { Idle, Line, HeaderLines, Body, Upgraded, Refused };
    Refusal refuse(int status, const QString& reason);
    Refusal end_of_line();
    Refusal end_of_headers();

    ConnectionLimits limits_;
    qint64 max_body_;
    State state_ = State::Idle;
    QByteArray line_;         // the line being read, without its end
    qint64 header_bytes_ = 0; // of this request, its line included
    int headers_ = 0;
    qint64 body_left_ = 0;
    bool has_length_ = false;
    qint64 length_ = 0;
    bool chunked_ = false;
    bool http10_ = false;
    bool keep_alive_ = false;
    bool close_ = false;
    bool upgrade_ = false;   // Connection: upgrade
    bool websocket_ = false; // Upgrade: websocket
    bool close_after_ = false;
    int requests_ = 0;
    Refusal refusal_;
};

} // namespace lockstep::classroom
