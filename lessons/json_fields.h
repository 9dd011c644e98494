#pragma once

// Strict reading of the lesson and quiz JSON files: unknown keys, missing keys and values of the
// wrong kind are errors naming the file and the field path.

#include "core/error.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QString>
#include <QStringList>

#include <cmath>

namespace lockstep::lessons::detail {

class Fields {
public:
    Fields(QJsonObject object, QString file, QString path)
        : object_(std::move(object))
        , file_(std::move(file))
        , path_(std::move(path)) {}

    [[noreturn]] void fail(const QString& key, const QString& message) const {
        throw Error((file_ + QStringLiteral(": ") + where(key) + QStringLiteral(": ") + message)
                        .toStdString());
    }
    QString where(const QString& key) const {
        if (key.isEmpty())
            return path_.isEmpty() ? QStringLiteral("(top)") : path_;
        return path_.isEmpty() ? key : path_ + QLatin1Char('.') + key;
    }
    const QJsonObject& object() const { return object_; }
    const QString& file() const { return file_; }
    bool has(const QString& key) const { return object_.contains(key); }

    void only(const QStringList& allowed) const {
        for (auto it = object_.begin(); it != object_.end(); ++it)
            if (!allowed.contains(it.key()))
                fail(it.key(), QStringLiteral("unknown key (allowed: %1)")
                                   .arg(allowed.join(QStringLiteral(", "))));
    }
    QString text(const QString& key, bool required = true, const QString& fallback = {}) const {
        if (!has(key)) {
            if (required)
                fail(key, QStringLiteral("missing"));
            return fallback;
        }
        const QJsonValue v = object_.value(key);
        if (!v.isString())
            fail(key, QStringLiteral("must be text"));
        if (required && v.toString().trimmed().isEmpty())
            fail(key, QStringLiteral("must not be empty"));
        return v.toString();
    }
    double number(const QString& key, double fallback, double lo, double hi,
                  bool required = false) const {
        if (!has(key)) {
            if (required)
                fail(key, QStringLiteral("missing"));
            return fallback;
        }
        const QJsonValue v = object_.value(key);
        if (!v.isDouble() || !std::isfinite(v.toDouble()) || v.toDouble() < lo || v.toDouble() > hi)
            fail(key, QStringLiteral("must be a number from %1 to %2").arg(lo).arg(hi));
        return v.toDouble();
    }
    int integer(const QString& key, int fallback, int lo, int hi, bool required = false) const {
        const double v = number(key, fallback, lo, hi, required);
        if (v != std::floor(v))
            fail(key, QStringLiteral("must be a whole number from %1 to %2").arg(lo).arg(hi));
        return static_cast<int>(v);
    }
    bool boolean(const QString& key, bool fallback) const {
        if (!has(key))
            return fallback;
        if (!object_.value(key).isBool())
            fail(key, QStringLiteral("must be true or false"));
        return object_.value(key).toBool();
    }
    QJsonArray array(const QString& key, bool required = false) const {
        if (!has(key)) {
            if (required)
                fail(key, QStringLiteral("missing"));
            return {};
        }
        if (!object_.value(key).isArray())
            fail(key, QStringLiteral("must be a list"));
        return object_.value(key).toArray();
    }
    QStringList strings(const QString& key, bool required = false) const {
        QStringList out;
        const QJsonArray a = array(key, required);
        for (qsizetype i = 0; i < a.size(); ++i) {
            if (!a[i].isString() || a[i].toString().trimmed().isEmpty())
                fail(QStringLiteral("%1[%2]").arg(key).arg(i), QStringLiteral("must be text"));
            out << a[i].toString();
        }
        return out;
    }
    Fields child(const QString& key, const QJsonValue& v) const {
        if (!v.isObject())
            fail(key, QStringLiteral("must be an object {...}"));
        return Fields(v.toObject(), file_, where(key));
    }

private:
    QJsonObject object_;
    QString file_;
    QString path_;
};

// Parses a whole JSON file into its top object, or throws naming the file and the offset.
inline QJsonObject parse_object(const QByteArray& json, const QString& file) {
    QJsonParseError error;
    const QJsonDocument doc = QJsonDocument::fromJson(json, &error);
    if (error.error != QJsonParseError::NoError)
        throw Error((file + QStringLiteral(": not valid JSON at byte %1: %2")
                                .arg(error.offset)
                                .arg(error.errorString()))
                        .toStdString());
    if (!doc.isObject())
        throw Error((file + QStringLiteral(": must hold one JSON object {...}")).toStdString());
    return doc.object();
}

} // namespace lockstep::lessons::detail
