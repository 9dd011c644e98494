#pragma once

#include "lockstep_class/class_quiz.h"

#include <QByteArray>
#include <QHash>
#include <QList>
#include <QPair>
#include <QString>

// The class quiz's HTTP API (docs/CLASS.md) as a function from a request to a response, apart
// from any socket: ClassServer feeds it what QHttpServer parsed, the tests and the fuzzer feed
// it directly.
namespace lockstep::classroom {

using Headers = QList<QPair<QByteArray, QByteArray>>;

struct HttpRequest {
    QByteArray method; // GET, POST, ...
    QByteArray path;   // without the query: /api/join
    QByteArray query;  // token=...
    Headers headers;   // names in any case
    QByteArray body;
    QString peer;      // the client's address
    qint64 now_ms = 0; // a steady clock, for the limits
};

struct HttpResponse {
    int status = 200;
    QByteArray content_type;
    QByteArray body;
    Headers headers; // besides the content type and the security headers every response has
};

class ClassApi {
public:
    explicit ClassApi(ClassQuiz& quiz)
        : quiz_(quiz) {}

    // Never throws: anything wrong with the request is a 4xx with a sentence saying what.
    HttpResponse handle(const HttpRequest& request);

    // Called with the results after an accepted change that should reach the file now (a closed
    // question, the end); the CLI writes them.
    void set_on_results(std::function<void()> on_results) { on_results_ = std::move(on_results); }

private:
    HttpResponse route(const HttpRequest& request);
    HttpResponse student(const HttpRequest& request, const QByteArray& path);
    HttpResponse teacher(const HttpRequest& request, const QByteArray& path);
    HttpResponse teacher_page(const HttpRequest& request);
    bool host_is_ours(const HttpRequest& request) const;
    // A 401 for a token that is no one's, or a 429 when its address has had too many.
    HttpResponse bad_token(const HttpRequest& request, const Refusal& refusal);

    ClassQuiz& quiz_;
    std::function<void()> on_results_;
    QHash<QString, std::deque<qint64>> bad_tokens_; // per address: recent 401s
};

// The session token in the teacher's page's cookie, or empty.
QByteArray teacher_cookie(const Headers& headers);

// /strings.js: `window.lockstepLanguage` and `window.lockstepStrings`, the pages' words
// (class_page_texts()) in the language in use, for live.js's t().
QByteArray strings_script();
// The static files of the pages (index.html, student.js, ...), from the program's resources.
// Empty when there is no such file.
QByteArray page_file(const QString& name);

// A QR code of `text` as an SVG image (black modules on white, a quiet zone of four), or an empty
// array when the text does not fit.
QByteArray qr_svg(const QString& text);
// The modules of a QR code of `text`, row by row (true: dark); empty when it does not fit.
std::vector<std::vector<bool>> qr_modules(const QString& text);

} // namespace lockstep::classroom
