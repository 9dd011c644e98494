#pragma once

// The class API's replies and what it reads in a request (inside lockstep_class only).

#include "lockstep_class/class_api.h"

#include <QJsonObject>

#include <optional>

namespace lockstep::classroom::http {

HttpResponse json(int status, const QJsonObject& object);
HttpResponse error(int status, const QString& message);
HttpResponse error(const Refusal& refusal);
// A built-in page file with its content type; 404 when this build lacks it.
HttpResponse file(const QString& name, const QByteArray& type);
// A sentence as a small page in the class's style.
HttpResponse html_message(int status, const QString& message);
// A request header by name, whatever its case; empty when absent.
QByteArray header(const HttpRequest& request, const QByteArray& name);
// The token of an "Authorization: Bearer" header; empty without one.
QByteArray bearer(const HttpRequest& request);
// A page from another site may not use the teacher's cookie: its Origin, when there is one,
// must be this server (the browser's SameSite=Strict already keeps the cookie from it).
bool same_origin(const HttpRequest& request);
// The body as a JSON object, or a refusal naming what is wrong with it.
std::optional<Refusal> body_object(const HttpRequest& request, QJsonObject& out);
// The text field `key` of `o`, or a refusal naming it.
std::optional<Refusal> text_field(const QJsonObject& o, const QString& key, QString& out);

} // namespace lockstep::classroom::http
