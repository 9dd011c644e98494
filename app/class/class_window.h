#pragma once

// The class quiz in the lab: the dialog that starts it (class_quiz_dialog.cpp), the histogram of
// the answers (answer_histogram.cpp) and the projector's window (class_window.cpp, its widgets in
// class_window_layout.cpp), over the quiz and server of lessons/class.

#include "lockstep_class/answer_journal.h"
#include "lockstep_class/class_server.h"
#include "lockstep_lessons/lesson.h"

#include <QDialog>
#include <QWidget>

#include <memory>

class QBoxLayout;
class QCheckBox;
class QComboBox;
class QFormLayout;
class QLabel;
class QListWidget;
class QPushButton;
class QSpinBox;
class QTableWidget;
class QTimer;

namespace lockstep::app {

// What the teacher chooses before a class quiz starts: a bank (reductions first), its questions,
// the port and the address to listen on.
class ClassQuizDialog : public QDialog {
    Q_OBJECT
public:
    ClassQuizDialog(const lessons::LessonLibrary& library, QWidget* parent = nullptr);

    const lessons::QuizBank* bank() const;
    std::vector<int> questions() const; // indices into the bank's questions, in order
    quint16 port() const;
    QList<QHostAddress> addresses() const; // empty: every classroom address

protected:
    void changeEvent(QEvent* event) override;

private:
    void retranslate();
    void fillQuestions();

    const lessons::LessonLibrary& library_;
    std::vector<const lessons::QuizBank*> banks_;
    QFormLayout* form_ = nullptr;
    QComboBox* bank_ = nullptr;
    QListWidget* questions_ = nullptr;
    QSpinBox* port_ = nullptr;
    QComboBox* bind_ = nullptr;
    QLabel* note_ = nullptr;
    QPushButton* start_ = nullptr;
};

// A bar per group of answers, drawn large for a projector; every label drawn as plain text.
class AnswerHistogram : public QWidget {
    Q_OBJECT
public:
    explicit AnswerHistogram(QWidget* parent = nullptr);
    void setBars(std::vector<classroom::Bar> bars);
    const std::vector<classroom::Bar>& bars() const { return bars_; }
    QSize sizeHint() const override;

protected:
    void paintEvent(QPaintEvent* event) override;
    void changeEvent(QEvent* event) override;

private:
    void retranslate();

    std::vector<classroom::Bar> bars_;
};

// The projector's window of a class quiz: where to join (address, code, QR code), who has
// joined, the question with a live count, the histogram once closed, the engine's working once
// revealed, and the scores at the end. It owns the quiz and its server.
class ClassWindow : public QWidget {
    Q_OBJECT
public:
    // Throws lockstep::Error when the server cannot listen.
    ClassWindow(lessons::QuizBank bank, std::vector<int> questions, quint16 port,
                QList<QHostAddress> addresses, classroom::ClassLimits limits = {},
                QWidget* parent = nullptr);
    // Goes on with the quiz of a journal (its bank from `library`), as `lockstep-cli class serve
    // --resume` does: the same questions, join code and students' tokens, at the same question;
    // the journal goes on being written. Throws lockstep::Error saying why it cannot.
    static ClassWindow* resume(const lessons::LessonLibrary& library, const QString& journal,
                               quint16 port, QList<QHostAddress> addresses,
                               QWidget* parent = nullptr);
    ~ClassWindow() override;

    classroom::ClassQuiz& quiz() { return *quiz_; }
    classroom::ClassServer& server() { return *server_; }
    quint16 port() const { return port_; }
    // Where the quiz's journal is (empty when none could be made).
    QString journalPath() const;

    // What the buttons do, for the keyboard and the tests.
    void advance(); // open, close, reveal or next: whichever comes now
    void refresh(); // redraw from the quiz now (otherwise at most ten times a second)
    bool exportResults(const QString& path); // the results CSV; false (and a message) on failure
    bool exportReports(const QString& path); // one page per student, HTML; the same

    // The widgets, for the tests.
    QLabel* joinLabel() const { return join_; }
    QLabel* questionLabel() const { return question_; }
    QLabel* countLabel() const { return count_; }
    QLabel* revealLabel() const { return reveal_; }
    QListWidget* studentList() const { return students_; }
    AnswerHistogram* histogram() const { return histogram_; }
    QTableWidget* scoreTable() const { return scores_; }
    QPushButton* advanceButton() const { return advance_; }
    QPushButton* replayButton() const { return replay_; }
    QPushButton* backButton() const { return back_; }
    QPushButton* skipButton() const { return skip_; }
    QComboBox* timerBox() const { return timer_; }
    QCheckBox* namesBox() const { return names_; }
    QCheckBox* rankingBox() const { return ranking_; }
    QCheckBox* histogramBox() const { return show_histogram_; }
    QLabel* phaseLabel() const { return phase_; }
    QWidget* qrCode() const { return qr_; }

Q_SIGNALS:
    // "Replay in the lab": the revealed question's lockstep: link, for the lab window.
    void replayRequested(const QString& link);

protected:
    void closeEvent(QCloseEvent* event) override;
    void changeEvent(QEvent* event) override;

private:
    // A new quiz with a new journal (`journal` null), or the quiz of `journal` and its records.
    ClassWindow(lessons::QuizBank bank, std::vector<int> questions, quint16 port,
                QList<QHostAddress> addresses, classroom::ClassLimits limits,
                std::unique_ptr<classroom::AnswerJournal> journal,
                const std::vector<QJsonObject>& records, QWidget* parent);
    void journalFailed(const QString& why);
    void build();
    void retranslate(); // the fixed texts, then refresh()
    void exportDialog();
    void reportsDialog();
    void removeSelected();
    void setView(); // from the three boxes
    bool saveFile(const QString& path, const QByteArray& bytes, const QString& what);

    std::unique_ptr<classroom::ClassQuiz> quiz_;
    // Every join, answer and move, on disk before it is acknowledged (null when none could be
    // made; the window says so).
    std::unique_ptr<classroom::AnswerJournal> journal_;
    QString journal_problem_;
    std::unique_ptr<classroom::ClassServer> server_;
    quint16 port_ = 0;
    QTimer* redraw_ = nullptr;
    QBoxLayout* main_ =
        nullptr; // the question's column: its last item before the buttons is a stretch
    QLabel* title_ = nullptr;
    QLabel* join_ = nullptr;
    QLabel* code_ = nullptr;
    QWidget* qr_ = nullptr;
    QLabel* lobby_ = nullptr;
    QListWidget* students_ = nullptr;
    QCheckBox* lock_ = nullptr;
    QPushButton* remove_ = nullptr;
    QLabel* phase_ = nullptr;
    QLabel* question_ = nullptr;
    QLabel* count_ = nullptr;
    AnswerHistogram* histogram_ = nullptr;
    QLabel* reveal_ = nullptr;
    QTableWidget* scores_ = nullptr;
    QPushButton* advance_ = nullptr;
    QPushButton* replay_ = nullptr;
    QPushButton* export_ = nullptr;
    QPushButton* reports_ = nullptr;
    QPushButton* back_ = nullptr;
    QPushButton* skip_ = nullptr;
    QComboBox* timer_ = nullptr;
    QCheckBox* names_ = nullptr;
    QCheckBox* ranking_ = nullptr;
    QCheckBox* show_histogram_ = nullptr;
    QTimer* clock_ = nullptr; // redraws the countdown while a question is on a timer
};

} // namespace lockstep::app
