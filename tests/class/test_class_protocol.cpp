// The class quiz's HTTP protocol (docs/CLASS.md), over loopback with a real ClassServer, and the
// rules behind it through ClassApi directly where a clock is needed.
#include "lockstep_class/answer_journal.h"
#include "lockstep_class/class_api.h"
#include "lockstep_class/class_page_texts.h"
#include "lockstep_class/class_server.h"
#include "lockstep_lessons/language.h"
#include "lockstep_lessons/lesson.h"

#include "class_support.h"
#include "test_support.h"

#include <QElapsedTimer>
#include <QEventLoop>
#include <QFile>
#include <QFileInfo>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QNetworkAccessManager>
#include <QNetworkReply>
#include <QProcess>
#include <QRegularExpression>
#include <QSet>
#include <QTemporaryDir>
#include <QTest>
#include <QTimer>
#include <QWebSocket>

#include <csignal>
#include <memory>

using namespace lockstep;
using namespace lockstep::classroom;
using lockstep::testing::Client;
using lockstep::testing::reductions;
using lockstep::testing::Reply;
using lockstep::testing::Served;
using lockstep::testing::ServeProcess;

namespace {

HttpRequest request(const QByteArray& method, const QByteArray& path, const QJsonObject& body,
                    const QByteArray& token = {}, qint64 now = 0,
                    const QString& peer = "127.0.0.2") {
    HttpRequest r;
    r.method = method;
    r.path = path;
    r.body = QJsonDocument(body).toJson(QJsonDocument::Compact);
    r.headers.append(Headers::value_type("Content-Type", "application/json"));
    if (!token.isEmpty())
        r.headers.append({"Authorization", "Bearer " + token});
    r.now_ms = now;
    r.peer = peer;
    return r;
}

QJsonObject object_of(const HttpResponse& r) {
    return QJsonDocument::fromJson(r.body).object();
}

} // namespace

class TestClassProtocol : public QObject {
    Q_OBJECT

private Q_SLOTS:
    // Every word of the pages goes through the table the server translates: each t('...') of
    // the scripts and each data-t text and attribute of the HTML is in class_page_texts(), and
    // nothing in the table is left unused. /strings.js carries them in the language in use.
    void the_pages_words_are_all_translatable() {
        QSet<QString> table;
        for (const char* text : lockstep::classroom::class_page_texts())
            table.insert(QString::fromUtf8(text));
        QSet<QString> used;
        const QString dir = QStringLiteral(LOCKSTEP_SOURCE_DIR "/resources/class/");
        static const QRegularExpression call(QStringLiteral("\\bt\\(\\s*'((?:[^'\\\\]|\\\\.)*)'"));
        static const QRegularExpression marked(
            QStringLiteral("<([a-z0-9]+)[^>]*\\bdata-t(?![-\\w])[^>]*>([^<]*)(?=<)"));
        static const QRegularExpression attribute(
            QStringLiteral("data-t-(placeholder|aria-label|title|alt)=\"([^\"]*)\""));
        for (const QString& name : {QStringLiteral("live.js"), QStringLiteral("student.js"),
                                    QStringLiteral("teacher.js")}) {
            QFile f(dir + name);
            QVERIFY(f.open(QIODevice::ReadOnly));
            const QString js = QString::fromUtf8(f.readAll());
            auto it = call.globalMatch(js);
            while (it.hasNext()) {
                QString text = it.next().captured(1);
                text.replace(QStringLiteral("\\'"), QStringLiteral("'"));
                used.insert(text);
                QVERIFY2(table.contains(text), qPrintable(name + QStringLiteral(": ") + text));
            }
        }
        for (const QString& name : {QStringLiteral("index.html"), QStringLiteral("teacher.html")}) {
            QFile f(dir + name);
            QVERIFY(f.open(QIODevice::ReadOnly));
            const QString html = QString::fromUtf8(f.readAll());
            for (const QRegularExpression* re : {&marked, &attribute}) {
                auto it = re->globalMatch(html);
                while (it.hasNext()) {
                    QString text = it.next().captured(2).simplified();
                    text.replace(QStringLiteral("&amp;"), QStringLiteral("&"));
                    if (text.isEmpty())
                        continue;
                    used.insert(text);
                    QVERIFY2(table.contains(text), qPrintable(name + QStringLiteral(": ") + text));
                }
            }
        }
        QVERIFY(used.size() > 80);
        for (const QString& text : table)
            QVERIFY2(used.contains(text), qPrintable(QStringLiteral("unused: ") + text));

        QVERIFY(lockstep::lessons::set_language(QStringLiteral("de")));
        const QByteArray german = lockstep::classroom::strings_script();
        QVERIFY(lockstep::lessons::set_language(QStringLiteral("en")));
        const QByteArray english = lockstep::classroom::strings_script();
        QVERIFY(german.startsWith("window.lockstepLanguage = \"de\";"));
        QVERIFY(english.startsWith("window.lockstepLanguage = \"en\";"));
        // In English nothing needs replacing; in German every word has its translation.
        QVERIFY(english.contains("window.lockstepStrings = {};"));
        const qsizetype brace = german.indexOf('{');
        const QJsonObject strings =
            QJsonDocument::fromJson(german.mid(brace, german.lastIndexOf('}') - brace + 1))
                .object();
        // (A word the same in German, "Code", needs no entry.)
        QVERIFY(strings.size() > table.size() * 9 / 10);
        QVERIFY(!strings.value(QStringLiteral("Join")).toString().isEmpty());
    }

    void join_with_a_wrong_code_is_refused() {
        Served s;
        const Reply wrong = s.client.post("/api/join", {{"code", "0000"}, {"name", "Ana"}});
        QCOMPARE(wrong.status, 403);
        LOCKSTEP_VERIFY_CONTAINS(wrong.json.value("error").toString(), QStringLiteral("code"));
        QVERIFY(!wrong.json.contains("token"));
        QCOMPARE(s.quiz.student_count(), 0);
        const Reply right = s.client.post("/api/join", {{"code", s.quiz.code()}, {"name", "Ana"}});
        QCOMPARE(right.status, 200);
        QCOMPARE(right.json.value("token").toString().size(), 32); // 128 bits in hex
        QCOMPARE(s.quiz.student_count(), 1);
    }

    void answers_are_taken_only_while_the_question_is_open() {
        Served s;
        const QByteArray ana = s.join("Ana");
        const Reply early =
            s.client.post("/api/answer", {{"question", "mean-two-workers"}, {"answer", "5"}}, ana);
        QCOMPARE(early.status, 409);
        LOCKSTEP_VERIFY_CONTAINS(early.json.value("error").toString(), QStringLiteral("not open"));
        QCOMPARE(s.teacher("open").status, 200);
        const Reply other =
            s.client.post("/api/answer", {{"question", "sum-two-workers"}, {"answer", "5"}}, ana);
        QCOMPARE(other.status, 409);
        QCOMPARE(s.answer(ana, "5").status, 200);
        QCOMPARE(s.answer(ana, "6").status, 200); // changed while open: the last one counts
        QCOMPARE(s.teacher("close").status, 200);
        const Reply late = s.answer(ana, "7");
        QCOMPARE(late.status, 409);
        LOCKSTEP_VERIFY_CONTAINS(late.json.value("error").toString(), QStringLiteral("closed"));
        QCOMPARE(s.quiz.students()[0].responses.at(0).text, QStringLiteral("6"));
        // Out of turn for the teacher too.
        QCOMPARE(s.teacher("close").status, 409);
        QCOMPARE(s.teacher("next").status, 409);
    }

