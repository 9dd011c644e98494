#include "lab/controls_panel.h"
#include "lab/keyboard.h"
#include "lab/lesson_pane.h"
#include "lab/main_window.h"
#include "lab/playback.h"

#include "lockstep_views/cluster_view.h"
#include "lockstep_views/timeline_view.h"

#include <QAbstractButton>
#include <QAction>
#include <QApplication>
#include <QCheckBox>
#include <QComboBox>
#include <QGroupBox>
#include <QLabel>
#include <QLineEdit>
#include <QMenu>
#include <QMenuBar>
#include <QSignalSpy>
#include <QSlider>
#include <QStackedWidget>
#include <QTabBar>
#include <QTextBrowser>
#include <QToolButton>
#include <QtTest>

#include <map>

using lockstep::Ticks;
using lockstep::app::MainWindow;

namespace {

QString scenario_path(const char* name) {
    return QStringLiteral(LOCKSTEP_SOURCE_DIR "/resources/scenarios/") + QLatin1String(name);
}

// The window as a class sees it: shown, active, a lesson's run finished, the playhead at 0.
bool open_lab(MainWindow& window, const QString& lesson = QStringLiteral("checkpoints")) {
    if (!window.openLesson(lesson, nullptr, false))
        return false;
    window.resize(1280, 800);
    window.show();
    window.activateWindow();
    if (!QTest::qWaitForWindowActive(&window))
        return false;
    window.runToCompletion();
    QApplication::processEvents();
    window.playback().reset();
    return !window.traceIndex().snapshots().empty();
}

// Gives `widget` the focus and presses `key` on it, as the keyboard would.
void press(QWidget* widget, Qt::Key key, Qt::KeyboardModifiers modifiers = Qt::NoModifier) {
    // A view in a tab is brought to the front first, as the user would click its tab.
    for (QWidget* w = widget; w && w->parentWidget(); w = w->parentWidget())
        if (auto* stack = qobject_cast<QStackedWidget*>(w->parentWidget()))
            stack->setCurrentWidget(w);
    widget->setFocus(Qt::TabFocusReason);
    QVERIFY2(QApplication::focusWidget() == widget, "the widget did not take the focus");
    QTest::keyClick(widget, key, modifiers);
}

QSlider* playhead_slider(const MainWindow& window) {
    for (QSlider* s : window.findChildren<QSlider*>())
        if (s->accessibleName() == QLatin1String("Playhead"))
            return s;
    return nullptr;
}

QWidget* named_widget(MainWindow& window, const QString& name) {
    if (name == QLatin1String("playhead slider"))
        return playhead_slider(window);
    return window.view(name);
}

// The letter after a single '&' ("Re&duction rule" -> 'd'), or 0.
QChar mnemonic(const QString& text) {
    for (qsizetype i = 0; i + 1 < text.size(); ++i)
        if (text[i] == QLatin1Char('&')) {
            if (text[i + 1] == QLatin1Char('&')) {
                ++i;
                continue;
            }
            return text[i + 1].toLower();
        }
    return {};
}

// Every mnemonic in one scope, with what carries it; fails listing any letter used twice.
class MnemonicScope {
public:
    explicit MnemonicScope(QString name)
        : name_(std::move(name)) {}
    void add(const QString& text) {
        const QChar m = mnemonic(text);
        if (!m.isNull())
            owners_[m].push_back(QString(text).remove(QLatin1Char('&')));
    }
    QStringList clashes() const {
        QStringList out;
        for (const auto& [letter, owners] : owners_)
            if (owners.size() > 1)
                out << QStringLiteral("%1: Alt+%2 is %3")
                           .arg(name_, QString(letter).toUpper(),
                                owners.join(QStringLiteral(" and ")));
        return out;
    }
    int size() const { return static_cast<int>(owners_.size()); }

private:
    QString name_;
    std::map<QChar, QStringList> owners_;
};

} // namespace

