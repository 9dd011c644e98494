#include "lockstep_lessons/translations.h"

#include "json_fields.h"
#include "lockstep_lessons/action.h"
#include "lockstep_lessons/language.h"

#include "core/error.h"

#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QRegularExpression>

#include <set>

namespace lockstep::lessons {

using detail::Fields;

namespace {

QByteArray read_overlay(const QString& path) {
    constexpr qint64 limit = 4 << 20;
    QFile file(path);
    if (!QFileInfo(path).isFile() || !file.open(QIODevice::ReadOnly))
        throw Error((path + QStringLiteral(": cannot read the translation")).toStdString());
    const QByteArray bytes = file.read(limit + 1);
    if (file.size() > limit || bytes.size() > limit)
        throw Error((path + QStringLiteral(": larger than 4 MiB")).toStdString());
    return bytes;
}

std::set<QString> placeholders(const QString& text) {
    static const QRegularExpression placeholder(QStringLiteral("\\{([A-Za-z_][A-Za-z0-9_]*)\\}"));
    std::set<QString> names;
    auto it = placeholder.globalMatch(text);
    while (it.hasNext())
        names.insert(it.next().captured(1));
    return names;
}

// Whether a text has words to translate: not only a formula such as "({g0} + {g1}) / 2".
bool has_words(QString text) {
    static const QRegularExpression skip(QStringLiteral("\\{[^}]*\\}|`[^`]*`"));
    static const QRegularExpression word(QStringLiteral("[A-Za-z]{4,}"));
    return text.remove(skip).contains(word);
}

QStringList lockstep_links(const QString& markdown) {
    QStringList urls;
    for (const Link& link : extract_links(markdown))
        if (is_action_link(link.url))
            urls << link.url;
    return urls;
}

// A list of texts the overlay gives in place of `english`, the same count.
QStringList same_count(const Fields& f, const QString& key, const QStringList& english) {
    const QStringList texts = f.strings(key, true);
    if (texts.size() != english.size())
        f.fail(
            key,
            QStringLiteral("has %1 texts; the bank has %2").arg(texts.size()).arg(english.size()));
    return texts;
}

} // namespace

bool is_bank_translation(const QString& file_name) {
    static const QRegularExpression pattern(QStringLiteral("^[^.]+\\.([a-z]{2})\\.json$"));
    const auto m = pattern.match(file_name);
    return m.hasMatch() && languages().contains(m.captured(1));
}

QString bank_translation_path(const QuizBank& bank, const QString& code) {
    const QFileInfo info(bank.path);
    return info.dir().filePath(info.completeBaseName() + QLatin1Char('.') + code +
                               QStringLiteral(".json"));
}

void translate_bank(QuizBank& bank, const QString& code) {
    if (code.isEmpty() || code == QLatin1String("en"))
        return;
    const QString path = bank_translation_path(bank, code);
    if (!QFileInfo::exists(path))
        return;
    const Fields f(detail::parse_object(read_overlay(path), path), path, QString());
    f.only({QStringLiteral("bank"), QStringLiteral("language"), QStringLiteral("title"),
            QStringLiteral("questions")});
    if (f.text(QStringLiteral("bank")) != bank.id)
        f.fail(QStringLiteral("bank"),
               QStringLiteral("must be '%1', the bank it translates").arg(bank.id));
    if (f.text(QStringLiteral("language")) != code)
        f.fail(QStringLiteral("language"),
               QStringLiteral("must be '%1', as the file name says").arg(code));
    QuizBank out = bank;
    out.title = f.text(QStringLiteral("title"));
    const QJsonArray questions = f.array(QStringLiteral("questions"), true);
    std::set<QString> seen;
    for (qsizetype i = 0; i < questions.size(); ++i) {
        const Fields t = f.child(QStringLiteral("questions[%1]").arg(i), questions[i]);
        t.only({QStringLiteral("id"), QStringLiteral("title"), QStringLiteral("text"),
                QStringLiteral("hints"), QStringLiteral("explanation"), QStringLiteral("mistakes"),
                QStringLiteral("choices"), QStringLiteral("items")});
        const QString id = t.text(QStringLiteral("id"));
        Question* q = nullptr;
        for (Question& candidate : out.questions)
            if (candidate.id == id)
                q = &candidate;
        if (!q)
            t.fail(QStringLiteral("id"), QStringLiteral("the bank has no question '%1'").arg(id));
        if (!seen.insert(id).second)
            t.fail(QStringLiteral("id"), QStringLiteral("'%1' is translated twice").arg(id));
        if (t.has(QStringLiteral("title")))
            q->title = t.text(QStringLiteral("title")).simplified();
        if (t.has(QStringLiteral("text")))
            q->text = t.text(QStringLiteral("text"));
        if (t.has(QStringLiteral("explanation")))
            q->explanation = t.text(QStringLiteral("explanation"));
        if (t.has(QStringLiteral("hints")))
            q->hints = same_count(t, QStringLiteral("hints"), q->hints);
        if (t.has(QStringLiteral("mistakes"))) {
            QStringList english;
            for (const Mistake& m : q->mistakes)
                english << m.feedback;
            const QStringList feedback = same_count(t, QStringLiteral("mistakes"), english);
            for (qsizetype k = 0; k < feedback.size(); ++k)
                q->mistakes[static_cast<std::size_t>(k)].feedback = feedback[k];
        }
        const bool ordering = q->type == QuestionType::Ordering;
        const QString list = ordering ? QStringLiteral("items") : QStringLiteral("choices");
        const QString other = ordering ? QStringLiteral("choices") : QStringLiteral("items");
        if (t.has(other))
            t.fail(other, QStringLiteral("the question has no %1").arg(other));
        if (t.has(list))
            q->choices = same_count(t, list, q->choices);
    }
    bank = std::move(out);
}

QStringList check_bank_translation(const QuizBank& bank, const QString& code) {
    const QString path = bank_translation_path(bank, code);
    if (!QFileInfo::exists(path))
        return {path + QStringLiteral(": missing: the bank '%1' has no %2 texts")
                           .arg(bank.id, language_name(code))};
    QuizBank translated = bank;
    try {
        translate_bank(translated, code);
    } catch (const Error& e) {
        return {QString::fromStdString(e.what())};
    }
    QStringList problems;
    auto compare = [&](const QString& where, const QString& english, const QString& other) {
        if (has_words(english) && other == english)
            problems << path + QStringLiteral(": %1: not translated (the English text)").arg(where);
        if (placeholders(english) != placeholders(other))
            problems << path + QStringLiteral(": %1: its {placeholders} differ from the English")
                                   .arg(where);
    };
    if (translated.title == bank.title)
        problems << path + QStringLiteral(": title: not translated");
    for (std::size_t i = 0; i < bank.questions.size(); ++i) {
        const Question& en = bank.questions[i];
        const Question& tr = translated.questions[i];
        const QString q = en.id + QLatin1Char('.');
        if (!en.title.isEmpty())
            compare(q + QStringLiteral("title"), en.title, tr.title);
        compare(q + QStringLiteral("text"), en.text, tr.text);
        compare(q + QStringLiteral("explanation"), en.explanation, tr.explanation);
        for (qsizetype k = 0; k < en.hints.size(); ++k)
            compare(q + QStringLiteral("hints[%1]").arg(k), en.hints[k], tr.hints[k]);
        for (std::size_t k = 0; k < en.mistakes.size(); ++k)
            compare(q + QStringLiteral("mistakes[%1]").arg(k), en.mistakes[k].feedback,
                    tr.mistakes[k].feedback);
        // Choices may stay the same where they are names or numbers ("ring", "2"); only the
        // placeholders must agree.
        for (qsizetype k = 0; k < en.choices.size(); ++k)
            if (placeholders(en.choices[k]) != placeholders(tr.choices[k]))
                problems << path + QStringLiteral(": %1choices[%2]: its {placeholders} differ "
                                                  "from the English")
                                       .arg(q)
                                       .arg(k);
    }
    return problems;
}

QStringList check_lesson_translation(const Lesson& lesson, const QString& code) {
    QStringList problems;
    const QString english = QDir(lesson.dir).filePath(QStringLiteral("page.md"));
    const QString page = QDir(lesson.dir).filePath(QStringLiteral("page.%1.md").arg(code));
    if (!QFileInfo::exists(page)) {
        problems << page + QStringLiteral(": missing: the lesson '%1' has no %2 page")
                               .arg(lesson.id, language_name(code));
    } else {
        QFile en(english), other(page);
        if (!en.open(QIODevice::ReadOnly) || !other.open(QIODevice::ReadOnly)) {
            problems << page + QStringLiteral(": cannot read the page");
        } else {
            const QStringList a = lockstep_links(QString::fromUtf8(en.read(1 << 20)));
            const QStringList b = lockstep_links(QString::fromUtf8(other.read(1 << 20)));
            if (a != b) {
                qsizetype at = 0;
                while (at < a.size() && at < b.size() && a[at] == b[at])
                    ++at;
                problems << page + QStringLiteral(": its lockstep: links differ from page.md's "
                                                  "(link %1: '%2' here, '%3' in English)")
                                       .arg(at + 1)
                                       .arg(at < b.size() ? b[at] : QStringLiteral("none"),
                                            at < a.size() ? a[at] : QStringLiteral("none"));
            }
        }
    }
    if (!lesson.titles.contains(code))
        problems << QDir(lesson.dir).filePath(QStringLiteral("lesson.json")) +
                        QStringLiteral(": translations.%1: missing: the title and summary in %2")
                            .arg(code, language_name(code));
    return problems;
}

} // namespace lockstep::lessons
