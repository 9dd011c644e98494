#pragma once

// The class quiz from a test: a client over loopback, a quiz served in this process, and
// `lockstep-cli class serve` as its own process (LOCKSTEP_CLI_PATH, from tests/CMakeLists.txt).

#include "lockstep_class/class_server.h"
#include "lockstep_lessons/lesson.h"

#include "test_support.h"

#include <QDir>
#include <QEventLoop>
#include <QFile>
#include <QJsonDocument>
#include <QJsonObject>
#include <QMap>
#include <QNetworkAccessManager>
#include <QNetworkReply>
#include <QProcess>
#include <QTemporaryDir>
#include <QTest>
#include <QTimer>

#include <memory>

#include <sys/resource.h>

namespace lockstep::testing {

inline lessons::QuizBank reductions() {
    return lessons::LessonLibrary::load(testing::resources())
        .load_bank_named(QStringLiteral("reductions"));
}

struct Reply {
    int status = 0;
    QJsonObject json;
    QByteArray body;
    QByteArray type;
    QMap<QByteArray, QByteArray> headers; // names in lower case
};

// One request over loopback, waited for.
class Client {
public:
    explicit Client(quint16 port)
        : base_(QStringLiteral("http://127.0.0.1:%1").arg(port)) {}

    // With `follow` false, a redirect is the reply (its Location and Set-Cookie in `headers`).
    Reply call(const QByteArray& method, const QString& path, const QByteArray& body = {},
               const QByteArray& token = {}, bool follow = true) {
        QNetworkRequest request(QUrl(base_ + path));
        if (!follow)
            request.setAttribute(QNetworkRequest::RedirectPolicyAttribute,
                                 QNetworkRequest::ManualRedirectPolicy);
        request.setHeader(QNetworkRequest::ContentTypeHeader, "application/json");
        if (!token.isEmpty())
            request.setRawHeader("Authorization", "Bearer " + token);
        QNetworkReply* reply = manager_.sendCustomRequest(request, method, body);
        QEventLoop loop;
        QObject::connect(reply, &QNetworkReply::finished, &loop, &QEventLoop::quit);
        QTimer::singleShot(10000, &loop, &QEventLoop::quit);
        loop.exec();
        Reply out;
        out.status = reply->attribute(QNetworkRequest::HttpStatusCodeAttribute).toInt();
        out.body = reply->readAll();
        out.type = reply->header(QNetworkRequest::ContentTypeHeader).toByteArray();
        out.json = QJsonDocument::fromJson(out.body).object();
        for (const auto& [name, value] : reply->rawHeaderPairs())
            out.headers[name.toLower()] = value;
        reply->deleteLater();
        return out;
    }
    Reply post(const QString& path, const QJsonObject& body, const QByteArray& token = {}) {
        return call("POST", path, QJsonDocument(body).toJson(QJsonDocument::Compact), token);
    }
    Reply get(const QString& path, const QByteArray& token = {}) {
        return call("GET", path, {}, token);
    }

private:
    QString base_;
    QNetworkAccessManager manager_;
};

// A quiz on the reductions bank, served on a free loopback port.
struct Served {
    explicit Served(classroom::ClassLimits limits = {}, std::vector<int> order = {})
        : quiz(reductions(), std::move(order), limits)
        , server(quiz)
        , port(server.start({QHostAddress(QHostAddress::LocalHost)}, 0))
        , client(port) {}

    QByteArray join(const QString& name) {
        const Reply r =
            client.post(QStringLiteral("/api/join"), {{"code", quiz.code()}, {"name", name}});
        return r.json.value("token").toString().toLatin1();
    }
    Reply teacher(const QString& what) {
        return client.post(QStringLiteral("/api/teacher/") + what, {}, quiz.teacher_token());
    }
    Reply answer(const QByteArray& token, const QString& text) {
        return client.post(QStringLiteral("/api/answer"),
                           {{"question", quiz.current_question()->id}, {"answer", text}}, token);
    }

