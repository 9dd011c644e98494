// The class quiz's HTTP API: its routes for students and the teacher, each request checked and
// answered (the replies' shapes in http_replies.cpp, the pages in class_pages.cpp).
#include "lockstep_class/class_api.h"
#include "http_replies.h"
#include "lockstep_class/class_page_texts.h"

#include "lockstep_lessons/language.h"

#include <QCoreApplication>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QUrlQuery>

#include <algorithm>

namespace lockstep::classroom {

using namespace http;

namespace {

constexpr qsizetype kMaxAnswerChars = 200;

constexpr char kTeacherCookie[] = "lockstep_teacher";

// The teacher's credential: the API's bearer token, or the page's cookie.
QByteArray teacher_credential(const HttpRequest& request) {
    const QByteArray b = bearer(request);
    return b.isEmpty() ? teacher_cookie(request.headers) : b;
}

} // namespace

bool ClassApi::host_is_ours(const HttpRequest& request) const {
    const QByteArray host = header(request, "host").trimmed();
    const QStringList addresses = quiz_.addresses();
    if (host.isEmpty() || addresses.isEmpty()) // HTTP/1.0; or a quiz served nowhere (tests)
        return true;
    // The name alone: what another site would put there is its own name.
    const QString name = QUrl(QStringLiteral("http://") + QString::fromLatin1(host)).host();
    if (name.compare(QLatin1String("localhost"), Qt::CaseInsensitive) == 0)
        return true;
    return std::any_of(addresses.begin(), addresses.end(), [&name](const QString& address) {
        return QUrl(address).host().compare(name, Qt::CaseInsensitive) == 0;
    });
}

QByteArray teacher_cookie(const Headers& headers) {
    for (const auto& [key, value] : headers) {
        if (key.compare("cookie", Qt::CaseInsensitive) != 0)
            continue;
        for (const QByteArray& pair : value.split(';')) {
            const qsizetype eq = pair.indexOf('=');
            if (eq > 0 && pair.left(eq).trimmed() == kTeacherCookie)
                return pair.mid(eq + 1).trimmed();
        }
    }
    return {};
}

HttpResponse ClassApi::handle(const HttpRequest& request) {
    HttpResponse r;
    try {
        r = route(request);
    } catch (const std::exception& e) {
        // The engine refusing a student's numbers, say: the quiz goes on.
        r = error(500, lessons::Text::tr("The server could not do that: %1")
                           .arg(QString::fromStdString(e.what())));
    }
    r.headers.append(Headers::value_type("X-Content-Type-Options", "nosniff"));
    r.headers.append(Headers::value_type("Referrer-Policy", "no-referrer"));
    r.headers.append(Headers::value_type("Cache-Control", "no-store"));
    r.headers.append(Headers::value_type("X-Frame-Options", "DENY"));
    if (r.content_type.startsWith("text/html"))
        r.headers.append(Headers::value_type(
            "Content-Security-Policy",
            "default-src 'self'; connect-src 'self' ws: wss:; img-src 'self' blob: "
            "data:; style-src 'self'; script-src 'self'; frame-ancestors 'none'; "
            "base-uri 'none'; form-action 'self'"));
    return r;
}

HttpResponse ClassApi::route(const HttpRequest& request) {
    if (request.body.size() > quiz_.limits().max_body)
        return error(413, lessons::Text::tr("The request is too large: at most %1 bytes.")
                              .arg(quiz_.limits().max_body));
    // A page from another site that this browser was sent to under this server's address (DNS
    // rebinding) names its own host: only the addresses the quiz serves are answered.
    if (!host_is_ours(request))
        return error(421, lessons::Text::tr("This server answers only at the class's addresses."));
    // A body is JSON, said so: a form from another site cannot post one without asking first.
    if (!request.body.isEmpty() && header(request, "content-type")
                                           .split(';')
                                           .constFirst()
                                           .trimmed()
                                           .compare("application/json", Qt::CaseInsensitive) != 0)
        return error(415, lessons::Text::tr("Send the request's body as JSON, with Content-Type: "
                                            "application/json."));
    const QByteArray& path = request.path;
    const bool get = request.method == "GET";
    if (!path.startsWith("/api/")) {
        struct Page {
            const char* path;
            const char* file;
            const char* type;
        };
        static const Page pages[] = {
            {"/", "index.html", "text/html; charset=utf-8"},
            {"/index.html", "index.html", "text/html; charset=utf-8"},
            {"/class.css", "class.css", "text/css; charset=utf-8"},
            {"/student.js", "student.js", "text/javascript; charset=utf-8"},
            {"/teacher.js", "teacher.js", "text/javascript; charset=utf-8"},
            {"/live.js", "live.js", "text/javascript; charset=utf-8"},
        };
        for (const Page& p : pages) {
            if (path == p.path) {
                if (!get)
                    return error(405, lessons::Text::tr("%1 only answers GET.").arg(p.path));
                return file(QString::fromLatin1(p.file), p.type);
            }
        }
        if (path == "/strings.js") {
            if (!get)
                return error(
                    405,
                    lessons::Text::tr("%1 only answers GET.").arg(QStringLiteral("/strings.js")));
            HttpResponse r;
            r.content_type = "text/javascript; charset=utf-8";
            r.body = strings_script();
            return r;
        }
        if (path == "/teacher") {
            if (!get)
                return error(405, lessons::Text::tr("/teacher only answers GET."));
            return teacher_page(request);
        }
        return html_message(404, lessons::Text::tr("There is no page here. Students open the "
                                                   "address on the projector."));
    }
    if (path.startsWith("/api/teacher/"))
        return teacher(request, path.mid(int(sizeof "/api/teacher/") - 1));
    return student(request, path.mid(int(sizeof "/api/") - 1));
}

HttpResponse ClassApi::bad_token(const HttpRequest& request, const Refusal& refusal) {
    constexpr qint64 kMinuteMs = 60'000;
    constexpr qsizetype kMostAddresses = 4096; // forgotten all at once beyond this
    if (bad_tokens_.size() > kMostAddresses)
        bad_tokens_.clear();
    std::deque<qint64>& recent = bad_tokens_[request.peer];
    while (!recent.empty() && request.now_ms - recent.front() >= kMinuteMs)
        recent.pop_front();
    if (int(recent.size()) >= quiz_.limits().bad_tokens_per_minute)
        return error(429, lessons::Text::tr("Too many requests with a token that is not in this "
                                            "class came from this computer; wait a minute."));
    recent.push_back(request.now_ms);
    return error(refusal);
}

HttpResponse ClassApi::student(const HttpRequest& request, const QByteArray& path) {
    const bool post = request.method == "POST";
    const bool get = request.method == "GET";
    if (path == "join") {
        if (!post)
            return error(405, lessons::Text::tr("/api/join only answers POST."));
        QJsonObject body;
        QString code;
        QString name;
        if (auto r = body_object(request, body))
            return error(*r);
        if (auto r = text_field(body, QStringLiteral("code"), code))
            return error(*r);
        if (auto r = text_field(body, QStringLiteral("name"), name))
            return error(*r);
        QByteArray token;
        QString display;
        if (auto r = quiz_.join(code, name, request.peer, request.now_ms, token, display))
            return error(*r);
        return json(200, QJsonObject{{QStringLiteral("token"), QString::fromLatin1(token)},
                                     {QStringLiteral("name"), display}});
    }
    const bool known = path == "state" || path == "question" || path == "answer";
    if (!known)
        return error(404, lessons::Text::tr("No such API: /api/%1.").arg(QString::fromUtf8(path)));
    if ((path == "answer") != post || (path != "answer" && !get))
        return error(405,
                     lessons::Text::tr("/api/%1 only answers %2.")
                         .arg(QString::fromUtf8(path),
                              path == "answer" ? QStringLiteral("POST") : QStringLiteral("GET")));
    int who = -1;
    if (auto r = quiz_.authorise(bearer(request), request.now_ms, who))
        return r->status == 401 ? bad_token(request, *r) : error(*r);
    if (path == "state")
        return json(200, quiz_.student_state(who));
    if (path == "question") {
        const auto q = quiz_.student_question(who);
        if (!q)
            return error(409, lessons::Text::tr("No question is shown now."));
        return json(200, *q);
    }
    QJsonObject body;
    QString question;
    QString answer;
    if (auto r = body_object(request, body))
        return error(*r);
    if (auto r = text_field(body, QStringLiteral("question"), question))
        return error(*r);
    if (auto r = text_field(body, QStringLiteral("answer"), answer))
        return error(*r);
    if (answer.size() > kMaxAnswerChars)
        return error(400, lessons::Text::tr("That answer is too long: at most %1 characters.")
                              .arg(kMaxAnswerChars));
    QJsonObject reply;
    if (auto r = quiz_.answer(who, question, answer, reply))
        return error(*r);
    return json(200, reply);
}

HttpResponse ClassApi::teacher_page(const HttpRequest& request) {
    const QUrlQuery query(QString::fromLatin1(request.query));
    if (query.hasQueryItem(QStringLiteral("token"))) {
        // The one-time link: spent for a cookie, and gone from the address bar at once.
        const auto session = quiz_.exchange_teacher_link(
            query.queryItemValue(QStringLiteral("token"), QUrl::FullyDecoded).toLatin1());
        if (!session)
            return html_message(403, lessons::Text::tr("This teacher's link was used already, or "
                                                       "is not this quiz's. Each link opens the "
                                                       "teacher's page once: open the newest one "
                                                       "lockstep printed."));
        HttpResponse r = html_message(303, lessons::Text::tr("The teacher's page is at /teacher."));
        r.headers.append(Headers::value_type("Location", "/teacher"));
        r.headers.append(
            Headers::value_type("Set-Cookie", QByteArray(kTeacherCookie) + "=" + *session +
                                                  "; Path=/; HttpOnly; SameSite=Strict"));
        return r;
    }
    if (!quiz_.is_teacher(teacher_cookie(request.headers)))
        return html_message(403, lessons::Text::tr("The teacher's page opens from the teacher's "
                                                   "link that lockstep printed; each link works "
                                                   "once."));
    return file(QStringLiteral("teacher.html"), "text/html; charset=utf-8");
}

HttpResponse ClassApi::teacher(const HttpRequest& request, const QByteArray& path) {
    if (!quiz_.is_teacher(teacher_credential(request)))
        return bad_token(request, Refusal{401, lessons::Text::tr("The teacher's API needs the "
                                                                 "teacher's token.")});
    if (!same_origin(request))
        return error(403, lessons::Text::tr("The teacher's API answers only its own page."));
    const bool post = request.method == "POST";
    const bool get = request.method == "GET";
    auto only = [&](bool ok, const char* method) -> std::optional<HttpResponse> {
        if (ok)
            return std::nullopt;
        return error(405, lessons::Text::tr("/api/teacher/%1 only answers %2.")
                              .arg(QString::fromUtf8(path), QString::fromLatin1(method)));
    };
    auto moved = [&](std::optional<Refusal> refusal) {
        if (refusal)
            return error(*refusal);
        if ((quiz_.phase() == Phase::Closed || quiz_.phase() == Phase::Finished) && on_results_)
            on_results_();
        return json(200, quiz_.teacher_state());
    };
    if (path == "state") {
        if (auto r = only(get, "GET"))
            return *r;
        return json(200, quiz_.teacher_state());
    }
    if (path == "results") {
        if (auto r = only(get, "GET"))
            return *r;
        HttpResponse r;
        r.content_type = "text/csv; charset=utf-8";
        r.body = quiz_.results_csv().toUtf8();
        r.headers.append(Headers::value_type("Content-Disposition", "attachment; filename=\"" +
                                                                        quiz_.bank().id.toUtf8() +
                                                                        "-results.csv\""));
        return r;
    }
    if (path == "qr.svg") {
        if (auto r = only(get, "GET"))
            return *r;
        if (quiz_.addresses().isEmpty())
            return error(409, lessons::Text::tr("The server is not listening yet."));
        HttpResponse r;
        r.content_type = "image/svg+xml";
        r.body = qr_svg(quiz_.addresses().front());
        return r;
    }
    if (path == "reports") {
        if (auto r = only(get, "GET"))
            return *r;
        HttpResponse r;
        r.content_type = "text/html; charset=utf-8";
        r.body = quiz_.student_reports().toUtf8();
        return r;
    }
    if (path == "open" || path == "close" || path == "reveal" || path == "next" || path == "skip" ||
        path == "back") {
        if (auto r = only(post, "POST"))
            return *r;
        if (path == "open")
            return moved(quiz_.open());
        if (path == "close")
            return moved(quiz_.close());
        if (path == "reveal")
            return moved(quiz_.reveal());
        if (path == "skip")
            return moved(quiz_.skip());
        if (path == "back")
            return moved(quiz_.back());
        return moved(quiz_.next());
    }
    if (path == "view" || path == "timer") {
        if (auto r = only(post, "POST"))
            return *r;
        QJsonObject body;
        if (auto r = body_object(request, body))
            return error(*r);
        // Anything but a whole number of seconds reads as -1, which set_timer() refuses by its
        // range.
        if (path == "timer")
            return moved(quiz_.set_timer(body.value(QStringLiteral("seconds")).toInt(-1)));
        // Only what the body names changes.
        View view = quiz_.view();
        for (auto [key, flag] :
             {std::pair{"names", &view.names}, std::pair{"ranking", &view.ranking},
              std::pair{"histogram", &view.histogram}}) {
            const QJsonValue v = body.value(QLatin1String(key));
            if (v.isUndefined())
                continue;
            if (!v.isBool())
                return error(
                    400,
                    lessons::Text::tr("\"%1\" must be true or false.").arg(QLatin1String(key)));
            *flag = v.toBool();
        }
        return moved(quiz_.set_view(view));
    }
    if (path == "lock" || path == "remove") {
        if (auto r = only(post, "POST"))
            return *r;
        QJsonObject body;
        if (auto r = body_object(request, body))
            return error(*r);
        if (path == "lock") {
            const QJsonValue locked = body.value(QStringLiteral("locked"));
            if (!locked.isBool())
                return error(400, lessons::Text::tr("\"locked\" must be true or false."));
            quiz_.set_locked(locked.toBool());
            return json(200, quiz_.teacher_state());
        }
        // One student, or several at once: {"students": ["s4", "s5", ...]}.
        const QJsonValue many = body.value(QStringLiteral("students"));
        if (many.isArray()) {
            QStringList ids;
            for (const QJsonValue& id : many.toArray()) {
                if (!id.isString())
                    return error(400, lessons::Text::tr("\"students\" must be a list of ids."));
                ids << id.toString();
            }
            if (ids.isEmpty() || ids.size() > quiz_.limits().max_students * 2)
                return error(400, lessons::Text::tr("\"students\" must name from one student to "
                                                    "the whole class."));
            return moved(quiz_.remove(ids));
        }
        QString id;
        if (auto r = text_field(body, QStringLiteral("student"), id))
            return error(*r);
        return moved(quiz_.remove(id));
    }
    return error(404,
                 lessons::Text::tr("No such API: /api/teacher/%1.").arg(QString::fromUtf8(path)));
}

} // namespace lockstep::classroom