// Keys pressed in the whole window, the way a teacher without a mouse uses it: the focused
// control keeps the keys it uses, the views theirs, and the rest drive the playback.
class TestWindowKeys : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void initTestCase();
    void space_on_the_lock_box_toggles_it_not_the_playback();
    void enter_on_the_lock_box_toggles_it();
    void space_on_a_view_plays_and_pauses_data();
    void space_on_a_view_plays_and_pauses();
    void playback_keys_yield_to_text_and_choices();
    void arrows_choose_a_worker_in_the_cluster_view();
    void menu_key_opens_the_chosen_workers_menu_data();
    void menu_key_opens_the_chosen_workers_menu();
    void timeline_arrows_pan_inside_the_window();
    void f6_moves_between_panes();
    void shortcuts_dialog_lists_every_key();
    void mnemonics_are_unique_data();
    void mnemonics_are_unique();
    void mnemonic_reaches_its_control();
};

void TestWindowKeys::initTestCase() {
    QStandardPaths::setTestModeEnabled(true);
}

void TestWindowKeys::space_on_the_lock_box_toggles_it_not_the_playback() {
    MainWindow window;
    QVERIFY(open_lab(window));
    auto* lock = window.lessonPane()->findChild<QCheckBox*>(QStringLiteral("lock"));
    QVERIFY(lock);
    QVERIFY(!lock->isChecked());
    press(lock, Qt::Key_Space);
    QVERIFY(lock->isChecked());
    QVERIFY(window.lessonPane()->teacherLock());
    QVERIFY(!window.playback().playing());
    press(lock, Qt::Key_Space);
    QVERIFY(!lock->isChecked());
    QVERIFY(!window.playback().playing());
    QCOMPARE(window.playback().playhead(), Ticks{0});
}

void TestWindowKeys::enter_on_the_lock_box_toggles_it() {
    MainWindow window;
    QVERIFY(open_lab(window));
    auto* lock = window.lessonPane()->findChild<QCheckBox*>(QStringLiteral("lock"));
    QVERIFY(lock);
    press(lock, Qt::Key_Return);
    QVERIFY(lock->isChecked());
    press(lock, Qt::Key_Enter, Qt::KeypadModifier);
    QVERIFY(!lock->isChecked());
    QVERIFY(!window.playback().playing());
}

void TestWindowKeys::space_on_a_view_plays_and_pauses_data() {
    QTest::addColumn<QString>("where");
    QTest::newRow("cluster view") << QStringLiteral("cluster");
    QTest::newRow("timeline view") << QStringLiteral("timeline");
    QTest::newRow("training view") << QStringLiteral("training");
    QTest::newRow("checkpoint view") << QStringLiteral("checkpoints");
    QTest::newRow("playhead slider") << QStringLiteral("playhead slider");
}

void TestWindowKeys::space_on_a_view_plays_and_pauses() {
    QFETCH(QString, where);
    MainWindow window;
    QVERIFY(open_lab(window));
    QWidget* target = named_widget(window, where);
    QVERIFY(target);
    if (window.view(where)) // in front, if it is in the tabs
        window.applyLessonAction(
            lockstep::lessons::parse_action(QStringLiteral("lockstep:view?name=") + where));
    QVERIFY(target->isVisible());
    press(target, Qt::Key_Space);
    QVERIFY(window.playback().playing());
    QTRY_VERIFY(window.playback().playhead() > 0);
    press(target, Qt::Key_Space);
    QVERIFY(!window.playback().playing());
}