    void the_key_never_reaches_a_student_before_the_reveal() {
        Served s;
        const QByteArray ana = s.join("Ana");
        QCOMPARE(s.teacher("open").status, 200);
        const lessons::QuestionInstance& in = s.quiz.instance("Ana", 0);
        const QString explanation = in.explanation;
        const QString mistake = s.quiz.current_question()->mistakes.front().feedback;
        auto leaks = [&](const Reply& r) {
            const QString body = QString::fromUtf8(r.body);
            return body.contains(explanation) || body.contains(mistake.left(30)) ||
                   r.json.contains("correct") || r.json.value("result").isObject() ||
                   body.contains("\"explanation\"") || body.contains("mistake");
        };
        for (const char* phase : {"open", "close"}) {
            if (QByteArray(phase) == "close")
                QCOMPARE(s.teacher("close").status, 200);
            const Reply state = s.client.get("/api/state", ana);
            const Reply question = s.client.get("/api/question", ana);
            QCOMPARE(state.status, 200);
            QVERIFY2(!leaks(state), state.body.constData());
            QVERIFY2(!leaks(question), question.body.constData());
            QVERIFY(question.json.value("text").toString().contains(
                lessons::format_value(in.values.value("g0"))));
        }
        // The teacher's histogram, the reveal and the results are the teacher's only.
        for (const QString& path :
             {QStringLiteral("/api/teacher/state"), QStringLiteral("/api/teacher/results")}) {
            QCOMPARE(s.client.get(path).status, 401);
            QCOMPARE(s.client.get(path, ana).status, 401);
        }
        QCOMPARE(s.teacher("reveal").status, 200);
        const Reply after = s.client.get("/api/state", ana);
        const QJsonObject result = after.json.value("result").toObject();
        QCOMPARE(result.value("correct").toString(), in.answer_text());
        QCOMPARE(result.value("verdict").toString(), QStringLiteral("unanswered"));
        QCOMPARE(result.value("explanation").toString(), explanation);
    }

    void a_student_is_their_token_and_nobody_else() {
        Served s;
        const QByteArray ana = s.join("Ana");
        const QByteArray ben = s.join("Ben");
        QVERIFY(ana != ben);
        QCOMPARE(s.teacher("open").status, 200);
        const QString right = s.quiz.instance("Ben", 0).answer_text();
        QCOMPARE(s.answer(ben, right).status, 200);
        QCOMPARE(s.answer(ana, "1").status, 200);
        // Ana sees her own answer only; a made-up token is nobody.
        QCOMPARE(s.client.get("/api/state", ana).json.value("answer").toString(),
                 QStringLiteral("1"));
        QCOMPARE(s.client.get("/api/state", "0123456789abcdef0123456789abcdef").status, 401);
        QCOMPARE(s.client.get("/api/state").status, 401);
        // A student's token opens no teacher's endpoint, nor the teacher's page.
        QCOMPARE(s.client.post("/api/teacher/reveal", {}, ana).status, 401);
        QCOMPARE(s.client.get("/teacher?token=" + QString::fromLatin1(ana)).status, 403);
        QCOMPARE(s.client.get("/teacher").status, 403);
        QCOMPARE(
            s.client.get("/teacher?token=" + QString::fromLatin1(s.quiz.teacher_token())).status,
            200);
        QCOMPARE(s.teacher("close").status, 200);
        QCOMPARE(s.teacher("reveal").status, 200);
        QCOMPARE(s.client.get("/api/state", ben)
                     .json.value("result")
                     .toObject()
                     .value("verdict")
                     .toString(),
                 QStringLiteral("correct"));
        QCOMPARE(s.client.get("/api/state", ana)
                     .json.value("result")
                     .toObject()
                     .value("verdict")
                     .toString(),
                 QStringLiteral("wrong"));
        // A removed student's token stops working, with the reason.
        const Reply removed =
            s.client.post("/api/teacher/remove", {{"student", "s1"}}, s.quiz.teacher_token());
        QCOMPARE(removed.status, 200);
        const Reply gone = s.client.get("/api/state", ana);
        QCOMPARE(gone.status, 401);
        LOCKSTEP_VERIFY_CONTAINS(gone.json.value("error").toString(), QStringLiteral("removed"));
    }

    // The teacher's link opens the page once: it is spent for a cookie the page's script cannot
    // read, and the browser is sent on to /teacher, with no token in its address.
    void the_teacher_link_is_spent_for_a_cookie() {
        ClassQuiz quiz(reductions(), {});
        ClassApi api(quiz);
        const QByteArray link = quiz.teacher_link();
        QVERIFY(link != quiz.teacher_token());
        HttpRequest open = request("GET", "/teacher", {});
        open.query = "token=" + link;
        const HttpResponse spent = api.handle(open);
        QCOMPARE(spent.status, 303);
        QByteArray location;
        QByteArray set_cookie;
        for (const auto& [name, value] : spent.headers) {
            location = name == "Location" ? value : location;
            set_cookie = name == "Set-Cookie" ? value : set_cookie;
        }
        QCOMPARE(location, QByteArray("/teacher"));
        QVERIFY(set_cookie.contains("; HttpOnly"));
        QVERIFY(set_cookie.contains("; SameSite=Strict"));
        const QByteArray session =
            set_cookie.left(set_cookie.indexOf(';')).mid(set_cookie.indexOf('=') + 1);
        QVERIFY(!session.isEmpty() && session != link && session != quiz.teacher_token());
        // Once: the same link again is refused, and a new one was made.
        QCOMPARE(api.handle(open).status, 403);
        QVERIFY(quiz.teacher_link() != link);
        // The cookie opens the page and the API.
        HttpRequest page = request("GET", "/teacher", {});
        page.headers.append(
            Headers::value_type("Cookie", "theme=dark; lockstep_teacher=" + session));
        QCOMPARE(api.handle(page).status, 200);
        HttpRequest state = request("GET", "/api/teacher/state", {});
        state.headers = page.headers;
        state.headers.append(Headers::value_type("Host", "127.0.0.1:8080"));
        state.headers.append(Headers::value_type("Origin", "http://127.0.0.1:8080"));
        QCOMPARE(api.handle(state).status, 200);
        // Not from another site's page, not with a made-up cookie, and not without one.
        state.headers.back().second = "http://elsewhere.example";
        QCOMPARE(api.handle(state).status, 403);
        page.headers.back().second = "lockstep_teacher=0123456789abcdef0123456789abcdef";
        QCOMPARE(api.handle(page).status, 403);
        QCOMPARE(api.handle(request("GET", "/teacher", {})).status, 403);
    }