    classroom::ClassQuiz quiz;
    classroom::ClassServer server;
    quint16 port;
    Client client;
};

// `lockstep-cli class serve reductions` on a free loopback port, writing its results to
// `results` (none when empty), with `students` students (named PREFIX0, PREFIX1, ...) joined
// and the first question open: what the tests of the results file start from. With
// `descriptors`, the server may open no more files than that (RLIMIT_NOFILE).
struct ServeProcess {
    QProcess process;
    std::unique_ptr<Client> client;
    QByteArray teacher;
    std::vector<QByteArray> tokens;
    quint16 port = 0;
    QString code;
    QStringList extra_args; // after the usual ones, e.g. --journal FILE
    QTemporaryDir data;     // the server's data folder (XDG_DATA_HOME), where journals go
    QString banner;         // what it printed on starting

    ~ServeProcess() {
        process.kill();
        process.waitForFinished(5000);
    }

    qint64 pid() const { return process.processId(); }

    bool start(const QString& results, int students, const QString& prefix, int descriptors = 0) {
        QStringList args{"class", "serve", "reductions", "--port", "0", "--bind", "127.0.0.1"};
        if (!results.isEmpty())
            args << "--results" << results;
        args << extra_args;
        QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
        env.insert(QStringLiteral("XDG_DATA_HOME"), data.path());
        process.setProcessEnvironment(env);
        if (descriptors > 0)
            process.setChildProcessModifier([descriptors] {
                const rlimit limit{rlim_t(descriptors), rlim_t(descriptors)};
                ::setrlimit(RLIMIT_NOFILE, &limit);
            });
        process.start(LOCKSTEP_CLI_PATH, args);
        QString out;
        if (!process.waitForStarted() ||
            !QTest::qWaitFor(
                [&] {
                    out += QString::fromUtf8(process.readAllStandardOutput());
                    return out.contains("port ");
                },
                10000))
            return false;
        const auto line = [&](const QString& name) {
            for (const QString& l : out.split('\n'))
                if (l.startsWith(name))
                    return l.mid(name.size()).trimmed();
            return QString();
        };
        banner = out;
        port = quint16(QUrl(line("students: ")).port());
        code = line("join code: ");
        client = std::make_unique<Client>(port);
        // The teacher's one-time link, spent as the teacher's browser spends it: the session in
        // its cookie is the teacher's token from then on.
        const Reply page =
            client->call("GET", "/teacher?" + QUrl(line("teacher: ")).query(), {}, {}, false);
        const QByteArray cookie = page.headers.value("set-cookie");
        teacher = cookie.left(cookie.indexOf(';')).mid(cookie.indexOf('=') + 1);
        for (int i = 0; i < students; ++i)
            tokens.push_back(client
                                 ->post("/api/join", {{"code", line("join code: ")},
                                                      {"name", prefix + QString::number(i)}})
                                 .json.value("token")
                                 .toString()
                                 .toLatin1());
        // A quiz resumed from its journal is where it was.
        return extra_args.contains("--resume") ||
               client->post("/api/teacher/open", {}, teacher).status == 200;
    }

    int answer(int student, const QString& text) {
        return client
            ->post("/api/answer", {{"question", "mean-two-workers"}, {"answer", text}},
                   tokens[std::size_t(student)])
            .status;
    }
};

// What the kernel says about a process: its memory now and at its peak, and its descriptors.
inline qint64 status_kib(qint64 pid, const char* field) {
    QFile f(QStringLiteral("/proc/%1/status").arg(pid));
    if (!f.open(QIODevice::ReadOnly))
        return -1;
    for (const QByteArray& line : f.readAll().split('\n'))
        if (line.startsWith(field))
            return line.mid(qsizetype(qstrlen(field))).trimmed().split(' ').value(0).toLongLong();
    return -1;
}
inline qint64 peak_rss_kib(qint64 pid) {
    return status_kib(pid, "VmHWM:");
}
inline int open_descriptors(qint64 pid) {
    return int(QDir(QStringLiteral("/proc/%1/fd").arg(pid))
                   .entryList(QDir::NoDotAndDotDot | QDir::System)
                   .size());
}

} // namespace lockstep::testing