void TestWindowKeys::playback_keys_yield_to_text_and_choices() {
    MainWindow window;
    QVERIFY(open_lab(window));
    auto& playback = window.playback();
    playback.scrubTo(window.traceIndex().end_time() / 2);
    const Ticks middle = playback.playhead();

    // R in a text field types an r; it does not reset the playback.
    QLineEdit* shards = nullptr;
    for (QLineEdit* e : window.controls()->findChildren<QLineEdit*>())
        if (e->accessibleName() == QLatin1String("Shard sizes"))
            shards = e;
    QVERIFY(shards);
    shards->clear();
    press(shards, Qt::Key_R);
    QCOMPARE(shards->text(), QStringLiteral("r"));
    QCOMPARE(playback.playhead(), middle);
    // Space in it types a space; it does not play.
    press(shards, Qt::Key_Space);
    QCOMPARE(shards->text(), QStringLiteral("r "));
    QVERIFY(!playback.playing());

    // Down in a combo box chooses the next item; Right there does not step the playhead.
    QComboBox* collective = nullptr;
    for (QComboBox* c : window.controls()->findChildren<QComboBox*>())
        if (c->accessibleName() == QLatin1String("Collective"))
            collective = c;
    QVERIFY(collective);
    collective->setCurrentIndex(0);
    press(collective, Qt::Key_Down);
    QCOMPARE(collective->currentIndex(), 1);
    press(collective, Qt::Key_Right);
    QCOMPARE(playback.playhead(), middle);

    // Right on the playhead slider moves the slider, and the playhead with it.
    QSlider* slider = playhead_slider(window);
    QVERIFY(slider);
    const int at = slider->value();
    press(slider, Qt::Key_Right);
    QVERIFY(slider->value() > at);
    QVERIFY(playback.playhead() > middle);

    // The same keys on a view that does not use them act on the playback.
    QWidget* training = window.view(QStringLiteral("training"));
    press(training, Qt::Key_R);
    QCOMPARE(playback.playhead(), Ticks{0});
    press(training, Qt::Key_Right);
    QVERIFY(playback.playhead() > 0);
}

void TestWindowKeys::arrows_choose_a_worker_in_the_cluster_view() {
    MainWindow window;
    QVERIFY(open_lab(window));
    auto* cluster = window.clusterView();
    window.applyLessonAction(
        lockstep::lessons::parse_action(QStringLiteral("lockstep:view?name=cluster")));
    QVERIFY(cluster->isVisible());
    QCOMPARE(cluster->chosenWorker(), 0);
    press(cluster, Qt::Key_Right);
    QCOMPARE(cluster->chosenWorker(), 1);
    press(cluster, Qt::Key_Down);
    QCOMPARE(cluster->chosenWorker(), 2);
    press(cluster, Qt::Key_Left);
    QCOMPARE(cluster->chosenWorker(), 1);
    press(cluster, Qt::Key_Up);
    QCOMPARE(cluster->chosenWorker(), 0);
    press(cluster, Qt::Key_Left); // wraps round to the last worker
    QCOMPARE(cluster->chosenWorker(), window.traceIndex().workers() - 1);
    // The arrows were the view's: the playhead did not step.
    QCOMPARE(window.playback().playhead(), Ticks{0});
}

void TestWindowKeys::menu_key_opens_the_chosen_workers_menu_data() {
    QTest::addColumn<int>("key");
    QTest::addColumn<int>("modifiers");
    QTest::newRow("Menu") << int(Qt::Key_Menu) << int(Qt::NoModifier);
    QTest::newRow("Shift+F10") << int(Qt::Key_F10) << int(Qt::ShiftModifier);
    QTest::newRow("Enter") << int(Qt::Key_Return) << int(Qt::NoModifier);
}