    // Guessing the code is limited for the class, from every address together: the code
    // changes, the teacher sees the tries, and a whole class behind one router still joins.
    void join_codes_are_guessed_against_the_class_not_an_address() {
        ClassQuiz quiz(reductions(), {});
        QCOMPARE(quiz.code().size(), 6);
        const QString first = quiz.code();
        const int limit = ClassLimits{}.wrong_codes_per_minute;
        QByteArray token;
        QString display;
        // Wrong guesses from `limit` addresses (the code itself skipped), one each.
        for (int i = 0, guess = 100000; i < limit; ++i, ++guess) {
            if (QString::number(guess) == first)
                ++guess;
            const auto r = quiz.join(QString::number(guess), "Eve",
                                     QStringLiteral("127.1.%1.%2").arg(i / 250).arg(i % 250),
                                     1000 + i, token, display);
            QVERIFY(r);
            QCOMPARE(r->status, 403);
        }
        // The limit is reached: a new code, and no one joins for the rest of the minute, with the
        // right code or not.
        QCOMPARE(quiz.wrong_codes(), limit);
        QVERIFY(quiz.code() != first);
        QCOMPARE(quiz.code_changes(), 1);
        QCOMPARE(quiz.teacher_state().value("wrong_codes").toInt(), limit);
        QCOMPARE(quiz.join(quiz.code(), "Ana", "127.0.0.5", 5000, token, display)->status, 429);
        QVERIFY(!quiz.join(quiz.code(), "Ana", "127.0.0.5", 62'000, token, display));
        // Thirty students behind one address join within ten seconds.
        ClassQuiz behind_nat(reductions(), {});
        for (int i = 0; i < 30; ++i)
            QVERIFY(!behind_nat.join(behind_nat.code(), QStringLiteral("Student %1").arg(i),
                                     "127.0.0.9", i * 300, token, display));
        QCOMPARE(behind_nat.student_count(), 30);
    }

    // No two students look alike on the projector; invisible characters are refused; a name
    // the teacher removed stays out, however it is typed.
    void names_that_look_alike_are_told_apart_and_removed_ones_stay_out() {
        ClassQuiz quiz(reductions(), {});
        QByteArray token;
        QString display;
        const auto join = [&](const QString& name) {
            const auto r = quiz.join(quiz.code(), name, "127.0.0.2", 0, token, display);
            return r ? r->status : 200;
        };
        QCOMPARE(join("Ana"), 200);
        QCOMPARE(join(QString::fromUtf8("\u0410na")), 200); // a Cyrillic А
        QCOMPARE(display, QString::fromUtf8("\u0410na #2"));
        QCOMPARE(join("ana"), 200);
        QCOMPARE(display, QStringLiteral("ana #3"));
        QCOMPARE(join(QString::fromUtf8("An\u200Ba")), 400); // a zero-width space
        QCOMPARE(join(QString::fromUtf8("Ana\u202E")), 400); // a right-to-left override
        QCOMPARE(join(QString::fromUtf8("\u3164")), 400);    // a Hangul filler: looks empty
        QCOMPARE(join(QString::fromUtf8("\uFF22\uFF45\uFF4E")), 200); // full-width Ben
        QCOMPARE(display, QStringLiteral("Ben"));
        QVERIFY(!quiz.remove(quiz.students().back().id));
        for (const QString& again : {QStringLiteral("Ben"), QStringLiteral("ben"),
                                     QStringLiteral("Ben #2"), QString::fromUtf8("\u0412en")})
            QCOMPARE(join(again), 403);
        QCOMPARE(join("Benedikt"), 200);
        // A school's list of words: whole words, in any case or look-alike letters.
        quiz.set_blocked_words({"Badword", "# not a word", ""});
        QCOMPARE(join("badword"), 400);
        QCOMPARE(join(QString::fromUtf8("Ana B\u0430dword")), 400); // a Cyrillic а
        QCOMPARE(join("Ana-BADWORD"), 400);
        QCOMPARE(join("Badwordson"), 200); // not the word
    }

    // --blocked-words names a file that is read, or says why not.
    void blocked_words_come_from_a_file() {
        QProcess cli;
        cli.start(LOCKSTEP_CLI_PATH, {"class", "serve", "reductions", "--port", "0", "--bind",
                                      "127.0.0.1", "--blocked-words", "/nonexistent/words.txt"});
        QVERIFY(cli.waitForFinished(20000));
        QCOMPARE(cli.exitCode(), 1);
        const QString err = QString::fromUtf8(cli.readAllStandardError());
        QVERIFY2(err.contains("--blocked-words: cannot read /nonexistent/words.txt"),
                 qPrintable(err));
    }

    // The teacher moves back and skips; a question on a timer closes by itself; the scores count
    // only what was revealed; the journal replays it all.
    void the_teacher_skips_goes_back_and_times_questions() {
        ClassQuiz quiz(reductions(), {0, 1, 2});
        std::vector<QJsonObject> written{quiz.journal_start()};
        quiz.set_journal([&](const QJsonObject& r) {
            written.push_back(r);
            return true;
        });
        QByteArray token;
        QString display;
        QVERIFY(!quiz.join(quiz.code(), "Ana", "127.0.0.1", 0, token, display));
        QCOMPARE(quiz.back()->status, 409); // nothing before the lobby
        QCOMPARE(quiz.set_timer(-1)->status, 400);
        QVERIFY(!quiz.set_timer(10));
        QVERIFY(!quiz.open());
        QCOMPARE(quiz.seconds_left(), 10);
        quiz.tick(1000); // the time starts
        quiz.tick(6000);
        QCOMPARE(quiz.seconds_left(), 5);
        QJsonObject reply;
        QVERIFY(!quiz.answer(0, quiz.current_question()->id, quiz.instance("Ana", 0).answer_text(),
                             reply));
        quiz.tick(10'999);
        QCOMPARE(quiz.phase(), Phase::Open);
        quiz.tick(11'000);
        QCOMPARE(quiz.phase(), Phase::Closed);               // by itself, at ten seconds
        QCOMPARE(quiz.correct_count(quiz.students()[0]), 0); // not revealed yet
        QVERIFY(!quiz.set_timer(0));
        QVERIFY(!quiz.skip()); // question 1 stays closed, unrevealed
        QCOMPARE(quiz.current(), 1);
        QCOMPARE(quiz.phase(), Phase::Open);
        QCOMPARE(quiz.seconds_left(), -1);
        quiz.tick(100'000);
        QCOMPARE(quiz.phase(), Phase::Open); // no timer now
        QVERIFY(!quiz.back());
        QCOMPARE(quiz.current(), 0);
        QCOMPARE(quiz.phase(), Phase::Closed); // as it was left
        QCOMPARE(quiz.answer(0, quiz.current_question()->id, "1", reply)->status, 409);
        QVERIFY(!quiz.reveal());
        QCOMPARE(quiz.correct_count(quiz.students()[0]), 1);
        QVERIFY(!quiz.next());
        QCOMPARE(quiz.current(), 1);
        QCOMPARE(quiz.phase(), Phase::Open); // left open: open again
        QVERIFY(!quiz.skip());
        QVERIFY(!quiz.skip());
        QCOMPARE(quiz.phase(), Phase::Finished);
        QVERIFY(!quiz.back());
        QCOMPARE(quiz.current(), 2);
        QCOMPARE(quiz.phase(), Phase::Closed);
        // The results hold the three questions asked; the journal gives the same quiz.
        QCOMPARE(quiz.results_csv().count('\n'), 4);
        ClassQuiz copy(reductions(), {0, 1, 2});
        for (const QJsonObject& r : written)
            QVERIFY2(!copy.replay(r), qPrintable(QJsonDocument(r).toJson()));
        QCOMPARE(copy.current(), 2);
        QCOMPARE(copy.phase(), Phase::Closed);
        QCOMPARE(copy.correct_count(copy.students()[0]), 1);
        QCOMPARE(copy.results_csv(), quiz.results_csv());
    }

    // The projector shows no name until the teacher asks; the view and the timer are the
    // teacher's alone, and a bad value is refused by name.
    void the_projector_is_anonymous_until_the_teacher_says() {
        ClassQuiz quiz(reductions(), {});
        ClassApi api(quiz);
        const QByteArray teacher = quiz.teacher_token();
        QJsonObject state =
            object_of(api.handle(request("GET", "/api/teacher/state", {}, teacher)));
        QCOMPARE(state["view"].toObject()["names"].toBool(), false);
        QCOMPARE(state["view"].toObject()["ranking"].toBool(), false);
        QCOMPARE(state["view"].toObject()["histogram"].toBool(), true);
        HttpResponse r =
            api.handle(request("POST", "/api/teacher/view", {{"histogram", false}}, teacher));
        QCOMPARE(r.status, 200);
        QCOMPARE(quiz.view().histogram, false);
        QCOMPARE(quiz.view().names, false); // untouched
        r = api.handle(request("POST", "/api/teacher/view", {{"names", "yes"}}, teacher));
        QCOMPARE(r.status, 400);
        QVERIFY(object_of(r)["error"].toString().contains("names"));
        for (const QJsonValue& bad :
             {QJsonValue(2.5), QJsonValue("60"), QJsonValue(-5), QJsonValue(1e12), QJsonValue()}) {
            r = api.handle(request("POST", "/api/teacher/timer", {{"seconds", bad}}, teacher));
            QCOMPARE(r.status, 400);
            QVERIFY(object_of(r)["error"].toString().contains("0 (none) to 3600 seconds"));
        }
        QCOMPARE(quiz.timer(), 0);
        r = api.handle(request("POST", "/api/teacher/timer", {{"seconds", 90}}, teacher));
        QCOMPARE(r.status, 200);
        QCOMPARE(object_of(r)["timer"].toInt(), 90);
        QByteArray token;
        QString display;
        QVERIFY(!quiz.join(quiz.code(), "Ana", "127.0.0.1", 0, token, display));
        QCOMPARE(api.handle(request("POST", "/api/teacher/view", {{"names", true}}, token)).status,
                 401);
        QCOMPARE(api.handle(request("POST", "/api/teacher/skip", {}, token)).status, 401);
    }

    // Each student sees a choice question's choices in an order of their own; their own letter
    // is marked, and counted on the histogram as the bank's choice it is.
    void each_student_has_their_own_order_of_choices() {
        Served s(ClassLimits{}, {5}); // which-rule: one of four
        const lessons::Question& q = s.quiz.bank().questions[5];
        QSet<QString> orders;
        std::vector<QByteArray> tokens;
        for (int i = 0; i < 8; ++i) {
            const QString name = QStringLiteral("N%1").arg(i);
            tokens.push_back(s.join(name));
            const lessons::QuestionInstance& in = s.quiz.instance(name, 0);
            QStringList sorted = in.choices;
            sorted.sort();
            QStringList bank = q.choices;
            bank.sort();
            QCOMPARE(sorted, bank); // the same choices
            QCOMPARE(in.choices[in.correct.front()], q.choices[q.correct.front()]);
            orders.insert(in.choices.join('|'));
        }
        QVERIFY2(orders.size() >= 4, "eight students share too few orders");
        QCOMPARE(s.teacher("open").status, 200);
        // Every student picks the right choice by their own letter.
        for (int i = 0; i < 8; ++i) {
            const lessons::QuestionInstance& in = s.quiz.instance(QStringLiteral("N%1").arg(i), 0);
            QCOMPARE(
                s.answer(tokens[std::size_t(i)], QString(QChar(u'a' + in.correct.front()))).status,
                200);
        }
        QCOMPARE(s.teacher("close").status, 200);
        const std::vector<Bar> bars = s.quiz.histogram();
        QCOMPARE(bars[std::size_t(q.correct.front())].count, 8);
        QCOMPARE(bars[std::size_t(q.correct.front())].kind, QStringLiteral("right"));
        // The projector's copy keeps the bank's order, so its letters match the bars.
        QCOMPARE(s.quiz.instance("N0", 0, false).choices, q.choices);
    }

    // 200 made-up names fill the class; the teacher removes them in one action and the real
    // student gets in; the results keep them, marked removed.
    void a_flood_of_names_goes_in_one_action() {
        ClassLimits limits;
        limits.max_students = 200;
        ClassQuiz quiz(reductions(), {}, limits);
        ClassApi api(quiz);
        QByteArray token;
        QString display;
        QStringList flood;
        for (int i = 0; i < 200; ++i) {
            QVERIFY(!quiz.join(quiz.code(), QStringLiteral("x%1").arg(i),
                               QStringLiteral("127.0.1.%1").arg(i % 11), i, token, display));
            flood << quiz.students().back().id;
        }
        QCOMPARE(quiz.join(quiz.code(), "Real", "127.0.2.1", 300, token, display)->status, 503);
        HttpResponse r =
            api.handle(request("POST", "/api/teacher/remove",
                               {{"students", QJsonArray{"s1", "s999"}}}, quiz.teacher_token()));
        QCOMPARE(r.status, 404); // one not there: none removed
        QCOMPARE(quiz.student_count(), 200);
        r = api.handle(request("POST", "/api/teacher/remove",
                               {{"students", QJsonArray::fromStringList(flood)}},
                               quiz.teacher_token()));
        QCOMPARE(r.status, 200);
        QCOMPARE(quiz.student_count(), 0);
        QVERIFY(!quiz.join(quiz.code(), "Real", "127.0.2.1", 400, token, display));
        QVERIFY(!quiz.open());
        const QString csv = quiz.results_csv();
        QVERIFY(csv.startsWith("student,bank,question,type,values,answer,tolerance,response,"
                               "verdict,correct,removed\n"));
        QVERIFY2(csv.contains(QRegularExpression("\nx7,reductions,[^\n]*,1\n")), qPrintable(csv));
        QVERIFY2(csv.contains(QRegularExpression("\nReal,reductions,[^\n]*,0\n")), qPrintable(csv));
    }

    // Requests with tokens that are no one's are limited per address, like wrong join codes.
    void made_up_tokens_are_limited() {
        ClassQuiz quiz(reductions(), {});
        ClassApi api(quiz);
        int unauthorised = 0;
        int status = 401;
        for (int i = 0; i < 500 && status == 401; ++i) {
            status =
                api.handle(request("GET", "/api/state", {}, random_token(), i, "127.0.0.9")).status;
            unauthorised += status == 401 ? 1 : 0;
        }
        QCOMPARE(status, 429);
        QCOMPARE(unauthorised, quiz.limits().bad_tokens_per_minute);
        QCOMPARE(
            api.handle(request("GET", "/api/teacher/state", {}, random_token(), 600, "127.0.0.9"))
                .status,
            429);
        // Another address, and a minute later the same one, are heard again.
        QCOMPARE(
            api.handle(request("GET", "/api/state", {}, random_token(), 600, "127.0.0.10")).status,
            401);
        QCOMPARE(api.handle(request("GET", "/api/state", {}, random_token(), 61'000, "127.0.0.9"))
                     .status,
                 401);
    }

    // One page per student, their own numbers and answer, the working once revealed; names
    // stay text.
    void each_student_gets_a_report_of_their_own() {
        Served s;
        const QByteArray ana = s.join("Ana");
        const QByteArray evil = s.join("<b>Eve</b>");
        QCOMPARE(s.teacher("open").status, 200);
        QCOMPARE(s.answer(ana, s.quiz.instance("Ana", 0).answer_text()).status, 200);
        QString html =
            QString::fromUtf8(s.client.get("/api/teacher/reports", s.quiz.teacher_token()).body);
        QCOMPARE(html.count("<section>"), 2);
        QVERIFY(html.contains("&lt;b&gt;Eve&lt;/b&gt;"));
        QVERIFY(!html.contains("<b>Eve"));
        QVERIFY(html.contains(s.quiz.instance("Ana", 0).text.toHtmlEscaped()));
        QVERIFY(!html.contains(s.quiz.instance("Ana", 0).explanation.toHtmlEscaped()));
        QCOMPARE(s.teacher("close").status, 200);
        QCOMPARE(s.teacher("reveal").status, 200);
        html = QString::fromUtf8(s.client.get("/api/teacher/reports", s.quiz.teacher_token()).body);
        QVERIFY(html.contains(s.quiz.instance("Ana", 0).explanation.toHtmlEscaped()));
        QVERIFY(html.contains("class=\"correct\""));
        QVERIFY(html.contains("class=\"unanswered\""));
        QCOMPARE(s.client.get("/api/teacher/reports", ana).status, 401);
    }

    // A class's numbers come from its own secret: what `quiz ask --student` gives the name is
    // not the live quiz's; two classes differ; a quiz resumed from its journal keeps its own.
    void the_class_secret_seeds_the_numbers() {
        const lessons::QuizBank bank = reductions();
        ClassQuiz one(bank, {});
        ClassQuiz two(bank, {});
        int unlike_cli = 0;
        int unlike_other = 0;
        for (int i = 0; i < 20; ++i) {
            const QString name = QStringLiteral("Student %1").arg(i);
            const auto& values = one.instance(name, 0).values;
            unlike_cli += values != lessons::instantiate(bank, bank.questions[0], name).values;
            unlike_other += values != two.instance(name, 0).values;
        }
        QVERIFY2(unlike_cli >= 15, qPrintable(QString::number(unlike_cli)));
        QVERIFY2(unlike_other >= 15, qPrintable(QString::number(unlike_other)));
        ClassQuiz resumed(bank, {});
        QVERIFY(!resumed.replay(one.journal_start()));
        for (int i = 0; i < 20; ++i) {
            const QString name = QStringLiteral("Student %1").arg(i);
            QCOMPARE(resumed.instance(name, 0).values, one.instance(name, 0).values);
        }
    }

    // A body that is not said to be JSON, and a Host that is not the class's (a page from another
    // site reaching this server under its own name), are refused.
    void only_json_bodies_at_the_class_addresses_are_answered() {
        ClassQuiz quiz(reductions(), {});
        ClassApi api(quiz);
        HttpRequest form = request("POST", "/api/join", {{"code", quiz.code()}, {"name", "Ana"}});
        form.headers.front().second = "text/plain";
        QCOMPARE(api.handle(form).status, 415);
        form.headers.front().second = "application/json; charset=utf-8";
        QCOMPARE(api.handle(form).status, 200);
        quiz.set_addresses({"http://127.0.0.20:8080/"});
        HttpRequest state = request("GET", "/", {});
        state.body.clear();
        state.headers.append(Headers::value_type("Host", "127.0.0.20:8080"));
        QCOMPARE(api.handle(state).status, 200);
        state.headers.back().second = "localhost:8080";
        QCOMPARE(api.handle(state).status, 200);
        state.headers.back().second = "evil.example:8080";
        QCOMPARE(api.handle(state).status, 421);
        state.headers.back().second = "127.0.0.20";
        QCOMPARE(api.handle(state).status, 200);
        state.headers.back().second = "127.0.0.21:8080";
        QCOMPARE(api.handle(state).status, 421);
    }

    void two_students_of_one_name_are_two_students() {
        Served s;
        const QByteArray first = s.join("Ana");
        const QByteArray second = s.join("  ana ");
        QVERIFY(!first.isEmpty() && !second.isEmpty() && first != second);
        QCOMPARE(s.quiz.student_count(), 2);
        QCOMPARE(s.quiz.students()[1].display, QStringLiteral("ana #2"));
        QCOMPARE(s.teacher("open").status, 200);
        QCOMPARE(s.answer(first, "1").status, 200);
        QCOMPARE(s.answer(second, "2").status, 200);
        QCOMPARE(s.quiz.students()[0].responses.at(0).text, QStringLiteral("1"));
        QCOMPARE(s.quiz.students()[1].responses.at(0).text, QStringLiteral("2"));
        const QString csv = s.quiz.results_csv();
        QVERIFY(csv.contains("\nAna,reductions,mean-two-workers"));
        QVERIFY(csv.contains("\nana #2,reductions,mean-two-workers"));
    }

    // A name a spreadsheet would run as a formula stays text in the results; a number stays a
    // number.
    void the_results_hold_no_formula() {
        Served s;
        const QByteArray minus = s.join("-1+1");
        const QByteArray at = s.join("@SUM(A1)");
        const QByteArray plus = s.join("+cmd");
        QCOMPARE(s.teacher("open").status, 200);
        QCOMPARE(s.answer(minus, "-2").status, 200);
        QCOMPARE(s.answer(at, "3").status, 200);
        QCOMPARE(s.answer(plus, "4").status, 200);
        const QString csv = s.quiz.results_csv();
        QVERIFY2(csv.contains("\n'-1+1,reductions,mean-two-workers"), qPrintable(csv));
        QVERIFY2(csv.contains("\n'@SUM(A1),reductions,mean-two-workers"), qPrintable(csv));
        QVERIFY2(csv.contains("\n'+cmd,reductions,mean-two-workers"), qPrintable(csv));
        QVERIFY2(csv.section("\n'-1+1,", 1).section('\n', 0, 0).contains(",-2,"), qPrintable(csv));
    }

    void bodies_over_four_kilobytes_are_refused() {
        Served s;
        const QByteArray big = "{\"code\":\"" + QByteArray(5000, '1') + "\",\"name\":\"x\"}";
        const Reply r = s.client.call("POST", "/api/join", big);
        QCOMPARE(r.status, 413);
        LOCKSTEP_VERIFY_CONTAINS(r.json.value("error").toString(), QStringLiteral("4096"));
        QCOMPARE(s.quiz.student_count(), 0);
        // Bodies that are not what was asked for: each named.
        QCOMPARE(s.client.call("POST", "/api/join", "not json").status, 400);
        QCOMPARE(s.client.call("POST", "/api/join", "[1]").status, 400);
        const Reply missing = s.client.post("/api/join", {{"code", s.quiz.code()}});
        QCOMPARE(missing.status, 400);
        LOCKSTEP_VERIFY_CONTAINS(missing.json.value("error").toString(), QStringLiteral("name"));
        QCOMPARE(s.client.post("/api/join", {{"code", 4827}, {"name", "x"}}).status, 400);
        QCOMPARE(s.client.get("/api/join").status, 405);
        QCOMPARE(s.client.get("/api/nothing").status, 404);
        const QString long_name(41, QLatin1Char('a'));
        QCOMPARE(s.client.post("/api/join", {{"code", s.quiz.code()}, {"name", long_name}}).status,
                 400);
        QCOMPARE(s.client.post("/api/join", {{"code", s.quiz.code()}, {"name", "  "}}).status, 400);
    }

    void a_name_with_html_stays_text() {
        Served s;
        const QString name = QStringLiteral("<script>alert(1)</script>");
        const Reply joined = s.client.post("/api/join", {{"code", s.quiz.code()}, {"name", name}});
        QCOMPARE(joined.status, 200);
        QCOMPARE(joined.json.value("name").toString(), name); // JSON, for textContent
        const Reply state = s.client.get("/api/teacher/state", s.quiz.teacher_token());
        QCOMPARE(state.json.value("students").toArray().at(0).toObject().value("name").toString(),
                 name);
        QVERIFY(state.type.startsWith("application/json"));
        // Every page is static and says where scripts may come from.
        const Reply page = s.client.get("/");
        QCOMPARE(page.status, 200);
        QVERIFY(page.type.startsWith("text/html"));
        QVERIFY(!page.body.contains("alert(1)"));
        // The pages put names in with textContent, never as HTML.
        for (const char* script : {"/student.js", "/teacher.js", "/live.js"}) {
            const Reply js = s.client.get(script);
            QCOMPARE(js.status, 200);
            QVERIFY2(!js.body.contains(".innerHTML ="), script);
            QVERIFY2(QByteArray(script) == "/live.js" || js.body.contains("textContent"), script);
        }
        const Reply missing = s.client.get("/<b>x</b>");
        QCOMPARE(missing.status, 404);
        QVERIFY(!missing.body.contains("<b>x</b>"));
    }

    void unreadable_answers_get_a_message_not_a_mark() {
        Served s;
        const QByteArray ana = s.join("Ana");
        QCOMPARE(s.teacher("open").status, 200);
        const Reply r = s.answer(ana, "five");
        QCOMPARE(r.status, 422);
        LOCKSTEP_VERIFY_CONTAINS(r.json.value("error").toString(), QStringLiteral("five"));
        QVERIFY(s.quiz.students()[0].responses.empty());
        QCOMPARE(s.answer(ana, "2,5").status, 200); // read as the app reads it
        QCOMPARE(s.answer(ana, "5/2").status, 200);
    }

    void limits_refuse_with_a_reason() {
        ClassLimits limits;
        limits.max_students = 3;
        limits.joins_per_minute = 5;
        ClassQuiz quiz(reductions(), {}, limits);
        ClassApi api(quiz);
        auto join = [&](const QString& name, qint64 now, const QString& peer) {
            return api.handle(request("POST", "/api/join", {{"code", quiz.code()}, {"name", name}},
                                      {}, now, peer));
        };
        // Joins per address and minute: wrong codes count too, so codes cannot be guessed fast.
        for (int i = 0; i < 5; ++i)
            QCOMPARE(api.handle(request("POST", "/api/join", {{"code", "x"}, {"name", "a"}}, {}, i,
                                        "127.0.0.9"))
                         .status,
                     403);
        QCOMPARE(join("Ana", 10, "127.0.0.9").status, 429);
        QCOMPARE(join("Ana", 60'010, "127.0.0.9").status, 200); // a minute later
        QCOMPARE(join("Ben", 20, "127.0.0.2").status, 200);
        QCOMPARE(join("Cy", 30, "127.0.0.3").status, 200);
        const HttpResponse full = join("Di", 40, "127.0.0.4");
        QCOMPARE(full.status, 503);
        LOCKSTEP_VERIFY_CONTAINS(object_of(full).value("error").toString(), QStringLiteral("full"));
        // A locked lobby.
        quiz.set_locked(true);
        QCOMPARE(join("Ed", 50, "127.0.0.5").status, 409);
        // Requests per token: a burst, then one every 50 ms.
        const QByteArray token = quiz.students()[1].token;
        int ok = 0;
        int status = 200;
        for (int i = 0; i < 100 && status == 200; ++i) {
            status = api.handle(request("GET", "/api/state", {}, token, 1000)).status;
            ok += status == 200 ? 1 : 0;
        }
        QCOMPARE(status, 429);
        QCOMPARE(ok, 40);
        QCOMPARE(api.handle(request("GET", "/api/state", {}, token, 1050)).status, 200);
        // Answer changes per question.
        QVERIFY(!quiz.open());
        int accepted = 0;
        for (int i = 0; i < 7; ++i)
            accepted += api.handle(request("POST", "/api/answer",
                                           {{"question", quiz.current_question()->id},
                                            {"answer", QString::number(i)}},
                                           token, 100'000 + i * 1000))
                                    .status == 200
                            ? 1
                            : 0;
        // The first answer, then five changes.
        QCOMPARE(accepted, limits.answer_changes + 1);
        QCOMPARE(quiz.students()[1].responses.at(0).text, QStringLiteral("5"));
    }

    void the_histogram_groups_right_mistake_and_other() {
        Served s;
        std::vector<QByteArray> tokens;
        for (const char* name : {"Ana", "Ben", "Cy", "Di"})
            tokens.push_back(s.join(name));
        QCOMPARE(s.teacher("open").status, 200);
        auto numbers = [&](const char* name) { return s.quiz.instance(name, 0).values; };
        QCOMPARE(s.answer(tokens[0], s.quiz.instance("Ana", 0).answer_text()).status, 200);
        QCOMPARE(s.answer(tokens[1], s.quiz.instance("Ben", 0).answer_text()).status, 200);
        const double sum = numbers("Cy").value("g0") + numbers("Cy").value("g1");
        QCOMPARE(s.answer(tokens[2], lessons::format_value(sum)).status, 200);
        QCOMPARE(s.answer(tokens[3], "1000").status, 200);
        QCOMPARE(s.teacher("close").status, 200);
        const QJsonArray bars = s.client.get("/api/teacher/state", s.quiz.teacher_token())
                                    .json.value("histogram")
                                    .toArray();
        QMap<QString, int> by_kind;
        for (const QJsonValue& b : bars)
            by_kind[b.toObject().value("kind").toString()] += b.toObject().value("count").toInt();
        QCOMPARE(by_kind.value("right"), 2);
        QCOMPARE(by_kind.value("mistake"), 1);
        QCOMPARE(by_kind.value("other"), 1);
        QCOMPARE(s.teacher("reveal").status, 200);
        const QJsonObject reveal = s.client.get("/api/teacher/state", s.quiz.teacher_token())
                                       .json.value("reveal")
                                       .toObject();
        // The engine's working, with the first student's numbers.
        LOCKSTEP_VERIFY_CONTAINS(reveal.value("working").toString(),
                                 QStringLiteral("lockstep::reduce, rule mean: (%1 + %2) / 2")
                                     .arg(lessons::format_value(numbers("Ana").value("g0")),
                                          lessons::format_value(numbers("Ana").value("g1"))));
        QCOMPARE(reveal.value("run").toString(),
                 QStringLiteral("lockstep:set?workers=2&rule=mean"));
    }

    void the_live_socket_says_when_anything_changes() {
        Served s;
        QWebSocket socket;
        QList<QString> messages;
        connect(&socket, &QWebSocket::textMessageReceived, this,
                [&](const QString& m) { messages << m; });
        const QByteArray ana = s.join("Ana");
        socket.open(QUrl(QStringLiteral("ws://127.0.0.1:%1/api/live?token=%2")
                             .arg(s.port)
                             .arg(QString::fromLatin1(ana))));
        QTRY_VERIFY_WITH_TIMEOUT(!messages.isEmpty(), 5000);
        const int before = s.quiz.version();
        s.join("Ben");
        QTRY_VERIFY_WITH_TIMEOUT(
            QJsonDocument::fromJson(messages.back().toUtf8()).object().value("version").toInt() >
                before,
            5000);
        // Only /api/live is a socket.
        QWebSocket other;
        bool closed = false;
        connect(&other, &QWebSocket::disconnected, this, [&] { closed = true; });
        other.open(QUrl(QStringLiteral("ws://127.0.0.1:%1/elsewhere?token=%2")
                            .arg(s.port)
                            .arg(QString::fromLatin1(ana))));
        QTRY_VERIFY_WITH_TIMEOUT(closed, 5000);
    }

    void bind_takes_only_private_addresses() {
        QVERIFY(is_private_address(QHostAddress("192.168.1.20")));
        QVERIFY(is_private_address(QHostAddress("10.1.2.3")));
        QVERIFY(is_private_address(QHostAddress("172.20.0.1")));
        QVERIFY(!is_private_address(QHostAddress("172.32.0.1")));
        QVERIFY(!is_private_address(QHostAddress("8.8.8.8")));
        QVERIFY(is_private_address(QHostAddress("fd00::1")));
        QVERIFY(!is_private_address(QHostAddress("2001:db8::1")));
        LOCKSTEP_VERIFY_CONTAINS(testing::error_message([] { parse_bind_address("8.8.8.8"); }),
                                 QStringLiteral("public"));
        LOCKSTEP_VERIFY_CONTAINS(testing::error_message([] { parse_bind_address("0.0.0.0"); }),
                                 QStringLiteral("every address"));
        LOCKSTEP_VERIFY_CONTAINS(testing::error_message([] { parse_bind_address("my-pc"); }),
                                 QStringLiteral("not an address"));
        QCOMPARE(parse_bind_address("localhost"), QHostAddress(QHostAddress::LocalHost));
        for (const QHostAddress& a : lan_addresses())
            QVERIFY2(is_private_address(a), qPrintable(a.toString()));
    }

    void a_signal_writes_every_accepted_answer_data() {
        QTest::addColumn<int>("signal");
        QTest::newRow("SIGTERM") << int(SIGTERM);
        QTest::newRow("SIGINT") << int(SIGINT);
        QTest::newRow("SIGHUP (the terminal closed)") << int(SIGHUP);
    }

    void a_signal_writes_every_accepted_answer() {
        QFETCH(int, signal);
        QTemporaryDir dir;
        const QString results = dir.filePath("results.csv");
        ServeProcess serve;
        QVERIFY(serve.start(results, 12, "S"));
        for (int i = 0; i < 12; ++i)
            QCOMPARE(serve.answer(i, QString::number(i)), 200);
        // At once: no time for the one-second save.
        ::kill(pid_t(serve.process.processId()), signal);
        QVERIFY(serve.process.waitForFinished(10000));
        QCOMPARE(serve.process.exitStatus(), QProcess::NormalExit);
        QCOMPARE(serve.process.exitCode(), 0);
        QFile f(results);
        QVERIFY(f.open(QIODevice::ReadOnly));
        const QString csv = QString::fromUtf8(f.readAll());
        for (int i = 0; i < 12; ++i)
            QVERIFY2(csv.contains(QStringLiteral("\nS%1,reductions,mean-two-workers").arg(i)) &&
                         csv.section(QStringLiteral("\nS%1,").arg(i), 1)
                             .section('\n', 0, 0)
                             .contains(QStringLiteral(",%1,").arg(i)),
                     qPrintable(csv));
        // The file is never overwritten: a second quiz asked for the same file refuses.
        QProcess again;
        again.start(LOCKSTEP_CLI_PATH,
                    {"class", "serve", "reductions", "--port", "0", "--results", results});
        QVERIFY(again.waitForFinished(10000));
        QCOMPARE(again.exitCode(), 1);
        LOCKSTEP_VERIFY_CONTAINS(QString::fromUtf8(again.readAllStandardError()),
                                 QStringLiteral("already exists"));
    }

    // Answers that keep coming, one every 300 ms, never put the save off: killed in the middle
    // of them (SIGKILL, no chance to write), the file holds every answer accepted more than the
    // save's second before.
    // Every acknowledged answer is in the journal when the server is killed, and the quiz goes
    // on from it: the same code, the same tokens, the same question, every answer.
    void a_killed_quiz_resumes_from_its_journal_with_nothing_lost() {
        QTemporaryDir dir;
        const QString journal = dir.filePath("class.journal");
        ServeProcess serve;
        serve.extra_args << "--journal" << journal;
        QVERIFY(serve.start({}, 12, "K"));
        for (int i = 0; i < 12; ++i)
            QCOMPARE(serve.answer(i, QString::number(i)), 200);
        ::kill(pid_t(serve.process.processId()), SIGKILL); // no chance to write anything more
        QVERIFY(serve.process.waitForFinished(10000));
        QCOMPARE(QFileInfo(journal).permissions() & (QFile::ReadOther | QFile::ReadGroup),
                 QFileDevice::Permissions());

        // A new quiz is never written over a journal.
        QProcess again;
        again.start(LOCKSTEP_CLI_PATH, {"class", "serve", "reductions", "--port", "0", "--bind",
                                        "127.0.0.1", "--journal", journal});
        QVERIFY(again.waitForFinished(10000));
        QCOMPARE(again.exitCode(), 1);
        QVERIFY(again.readAllStandardError().contains("already there"));

        ServeProcess resumed;
        resumed.extra_args << "--resume" << journal;
        QVERIFY(resumed.start({}, 0, "-"));
        QCOMPARE(resumed.code, serve.code);
        const Reply state = resumed.client->get("/api/state", serve.tokens[5]);
        QCOMPARE(state.status, 200);
        QCOMPARE(state.json.value("answer").toString(), QStringLiteral("5"));
        QCOMPARE(state.json.value("phase").toString(), QStringLiteral("open"));
        const Reply teacher = resumed.client->get("/api/teacher/state", resumed.teacher);
        QCOMPARE(teacher.json.value("students").toArray().size(), 12);
        QCOMPARE(teacher.json.value("question").toObject().value("answered").toInt(), 12);
        // And it goes on: one more answer is taken, and journaled.
        QCOMPARE(resumed.client
                     ->post("/api/answer", {{"question", "mean-two-workers"}, {"answer", "7"}},
                            serve.tokens[0])
                     .status,
                 200);
        QFile f(journal);
        QVERIFY(f.open(QIODevice::ReadOnly));
        QCOMPARE(f.readAll().count("\"t\":\"answer\""), 13);
    }

    // With neither --results nor --journal the answers are not only in memory: they go to a
    // journal in the user's data folder, which the server names, and outlive a SIGKILL.
    void without_a_results_file_the_answers_still_go_to_a_journal() {
        ServeProcess serve;
        QVERIFY(serve.start({}, 5, "J"));
        for (int i = 0; i < 5; ++i)
            QCOMPARE(serve.answer(i, QString::number(i)), 200);
        ::kill(pid_t(serve.process.processId()), SIGKILL);
        QVERIFY(serve.process.waitForFinished(10000));
        const QDir folder(serve.data.filePath("lockstep/class"));
        const QStringList journals = folder.entryList({"reductions-*.journal"}, QDir::Files);
        QCOMPARE(journals.size(), 1);
        const QString path = folder.filePath(journals.front());
        LOCKSTEP_VERIFY_CONTAINS(serve.banner, "journal: " + path);
        QFile f(path);
        QVERIFY(f.open(QIODevice::ReadOnly));
        QCOMPARE(f.readAll().count("\"t\":\"answer\""), 5);
    }

    // A change the journal cannot take is refused, and nothing changes.
    void a_change_the_journal_refuses_is_not_made() {
        ClassQuiz quiz(reductions(), {});
        std::vector<QJsonObject> written;
        bool disk_full = false;
        quiz.set_journal([&](const QJsonObject& r) {
            if (disk_full)
                return false;
            written.push_back(r);
            return true;
        });
        QByteArray token;
        QString display;
        QVERIFY(!quiz.join(quiz.code(), "Ana", "127.0.0.1", 0, token, display));
        QVERIFY(!quiz.open());
        disk_full = true;
        QJsonObject reply;
        const auto refused = quiz.answer(0, quiz.current_question()->id, "5", reply);
        QVERIFY(refused);
        QCOMPARE(refused->status, 503);
        QVERIFY(quiz.students().front().responses.empty());
        QCOMPARE(quiz.close()->status, 503);
        QCOMPARE(quiz.phase(), Phase::Open);
        // What was written replays to the same quiz.
        ClassQuiz copy(reductions(), {});
        QVERIFY(!copy.replay(quiz.journal_start()));
        for (const QJsonObject& r : written)
            QVERIFY(!copy.replay(r));
        QCOMPARE(copy.code(), quiz.code());
        QCOMPARE(copy.students().front().token, token);
        QCOMPARE(copy.phase(), Phase::Open);
        // Another bank's journal is refused by name.
        ClassQuiz other(reductions(), {1, 0});
        const auto why = other.replay(quiz.journal_start());
        QVERIFY(why && why->contains("another quiz"));
    }

    // An answer goes out only once the disk holds it; the answers that come meanwhile share the
    // next flush.
    void answers_wait_for_the_disk() {
        QTemporaryDir dir;
        lockstep::testing::Served s;
        auto journal = AnswerJournal::create(dir.filePath("j.journal"));
        QVERIFY(journal->append(s.quiz.journal_start()));
        s.server.set_journal(journal.get());
        std::vector<QByteArray> tokens;
        for (int i = 0; i < 4; ++i) {
            tokens.push_back(s.join(QStringLiteral("S%1").arg(i)));
            QVERIFY(!tokens.back().isEmpty());
            QCOMPARE(journal->synced(), journal->written()); // acknowledged: on the disk
        }
        QCOMPARE(s.teacher("open").status, 200);
        // A slow disk: the four answers wait, written but not flushed, and none is answered.
        journal->hold_flushes(true);
        QNetworkAccessManager manager;
        std::vector<QNetworkReply*> replies;
        std::vector<qint64> on_disk_when_answered;
        for (const QByteArray& token : tokens) {
            QNetworkRequest request(
                QUrl(QStringLiteral("http://127.0.0.1:%1/api/answer").arg(s.port)));
            request.setHeader(QNetworkRequest::ContentTypeHeader, "application/json");
            request.setRawHeader("Authorization", "Bearer " + token);
            QNetworkReply* reply = manager.post(
                request, QJsonDocument(QJsonObject{{"question", s.quiz.current_question()->id},
                                                   {"answer", "5"}})
                             .toJson());
            connect(reply, &QNetworkReply::finished, this,
                    [&] { on_disk_when_answered.push_back(journal->synced()); });
            replies.push_back(reply);
        }
        QTRY_COMPARE_WITH_TIMEOUT(s.server.held_answers(), 4, 10000);
        QTest::qWait(200);
        QVERIFY(on_disk_when_answered.empty());
        QCOMPARE(journal->written() - journal->synced(), 4);
        journal->hold_flushes(false);
        QTRY_COMPARE_WITH_TIMEOUT(on_disk_when_answered.size(), tokens.size(), 10000);
        for (QNetworkReply* reply : replies) {
            QCOMPARE(reply->attribute(QNetworkRequest::HttpStatusCodeAttribute).toInt(), 200);
            reply->deleteLater();
        }
        // One flush took all four.
        for (qint64 on_disk : on_disk_when_answered)
            QCOMPARE(on_disk, journal->written());
        QCOMPARE(s.server.held_answers(), 0);
        s.server.set_journal(nullptr);
    }

    // A journal cut off in the middle of a line goes on after its last whole one; one with a
    // line that is no record is refused, naming the line.
    void a_torn_journal_loses_only_its_torn_line() {
        QTemporaryDir dir;
        const QString path = dir.filePath("j.journal");
        ClassQuiz quiz(reductions(), {});
        {
            auto journal = AnswerJournal::create(path);
            QVERIFY(journal->append(quiz.journal_start()));
            QVERIFY(journal->append(QJsonObject{{"t", "move"}, {"to", "open"}}));
        }
        QVERIFY_THROWS_EXCEPTION(lockstep::Error, AnswerJournal::create(path));
        QFile f(path);
        QVERIFY(f.open(QIODevice::Append));
        f.write("{\"t\":\"join\",\"id\":\"s1\",\"na");
        f.close();
        std::vector<QJsonObject> records;
        bool dropped = false;
        {
            auto journal = AnswerJournal::resume(path, records, &dropped);
            QVERIFY(dropped);
            QCOMPARE(records.size(), std::size_t(2));
            QVERIFY(journal->append(QJsonObject{{"t", "move"}, {"to", "close"}}));
        }
        QVERIFY(AnswerJournal::resume(path, records, &dropped) != nullptr);
        QCOMPARE(records.size(), std::size_t(3));
        QVERIFY(!dropped);
        QVERIFY(f.open(QIODevice::Append));
        f.write("not json\n");
        f.close();
        try {
            AnswerJournal::resume(path, records);
            QFAIL("a journal with a line that is no record was taken");
        } catch (const lockstep::Error& e) {
            QVERIFY2(QString::fromUtf8(e.what()).contains("line 4"), e.what());
        }
    }

    void a_trickle_of_answers_is_written_as_it_comes() {
        QTemporaryDir dir;
        const QString results = dir.filePath("results.csv");
        ServeProcess serve;
        QVERIFY(serve.start(results, 12, "T"));
        QElapsedTimer clock;
        clock.start();
        std::vector<qint64> accepted;
        for (int i = 0; i < 12; ++i) {
            QCOMPARE(serve.answer(i, QString::number(i)), 200);
            accepted.push_back(clock.elapsed());
            QTest::qWait(300);
        }
        const qint64 killed = clock.elapsed();
        serve.process.kill();
        QVERIFY(serve.process.waitForFinished(10000));
        QFile f(results);
        QVERIFY2(f.open(QIODevice::ReadOnly), "nothing was written while the answers came");
        const QString csv = QString::fromUtf8(f.readAll());
        int written = 0;
        for (int i = 0; i < 12; ++i) {
            const bool in_file = csv.contains(QStringLiteral("\nT%1,").arg(i)) &&
                                 !csv.section(QStringLiteral("\nT%1,").arg(i), 1)
                                      .section('\n', 0, 0)
                                      .contains(QStringLiteral("unanswered"));
            written += in_file ? 1 : 0;
            if (killed - accepted[std::size_t(i)] > 1500)
                QVERIFY2(in_file, qPrintable(QStringLiteral("T%1, accepted %2 ms before the kill")
                                                 .arg(i)
                                                 .arg(killed - accepted[std::size_t(i)])));
        }
        QVERIFY(written >= 6);
    }
};

QTEST_GUILESS_MAIN(TestClassProtocol)
#include "test_class_protocol.moc"
