// lockstep-cli class serve: the live class quiz from a terminal (docs/CLASS.md).
#include "class_command.h"

#include "options.h"

#include "lockstep_class/answer_journal.h"
#include "lockstep_class/class_server.h"
#include "lockstep_lessons/lesson.h"

#include "core/error.h"

#include <QCoreApplication>
#include <QFile>
#include <QFileInfo>
#include <QSaveFile>
#include <QSocketNotifier>
#include <QTimer>

#include <csignal>
#include <cstdio>
#include <sys/socket.h>
#include <unistd.h>

namespace lockstep::cli {

QString class_usage() {
    return Cli::tr(R"(
a live class quiz, answered from the students' browsers (docs/CLASS.md):
  class serve BANK [--questions id,id] [--port N] [--bind ADDRESS] [--max-students N]
                   [--results FILE.csv] [--journal FILE | --resume FILE]
                   [--blocked-words FILE] [--root DIR]
                                  serves the quiz on this machine's classroom (private)
                                  addresses, port 8080 by default; prints the students' address,
                                  the join code and the teacher's one-time link. Every change is
                                  in the journal on disk before it is acknowledged (--journal, or
                                  a new file in the data folder); --resume FILE goes on with a
                                  quiz from its journal, with the same code and tokens.
                                  --blocked-words FILE: words (one a line) no name may hold.
                                  Ctrl+C or SIGTERM ends it after writing the results.
)");
}

namespace {

QString q(const std::string& s) {
    return QString::fromStdString(s);
}

int signal_pipe[2] = {-1, -1};

extern "C" void on_signal(int) {
    const char byte = 1;
    // Only async-signal-safe calls here: one byte down the pipe; the event loop does the rest.
    [[maybe_unused]] const ssize_t n = ::write(signal_pipe[1], &byte, 1);
}

// The questions of --questions, or of `list` when given (a resumed journal's).
std::vector<int> question_order(const lessons::QuizBank& bank, const Options& o) {
    std::vector<int> order;
    const std::optional<std::string> list = o.text("--questions");
    if (!list)
        return order;
    QStringList ids;
    for (const lessons::Question& question : bank.questions)
        ids << question.id;
    for (const QString& raw : q(*list).split(QLatin1Char(','))) {
        const QString id = raw.trimmed();
        const auto i = ids.indexOf(id);
        if (i < 0)
            throw Error(utf8(Cli::tr("--questions: bank '%1' has no question '%2' (it has %3)")
                                 .arg(bank.id, id, ids.join(QStringLiteral(", ")))));
        if (std::find(order.begin(), order.end(), int(i)) != order.end())
            throw Error(utf8(Cli::tr("--questions: '%1' is named twice").arg(id)));
        order.push_back(int(i));
    }
    if (order.empty())
        throw Error(utf8(Cli::tr("--questions: name at least one question")));
    return order;
}

class ResultsFile {
public:
    explicit ResultsFile(QString path)
        : path_(std::move(path)) {
        // A class's results are never overwritten, this run's or another's: the file must be new.
        if (!path_.isEmpty() && QFileInfo::exists(path_))
            throw Error(utf8(Cli::tr("--results: %1 already exists; choose a new file, so that "
                                     "the results in it are kept")
                                 .arg(path_)));
    }
    bool wanted() const { return !path_.isEmpty(); }
    // Writes the whole file anew through a temporary file; a failure is reported, and the quiz
    // goes on, the answers still held in memory.
    bool write(classroom::ClassQuiz& quiz) {
        if (path_.isEmpty())
            return true;
        QSaveFile f(path_);
        const QByteArray csv = quiz.results_csv().toUtf8();
        if (!f.open(QIODevice::WriteOnly) || f.write(csv) != csv.size() || !f.commit()) {
            print_error(QStringLiteral("lockstep-cli: ") +
                        Cli::tr("cannot write the results to %1: %2").arg(path_, f.errorString()) +
                        QLatin1Char('\n'));
            return false;
        }
        return true;
    }
    QString path() const { return path_; }

private:
    QString path_;
};

int answers_of(const classroom::ClassQuiz& quiz) {
    int n = 0;
    for (const classroom::Student& s : quiz.students())
        n += int(s.responses.size());
    return n;
}

// --blocked-words FILE: a word a line; empty lines and lines from '#' on are skipped.
QStringList blocked_words(const QString& path) {
    QFile f(path);
    if (!f.open(QIODevice::ReadOnly))
        throw Error(
            utf8(Cli::tr("--blocked-words: cannot read %1: %2").arg(path, f.errorString())));
    constexpr qint64 kMostBytes = 1 << 20;
    const QByteArray bytes = f.read(kMostBytes + 1);
    if (bytes.size() > kMostBytes)
        throw Error(utf8(
            Cli::tr("--blocked-words: %1 is over 1 MiB; it should be a list of words").arg(path)));
    const QString text = QString::fromUtf8(bytes);
    if (text.contains(QChar::ReplacementCharacter) || bytes.contains('\0'))
        throw Error(utf8(Cli::tr("--blocked-words: %1 is not UTF-8 text").arg(path)));
    QStringList words;
    for (const QString& line : text.split(QLatin1Char('\n'))) {
        const QString word = line.section(QLatin1Char('#'), 0, 0).trimmed();
        if (!word.isEmpty())
            words << word;
    }
    return words;
}

int class_serve(const Options& o) {
    if (o.positional().size() != 1)
        throw Error(utf8(Cli::tr("expected: %1")
                             .arg(QStringLiteral("class serve BANK [--questions id,id] [--port N] "
                                                 "[--bind ADDRESS] [--max-students N] "
                                                 "[--results FILE.csv] [--blocked-words FILE] "
                                                 "[--journal FILE | "
                                                 "--resume FILE]"))));
    const QString root = o.text("--root") ? q(*o.text("--root")) : lessons::default_resources_dir();
    const lessons::LessonLibrary library = lessons::LessonLibrary::load(root);
    lessons::QuizBank bank = library.load_bank_named(q(o.positional().front()));
    // A quiz resumed from its journal asks the journal's questions.
    std::vector<QJsonObject> records;
    std::unique_ptr<classroom::AnswerJournal> journal;
    bool dropped = false;
    if (o.text("--resume")) {
        if (o.text("--journal") || o.text("--questions"))
            throw Error(utf8(Cli::tr("--resume goes on with the journal's quiz: it takes no "
                                     "--journal or --questions")));
        journal = classroom::AnswerJournal::resume(q(*o.text("--resume")), records, &dropped);
    }
    std::vector<int> order =
        journal ? classroom::journal_questions(bank, records.front()) : question_order(bank, o);
    classroom::ClassLimits limits;
    if (auto n = o.integer("--max-students", 1, 10000))
        limits.max_students = int(*n);
    const auto port = o.integer("--port", 0, 65535).value_or(8080);
    QList<QHostAddress> addresses;
    for (const std::string& b : o.texts("--bind"))
        addresses.append(classroom::parse_bind_address(q(b)));
    ResultsFile results(o.text("--results") ? q(*o.text("--results")) : QString());

    // The event loop is the one of main()'s application.
    classroom::ClassQuiz quiz(std::move(bank), std::move(order), limits);
    if (o.text("--blocked-words"))
        quiz.set_blocked_words(blocked_words(q(*o.text("--blocked-words"))));
    if (journal) {
        classroom::replay_journal(quiz, records, journal->path());
    } else {
        journal = classroom::AnswerJournal::create(
            o.text("--journal") ? q(*o.text("--journal"))
                                : classroom::AnswerJournal::default_path(quiz.bank().id));
        if (!journal->append(quiz.journal_start()))
            throw Error(utf8(
                Cli::tr("--journal: cannot write %1: %2").arg(journal->path(), journal->error())));
    }
    classroom::ClassServer server(quiz);
    server.set_journal(journal.get(), [&journal](const QString& why) {
        print_error(QStringLiteral("lockstep-cli: ") +
                    Cli::tr("cannot write to the journal %1: %2; changes are refused from now on")
                        .arg(journal->path(), why) +
                    QLatin1Char('\n'));
    });
    const quint16 listening = server.start(addresses, quint16(port));

    // Every accepted answer reaches the file within a second of the first change not yet
    // written (a steady trickle of answers does not put it off), and at once when a question
    // closes or the quiz ends; SIGINT, SIGTERM and SIGHUP (a closed terminal) write it before
    // leaving.
    QTimer save;
    save.setSingleShot(true);
    save.setInterval(1000);
    QObject::connect(&save, &QTimer::timeout, [&] { results.write(quiz); });
    if (results.wanted())
        QObject::connect(&server, &classroom::ClassServer::quizChanged, &save, [&save] {
            if (!save.isActive())
                save.start();
        });
    server.api().set_on_results([&] { results.write(quiz); });
    if (::socketpair(AF_UNIX, SOCK_STREAM, 0, signal_pipe) != 0)
        throw Error(utf8(Cli::tr("class serve: cannot set up the signal handler")));
    QSocketNotifier notifier(signal_pipe[0], QSocketNotifier::Read);
    QObject::connect(&notifier, &QSocketNotifier::activated, [&] {
        char byte = 0;
        [[maybe_unused]] const ssize_t n = ::read(signal_pipe[0], &byte, 1);
        notifier.setEnabled(false);
        QCoreApplication::quit();
    });
    struct sigaction action {};
    action.sa_handler = on_signal;
    sigemptyset(&action.sa_mask);
    sigaction(SIGINT, &action, nullptr);
    sigaction(SIGTERM, &action, nullptr);
    sigaction(SIGHUP, &action, nullptr);

    const QStringList urls = quiz.addresses();
    print(Cli::tr("class quiz: %1, %2 questions\n")
              .arg(quiz.bank().id, QString::number(quiz.question_count())));
    print(Cli::tr("students: %1\n").arg(urls.front()));
    for (qsizetype i = 1; i < urls.size(); ++i)
        print(Cli::tr("also: %1\n").arg(urls[i]));
    print(Cli::tr("join code: %1\n").arg(quiz.code()));
    // The teacher's link works once: the page takes a cookie for it and drops it from the
    // address bar. Each time one is spent, the next is printed here.
    const auto teacher_link = [&urls](const QByteArray& code) {
        return urls.front() + QStringLiteral("teacher?token=") + QString::fromLatin1(code);
    };
    print(Cli::tr("teacher: %1\n").arg(teacher_link(quiz.teacher_link())));
    quiz.set_on_teacher_link([&](const QByteArray& next) {
        print(Cli::tr("teacher's link used; the next one: %1\n").arg(teacher_link(next)));
        std::fflush(stdout);
    });
    if (results.wanted())
        print(Cli::tr("results: %1\n").arg(results.path()));
    print(Cli::tr("journal: %1\n").arg(journal->path()));
    if (!records.empty())
        print(Cli::tr("resumed: %1 students, question %2 of %3, %4%5\n")
                  .arg(QString::number(quiz.student_count()),
                       QString::number(std::max(0, quiz.current()) + 1),
                       QString::number(quiz.question_count()), to_string(quiz.phase()),
                       dropped ? Cli::tr(" (a last line cut off was dropped)") : QString()));
    print(Cli::tr("port %1; Ctrl+C ends the quiz\n").arg(QString::number(unsigned(listening))));
    std::fflush(stdout);

    QCoreApplication::exec();
    save.stop();
    const bool written = results.write(quiz);
    signal(SIGINT, SIG_DFL);
    signal(SIGTERM, SIG_DFL);
    signal(SIGHUP, SIG_DFL);
    ::close(signal_pipe[0]);
    ::close(signal_pipe[1]);
    if (results.wanted() && written)
        print(Cli::tr("results: %1 answers of %2 students written to %3\n")
                  .arg(QString::number(answers_of(quiz)), QString::number(quiz.students().size()),
                       results.path()));
    std::fflush(stdout);
    return written ? 0 : 1;
}

} // namespace

int command_class(const std::vector<std::string>& args) {
    if (args.empty())
        throw Error(utf8(Cli::tr("class: expected serve")));
    const std::vector<std::string> rest(args.begin() + 1, args.end());
    const Options o(rest,
                    {"--questions", "--port", "--bind", "--max-students", "--results", "--journal",
                     "--resume", "--blocked-words", "--root"},
                    {});
    if (args.front() == "serve")
        return class_serve(o);
    throw Error(utf8(Cli::tr("class: unknown subcommand '%1' (serve)").arg(q(args.front()))));
}

} // namespace lockstep::cli
