// The class API's replies and what it reads in a request: JSON and its errors, a page, a message
// as a page, a header, the bearer token, the origin, and a JSON body and its text fields.
#include "http_replies.h"

#include "lockstep_lessons/language.h"

#include <QJsonDocument>

namespace lockstep::classroom::http {

HttpResponse json(int status, const QJsonObject& object) {
    HttpResponse r;
    r.status = status;
    r.content_type = "application/json; charset=utf-8";
    r.body = QJsonDocument(object).toJson(QJsonDocument::Compact);
    return r;
}

HttpResponse error(int status, const QString& message) {
    return json(status, QJsonObject{{QStringLiteral("error"), message}});
}

HttpResponse error(const Refusal& refusal) {
    return error(refusal.status, refusal.message);
}

HttpResponse file(const QString& name, const QByteArray& type) {
    HttpResponse r;
    r.body = page_file(name);
    if (r.body.isEmpty())
        return error(404, lessons::Text::tr("The page %1 is missing from this build.").arg(name));
    r.content_type = type;
    return r;
}

HttpResponse html_message(int status, const QString& message) {
    HttpResponse r;
    r.status = status;
    r.content_type = "text/html; charset=utf-8";
    r.body =
        QStringLiteral("<!doctype html><html lang=\"%2\"><meta charset=\"utf-8\"><title>Lockstep"
                       "</title><link rel=\"stylesheet\" href=\"/class.css\"><main "
                       "class=\"card\"><p>%1</p></main></html>")
            .arg(message.toHtmlEscaped(), lessons::language())
            .toUtf8();
    return r;
}

QByteArray header(const HttpRequest& request, const QByteArray& name) {
    for (const auto& [key, value] : request.headers)
        if (key.compare(name, Qt::CaseInsensitive) == 0)
            return value;
    return {};
}

QByteArray bearer(const HttpRequest& request) {
    const QByteArray value = header(request, "authorization").trimmed();
    if (value.size() < 7 || value.left(7).compare("bearer ", Qt::CaseInsensitive) != 0)
        return {};
    return value.mid(7).trimmed();
}

bool same_origin(const HttpRequest& request) {
    const QByteArray origin = header(request, "origin");
    return origin.isEmpty() || origin == "http://" + header(request, "host");
}

std::optional<Refusal> body_object(const HttpRequest& request, QJsonObject& out) {
    QJsonParseError problem{};
    const QJsonDocument doc = QJsonDocument::fromJson(request.body, &problem);
    if (problem.error != QJsonParseError::NoError)
        return Refusal{400, lessons::Text::tr("The request's body is not JSON: %1 at byte %2.")
                                .arg(problem.errorString())
                                .arg(problem.offset)};
    if (!doc.isObject())
        return Refusal{400, lessons::Text::tr("The request's body must be a JSON object.")};
    out = doc.object();
    return std::nullopt;
}

std::optional<Refusal> text_field(const QJsonObject& o, const QString& key, QString& out) {
    const QJsonValue v = o.value(key);
    if (!v.isString())
        return Refusal{400, v.isUndefined()
                                ? lessons::Text::tr("The request needs \"%1\".").arg(key)
                                : lessons::Text::tr("\"%1\" must be text.").arg(key)};
    out = v.toString();
    return std::nullopt;
}

} // namespace lockstep::classroom::http
