#pragma once

#include <QDialog>
#include <QList>
#include <QObject>
#include <QString>

class QEvent;
class QKeyEvent;
class QMainWindow;
class QTextBrowser;
class QWidget;

namespace lockstep::app {

// Who gets a key in the lab window. The rule (PhET's, for a lab used with and without a mouse):
//
// 1. Space and Enter activate the focused control: a button is pressed, a check box toggled, a
//    link in the lesson followed.
// 2. A bare key (no Ctrl or Alt, not a function key) that the focused control uses goes to that
// control: text
//    fields, spin boxes, combo boxes and lists take every bare key; the lesson's page takes
//    arrows, Space, Enter, Page Up/Down, Home and End; sliders take arrows, Page Up/Down, Home and
//    End; tab bars take arrows; buttons and check boxes take Space and Enter.
// 3. A view takes the keys it says it uses (it accepts QEvent::ShortcutOverride for them): the
//    cluster view its arrows (choose a worker), Enter and the menu key; the timeline its arrows
//    (pan).
// 4. Every other key is the window's: Space plays or pauses, Left and Right step through events,
//    R resets, [ and ] change the speed, wherever the focus is (a view, the toolbar, a label,
//    nothing). Shortcuts with Ctrl, Alt or a function key always belong to the window.
//
// Rules 1 and 2 live in focusTakesKey() and KeyRouter; rule 3 in each view's event().
bool focusTakesKey(const QWidget* focus, const QKeyEvent& key);

// Applies rules 1 and 2 for one window, as an application-wide event filter: lets the focused
// control keep the bare keys it uses, and makes Enter press a focused button or check box.
class KeyRouter : public QObject {
    Q_OBJECT
public:
    explicit KeyRouter(QWidget* window);

protected:
    bool eventFilter(QObject* watched, QEvent* event) override;

private:
    QWidget* window_;
};

// One line of Help → Keyboard Shortcuts.
struct ShortcutEntry {
    QString keys;  // in the platform's words, e.g. "Space", "Ctrl+O"
    QString what;  // what the key does
    QString where; // "Playback menu", "Cluster view", ...
};

// Every key of the window: each menu action with a shortcut (read from the actions themselves, so
// new actions appear without editing a list), then the keys the views use and the keys that move
// between controls.
QList<ShortcutEntry> windowShortcuts(const QMainWindow& window);

// Help → Keyboard Shortcuts: the list above in large type, for a projector.
class ShortcutsDialog : public QDialog {
    Q_OBJECT
public:
    explicit ShortcutsDialog(const QMainWindow& window, QWidget* parent = nullptr);
    // The list as shown (plain text), for tests and screen readers.
    QString text() const;

protected:
    void changeEvent(QEvent* event) override;

private:
    void retranslate();

    const QMainWindow* window_ = nullptr; // not owned; the dialog's window outlives it
    QTextBrowser* list_ = nullptr;
    QString text_;
};

} // namespace lockstep::app
