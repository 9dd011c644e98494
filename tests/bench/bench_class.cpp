// A class of STUDENTS (default 300) joins a live quiz and answers one question over loopback, each
// student on their own connection from a client thread, while HOSTILE (default 300) connections
// from other loopback addresses sit open and silent, and the projector's window redraws on the
// GUI thread. Prints one JSON object: the time from the first join to the last accepted answer,
// the answers accepted and found in the results, the students' request latencies (p50, p99,
// max), and the projector's longest gap between frames. The target: all within 10 s, every
// accepted answer in the results once, p99 under 100 ms, frame gaps small.
//   QT_QPA_PLATFORM=offscreen build/tests/bench/bench_class [STUDENTS] [HOSTILE]
// The students come from 127.0.0.1 to 127.0.0.200, as a classroom's computers from their own
// addresses; a few share one, so the joins-per-address limit is raised for the run, and
// --max-students (default 200) to the class; every other limit is the default.

#include "class/class_window.h"
#include "core/error.h"

#include "lockstep_lessons/lesson.h"

#include <QApplication>
#include <QDir>
#include <QElapsedTimer>
#include <QEventLoop>
#include <QJsonDocument>
#include <QJsonObject>
#include <QTcpSocket>
#include <QTemporaryDir>
#include <QThread>
#include <QTimer>

#include <algorithm>
#include <atomic>
#include <cstdio>
#include <memory>
#include <optional>
#include <vector>

namespace {

// One student: a connection, a join, then an answer, each a whole HTTP/1.1 request.
class Student : public QObject {
public:
    Student(quint16 port, QString code, QString name, QString question, QString answer,
            std::atomic<int>& accepted, std::atomic<int>& done, std::vector<qint64>& latencies,
            QHostAddress from)
        : latencies_(latencies)
        , from_(std::move(from))
        , port_(port)
        , code_(std::move(code))
        , name_(std::move(name))
        , question_(std::move(question))
        , answer_(std::move(answer))
        , accepted_(accepted)
        , done_(done) {}

    void start() {
        socket_ = new QTcpSocket(this);
        socket_->bind(from_);
        connect(socket_, &QTcpSocket::connected, this, [this] {
            send("/api/join", QJsonObject{{"code", code_}, {"name", name_}}, {});
        });
        connect(socket_, &QTcpSocket::readyRead, this, [this] { read(); });
        connect(socket_, &QTcpSocket::errorOccurred, this, [this] { finish(); });
        socket_->connectToHost(QHostAddress::LocalHost, port_);
    }

private:
    void send(const QByteArray& path, const QJsonObject& body, const QByteArray& token) {
        const QByteArray json = QJsonDocument(body).toJson(QJsonDocument::Compact);
        QByteArray request =
            "POST " + path + " HTTP/1.1\r\nHost: 127.0.0.1\r\n" +
            "Content-Type: application/json\r\nContent-Length: " + QByteArray::number(json.size()) +
            "\r\n";
        if (!token.isEmpty())
            request += "Authorization: Bearer " + token + "\r\n";
        sent_.start();
        socket_->write(request + "\r\n" + json);
    }

    void read() {
        buffer_ += socket_->readAll();
        const qsizetype end = buffer_.indexOf("\r\n\r\n");
        if (end < 0)
            return;
        qsizetype length = 0;
        for (const QByteArray& line : buffer_.left(end).split('\n'))
            if (line.toLower().startsWith("content-length:"))
                length = line.mid(15).trimmed().toLongLong();
        if (buffer_.size() < end + 4 + length)
            return;
        latencies_.push_back(sent_.nsecsElapsed());
        const bool ok = buffer_.startsWith("HTTP/1.1 200");
        const QJsonObject reply = QJsonDocument::fromJson(buffer_.mid(end + 4, length)).object();
        buffer_.remove(0, end + 4 + length);
        if (token_.isEmpty()) {
            token_ = reply.value("token").toString().toLatin1();
            if (!ok || token_.isEmpty())
                return finish();
            send("/api/answer", QJsonObject{{"question", question_}, {"answer", answer_}}, token_);
            return;
        }
        if (ok && reply.value("accepted").toBool())
            ++accepted_;
        finish();
    }

    void finish() {
        if (finished_)
            return;
        finished_ = true;
        ++done_;
        socket_->disconnectFromHost();
    }

    std::vector<qint64>& latencies_; // of every request, on the clients' thread
    QElapsedTimer sent_;
    QHostAddress from_;
    quint16 port_;
    QString code_;
    QString name_;
    QString question_;
    QString answer_;
    std::atomic<int>& accepted_;
    std::atomic<int>& done_;
    QTcpSocket* socket_ = nullptr;
    QByteArray buffer_;
    QByteArray token_;
    bool finished_ = false;
};

} // namespace

