// What the projector shows of a class quiz, redrawn from the quiz: the phase, the question, who
// answered, the answers as they come and, once revealed, the results.

#include "class_window.h"

#include "qr_code.h"

#include <QBoxLayout>
#include <QCheckBox>
#include <QComboBox>
#include <QCoreApplication>
#include <QLabel>
#include <QListWidget>
#include <QPushButton>
#include <QSet>
#include <QTableWidget>

#include <algorithm>
#include <map>

namespace lockstep::app {

namespace {

// Whose numbers the projector shows: the first student still in the class (by name only when
// the teacher shows names).
QString example_name(const classroom::ClassQuiz& q) {
    for (const classroom::Student& s : q.students())
        if (!s.removed)
            return q.view().names ? s.display
                                  : QCoreApplication::translate("ClassWindow", "one student");
    return {};
}

// A student as the projector shows them: the name, or while names are hidden the number.
QString shown_name(const classroom::ClassQuiz& q, const classroom::Student& s) {
    return q.view().names
               ? s.display
               : QCoreApplication::translate("ClassWindow", "Student %1").arg(s.id.mid(1));
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

void ClassWindow::refresh() {
    using classroom::Phase;
    redraw_->stop();
    classroom::ClassQuiz& q = *quiz_;
    const Phase phase = q.phase();
    const QStringList urls = q.addresses();
    title_->setText(q.bank().title);
    join_->setText(tr("Join at %1").arg(urls.value(0)));
    code_->setText(tr("Code: %1").arg(q.code()));
    // Someone guessing the code: the teacher sees it (the code changes by itself).
    code_->setToolTip(q.wrong_codes() == 0 ? QString()
                                           : tr("%1 wrong codes tried; the code changed %2 times.")
                                                 .arg(q.wrong_codes())
                                                 .arg(q.code_changes()));
    if (q.wrong_codes() > 0)
        code_->setText(code_->text() + tr("  (%1 wrong tries)").arg(q.wrong_codes()));
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
    QSet<QString> picked;
    for (const QListWidgetItem* item : students_->selectedItems())
        picked.insert(item->data(Qt::UserRole).toString());
    students_->clear();
    for (const classroom::Student& s : q.students()) {
        if (s.removed)
            continue;
        const bool answered = s.responses.count(q.current()) > 0 && phase == Phase::Open;
        auto* item = new QListWidgetItem(
            (answered ? QStringLiteral("✓ ") : QString()) + shown_name(q, s), students_);
        item->setData(Qt::UserRole, s.id);
        if (s.id == selected)
            students_->setCurrentItem(item, QItemSelectionModel::NoUpdate);
        item->setSelected(picked.contains(s.id));
    }
    remove_->setEnabled(!students_->selectedItems().isEmpty());
    for (auto [box, on] :
         {std::pair{lock_, q.locked()}, std::pair{names_, q.view().names},
          std::pair{ranking_, q.view().ranking}, std::pair{show_histogram_, q.view().histogram}}) {
        box->blockSignals(true);
        box->setChecked(on);
        box->blockSignals(false);
    }
    ranking_->setEnabled(q.view().names);
    timer_->setCurrentIndex(std::max(0, timer_->findData(q.timer())));
    back_->setEnabled(phase == Phase::Finished || (phase != Phase::Lobby && q.current() > 0));
    skip_->setEnabled(phase == Phase::Open || phase == Phase::Closed);

    const lessons::Question* question = q.current_question();
    QString phase_text = question && phase != Phase::Finished ? tr("Question %1 of %2 · %3")
                                                                    .arg(q.current() + 1)
                                                                    .arg(q.question_count())
                                                                    .arg(phase_words(phase))
                                                              : phase_words(phase);
    // A question on a timer counts down here, redrawn twice a second.
    const int left = q.seconds_left();
    if (left >= 0)
        phase_text +=
            tr(" · closes in %1:%2").arg(left / 60).arg(left % 60, 2, 10, QLatin1Char('0'));
    phase_->setText(phase_text);
    if (left >= 0 && !clock_->isActive())
        clock_->start();
    else if (left < 0)
        clock_->stop();
    const bool asking = question && phase != Phase::Finished && phase != Phase::Lobby;
    question_->setVisible(asking || phase == Phase::Lobby);
    if (phase == Phase::Lobby)
        question_->setText(tr("%1 questions are ready. Open the first when the class has joined.")
                               .arg(q.question_count()));
    else if (asking)
        question_->setText(
            lessons::question_title(*question) + QStringLiteral("\n") + q.projector_text() +
            (q.students().empty() ? QString()
             : q.view().names
                 ? tr("\n(Every student sees their own numbers; these are %1's.)")
                       .arg(example_name(q))
                 : tr("\n(Every student sees their own numbers; these are one student's.)")));
    count_->setVisible(asking);
    count_->setText(tr("%1 of %2 answered").arg(q.answered_count()).arg(joined));
    const bool bars = (phase == Phase::Closed || phase == Phase::Revealed) && q.view().histogram;
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
        // Names ranked only when the teacher shows both; otherwise how many got each score.
        std::vector<std::pair<QString, int>> rows;
        const bool ranked = q.view().ranking && q.view().names;
        std::map<int, int, std::greater<>> students_with;
        for (const classroom::Student& s : q.students()) {
            if (s.removed)
                continue;
            if (ranked)
                rows.emplace_back(s.display, q.correct_count(s));
            else
                ++students_with[q.correct_count(s)];
        }
        for (const auto& [right, n] : students_with)
            rows.emplace_back(n == 1 ? tr("1 student") : tr("%1 students").arg(n), right);
        std::stable_sort(rows.begin(), rows.end(),
                         [](const auto& a, const auto& b) { return a.second > b.second; });
        scores_->setHorizontalHeaderLabels({ranked ? tr("Student") : tr("Students"), tr("Right")});
        scores_->setRowCount(int(rows.size()));
        for (int i = 0; i < int(rows.size()); ++i) {
            scores_->setItem(i, 0, new QTableWidgetItem(rows[std::size_t(i)].first));
            scores_->setItem(i, 1,
                             new QTableWidgetItem(QStringLiteral("%1 / %2")
                                                      .arg(rows[std::size_t(i)].second)
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

} // namespace lockstep::app
