#include "keyboard.h"

#include <QAbstractButton>
#include <QAbstractItemView>
#include <QAbstractSlider>
#include <QAbstractSpinBox>
#include <QAction>
#include <QApplication>
#include <QComboBox>
#include <QCoreApplication>
#include <QDialogButtonBox>
#include <QEvent>
#include <QKeyEvent>
#include <QLineEdit>
#include <QMainWindow>
#include <QMenu>
#include <QMenuBar>
#include <QMetaObject>
#include <QPlainTextEdit>
#include <QTabBar>
#include <QTextBrowser>
#include <QVBoxLayout>

namespace lockstep::app {

namespace {

// A key a control could use: no Ctrl, Alt or Meta, and not a function key (F1, F6, F11, ... are
// always the window's).
bool is_bare(const QKeyEvent& key) {
    return !(key.modifiers() & (Qt::ControlModifier | Qt::AltModifier | Qt::MetaModifier)) &&
           !(key.key() >= Qt::Key_F1 && key.key() <= Qt::Key_F35);
}

bool is_arrow(int k) {
    return k == Qt::Key_Left || k == Qt::Key_Right || k == Qt::Key_Up || k == Qt::Key_Down;
}

bool is_paging(int k) {
    return k == Qt::Key_PageUp || k == Qt::Key_PageDown || k == Qt::Key_Home || k == Qt::Key_End;
}

bool is_activation(int k) {
    return k == Qt::Key_Space || k == Qt::Key_Return || k == Qt::Key_Enter;
}

// "Export View as &PNG…" -> "Export View as PNG…"; "&&" stays a literal "&".
QString without_mnemonic(QString text) {
    text.replace(QLatin1String("&&"), QStringLiteral("\x01"));
    text.remove(QLatin1Char('&'));
    text.replace(QChar(0x01), QLatin1Char('&'));
    return text;
}

void add_menu(QList<ShortcutEntry>& out, const QMenu* menu, const QString& where) {
    for (const QAction* a : menu->actions()) {
        if (a->isSeparator())
            continue;
        if (a->menu()) {
            add_menu(out, a->menu(), where);
            continue;
        }
        for (const QKeySequence& key : a->shortcuts())
            if (!key.isEmpty())
                out.push_back(
                    {key.toString(QKeySequence::NativeText), without_mnemonic(a->text()), where});
    }
}

} // namespace

bool focusTakesKey(const QWidget* focus, const QKeyEvent& key) {
    if (!focus || !is_bare(key))
        return false;
    const int k = key.key();
    // Text and choices: they type, move and search with every bare key.
    if (qobject_cast<const QLineEdit*>(focus) || qobject_cast<const QAbstractSpinBox*>(focus) ||
        qobject_cast<const QComboBox*>(focus) || qobject_cast<const QAbstractItemView*>(focus))
        return true;
    if (const auto* edit = qobject_cast<const QTextEdit*>(focus))
        return !edit->isReadOnly() || is_arrow(k) || is_paging(k) || is_activation(k);
    if (const auto* edit = qobject_cast<const QPlainTextEdit*>(focus))
        return !edit->isReadOnly() || is_arrow(k) || is_paging(k) || is_activation(k);
    if (qobject_cast<const QAbstractSlider*>(focus))
        return is_arrow(k) || is_paging(k);
    if (qobject_cast<const QTabBar*>(focus))
        return is_arrow(k);
    if (qobject_cast<const QAbstractButton*>(focus))
        return is_activation(k);
    return false;
}

KeyRouter::KeyRouter(QWidget* window)
    : QObject(window)
    , window_(window) {
    qApp->installEventFilter(this);
}

bool KeyRouter::eventFilter(QObject* watched, QEvent* event) {
    const QEvent::Type type = event->type();
    if (type != QEvent::ShortcutOverride && type != QEvent::KeyPress)
        return false;
    auto* widget = qobject_cast<QWidget*>(watched);
    if (!widget || widget->window() != window_)
        return false;
    const auto& key = *static_cast<QKeyEvent*>(event);
    if (type == QEvent::ShortcutOverride) {
        // Only the focused widget's say counts, not that of the parents the event climbs to.
        if (widget == window_->focusWidget() && focusTakesKey(widget, key)) {
            event->accept();
            return true;
        }
        return false;
    }
    // Enter presses a focused button or toggles a check box, as Space does.
    auto* button = qobject_cast<QAbstractButton*>(widget);
    if (button && button->isEnabled() && is_bare(key) &&
        (key.key() == Qt::Key_Return || key.key() == Qt::Key_Enter)) {
        button->click();
        return true;
    }
    return false;
}

QList<ShortcutEntry> windowShortcuts(const QMainWindow& window) {
    QList<ShortcutEntry> out;
    for (const QAction* top : window.menuBar()->actions())
        if (top->menu())
            add_menu(out, top->menu(),
                     QCoreApplication::translate("lockstep::app::ShortcutsDialog", "%1 menu")
                         .arg(without_mnemonic(top->text())));
    for (const QAction* a : window.actions())
        for (const QKeySequence& key : a->shortcuts())
            if (!key.isEmpty())
                out.push_back(
                    {key.toString(QKeySequence::NativeText), without_mnemonic(a->text()),
                     QCoreApplication::translate("lockstep::app::ShortcutsDialog", "Window")});

    const QString cluster =
        QCoreApplication::translate("lockstep::app::ShortcutsDialog", "Cluster view");
    const QString timeline =
        QCoreApplication::translate("lockstep::app::ShortcutsDialog", "Timeline view");
    const QString anywhere =
        QCoreApplication::translate("lockstep::app::ShortcutsDialog", "Anywhere");
    const auto native = [](const char* keys) {
        return QKeySequence(QString::fromLatin1(keys)).toString(QKeySequence::NativeText);
    };
    out.push_back({native("Left") + QStringLiteral(", ") + native("Right") + QStringLiteral(", ") +
                       native("Up") + QStringLiteral(", ") + native("Down"),
                   QCoreApplication::translate("lockstep::app::ShortcutsDialog", "Choose a worker"),
                   cluster});
    out.push_back(
        {native("Return") + QStringLiteral(", ") + native("Menu") + QStringLiteral(", ") +
             native("Shift+F10"),
         QCoreApplication::translate("lockstep::app::ShortcutsDialog",
                                     "Open the chosen worker's faults (the menu a click opens)"),
         cluster});
    out.push_back(
        {native("Left") + QStringLiteral(", ") + native("Right"),
         QCoreApplication::translate("lockstep::app::ShortcutsDialog", "Pan along the run"),
         timeline});
    out.push_back(
        {QStringLiteral("+, -"),
         QCoreApplication::translate("lockstep::app::ShortcutsDialog", "Zoom in, zoom out"),
         timeline});
    out.push_back(
        {native("Home") + QStringLiteral(", 0"),
         QCoreApplication::translate("lockstep::app::ShortcutsDialog", "Show the whole run"),
         timeline});
    out.push_back({native("Tab") + QStringLiteral(", ") + native("Shift+Tab"),
                   QCoreApplication::translate("lockstep::app::ShortcutsDialog",
                                               "Move to the next or previous control, link or "
                                               "view"),
                   anywhere});
    out.push_back({native("Space") + QStringLiteral(", ") + native("Return"),
                   QCoreApplication::translate("lockstep::app::ShortcutsDialog",
                                               "Press the focused button, toggle the focused "
                                               "check box, follow the focused link"),
                   anywhere});
    out.push_back(
        {QCoreApplication::translate("lockstep::app::ShortcutsDialog", "Alt+underlined letter"),
         QCoreApplication::translate("lockstep::app::ShortcutsDialog",
                                     "Go to that menu, control or button"),
         anywhere});
    out.push_back({native("Ctrl+Tab") + QStringLiteral(", ") + native("Ctrl+Shift+Tab"),
                   QCoreApplication::translate("lockstep::app::ShortcutsDialog",
                                               "Next or previous tab of the views, with the "
                                               "focus in them"),
                   anywhere});
    return out;
}

ShortcutsDialog::ShortcutsDialog(const QMainWindow& window, QWidget* parent)
    : QDialog(parent)
    , window_(&window) {
    setObjectName(QStringLiteral("keyboardShortcuts"));
    list_ = new QTextBrowser;
    QFont big = font();
    big.setPointSizeF(big.pointSizeF() * 1.3); // readable from the back of a classroom
    list_->setFont(big);
    retranslate();
    auto* buttons = new QDialogButtonBox(QDialogButtonBox::Close);
    connect(buttons, &QDialogButtonBox::rejected, this, &QDialog::close);
    auto* layout = new QVBoxLayout(this);
    layout->addWidget(list_);
    layout->addWidget(buttons);
    // Most of the window it belongs to, so the whole list is seen at once on a projector.
    resize(window.size().boundedTo(QSize(900, 900)).expandedTo(QSize(480, 360)) * 0.9);
}

void ShortcutsDialog::changeEvent(QEvent* event) {
    // Once the window's menus have their new texts too: the list is read from them.
    if (event->type() == QEvent::LanguageChange)
        QMetaObject::invokeMethod(this, &ShortcutsDialog::retranslate, Qt::QueuedConnection);
    QDialog::changeEvent(event);
}

// The title and the list, from the window's actions, in the language in use.
void ShortcutsDialog::retranslate() {
    setWindowTitle(tr("Keyboard Shortcuts"));
    QString html = tr("<p>Space, the arrows, R, [ and ] drive the playback wherever the focus is, "
                      "unless the focused control uses the key itself: then Space presses the "
                      "button or toggles the box, and arrows move in the list or field. Click a "
                      "view, or press F6, to give the keys back to the playback.</p>");
    html += QStringLiteral("<table cellspacing=0 cellpadding=6>");
    text_.clear();
    QString where;
    for (const ShortcutEntry& e : windowShortcuts(*window_)) {
        if (e.where != where) {
            where = e.where;
            html +=
                QStringLiteral("<tr><td colspan=2><b>%1</b></td></tr>").arg(where.toHtmlEscaped());
        }
        html += QStringLiteral("<tr><td><tt>%1</tt></td><td>%2</td></tr>")
                    .arg(e.keys.toHtmlEscaped(), e.what.toHtmlEscaped());
        text_ += QStringLiteral("%1\t%2\t%3\n").arg(e.keys, e.what, e.where);
    }
    html += QStringLiteral("</table>");
    list_->setAccessibleName(tr("Keyboard shortcuts"));
    list_->setHtml(html);
}

QString ShortcutsDialog::text() const {
    return text_;
}

} // namespace lockstep::app
