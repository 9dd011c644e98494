// The projector's window of a class quiz: the quiz's phases as the teacher moves it on, redrawn
// from the quiz at most ten times a second, and its results.

#include "class_window.h"

#include "qr_code.h"

#include "core/error.h"

#include <QBoxLayout>
#include <QCheckBox>
#include <QCloseEvent>
#include <QCoreApplication>
#include <QDir>
#include <QEvent>
#include <QFileDialog>
#include <QLabel>
#include <QListWidget>
#include <QMessageBox>
#include <QPushButton>
#include <QSaveFile>
#include <QTableWidget>
#include <QTimer>

#include <algorithm>

namespace lockstep::app {

namespace {

constexpr int kRedrawMs = 100;

// Whose numbers the projector shows: the first student still in the class.
QString example_name(const classroom::ClassQuiz& q) {
    for (const classroom::Student& s : q.students())
        if (!s.removed)
            return s.display;
    return {};
}

QString phase_words(classroom::Phase phase) {
    switch (phase) {
    case classroom::Phase::Lobby:
        return QCoreApplication::translate("ClassWindow", "Lobby: students are joining");
    case classroom::Phase::Open:
        return QCoreApplication::translate("ClassWindow", "Answering");
    case classroom::Phase::Closed:
        return QCoreApplication::translate("ClassWindow", "Answers closed");
    case classroom::Phase::Revealed:
        return QCoreApplication::translate("ClassWindow", "The answer");
    case classroom::Phase::Finished:
        return QCoreApplication::translate("ClassWindow", "Scores");
    }
    return {};
}

} // namespace

ClassWindow::ClassWindow(lessons::QuizBank bank, std::vector<int> questions, quint16 port,
                         QList<QHostAddress> addresses, classroom::ClassLimits limits,
                         QWidget* parent)
    : QWidget(parent, Qt::Window)
    , quiz_(std::make_unique<classroom::ClassQuiz>(std::move(bank), std::move(questions), limits))
    , server_(std::make_unique<classroom::ClassServer>(*quiz_)) {
    try {
        journal_ = classroom::AnswerJournal::create(
            classroom::AnswerJournal::default_path(quiz_->bank().id));
        if (!journal_->append(quiz_->journal_start()))
            throw Error(journal_->error().toStdString());
        server_->set_journal(journal_.get(), [this](const QString& why) {
            journal_problem_ = why;
            retranslate();
            auto* box = new QMessageBox(
                QMessageBox::Warning, tr("Class Quiz"),
                tr("The quiz's journal %1 could not be written: %2. Answers are refused from "
                   "now on; export the results and start the quiz again.")
                    .arg(QDir::toNativeSeparators(journal_->path()), why),
                QMessageBox::Ok, this);
            box->setAttribute(Qt::WA_DeleteOnClose);
            box->open();
        });
    } catch (const Error& e) {
        journal_.reset();
        journal_problem_ = QString::fromUtf8(e.what());
    }
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
    refresh();
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
    remove_->setText(tr("&Remove Student"));
    question_->setAccessibleName(tr("Question"));
    count_->setAccessibleName(tr("Answers so far"));
    reveal_->setAccessibleName(tr("The answer and the engine's working"));
    scores_->setHorizontalHeaderLabels({tr("Student"), tr("Right")});
    scores_->setAccessibleName(tr("Scores"));
    replay_->setText(tr("Replay in the &Lab"));
    export_->setText(tr("&Export Results…"));
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

void ClassWindow::refresh() {
    using classroom::Phase;
    redraw_->stop();
    classroom::ClassQuiz& q = *quiz_;
    const Phase phase = q.phase();
    const QStringList urls = q.addresses();
    title_->setText(q.bank().title);
    join_->setText(tr("Join at %1").arg(urls.value(0)));
    code_->setText(tr("Code: %1").arg(q.code()));
    static_cast<QrCode*>(qr_)->setText(urls.value(0));
    const int joined = q.student_count();
    if (q.locked())
        lobby_->setText(joined == 1 ? tr("1 student has joined · lobby locked")
                                    : tr("%1 students have joined · lobby locked").arg(joined));
    else
        lobby_->setText(joined == 1 ? tr("1 student has joined")
                                    : tr("%1 students have joined").arg(joined));

    // The names, as typed (plain items), keeping the teacher's selection.
    const QString selected = students_->currentItem()
                                 ? students_->currentItem()->data(Qt::UserRole).toString()
                                 : QString();
    students_->clear();
    for (const classroom::Student& s : q.students()) {
        if (s.removed)
            continue;
        const bool answered = s.responses.count(q.current()) > 0 && phase == Phase::Open;
        auto* item = new QListWidgetItem((answered ? QStringLiteral("✓ ") : QString()) + s.display,
                                         students_);
        item->setData(Qt::UserRole, s.id);
        if (s.id == selected)
            students_->setCurrentItem(item);
    }
    remove_->setEnabled(students_->currentItem() != nullptr);
    lock_->blockSignals(true);
    lock_->setChecked(q.locked());
    lock_->blockSignals(false);

    const lessons::Question* question = q.current_question();
    phase_->setText(question && phase != Phase::Finished ? tr("Question %1 of %2 · %3")
                                                               .arg(q.current() + 1)
                                                               .arg(q.question_count())
                                                               .arg(phase_words(phase))
                                                         : phase_words(phase));
    const bool asking = question && phase != Phase::Finished && phase != Phase::Lobby;
    question_->setVisible(asking || phase == Phase::Lobby);
    if (phase == Phase::Lobby)
        question_->setText(tr("%1 questions are ready. Open the first when the class has joined.")
                               .arg(q.question_count()));
    else if (asking)
        question_->setText(
            lessons::question_title(*question) + QStringLiteral("\n") + q.projector_text() +
            (q.students().empty() ? QString()
                                  : tr("\n(Every student sees their own numbers; these are %1's.)")
                                        .arg(example_name(q))));
    count_->setVisible(asking);
    count_->setText(tr("%1 of %2 answered").arg(q.answered_count()).arg(joined));
    const bool bars = phase == Phase::Closed || phase == Phase::Revealed;
    histogram_->setVisible(bars);
    if (bars)
        histogram_->setBars(q.histogram());
    reveal_->setVisible(phase == Phase::Revealed);
    replay_->setVisible(phase == Phase::Revealed);
    if (phase == Phase::Revealed) {
        const auto r = q.reveal_text();
        QString text = tr("Answer: %1").arg(r.answer);
        if (!r.working.isEmpty())
            text += tr("\nThe engine: %1").arg(r.working);
        text += QStringLiteral("\n") + r.explanation;
        reveal_->setText(text);
        replay_->setEnabled(!r.run.isEmpty());
    }
    scores_->setVisible(phase == Phase::Finished);
    main_->setStretch(main_->indexOf(question_),
                      phase == Phase::Revealed || phase == Phase::Finished ? 0 : 1);
    if (phase == Phase::Finished) {
        std::vector<const classroom::Student*> ranked;
        for (const classroom::Student& s : q.students())
            if (!s.removed)
                ranked.push_back(&s);
        std::stable_sort(ranked.begin(), ranked.end(), [&](const auto* a, const auto* b) {
            return q.correct_count(*a) > q.correct_count(*b);
        });
        scores_->setRowCount(int(ranked.size()));
        for (int i = 0; i < int(ranked.size()); ++i) {
            scores_->setItem(i, 0, new QTableWidgetItem(ranked[std::size_t(i)]->display));
            scores_->setItem(i, 1,
                             new QTableWidgetItem(QStringLiteral("%1 / %2")
                                                      .arg(q.correct_count(*ranked[std::size_t(i)]))
                                                      .arg(q.question_count())));
        }
    }
    switch (phase) {
    case Phase::Lobby:
        advance_->setText(tr("&Open the First Question"));
        break;
    case Phase::Open:
        advance_->setText(tr("&Close the Question"));
        break;
    case Phase::Closed:
        advance_->setText(tr("Re&veal the Answer"));
        break;
    case Phase::Revealed:
        advance_->setText(q.current() + 1 < q.question_count() ? tr("&Next Question")
                                                               : tr("&Show the Scores"));
        break;
    case Phase::Finished:
        advance_->setText(tr("The Quiz Is Over"));
        break;
    }
    advance_->setEnabled(phase != Phase::Finished);
}

bool ClassWindow::exportResults(const QString& path) {
    QSaveFile f(path);
    const QByteArray csv = quiz_->results_csv().toUtf8();
    if (!f.open(QIODevice::WriteOnly) || f.write(csv) != csv.size() || !f.commit()) {
        QMessageBox::warning(
            this, windowTitle(),
            tr("The results could not be written to %1: %2").arg(path, f.errorString()));
        return false;
    }
    return true;
}

void ClassWindow::exportDialog() {
    const QString path = QFileDialog::getSaveFileName(
        this, tr("Export Results"), quiz_->bank().id + QStringLiteral("-results.csv"),
        tr("CSV files (*.csv)"));
    if (!path.isEmpty())
        exportResults(path);
}

void ClassWindow::removeSelected() {
    if (auto* item = students_->currentItem()) {
        quiz_->remove(item->data(Qt::UserRole).toString());
        refresh();
    }
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
