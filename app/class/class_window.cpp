// The projector's window of a class quiz: the quiz's phases as the teacher moves it on, redrawn
// from the quiz at most ten times a second (class_window_refresh.cpp), and its results.

#include "class_window.h"

#include "qr_code.h"

#include "core/error.h"

#include <QBoxLayout>
#include <QCheckBox>
#include <QCloseEvent>
#include <QComboBox>
#include <QCoreApplication>
#include <QDir>
#include <QEvent>
#include <QFileDialog>
#include <QLabel>
#include <QListWidget>
#include <QMessageBox>
#include <QPushButton>
#include <QSaveFile>
#include <QSet>
#include <QTableWidget>
#include <QTimer>

#include <algorithm>
#include <map>

namespace lockstep::app {

namespace {

constexpr int kRedrawMs = 100;

} // namespace

ClassWindow::ClassWindow(lessons::QuizBank bank, std::vector<int> questions, quint16 port,
                         QList<QHostAddress> addresses, classroom::ClassLimits limits,
                         QWidget* parent)
    : ClassWindow(std::move(bank), std::move(questions), port, std::move(addresses), limits,
                  nullptr, {}, parent) {}

ClassWindow* ClassWindow::resume(const lessons::LessonLibrary& library, const QString& journal,
                                 quint16 port, QList<QHostAddress> addresses, QWidget* parent) {
    std::vector<QJsonObject> records;
    auto resumed = classroom::AnswerJournal::resume(journal, records);
    lessons::QuizBank bank =
        library.load_bank_named(records.front().value(QStringLiteral("bank")).toString());
    std::vector<int> order = classroom::journal_questions(bank, records.front());
    return new ClassWindow(std::move(bank), std::move(order), port, std::move(addresses), {},
                           std::move(resumed), records, parent);
}

ClassWindow::ClassWindow(lessons::QuizBank bank, std::vector<int> questions, quint16 port,
                         QList<QHostAddress> addresses, classroom::ClassLimits limits,
                         std::unique_ptr<classroom::AnswerJournal> journal,
                         const std::vector<QJsonObject>& records, QWidget* parent)
    : QWidget(parent, Qt::Window)
    , quiz_(std::make_unique<classroom::ClassQuiz>(std::move(bank), std::move(questions), limits))
    , server_(std::make_unique<classroom::ClassServer>(*quiz_)) {
    if (journal) {
        classroom::replay_journal(*quiz_, records, journal->path());
        journal_ = std::move(journal);
    } else {
        try {
            journal_ = classroom::AnswerJournal::create(
                classroom::AnswerJournal::default_path(quiz_->bank().id));
            if (!journal_->append(quiz_->journal_start()))
                throw Error(journal_->error().toStdString());
        } catch (const Error& e) {
            journal_.reset();
            journal_problem_ = QString::fromUtf8(e.what());
        }
    }
    if (journal_)
        server_->set_journal(journal_.get(), [this](const QString& why) { journalFailed(why); });
    port_ = server_->start(std::move(addresses), port);
    build();
    redraw_ = new QTimer(this);
    redraw_->setSingleShot(true);
    redraw_->setInterval(kRedrawMs);
    connect(redraw_, &QTimer::timeout, this, &ClassWindow::refresh);
    // Joins and answers arrive in bursts: the projector redraws at most ten times a second.
    connect(server_.get(), &classroom::ClassServer::quizChanged, this, [this] {
        if (!redraw_->isActive())
            redraw_->start();
    });
    clock_ = new QTimer(this);
    clock_->setInterval(500);
    connect(clock_, &QTimer::timeout, this, &ClassWindow::refresh);
    refresh();
}

void ClassWindow::journalFailed(const QString& why) {
    journal_problem_ = why;
    retranslate();
    auto* box = new QMessageBox(QMessageBox::Warning, tr("Class Quiz"),
                                tr("The quiz's journal %1 could not be written: %2. Answers are "
                                   "refused from now on; export the results and start the quiz "
                                   "again.")
                                    .arg(QDir::toNativeSeparators(journal_->path()), why),
                                QMessageBox::Ok, this);
    box->setAttribute(Qt::WA_DeleteOnClose);
    box->open();
}

ClassWindow::~ClassWindow() {
    server_.reset(); // before the quiz it serves and the journal it writes
}

QString ClassWindow::journalPath() const {
    return journal_ ? journal_->path() : QString();
}

void ClassWindow::retranslate() {
    setWindowTitle(tr("Class Quiz: %1").arg(quiz_->bank().title));
    join_->setAccessibleName(tr("Join address"));
    code_->setAccessibleName(tr("Join code"));
    students_->setAccessibleName(tr("Students who have joined"));
    lock_->setText(tr("&Lock the lobby"));
    remove_->setText(tr("&Remove Selected"));
    question_->setAccessibleName(tr("Question"));
    count_->setAccessibleName(tr("Answers so far"));
    reveal_->setAccessibleName(tr("The answer and the engine's working"));
    scores_->setHorizontalHeaderLabels({tr("Student"), tr("Right")});
    scores_->setAccessibleName(tr("Scores"));
    replay_->setText(tr("Replay in the &Lab"));
    export_->setText(tr("&Export Results…"));
    reports_->setText(tr("Re&ports…"));
    reports_->setToolTip(tr("One page per student, with their numbers, their answers and the "
                            "working, to print or send."));
    back_->setText(tr("&Back"));
    back_->setToolTip(tr("The question before, as it was left"));
    skip_->setText(tr("S&kip"));
    skip_->setToolTip(tr("Close this question without revealing it and go on"));
    names_->setText(tr("Show na&mes"));
    names_->setToolTip(tr("Names stay off the projector until you tick this."));
    ranking_->setText(tr("Show the rank&ing"));
    ranking_->setToolTip(tr("At the end, the students by score, with their names (needs names "
                            "shown); otherwise how many got each score."));
    show_histogram_->setText(tr("Show the &histogram"));
    for (int i = 0; i < timer_->count(); ++i) {
        const int seconds = timer_->itemData(i).toInt();
        timer_->setItemText(
            i,
            seconds == 0
                ? tr("No timer")
                : tr("Timer: %1:%2").arg(seconds / 60).arg(seconds % 60, 2, 10, QLatin1Char('0')));
    }
    timer_->setAccessibleName(tr("Timer per question"));
    export_->setToolTip(journal_ && journal_problem_.isEmpty()
                            ? tr("Every answer is also saved, as it comes, in %1.")
                                  .arg(QDir::toNativeSeparators(journal_->path()))
                            : tr("Answers are not saved as they come (%1): export the "
                                 "results before closing.")
                                  .arg(journal_problem_));
    if (redraw_) // built: the texts that follow the quiz's state
        refresh();
}

void ClassWindow::changeEvent(QEvent* event) {
    if (event->type() == QEvent::LanguageChange)
        retranslate();
    QWidget::changeEvent(event);
}

void ClassWindow::advance() {
    switch (quiz_->phase()) {
    case classroom::Phase::Lobby:
        quiz_->open();
        break;
    case classroom::Phase::Open:
        quiz_->close();
        break;
    case classroom::Phase::Closed:
        quiz_->reveal();
        break;
    case classroom::Phase::Revealed:
        quiz_->next();
        break;
    case classroom::Phase::Finished:
        break;
    }
    refresh();
}

bool ClassWindow::saveFile(const QString& path, const QByteArray& bytes, const QString& what) {
    QSaveFile f(path);
    if (!f.open(QIODevice::WriteOnly) || f.write(bytes) != bytes.size() || !f.commit()) {
        QMessageBox::warning(this, windowTitle(),
                             what.arg(QDir::toNativeSeparators(path), f.errorString()));
        return false;
    }
    return true;
}

bool ClassWindow::exportResults(const QString& path) {
    return saveFile(path, quiz_->results_csv().toUtf8(),
                    tr("The results could not be written to %1: %2"));
}

bool ClassWindow::exportReports(const QString& path) {
    return saveFile(path, quiz_->student_reports().toUtf8(),
                    tr("The reports could not be written to %1: %2"));
}

void ClassWindow::reportsDialog() {
    const QString path = QFileDialog::getSaveFileName(
        this, tr("Save the Reports"), quiz_->bank().id + QStringLiteral("-reports.html"),
        tr("Web pages (*.html)"));
    if (!path.isEmpty())
        exportReports(path);
}

void ClassWindow::setView() {
    classroom::View view;
    view.names = names_->isChecked();
    view.ranking = ranking_->isChecked();
    view.histogram = show_histogram_->isChecked();
    quiz_->set_view(view);
    refresh();
}

void ClassWindow::exportDialog() {
    const QString path = QFileDialog::getSaveFileName(
        this, tr("Export Results"), quiz_->bank().id + QStringLiteral("-results.csv"),
        tr("CSV files (*.csv)"));
    if (!path.isEmpty())
        exportResults(path);
}

void ClassWindow::removeSelected() {
    QStringList ids;
    for (const QListWidgetItem* item : students_->selectedItems())
        ids << item->data(Qt::UserRole).toString();
    if (ids.isEmpty())
        return;
    if (ids.size() > 1 &&
        QMessageBox::question(
            this, windowTitle(),
            tr("Remove the %1 selected students from the quiz?").arg(ids.size())) !=
            QMessageBox::Yes)
        return;
    quiz_->remove(ids);
    refresh();
}

void ClassWindow::closeEvent(QCloseEvent* event) {
    const bool answers =
        std::any_of(quiz_->students().begin(), quiz_->students().end(),
                    [](const classroom::Student& s) { return !s.responses.empty(); });
    if (answers && isVisible() &&
        QMessageBox::question(this, windowTitle(),
                              journal_ ? tr("End the class quiz? Every answer is kept in %1; "
                                            "export the results for a spreadsheet first if you "
                                            "want one.")
                                             .arg(QDir::toNativeSeparators(journal_->path()))
                                       : tr("End the class quiz? Export the results first if "
                                            "you want to keep them."),
                              QMessageBox::Yes | QMessageBox::No,
                              QMessageBox::No) != QMessageBox::Yes) {
        event->ignore();
        return;
    }
    event->accept();
}

} // namespace lockstep::app
