// Feeds arbitrary HTTP requests to the class quiz's API (ClassApi::handle), a few in a row on one
// quiz so that joins, answers and the teacher's moves change its state. An input is requests
// separated by a line "---"; each is a request line "METHOD PATH[?QUERY]", header lines
// "Name: value", an empty line and the body. In headers and bodies $S stands for the student's
// token (a student joins before the input), $T for the teacher's and $C for the join code, so
// the fuzzer reaches past the tokens it could never guess.
//
// Beyond "no crash": every response has a known status; every /api/ response is a JSON object
// (but the teacher's results, QR code and reports),
// with an "error" sentence when refused; and no student endpoint gives away the key (a result,
// an explanation, a typical mistake) before the question is revealed.
//
// The same bytes also go, raw, through the connection guard's RequestScanner, whole and one byte
// at a time: it refuses with a known status and a reason, keeps refusing after, and decides the
// same either way (but for a second request sent in the first one's chunk, which only the whole
// input can show).

#include "lockstep_class/class_api.h"
#include "lockstep_class/connection_limits.h"
#include "lockstep_lessons/quiz.h"

#include <QJsonDocument>
#include <QJsonObject>

#include <algorithm>
#include <cstdint>
#include <cstdlib>
#include <set>

namespace {

using namespace lockstep::classroom;

const lockstep::lessons::QuizBank& bank() {
    static const lockstep::lessons::QuizBank b = lockstep::lessons::load_bank(
        QStringLiteral(LOCKSTEP_SOURCE_DIR "/resources/quizzes/reductions.json"));
    return b;
}

HttpRequest parse(const QByteArray& text, const QByteArray& student, const QByteArray& teacher,
                  const QByteArray& code) {
    auto fill = [&](QByteArray s) {
        return s.replace("$S", student).replace("$T", teacher).replace("$C", code);
    };
    HttpRequest r;
    const qsizetype split = text.indexOf("\n\n");
    const QByteArray head = split < 0 ? text : text.left(split);
    r.body = split < 0 ? QByteArray() : fill(text.mid(split + 2));
    const QList<QByteArray> lines = head.split('\n');
    const QByteArray first = lines.value(0);
    const qsizetype space = first.indexOf(' ');
    r.method = space < 0 ? first : first.left(space);
    QByteArray target = space < 0 ? QByteArray("/") : first.mid(space + 1);
    const qsizetype q = target.indexOf('?');
    r.path = q < 0 ? target : target.left(q);
    r.query = q < 0 ? QByteArray() : fill(target.mid(q + 1));
    for (qsizetype i = 1; i < lines.size(); ++i) {
        const qsizetype colon = lines[i].indexOf(':');
        if (colon > 0)
            r.headers.append({lines[i].left(colon), fill(lines[i].mid(colon + 1).trimmed())});
    }
    // A body is JSON unless the input says otherwise, so that the fuzzer goes past the check.
    const bool typed = std::any_of(r.headers.begin(), r.headers.end(), [](const auto& h) {
        return h.first.compare("content-type", Qt::CaseInsensitive) == 0;
    });
    if (!typed)
        r.headers.append(Headers::value_type("Content-Type", "application/json"));
    r.peer = QStringLiteral("10.0.0.7");
    return r;
}

void scan(const QByteArray& input) {
    static const std::set<int> refusals{400, 408, 411, 413, 414, 431};
    const ConnectionLimits limits;
    RequestScanner whole(limits, 4096);
    RequestScanner bytewise(limits, 4096);
    const RequestScanner::Refusal w = whole.feed(input);
    RequestScanner::Refusal b;
    for (qsizetype i = 0; i < input.size() && !b; ++i)
        b = bytewise.feed(QByteArrayView(input).sliced(i, 1));
    const auto unknown = [](const RequestScanner::Refusal& r) {
        return r && (!refusals.count(r.status) || r.reason.isEmpty());
    };
    if (unknown(w) || unknown(b))
        std::abort();
    if (w.status != 400 && b.status != w.status)
        std::abort();
    if (w && whole.feed("GET / HTTP/1.1\r\n\r\n").status != w.status)
        std::abort();
}

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    static const std::set<int> statuses{200, 303, 400, 401, 403, 404, 405, 409,
                                        413, 415, 421, 422, 429, 500, 503};
    ClassLimits limits;
    limits.max_students = 4;
    ClassQuiz quiz(bank(), {0, 1, 2}, limits);
    ClassApi api(quiz);
    QByteArray student;
    QString display;
    if (quiz.join(quiz.code(), QStringLiteral("Ada"), QStringLiteral("10.0.0.1"), 0, student,
                  display))
        std::abort();
    const QByteArray input(reinterpret_cast<const char*>(data), qsizetype(size));
    scan(input);
    qint64 now = 0;
    int requests = 0;
    for (const QByteArray& text : input.split('\x1e')) { // also "---" lines, below
        for (const QByteArray& one : QByteArray(text).replace("\n---\n", "\x1f").split('\x1f')) {
            if (++requests > 8)
                return 0;
            HttpRequest r = parse(one, student, quiz.teacher_token(), quiz.code().toLatin1());
            r.now_ms = (now += 100);
            const bool revealed = quiz.phase() == Phase::Revealed;
            const HttpResponse out = api.handle(r);
            if (!statuses.count(out.status))
                std::abort();
            if (!r.path.startsWith("/api/"))
                continue;
            QJsonParseError problem{};
            const QJsonDocument doc = QJsonDocument::fromJson(out.body, &problem);
            const bool csv = out.content_type.startsWith("text/csv");
            const bool svg = out.content_type.startsWith("image/svg");
            const bool html = out.content_type.startsWith("text/html"); // the reports
            if (!csv && !svg && !html &&
                (problem.error != QJsonParseError::NoError || !doc.isObject()))
                std::abort();
            if (out.status >= 400 && !doc.object().value(QStringLiteral("error")).isString())
                std::abort();
            const bool teacher = r.path.startsWith("/api/teacher/");
            if (!teacher && !revealed && out.status == 200) {
                const QJsonObject o = doc.object();
                if (o.value(QStringLiteral("result")).isObject() ||
                    out.body.contains("\"explanation\"") || out.body.contains("That is the sum"))
                    std::abort();
            }
        }
    }
    return 0;
}