void TestWindowKeys::menu_key_opens_the_chosen_workers_menu() {
    QFETCH(int, key);
    QFETCH(int, modifiers);
    MainWindow window;
    QVERIFY(open_lab(window, QStringLiteral("stragglers")));
    auto* cluster = window.clusterView();
    window.applyLessonAction(
        lockstep::lessons::parse_action(QStringLiteral("lockstep:view?name=cluster")));
    QVERIFY(cluster->isVisible());
    // The test watches the request itself, not what the engine then does with it.
    QObject::disconnect(cluster, &lockstep::views::ClusterView::workerActionRequested, &window,
                        nullptr);
    QSignalSpy requested(cluster, &lockstep::views::ClusterView::workerActionRequested);

    press(cluster, Qt::Key_Right);
    press(cluster, Qt::Key_Right); // worker 2
    QCOMPARE(cluster->chosenWorker(), 2);
    press(cluster, static_cast<Qt::Key>(key), Qt::KeyboardModifiers(modifiers));
    QTRY_VERIFY(qobject_cast<QMenu*>(QApplication::activePopupWidget()));
    auto* menu = qobject_cast<QMenu*>(QApplication::activePopupWidget());
    QVERIFY(menu->isVisible());
    QCOMPARE(menu->accessibleName(), QStringLiteral("Faults for worker 2"));
    // The same entries as a click's menu, chosen with the keyboard.
    QAction* pause = nullptr;
    for (QAction* a : menu->actions())
        if (a->data().toString() == QLatin1String("pause"))
            pause = a;
    QVERIFY(pause);
    menu->setActiveAction(pause);
    QTest::keyClick(menu, Qt::Key_Return);
    QCOMPARE(requested.count(), 1);
    QCOMPARE(requested.at(0).at(0).toInt(), 2);
    QCOMPARE(requested.at(0).at(1).toString(), QStringLiteral("pause"));
    QTRY_VERIFY(!QApplication::activePopupWidget());
    QVERIFY(!window.playback().playing());
}

void TestWindowKeys::timeline_arrows_pan_inside_the_window() {
    MainWindow window;
    QVERIFY(open_lab(window));
    auto* timeline = window.timelineView();
    const auto before = timeline->visibleRange();
    press(timeline, Qt::Key_Right);
    const auto later = timeline->visibleRange();
    QVERIFY2(later.first > before.first, "Right pans towards later times");
    QCOMPARE(later.second - later.first, before.second - before.first); // panned, not zoomed
    press(timeline, Qt::Key_Left);
    QCOMPARE(timeline->visibleRange(), before);
    // Panning is the view's: the playhead stayed where it was.
    QCOMPARE(window.playback().playhead(), Ticks{0});
    // Space is not the timeline's: it plays.
    press(timeline, Qt::Key_Space);
    QVERIFY(window.playback().playing());
}

void TestWindowKeys::f6_moves_between_panes() {
    MainWindow window;
    QVERIFY(open_lab(window));
    QWidget* page = window.lessonPane()->page();
    press(page, Qt::Key_F6);
    QVERIFY(window.controls()->isAncestorOf(QApplication::focusWidget()));
    QTest::keyClick(QApplication::focusWidget(), Qt::Key_F6);
    QWidget* after_controls = QApplication::focusWidget();
    QVERIFY(after_controls == window.clusterView() ||
            window.view(QStringLiteral("training"))->isAncestorOf(after_controls) ||
            after_controls == window.view(QStringLiteral("training")));
    for (int i = 0; i < 6 && QApplication::focusWidget() != page; ++i)
        QTest::keyClick(QApplication::focusWidget(), Qt::Key_F6);
    QCOMPARE(QApplication::focusWidget(), page); // round the panes and back
}

void TestWindowKeys::shortcuts_dialog_lists_every_key() {
    MainWindow window;
    QVERIFY(open_lab(window));
    press(window.view(QStringLiteral("training")), Qt::Key_F1);
    QTRY_VERIFY(window.findChild<lockstep::app::ShortcutsDialog*>());
    auto* dialog = window.findChild<lockstep::app::ShortcutsDialog*>();
    QTRY_VERIFY(dialog->isVisible());
    const QString text = dialog->text();

    // Every action of the window that has a key, whatever menu it is in.
    int listed = 0;
    for (const QAction* a : window.findChildren<QAction*>())
        for (const QKeySequence& key : a->shortcuts()) {
            if (key.isEmpty())
                continue;
            const QString keys = key.toString(QKeySequence::NativeText);
            const QString line = keys + QLatin1Char('\t') + QString(a->text()).remove('&');
            QVERIFY2(text.contains(line), qPrintable(QStringLiteral("missing: ") + line));
            ++listed;
        }
    QVERIFY(listed >= 15); // File, Playback, View and Help hold at least this many
    for (const char* key : {"Space", "Right", "Left", "R", "]", "[", "F11", "F6", "F1"})
        QVERIFY2(text.contains(QString::fromLatin1(key) + QLatin1Char('\t')), key);
    // And the keys the views use themselves.
    QVERIFY(text.contains(QStringLiteral("Shift+F10")));
    QVERIFY(text.contains(QStringLiteral("Choose a worker")));
    QVERIFY(text.contains(QStringLiteral("Pan along the run")));
    dialog->close();
}