int main(int argc, char** argv) {
    QApplication app(argc, argv);
    // The projector's quiz journals every join and answer (fdatasync each) to the data folder:
    // a temporary one here, on the same disk as the build.
    QTemporaryDir data(QDir::currentPath() + QStringLiteral("/bench-class-XXXXXX"));
    qputenv("XDG_DATA_HOME", data.path().toUtf8());
    const int students = argc > 1 ? std::max(1, std::atoi(argv[1])) : 300;
    const int hostile = argc > 2 ? std::max(0, std::atoi(argv[2])) : 300;
    lockstep::classroom::ClassLimits limits;
    limits.joins_per_minute = students + 10;
    limits.max_students = std::max(limits.max_students, students);
    std::optional<lockstep::lessons::QuizBank> bank;
    try {
        bank = lockstep::lessons::LessonLibrary::load(lockstep::lessons::default_resources_dir())
                   .load_bank_named(QStringLiteral("reductions"));
    } catch (const lockstep::Error& e) {
        std::fprintf(stderr, "bench_class: %s (LOCKSTEP_RESOURCES names the resources folder)\n",
                     e.what());
        return 2;
    }
    lockstep::app::ClassWindow projector(*bank, {0}, 0, {QHostAddress(QHostAddress::LocalHost)},
                                         limits);
    projector.resize(1280, 800);
    projector.show();
    auto& quiz = projector.quiz();
    quiz.open();
    const QString question = quiz.current_question()->id;

    // The projector's frames: a repaint every 16 ms, and the gaps between them.
    QElapsedTimer clock;
    clock.start();
    std::vector<qint64> gaps;
    qint64 last = 0;
    QTimer frames;
    frames.setInterval(16);
    QObject::connect(&frames, &QTimer::timeout, [&] {
        projector.repaint();
        const qint64 now = clock.nsecsElapsed();
        if (last > 0)
            gaps.push_back(now - last);
        last = now;
    });
    frames.start();

    std::atomic<int> accepted{0};
    std::atomic<int> done{0};
    QThread clients;
    clients.start();
    // The hostile: connections that never say a word, from 127.0.1.1, 127.0.1.2, ..., all open
    // before the class starts.
    QObject silent;
    silent.moveToThread(&clients);
    std::atomic<int> silent_open{0};
    QMetaObject::invokeMethod(&silent, [&] {
        for (int i = 0; i < hostile; ++i) {
            auto* socket = new QTcpSocket(&silent);
            socket->bind(QHostAddress(QStringLiteral("127.0.1.%1").arg(1 + i % 250)));
            QObject::connect(socket, &QTcpSocket::connected, [&silent_open] { ++silent_open; });
            socket->connectToHost(QHostAddress::LocalHost, projector.port());
        }
    });
    while (silent_open.load() < hostile && clock.elapsed() < 10'000)
        QCoreApplication::processEvents(QEventLoop::AllEvents, 10);

    std::vector<qint64> latencies;
    std::vector<std::unique_ptr<Student>> crowd;
    for (int i = 0; i < students; ++i) {
        crowd.push_back(std::make_unique<Student>(
            projector.port(), quiz.code(), QStringLiteral("Student %1").arg(i), question,
            QString::number(i % 10), accepted, done, latencies,
            QHostAddress(QStringLiteral("127.0.0.%1").arg(1 + i % 200))));
        crowd.back()->moveToThread(&clients);
    }
    const qint64 started = clock.nsecsElapsed();
    qint64 finished = 0;
    for (auto& s : crowd)
        QMetaObject::invokeMethod(s.get(), [p = s.get()] { p->start(); });
    QEventLoop loop; // not app.exec(): quitting the application would close the projector
    QTimer watch;
    watch.setInterval(5);
    QObject::connect(&watch, &QTimer::timeout, [&] {
        if (done.load() == students || clock.nsecsElapsed() - started > 60'000'000'000LL) {
            finished = clock.nsecsElapsed();
            loop.quit();
        }
    });
    watch.start();
    loop.exec();
    frames.stop();
    for (auto& s : crowd)
        QMetaObject::invokeMethod(
            s.get(), [&s] { s.reset(); }, Qt::BlockingQueuedConnection);
    // Still open when the class is done: the silent ones (the server closes them after 20 s).
    int silent_left = 0;
    QMetaObject::invokeMethod(
        &silent,
        [&] {
            for (QTcpSocket* socket : silent.findChildren<QTcpSocket*>())
                silent_left += socket->state() == QAbstractSocket::ConnectedState ? 1 : 0;
            qDeleteAll(silent.findChildren<QTcpSocket*>());
        },
        Qt::BlockingQueuedConnection);
    clients.quit();
    clients.wait();

    // Every accepted answer is in the results, as sent.
    projector.refresh();
    int in_results = 0;
    const QString csv = quiz.results_csv();
    for (const QString& line : csv.split('\n')) {
        const QStringList f = line.split(',');
        if (f.size() == 11 && f[0].startsWith("Student ") && !f[7].isEmpty() && f[10] == "0" &&
            f[7] == QString::number(f[0].mid(8).toInt() % 10))
            ++in_results;
    }
    std::sort(gaps.begin(), gaps.end());
    std::sort(latencies.begin(), latencies.end());
    const auto latency_ms = [&latencies](std::size_t permille) {
        return latencies.empty() ? 0.0
                                 : double(latencies[std::min(latencies.size() - 1,
                                                             latencies.size() * permille / 1000)]) /
                                       1e6;
    };
    const double seconds = double(finished - started) / 1e9;
    const double max_gap = gaps.empty() ? 0 : double(gaps.back()) / 1e6;
    const double p99 = gaps.empty() ? 0 : double(gaps[gaps.size() * 99 / 100]) / 1e6;
    std::printf("{\"bench\": \"class\", \"students\": %d, \"hostile\": %d, "
                "\"hostile_open\": %d, \"hostile_open_at_end\": %d, \"joined\": %d, "
                "\"accepted\": %d, \"in_results\": %d, \"seconds\": %.3f, \"requests\": %zu, "
                "\"latency_p50_ms\": %.1f, \"latency_p99_ms\": %.1f, \"latency_max_ms\": %.1f, "
                "\"frame_gap_max_ms\": %.1f, \"frame_gap_p99_ms\": %.1f, \"frames\": %zu}\n",
                students, hostile, silent_open.load(), silent_left, quiz.student_count(),
                accepted.load(), in_results, seconds, latencies.size(), latency_ms(500),
                latency_ms(990), latency_ms(1000), max_gap, p99, gaps.size());
    const bool ok = accepted.load() == students && in_results == accepted.load() &&
                    quiz.student_count() == students && seconds < 10 && latency_ms(990) < 100;
    return ok ? 0 : 1;
}
