#include "lockstep_class/connection_limits.h"

#include "lockstep_lessons/language.h"

#include <algorithm>

namespace lockstep::classroom {

namespace {

bool has_token(QByteArrayView list, QByteArrayView token) {
    // A comma-separated header value ("keep-alive, Upgrade") holds the token, in any case.
    for (const QByteArray& part : list.toByteArray().split(',')) {
        if (part.trimmed().compare(token, Qt::CaseInsensitive) == 0)
            return true;
    }
    return false;
}

QString one_at_a_time() {
    return lessons::Text::tr("Send one request at a time and wait for its answer.");
}

} // namespace

RequestScanner::RequestScanner(const ConnectionLimits& limits, qint64 max_body)
    : limits_(limits)
    , max_body_(max_body) {}

RequestScanner::Refusal RequestScanner::refuse(int status, const QString& reason) {
    state_ = State::Refused;
    refusal_ = Refusal{status, reason};
    line_.clear();
    return refusal_;
}

RequestScanner::Refusal RequestScanner::feed(QByteArrayView bytes) {
    qsizetype i = 0;
    while (i < bytes.size()) {
        switch (state_) {
        case State::Refused:
            return refusal_;
        case State::Upgraded:
            return {}; // the WebSocket's frames; QWebSocket holds them to their limits
        case State::Idle:
            if (bytes[i] == '\r' || bytes[i] == '\n') { // empty lines before a request are allowed
                ++i;
                continue;
            }
            // Browsers send one request and wait for its answer; a request that follows another
            // before its answer would be seen twice here when the server comes back for it.
            if (requests_ > 0 && i > 0)
                return refuse(400, one_at_a_time());
            state_ = State::Line;
            header_bytes_ = 0;
            headers_ = 0;
            has_length_ = chunked_ = http10_ = keep_alive_ = close_ = upgrade_ = websocket_ = false;
            length_ = 0;
            break;
        case State::Line:
        case State::HeaderLines: {
            const qsizetype end = bytes.sliced(i).indexOf('\n');
            const qsizetype take = end < 0 ? bytes.size() - i : end + 1;
            header_bytes_ += take;
            const qint64 line_limit =
                state_ == State::Line ? limits_.max_request_line : limits_.max_header_bytes;
            if (line_.size() + take > line_limit + 2 || header_bytes_ > limits_.max_header_bytes)
                return state_ == State::Line
                           ? refuse(414, lessons::Text::tr("The request's address is too long: "
                                                           "at most %1 bytes.")
                                             .arg(limits_.max_request_line))
                           : refuse(431, lessons::Text::tr("The request's headers are too long: "
                                                           "at most %1 bytes.")
                                             .arg(limits_.max_header_bytes));
            line_.append(bytes.sliced(i, take));
            i += take;
            if (end < 0)
                continue;
            line_.chop(1);
            if (line_.endsWith('\r'))
                line_.chop(1);
            if (const Refusal r = end_of_line())
                return r;
            line_.clear();
            break;
        }
        case State::Body: {
            const qint64 take = std::min<qint64>(body_left_, bytes.size() - i);
            body_left_ -= take;
            i += qsizetype(take);
            if (body_left_ == 0) {
                ++requests_;
                state_ = State::Idle;
            }
            break;
        }
        }
    }
    return state_ == State::Refused ? refusal_ : Refusal{};
}

RequestScanner::Refusal RequestScanner::end_of_line() {
    if (state_ == State::Line) {
        // METHOD SP TARGET SP HTTP/1.x
        const QList<QByteArray> parts = line_.split(' ');
        if (parts.size() != 3 || parts[0].isEmpty() || parts[1].isEmpty() ||
            !parts[2].startsWith("HTTP/1."))
            return refuse(400, lessons::Text::tr("The request's first line is not "
                                                 "\"METHOD /path HTTP/1.1\"."));
        http10_ = parts[2] == "HTTP/1.0";
        state_ = State::HeaderLines;
        return {};
    }
    if (line_.isEmpty())
        return end_of_headers();
    if (++headers_ > limits_.max_headers)
        return refuse(431, lessons::Text::tr("The request has too many headers: at most %1.")
                               .arg(limits_.max_headers));
    const qsizetype colon = line_.indexOf(':');
    if (colon <= 0 || line_.front() == ' ' || line_.front() == '\t')
        return refuse(400, lessons::Text::tr("A header of the request is not \"Name: value\"."));
    const QByteArray name = line_.left(colon).trimmed().toLower();
    const QByteArray value = line_.mid(colon + 1).trimmed();
    if (name == "content-length") {
        bool ok = false;
        const qint64 n = value.toLongLong(&ok);
        bool digits = !value.isEmpty();
        for (char c : value)
            digits = digits && c >= '0' && c <= '9';
        if (!ok || !digits || (has_length_ && n != length_))
            return refuse(400, lessons::Text::tr("The request's Content-Length is not one "
                                                 "number."));
        has_length_ = true;
        length_ = n;
        if (n > max_body_)
            return refuse(
                413,
                lessons::Text::tr("The request is too large: at most %1 bytes.").arg(max_body_));
    } else if (name == "transfer-encoding") {
        chunked_ = true;
    } else if (name == "connection") {
        keep_alive_ = keep_alive_ || has_token(value, "keep-alive");
        close_ = close_ || has_token(value, "close");
        upgrade_ = upgrade_ || has_token(value, "upgrade");
    } else if (name == "upgrade") {
        websocket_ = websocket_ || has_token(value, "websocket");
    }
    return {};
}

RequestScanner::Refusal RequestScanner::end_of_headers() {
    if (chunked_)
        return refuse(411, lessons::Text::tr("Send the request's body with a Content-Length."));
    close_after_ = close_ || (http10_ && !keep_alive_);
    if (upgrade_ && websocket_ && length_ == 0) {
        ++requests_;
        state_ = State::Upgraded;
        return {};
    }
    body_left_ = length_;
    if (body_left_ > 0) {
        state_ = State::Body;
        return {};
    }
    ++requests_;
    state_ = State::Idle;
    return {};
}

} // namespace lockstep::classroom