void TestWindowKeys::mnemonics_are_unique_data() {
    QTest::addColumn<QString>("lesson");
    QTest::newRow("welcome") << QString();
    const auto library =
        lockstep::lessons::LessonLibrary::load(lockstep::lessons::default_resources_dir());
    for (const auto& l : library.lessons())
        QTest::newRow(qPrintable(l.id)) << l.id;
}

void TestWindowKeys::mnemonics_are_unique() {
    QFETCH(QString, lesson);
    MainWindow window;
    if (!lesson.isEmpty())
        QVERIFY(window.openLesson(lesson, nullptr, false));
    else
        QVERIFY(window.openScenario(scenario_path("straggler.json"), nullptr, true));
    window.resize(1280, 800);
    window.show();
    QVERIFY(QTest::qWaitForWindowExposed(&window));

    // Alt+letter at the window's level: the menu bar's titles and every button, labelled field,
    // group and tab shown in the window answer to it together.
    MnemonicScope top(QStringLiteral("window"));
    QList<MnemonicScope> menus;
    for (const QAction* a : window.menuBar()->actions()) {
        if (!a->isVisible())
            continue;
        top.add(a->text());
        if (!a->menu())
            continue;
        MnemonicScope items(QString(a->text()).remove('&') + QStringLiteral(" menu"));
        for (const QAction* item : a->menu()->actions())
            if (item->isVisible() && !item->isSeparator())
                items.add(item->text());
        menus.push_back(items);
    }
    for (QWidget* w : window.findChildren<QWidget*>()) {
        if (!w->isVisibleTo(&window))
            continue;
        if (auto* b = qobject_cast<QAbstractButton*>(w)) {
            auto* tool = qobject_cast<QToolButton*>(b);
            if (!tool || !tool->defaultAction()) // a toolbar button is its action, listed above
                top.add(b->text());
        } else if (auto* l = qobject_cast<QLabel*>(w); l && l->buddy()) {
            top.add(l->text());
        } else if (auto* g = qobject_cast<QGroupBox*>(w)) {
            top.add(g->title());
        } else if (auto* t = qobject_cast<QTabBar*>(w)) {
            for (int i = 0; i < t->count(); ++i)
                top.add(t->tabText(i));
        }
    }
    QStringList clashes = top.clashes();
    for (const MnemonicScope& m : menus)
        clashes += m.clashes();
    QVERIFY2(clashes.isEmpty(), qPrintable(clashes.join(QStringLiteral("; "))));
    QVERIFY(top.size() >= 12); // the menus, the controls and Run carry mnemonics
    QCOMPARE(menus.size(), 6); // File, Playback, Edit, View, Class Quiz, Help
}

void TestWindowKeys::mnemonic_reaches_its_control() {
    MainWindow window;
    QVERIFY(open_lab(window));
    QComboBox* rule = nullptr;
    for (QComboBox* c : window.controls()->findChildren<QComboBox*>())
        if (c->accessibleName() == QLatin1String("Reduction rule"))
            rule = c;
    QVERIFY(rule);
    press(window.view(QStringLiteral("training")), Qt::Key_D, Qt::AltModifier);
    QTRY_COMPARE(QApplication::focusWidget(), rule);
}

QTEST_MAIN(TestWindowKeys)
#include "test_window_keys.moc"
