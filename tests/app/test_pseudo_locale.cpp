// The pseudo-locale: every string of Lockstep's translation in brackets and 40 % longer
// (tests/i18n/pseudo_ts.cpp). With it installed, every text the window shows, in every lesson,
// must carry the brackets (one without escaped tr(): it would stay English in German), and no
// label or button may be cut off at 1280×800 (a longer language would clip there).

#include "class/class_window.h"
#include "lab/lesson_pane.h"
#include "lab/main_window.h"

#include "lockstep_lessons/language.h"

#include <QAbstractButton>
#include <QApplication>
#include <QComboBox>
#include <QDialogButtonBox>
#include <QDockWidget>
#include <QGroupBox>
#include <QHostAddress>
#include <QLabel>
#include <QLineEdit>
#include <QMenu>
#include <QMenuBar>
#include <QRegularExpression>
#include <QTabBar>
#include <QTextBrowser>
#include <QToolBar>
#include <QToolButton>
#include <QtTest>

using lockstep::app::MainWindow;

namespace {

// Texts that are the user's or the lesson's, not the program's words: numbers, names typed in,
// lesson content (translated by the lesson files, not by tr()).
bool is_data(const QString& text) {
    static const QRegularExpression letters(QStringLiteral("[A-Za-z]{3,}"));
    return !text.contains(letters);
}

bool bracketed(const QString& text) {
    return text.contains(QLatin1Char('['));
}

QString plain(const QString& text) {
    QString t = text;
    t.remove(QRegularExpression(QStringLiteral("<[^>]*>")));
    return t.simplified();
}

// A widget whose words come from the content (a lesson page, a question, a student's name).
bool shows_content(const QWidget* w) {
    for (const QWidget* p = w; p; p = p->parentWidget())
        if (p->property("lockstep_content").toBool() || qobject_cast<const QTextBrowser*>(p))
            return true;
    return false;
}

struct Finding {
    QStringList untranslated;
    QStringList clipped;
    int translated = 0; // texts seen in brackets: the walk did look
};

void check_text(Finding& f, const QString& where, const QString& text) {
    const QString t = plain(text);
    if (t.isEmpty() || is_data(t))
        return;
    if (bracketed(t)) {
        ++f.translated;
        return;
    }
    f.untranslated << QStringLiteral("%1: \"%2\"").arg(where, t.left(80));
}

void check_actions(Finding& f, const QString& where, const QList<QAction*>& actions) {
    for (QAction* a : actions) {
        if (a->isSeparator() || !a->isVisible())
            continue;
        // The languages are each named in their own language, on purpose.
        if (a->data().toString().size() == 2 && a->isCheckable())
            continue;
        check_text(f, where + QStringLiteral(" › action"), a->text());
        if (a->menu())
            check_actions(f, where + QStringLiteral(" › ") + a->text(), a->menu()->actions());
    }
}

Finding walk(QWidget& window) {
    Finding f;
    check_text(f, QStringLiteral("window title"), window.windowTitle());
    for (QWidget* w : window.findChildren<QWidget*>()) {
        // Qt's own buttons (a dock's Float and Close) speak Qt's translations.
        if (!w->isVisibleTo(&window) || shows_content(w) ||
            w->objectName().startsWith(QLatin1String("qt_")))
            continue;
        const QString name =
            QString::fromLatin1(w->metaObject()->className()) +
            (w->objectName().isEmpty() ? QString() : QLatin1Char('#') + w->objectName());
        if (auto* l = qobject_cast<QLabel*>(w)) {
            check_text(f, name, l->text());
            // Clipped: a one-line label narrower than its text (a mnemonic's & is not drawn).
            QString t = plain(l->text());
            t.remove(QRegularExpression(QStringLiteral("&(?!&)")));
            if (!l->wordWrap() && !t.isEmpty() && l->textFormat() != Qt::RichText &&
                !t.contains(QLatin1Char('\n')) && l->isVisible() && l->width() > 0 &&
                l->fontMetrics().horizontalAdvance(t) > l->contentsRect().width() + 1)
                f.clipped << QStringLiteral("%1: \"%2\" needs %3 px, has %4")
                                 .arg(name, t.left(60))
                                 .arg(l->fontMetrics().horizontalAdvance(t))
                                 .arg(l->contentsRect().width());
        } else if (auto* b = qobject_cast<QAbstractButton*>(w)) {
            if (auto* tool = qobject_cast<QToolButton*>(b); tool && tool->defaultAction())
                continue; // an action's button: the action is checked below
            // A dialog's standard buttons (Cancel) speak Qt's own translations.
            if (auto* box = qobject_cast<QDialogButtonBox*>(b->parentWidget());
                box && box->standardButton(b) != QDialogButtonBox::NoButton)
                continue;
            check_text(f, name, b->text());
            if (b->isVisible() && !b->text().isEmpty() && b->sizeHint().width() > b->width() + 1)
                f.clipped << QStringLiteral("%1: \"%2\" needs %3 px, has %4")
                                 .arg(name, plain(b->text()).left(60))
                                 .arg(b->sizeHint().width())
                                 .arg(b->width());
        } else if (auto* g = qobject_cast<QGroupBox*>(w)) {
            check_text(f, name, g->title());
        } else if (auto* t = qobject_cast<QTabBar*>(w)) {
            for (int i = 0; i < t->count(); ++i)
                check_text(f, name + QStringLiteral(" tab"), t->tabText(i));
        } else if (auto* d = qobject_cast<QDockWidget*>(w)) {
            check_text(f, name, d->windowTitle());
        } else if (auto* e = qobject_cast<QLineEdit*>(w)) {
            check_text(f, name + QStringLiteral(" placeholder"), e->placeholderText());
        } else if (auto* bar = qobject_cast<QToolBar*>(w)) {
            check_actions(f, name, bar->actions());
        }
        check_text(f, name + QStringLiteral(" tooltip"), w->toolTip());
        check_text(f, name + QStringLiteral(" accessible name"), w->accessibleName());
    }
    if (auto* main = qobject_cast<QMainWindow*>(&window))
        check_actions(f, QStringLiteral("menu bar"), main->menuBar()->actions());
    return f;
}

} // namespace

class TestPseudoLocale : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void initTestCase() {
        QString error;
        QVERIFY2(
            lockstep::lessons::use_translation_file(QStringLiteral(LOCKSTEP_PSEUDO_QM), &error),
            qPrintable(error));
        QCOMPARE(QCoreApplication::translate("Names", "ring"), QStringLiteral("[ring··]"));
    }

    void everyTextIsTranslatedAndFits_data() {
        QTest::addColumn<QString>("lesson");
        QTest::newRow("no lesson") << QString();
        MainWindow probe;
        for (const auto& l : probe.lessonPane()->library().lessons())
            QTest::newRow(qPrintable(l.id)) << l.id;
    }
    void everyTextIsTranslatedAndFits() {
        QFETCH(QString, lesson);
        MainWindow window;
        if (!lesson.isEmpty())
            QVERIFY(window.openLesson(lesson, nullptr, false));
        window.resize(1280, 800);
        window.show();
        QVERIFY(QTest::qWaitForWindowExposed(&window));
        window.runToCompletion();
        window.playback().scrubTo(window.traceIndex().end_time());
        QApplication::processEvents();
        const Finding f = walk(window);
        QVERIFY2(f.translated > 60, qPrintable(QString::number(f.translated)));
        QVERIFY2(f.untranslated.isEmpty(), qPrintable(QStringLiteral("Texts outside tr():\n") +
                                                      f.untranslated.join(QLatin1Char('\n'))));
        QVERIFY2(f.clipped.isEmpty(), qPrintable(QStringLiteral("Clipped at 1280×800:\n") +
                                                 f.clipped.join(QLatin1Char('\n'))));
    }

    // The class quiz's dialog and the projector's window, in the lobby.
    void classQuizWindows() {
        MainWindow window;
        lockstep::app::ClassQuizDialog dialog(window.lessonPane()->library(), &window);
        dialog.show();
        QVERIFY(QTest::qWaitForWindowExposed(&dialog));
        Finding f = walk(dialog);
        QVERIFY(f.translated > 5);
        QVERIFY2(f.untranslated.isEmpty(), qPrintable(f.untranslated.join(QLatin1Char('\n'))));
        dialog.close();
        auto* quiz = window.startClassQuiz(QStringLiteral("reductions"), {}, 0,
                                           {QHostAddress(QHostAddress::LocalHost)});
        QVERIFY(quiz);
        quiz->resize(1280, 800);
        quiz->show();
        QVERIFY(QTest::qWaitForWindowExposed(quiz));
        f = walk(*quiz);
        QVERIFY(f.translated > 5);
        QVERIFY2(f.untranslated.isEmpty(), qPrintable(f.untranslated.join(QLatin1Char('\n'))));
        QVERIFY2(f.clipped.isEmpty(), qPrintable(f.clipped.join(QLatin1Char('\n'))));
    }
};

QTEST_MAIN(TestPseudoLocale)
#include "test_pseudo_locale.moc"
